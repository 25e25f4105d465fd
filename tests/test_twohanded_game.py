"""`meldcalc game` on two-handed pinochle (`meldcalc.game.twohanded`): a hand followed step by
step from one seat's view, through a pipe and at a terminal, to the score in the ledger."""

from __future__ import annotations

import json
import os
import pty
import random
import sys
from pathlib import Path

import pytest
from sessions import AWAY, read_until, run_game

from meldcalc.dealing.deal import deal
from meldcalc.engines.twohanded import after_trick, choose_card, from_deal
from meldcalc.errors import MeldcalcError
from meldcalc.game.twohanded import apply, replay, start
from meldcalc.rules.cards import CARD_NAMES
from meldcalc.rules.loading import load_variant
from meldcalc.rules.twohanded import WON, DixScored, Drew, Melded, StockHand

TWO = load_variant("two-handed")
SEAT_1 = ("--seat", "1", "-V", "two-handed")


def seen_steps(seed: int, me: int = 0) -> tuple[list[str], StockHand]:
    """A deal played out by meldcalc's player, as seat ``me`` would type it: its hand, the
    turn-up, every card, every meld and dix, the cards it sees drawn."""
    dealt = deal(TWO, random.Random(seed))
    state = from_deal(TWO, dealt)
    steps = [f"hand {dealt.hands[me].notation()}", f"turn-up {dealt.turn_up}"]
    while not state.over:
        if state.phase != WON:
            card = choose_card(state)
            steps.append(CARD_NAMES[card])
            state.play(card)
            continue
        before, last = len(state.events), len(state.stock) == 1
        after_trick(state)
        for event in state.events[before:]:
            if isinstance(event, DixScored):
                steps.append(f"dix {event.how}")
            elif isinstance(event, Melded):
                steps.append(f"meld {' '.join(CARD_NAMES[c] for c in event.laid.cards)}")
        drawn = [event for event in state.events[before:] if isinstance(event, Drew)]
        seen = drawn[0] if last else next(e for e in drawn if e.seat == me)
        steps.append(f"draw {CARD_NAMES[seen.card]}")
    return steps, state


def test_a_whole_hand_piped_in_is_scored_as_it_was_played(tmp_path: Path) -> None:
    steps, played = seen_steps(3)
    result = run_game(tmp_path / "g.jsonl", steps, "-V", "two-handed")
    assert result.returncode == 0, result.stderr
    meld, tricks, points = played.meld_points, played.trick_points, played.scores()
    lines = result.stdout.splitlines()
    for seat in (0, 1):
        said = f"Seat {seat}: {meld[seat]} meld + {tricks[seat]} in tricks = {points[seat]}."
        assert said in lines
    assert "the stock is gone: the melds go back into the hands, the follow rules hold" in lines
    assert lines[-1] == "hand 2: you deal"
    hands = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()[1:]]
    assert hands[0]["points"] == list(points) and hands[0]["outcome"] == "played"


def test_the_dealer_seat_follows_the_hand_from_its_side(tmp_path: Path) -> None:
    import subprocess

    steps, played = seen_steps(11, me=1)
    result = subprocess.run(
        [sys.executable, "-m", "meldcalc", "game", str(tmp_path / "g.jsonl"), *SEAT_1],
        input="\n".join(steps) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=AWAY,
    )
    assert result.returncode == 0, result.stderr
    assert f"Seat 1: {played.meld_points[1]} meld" in result.stdout


def test_the_state_is_the_fold_of_its_steps_and_undo_is_one_step_less() -> None:
    steps, played = seen_steps(12)
    table = start(TWO, dealer=1)
    table = replay(apply(table, "seat 0").table, steps)
    assert table.phase == "over" and table.state.scores() == played.scores()
    shorter = replay(apply(start(TWO, 1), "seat 0").table, steps[:-1])
    assert shorter.phase == "play" and shorter.state.tricks_done == 23


def test_a_hand_interrupted_resumes_from_its_journal(tmp_path: Path) -> None:
    steps, played = seen_steps(3)
    ledger = tmp_path / "g.jsonl"
    first = run_game(ledger, [*steps[:30], "quit"], "-V", "two-handed")
    assert first.returncode == 0, first.stderr
    rest = run_game(ledger, steps[30:])
    assert rest.returncode == 0, rest.stderr
    assert "resuming hand 1: 31 steps kept" in rest.stdout
    assert f"Seat 0: {played.meld_points[0]} meld" in rest.stdout


def _dealt_table(hand: str, turn_up: str):
    table = apply(start(TWO, dealer=1), "seat 0").table
    table = apply(table, f"hand {hand}").table
    return apply(table, f"turn-up {turn_up}").table


HAND = "AS 10S KS QS JS AD AD 9D 9D 9C 9C JC"


