"""What judging the ways to ready a hand on fewer deals costs and saves: `bid` with a widow
seen (its burials) or under an exchange (its asks), each hand judged as `bid` does now
(burials screened on `SCREEN_DEALS` deals of their own, the `SCREEN_KEEP` best and the rule
of thumb's compared on `choosing_deals`, the ways chosen judged again on every deal of
their own) and as the build before either did (every way on every deal: the yardstick, in
the same run, with the same seed).

Random hands of the game (seeded; three-handed with its widow, or a Toby Thomas bidder's
hand; with ``--received``, its partner's cards in after it asked for its longest suit, so
its pass-backs are judged); for each, both ways. Printed: how often each way makes the
same choice (the burial or pass-back under each trump; the suit asked for), the best
trump's expected total (judged on deals of its own, as `bid` shows it) with and without,
its mean difference ± one standard error,
the highest bid to go to, and the CPU seconds of each (`time.process_time`, both ways on
the same machine in turn, one process each: ``jobs`` 1).

Measured 2026-12-05 (20 hands each, 2,000 deals; every way on every deal the yardstick):

    double-deck-toby-thomas: the same ask 19 of 20, best total +0.14 ± 0.14, the same
      highest bid 19 of 20, CPU 58 s against 96 (1.7x)
    three-handed, screened on 200: the same burial 74 of 80, best total -0.03 ± 0.03, the
      same highest bid 20 of 20, CPU 43 s against 228 (5.2x); screened on 400: the same
      74 of 80 and -0.03 ± 0.03, CPU 61 s (3.7x)
    double-deck-three-handed (10 hands, a 5-card kitty: about 50 burials): the same 37 of
      40, best total +0.00 ± 0.00, CPU 4.5x less; keeping the 2 best (--screen-keep 2)
      rather than 3: also 37 of 40, -0.03 ± 0.02, and only 7% less CPU, so 3 it stays
    tried and dropped: the screen played by the rules rather than the learned policy (5 to 7
      times as fast a deal): the same burial 54 of 80 three-handed, 30 of 40 double-deck
      three-handed, for 18% less CPU in the latter

Measured again with the ways compared on a quarter of the deals (--choose-share 0.25, what
`bid` does since; the runs above compared them on half):

    double-deck-toby-thomas: the same ask 19 of 20, +0.14 ± 0.14, the same highest bid 19
      of 20, 1.9x
    three-handed: the same burial 69 of 80, -0.03 ± 0.03, the same highest bid 20 of 20,
      6.8x
    double-deck-three-handed (10 hands): the same 38 of 40, -0.03 ± 0.02, the same highest
      bid 10 of 10, 5.4x

Screened on 150 deals rather than 200 (what `bid` does since), the ways compared on a
quarter:

    three-handed: the same burial 68 of 80, -0.03 ± 0.03, the same highest bid 20 of 20,
      7.8x; keeping the 2 best (--screen-keep 2): the same 68, 7.8x
    double-deck-three-handed (10 hands): the same 38 of 40, -0.03 ± 0.02, the same highest
      bid 10 of 10, 5.8x; keeping the 2 best: 39 of 40, +0.00 ± 0.00, 6.3x
    double-deck-toby-thomas --received (12 hands, their pass-backs): the same 40 of 48,
      -0.03 ± 0.08, the same highest bid 11 of 12, 5.3x; keeping the 2 best: the same 40,
      -0.02 ± 0.07, 11 of 12, 5.5x
    `bid` with the kitty seen (bench/bid_games.py's case), its screen 0.70 -> 0.54 s of
      wall on two cores; keeping 2, its comparison 0.50 -> 0.40 s. `bid` keeps 2 since.

Usage: python bench/screen.py [--hands N] [--deals D] [--seed S] [--variant NAME]
       [--screen-deals K] [--choose-share F] [--screen-keep K] [--received]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import meldcalc.advice.bidding as bidding
from meldcalc.dealing.deal import Deal, deal
from meldcalc.dealing.knowledge import TableKnowledge, partner_seat
from meldcalc.dealing.passing import partner_sends
from meldcalc.rules.cards import SUITS, Hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

WAYS = ("now", "every deal")


def choices(report: bidding.BidReport) -> dict[str, str]:
    """What the report chose: the burial or the pass-back under each trump, or the suit
    asked for."""
    if report.pass_backs:
        return {odds.trump.letter: odds.returns.notation() for odds in report.results}
    if report.asks:
        return {"ask": report.asks[0].ask.letter}
    return {odds.trump.letter: odds.bury.notation() for odds in report.results}


def said(chosen: dict[str, str]) -> str:
    return ", ".join(f"{key} {value}" for key, value in chosen.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="three-handed")
    parser.add_argument("--screen-deals", type=int, default=bidding.SCREEN_DEALS)
    parser.add_argument("--choose-share", type=float, default=bidding.CHOOSE_SHARE)
    parser.add_argument("--screen-keep", type=int, default=bidding.SCREEN_KEEP)
    parser.add_argument(
        "--received",
        action="store_true",
        help="under a pass: the bidder has asked for its longest suit and received the"
        " partner's cards (its pass-backs judged, not its asks)",
    )
    args = parser.parse_args()
    variant = load_variant(args.variant)
    settings = {
        "now": (args.screen_deals, args.choose_share, args.screen_keep),
        "every deal": (10**9, 1.0, bidding.SCREEN_KEEP),  # the yardstick: every way, every deal
    }
    same = compared = 0
    differences, seconds = [], dict.fromkeys(WAYS, 0.0)
    bids = {way: [] for way in WAYS}
    for number in range(args.hands):
        dealt = deal(variant, random.Random(f"{args.seed}/{number}"))
        hand = dealt.hands[0]
        widow = dealt.widow if variant.widow else None
        knowledge = received(variant, dealt) if args.received else TableKnowledge(widow=widow)
        reports = {}
        for way in WAYS:
            bidding.SCREEN_DEALS, bidding.CHOOSE_SHARE, bidding.SCREEN_KEEP = settings[way]
            began = time.process_time()
            reports[way] = bidding.estimate(
                hand, variant, args.deals, seed=number, knowledge=knowledge
            )
            seconds[way] += time.process_time() - began
        chosen = {way: choices(report) for way, report in reports.items()}
        for key, value in chosen["every deal"].items():
            compared += 1
            same += chosen["now"].get(key) == value
        best = {way: r.best for way, r in reports.items()}
        differences.append(best["now"].expected_total - best["every deal"].expected_total)
        for way in WAYS:
            bids[way].append(best[way].max_bid or 0)
        print(
            f"hand {number:>2}: {hand.notation()}{f' + {widow.notation()}' if widow else ''}:"
            f" every deal {best['every deal'].trump.letter} ({said(chosen['every deal'])};"
            f" {best['every deal'].expected_total:.1f}), now {best['now'].trump.letter}"
            f" ({said(chosen['now'])}; {best['now'].expected_total:.1f})",
            flush=True,
        )
    se = statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else 0
    print()
    print(
        f"{args.variant}, {args.hands} hands, {args.deals} deals each; now: screening on"
        f" {args.screen_deals} (the {args.screen_keep} best kept), the ways compared on"
        f" {args.choose_share:.0%} of the deals"
    )
    print(f"the same choice: {same} of {compared} ({100 * same / compared:.0f}%)")
    print(
        f"best trump's expected total, now minus every deal:"
        f" {statistics.mean(differences):+.2f} ± {se:.2f}"
    )
    print(f"same highest bid: {sum(a == b for a, b in zip(*bids.values()))} of {args.hands}")
    ratio = seconds["every deal"] / seconds["now"]
    print(
        f"CPU seconds: now {seconds['now']:.1f}, every deal {seconds['every deal']:.1f}"
        f" ({ratio:.1f}x)"
    )


def received(variant: Variant, dealt: Deal) -> TableKnowledge:
    """What the bidder (seat 0) knows once its partner has passed: it asked for its longest
    suit, and the partner sent what meldcalc's partner sends (`passing.partner_sends`)."""
    if variant.passing is None:
        sys.exit(f"--received: {variant.name} has no pass")
    hand = dealt.hands[0]
    ask = max(SUITS, key=lambda suit: sum(card.suit is suit for card in hand.cards()))
    partner = np.array([dealt.hands[partner_seat(variant)].counts])
    sent = partner_sends(partner, variant, ask, ask=ask)[0]
    return TableKnowledge(received=Hand(sent.tolist()), ask=ask)


if __name__ == "__main__":
    main()
