"""The commands that teach and validate: variants, table, check, --explain, deal, quiz."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cards import Hand, Suit
from meldcalc.explain import explain
from meldcalc.loading import load_variant, shipped_names
from meldcalc.meld import best_meld
from meldcalc.quiz import questions

runner = CliRunner()
DATA = Path(__file__).parent / "data"


def run(*args: str, input: str | None = None):
    from meldcalc.cli import app

    return runner.invoke(app, list(args), input=input)


def test_variants_lists_every_shipped_variant_as_table_and_json() -> None:
    table = run("variants")
    assert table.exit_code == 0
    assert all(name in table.stdout for name in shipped_names())
    rows = json.loads(run("variants", "-f", "json").stdout)
    assert [row["name"] for row in rows] == shipped_names()
    three = next(row for row in rows if row["name"] == "three-handed")
    assert (three["players"], three["hand_size"], three["widow"]) == (3, 15, 3)


def test_table_shows_melds_by_class_with_multiples_and_trick_total() -> None:
    result = run("table", "single-deck")
    assert result.exit_code == 0
    run_row = next(line for line in result.stdout.splitlines() if " run " in line)
    assert run_row.split()[:2] == ["sequence", "run"] and run_row.split()[-2:] == ["150", "1500"]
    assert "200 in the cards + last trick 10 = 210" in result.stdout
    assert "opening bid at least 250" in result.stdout


def test_table_json_and_markdown() -> None:
    data = json.loads(run("table", "double-deck", "-f", "json").stdout)
    assert [group["class"] for group in data["classes"]] == ["sequence", "pinochle", "around"]
    run_entry = data["classes"][0]["melds"][0]
    assert run_entry == {
        "name": "run",
        "cards": "A 10 K Q J of trump",
        "points": [15, 150, 225, 300],
    }
    assert data["tricks"]["total"] == 50
    markdown = run("table", "single-deck-classic", "-f", "markdown").stdout
    assert markdown.startswith("# single-deck-classic") and "| run" in markdown
    assert "= 250" in markdown


def test_table_takes_the_variant_as_every_other_command_does_too() -> None:
    assert run("table", "-V", "two-handed").stdout == run("table", "two-handed").stdout
    assert run("table", "-V", "two-handed").stdout.startswith("two-handed:")
    both = run("table", "two-handed", "-V", "check")
    assert both.exit_code == 2 and "two variants given" in both.stderr


def test_check_reports_every_problem_of_every_file_and_exits_2() -> None:
    result = run("check", str(DATA / "bad" / "many-problems.yaml"), str(DATA / "roundhouse.yaml"))
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert len([line for line in lines if "many-problems.yaml:" in line]) == 4
    assert (
        lines[-1]
        == f"{DATA / 'roundhouse.yaml'}: ok (house-roundhouse: Single deck with a roundhouse bonus)"
    )
    assert "2 files checked, 1 with problems" in result.stderr


def test_check_passes_the_shipped_files_and_the_example() -> None:
    root = Path(__file__).resolve().parent.parent / "variants"
    files = [str(path) for path in [*root.glob("*.yaml"), *root.glob("examples/*.yaml")]]
    result = run("check", *files)
    assert result.exit_code == 0 and result.stdout.count(": ok (") == len(files)


def _explain(text: str, trump: Suit, variant: str = "single-deck") -> list[str]:
    rules, hand = load_variant(variant), Hand.parse(text)
    return explain(hand, rules, best_meld(hand, rules, trump))


@pytest.mark.parametrize("fmt", ["csv", "tsv", "total"])
def test_explain_in_a_format_without_room_for_it_is_refused(fmt: str) -> None:
    result = run("meld", "KS QS", "-t", "S", "--explain", "-f", fmt)
    assert result.exit_code == 2 and f"the {fmt} format has no room for it" in result.stderr


def test_explain_names_near_misses_in_players_words() -> None:
    lines = _explain("KS KH KD QS JD", Suit.HEARTS)
    assert any("one K♣ short of kings around (80)" in line for line in lines)
    lines = _explain("QS QS JD", Suit.HEARTS)
    assert any("a second J♦ would make double pinochle (300)" in line for line in lines)


def test_explain_says_why_a_card_counts_in_several_classes() -> None:
    lines = _explain("KS QS JD QH QD QC", Suit.SPADES)
    assert (
        "Q♠ counts in royal marriage (sequence), pinochle (pinochle), queens around (around):"
        " a card may serve one meld of each class." in lines
    )
    assert lines[-1] == "total under ♠: 40 + 40 + 60 = 140."


def test_explain_says_why_the_runs_marriage_is_not_counted_again() -> None:
    lines = _explain("AS 10S KS QS JS", Suit.SPADES)
    assert any(
        "could make royal marriage, but those cards already serve the run" in line for line in lines
    )


def test_explain_names_toby_thomas_reuse() -> None:
    lines = _explain("AH 10H KH KH QH QH JH", Suit.HEARTS, "double-deck-toby-thomas")
    assert any("may use cards of the run" in line for line in lines)


def test_meld_explain_in_json_adds_an_explanation_list() -> None:
    data = json.loads(
        run("meld", "AS 10S KS QS JS JD", "-t", "S", "-f", "json", "--explain").stdout
    )
    assert data["explanation"][-1] == "total under ♠: 150 + 40 = 190."


def test_deal_output_parses_back_has_the_right_size_and_repeats_with_a_seed() -> None:
    first = run("deal", "-n", "20", "--seed", "11").stdout.splitlines()
    assert first == run("deal", "-n", "20", "--seed", "11").stdout.splitlines()
    assert first != run("deal", "-n", "20", "--seed", "12").stdout.splitlines()
    assert all(len(Hand.parse(line)) == 12 for line in first) and len(first) == 20
    double = run("deal", "-V", "double-deck", "-n", "5", "--seed", "1").stdout.splitlines()
    assert all(len(Hand.parse(line)) == 20 for line in double)


def test_deal_players_shows_every_seat_and_the_widow_making_the_whole_deck() -> None:
    result = run("deal", "--players", "-V", "three-handed", "--seed", "4")
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["seat 0", "seat 1", "seat 2", "widow"]
    hands = [Hand.parse(line.split(": ", 1)[1]) for line in lines]
    assert [len(hand) for hand in hands] == [15, 15, 15, 3]
    whole = hands[0] + hands[1] + hands[2] + hands[3]
    assert set(whole.counts) == {2}


def test_every_seat_of_a_deal_pipes_into_meld_by_its_label() -> None:
    dealt = run("deal", "--players", "-n", "2", "--seed", "5").stdout
    result = run("meld", "-f", "jsonl", input=dealt)
    assert result.exit_code == 0, result.stderr
    labels = [json.loads(line)["label"] for line in result.stdout.splitlines()]
    assert labels == ["seat 0", "seat 1", "seat 2", "seat 3"] * 2


@pytest.mark.parametrize("variant", ["three-handed", "two-handed"])
def test_a_widow_or_stock_line_is_counted_without_a_hand_size(variant: str) -> None:
    dealt = run("deal", "--players", "-V", variant, "--seed", "1").stdout
    result = run("meld", "-V", variant, "--strict", "-f", "jsonl", input=dealt)
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    labels = [json.loads(line)["label"] for line in result.stdout.splitlines()]
    assert labels[-1] in ("widow", "stock")


def test_deal_json_holds_every_seat_widow_and_stock() -> None:
    data = json.loads(run("deal", "-V", "two-handed", "--seed", "1", "-f", "json").stdout)
    assert list(data) == ["deal", "hands", "widow", "stock"]
    assert [len(hand) for hand in data["hands"]] == [12, 12] and len(data["stock"]) == 24


def test_dealt_hands_pipe_into_meld() -> None:
    hands = run("deal", "-n", "50", "--seed", "5").stdout
    result = run("meld", "-f", "total", input=hands)
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 50


def test_quiz_with_piped_answers_scores_right_and_wrong() -> None:
    rules = load_variant("single-deck")
    right = [question.answer.total for question in questions(rules, 3, seed=9)]
    answers = f"{right[0]}\nnot a number\n{right[1] + 10}\n{right[2]}\n"
    result = run("quiz", "--rounds", "3", "--seed", "9", input=answers)
    assert result.exit_code == 0
    assert result.stdout.count("right.") == 2
    assert f"wrong: it is {right[1]}." in result.stdout
    assert "expected a whole number" in result.stdout
    assert result.stdout.strip().endswith("score: 2 of 3 right (67%)")


def test_quiz_ends_cleanly_when_answers_run_out() -> None:
    first = next(questions(load_variant("single-deck"), 1, seed=9)).answer.total
    result = run("quiz", "--rounds", "4", "--seed", "9", input=f"{first + 1}\n")
    assert result.exit_code == 0
    assert "(no more answers: the quiz ends here)" in result.stdout
    assert result.stdout.strip().endswith("score: 0 of 1 right (0%)")
