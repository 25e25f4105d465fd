"""The meld command as a user and a script see it: stdout, stderr and exit codes apart."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from meldcalc import __version__
from meldcalc.cli import app

runner = CliRunner()
HAND = "AS 10S KS QS JS JD"
FULL = "AS 10S KS QS JS 9S 9S AH KH AD JD AC"  # canonical order


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_version_comes_from_the_package() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"meldcalc {__version__}", "exact solver: built"]


def test_table_shows_every_meld_with_cards_points_and_total() -> None:
    result = run("meld", HAND, "--trump", "S")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any("run" in line and "AS 10S KS QS JS" in line and "150" in line for line in lines)
    assert any("pinochle" in line and "QS JD" in line and "40" in line for line in lines)
    assert lines[-1].split() == ["total", "190"]
    assert "the hand has 6 cards; single-deck deals 12" in result.stderr


def test_table_without_trump_compares_all_four_and_names_the_best() -> None:
    result = run("meld", FULL)
    assert result.exit_code == 0
    summary = [
        line.split() for line in result.stdout.splitlines() if line[:2] in ("S ", "H ", "D ", "C ")
    ]
    assert summary[0] == ["S", "♠", "310", "best"]
    assert {row[0] for row in summary} == {"S", "H", "D", "C"}
    assert result.stderr == ""


def test_hand_may_be_given_as_several_words_and_trump_in_lower_case() -> None:
    result = run("meld", *HAND.split(), "-t", "s", "-f", "total")
    assert (result.exit_code, result.stdout) == (0, "190\n")


def test_total_without_trump_is_the_best_trumps_total() -> None:
    assert run("meld", FULL, "-f", "total").stdout == "310\n"


def test_json_has_the_documented_shape() -> None:
    result = run("meld", HAND, "-f", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["hand", "variant", "cards", "warnings", "best_trump", "results"]
    assert data["hand"] == HAND and data["variant"] == "single-deck" and data["cards"] == 6
    assert data["warnings"] == ["the hand has 6 cards; single-deck deals 12"]
    assert data["best_trump"] == "S"
    assert [r["trump"] for r in data["results"]] == ["S", "H", "D", "C"]
    assert data["results"][0]["total"] == 190
    assert data["results"][0]["melds"][0] == {
        "name": "run",
        "class": "sequence",
        "copies": 1,
        "cards": ["AS", "10S", "KS", "QS", "JS"],
        "points": 150,
    }


def test_json_with_trump_holds_that_trump_only() -> None:
    data = json.loads(run("meld", HAND, "-t", "H", "-f", "json").stdout)
    assert [r["trump"] for r in data["results"]] == ["H"]
    assert data["best_trump"] == "H" and data["results"][0]["total"] == 60


def test_csv_and_tsv_rows_per_trump() -> None:
    assert run("meld", HAND, "-f", "csv").stdout.splitlines() == [
        "line,hand,trump,total,label,error",
        f"1,{HAND},S,190,,",
        f"1,{HAND},H,60,,",
        f"1,{HAND},D,60,,",
        f"1,{HAND},C,60,,",
    ]
    tsv = run("meld", HAND, "-t", "S", "-f", "tsv").stdout.splitlines()[1]
    assert tsv == f"1\t{HAND}\tS\t190\t\t"


BATCH = f"# my hands\n{HAND}\n\nAS 1S\n{FULL}\nAS AS AS\n"


def test_batch_jsonl_one_object_per_good_line_and_errors_name_their_line() -> None:
    result = run("meld", "-", "-f", "jsonl", "-t", "S", input=BATCH)
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["results"][0]["total"]) for r in records if "results" in r] == [
        (2, 190),
        (5, 310),
    ]
    assert [r for r in records if "error" in r] == [
        {"line": 4, "error": "'1S' at column 4: a rank is one of A 10 K Q J 9"},
        {"line": 6, "error": "3 copies of 'AS': the single-deck deck holds 2"},
    ]
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert errors == [
        "meldcalc: error: line 4: '1S' at column 4: a rank is one of A 10 K Q J 9",
        "meldcalc: error: line 6: 3 copies of 'AS': the single-deck deck holds 2",
    ]


def test_batch_reads_a_pipe_without_dash_and_total_gives_one_number_per_hand() -> None:
    result = run("meld", "-f", "total", input=f"{HAND}\n{FULL}\n")
    assert (result.exit_code, result.stdout) == (0, "190\n310\n")


def test_batch_csv_rows_carry_their_line_number() -> None:
    result = run("meld", "-f", "csv", "-t", "S", input=f"{HAND}\n\n{FULL}\n")
    assert result.stdout.splitlines() == [
        "line,hand,trump,total,label,error",
        f"1,{HAND},S,190,,",
        f"3,{FULL},S,310,,",
    ]


def test_batch_csv_keeps_each_lines_label_and_a_row_for_a_bad_line() -> None:
    lines = f"seat 0: {HAND}\nseat 1: AS 1S\nwidow: 9S 9S JD\n"
    result = run("meld", "-f", "csv", "-t", "S", input=lines)
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "line,hand,trump,total,label,error",
        f"1,{HAND},S,190,seat 0,",
        "2,,,,seat 1,'1S' at column 12: a rank is one of A 10 K Q J 9",
        "3,9S 9S JD,S,20,widow,",
    ]
    bid = run("bid", "-f", "csv", "-t", "S", "-n", "50", "--seed", "1", input=f"{FULL}\nXX\n")
    rows = bid.stdout.splitlines()
    assert rows[0].endswith(",max_bid,label,error") and len(rows) == 3
    assert rows[2].startswith("2,,,,,,,,,") and "'XX'" in rows[2]


def test_a_mistyped_suit_group_read_as_a_label_is_named_in_the_error() -> None:
    lines = "spdes: A 10 K Q J\nalice: A 10\nseat 1: A 10\n"
    result = run("meld", "-f", "total", input=lines)
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert errors[0].endswith(
        "'A' at column 8: a bare rank needs a suit group before it ('S: A') or a suit after"
        " it ('AS'); 'spdes:' was read as the line's label; did you mean 'spades:'?"
    )
    assert all(errors[i].endswith("or a suit after it ('AS')") for i in (1, 2)), errors


def test_batch_json_is_one_array_even_with_a_bad_line() -> None:
    result = run("meld", "-", "-f", "json", input=f"{HAND}\nXX\n{HAND}\n")
    assert result.exit_code == 2
    records = json.loads(result.stdout)
    assert [r["line"] for r in records] == [1, 2, 3]
    assert "error" in records[1] and "results" not in records[1]


def test_batch_total_keeps_a_line_per_input_line_even_for_errors() -> None:
    result = run("meld", "-f", "total", "-t", "S", input=f"{HAND}\nXX\n{HAND}\n")
    assert (result.exit_code, result.stdout) == (2, "190\nerror\n190\n")


def test_strict_turns_the_size_warning_into_an_error() -> None:
    result = run("meld", HAND, "--strict")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "the hand has 6 cards; single-deck deals 12 (--strict)" in result.stderr


def test_bad_token_is_one_line_on_stderr_and_exit_2() -> None:
    result = run("meld", "AS KX")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert (
        result.stderr
        == "meldcalc: error: 'KX' at column 4: a suit is one of S H D C (or ♠ ♥ ♦ ♣)\n"
    )


def test_a_file_given_as_the_hand_says_how_to_read_its_hands(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my hands.txt").write_text(f"{HAND}\n")
    result = run("meld", "my hands.txt")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "meldcalc: error: 'my' at column 1: expected a card such as AS, 10H or Q♠ (a rank is"
        " one of A 10 K Q J 9; a suit is one of S H D C (or ♠ ♥ ♦ ♣)); to read the hands of a"
        " file, one a line, give '-' and redirect the file: meldcalc meld - < 'my hands.txt'\n"
    )
    assert run("meld", "-", "-f", "total", input=f"{HAND}\n").stdout == "190\n"


@pytest.mark.parametrize(
    ("command", "what"),
    [("bid", "hands"), ("hint", "positions"), ("solve", "positions"), ("review", "deals")],
)
def test_each_command_reading_lines_says_how_to_read_a_file(
    tmp_path, monkeypatch, command: str, what: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lines.txt").write_text("")
    result = run(command, "lines.txt", "-t", "S")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        f"; to read the {what} of a file, one a line, give '-' and redirect the file:"
        f" meldcalc {command} - < lines.txt\n"
    )


def test_a_files_name_with_a_control_character_is_not_typed_back(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    name = "x\x1b[31mred\nline2.txt"  # an escape to the terminal, and a second line
    (tmp_path / name).write_text("")
    said = run("meld", name).stderr
    assert said.count("\n") == 1 and "\x1b" not in said, said
    assert said.endswith("give '-' and redirect the file: meldcalc meld - < FILE\n")


def test_a_file_named_like_a_card_gets_no_hint(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "AS").write_text("")
    assert "is a file" not in run("meld", "AS", "KX").stderr


def test_bad_variant_file_is_reported_like_a_linter(tmp_path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nextends: single-deck\nmelds:\n  - name: dix\n    points: ten\n")
    result = run("meld", HAND, "-V", str(house))
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"meldcalc: error: {house}:5:13: melds[0].points: expected an integer or a list of"
        " integers (single, double, triple, quadruple), got 'ten'"
    )


def test_house_variant_file_changes_the_count(tmp_path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nextends: single-deck\nmelds:\n  - {name: dix, points: 20}\n")
    assert run("meld", "9S 9S", "-t", "S", "-V", str(house), "-f", "total").stdout == "40\n"


def test_other_shipped_variant_by_name() -> None:
    hand = "AH 10H KH KH QH QH JH"
    assert run("meld", hand, "-t", "H", "-V", "double-deck", "-f", "total").stdout == "19\n"
    toby = run("meld", hand, "-t", "H", "-V", "double-deck-toby-thomas", "-f", "total")
    assert toby.stdout == "45\n"


def test_unknown_trump_and_format_are_usage_errors() -> None:
    assert run("meld", HAND, "-t", "X").exit_code == 2
    assert run("meld", HAND, "-f", "xml").exit_code == 2


def test_a_near_miss_of_a_trump_or_format_word_is_given_its_likely_meaning() -> None:
    trump = run("meld", HAND, "-t", "spaeds")
    assert trump.exit_code == 2
    assert "spades, hearts, diamonds, clubs); did you mean 'spades'?" in trump.stderr
    fmt = run("meld", HAND, "-f", "JSN")
    assert fmt.exit_code == 2
    assert "expected one of table, json, jsonl, csv, tsv or total; did you mean 'json'?" in (
        fmt.stderr
    )
    assert "did you mean" not in run("meld", HAND, "-f", "xml").stderr
    huge = run("meld", HAND, "-f", "j" * 50_000).stderr  # quoted, cut short: one line
    assert "… (50000 characters): expected one of" in huge and len(huge) < 400


@pytest.mark.parametrize(
    "args",
    [
        ("meld", HAND, "--trump", "S", "--trump", "H"),
        ("meld", HAND, "-t", "S", "-tH"),
        ("meld", HAND, "-V", "single-deck", "--variant", "double-deck"),
        ("deal", "-n", "2", "--seed", "1", "-s", "2"),
    ],
)
def test_an_option_of_one_value_given_twice_is_refused_not_settled_silently(args) -> None:
    result = run(*args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert "given twice: it takes one value, give it once" in result.stderr


def test_an_option_missing_its_value_points_at_its_commands_help() -> None:
    argv = [sys.executable, "-m", "meldcalc", "meld", HAND, "-t"]
    missing = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert missing.returncode == 2
    assert missing.stderr == (
        "meldcalc: error: option '-t' requires an argument (see 'meldcalc meld --help')\n"
    )


def test_options_that_gather_values_and_flags_may_be_repeated() -> None:
    strict = run("meld", HAND, "-t", "S", "--strict", "--strict")
    assert "single-deck deals 12 (--strict)" in strict.stderr
    repeated = run("bid", FULL, "-t", "S", "-n", "40", "--void", "left:H", "--void", "right:D")
    assert repeated.exit_code == 0, repeated.stderr


def test_python_dash_m_works_like_the_script() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "meldcalc", "meld", HAND, "-t", "S", "-f", "total"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "190\n")


def test_meldcalc_alone_shows_the_help_as_help_not_as_one_line_of_error() -> None:
    """A stranger's first try: the help as `--help` lays it out (on stderr, exit 2, as
    Click does), not squashed into one `error:` line."""
    alone = subprocess.run(
        [sys.executable, "-m", "meldcalc"], capture_output=True, text=True, check=False
    )
    helped = subprocess.run(
        [sys.executable, "-m", "meldcalc", "--help"], capture_output=True, text=True, check=True
    )
    assert alone.returncode == 2 and alone.stdout == ""
    assert "error" not in alone.stderr
    assert alone.stderr.splitlines()[0].startswith("Usage: meldcalc")
    assert alone.stderr.strip() == helped.stdout.strip()


def _choice_options() -> list[tuple[str, str, type]]:
    """Every option of every command whose value is one of an Enum's words (trump aside:
    a suit has its own words), as (command, option, Enum)."""
    import enum
    import typing

    import typer.main

    from meldcalc.rules.cards import Suit

    found = []
    commands = typer.main.get_command(app).commands
    for command in app.registered_commands:
        name = command.callback.__name__
        options = {p.name: p.opts for p in commands[name].params}
        hints = typing.get_type_hints(command.callback, include_extras=True)
        for parameter, hint in hints.items():
            kind = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
            kind = next((k for k in typing.get_args(kind) if k is not type(None)), kind)
            if isinstance(kind, type) and issubclass(kind, enum.Enum) and kind is not Suit:
                found.append((name, options[parameter][-1], kind))
    return found


def test_every_choice_option_is_found() -> None:
    commands = {command for command, _, _ in _choice_options()}
    expected = {"meld", "bid", "play", "solve", "score", "table", "variants", "deal", "quiz"}
    assert expected <= commands


@pytest.mark.parametrize(("command", "option", "choices"), _choice_options())
def test_a_bad_choice_is_refused_in_meldcalcs_words(command: str, option: str, choices) -> None:
    result = run(command, option, "xml", *(["-t", "S"] if command == "play" else []))
    words = [member.value for member in choices]
    expected = f"'xml': expected one of {', '.join(words[:-1])} or {words[-1]}"
    assert result.exit_code == 2
    assert expected in result.stderr
    assert "Value error" not in result.stderr and "is not one of" not in result.stderr


@pytest.mark.parametrize(("command", "option", "choices"), _choice_options())
def test_help_names_every_choice_and_the_default(command: str, option: str, choices) -> None:
    import typer.main

    help = " ".join(run(command, "--help").stdout.split())
    words = [member.value for member in choices]
    listed = ", ".join([f"{words[0]} (default)", *words[1:-1]]) + f" or {words[-1]}"
    assert listed in help
    click_command = typer.main.get_command(app).commands[command]
    (param,) = [p for p in click_command.params if option in p.opts]
    assert param.default is choices(words[0]) or param.default == words[0]


def test_choices_are_read_in_any_case() -> None:
    assert run("meld", HAND, "-t", "S", "-f", "TOTAL").stdout == "190\n"


def test_score_help_shows_a_ledger_kept_and_shown() -> None:
    help = run("score", "--help").stdout
    assert "meldcalc score -g friday.jsonl --bid 300 --bidder 0" in help
    assert "meldcalc score -g friday.jsonl --show" in help
