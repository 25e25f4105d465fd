"""What reading the plays is worth (`meldcalc.engines.inference`): where the cards lie, and
the points it wins.

1. Where the cards lie. Seeded deals of each game (bench/games.py: random hands, ready as
   `bid` simulates them) are played by the look-ahead player in every seat (the table the
   inference reads: `bid --strong`'s player). After every ``--every`` cards, the seat to
   play in each deal draws ``--candidates`` layouts uniformly among those that fit what it
   has seen, as every build before the inference did, then weighs them by the others'
   plays: printed, the share of the unseen cards each puts in the hand that truly holds
   them (mean over the deals, ± its standard error), uniform beside weighted, and the
   weights' median effective sample. The uniform column is the yardstick: the same layouts
   with every weight equal.
2. The points it wins (``--duplicate N``): N deals played twice by the look-ahead player
   (``--player look``) or the reference (``--player reference``, hint's player: ten times
   the cost), its layouts weighed on the bidding side and drawn uniformly on the defence,
   then the other way round; the edge is the bidding side's points in the first less those
   in the second (positive: reading the plays wins points), split by side as in
   bench/strength.py.

Usage: python bench/inference.py [--variant NAME ...] [--deals N] [--every K]
       [--candidates C] [--duplicate N] [--player look|reference] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from meldcalc.dealing.unseen import sample_layouts
from meldcalc.engines.inference import log_likelihoods, weighed
from meldcalc.engines.lookahead import LookAhead
from meldcalc.engines.reference import Reference, play, seen_by
from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

sys.path.insert(0, str(Path(__file__).parent))
from games import bidding_seats, mean_se, new_game, random_hand_deals

GAMES = ["single-deck", "double-deck", "three-handed"]


def placed(layouts: np.ndarray, truth: np.ndarray, others: list[int]) -> np.ndarray:
    """The share of the unseen cards each layout puts in the hand that truly holds them."""
    right = np.minimum(layouts[:, others], truth[None, others]).sum(axis=(1, 2))
    return right / truth[others].sum()


def percent(values: list[float] | np.ndarray) -> str:
    values = np.asarray(values) * 100
    return f"{values.mean():5.1f}% ± {values.std(ddof=1) / np.sqrt(len(values)):4.1f}"


def where_cards_lie(variant: Variant, args: argparse.Namespace) -> None:
    deals = random_hand_deals(variant, args.deals, args.seed)
    game = new_game(variant, deals)
    game.keep_past()
    player = LookAhead(variant, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    played = 0
    print(f"{variant.name}: {args.deals} deals, {args.candidates} layouts a decision")
    print("  cards played  uniform          weighted         gain             effective")
    while not game.over:
        if played and played % args.every == 0 and game.cards_left > variant.players:
            rows = np.arange(game.n)
            held = game.held()
            layouts = np.stack([sample_layouts(seen_by(game, row, held), args.candidates, rng)
                                for row in rows])  # fmt: skip
            logs = log_likelihoods(game, rows, layouts)
            uniform, weighted, effective = [], [], []
            for row in rows:
                others = [s for s in range(variant.players) if s != game.seat[row]]
                share = placed(layouts[row], held[row], others)
                weights, size, _ = weighed(logs[row])
                uniform.append(share.mean())
                weighted.append(weights @ share)
                effective.append(size)
            gain = np.array(weighted) - np.array(uniform)
            print(f"  {played:12}  {percent(uniform)}  {percent(weighted)}  {percent(gain)}"
                  f"  {np.median(effective):9,.0f}", flush=True)  # fmt: skip
        game.advance(player.choose(game, np.arange(game.n)))
        played += 1


def duplicate(variant: Variant, args: argparse.Namespace) -> None:
    deals = random_hand_deals(variant, args.duplicate, args.seed + 1)
    kind = LookAhead if args.player == "look" else Reference
    bidders, defenders = bidding_seats(variant)
    points = {}
    start = time.perf_counter()
    for reading in (bidders, defenders):
        weighed_player = kind(variant, seed=args.seed + 2, infer=True)
        uniform_player = kind(variant, seed=args.seed + 3)
        seats = {seat: weighed_player if seat in reading else uniform_player
                 for seat in range(variant.players)}  # fmt: skip
        game = new_game(variant, deals)
        game.keep_past()
        points[reading] = play(game, seats)[:, 0] + deals.buried
    edge = points[bidders] - points[defenders]
    print(
        f"{variant.name}: {args.duplicate} deals in duplicate, {args.player} player weighed"
        f" against uniform ({time.perf_counter() - start:.0f} s): edge {mean_se(edge)}"
        f" (the weighed side's points: bidding {mean_se(points[bidders])}, against"
        f" {mean_se(points[defenders])} when it defends)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", nargs="*", default=GAMES)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--every", type=int, default=8)
    parser.add_argument("--candidates", type=int, default=400)
    parser.add_argument("--duplicate", type=int, default=0)
    parser.add_argument("--player", choices=("look", "reference"), default="look")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    for name in args.variant:
        variant = load_variant(name)
        if args.deals:
            where_cards_lie(variant, args)
        if args.duplicate:
            duplicate(variant, args)


if __name__ == "__main__":
    main()
