"""`meldcalc game`'s journal (FILE.hand) against what a run meets: cut short between the
ledger's write and the journal's removal, a torn last line, a journal older than the
deal it keeps, one of a deal the ledger has not reached."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sessions import AWAY, run_game

HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def _standing(ledger: Path) -> dict:
    shown = subprocess.run(
        [sys.executable, "-m", "meldcalc", "score", "-g", str(ledger), "--show", "-f", "json"],
        capture_output=True, text=True, check=True, cwd=AWAY,
    )  # fmt: skip
    return json.loads(shown.stdout)


#: A hand played to its score without its cards: the points of the tricks as counted.
COUNTED = ["hand AS 10S KS QS JS 9S AH 10H KH QH JH 9H", "250", "pass", "pass", "pass",
           "trump S", "meld left KD QD", "meld partner 40", "meld right 0",
           "tricks 150"]  # fmt: skip


@pytest.mark.parametrize(
    "steps", [COUNTED, [f"hand {HAND}", "pass", "pass", "pass", "pass"]], ids=["scored", "passed"]
)
def test_a_journal_whose_hand_the_ledger_holds_is_dropped_not_scored_again(tmp_path, steps) -> None:
    """A run cut short once the hand was in the ledger, before its journal was removed,
    left the journal: it was replayed into the next deal, and scored again (or passed
    again) at the first step typed there, even 'show'."""
    game, journal = tmp_path / "g.jsonl", tmp_path / "g.jsonl.hand"
    assert run_game(game, steps[:-1], "--policy", "rules").returncode == 0
    begun = journal.read_bytes()
    assert run_game(game, steps[-1:], "--policy", "rules").returncode == 0
    recorded = game.read_bytes()
    last = json.dumps({"step": steps[-1]}) + "\n"
    journal.write_bytes(begun + last.encode())  # as the run cut short left it
    again = run_game(game, ["show"], "--policy", "rules")
    next_hand = "hand 2" if steps is COUNTED else "hand 1 (deal 2)"  # hands scored, plus one
    assert again.returncode == 0 and again.stdout.startswith(f"{next_hand}: you deal\n")
    assert again.stderr == (
        f"meldcalc: warning: {journal}: deal 1 is in {game} already: its journal is kept as"
        f" the last hand's ({journal}.last)\n"
    )
    assert game.read_bytes() == recorded
    assert journal.read_text().splitlines() == ['{"deal": 2}', '{"step": "seat 0"}']


def test_a_journal_of_a_hand_beyond_the_ledgers_next_is_refused(tmp_path) -> None:
    game, journal = tmp_path / "g.jsonl", tmp_path / "g.jsonl.hand"
    journal.write_text('{"deal": 3}\n{"step": "seat 0"}\n')
    refused = run_game(game, ["show"])
    assert refused.returncode == 2 and refused.stdout == ""
    assert f"{journal}: the hand under way is deal 3, but the next in {game} is deal 1" in (
        refused.stderr
    )
    assert journal.read_text() == '{"deal": 3}\n{"step": "seat 0"}\n' and not game.exists()


def test_a_journal_begun_before_the_deal_was_kept_resumes(tmp_path) -> None:
    game, journal = tmp_path / "g.jsonl", tmp_path / "g.jsonl.hand"
    journal.write_text('{"variant": "single-deck"}\n{"step": "seat 0"}\n')
    resumed = run_game(game, [*COUNTED, "show"], "--policy", "rules")
    assert resumed.returncode == 0 and resumed.stderr == "", resumed.stderr
    assert len(_standing(game)["hands"]) == 1


@pytest.mark.parametrize(
    "tail",
    [b'\n{"step": "hand AS 1', b"\n" + b"\0" * 20, b""],
    ids=["cut-short", "zero-filled", "whole-without-its-line-break"],
)
def test_a_step_after_a_torn_journal_line_is_kept_whole(tmp_path, tail: bytes) -> None:
    """A crash mid-write leaves a torn last line, left out when the journal is read; the
    next step was once written straight onto it (or onto a whole line an editor left
    without its break), and the resume after that failed on it, the step lost."""
    game, journal = tmp_path / "g.jsonl", tmp_path / "g.jsonl.hand"
    begun = b'{"deal": 1, "variant": "single-deck"}\n{"step": "seat 0"}'
    journal.write_bytes(begun + tail)
    typed = run_game(game, [f"hand {HAND}"], "--policy", "rules")
    assert typed.returncode == 0, typed.stderr
    step = json.dumps({"step": f"hand {HAND}"}).encode()
    assert journal.read_bytes() == begun + b"\n" + step + b"\n"
    again = run_game(game, ["show"], "--policy", "rules")
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.stdout.startswith(f"resuming hand 1: 2 steps kept in {journal}\n")
    assert "phase: auction" in again.stdout  # the hand typed is taken


def test_a_run_cut_short_as_the_score_is_shown_leaves_no_journal(tmp_path) -> None:
    """The journal is removed once the ledger has the hand, before the game's standing is
    shown: a run that dies there leaves nothing to resume. Here the output, unbuffered (as
    PYTHONUNBUFFERED has it), goes to a file that can grow no further (`RLIMIT_FSIZE`) once
    all before the standing is written."""
    resource = pytest.importorskip("resource")
    game, room = tmp_path / "g.jsonl", 1 << 20

    def run(stdout: object, limited: bool) -> subprocess.CompletedProcess:
        def limit() -> None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (room, resource.RLIM_INFINITY))

        argv = [sys.executable, "-m", "meldcalc", "game", str(game), "--seat", "0"]
        return subprocess.run(
            [*argv, "--policy", "rules"], input="\n".join(COUNTED).encode() + b"\n",
            stdout=stdout, stderr=subprocess.PIPE, preexec_fn=limit if limited else None,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, timeout=120, cwd=AWAY,
        )  # fmt: skip

    whole = run(subprocess.PIPE, limited=False).stdout
    shown = whole.index(f"{game}: single-deck, game to".encode())  # the standing's first line
    game.unlink()
    (tmp_path / "g.jsonl.hand").unlink()
    out = tmp_path / "out.txt"
    out.write_bytes(b"." * (room - shown))
    with out.open("ab") as stdout:
        cut = run(stdout, limited=True)
    assert cut.returncode == 1 and b"cannot write to standard output" in cut.stderr
    assert out.read_bytes()[room - shown :] == whole[:shown]
    assert not (tmp_path / "g.jsonl.hand").exists()
    assert len(_standing(game)["hands"]) == 1
