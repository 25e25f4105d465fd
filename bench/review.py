"""`meldcalc review`: how long a whole deal's review takes, one deal at a time on one core.

Seeded single-deck deals, seat 0's longest suit trump, played out by the policy (what
`play --review` reviews, and closer to a real table's play than random cards); with
--random N also N deals of random legal cards. Each is reviewed as `meldcalc review` and
`play --review` review it (`meldcalc.advice.review.review`, no time limit), and its CPU seconds
(`time.process_time`: another process on the machine does not inflate them) and solver
nodes are printed, then the median, p90 and max beside issue #18's goal. Double deck is
reviewed over its last `LONG_DEAL_TRICKS` tricks (the review's own limit), and with
--long-tricks T over its last T tricks too (the issue asks for 14 or more).

--save FILE writes each deal's `play -f json` record, review included, a line each: two
builds' files must be identical (a faster review prints the same values).

Usage: python bench/review.py [--deals N] [--random N] [--double N] [--long-tricks T ...]
[--seed S] [--save FILE]
(About 3 minutes at the defaults on this 2-core machine; each 14-trick double-deck deal
takes up to a minute.)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterator

import numpy as np

import meldcalc.advice.review
from meldcalc.advice.played import PlayedDeal, play_deal
from meldcalc.advice.replay import replay
from meldcalc.advice.review import review
from meldcalc.cli.play import played_json
from meldcalc.dealing.deal import deal
from meldcalc.engines.solve import solver_nodes
from meldcalc.rules.cards import CARD_NAMES, SUITS, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Variant

GOAL = "any deal <= 10 s, most < 1 s"
LONG_GOAL = "double deck over its last 14 tricks or more"


def longest_suit(counts: list[int]) -> Suit:
    """The suit seat 0 holds most cards of (the first of equals): the bidder's trump."""
    return max(SUITS, key=lambda suit: sum(counts[suit.index * 6 : suit.index * 6 + 6]))


def policy_deals(variant: Variant, count: int, seed: int) -> Iterator[PlayedDeal]:
    rng = random.Random(seed)
    for _ in range(count):
        hands = deal(variant, rng).hands
        yield play_deal(hands, variant, longest_suit(list(hands[0].counts)))


def random_deals(variant: Variant, count: int, seed: int) -> Iterator[PlayedDeal]:
    """Deals played by random legal cards from seat 0's lead."""
    rng = random.Random(seed)
    for _ in range(count):
        hands = deal(variant, rng).hands
        trump = longest_suit(list(hands[0].counts))
        held = [list(hand.counts) for hand in hands]
        leader, trick, cards = 0, [], []
        for _ in range(variant.hand_size * variant.players):
            seat = (leader + len(trick)) % variant.players
            card = rng.choice(
                legal_cards(held[seat], trick, trump, variant.head, variant.overtrump)
            )
            held[seat][card] -= 1
            trick.append(card)
            cards.append(CARD_NAMES[card])
            if len(trick) == variant.players:
                leader = (leader + winning_position(trick, trump)) % variant.players
                trick = []
        yield replay(hands, variant, trump, 0, cards)


def measure(label: str, deals: Iterator[PlayedDeal], variant: Variant, save) -> None:
    """Review each deal, print its CPU seconds and nodes, then the summary."""
    seconds, nodes = [], []
    for number, played in enumerate(deals, 1):
        before, start = solver_nodes(), time.process_time()
        checked = review(played, variant, time_limit=None)
        seconds.append(time.process_time() - start)
        nodes.append(solver_nodes() - before)
        print(
            f"  {label} deal {number:>3}: {seconds[-1]:8.3f} s  {nodes[-1]:>12} nodes", flush=True
        )
        if save is not None:
            save.write(json.dumps({"label": label, **played_json(played, checked)}) + "\n")
    if seconds:
        summary(label, seconds, nodes)


def summary(label: str, seconds: list[float], nodes: list[int]) -> None:
    quantile = {q: np.percentile(seconds, q) for q in (50, 90)}
    under = sum(s < 1 for s in seconds)
    print(
        f"{label}: n={len(seconds)}  CPU median {quantile[50]:.3f} s  p90 {quantile[90]:.3f} s"
        f"  max {max(seconds):.3f} s  total {sum(seconds):.1f} s;  under 1 s: {under} of"
        f" {len(seconds)};  nodes median {statistics.median(nodes):.0f}  max {max(nodes)}"
        f"  total {sum(nodes)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="single-deck policy deals")
    parser.add_argument("--random", type=int, default=0, help="single-deck random-play deals")
    parser.add_argument("--double", type=int, default=5, help="double-deck policy deals")
    parser.add_argument(
        "--long-tricks", type=int, nargs="*", default=[], help="also review double deck over T"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", type=argparse.FileType("w"), help="each deal's record, JSONL")
    args = parser.parse_args()
    single = load_variant("single-deck")
    print(f"goal (issue #18): {GOAL}")
    measure("single-deck policy", policy_deals(single, args.deals, args.seed), single, args.save)
    if args.random:
        deals = random_deals(single, args.random, args.seed)
        measure("single-deck random", deals, single, args.save)
    double = load_variant("double-deck")
    print(f"goal (issue #18): {LONG_GOAL}")
    for tricks in (
        [meldcalc.advice.review.LONG_DEAL_TRICKS, *args.long_tricks] if args.double else []
    ):
        meldcalc.advice.review.LONG_DEAL_TRICKS = tricks  # the review's limit, for this run only
        deals = policy_deals(double, args.double, args.seed)
        measure(f"double-deck last {tricks}", deals, double, args.save)


if __name__ == "__main__":
    main()
