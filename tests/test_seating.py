"""Who sits where: counter-clockwise play (seed 003) names the seats beside you the other
way round, in every command and the session; two hands each (seed 003's double deck for
two) give you your seat's hand and the one opposite, both counted, played and hinted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sessions import run_game
from typer.testing import CliRunner

from meldcalc.advice.played import play_deal
from meldcalc.cli import app
from meldcalc.dealing.deal import deals
from meldcalc.errors import MeldcalcError, VariantError
from meldcalc.game.session import apply, replay, start
from meldcalc.rules.cards import Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld
from meldcalc.rules.scoring import HandPlay, score_hand
from meldcalc.rules.seats import Seating, place_offsets

TWO = load_variant("double-deck-two-hands")
runner = CliRunner()


def _counter(tmp_path: Path) -> Path:
    path = tmp_path / "counter.yaml"
    path.write_text(
        "name: counter\nextends: single-deck\ntitle: t\nsource: s\n"
        "play: {direction: counterclockwise}\n"
    )
    return path


def test_counterclockwise_play_puts_the_next_seat_on_your_right(tmp_path: Path) -> None:
    clockwise, counter = load_variant("single-deck"), load_variant(_counter(tmp_path))
    assert place_offsets(clockwise) == {"left": 1, "right": 3, "partner": 2}
    assert place_offsets(counter) == {"left": 3, "right": 1, "partner": 2}
    seating = Seating(counter, me=1)
    assert (seating.parse("left"), seating.parse("right")) == (0, 2)
    assert seating.label(2) == "seat 2 (right)" and seating.label(0) == "seat 0 (left)"


def test_hint_names_the_seats_beside_you_by_the_variants_direction(tmp_path: Path) -> None:
    """`hint --leader left` is the seat after yours clockwise, the one before it counter-
    clockwise: the same cards led by `left` are another seat's lead."""
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    argv = ["hint", hand, "-t", "S", "--seat", "0", "--leader", "left", "--played", "AC"]
    counter = runner.invoke(app, [*argv, "-V", str(_counter(tmp_path)), "-f", "json"])
    assert counter.exit_code == 0, counter.output
    assert json.loads(counter.stdout)["on_table"] == [{"seat": 3, "card": "AC"}]
    clockwise = runner.invoke(app, argv)
    assert "it is seat 2's turn, not seat 0's" in clockwise.output  # 1 led, 2 plays next


def test_the_session_names_seats_by_the_variants_direction(tmp_path: Path) -> None:
    table = replay(start(load_variant(_counter(tmp_path)), dealer=3), ["seat 0"])
    table = replay(table, ["hand AS 10S KS QS JS JD 9S AH AD AC KH QH"])
    answer = apply(table, "300", advise=False)
    assert answer.lines[-1] == "the bid is 300 (you); seat 1 (right) to bid"
    assert apply(answer.table, "pass", advise=False).lines[0] == "seat 1 (right): pass"


def test_the_table_says_which_way_play_goes(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["table", str(_counter(tmp_path))]).stdout
    assert "- dealing and play go counter-clockwise: the next to play sits on your right" in shown
    assert "- dealing and play go clockwise" in runner.invoke(app, ["table"]).stdout


# --- two hands each ------------------------------------------------------------------------


def test_two_hands_each_are_the_two_hands_of_a_side() -> None:
    assert (TWO.players, TWO.partnerships, TWO.hands_each, TWO.direction) == (
        4,
        True,
        2,
        "counterclockwise",
    )
    assert Seating(TWO, me=1).label(3) == "seat 3 (your other hand)"
    shown = runner.invoke(app, ["table", "double-deck-two-hands"]).stdout
    assert "Deal: 2 players, each holding the two hands of a side: 4 hands of 20" in shown


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("players: 3\npartnerships: false\nhand_size: 26\nwidow: 2\n", "two hands each are"),
        ("passing: {kind: plain, cards: 3}\n", "a card pass between the two hands"),
    ],
)
def test_two_hands_each_need_two_sides_of_two_and_no_pass(
    tmp_path: Path, extra: str, problem: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: bad\nextends: double-deck-two-hands\ntitle: t\nsource: s\n{extra}")
    with pytest.raises(VariantError) as error:
        load_variant(path)
    assert any(problem in line for line in error.value.problems), error.value.problems


def _two_hands_deal() -> tuple[list, object, list[str]]:
    """A double-deck deal, seat 0 bidding 60 in clubs; you hold seats 0 and 2."""
    hands = next(deals(TWO, 1, 5)).hands
    played = play_deal(tuple(hands), TWO, Suit.CLUBS)
    steps = ["seat 0", f"hand {hands[0].notation()} / {hands[2].notation()}"]
    steps += ["60", "pass", "pass", "pass", "trump C"]
    steps += [f"meld {seat} {best_meld(hands[seat], TWO, Suit.CLUBS).total}" for seat in (1, 3)]
    return hands, played, steps


def test_you_hold_both_hands_of_your_side_and_play_the_deal_to_its_score() -> None:
    hands, played, steps = _two_hands_deal()
    table = replay(start(TWO, dealer=3), steps)
    meld = [best_meld(hands[seat], TWO, Suit.CLUBS).total for seat in range(4)]
    assert table.side_melds() == (meld[0] + meld[2], meld[1] + meld[3])
    cards = [card for trick in played.tricks for _, card in trick.cards]
    table = replay(table, cards)
    assert table.phase == "over"
    expected = score_hand(TWO, HandPlay(60, 0, table.side_melds(), tuple(played.points)))
    assert table.outcome().points == expected.points


def test_your_other_hand_plays_only_its_own_cards_and_takes_hints() -> None:
    hands, played, steps = _two_hands_deal()
    table = replay(start(TWO, dealer=3), steps)
    first = [card for _, card in played.tricks[0].cards]
    table = replay(table, first[:2])  # seat 0 leads, seat 1 follows: seat 2 to play
    assert table.to_play == 2
    absent = next(str(c) for c in hands[0].cards() if not hands[2].count(c))
    with pytest.raises(MeldcalcError, match="not in its hand as dealt"):
        apply(table, absent)
    hinted = apply(table, "hint", seed=1)
    assert hinted.data["best"] in {str(card) for card in hands[2].cards()}
    with pytest.raises(MeldcalcError, match="your meld is counted from your hand"):
        apply(replay(start(TWO, dealer=3), steps[:-2]), "meld partner 40")


def test_the_two_hands_are_typed_together(tmp_path: Path) -> None:
    hands, _, _ = _two_hands_deal()
    table = replay(start(TWO, dealer=3), ["seat 0"])
    with pytest.raises(MeldcalcError, match=r"hand CARDS / CARDS"):
        apply(table, f"hand {hands[0].notation()}")
    done = run_game(tmp_path / "g.jsonl", [f"hand {hands[0].notation()} / {hands[2].notation()}",
                                           "show"], "-V", "double-deck-two-hands")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"your other hand: {hands[2].notation()}" in done.stdout
