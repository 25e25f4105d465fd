"""Positions for `meldcalc solve` as a careless or hostile user writes them: every line gets
its answer or one clear line, and a batch goes on past it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app

runner = CliRunner()
FOUR = "AS / KS / QS / JS | trump S"
EMPTY = "- / - / - / - | trump S"


def solve(*args: str, input: str | None = None):
    return runner.invoke(app, ["solve", *args], input=input)


def error_line(result) -> str:
    assert "Traceback" not in result.stderr
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("meldcalc: error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_deal_with_every_card_played_is_answered_and_the_batch_goes_on(
    fmt: str, jobs: str
) -> None:
    lines = f"{FOUR}\n{EMPTY}\nAS / KS / QS / JS | trump H\n"
    result = solve("-", "-f", fmt, "-j", jobs, "--no-line", input=lines)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    if fmt == "table":
        assert result.stdout.count("line ") == 3
        assert "every card has been played: nothing is left to take." in result.stdout
    else:
        records = (
            json.loads(result.stdout)
            if fmt == "json"
            else [json.loads(line) for line in result.stdout.splitlines()]
        )
        assert [(r["position"], r["value"], r["cards"]) for r in records][1] == (2, 0, [])
        assert len(records) == 3


def test_a_position_whose_first_hand_is_played_out_is_not_taken_for_an_option(
    tmp_path: Path,
) -> None:
    # through the real entry point: the parser would read '- / ...' as an unknown option;
    # run outside the checkout, so the installed package (with its built solver) is used
    result = subprocess.run(
        [sys.executable, "-m", "meldcalc", "solve", "- / KS / QS / JS | trick AS", "-t", "S"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "under best play seat 0's side takes 25 from here" in result.stdout


def test_a_trick_whose_cards_are_still_in_the_hands_is_named_as_the_problem() -> None:
    message = error_line(solve("AS / KS / QS / JS | trump S | trick 9H"))
    assert message == (
        "meldcalc: error: the trick holds 1 card, played by seat 0, so that seat holds one"
        " card fewer than the seats still to play; but every hand has 1 card: take the"
        " trick's cards out of the hands that played them"
    )


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ("| trump S | trump H", "'trump H': trump is given twice ('S', then 'H'): give it once"),
        ("| leader 1 | leader 2", "'leader 2': leader is given twice ('1', then '2')"),
        ("| trick 9H | trick 9C", "'trick 9C': trick is given twice ('9H', then '9C')"),
        ("| trick", "'| trick' without cards: name the cards on the table"),
    ],
)
def test_settings_that_disagree_or_say_nothing_are_refused(settings: str, expected: str) -> None:
    message = error_line(solve(f"AS 9H / KS 9S / QS 9D / JS 9C {settings}", "-t", "S"))
    assert expected in message


def test_a_setting_repeated_alike_is_one_setting() -> None:
    result = solve("AS / KS / QS / JS | trump S | trump s", "--no-line")
    assert result.exit_code == 0, result.output
    assert "takes 25 from here" in result.stdout
