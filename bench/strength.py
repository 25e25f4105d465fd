"""The fast player against the exact reference player, on seeded deals, in any game.

Seat 0 is the bidder, names trump and leads; the deals are made ready as `bid` simulates
them and every seat melds before the first lead (bench/games.py: the widow, the kitty and
the exchange). Groups: in single deck three fixed bidder's hands, the other cards dealt at
random (``--deals`` deals each), and in every game ``--hands`` random hands, one deal
each, trump their longest suit (one they may name; ties: the better meld, then S H D C):

    strong   AS 10S KS QS JS JD 9S AH AD AC KH QH   trump S   (NOTES.md)
    average  AD 10D KD 9D 9D KS 9S AH QH 9H KC QC   trump D   (NOTES.md)
    weak     KS QS JS 9S 10H JH 9H QD JD 9D JC 9C   trump S   (a marriage, no ace)

The yardstick is fixed: the reference plays its layouts out with the policy of meldcalc
0.2.0 (bench/yardstick.py), whatever the fast player under test. Per group, the bidding
side's trick points (buried points included; mean ± standard error): fast-player self-play
(`meldcalc.engines.simulate` in every seat), reference self-play
(`meldcalc.engines.reference`) and, where the solver reaches a whole deal, double dummy (the
first ``--dd`` deals, their count in brackets); then the duplicate edge of the reference
over the fast player: each deal played twice, the reference on the bidding side against the
fast player, then the other way round; the edge is the bidding side's points in the first
less those in the second (positive: the reference is stronger), split into what the
reference gains as the bidding side and as the defenders; last, the self-play gap (reference
less fast player, paired). With ``--previous`` the 0.2.0 policy is measured as a fast player
too, against the same reference on the same deals, its row beside the current one;
``--players`` picks the fast players measured, among them ``look``, the look-ahead player
`bid --strong` plays with (`meldcalc.engines.lookahead`, ``--look-layouts`` layouts a
decision, its layouts played out by the rules), and ``look-learned``, the same player with
its layouts played out by the learned policy.

Goals (issue 17): single deck, an edge of at most 8 trick points a deal in every group (5
the aim) and a self-play gap within 3; other games, an edge of at most 4% of the hand's
trick points.

Usage: python bench/strength.py [--variant NAME] [--deals N] [--hands H]
       [--groups strong,average,...] [--layouts K] [--exact-from T] [--seed S] [--dd D]
       [--previous] [--players now,0.2.0,look] [--look-layouts K]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from meldcalc.engines.learned import Learned
from meldcalc.engines.lookahead import LAYOUTS as LOOK_LAYOUTS
from meldcalc.engines.lookahead import LookAhead
from meldcalc.engines.reference import EXACT_FROM, LAYOUTS, Reference, play
from meldcalc.engines.simulate import Game
from meldcalc.engines.solve import REACH, solve_many
from meldcalc.rules.cards import Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

sys.path.insert(0, str(Path(__file__).parent))
from games import (
    Deals,
    bidding_seats,
    fixed_hand_deals,
    mean_se,
    new_game,
    random_hand_deals,
)
from yardstick import Yardstick

HANDS = {
    "strong": ("AS 10S KS QS JS JD 9S AH AD AC KH QH", Suit.SPADES),
    "average": ("AD 10D KD 9D 9D KS 9S AH QH 9H KC QC", Suit.DIAMONDS),
    "weak": ("KS QS JS 9S 10H JH 9H QD JD 9D JC 9C", Suit.SPADES),
}
GROUPS = (*HANDS, "random")
#: The fast players a run may measure: (the policy of the game, whether the look-ahead
#: player plays over it)
CONTENDERS = {
    "now": (Game, False),
    "0.2.0": (Yardstick, False),
    "look": (Game, True),
    "learned": (Learned, False),
    "look-learned": (Learned, True),
}


def group_deals(variant: Variant, name: str, args: argparse.Namespace, seed: int) -> Deals:
    if name == "random":
        return random_hand_deals(variant, args.hands, seed)
    if variant.hand_size != len(HANDS[name][0].split()):
        raise SystemExit(f"the {name} hand is a single-deck hand: {variant.name} deals more")
    return fixed_hand_deals(variant, *HANDS[name], args.deals, seed)


def measure(
    variant: Variant,
    deals: Deals,
    args: argparse.Namespace,
    policy: type[Game],
    look: bool,
    known: dict[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """Bidding-side points of every way of playing the deals, the fast player ``policy``
    (with ``look``, the look-ahead player over it)."""
    bidders, defenders = bidding_seats(variant)
    everyone = tuple(range(variant.players))
    seated = {"ref_bids": bidders, "ref_defends": defenders}
    if "reference" not in known:  # its self-play is the same whatever the fast player
        seated = {"reference": everyone, **seated}
    out = {}
    start = time.perf_counter()
    fast = LookAhead(variant, args.look_layouts, seed=args.seed) if look else None
    out["policy"] = play(new_game(variant, deals, policy), _seat(fast, everyone))[:, 0]
    for name, seats in seated.items():
        offset = ("reference", "ref_bids", "ref_defends").index(name) + 1
        player = Reference(
            variant, args.layouts, args.exact_from, seed=args.seed + offset, rollout=Yardstick
        )
        others = tuple(seat for seat in everyone if seat not in seats)
        players = {**_seat(fast, others), **dict.fromkeys(seats, player)}
        out[name] = play(new_game(variant, deals, policy), players)[:, 0]
    seconds = time.perf_counter() - start
    print(f"  the fast player and the reference: {seconds:.0f} s", file=sys.stderr)
    return {**known, **{name: points + deals.buried for name, points in out.items()}}


def _seat(player: LookAhead | None, seats: tuple[int, ...]) -> dict[int, LookAhead]:
    return {} if player is None else dict.fromkeys(seats, player)


def double_dummy(variant: Variant, deals: Deals, count: int) -> np.ndarray | None:
    if not count or variant.hand_size > REACH:
        return None
    start = time.perf_counter()
    solved = solve_many(deals.counts[:count], deals.trumps[:count], 0, variant)
    print(f"  double dummy: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return solved + deals.buried[:count]


COLUMNS = (
    ("group", 8),
    ("player", 7),
    ("deals", 5),
    ("policy self", 13),
    ("reference self", 14),
    ("double dummy", 18),
    ("edge ref-pol", 13),
    ("as bidders", 13),
    ("as defenders", 13),
    ("self-play gap", 13),
)


def row(cells: list[str]) -> str:
    return "  ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, COLUMNS))


def report(name: str, player: str, points: dict[str, np.ndarray], dd: np.ndarray | None) -> str:
    policy, ref = points["policy"], points["reference"]
    edge = points["ref_bids"] - points["ref_defends"]
    as_bidder, as_defender = points["ref_bids"] - policy, policy - points["ref_defends"]
    solved = "-" if dd is None else f"{mean_se(dd)} ({len(dd)})"
    means = [mean_se(x) for x in (edge, as_bidder, as_defender, ref - policy)]
    return row([name, player, str(len(policy)), mean_se(policy), mean_se(ref), solved, *means])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="single-deck", help="a game (bench/games.py)")
    parser.add_argument("--deals", type=int, default=60, help="deals of each fixed hand")
    parser.add_argument("--hands", type=int, default=200, help="random hands, one deal each")
    parser.add_argument("--groups", help="default: every group the game's hand size allows")
    parser.add_argument("--layouts", type=int, default=LAYOUTS)
    parser.add_argument("--exact-from", type=int, default=EXACT_FROM)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dd", type=int, default=20, help="deals of each group solved double dummy (the first)"
    )
    parser.add_argument("--previous", action="store_true", help="measure 0.2.0's policy too")
    parser.add_argument(
        "--players",
        default="now",
        help="the fast players measured: now (the rules), 0.2.0 (its policy), look (the"
        " look-ahead player of bid --strong), learned (the learned policy), look-learned (the"
        " look-ahead player, its play-outs by the learned policy), comma-separated",
    )
    parser.add_argument("--look-layouts", type=int, default=LOOK_LAYOUTS)
    args = parser.parse_args()
    variant = load_variant(args.variant)
    groups = args.groups.split(",") if args.groups else _groups(variant)
    print(
        f"{variant.name}, bidding side's trick points (of {variant.trick_total}); reference:"
        f" {args.layouts} layouts, exact from {args.exact_from} tricks left, play-outs by"
        f" 0.2.0's policy; seed {args.seed}"
    )
    print(row([name for name, _ in COLUMNS]))
    chosen = args.players.split(",") + (["0.2.0"] if args.previous else [])
    players = [(label, *CONTENDERS[label]) for label in dict.fromkeys(chosen)]
    for number, name in enumerate(groups):
        deals = group_deals(variant, name, args, args.seed * 100 + number)
        print(f"{name}:", file=sys.stderr)
        dd = double_dummy(variant, deals, args.dd)
        known: dict[str, np.ndarray] = {}
        for label, policy, look in players:
            points = measure(variant, deals, args, policy, look, known)
            known["reference"] = points["reference"]
            print(report(name, label, points, dd), flush=True)


def _groups(variant: Variant) -> list[str]:
    fixed = [name for name, (hand, _) in HANDS.items() if len(hand.split()) == variant.hand_size]
    return [*fixed, "random"]


if __name__ == "__main__":
    main()
