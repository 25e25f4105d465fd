"""Every number a command takes is bounded before it is used: at 2^63-1 a count is capped
or refused in one line, never a traceback; and a chain of files too long is told at the
file the user gave, where it can be cut short."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app

runner = CliRunner()
HUGE = str(2**63 - 1)
STRONG = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def test_solve_with_jobs_at_the_largest_number_solves_every_line() -> None:
    lines = "AS 10S / KS 9H / QS 9D / JS 9C | trump S\nAS / KS / QS / JS | trump S\n"
    result = run("solve", "-", "--jobs", HUGE, "-f", "jsonl", stdin=lines)
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["value"] for line in result.stdout.splitlines()] == [35, 25]


def test_review_with_jobs_at_the_largest_number_reviews_every_line() -> None:
    deal = "AS 10S / KS QS / AH 9S / KH 9H | trump S | played AS KS 9S 9H"
    result = run("review", "-", "--jobs", HUGE, "-f", "jsonl", stdin=f"{deal}\n{deal}\n")
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["deal"] for line in result.stdout.splitlines()] == [1, 2]


def test_bid_with_jobs_at_the_largest_number_bids() -> None:
    result = run("bid", STRONG, "-n", "100", "--seed", "1", "--jobs", HUGE, "-f", "total")
    assert result.exit_code == 0 and result.stdout.split()[1] == "S", result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("bid", STRONG, "--endgame", HUGE), f"--endgame {HUGE}: expected 1 to 8 tricks"),
        (("bid", STRONG, "--deals", HUGE), "--deals"),
        (("bid", STRONG, "--strong", HUGE), "--strong"),
        (("bid", STRONG, "--seed", HUGE + "0"), "--seed"),
        (("solve", "--seed", "1", "--tricks", HUGE, "-t", "S"), "a hand of single-deck has 12"),
        (("hint", STRONG, "-t", "S", "-n", HUGE), "--layouts"),
        (("score", "--bid", HUGE, "--bidder", "0", "-m", "10,10", "--tricks", "100"), "--bid"),
        (("score", "--bid", "300", "--bidder", HUGE, "-m", "10,10", "--tricks", "100"), HUGE),
        (("bid", STRONG, "--score", f"{HUGE},0"), "a score out of range"),
    ],
)
def test_every_other_number_at_the_largest_is_refused_by_name(args, said) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert said in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_a_chain_too_long_is_told_at_the_file_given(tmp_path: Path) -> None:
    (tmp_path / "c0.yaml").write_text("name: c0\nextends: single-deck\n")
    for i in range(1, 21):
        (tmp_path / f"c{i}.yaml").write_text(f"name: c{i}\nextends: c{i - 1}.yaml\n")
    result = run("meld", STRONG, "-V", str(tmp_path / "c20.yaml"))
    assert result.exit_code == 2
    assert result.stderr == (
        f"meldcalc: error: {tmp_path / 'c20.yaml'}:2:10: extends: more than 16 files in the"
        f" extends chain (the 16th, {tmp_path / 'c5.yaml'}, extends 'c4.yaml')\n"
    )
    fits = run("meld", STRONG, "-V", str(tmp_path / "c14.yaml"), "-t", "S", "-f", "total")
    assert fits.exit_code == 0 and fits.stdout.strip() == "320"
