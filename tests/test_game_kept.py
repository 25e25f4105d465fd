"""Nothing lost: what a session reads and writes never loses a hand typed. Side names
checked as a side before a step; a journal step refused before it would pass the size
limit; a deeply nested line an error, not a traceback; a hand finished before a crash
recorded at once; `score -g` setting an unfinished journal aside; `review` after a
restart; quit, Ctrl-D and Ctrl-C saying where the hand is kept; Ctrl-C cancelling a hint,
not the session (in a real pseudo-terminal)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sessions import AWAY, read_until, run_game, typed_at_prompt, waiting_for_input

HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
COUNTED = [f"hand {HAND}", "250", "pass", "pass", "pass", "trump S", "meld left 20",
           "meld partner 40", "meld right 0", "tricks 150"]  # fmt: skip


def _meldcalc(*argv: str, steps: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", *argv],
        input=steps, capture_output=True, text=True, timeout=120, cwd=AWAY,
    )  # fmt: skip


def test_names_that_fit_seat_by_seat_but_not_as_a_side_are_refused_before_a_step(
    tmp_path,
) -> None:
    names = "Alexandrina Smithsonian,Bartholomew Jones,Cornelius Whitfield-Brown,Dorothea"
    done = run_game(tmp_path / "g.jsonl", COUNTED, "--names", names)
    assert done.returncode == 2 and done.stdout == ""
    assert "would be 53 characters: a side's name has at most 40" in done.stderr
    assert not (tmp_path / "g.jsonl.hand").exists()


def test_a_step_that_would_pass_the_journals_limit_is_refused_and_the_hand_kept(tmp_path) -> None:
    from meldcalc.game.journal import MAX_BYTES

    journal = tmp_path / "g.jsonl.hand"
    head = '{"deal": 1, "variant": "single-deck"}\n'
    line = '{"step": "seat 0"}\n'
    journal.write_text(head + line * ((MAX_BYTES - len(head) - 40) // len(line)))
    before = journal.read_bytes()
    done = run_game(tmp_path / "g.jsonl", [f"hand {HAND}"])
    assert "the step would take the hand's journal past 1 MB: the step is not taken" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr and journal.read_bytes() == before
    again = run_game(tmp_path / "g.jsonl", ["show"])
    assert again.returncode == 0 and "resuming hand 1" in again.stdout  # still readable


def test_a_deeply_nested_journal_line_is_a_clear_error_not_a_traceback(tmp_path) -> None:
    journal = tmp_path / "g.jsonl.hand"
    journal.write_text('{"deal": 1}\n' + "[" * 100_000 + "]" * 100_000 + "\n")
    done = run_game(tmp_path / "g.jsonl", ["show"])
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr == f"meldcalc: error: {journal}:2: not a journal line\n"


def test_a_hand_finished_before_a_crash_is_recorded_as_soon_as_the_session_resumes(
    tmp_path,
) -> None:
    ledger, journal = tmp_path / "g.jsonl", tmp_path / "g.jsonl.hand"
    lines = [{"deal": 1, "variant": "single-deck"}, {"step": "seat 0"}]
    journal.write_text(
        "".join(json.dumps(x) + "\n" for x in lines + [{"step": s} for s in COUNTED])
    )
    done = run_game(ledger, [], "--policy", "rules")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("resuming hand 1: 11 steps kept in")
    assert "hand 1 was over: recording it" in done.stdout and "hand 2: you deal" in done.stdout
    shown = json.loads(_meldcalc("score", "-g", str(ledger), "--show", "-f", "json").stdout)
    assert [hand["points"] for hand in shown["hands"]] == [[510, 80]]


def test_score_g_sets_an_unfinished_hand_aside_and_says_so(tmp_path) -> None:
    ledger, journal = tmp_path / "g.jsonl", tmp_path / "g.jsonl.hand"
    assert run_game(ledger, COUNTED[:5]).returncode == 0
    kept = journal.read_bytes()
    done = _meldcalc("score", "-g", str(ledger), "--bid", "250", "--bidder", "0", "--meld",
                     "220,20", "--tricks", "150")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith(
        f"meldcalc: warning: {journal}: a hand was under way in `meldcalc game` for this deal"
        f" (1): its steps are set aside as {journal}.aside, not lost\n"
    )
    assert not journal.exists() and (tmp_path / "g.jsonl.hand.aside").read_bytes() == kept


def test_quit_says_the_hand_is_kept_and_how_to_go_on(tmp_path) -> None:
    done = run_game(tmp_path / "g.jsonl", [f"hand {HAND}", "quit"], "--policy", "rules")
    assert done.stdout.splitlines()[-1] == (
        f"the hand is kept in {tmp_path}/g.jsonl.hand (2 steps): `meldcalc game"
        f" {tmp_path}/g.jsonl` goes on with it"
    )


def test_quit_with_words_after_it_is_refused_as_quit_not_read_as_a_card(tmp_path) -> None:
    done = run_game(tmp_path / "g.jsonl", ["quit now", "undo it", "quit"], "--policy", "rules")
    assert "line 1: 'quit now': quit takes nothing after it" in done.stderr
    assert "line 2: 'undo it': undo takes nothing after it" in done.stderr


def test_one_step_kept_is_said_as_one_step(capsys) -> None:
    from meldcalc.cli.game import GameFormat, _Output

    _Output(GameFormat.text).kept(Path("g.jsonl"), Path("g.jsonl.hand"), ["hand AS"])
    assert "g.jsonl.hand (1 step): `meldcalc game g.jsonl`" in capsys.readouterr().out


def test_review_is_there_after_a_restart(tmp_path) -> None:
    from test_game import _deal_played

    steps, _ = _deal_played(seed=7)
    ledger = tmp_path / "g.jsonl"
    assert run_game(ledger, steps, "--policy", "rules").returncode == 0
    again = run_game(ledger, ["review"], "-f", "jsonl")
    assert again.returncode == 0, again.stderr
    answers = [json.loads(line) for line in again.stdout.splitlines()]
    reviewed = next(a for a in answers if a.get("step") == "review")
    assert len(reviewed["review"]) == 12  # every card you played, priced


def _ended(pid: int, seconds: float = 60) -> int:
    """The exit code of the run in the terminal, killed if it has not ended in ``seconds``
    (a test that failed never hangs the suite)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.1)
    os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _cpu(pid: int) -> float:
    """The CPU seconds the process has used (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _terminal(ledger, *argv: str) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(AWAY)
        os.environ.pop("OPENBLAS_NUM_THREADS", None)  # meldcalc's own choice, not the caller's
        os.execv(sys.executable, [sys.executable, "-m", "meldcalc", "game", str(ledger), *argv])
    return pid, fd


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
@pytest.mark.parametrize(("key", "code"), [(b"\x04", 0), (b"\x03", 130)], ids=["ctrl-d", "ctrl-c"])
def test_ctrl_d_and_ctrl_c_at_the_prompt_say_where_the_hand_is_kept(tmp_path, key, code) -> None:
    pid, fd = _terminal(tmp_path / "g.jsonl", "--policy", "rules")
    try:
        read_until(fd, "[hand] > ", 60)
        os.write(fd, f"hand {HAND}\r".encode())
        read_until(fd, "to bid] > ", 120)  # the hand's odds worked out: the prompt again
        # no thread but the main one, waiting at the prompt: a signal the kernel gave
        # another (an idle BLAS thread) was never seen by readline, and Ctrl-C was lost
        assert os.listdir(f"/proc/{pid}/task") == [str(pid)]
        waiting_for_input(pid)
        os.write(fd, key)
        said = read_until(fd, "with it", 20)
    finally:
        code_seen = _ended(pid)
        os.close(fd)
    said = " ".join(said.split())  # the sentence is wrapped to the terminal's width
    assert "the hand is kept in" in said and "goes on with it" in said, said
    assert code_seen == code


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_ctrl_c_during_a_hint_cancels_the_hint_not_the_session(tmp_path) -> None:
    steps = [f"hand {HAND}", "300", "pass", "pass", "pass", "trump S", "meld left 0",
             "meld partner 0", "meld right 0"]  # fmt: skip
    ledger = tmp_path / "g.jsonl"
    assert run_game(ledger, steps, "--policy", "rules").returncode == 0
    pid, fd = _terminal(ledger)  # the learned player's hint: seconds to work out
    try:
        read_until(fd, "to play] > ", 60)
        busy = _cpu(pid)
        os.write(fd, b"hint\r")
        while _cpu(pid) - busy < 0.2:  # the hint under way: the prompt waits on no CPU
            time.sleep(0.02)
        os.write(fd, b"\x03")
        said = read_until(fd, "to play] > ", 30)
        os.write(fd, b"show\r")
        shown = read_until(fd, "to play] > ", 30)
        os.write(fd, b"\x04")
        read_until(fd, "goes on with it", 20)
    finally:
        code = _ended(pid)
        os.close(fd)
    assert "cancelled (Ctrl-C): the session goes on" in said, said
    assert "phase: meld" in shown  # the session went on
    assert code == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_a_game_won_at_the_terminal_says_so_and_not_where_a_hand_is_kept(tmp_path) -> None:
    """Its last hand is in the ledger: no hand is kept, and nothing goes on with it (the
    session once said both at a terminal, naming a file that was gone)."""
    ledger = tmp_path / "won.jsonl"
    steps = [f"hand {HAND}", "300", "pass", "pass", "pass", "trump S"]
    assert run_game(ledger, steps, "--to", "300", "--policy", "rules").returncode == 0
    pid, fd = _terminal(ledger, "--policy", "rules")
    try:
        said = typed_at_prompt(pid, fd, "] > ", b"tricks 160\r")
    finally:
        code = _ended(pid)
        os.close(fd)
    said = " ".join(said.split())
    assert "the game is over: play the next one in a new file" in said, said
    assert "kept in" not in said and "goes on with it" not in said, said
    assert code == 0
