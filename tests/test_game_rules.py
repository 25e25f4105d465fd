"""Every rule `meldcalc score` keeps, kept by the session too: throwing in, no marriage in
trump, the counts a save-meld rule needs, checks, the variant's auction (rounds, forced
dealer, opening and steps); and every key of a variant file that changes a score either
kept by the session or refused when a game starts, by name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sessions import AWAY, run_game

from meldcalc.errors import MeldcalcError
from meldcalc.game.session import NOT_KEPT, apply, replay, start
from meldcalc.rules.loading import load_variant, variant_from_data
from meldcalc.rules.scoring import HandPlay, score_hand

HAND = "hand AS 10S KS QS JS 9S AH 10H KH QH JH 9H"
AUCTION = [HAND, "250", "pass", "pass", "pass", "trump S"]
DD_HAND = "hand AS AS 10S 10S KS JS AH AH 10H 10H JH JH AD AD 10D JD AC AC 10C JC"


def _table(variant: str | object, steps: list[str]):
    rules = load_variant(variant) if isinstance(variant, str) else variant
    return replay(start(rules, rules.players - 1), ["seat 0", *steps])


def _house(**house) -> object:
    data = dict(load_variant("single-deck").data)
    data["house"] = {**data.get("house", {}), **house}
    return variant_from_data(data, Path("house.yaml"), 1, "rules")


def test_a_hand_thrown_in_is_scored_as_score_thrown_in_scores_it(tmp_path) -> None:
    steps = [*AUCTION, "meld left 20", "meld partner 40", "meld right 60", "throw in"]
    done = run_game(tmp_path / "g.jsonl", steps, "-f", "jsonl")
    assert done.returncode == 0, done.stderr
    scored = subprocess.run(
        [sys.executable, "-m", "meldcalc", "score", "--bid", "250", "--bidder", "0",
         "--meld", "220,80", "--thrown-in", "-f", "json"],
        capture_output=True, text=True, check=True, cwd=AWAY,
    )  # fmt: skip
    expected = [side["points"] for side in json.loads(scored.stdout)["sides"]]
    totals = [json.loads(line) for line in done.stdout.splitlines() if '"totals"' in line]
    assert (
        totals == [{"totals": expected, "winner": None}] == [{"totals": [-250, 80], "winner": None}]
    )


def test_concede_is_throw_in_and_firehouse_refuses_it() -> None:
    steps = [*AUCTION, "meld left 20", "meld partner 40", "meld right 0"]
    assert _table("single-deck", [*steps, "concede"]).outcome().outcome == "thrown in"
    firehouse = _table("firehouse", [HAND, "250", "pass", "pass", "pass", "trump S", *steps[6:]])
    with pytest.raises(MeldcalcError, match="firehouse does not allow a side to throw the hand in"):
        apply(firehouse, "throw in")


def test_throw_in_waits_for_the_meld_the_others_score() -> None:
    table = _table("single-deck", [*AUCTION, "meld left 20"])
    with pytest.raises(MeldcalcError, match=r"lay down right's first \(meld right 0 if none\)"):
        apply(table, "throw in")


def test_a_double_deck_bidder_without_a_marriage_ends_the_hand_as_no_marriage_does() -> None:
    table = _table("double-deck", [DD_HAND, "pass", "pass", "pass", "pass", "trump S"])
    with pytest.raises(MeldcalcError, match="does not require"):
        apply(_table("single-deck", AUCTION), "no marriage")
    ended = apply(table, "no marriage").table
    assert ended.phase == "over"
    play = HandPlay(50, 3, ended.side_melds(), no_marriage=True)
    assert ended.outcome() == score_hand(load_variant("double-deck"), play)
    assert ended.outcome().points == (0, -50)


def test_your_own_no_marriage_is_refused_where_you_hold_one() -> None:
    table = _table("double-deck", [DD_HAND.replace("JC", "KC").replace("10C", "QC"), "50",
                                   "pass", "pass", "pass"])  # fmt: skip
    with pytest.raises(MeldcalcError, match="holds a marriage in ♣: name it trump"):
        apply(table, "no marriage")
    yours = _table("double-deck", [DD_HAND, "50", "pass", "pass", "pass"])
    assert apply(yours, "no marriage").lines[0] == (
        "you hold no marriage in trump: the hand is not played"
    )


@pytest.mark.parametrize(
    ("house", "tricks", "step", "asked", "taken"),
    [
        ("trick", "210", "taken", "taken N,N", "12,0"),
        ("counter", "200", "counters", "counters N,N", "24,0"),
    ],
)
def test_a_save_meld_rule_asks_for_its_count_by_the_steps_name(
    house, tricks, step, asked, taken
) -> None:
    rules = _house(save_meld=house)
    steps = [*AUCTION, "meld left 20", "meld partner 40", "meld right 0", f"tricks {tricks}"]
    table = _table(rules, steps[:-1])
    answer = apply(table, steps[-1])
    assert answer.table.phase == "counts" and asked in answer.lines[-1]
    assert "--" not in " ".join(answer.lines)  # no flag of another command
    over = apply(answer.table, f"{step} {taken}").table
    assert over.phase == "over"
    numbers = tuple(int(n) for n in taken.split(","))
    play = HandPlay(250, 0, (220, 20), over.trick_points())
    field = "tricks_taken" if step == "taken" else "counters_taken"
    assert over.outcome() == score_hand(rules, HandPlay(**{**play.__dict__, field: numbers}))
    assert over.outcome().counted_meld == (220, 0)  # the side with no trick lost its meld


def test_check_pinochles_checks_are_counted_from_each_seats_meld_cards() -> None:
    rules = load_variant("check")
    hand = "hand AS 10S KS QS JS 9S AH KH QH KD QD KC"  # a run, a roundhouse short of QC
    table = _table(rules, [hand, "200", "pass", "pass", "pass", "trump S",
                           "meld partner QC 9S", "meld left 0", "meld right 0"])  # fmt: skip
    from meldcalc.rules.cards import Hand, Suit
    from meldcalc.rules.scoring import meld_of_hands

    meld, checks, _ = meld_of_hands(
        rules, {0: Hand.parse(hand[5:]), 2: Hand.parse("QC 9S")}, Suit.SPADES, 0
    )
    assert table.side_melds() == meld and table.side_checks() == checks and checks[0] > 0


def test_meld_typed_as_totals_in_check_pinochle_asks_for_the_checks() -> None:
    steps = [HAND, "200", "pass", "pass", "pass", "trump S", "meld partner 40", "meld left 20",
             "meld right 0", "tricks 150"]  # fmt: skip
    answer = apply(_table("check", steps[:-1]), steps[-1])
    assert answer.table.phase == "counts" and "checks N,N" in answer.lines[-1]
    with pytest.raises(MeldcalcError, match="carries at most"):
        apply(answer.table, "checks 0,9")
    over = apply(answer.table, "checks 2,0").table
    assert over.phase == "over" and over.outcome().checks == (2, 0)


def test_firehouse_bids_one_round_and_the_high_bid_wins() -> None:
    table = _table("firehouse", [HAND, "200", "210", "pass"])
    assert table.phase == "auction" and table.to_bid == 3
    over = apply(table, "pass").table
    assert over.bidder == 1 and over.contract == 210 and over.phase == "trump"
    single = _table("single-deck", [HAND, "250", "260", "pass", "pass"])
    assert single.phase == "auction" and single.to_bid == 0  # single deck bids on


def test_a_forced_dealer_takes_the_opening_bid_and_bids_keep_the_steps() -> None:
    table = _table("double-deck", [DD_HAND, "pass", "pass", "pass", "pass"])
    assert (table.bidder, table.contract) == (3, 50)
    for high, bid, floor in (("50", "50", "51"), ("60", "61", "65")):
        start_at = _table("double-deck", [DD_HAND, high])
        with pytest.raises(MeldcalcError, match=f"the next legal bid is {floor}"):
            apply(start_at, bid)


def test_a_pass_carries_no_number() -> None:
    with pytest.raises(MeldcalcError, match="a pass carries no number"):
        apply(_table("single-deck", [HAND]), "pass 400")


#: Keys that say what a variant is, not how a hand scores.
DESCRIPTIVE = {"name", "title", "source", "description", "extends", "house_defaults"}
#: Every other key, and what in the session keeps it: the session asks rules/ for each.
KEPT = {
    "deck": "the cards the steps check (Variant.check_hand, check_together)",
    "players": "the seats (Seating) and the auction's turns (rules.auction)",
    "partnerships": "the sides scored (scoring.side_of)",
    "hand_size": "a hand's cards (session._hand)",
    "widow": "the widow and bury steps",
    "melds": "your meld counted (rules.meld) and the seats' cards counted",
    "tricks": "trick points (Table.tricks) and the hand's total",
    "bidding": "the auction (rules.auction.Auction), each bid read by the system"
    " (rules.systems), throw in, no marriage, the target",
    "play": "each card checked by the trick rules (advice.history.hint_table)",
    "passing": "the ask, give and get steps",
    "house": "the hand scored by scoring.score_hand, counts asked for (counters, taken)",
    "hands_each": "your other hand (game.houserules.hands_typed, Table.other)",
    "stock_play": "the two-handed session (game.twohanded); the bid session refuses a stock",
}


def _keys(fields, prefix="") -> set[str]:
    """Every key path of the schema, as a variant file may hold it."""
    from meldcalc.rules.schema import OneOf, Record

    found = set()
    for name, field in fields.items():
        found.add(prefix + name)
        specs = field.spec.options if isinstance(field.spec, OneOf) else (field.spec,)
        for spec in specs:
            item = getattr(spec, "item", spec)
            if isinstance(item, Record):
                found |= _keys(item.fields, f"{prefix}{name}.")
    return found


def test_every_key_that_changes_a_score_is_kept_or_refused_by_name() -> None:
    from meldcalc.rules.schema import VARIANT_FIELDS

    top = {key for key in _keys(VARIANT_FIELDS) if "." not in key}
    assert top == DESCRIPTIVE | set(KEPT) | (set(NOT_KEPT) - set(KEPT)), top
    # the refused ones: a game of such a variant refused at start, the key named
    single, two = load_variant("single-deck").data, load_variant("two-handed").data
    refused = {
        "bidding": two,
        "stock": {k: v for k, v in two.items() if k != "stock_play"}
        | {"bidding": single["bidding"]},
    }
    assert set(refused) == set(NOT_KEPT)
    for key, data in refused.items():
        rules = variant_from_data(data, Path(f"{key}.yaml"), 1, "rules")
        with pytest.raises(MeldcalcError, match=f"{rules.name}: {key}: "):
            start(rules, 0)
    # and every shipped variant with an auction starts: its keys are the session's to keep
    from meldcalc.rules.loading import shipped_names

    for name in shipped_names():
        rules = load_variant(name)
        if not any(applies(rules) for applies, _ in NOT_KEPT.values()):
            assert start(rules, rules.players - 1).phase == "hand"


def test_every_sub_key_of_a_kept_key_is_a_rule_the_session_asks_for() -> None:
    """A new key below a kept one (``bidding.rounds`` was read by nobody) must be named here
    once the session keeps it: the list is the schema's, walked."""
    from meldcalc.rules.schema import VARIANT_FIELDS

    sub = {key for key in _keys(VARIANT_FIELDS) if "." in key}
    assert sub == {
        "deck.ranks", "deck.copies", "melds.name", "melds.class", "melds.trump",
        "melds.non_trump", "melds.cards", "melds.around", "melds.points", "melds.checks",
        "melds.reuse", "melds.reuse.melds", "melds.reuse.from_copies", "melds.reuse.beside",
        "tricks.counters", "tricks.last_trick", "bidding.opening", "bidding.increments",
        "bidding.increments.from", "bidding.increments.by", "bidding.dealer_forced",
        "bidding.marriage_in_trump", "bidding.game", "bidding.concede", "bidding.rounds",
        "bidding.both_reach", "play.head", "play.overtrump", "passing.kind", "passing.cards",
        "passing.simultaneous", "house.meld_minimum", "house.save_meld", "house.set_penalty",
        "house.thrown_in", "house.thrown_in.meld", "house.thrown_in.meld_minimum",
        "house.thrown_in.cards", "bidding.throw_in_advice", "house.forfeit_under_minimum",
        "house.trick_minimum", "play.direction", "stock_play.closing", "stock_play.game",
        "stock_play.meld_before_draw", "stock_play.melds_per_trick", "stock_play.round_tricks",
            "bidding.system",
    }  # fmt: skip


