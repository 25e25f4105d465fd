"""Exact searches end: at their time limit with a clear error and nothing half-solved
reported, and at once on Ctrl-C or SIGTERM (the CLI's 130 and 143), however long the
position would take.

The long position: a whole deal of `house-easy-play` (heading only on trump leads, no
over-trumping) that takes over a minute to solve; every test stops it within seconds.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from meldcalc.advice.bidding import estimate
from meldcalc.advice.played import play_deal
from meldcalc.advice.review import REVIEW_TIME_LIMIT, review
from meldcalc.cli import app
from meldcalc.cli import base as cli_base
from meldcalc.dealing.deal import deals
from meldcalc.engines import solve
from meldcalc.engines.endgames import random_endgame
from meldcalc.engines.solve import Deadline, Position, solve_many
from meldcalc.errors import MeldcalcError, TimeLimitError
from meldcalc.rules.cards import Suit
from meldcalc.rules.loading import load_variant

pytest.importorskip("meldcalc.engines._solver", reason="the C solver is not built")

EASY_PLAY = (
    Path(__file__).resolve().parent.parent / "variants" / "examples" / "house-easy-play.yaml"
)
VARIANT = load_variant(EASY_PLAY)
LONG_HANDS = next(deals(VARIANT, 1, 9)).hands  # `meldcalc solve --seed 9 -t S`: 74 s
LONG = Position.of(VARIANT, LONG_HANDS, Suit.SPADES)
#: Generous against a busy machine: the search looks at the clock every fraction of a
#: millisecond and at signals every 20 ms.
SLACK = 2.0


def test_a_search_past_its_time_limit_stops_with_a_clear_error() -> None:
    start = time.monotonic()
    with pytest.raises(TimeLimitError) as stopped:
        solve.solve(LONG, VARIANT, time_limit=0.3)
    assert time.monotonic() - start < 0.3 + SLACK
    assert str(stopped.value) == (
        "the exact search stopped at its time limit of 0.3 s: allow it more time, or give"
        " it fewer tricks to solve"
    )
    assert isinstance(stopped.value, MeldcalcError) and stopped.value.limit == 0.3


def test_a_batch_past_its_deadline_says_how_many_positions_it_solved() -> None:
    short = _played_down(LONG, tricks=3)  # solved at once, then the long deal twice
    hands = np.array([[hand.counts for hand in p.hands] for p in (short, LONG, LONG)])
    leaders = np.array([short.leader, 0, 0])
    with pytest.raises(TimeLimitError, match=r"\(1 of 3 positions solved\)"):
        solve_many(hands, Suit.SPADES.index, leaders, VARIANT, deadline=Deadline.after(0.2))


def test_a_review_past_its_time_limit_says_how_many_tricks_it_reviewed() -> None:
    deal = play_deal(LONG_HANDS, VARIANT, Suit.SPADES)
    with pytest.raises(TimeLimitError, match=r"\(0 of 12 tricks reviewed\)"):
        review(deal, VARIANT, time_limit=0.2)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bid_whose_exact_endgames_pass_the_time_limit_stops(jobs: int) -> None:
    """In worker processes too: the deadline is on the system's monotonic clock, and the
    error comes back through the pool whole."""
    hand = LONG_HANDS[0]
    with pytest.raises(TimeLimitError, match=r"time limit of 0\.01 s"):
        estimate(hand, VARIANT, deals=4000, seed=1, endgame=8, jobs=jobs, time_limit=0.01)


@pytest.mark.parametrize("limit", [-1, float("nan"), float("inf"), 2e9])
def test_a_time_limit_must_be_some_seconds(limit: object) -> None:
    """As ``--time-limit`` takes it: 0 (no limit) to 10^9 seconds; not a number at all is
    a `TypeError`."""
    with pytest.raises(MeldcalcError, match=r"time_limit .*: expected a number from 0 to 1e\+09"):
        solve.solve(LONG, VARIANT, time_limit=limit)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="time_limit: expected a number"):
        solve.solve(LONG, VARIANT, time_limit="10")  # type: ignore[arg-type]


def test_a_stopped_search_leaves_nothing_wrong_behind() -> None:
    """The solver keeps its table from one search of a deal to the next: what a search
    stopped part-way had learnt must still be true. Each position, stopped at a few
    points of its search and then solved to the end, is worth what a solver that never
    saw it finds."""
    rng = random.Random(3)
    positions = [random_endgame(VARIANT, 10, rng) for _ in range(2)]
    fresh = _in_a_new_thread(lambda: [solve.solve(p, VARIANT, line=False) for p in positions])
    for position, expected in zip(positions, fresh):
        for limit in (0.01, 0.05):
            with contextlib.suppress(TimeLimitError):
                solve.solve(position, VARIANT, line=False, time_limit=limit)
            assert solve.solve(position, VARIANT, line=False) == expected


def _in_a_new_thread(work: Callable[[], Any]) -> Any:
    """``work()`` in a thread of its own: with a solver (and table) of its own."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


