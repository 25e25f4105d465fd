"""What screening the burials costs and saves: `bid` with a widow seen, each hand judged
with screening (every burial on `SCREEN_DEALS` deals of its own, the `SCREEN_KEEP` best and
the rule of thumb's then on every deal) and without it (every burial on every deal, the
build before screening: the yardstick, in the same run).

Random three-handed hands with their widow (seeded); for each, both ways with the same seed.
Printed: how often each way buries the same cards under each trump, the best trump's
expected total (judged on deals of its own, as `bid` shows it) with and without, its mean
difference ± one standard error, the highest bid to go to, and the CPU seconds of each
(`time.process_time`, both ways on the same machine in turn).

Usage: python bench/screen.py [--hands N] [--deals D] [--seed S] [--variant three-handed]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import meldcalc.advice.bidding as bidding
from meldcalc.dealing.deal import deal
from meldcalc.dealing.knowledge import TableKnowledge
from meldcalc.rules.loading import load_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="three-handed")
    args = parser.parse_args()
    variant = load_variant(args.variant)
    screening = bidding.SCREEN_DEALS
    same = trumps = 0
    differences, seconds = [], {"screened": 0.0, "every deal": 0.0}
    bids = {"screened": [], "every deal": []}
    for number in range(args.hands):
        dealt = deal(variant, random.Random(f"{args.seed}/{number}"))
        hand, widow = dealt.hands[0], dealt.widow
        knowledge = TableKnowledge(widow=widow)
        reports = {}
        for way, deals_screened in (("screened", screening), ("every deal", 10**9)):
            bidding.SCREEN_DEALS = deals_screened
            began = time.process_time()
            reports[way] = bidding.estimate(
                hand, variant, args.deals, seed=number, knowledge=knowledge
            )
            seconds[way] += time.process_time() - began
        bidding.SCREEN_DEALS = screening
        chosen = {way: {o.trump: o.bury for o in r.results} for way, r in reports.items()}
        for trump, bury in chosen["every deal"].items():
            trumps += 1
            same += chosen["screened"].get(trump) == bury
        best = {way: r.best for way, r in reports.items()}
        differences.append(best["screened"].expected_total - best["every deal"].expected_total)
        for way in bids:
            bids[way].append(best[way].max_bid or 0)
        print(
            f"hand {number:>2}: {hand.notation()} + {widow.notation()}:"
            f" best {best['every deal'].trump.letter} bury"
            f" {best['every deal'].bury.notation()} ({best['every deal'].expected_total:.1f});"
            f" screened {best['screened'].trump.letter} bury"
            f" {best['screened'].bury.notation()} ({best['screened'].expected_total:.1f})",
            flush=True,
        )
    se = statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else 0
    print()
    print(f"{args.variant}, {args.hands} hands, {args.deals} deals each, screening on {screening}")
    print(f"the same burial under a trump: {same} of {trumps} ({100 * same / trumps:.0f}%)")
    print(
        f"best trump's expected total, screened minus every deal:"
        f" {statistics.mean(differences):+.2f} ± {se:.2f}"
    )
    print(f"same highest bid: {sum(a == b for a, b in zip(*bids.values()))} of {args.hands}")
    ratio = seconds["every deal"] / seconds["screened"]
    print(
        f"CPU seconds: screened {seconds['screened']:.1f}, every deal"
        f" {seconds['every deal']:.1f} ({ratio:.1f}x)"
    )


if __name__ == "__main__":
    main()
