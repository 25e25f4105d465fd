"""The yardstick: the fast policy against the exact reference player, on seeded deals.

Single deck, four hands in partnerships; seat 0 is the bidder, names trump and leads. Every
seat melds before the first lead (the cards it lays down are known to all). Four groups:
three fixed bidder's hands, the other cards dealt at random (``--deals`` deals each), and
``--hands`` random hands, one deal each, trump their longest suit (ties: the better meld,
then suit order S H D C):

    strong   AS 10S KS QS JS JD 9S AH AD AC KH QH   trump S   (NOTES.md)
    average  AD 10D KD 9D 9D KS 9S AH QH 9H KC QC   trump D   (NOTES.md)
    weak     KS QS JS 9S 10H JH 9H QD JD 9D JC 9C   trump S   (a marriage, no ace)

Per group, the bidding side's trick points (mean ± standard error): policy self-play
(`meldcalc.simulate` in all four seats), reference self-play (`meldcalc.reference`) and
double dummy (the exact solver, all hands seen; whole deals can take seconds each, so only
the first ``--dd`` deals of each group, their count in brackets); then the duplicate edge of
the reference over the policy: each deal played twice, the reference on the bidding side against the
policy, then the other way round; the edge is the bidding side's points in the first less
those in the second (positive: the reference is stronger), split into what the reference
gains as the bidding side (first game less policy self-play) and as the defenders (policy
self-play less the second). Last, the self-play gap (reference less policy, paired). The
goals: edge <= 5 and self-play gap <= 3 trick points a deal.

Usage: python bench/strength.py [--deals N] [--hands H] [--groups strong,average,...]
       [--layouts K] [--exact-from T] [--seed S] [--dd D]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np

from meldcalc.cards import SUITS, Hand, Suit
from meldcalc.deal import deal_counts
from meldcalc.loading import load_variant
from meldcalc.meld import engine_for, melded_cards
from meldcalc.reference import EXACT_FROM, LAYOUTS, Reference, play
from meldcalc.simulate import Game, Table, planes_from_counts
from meldcalc.solve import solve_many
from meldcalc.variant import Variant

HANDS = {
    "strong": ("AS 10S KS QS JS JD 9S AH AD AC KH QH", Suit.SPADES),
    "average": ("AD 10D KD 9D 9D KS 9S AH QH 9H KC QC", Suit.DIAMONDS),
    "weak": ("KS QS JS 9S 10H JH 9H QD JD 9D JC 9C", Suit.SPADES),
}
GROUPS = (*HANDS, "random")


@dataclass(frozen=True)
class Deals:
    """Whole deals of a group: (N, players, 24) counts and each deal's trump."""

    counts: np.ndarray
    trumps: np.ndarray


def fixed_hand_deals(variant: Variant, hand: str, trump: Suit, count: int, seed: int) -> Deals:
    bidder = Hand.parse(hand)
    counts = deal_counts(variant, count, np.random.default_rng(seed), bidder=bidder)
    return Deals(counts[:, : variant.players], np.full(count, trump.index))


def random_hand_deals(variant: Variant, count: int, seed: int) -> Deals:
    counts = deal_counts(variant, count, np.random.default_rng(seed))[:, : variant.players]
    return Deals(counts, np.array([bidders_trump(variant, hand) for hand in counts[:, 0]]))


def bidders_trump(variant: Variant, counts: np.ndarray) -> int:
    """The bidder's longest suit; of equally long ones the better meld, then S H D C."""
    melds = engine_for(variant).all_trumps(Hand(counts.tolist()))
    meld_of = {result.trump.index: result.total for result in melds}
    length = counts.reshape(len(SUITS), -1).sum(axis=1)
    return max(range(len(SUITS)), key=lambda s: (length[s], meld_of[s], -s))


def new_game(variant: Variant, deals: Deals) -> Game:
    """A fresh game of the deals, every seat's meld on the table, seat 0 to lead."""
    copies = variant.deck.copies
    shown = melded_cards(variant, deals.counts, deals.trumps)
    table = Table.of(variant, deals.trumps)
    return Game.from_counts(table, deals.counts, copies, shown=planes_from_counts(shown, copies))


def mean_se(values: np.ndarray) -> str:
    se = values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return f"{values.mean():6.1f} ± {se:4.1f}"


def measure(variant: Variant, deals: Deals, args: argparse.Namespace) -> dict[str, np.ndarray]:
    """Bidding-side points of every way of playing the deals."""
    seated = {"reference": (0, 1, 2, 3), "ref_bids": (0, 2), "ref_defends": (1, 3)}
    out = {}
    start = time.perf_counter()
    out["policy"] = new_game(variant, deals).play().team_points[:, 0]
    for offset, (name, seats) in enumerate(seated.items(), start=1):
        player = Reference(variant, args.layouts, args.exact_from, seed=args.seed + offset)
        out[name] = play(new_game(variant, deals), dict.fromkeys(seats, player))[:, 0]
    print(f"  policy and reference: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.dd:
        start, solved = time.perf_counter(), deals.counts[: args.dd]
        out["dd"] = solve_many(solved, deals.trumps[: args.dd], 0, variant)
        print(f"  double dummy: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return out


COLUMNS = (
    ("group", 8),
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


def report(name: str, count: int, points: dict[str, np.ndarray]) -> str:
    policy, ref = points["policy"], points["reference"]
    edge = points["ref_bids"] - points["ref_defends"]
    as_bidder, as_defender = points["ref_bids"] - policy, policy - points["ref_defends"]
    dd = f"{mean_se(points['dd'])} ({len(points['dd'])})" if "dd" in points else "-"
    means = [mean_se(x) for x in (edge, as_bidder, as_defender, ref - policy)]
    return row([name, str(count), mean_se(policy), mean_se(ref), dd, *means])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60, help="deals of each fixed hand")
    parser.add_argument("--hands", type=int, default=200, help="random hands, one deal each")
    parser.add_argument("--groups", default=",".join(GROUPS))
    parser.add_argument("--layouts", type=int, default=LAYOUTS)
    parser.add_argument("--exact-from", type=int, default=EXACT_FROM)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dd", type=int, default=20, help="deals of each group solved double dummy (the first)"
    )
    args = parser.parse_args()
    variant = load_variant("single-deck")
    print(
        f"single-deck, bidding side's trick points (of {variant.trick_total}); reference:"
        f" {args.layouts} layouts, exact from {args.exact_from} tricks left; seed {args.seed}"
    )
    print(row([name for name, _ in COLUMNS]))
    for number, name in enumerate(args.groups.split(",")):
        seed = args.seed * 100 + number
        if name == "random":
            deals = random_hand_deals(variant, args.hands, seed)
        else:
            deals = fixed_hand_deals(variant, *HANDS[name], args.deals, seed)
        print(f"{name}:", file=sys.stderr)
        print(report(name, len(deals.trumps), measure(variant, deals, args)), flush=True)


if __name__ == "__main__":
    main()
