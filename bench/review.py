"""`meldcalc review`: how long a whole deal's review takes, one deal at a time on one core.

Seeded single-deck deals, seat 0's longest suit trump, played out by the policy (what
`play --review` reviews, and closer to a real table's play than random cards); with
--random N also N deals of random legal cards; with --strong S ... the README's strong
hand as `play HAND -t S --seed S` plays it (seeds 0 and 21 are the slowest reviews found).
Each is reviewed as `meldcalc review` and `play --review` review it
(`meldcalc.advice.review.review`, seat 0's cards compared with every other card, no time
limit) in a process of its own, and its CPU seconds (`time.process_time`: another process
on the machine does not inflate them) and solver nodes are printed, then the median, p90
and max beside issue #48's goal. Double deck is reviewed over its last `LONG_DEAL_TRICKS`
tricks (the review's own limit), and with --long-tricks T over its last T tricks too
(issue #18 asked for 14 or more).

--previous PYTHON (the interpreter of an environment where a previous build is installed)
reviews the same deals in that build too, beside this one, and counts the deals whose costs
differ (none may: both are exact). --save FILE writes the deals as `meldcalc review` lines.

Usage: python bench/review.py [--deals N] [--random N] [--double N] [--long-tricks T ...]
[--seed S] [--strong S ...] [--previous PYTHON] [--save FILE]
(About 3 minutes a build at the defaults on this 2-core machine, and a minute or more for
each strong hand; each 14-trick double-deck deal takes up to a minute.)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
from collections.abc import Iterator

import numpy as np

from meldcalc.advice.played import PlayedDeal, play_deal, play_one
from meldcalc.advice.replay import played_line, replay
from meldcalc.advice.review import LONG_DEAL_TRICKS
from meldcalc.cli.play import played_json
from meldcalc.dealing.deal import deal
from meldcalc.rules.cards import CARD_NAMES, SUITS, Suit, parse_hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Variant

#: The README's strong hand (`play "..." -t S --seed S --review`): its slowest reviews.
STRONG_HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
GOAL = "any single-deck deal <= 10 s (double deck 30 s), most < 1 s"
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


#: Runs in each build's own interpreter: review every line (a label, a variant's name, the
#: long-deal limit, a deal as played), as `meldcalc review` reviews it (only seat 0's cards
#: compared with every other card where the build can leave the rest), one result a line.
CHILD = """
import inspect, json, sys, time
import meldcalc.advice.review as module
from meldcalc.advice.replay import parse_played
from meldcalc.engines.solve import solver_nodes
from meldcalc.rules.loading import load_variant
brief = {"compared": (0,)} if "compared" in inspect.signature(module.review).parameters else {}
for line in sys.stdin:
    label, name, tricks, text = line.rstrip("\\n").split("\\t")
    variant = load_variant(name)
    module.LONG_DEAL_TRICKS = int(tricks)
    played = parse_played(text, variant)
    before, start = solver_nodes(), time.process_time()
    checked = module.review(played, variant, time_limit=None, **brief)
    seconds = time.process_time() - start
    costs = [card.cost for card in checked.cards]
    print(json.dumps([seconds, solver_nodes() - before, costs]), flush=True)
"""


def reviewed(python: str, lines: list[str]) -> list[tuple[float, int, list[int]]]:
    """Each line's CPU seconds, solver nodes and costs, reviewed by ``python``'s build."""
    out = subprocess.run(
        [python, "-c", CHILD],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    ).stdout
    return [tuple(json.loads(line)) for line in out.splitlines()]


def measure(
    kinds: list[tuple[str, str, int, list[PlayedDeal]]], builds: dict[str, str], save
) -> None:
    """Review every deal in each build, print each deal's CPU seconds and nodes side by
    side, then each build's summary; the costs must agree."""
    lines = []
    for label, name, tricks, deals in kinds:
        for played in deals:
            record = played_json(played, None)
            lines.append(f"{label}\t{name}\t{tricks}\t{played_line(record)}")
    results = {build: reviewed(python, lines) for build, python in builds.items()}
    first = 0
    for label, _, _, deals in kinds:
        part = range(first, first + len(deals))
        first += len(deals)
        for i in part:
            row = "  ".join(
                f"{build} {results[build][i][0]:8.3f} s {results[build][i][1]:>11}"
                for build in builds
            )
            print(f"  {label} deal {i - part.start + 1:>3}: {row}", flush=True)
        for build in builds:
            chosen = [results[build][i] for i in part]
            summary(f"{label} ({build})", [r[0] for r in chosen], [r[1] for r in chosen])
    if len(builds) > 1:
        this, *others = builds
        differ = sum(
            results[this][i][2] != results[other][i][2]
            for other in others
            for i in range(len(lines))
        )
        print(f"{len(lines)} deals; deals whose costs differ between the builds: {differ}")
    if save is not None:
        for line in lines:
            save.write(line + "\n")


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
    parser.add_argument(
        "--strong",
        type=int,
        nargs="*",
        default=[],
        help="also the README strong hand's play --seed S",
    )
    parser.add_argument("--previous", help="a previous build's python, reviewed beside this one")
    parser.add_argument("--save", type=argparse.FileType("w"), help="the deals, as review lines")
    args = parser.parse_args()
    single, double = load_variant("single-deck"), load_variant("double-deck")
    kinds = [
        (
            "single-deck policy",
            "single-deck",
            LONG_DEAL_TRICKS,
            list(policy_deals(single, args.deals, args.seed)),
        )
    ]
    if args.strong:
        hand = parse_hand(STRONG_HAND)
        deals = [play_one(hand, single, Suit.SPADES, seed) for seed in args.strong]
        kinds.append(("strong hand", "single-deck", LONG_DEAL_TRICKS, deals))
    if args.random:
        deals = list(random_deals(single, args.random, args.seed))
        kinds.append(("single-deck random", "single-deck", LONG_DEAL_TRICKS, deals))
    if args.double:
        deals = list(policy_deals(double, args.double, args.seed))
        for tricks in [LONG_DEAL_TRICKS, *args.long_tricks]:
            kinds.append((f"double-deck last {tricks}", "double-deck", tricks, deals))
    builds = {"this": sys.executable}
    if args.previous:
        builds = {"previous": args.previous, **builds}
    print(f"goal (issue #48): {GOAL}; (issue #18): {LONG_GOAL}")
    measure([kind for kind in kinds if kind[3]], builds, args.save)


if __name__ == "__main__":
    main()
