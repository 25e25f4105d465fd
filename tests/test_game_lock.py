"""One writer per game: a `meldcalc game` session holds its game (FILE.lock) while it runs;
a second session, or `score -g` adding to it, is refused at once; a lock whose process
died does not block; a link planted as the lock file is never followed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sessions import AWAY, run_game

HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def _meldcalc(*argv: str, steps: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", *argv],
        input=steps,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=AWAY,
    )


def _session_holding(ledger: Path) -> subprocess.Popen:
    """A session at its prompt on ``ledger``, waiting for its next step (stdin kept open)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "meldcalc", "game", str(ledger), "--seat", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=AWAY,
    )
    process.stdin.write(f"hand {HAND}\n")
    process.stdin.flush()
    while "meld under each trump" not in process.stdout.readline():  # the hand journaled
        pass
    return process


def test_a_second_session_or_score_on_a_held_game_is_refused_at_once(tmp_path) -> None:
    ledger = tmp_path / "g.jsonl"
    first = _session_holding(ledger)
    try:
        began = time.monotonic()
        second = _meldcalc("game", str(ledger), steps="hand AS\n")
        scored = _meldcalc(
            "score", "-g", str(ledger), "--bid", "250", "--bidder", "0", "--meld", "0,0",
            "--tricks", "150",
        )  # fmt: skip
        assert time.monotonic() - began < 30  # at once: not waiting for the session to end
        for refused in (second, scored):
            assert refused.returncode == 1, refused.stderr
            assert refused.stdout == ""
            line = refused.stderr.strip()
            assert "\n" not in line
            assert f"{ledger}.lock: another meldcalc session holds this game" in line
            assert f"process {first.pid}" in line
        assert not ledger.exists()  # nothing was scored behind the session's back
    finally:
        first.stdin.close()
        first.wait(timeout=60)
    assert first.returncode == 0, first.stderr.read()
    assert not Path(f"{ledger}.lock").exists()  # the session ended: its lock file is gone


def test_a_lock_left_by_a_killed_session_does_not_block_the_next(tmp_path) -> None:
    ledger = tmp_path / "g.jsonl"
    first = _session_holding(ledger)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert Path(f"{ledger}.lock").exists()  # left behind, but the lock died with its process
    resumed = run_game(ledger, ["300"])
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("resuming hand 1")


def test_reading_a_held_game_is_not_refused(tmp_path) -> None:
    ledger = tmp_path / "g.jsonl"
    done = _meldcalc(
        "score", "-g", str(ledger), "--bid", "250", "--bidder", "0", "--meld", "0,0",
        "--tricks", "150",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    first = _session_holding(ledger)
    try:
        shown = _meldcalc("score", "-g", str(ledger), "--show")
        assert shown.returncode == 0 and "game to 1000" in shown.stdout, shown.stderr
    finally:
        first.stdin.close()
        first.wait(timeout=60)


def test_a_link_planted_as_the_lock_file_is_not_followed(tmp_path) -> None:
    ledger, target = tmp_path / "g.jsonl", tmp_path / "precious.txt"
    target.write_text("keep me\n")
    os.symlink(target, f"{ledger}.lock")
    for argv in (
        ("game", str(ledger)),
        ("score", "-g", str(ledger), "--bid", "250", "--bidder", "0", "--meld", "0,0",
         "--tricks", "150"),
    ):  # fmt: skip
        done = _meldcalc(*argv, steps=f"hand {HAND}\n")
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert f"{ledger}.lock: a symbolic link" in done.stderr
    assert target.read_text() == "keep me\n" and not ledger.exists()


def test_a_game_file_with_a_second_name_is_refused_under_either(tmp_path) -> None:
    """The lock is held by name: a hard link once let a session in on each name, and the
    two scored one game's deal twice."""
    ledger, other = tmp_path / "g.jsonl", tmp_path / "hard.jsonl"
    score = ("--bid", "250", "--bidder", "0", "--meld", "0,0", "--tricks", "150")
    assert _meldcalc("score", "-g", str(ledger), *score).returncode == 0
    os.link(ledger, other)
    kept = ledger.read_bytes()
    for name in (ledger, other):
        for argv in (("game", str(name)), ("score", "-g", str(name), *score)):
            done = _meldcalc(*argv, steps=f"hand {HAND}\n")
            assert done.returncode == 2 and done.stdout == "", done.stderr
            assert done.stderr.strip() == (
                f"meldcalc: error: {name}: the game's file has 2 names (hard links), and a game"
                " is held by its name, so two sessions could score it at once: copy it to a"
                " file of its own (cp) and play that, or remove the other names"
            )
    assert ledger.read_bytes() == kept  # nothing scored, nothing journaled
    assert not Path(f"{ledger}.hand").exists() and not Path(f"{other}.hand").exists()
    other.unlink()
    assert _meldcalc("score", "-g", str(ledger), *score).returncode == 0  # one name: played
