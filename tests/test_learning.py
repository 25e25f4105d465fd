"""The commands that teach and validate: variants, table, check, --explain, deal, quiz."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.learning.explain import explain
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import example_names, load_variant, shipped_names
from meldcalc.rules.meld import best_meld

runner = CliRunner()
SHIPPED = Path(__file__).resolve().parent.parent / "variants"
DATA = Path(__file__).parent / "data"


def run(*args: str, input: str | None = None):
    from meldcalc.cli import app

    return runner.invoke(app, list(args), input=input)


def test_variants_lists_every_shipped_variant_as_table_and_json() -> None:
    table = run("variants")
    assert table.exit_code == 0
    assert all(name in table.stdout for name in shipped_names())
    rows = json.loads(run("variants", "-f", "json").stdout)
    assert [row["name"] for row in rows if not row["example"]] == shipped_names()
    assert [row["name"] for row in rows if row["example"]] == example_names()
    assert all(name in table.stdout for name in example_names())
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


def test_explain_says_a_double_run_alone_makes_no_toby_thomas_marriage() -> None:
    lines = _explain("AH AH 10H 10H KH KH QH QH JH JH", Suit.HEARTS, "double-deck-toby-thomas")
    assert any("only beside 1 copy of their own" in line for line in lines)
    assert lines[-1] == "total under ♥: 150."


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
    assert list(data) == ["deal", "seed", "hands", "widow", "stock", "turn_up"]
    assert [len(hand) for hand in data["hands"]] == [12, 12] and len(data["stock"]) == 24


def test_dealt_hands_pipe_into_meld() -> None:
    hands = run("deal", "-n", "50", "--seed", "5").stdout
    result = run("meld", "-f", "total", input=hands)
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 50


def _totals(count: int, seed: int) -> list[int]:
    """The right answers of `quiz --ask total --theme plain -n COUNT --seed SEED`."""
    from meldcalc.learning.quiz import question_for

    rules = load_variant("single-deck")
    return [
        question_for(rules, "total", "plain", seed, number, 1200).answer.total
        for number in range(1, count + 1)
    ]


def test_quiz_with_piped_answers_scores_right_and_wrong() -> None:
    right = _totals(3, 9)
    answers = f"{right[0]}\nnot a number\n{right[1] + 10}\n{right[2]}\n"
    asked = ("quiz", "--ask", "total", "--theme", "plain", "--rounds", "3", "--seed", "9")
    result = run(*asked, input=answers)
    assert result.exit_code == 0
    assert result.stdout.splitlines().count("right.") == 2
    assert f"wrong: it is {right[1]}." in result.stdout
    assert "expected a whole number" in result.stdout
    assert result.stdout.strip().endswith("score: 2 of 3 right (67%)")


def test_quiz_ends_cleanly_when_answers_run_out() -> None:
    first = _totals(1, 9)[0]
    asked = ("quiz", "--ask", "total", "--theme", "plain", "--rounds", "4", "--seed", "9")
    result = run(*asked, input=f"{first + 1}\n")
    assert result.exit_code == 0
    assert "(no more answers: the quiz ends here)" in result.stdout
    assert result.stdout.strip().endswith("score: 0 of 1 right (0%)")


STRICT = """\
extends: single-deck
name: strict
title: Strict house rules
source: a test
description: set twice the bid, a trick to save meld
house:
  set_penalty: 2
  save_meld: trick