def test_a_seat_with_no_meld_typed_is_said_at_the_first_card_as_counting_none() -> None:
    """A meld forgotten is not refused (a seat with none need not be typed) but said, at the
    one moment it can still be given: before the play, after which a meld is refused."""
    table = _table("single-deck", [*AUCTION, "meld left 20", "meld right 10"])
    said = apply(table, "AS").lines
    assert (
        said[0] == "no meld typed for seat 2 (partner): counted as none ('undo', then 'meld 2 N')"
    )
    assert apply(apply(table, "AS").table, "9H").lines == ["seat 1 (left): 9H"]  # said once
    closed = apply(table, "tricks 150")  # the play not followed: the hand ends there
    assert closed.table.phase == "over"
    assert closed.lines[0] == (
        "no meld typed for seat 2 (partner): counted as none (the hand is scored so:"
        " 'meldcalc score --game FILE --undo' takes it back)"
    )
    every = _table("single-deck", [*AUCTION, "meld left 20", "meld partner 0", "meld right 10"])
    assert not any("no meld" in line for line in apply(every, "AS").lines)


def test_the_trump_prompt_offers_a_suit_you_may_name_or_the_no_marriage_step() -> None:
    none = _table("double-deck", [DD_HAND, "50", "pass", "pass"])
    assert apply(none, "pass").lines[-1] == (
        "your hand holds no marriage: 'no marriage' (the hand is not played)"
    )
    clubs = DD_HAND.replace("JC", "KC").replace("10C", "QC")  # a marriage in clubs alone
    assert apply(_table("double-deck", [clubs, "50", "pass", "pass"]), "pass").lines[-1] == (
        "name trump: trump C"
    )
