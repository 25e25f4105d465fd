"""`meldcalc hint -V two-handed`: the card to lead or follow, and after a trick won what to
meld now and what to keep, from the position as a player describes it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from meldcalc.advice.twohanded import Seen, rebuilt
from meldcalc.cli import app
from meldcalc.rules.cards import CARD_NAMES, Card, Hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.twohanded import LAST, STOCK

TWO = load_variant("two-handed")
runner = CliRunner()
RUN = "AS 10S KS QS JS AD 9D 9D 9C JC KC"


def hint(*args: str):
    return runner.invoke(app, ["hint", "-V", "two-handed", *args])


def cards(text: str) -> tuple[int, ...]:
    return tuple(CARD_NAMES.index(name) for name in text.split())


def test_after_a_trick_won_the_hint_melds_the_royal_marriage_and_keeps_the_run() -> None:
    result = hint(RUN, "--turn-up", "AS", "--played", "9H AD", "--won")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "You won the trick: meld royal marriage KS QS 40." in lines
    assert any(
        line.startswith("Keep the rest for the next tricks won: run AS 10S KS QS JS")
        for line in lines
    )


def test_the_hint_exchanges_the_dix_before_melding() -> None:
    result = hint(
        "9S KS QS AD 9D 9D 9C JC KC QC 10C",
        "--turn-up",
        "AS",
        "--played",
        "9H AD",
        "--won",
        "-f",
        "json",
    )
    record = json.loads(result.stdout)
    assert record["meld"]["dix"] == "exchange"
    assert record["meld"]["now"]["name"] == "royal marriage"


def test_the_follower_keeps_its_run_and_throws_a_card_of_no_worth() -> None:
    result = hint(RUN, "--turn-up", "AS", "--played", "10C", "--leader", "left", "-f", "json")
    record = json.loads(result.stdout)
    assert record["trick"] == ["10C"] and record["stock"] == 24
    assert record["cards"][0]["card"] in ("9C", "JC", "9D")
    assert {option["name"] for option in record["could_meld"]} == {"run", "royal marriage"}


def test_a_meld_laid_is_on_the_table_and_its_cards_meld_again_only_upward() -> None:
    seen = Seen(
        Hand.parse(RUN + " QH"),
        Card.parse("AS"),
        cards("AD 9H 10D KD"),
        melds=((0, cards("KS QS")),),
    )
    state = rebuilt(TWO, seen)
    assert state.table_cards(0) == sorted(cards("KS QS")) and state.stage == STOCK
    assert state.stock_left == 20 and state.to_play == 0
    names = [option.name for option in state.meld_options(0)]
    assert "run" in names and "royal marriage" not in names


def test_a_card_played_from_a_meld_leaves_the_table() -> None:
    seen = Seen(
        Hand.parse("QS AD 9D 9D 9C JC KC QH AH 10H"),
        Card.parse("AS"),
        cards("AD 9H KS 10D"),
        melds=((0, cards("KS QS")),),
    )
    state = rebuilt(TWO, seen)
    assert state.table_cards(0) == list(cards("QS"))


def test_once_the_stock_is_gone_the_other_hand_is_known_and_the_hint_is_exact() -> None:
    import random

    from meldcalc.dealing.deal import deal
    from meldcalc.engines.twohanded import after_trick, choose_card, from_deal
    from meldcalc.rules.twohanded import WON

    dealt = deal(TWO, random.Random(7))
    state = from_deal(TWO, dealt)
    played = []
    while state.stage != LAST or state.to_play != 0:
        if state.phase == WON:
            after_trick(state)
        else:
            card = choose_card(state)
            played.append(CARD_NAMES[card])
            state.play(card)
    mine = Hand(state.hands[0]).notation()
    result = hint(mine, "--turn-up", str(dealt.turn_up), "--played", " ".join(played), "-f", "json")
    record = json.loads(result.stdout)
    assert record["stage"] == "last" and record["stock"] == 0
    assert record["cards"][0]["card"] == CARD_NAMES[choose_card(state)]
    assert "exactly" in record["cards"][0]["why"]
    while state.tricks_done < 13 or state.to_play != 0 or state.trick:
        card = choose_card(state)
        played.append(CARD_NAMES[card])
        state.play(card)
    mine = Hand(state.hands[0]).notation()
    args = ["--turn-up", str(dealt.turn_up), "--played", " ".join(played), "--won"]
    late = hint(mine, *args)
    assert late.exit_code == 2 and "the stock is gone" in late.stderr


def test_the_hint_refuses_a_position_without_its_turn_up_or_with_the_other_to_play() -> None:
    missing = hint(RUN)
    assert missing.exit_code == 2 and "--turn-up CARD" in missing.stderr
    theirs = hint(RUN, "--turn-up", "AS", "--played", "10C")
    assert theirs.exit_code == 2 and "the other seat is to play" in theirs.stderr
    lost = hint(RUN, "--turn-up", "AS", "--played", "AD 9S", "--won")
    assert lost.exit_code == 2 and "not yours to win" in lost.stderr


def test_turn_up_and_won_belong_to_two_handed() -> None:
    result = runner.invoke(app, ["hint", "AS 10S", "-t", "S", "--won"])
    assert result.exit_code == 2 and "--turn-up and --won are two-handed's" in result.stderr