"""


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_table_says_the_house_rules_the_file_plays(tmp_path: Path, fmt: str) -> None:
    strict = tmp_path / "strict.yaml"
    strict.write_text(STRICT)
    shown = run("table", str(strict), "-f", fmt).stdout
    assert "set: the bidding side scores nothing and loses 2 times the bid" in shown
    assert "save meld: a side's meld counts only when it takes a trick" in shown
    assert "thrown in before play: the bidding side loses 2 times the bid" in shown
    assert "minus the bid" not in shown
    roundhouse = run("table", "examples/house-roundhouse", "-f", fmt).stdout
    assert "meld minimum: a side's meld counts only when it is 20 or more" in roundhouse
    assert "the others score their meld (when it is 20 or more)" in roundhouse
    assert "several at once: the bidding side wins" in roundhouse


def test_table_json_has_the_house_rules_and_the_scoring_in_words(tmp_path: Path) -> None:
    strict = tmp_path / "strict.yaml"
    strict.write_text(STRICT)
    data = json.loads(run("table", str(strict), "-f", "json").stdout)
    assert data["house"] == {
        "meld_minimum": 0,
        "save_meld": "trick",
        "set_penalty": 2,
        "forfeit_under_minimum": False,
        "trick_minimum": 0,
        "thrown_in": {"meld": True, "meld_minimum": 0, "cards": 0},
        "both_reach": "higher",
        "checks": False,
    }
    assert any("2 times the bid" in line for line in data["scoring"])
    checks = json.loads(run("table", "check", "-f", "json").stdout)
    assert checks["house"]["checks"] is True
    assert any(line.startswith("checks: ") for line in checks["scoring"])


def test_values_past_a_melds_list_are_marked_apart_as_meldcalcs_own() -> None:
    shown = run("table", "double-deck-toby-thomas").stdout
    run_row = next(line for line in shown.splitlines() if line.startswith("sequence  run"))
    assert run_row.split()[-4:] == ["15", "150", "500", "(515*)"]
    assert (
        "(n*) meldcalc's own value, in neither the file nor its source: more copies than a"
        " meld's list gives score as its last" in shown
    )
    data = json.loads(run("table", "double-deck-toby-thomas", "-f", "json").stdout)
    melds = {m["name"]: m for group in data["classes"] for m in group["melds"]}
    assert (melds["run"]["points"], melds["run"]["derived"]) == ([15, 150, 500, 515], [4])
    assert "derived" not in melds["royal marriage"]  # its list has all four
    single = run("table", "single-deck").stdout
    assert "(double royal marriage: 40 + 40 = 80)." in single
    dix = next(line for line in single.splitlines() if line.startswith("dix"))
    assert dix.split()[-2:] == ["10", "(20*)"]
    assert "*" not in next(line for line in single.splitlines() if " run " in line)
    markdown = run("table", "double-deck-toby-thomas", "-f", "markdown").stdout
    assert "| (515*) " in markdown and "(n*) meldcalc's own value" in markdown


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch):
    """Output as a terminal of a given width shows it (stdout is no terminal in tests)."""

    def width(columns: int) -> None:
        monkeypatch.setattr("meldcalc.cli.report._terminal_width", lambda out: columns)

    return width


@pytest.mark.parametrize(
    "name", ["double-deck", "examples/house-roundhouse", "double-deck-toby-thomas", "check"]
)
@pytest.mark.parametrize("columns", [80, 60, 40])
def test_table_fits_the_terminal_wrapping_at_word_boundaries(
    name: str, columns: int, terminal
) -> None:
    whole = run("table", name).stdout
    terminal(columns)
    shown = run("table", name).stdout
    # a word longer than a whole line (a source's web address) stands alone, uncut
    too_wide = [line for line in shown.splitlines() if len(line) > columns]
    assert all(len(line.split()) == 1 for line in too_wide), too_wide
    import re

    words = lambda text: re.sub(r"(\w)\+\s+", r"\1+", text).split()  # noqa: E731
    prose = [line for line in whole.splitlines() if "  " not in line and line]
    for line in prose:  # every sentence is still there, only its line breaks moved
        assert " ".join(line.split()) in " ".join(words(shown))
    for value in ("150", "(515*)" if "toby" in name else "100"):
        assert value in shown.replace(",", " ").split()


def test_the_double_deck_grid_stays_a_grid_at_80_columns(terminal) -> None:
    terminal(80)
    shown = run("table", "double-deck").stdout.splitlines()
    header = next(line for line in shown if line.startswith("class "))
    assert header.split() == ["class", "meld", "cards", "1x", "2x", "3x", "4x"]
    run_row = next(line for line in shown if line.startswith("sequence  run"))
    assert run_row.split()[-4:] == ["15", "150", "225", "300"]


def test_variants_fit_the_terminal_and_keep_every_title(terminal) -> None:
    rows = json.loads(run("variants", "-f", "json").stdout)
    for columns in (158, 80, 50):
        terminal(columns)
        shown = run("variants").stdout
        assert max(len(line) for line in shown.splitlines()) <= columns
        flat = " ".join(shown.split())
        assert all(" ".join(row["title"].split()) in flat for row in rows)


def test_pipes_and_other_formats_are_left_whole() -> None:
    piped = run("table", "double-deck").stdout
    assert max(len(line) for line in piped.splitlines()) > 200  # the description, one line
    assert "single    double    triple    quadruple" in piped
    markdown = run("table", "double-deck", "-f", "markdown").stdout
    assert "| class    | meld " in markdown


def test_single_deck_plays_to_1000_and_table_says_so() -> None:
    shown = run("table", "single-deck").stdout
    assert "The standard game is to 1,000; the short game, to 500." in shown
    assert "game: the first side to 1,000 at the end of a hand (score --to sets another" in shown
    assert load_variant("single-deck").bidding.game == 1000
    assert load_variant("double-deck").bidding.game == 500


@pytest.mark.parametrize("name", ["single-deck", "double-deck", "examples/house-passing"])
def test_table_yaml_prints_the_shipped_file_to_copy(tmp_path: Path, name: str) -> None:
    result = run("table", name, "-f", "yaml")
    assert result.exit_code == 0
    assert result.stdout.encode() == (SHIPPED / f"{name}.yaml").read_bytes()
    copy = tmp_path / "house.yaml"
    copy.write_text(result.stdout.replace(f"name: {name.split('/')[-1]}", "name: mine"))
    assert load_variant(str(copy)).name == "mine"


def test_every_command_takes_a_shipped_example_by_its_name() -> None:
    result = run(
        "meld",
        "-V",
        "examples/house-roundhouse",
        "-t",
        "S",
        "-f",
        "total",
        "KS QS KH QH KD QD KC QC",
    )
    assert result.exit_code == 0 and result.stdout == "32\n"


def test_one_check_is_singular_wherever_checks_are_counted(tmp_path: Path) -> None:
    table = run("table", "check").stdout
    assert "80 (1 check) " in table and "(1 checks)" not in table
    assert "800 (2 checks†)" in table  # a house default: the page gives single checks
    explained = run("meld", "KS KH KD KC", "-V", "check", "-t", "S", "--explain").stdout
    assert "kings around (around): K♠ K♥ K♦ K♣ = 80, 1 check." in explained
    game = tmp_path / "game.jsonl"
    scored = ["score", "-V", "check", "-g", str(game), "--bid", "200", "--bidder", "0"]
    hands = ["--hand", "0:KS KH KD KC", "--hand", "1:9H", "--trump", "S"]
    assert run(*scored, *hands, "--tricks", "150,60").exit_code == 0
    standing = run("score", "-g", str(game), "--show").stdout
    assert "(1 check)" in standing and "(1 checks)" not in standing


def test_a_total_of_one_meld_is_not_written_as_a_sum() -> None:
    lines = explain(Hand.parse("KC QC"), load_variant("single-deck"), _best("KC QC", Suit.CLUBS))
    assert lines[-1] == "total under ♣: 40."
    lines = explain(Hand.parse("9S 9H"), load_variant("single-deck"), _best("9S 9H", Suit.CLUBS))
    assert lines[-1] == "total under ♣: 0."


def _best(text: str, trump: Suit):
    return best_meld(Hand.parse(text), load_variant("single-deck"), trump)


def test_quiz_can_ask_the_best_trump_read_as_trump_options_read_suits() -> None:
    from meldcalc.learning.quiz import question_for

    rules = load_variant("single-deck")
    asked = [question_for(rules, "trump", "plain", 9, n, 1200) for n in (1, 2, 3)]
    best = [question.best[0] for question in asked]
    wrong = next(suit for suit in Suit if suit not in asked[1].best)
    answers = f"{best[0].symbol}\nnot a suit\n{wrong.name.lower()}\n{best[2].letter.lower()}\n"
    options = ("--ask", "trump", "--theme", "plain", "--rounds", "3", "--seed", "9")
    result = run("quiz", *options, input=answers)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("which trump melds best?") == 3
    assert result.stdout.splitlines().count("right.") == 2
    assert f"wrong: it is {asked[1].right_answer()}." in result.stdout
    assert "'not a suit': expected a suit" in result.stdout
    totals = ", ".join(f"{r.trump.symbol} ({r.trump.letter}) {r.total}" for r in asked[0].answers)
    assert f"  each trump's total: {totals}." in result.stdout
    assert result.stdout.strip().endswith("score: 2 of 3 right (67%)")


def test_a_trump_question_takes_every_trump_tied_for_best() -> None:
    from meldcalc.learning.meldquiz import TrumpQuestion
    from meldcalc.rules.meld import best_meld as meld_of

    rules = load_variant("single-deck")
    hand = Hand.parse("9S 9H AD KC")
    answers = tuple(sorted((meld_of(hand, rules, suit) for suit in Suit), key=lambda r: -r.total))
    question = TrumpQuestion("trump", "tie", 1000, (), "? ", hand, rules, answers)
    assert question.best == [Suit.SPADES, Suit.HEARTS]
    assert question.is_right(Suit.HEARTS) and not question.is_right(Suit.CLUBS)
    assert question.right_answer() == "♠ (S) or ♥ (H)"
    assert "♠ and ♥ tie at 10: each of them is right." in question.explanation()


def test_two_handed_deal_shows_the_turn_up_that_names_trump() -> None:
    data = json.loads(run("deal", "-V", "two-handed", "--seed", "1", "-f", "json").stdout)
    turn_up = data["turn_up"]
    assert turn_up in data["stock"]
    named = f"# turn-up: {turn_up} (trump {turn_up[-1]} "
    seats = run("deal", "-V", "two-handed", "--seed", "1", "--players").stdout.splitlines()
    assert seats[-1].startswith(named) and seats[-2].startswith("stock: ")
    plain = run("deal", "-V", "two-handed", "--seed", "1").stdout.splitlines()
    assert len(plain) == 2 and plain[1].startswith(named)
    # meld skips the comment: one record per hand
    counted = run("meld", "-V", "two-handed", "-f", "total", input="\n".join(plain) + "\n")
    assert counted.exit_code == 0 and len(counted.stdout.splitlines()) == 1


def test_a_deal_without_a_turn_up_has_none() -> None:
    data = json.loads(run("deal", "--seed", "1", "-f", "json").stdout)
    assert data["turn_up"] is None
    assert "turn-up" not in run("deal", "--seed", "1", "--players").stdout


def test_deal_without_a_seed_says_the_seed_it_drew_so_it_repeats() -> None:
    first = run("deal", "-n", "2")
    assert first.exit_code == 0
    said = first.stderr.strip()
    assert said.startswith("meldcalc: dealt from seed ") and "deals the same again" in said
    seed = said.split()[4]
    assert run("deal", "-n", "2", "--seed", seed).stdout == first.stdout
    assert run("deal", "--seed", seed).stderr == ""  # a seed given needs no saying
    records = [
        json.loads(line) for line in run("deal", "-n", "2", "-f", "jsonl").stdout.splitlines()
    ]
    assert len({record["seed"] for record in records}) == 1
    again = run("deal", "-n", "2", "-f", "jsonl", "--seed", str(records[0]["seed"]))
    assert [json.loads(line) for line in again.stdout.splitlines()] == records
    assert json.loads(run("deal", "--seed", "7", "-f", "json").stdout)["seed"] == 7


def test_table_states_toby_thomas_reuse_exception_with_its_extra_marriage() -> None:
    shown = run("table", "double-deck-toby-thomas").stdout
    assert (
        "Except: from 2 copies up, royal marriages may use the cards of the run, when at least"
        " 1 copy lies beside them, of their own." in " ".join(shown.split())
    )
    data = json.loads(run("table", "double-deck-toby-thomas", "-f", "json").stdout)
    melds = {m["name"]: m for group in data["classes"] for m in group["melds"]}
    assert melds["royal marriage"]["reuse"] == {"melds": ["run"], "from_copies": 2, "beside": 1}
    assert "reuse" not in melds["run"]