def test_the_others_card_is_refused_once_every_copy_has_been_seen() -> None:
    table = _dealt_table(HAND, "AS")
    table = apply(table, "9C").table
    with pytest.raises(Exception, match="9C: seat 1 cannot hold it"):
        apply(table, "9C")


def test_only_the_tricks_winner_melds_and_the_draw_names_a_card_unseen() -> None:
    table = _dealt_table(HAND, "AS")
    table = apply(apply(table, "AD").table, "9H").table  # you win the trick
    assert table.phase == "won"
    melded = apply(table, "meld KS QS")
    assert "you meld royal marriage KS QS: 40" in melded.lines
    with pytest.raises(Exception, match="one meld a trick won"):
        apply(melded.table, "meld AS 10S KS QS JS")
    with pytest.raises(Exception, match="draw 9C: every copy of it is in your hand"):
        apply(melded.table, "draw 9C")
    drawn = apply(melded.table, "draw KH")
    assert drawn.lines[:2] == ["you draw KH", "seat 1 draws"]
    assert drawn.table.state.stock_left == 22


def test_hint_in_the_session_says_what_to_meld_now_and_what_to_keep() -> None:
    table = _dealt_table(HAND, "AS")
    table = apply(apply(table, "AD").table, "9H").table
    said = apply(table, "hint").lines
    assert "You won the trick: meld royal marriage KS QS 40." in said
    assert any(line.startswith("Keep the rest for the next tricks won: run") for line in said)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_a_two_handed_hand_is_typed_at_the_prompt_in_a_real_terminal(tmp_path: Path) -> None:
    ledger = tmp_path / "g.jsonl"
    pid, fd = pty.fork()
    if pid == 0:  # the child: meldcalc at a terminal
        os.chdir(AWAY)
        argv = [sys.executable, "-m", "meldcalc", "game", str(ledger), "-V", "two-handed"]
        os.execv(sys.executable, [*argv, "--seat", "0"])
    try:
        assert "[deal: hand, turn-up] > " in read_until(fd, "[deal: hand, turn-up] > ")
        os.write(fd, f"hand {HAND}\r".encode())
        read_until(fd, "[deal: hand, turn-up] > ")
        os.write(fd, b"turn-up AS\r")
        assert "trump S" in read_until(fd, "[stock 24: you to lead] > ")
        os.write(fd, b"AD\r")
        read_until(fd, "[stock 24: seat 1 to follow] > ")
        os.write(fd, b"9H\r")
        said = read_until(fd, "[stock 24: you won: meld, dix, draw] > ")
        assert "trick 1: you win 10" in said
        os.write(fd, b"\x04")  # Ctrl-D: the session ends, the hand stays in its journal
        read_until(fd, "\n", 10)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    kept = [json.loads(line) for line in (tmp_path / "g.jsonl.hand").read_text().splitlines()]
    assert [line.get("step") for line in kept[1:]] == [
        "seat 0",
        f"hand {HAND}",
        "turn-up AS",
        "AD",
        "9H",
    ]


def test_where_the_meld_follows_the_draw_the_session_asks_for_the_draw_first() -> None:
    variant = load_variant(str(Path(__file__).parent / "data" / "two-handed-draw-first.yaml"))
    table = apply(start(variant, dealer=1), "seat 0").table
    table = apply(apply(table, f"hand {HAND}").table, "turn-up AS").table
    table = apply(apply(table, "AD").table, "9H").table
    assert table.prompt == "[stock 24: you won: draw] > "
    assert apply(table, "hint").lines[-3].startswith("You won the trick: draw, then meld")
    with pytest.raises(Exception, match="draws before it may meld"):
        apply(table, "meld KS QS")
    drawn = apply(table, "draw KH").table
    assert drawn.prompt == "[stock 22: you drew: meld, dix, or lead] > "
    melded = apply(drawn, "meld KS QS")
    assert "you meld royal marriage KS QS: 40" in melded.lines
    led = apply(melded.table, "9C").table
    assert led.prompt == "[stock 22: seat 1 to follow] > "


def test_a_mistyped_step_is_told_as_the_step_meant_and_the_seat_comes_first() -> None:
    """As the four-handed session answers: "did you mean", not the list of every step."""
    first = start(TWO, dealer=1)
    with pytest.raises(MeldcalcError, match=r"hand: not yet: say your seat first \(seat 0"):
        apply(first, f"hand {HAND}")
    table = apply(first, "seat 0").table
    with pytest.raises(MeldcalcError, match=r"^seat: you sit in seat 0 already$"):
        apply(table, "seat 1")
    for typed, meant in (("hnit", "hint"), ("shwo", "show"), ("drwa", "draw")):
        with pytest.raises(MeldcalcError, match=f"'{typed}': not a step; did you mean '{meant}'"):
            apply(_dealt_table(HAND, "AS"), typed)