# --- the command line ------------------------------------------------------------------

runner = CliRunner()
LONG_TEXT = solve.position_text(LONG)


def _one_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("meldcalc: error: "), result.stderr
    return lines[0]


def test_solve_stops_at_its_time_limit_with_one_line() -> None:
    start = time.monotonic()
    result = runner.invoke(app, ["solve", "-V", str(EASY_PLAY), LONG_TEXT, "--time-limit", "0.3"])
    assert time.monotonic() - start < 0.3 + SLACK
    assert "stopped at its time limit of 0.3 s" in _one_error(result)
    assert result.stdout == ""


def test_a_batch_line_past_the_time_limit_is_its_error_record_and_the_rest_go_on() -> None:
    short = solve.position_text(_played_down(LONG, tricks=3))
    lines = f"{LONG_TEXT}\n{short}\n"
    args = ["solve", "-V", str(EASY_PLAY), "-", "-f", "jsonl", "--no-line", "--time-limit", "0.3"]
    result = runner.invoke(app, args, input=lines)
    assert result.exit_code == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["position"] == 1 and "time limit of 0.3 s" in first["error"]
    assert second["position"] == 2 and second["value"] >= 0


def test_play_review_and_bid_endgame_stop_at_their_time_limits() -> None:
    deal = " / ".join(hand.notation() for hand in LONG_HANDS)
    review = ["play", "-V", str(EASY_PLAY), "-t", "S", "--deal", deal, "--review"]
    error = _one_error(runner.invoke(app, [*review, "--time-limit", "0.2"]))
    assert "time limit of 0.2 s (0 of 12 tricks reviewed)" in error
    bid = ["bid", "-V", str(EASY_PLAY), LONG_HANDS[0].notation(), "--endgame", "8", "-s", "1"]
    assert "time limit of 0.01 s" in _one_error(runner.invoke(app, [*bid, "--time-limit", "0.01"]))


@pytest.mark.parametrize("seconds", ["-1", "nan", "inf", "2e9", "soon"])
def test_a_time_limit_option_must_be_some_seconds(seconds: str) -> None:
    result = runner.invoke(app, ["solve", "--seed", "1", "-t", "S", "--time-limit", seconds])
    assert result.exit_code == 2 and "Invalid value for '--time-limit'" in result.stderr


def test_the_commands_default_time_limits_are_the_apis() -> None:
    """The CLI spells them out (importing the solver's modules costs start-up time)."""
    assert cli_base.SOLVE_TIME_LIMIT == solve.DEFAULT_TIME_LIMIT
    assert cli_base.REVIEW_TIME_LIMIT == REVIEW_TIME_LIMIT
    assert cli_base.MAX_TIME_LIMIT == solve.MAX_TIME_LIMIT
    for command, default in [
        ("solve", "Default: 300."),
        ("review", "Default: 300."),
        ("play", "Default: 300."),
        ("bid", "0 (the default)"),
    ]:
        text = " ".join(runner.invoke(app, [command, "-h"]).stdout.split())
        assert default in text, command


# --- signals ---------------------------------------------------------------------------

