"""Seed 001's "minimum 20 to score", every clause, through `meldcalc score` and through the
session (`meldcalc game`, which scores by `Table.outcome`); the rules' advice to throw in;
a simultaneous pass chosen from the hand held before it.

The clauses (RULES.md, double deck): (a) a side whose meld totals under 20 scores none;
(b) a bidding side under 20 meld loses its bid without play, the bidder still naming
trump, and the others then score their meld if it is 20 or more, with no trick test;
(c) a side taking under 20 in tricks scores nothing for the hand, its meld ignored, and a
bidding side so is set whatever its meld.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sessions import run_game
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.errors import MeldcalcError
from meldcalc.game.session import apply, replay, start
from meldcalc.rules.cards import Hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.scoring import MADE, SET, SHORT_OF_MELD, HandPlay, score_hand

MINIMUM = "examples/house-minimum-20"
RULES = load_variant(MINIMUM)
#: A double-deck hand with 8 meld in hearts (royal marriage 4, jacks around 4).
WEAK = "KH QH AS AS 10S 10S JS JS AD AD 10D 10D JD JD AC 10C JC 10H JH 10H"
runner = CliRunner()


def scored(*args: str, variant: str = MINIMUM) -> dict:
    done = runner.invoke(app, ["score", "-V", variant, "-f", "json", *args])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def side_points(record: dict) -> list[int]:
    return [side["points"] for side in record["sides"]]


# --- score -----------------------------------------------------------------------------------


def test_a_side_melding_under_20_scores_no_meld() -> None:
    record = scored("--bid", "60", "--bidder", "0", "--meld", "50,18", "--tricks", "30")
    assert record["outcome"] == MADE
    assert [s["counted_meld"] for s in record["sides"]] == [50, 0]
    assert side_points(record) == [80, 20]


def test_a_bidding_side_under_20_meld_loses_its_bid_unplayed_and_the_others_score_meld() -> None:
    record = scored("--bid", "60", "--bidder", "0", "--meld", "18,30")
    assert record["outcome"] == SHORT_OF_MELD
    assert side_points(record) == [-60, 30]
    assert record["sides"][1]["tricks"] is None  # no trick test: the hand is not played
    assert (
        "18 meld, under the minimum of 20: the bid is lost without play"
        in (record["explanation"][0])
    )


def test_the_others_of_a_bid_lost_on_meld_score_theirs_only_from_20() -> None:
    assert side_points(scored("--bid", "55", "--bidder", "1", "--meld", "12,14")) == [0, -55]


def test_a_bid_lost_on_meld_has_no_trick_points_to_give() -> None:
    argv = ["score", "-V", MINIMUM, "--bid", "60", "--bidder", "0", "--meld", "18,30"]
    done = runner.invoke(app, [*argv, "--tricks", "30"])
    assert done.exit_code == 2
    assert "melds under the minimum of 20 is not played, so it has no trick points" in done.output


def test_a_side_under_20_in_tricks_scores_nothing_for_the_hand() -> None:
    record = scored("--bid", "60", "--bidder", "0", "--meld", "50,30", "--tricks", "35")
    assert record["outcome"] == MADE
    assert side_points(record) == [85, 0]  # 30 meld and 15 in tricks: nothing
    assert (
        "15 in tricks, under the minimum of 20: nothing for the hand (30 meld ignored)"
        in (record["explanation"][1])
    )


def test_a_bidding_side_under_20_in_tricks_is_set_whatever_its_meld() -> None:
    record = scored("--bid", "60", "--bidder", "0", "--meld", "90,30", "--tricks", "15")
    assert record["outcome"] == SET  # 90 meld + 15 would reach 60
    assert side_points(record) == [-60, 65]


def test_the_shipped_keys_keep_their_meaning() -> None:
    """`meld_minimum` alone voids the meld only; `save_meld: 20` keeps the tricks; neither
    loses the bid unplayed: a house file written before keeps scoring as it did."""
    roundhouse = "examples/house-roundhouse"  # meld_minimum: 20 alone
    record = scored("--bid", "60", "--bidder", "0", "--meld", "18,30", "--tricks", "45",
                    variant=roundhouse)  # fmt: skip
    assert (record["outcome"], side_points(record)) == (SET, [-60, 35])


@settings(max_examples=80, deadline=None)
@given(
    bid=st.integers(50, 60) | st.sampled_from([65, 70, 80, 100]),
    bidder=st.integers(0, 3),
    melds=st.tuples(st.integers(0, 60), st.integers(0, 60)),
    taken=st.integers(0, 50),
)
def test_the_minimum_rules_hold_for_every_hand(bid, bidder, melds, taken) -> None:
    """Whatever the hand: a bidding side under 20 meld loses the bid unplayed; else a side
    under 20 in tricks scores nothing (the bidder: minus the bid); no side scores meld
    under 20; the others of a bid lost on meld score their meld from 20, nothing more."""
    side = bidder % 2
    melds = tuple(m * 2 for m in melds)  # double deck: every meld is even
    tricks = (taken, 50 - taken) if side == 0 else (50 - taken, taken)
    if melds[side] < 20:
        score = score_hand(RULES, HandPlay(bid, bidder, melds))
        other = melds[1 - side]
        assert score.outcome == SHORT_OF_MELD and score.points[side] == -bid
        assert score.points[1 - side] == (other if other >= 20 else 0)
        return
    score = score_hand(RULES, HandPlay(bid, bidder, melds, tricks))
    for each in (0, 1):
        if tricks[each] < 20:
            assert score.points[each] == (-bid if each == side else 0)
        elif each != side or score.outcome == MADE:
            meld = melds[each] if melds[each] >= 20 else 0
            assert score.points[each] == meld + tricks[each]
    if tricks[side] < 20:
        assert score.outcome == SET


# --- the session -------------------------------------------------------------------------


def _won(steps: list[str], variant=RULES, bid: int = 50) -> object:
    """You (seat 0) hold WEAK and win the auction at ``bid``, then ``steps``."""
    table = start(variant, dealer=3)
    return replay(table, ["seat 0", f"hand {WEAK}", str(bid), "pass", "pass", "pass", *steps])


def test_the_session_ends_a_bid_lost_on_meld_once_every_meld_is_down_without_play() -> None:
    table = _won(["trump H", "meld partner 10"])  # 8 + 10: under 20
    with pytest.raises(MeldcalcError, match="under the minimum of 20, and loses the bid"):
        apply(table, "AS")
    with pytest.raises(MeldcalcError, match="loses the bid without play"):
        apply(table, "tricks 30")
    answer = apply(replay(table, ["meld left 30"]), "meld right 0")
    assert answer.table.phase == "over" and not answer.table.played
    assert answer.lines[1:3] == ["the hand is over", answer.table.outcome().explanation[0]]
    scored = answer.table.outcome()
    assert (scored.outcome, scored.points) == (SHORT_OF_MELD, (-50, 30))
    with pytest.raises(MeldcalcError, match=r"^play: not now: the hand is over"):
        apply(answer.table, "play AS")


def test_the_sessions_bid_lost_on_meld_is_scores() -> None:
    table = _won(["trump H", "meld partner 10", "meld left 12", "meld right 6"])
    direct = scored("--bid", "50", "--bidder", "0", "--meld", "18,18")
    assert table.outcome().points == tuple(side_points(direct))
    assert list(table.outcome().explanation) == direct["explanation"]


def test_more_meld_laid_down_lets_the_hand_be_played() -> None:
    table = _won(["trump H", "meld partner 10", "meld partner 40", "AS"])
    assert table.phase == "play"


def test_the_sessions_trick_minimum_is_scores(tmp_path: Path) -> None:
    table = _won(["trump H", "meld partner 40", "meld left 30", "meld right 0", "tricks 15"])
    assert table.phase == "over"
    assert (table.outcome().outcome, table.outcome().points) == (SET, (-50, 65))


def test_the_game_records_a_bid_lost_on_meld_with_no_play(tmp_path: Path) -> None:
    ledger = tmp_path / "g.jsonl"
    steps = [f"hand {WEAK}", "50", "pass", "pass", "pass", "trump H", "meld partner 10"]
    done = run_game(ledger, [*steps, "meld left 30", "meld right 0"], "-V", MINIMUM)
    assert done.returncode == 0, done.stderr
    hand = json.loads(ledger.read_text().splitlines()[1])
    assert (hand["outcome"], hand["tricks"], hand["points"]) == (SHORT_OF_MELD, None, [-50, 30])


# --- the advice to throw in --------------------------------------------------------------


def test_score_advises_throwing_in_a_meld_more_than_50_below_the_bid() -> None:
    record = scored("--bid", "75", "--bidder", "0", "--meld", "20,10", "--tricks", "30",
                    variant="double-deck")  # fmt: skip
    assert record["advice"] == [
        "the bidding side's meld of 20 is more than 50 below its bid of 75 (the tricks hold"
        " 50 in all: it cannot be made): the rules' reason to throw the hand in before play,"
        " so that the others do not take the trick points"
    ]
    near = scored("--bid", "70", "--bidder", "0", "--meld", "20,10", "--tricks", "30",
                  variant="double-deck")  # fmt: skip
    assert near["advice"] == []


def test_no_advice_to_throw_in_where_the_texts_give_none_or_none_may() -> None:
    single = scored("--bid", "400", "--bidder", "0", "--meld", "20,10", "--tricks", "100",
                    variant="single-deck")  # fmt: skip
    assert single["advice"] == []
    none = load_variant("firehouse")
    assert score_hand(none, HandPlay(400, 0, (20, 10), (100, 110))).advice == ()


def test_the_session_advises_throwing_in_once_the_bidding_sides_meld_is_down() -> None:
    table = _won(["trump H", "meld left 30"], load_variant("double-deck"), bid=75)
    answer = apply(table, "meld partner 12")
    assert answer.lines[-1].startswith("advice: the bidding side's meld of 20 is more than 50")
    assert apply(answer.table, "AS").table.phase == "play"  # advice, not a forced throw-in


# --- a simultaneous pass -------------------------------------------------------------------


@pytest.fixture(scope="module")
def simultaneous(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("simultaneous") / "at-once.yaml"
    path.write_text(
        "name: at-once\nextends: examples/house-passing\ntitle: t\nsource: s\n"
        "passing: {simultaneous: true}\n"
    )
    return load_variant(path)


HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def test_a_card_received_in_a_simultaneous_pass_cannot_be_passed_on(simultaneous) -> None:
    table = replay(start(simultaneous, dealer=3), ["seat 0", f"hand {HAND}", "300"])
    table = replay(table, ["pass", "pass", "pass", "trump S", "get 9C 9C 9D"])
    with pytest.raises(MeldcalcError) as refused:
        apply(table, "give 9C AD AC")
    assert str(refused.value) == (
        "give 9C: passed to you: both pass at once, each choosing before seeing the cards"
        " passed to it, so a card received cannot be passed on (before the pass you held no 9C)"
    )
    done = apply(table, "give QH AD AC").table
    assert done.phase == "meld"
    assert done.playing == Hand.parse("AS 10S KS QS JS JD 9S AH KH 9C 9C 9D")


def test_a_partner_passing_at_once_may_be_told_what_it_got_first(simultaneous) -> None:
    table = replay(start(simultaneous, dealer=3), ["seat 2", f"hand {HAND}", "300"])
    table = replay(table, ["pass", "pass", "pass", "trump S", "get AD 9D 9C"])
    with pytest.raises(MeldcalcError, match=r"^give 9C: passed to you"):
        apply(table, "give 9C KH QH")
    table = apply(table, "give AD KH QH").table  # your own A♦: the bidder sent its other
    assert table.known() == ("0:KH QH AD",)  # chosen before seeing yours: it keeps them all


def test_bids_pass_back_at_once_is_chosen_from_the_hand_as_dealt(simultaneous) -> None:
    """`bid --received` under a simultaneous pass: what it advises passing is from the hand
    as dealt, never a card the partner passed."""
    path = str(simultaneous.path)
    argv = ["bid", HAND, "-V", path, "--received", "9C 9C 9D", "--deals", "60", "--seed", "3"]
    done = runner.invoke(app, [*argv, "-f", "json"])
    assert done.exit_code == 0, done.output
    results = json.loads(done.stdout)["results"]
    backs = [odds["pass_back"] for odds in results if odds["pass_back"] is not None]
    assert len(backs) == 4
    for back in backs:
        for cards in (back["cards"], back["rule_of_thumb"]["cards"]):
            passed = Hand.parse(" ".join(cards)).counts
            assert all(n <= held for n, held in zip(passed, Hand.parse(HAND).counts)), cards
