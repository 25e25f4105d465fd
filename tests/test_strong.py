"""bid --strong: the best trump's odds corrected by deals played twice (meldcalc/advice/strong.py).

The correction is a control variate: P(make) over all the simulated deals, plus the share
of the strong player's totals reaching the bid on the few deals played twice, less the fast
player's share on the same deals. Where both played alike it changes nothing; it keeps the
odds probabilities that never rise with the bid; and the same seed gives the same numbers
whatever the processes.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
from typer.testing import CliRunner

from meldcalc.advice.bidding import Made, estimate, make_odds
from meldcalc.cli import app
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import load_variant

STRONG_HAND = Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH")
SINGLE = load_variant("single-deck")


def test_without_a_correction_or_with_one_that_changes_nothing_the_odds_are_the_shares() -> None:
    totals = np.random.default_rng(1).integers(200, 600, size=500)
    same = np.random.default_rng(2).integers(200, 600, size=40)
    for made in (Made(totals), Made(totals, (same, same))):
        for bid in range(150, 650, 10):
            assert made(bid) == np.mean(totals >= bid)
    assert make_odds(SINGLE.bidding, Made(totals), 0.7) == make_odds(
        SINGLE.bidding, Made(totals, (same, same)), 0.7
    )


def test_a_correction_moves_each_bid_by_the_paired_difference_and_stays_a_probability() -> None:
    rng = np.random.default_rng(3)
    totals, fast = rng.integers(300, 500, size=1000), rng.integers(300, 500, size=50)
    strong = fast - 20  # strong defenders took 20 points in every deal played twice
    made = Made(totals, (strong, fast))
    levels = list(range(250, 560, 10))
    corrected = [made(bid) for bid in levels]
    assert all(0 <= p <= 1 for p in corrected)
    assert all(a >= b for a, b in itertools.pairwise(corrected))  # never rises with the bid

    # the plain definition: the shares' sum, at most what any lower bid is made with
    def raw(bid: int) -> float:
        return np.mean(totals >= bid) + np.mean(strong >= bid) - np.mean(fast >= bid)

    points = sorted(set(totals) | set(strong) | set(fast))
    for bid, p in zip(levels, corrected):
        lower = [raw(u) for u in points if u < bid] + [raw(bid)]
        expected = min(1.0, max(0.0, min(lower)))
        assert abs(p - expected) < 1e-9, bid
    assert made.reached(0.7) <= Made(totals).reached(0.7)


def test_bid_strong_gives_the_same_numbers_whatever_the_jobs_and_says_what_it_did() -> None:
    reports = [
        estimate(STRONG_HAND, SINGLE, 300, seed=4, trumps=[Suit.SPADES], jobs=jobs, strong=6)
        for jobs in (1, 2)
    ]
    first, second = (report.best for report in reports)
    assert first.make == second.make and first.strong.shift == second.strong.shift
    plain = estimate(STRONG_HAND, SINGLE, 300, seed=4, trumps=[Suit.SPADES], spread=False).best
    assert (plain.totals == first.totals).all()  # the same deals (--strong spreads none)
    assert reports[0].spread is None
    assert plain.make != first.make or (first.strong.strong == first.strong.fast).all()
    assert reports[0].advice()[1].startswith("Checked against strong play: 6 more deals")


def test_the_fast_leg_is_played_by_the_bids_policy_and_the_strong_leg_is_the_same() -> None:
    """The correction is against the play the bid's deals had: the learned policy's."""
    rules, learned = (
        estimate(STRONG_HAND, SINGLE, 200, seed=4, trumps=[Suit.SPADES], strong=12, policy=name)
        for name in ("rules", "learned")
    )
    assert (rules.best.strong.strong == learned.best.strong.strong).all()  # the same strong play
    assert (rules.best.strong.fast != learned.best.strong.fast).any()


def test_the_cli_takes_strong_and_gives_it_in_json_and_refuses_one_deal() -> None:
    runner = CliRunner()
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    out = runner.invoke(app, ["bid", hand, "-t", "S", "-n", "200", "--strong", "4", "-f", "json"])
    assert out.exit_code == 0, out.output
    check = json.loads(out.stdout)["results"][0]["strong"]
    assert check["deals"] == 4 and set(check) == {"deals", "shift", "se"}
    refused = runner.invoke(app, ["bid", hand, "--strong", "1"])
    assert refused.exit_code == 2
    assert "--strong 1: expected 0 (off) or at least 2 deals" in refused.output


def test_with_endgame_the_fast_leg_plays_the_deals_as_the_bid_did() -> None:
    """The correction compares like with like: with --endgame K the deals played twice
    have their last K tricks solved in the fast leg too (the strong leg is unchanged)."""
    plain, exact = (
        estimate(STRONG_HAND, SINGLE, 200, seed=7, trumps=[Suit.SPADES], strong=12, endgame=k)
        for k in (0, 6)  # 6: the fast policy plays the last 4 tricks of all 12 deals exactly
    )
    assert (plain.best.strong.strong == exact.best.strong.strong).all()
    assert (plain.best.strong.fast != exact.best.strong.fast).any()