LINUX = sys.platform.startswith("linux")
SEARCH = textwrap.dedent(
    f"""
    import signal, time
    from meldcalc.engines import solve
    from meldcalc.rules.cards import Suit
    from meldcalc.dealing.deal import deals
    from meldcalc.rules.loading import load_variant
    from meldcalc.engines.solve import Position

    signal.signal(signal.SIGINT, signal.default_int_handler)  # even where started in background
    variant = load_variant({str(EASY_PLAY)!r})
    hands = next(deals(variant, 1, 9)).hands
    try:
        solve.solve(Position.of(variant, hands, Suit.SPADES), variant, time_limit=None)
    except KeyboardInterrupt:
        print("interrupted", time.monotonic(), flush=True)
    short = Position.of(variant, ["AS", "KS", "QS", "9S"], Suit.HEARTS)
    print(solve.solve(short, variant).value)  # and the solver still works
    """
)


def _started(*args: str) -> subprocess.Popen:
    """Python running ``args``, in the tests' folder: the installed package (with its
    solver), not the source folder."""
    return subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).parent,
        text=True,
    )


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _signal_while_searching(process: subprocess.Popen, signum: int) -> float:
    """Once ``process`` has used a second of CPU (its start takes under half a second:
    it is searching), send ``signum``; the time it was sent."""
    deadline = time.monotonic() + 60
    while _cpu_seconds(process.pid) < 1.0 and time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
    sent = time.monotonic()
    process.send_signal(signum)
    return sent


@pytest.mark.skipif(not LINUX, reason="reads the process's CPU time from /proc")
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_a_long_solve_at_once(signum: int, code: int) -> None:
    args = ("solve", "-V", str(EASY_PLAY), "--seed", "9", "-t", "S", "--no-line")
    process = _started("-m", "meldcalc", *args)
    try:
        sent = _signal_while_searching(process, signum)
        _, stderr = process.communicate(timeout=30)
        elapsed = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == code, stderr
    assert elapsed < 0.5 + SLACK
    assert "Traceback" not in stderr


@pytest.mark.skipif(not LINUX, reason="reads the process's CPU time from /proc")
def test_ctrl_c_reaches_a_program_searching_as_keyboard_interrupt() -> None:
    process = _started("-c", SEARCH)
    try:
        sent = _signal_while_searching(process, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    interrupted, value = stdout.splitlines()
    assert interrupted.startswith("interrupted ") and float(interrupted.split()[1]) - sent < SLACK
    assert value == "25"


def _played_down(position: Position, tricks: int) -> Position:
    """``position`` played on by the policy's deal until ``tricks`` tricks are left."""
    deal = play_deal(position.hands, VARIANT, position.trump)
    hands = [list(hand.counts) for hand in position.hands]
    for trick in deal.tricks[: len(deal.tricks) - tricks]:
        for seat, name in trick.cards:
            hands[seat][solve.CARD_NAMES.index(name)] -= 1
    leader = deal.tricks[len(deal.tricks) - tricks].leader
    return Position.of(VARIANT, [solve.Hand(hand) for hand in hands], position.trump, leader)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc, sets RLIMIT_AS")
def test_a_review_under_a_memory_limit_does_without_its_bigger_table_or_says_why() -> None:
    """Under a `ulimit -v` the review's 256 MB table cannot be had: the usual 128 MB one
    serves; and where not even that can be, one line says so (no traceback)."""
    child = """
import resource, sys
from meldcalc.advice.replay import parse_played
from meldcalc.advice.review import review
from meldcalc.errors import MeldcalcError
from meldcalc.rules.loading import load_variant
variant = load_variant("single-deck")
hands = "AS 10H JC / 10S 9S 9C / 10C 10C KC / KH QD JD"
deal = parse_played(hands + " | trump H | played AS 10S", variant)
size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize"))
room = int(sys.argv[1]) * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (size * 1024 + room, size * 1024 + room))
try:
    print(review(deal, variant).value)
except MeldcalcError as error:
    print("error:", error)
"""

    def run(megabytes: int) -> str:
        done = subprocess.run([sys.executable, "-c", child, str(megabytes)], capture_output=True,
                              text=True, cwd="/")  # fmt: skip
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout.strip()

    assert run(200) == "70"  # room for the usual table, not the bigger one
    assert run(40).startswith("error: the exact solver could not be given the memory")
