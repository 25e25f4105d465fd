"""The trainer: every kind of question in three variants, the diagnosis of typical mistakes,
the study file (FSRS, torn and planted files), replay by seed, themes, review and stats."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.errors import MeldcalcError
from meldcalc.learning import study as memory
from meldcalc.learning.diagnose import meld_mistake, trump_mistake
from meldcalc.learning.kinds import KINDS, THEMES, every_theme
from meldcalc.learning.meldquiz import meld_names, read_melds
from meldcalc.learning.quiz import Quiz, next_card, pool, question_for
from meldcalc.learning.systemquiz import (
    Choice,
    MeaningQuestion,
    SignalQuestion,
    message,
    rule_words,
)
from meldcalc.rules.auction import Auction
from meldcalc.rules.cards import CARDS, Hand, parse_suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld, best_meld_all_trumps
from meldcalc.rules.scoring import score_hand
from meldcalc.rules.systemfile import system_for
from meldcalc.rules.systems import BARE, meaning
from meldcalc.rules.tricks import legal_cards

runner = CliRunner()
DATA = Path(__file__).parent / "data"
T0 = datetime(2026, 3, 1, 18, 0, tzinfo=timezone.utc)

HOUSE_WIDOW = """\
name: house-widow
extends: three-handed
title: Three-handed with a six-card widow
source: a test
hand_size: 14
widow: 6
"""
HOUSE_PASS = """\
name: house-pass4
extends: double-deck
title: Double deck with a pass of four, at once
source: a test
passing: {kind: plain, cards: 4, simultaneous: true}
"""


@pytest.fixture(scope="module")
def houses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("houses")
    (folder / "widow.yaml").write_text(HOUSE_WIDOW)
    (folder / "pass.yaml").write_text(HOUSE_PASS)
    return {"house-widow": str(folder / "widow.yaml"), "house-pass": str(folder / "pass.yaml")}


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def typed(question) -> str:
    """What a player who knows the answer types."""
    if question.kind == "trump":
        return question.best[0].letter
    return question.right_answer()


def first_question(variant, kind: str, seed: int = 7):
    """The question `quiz --ask KIND --seed SEED -n 1` asks a new learner."""
    quiz = Quiz(variant, seed, memory.study_path(), kind)
    quiz.start()
    return quiz.next_question(memory.now())


# --- every kind, three variants -------------------------------------------------------------

KIND_VARIANTS = {
    "total": ["single-deck", "double-deck", "double-deck-toby-thomas"],
    "melds": ["single-deck", "double-deck", "examples/house-roundhouse"],
    "trump": ["single-deck", "double-deck", "single-deck-classic"],
    "tricks": ["single-deck", "double-deck", "single-deck-classic"],
    "play": ["single-deck", "double-deck", "examples/house-easy-play"],
    "bid": ["single-deck", "double-deck", "firehouse"],
    "score": ["single-deck", "double-deck", "examples/house-roundhouse"],
    "throwin": ["single-deck", "double-deck", "three-handed"],
    "widow": ["three-handed", "double-deck-three-handed", "house-widow"],
    "pass": ["double-deck-toby-thomas", "examples/house-passing", "house-pass"],
    "system": ["double-deck-toby-thomas", "examples/house-skip-meld", "examples/house-jim-davis"],
}
CASES = [(kind, name) for kind, names in KIND_VARIANTS.items() for name in names]


def rules_answer(question, variant):
    """The answer worked out again from the rules themselves, in the question's terms."""
    kind = question.kind
    if kind == "total":
        return best_meld(question.hand, variant, question.answer.trump).total
    if kind == "melds":
        return meld_names(best_meld(question.hand, variant, question.answer.trump))
    if kind == "trump":
        results = best_meld_all_trumps(question.hand, variant)
        return {r.trump for r in results if r.total == results[0].total}
    if kind == "tricks":
        counted = sum(variant.counters.get(CARDS[card].rank, 0) for card in question.cards)
        return counted + (variant.last_trick if question.last else 0)
    if kind == "play":
        p = question.position
        return frozenset(legal_cards(p.held, p.trick, p.trump, variant.head, variant.overtrump))
    if kind == "bid":
        return question.answer
    if kind == "system":
        return system_answer(question, variant)
    if kind in ("score", "throwin"):
        return score_hand(variant, question.play).points
    if kind == "widow" and question.theme == "bury":
        return sum(variant.counters.get(card.rank, 0) for card in question.buried.cards())
    if kind == "widow":
        return best_meld(question.hand + question.widow, variant, question.trump).total
    if question.theme == "exchange":
        return question.expected
    return best_meld(question.after, variant, question.trump).total


def system_answer(question, variant):
    """The system question's answer from the system table (`rules.systems.meaning`): the
    choice that is the bid's reading; or the bid that reads as the question wants, no
    lower legal bid reading so, for a hand that holds it."""
    system = system_for(variant)
    calls = [bid for _, bid in question.auction.bids]
    if question.theme == "meaning":
        says = meaning(system, calls, question.said.bid).says
        return next(i for i, choice in enumerate(question.choices) if choice.says == says)
    said = meaning(system, calls, question.want.bid)
    assert said == question.want and said.fits(np.array([question.hand.counts]), variant)[0]
    levels = variant.bidding.levels(said.bid, question.auction.lowest)
    return next(bid for bid in levels if message(meaning(system, calls, bid)) == message(said))


def asked(kind: str, name: str, houses: dict[str, str]):
    """The variant as given, the variant, and the first question of ``--ask kind``."""
    spec = houses.get(name, name)
    variant = load_variant(spec)
    return spec, variant, first_question(variant, kind)


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_each_kind_is_asked_graded_and_explained_in_three_variants(
    kind: str, name: str, houses: dict[str, str]
) -> None:
    spec, variant, question = asked(kind, name, houses)
    assert question is not None and question.kind == kind
    answer = question.read(typed(question))
    expected = rules_answer(question, variant)
    if kind == "trump":
        assert set(question.best) == expected
    else:
        assert answer == expected
    assert question.is_right(answer)
    assert question.explanation()
    right = run("quiz", "-V", spec, "--ask", kind, "-n", "1", "--seed", "7", input=typed(question))
    assert right.exit_code == 0, right.output
    assert f"round 1 of 1: {question.label}" in right.stdout
    assert "\nright.\n" in right.stdout and right.stdout.rstrip().endswith("1 of 1 right (100%)")


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_each_kind_says_why_a_wrong_answer_is_wrong(
    kind: str, name: str, houses: dict[str, str]
) -> None:
    spec, _, question = asked(kind, name, houses)
    wrong = _a_wrong_answer(question)
    assert not question.is_right(question.read(wrong))
    result = run("quiz", "-V", spec, "--ask", kind, "-n", "1", "--seed", "7", input=wrong)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("wrong: it is "))
    assert lines[at] == f"wrong: it is {question.right_answer()}."
    assert lines[at + 1].startswith("  why: ") and len(lines[at + 1]) > 12
    assert result.stdout.rstrip().endswith("0 of 1 right (0%)")


def _a_wrong_answer(question) -> str:
    if question.kind == "trump":
        return next(r.trump.letter for r in question.answers if r.trump not in question.best)
    if question.kind == "play":
        held = [card for card, n in enumerate(question.position.held) if n]
        return " ".join(str(CARDS[card]) for card in held)
    if question.kind == "melds":
        return "none" if question.answer.total else "run"
    if question.kind == "bid" and question.theme == "end":
        return "over" if question.answer != "over" else "0"
    if question.kind == "bid" and question.theme == "dealer":
        return "pass" if question.answer != "pass" else "9999"
    if question.kind in ("score", "throwin"):
        return ", ".join("0" for _ in question.score.points)
    if question.kind == "system" and question.theme == "meaning":
        return "abcd"[(question.answer + 1) % len(question.choices)]
    return str(int(question.right_answer()) + 1)


# --- the diagnosis, on a corpus of typical mistakes -----------------------------------------


def _mistakes() -> list[list[str]]:
    lines = (DATA / "quiz-mistakes.txt").read_text(encoding="utf-8").splitlines()
    return [
        [field.strip() for field in line.split(" | ")] for line in lines if not line.startswith("#")
    ]


MISTAKES = _mistakes()


def test_the_mistake_corpus_holds_at_least_30_cases_of_several_kinds() -> None:
    assert len(MISTAKES) >= 30
    assert {row[0] for row in MISTAKES} == {"total", "trump"}


@pytest.mark.parametrize("row", MISTAKES, ids=lambda row: f"{row[1]}-{row[3][:20]}-{row[4]}")
def test_a_typical_mistake_is_named_in_one_sentence(row: list[str]) -> None:
    kind, name, trump, text, wrong, sentence = row
    variant, hand = load_variant(name), Hand.parse(text)
    if kind == "trump":
        answers = best_meld_all_trumps(hand, variant)
        assert trump_mistake(hand, variant, answers, parse_suit(wrong)) == sentence
    else:
        result = best_meld(hand, variant, parse_suit(trump))
        assert meld_mistake(hand, variant, result, int(wrong)) == sentence
    assert sentence.endswith(".") and sentence.count(". ") == 0


def test_the_diagnosis_comes_in_one_line_before_the_breakdown() -> None:
    question = question_for(load_variant("single-deck"), "total", "reuse", 3, 1, 1200)
    shown = run(
        "quiz", "--ask", "total", "--theme", "reuse", "-n", "1", "--seed", "3",
        input=str(question.answer.total + 60),
    ).stdout.splitlines()  # fmt: skip
    at = shown.index(f"wrong: it is {question.answer.total}.")
    assert shown[at + 1].startswith("  why: ")
    assert shown[-2 - len(question.explanation()) :][0].startswith("  ")


def test_a_wrong_trump_says_what_yours_melds_and_names_a_three_way_tie() -> None:
    variant = load_variant("single-deck")
    hand = Hand.parse("KS QS KH QH KD QD 9C")
    answers = best_meld_all_trumps(hand, variant)
    said = trump_mistake(hand, variant, answers, parse_suit("C"))
    assert said.startswith("Under ♣ your hand melds 70")
    assert "(♠ (S), ♥ (H) and ♦ (D) tie for best)" in said


# --- the auction's flow, as the quiz asks it (rules.auction) -------------------------------


def test_the_auction_steps_the_forced_dealer_and_a_pass_that_is_final() -> None:
    double = load_variant("double-deck").bidding
    auction = Auction(double, 4, dealer=3)
    assert auction.to_speak == 0 and auction.lowest == 50
    auction = auction.say(None).say(59)
    assert auction.lowest == 60 and auction.to_speak == 2
    assert auction.say(60).lowest == 65
    forced = Auction(double, 4, dealer=3).say(None).say(None).say(None)
    assert forced.to_speak == 3 and forced.say(None).bids[-1] == (3, 50)  # its pass bids 50
    single = Auction(load_variant("single-deck").bidding, 4, dealer=3)
    passed = single.say(None).say(None).say(None)
    assert passed.say(None).over and passed.say(None).winner is None
    went = single.say(250).say(None).say(260).say(None).say(None)
    assert went.over and went.winner == 2 and went.high == (260, 2)
    going = single.say(250).say(None).say(260).say(None)
    assert going.to_speak == 0  # seat 1 passed: it is left out


def test_the_dealer_question_asks_the_rules_whether_the_dealer_must_open() -> None:
    for name, least in (("double-deck", 50), ("single-deck", "pass")):
        question = question_for(load_variant(name), "bid", "dealer", 1, 1, 900)
        assert question.lines[-1] == "  the bids: seat 0 pass, seat 1 pass, seat 2 pass"
        assert question.answer == least
        assert question.explanation()[0].startswith(
            "every other seat passed, so the dealer (seat 3) must bid 50"
            if least == 50
            else "no bid yet; seat 3 speaks next, and may bid 250 or more, or pass"
        )


def test_one_round_of_bidding_ends_when_every_seat_has_spoken() -> None:
    firehouse = Auction(load_variant("firehouse").bidding, 4, dealer=3)
    once = firehouse.say(200).say(210).say(None)
    assert once.to_speak == 3
    assert once.say(None).over and once.say(None).winner == 1


# --- the table's bidding system (issue 49) ---------------------------------------------------


def _auction(name: str, *calls: int | None) -> Auction:
    variant = load_variant(name)
    auction = Auction(variant.bidding, variant.players, dealer=variant.players - 1)
    for call in calls:
        auction = auction.say(call)
    return auction


def _meaning_question(name: str, calls: tuple, bid: int, choices: list[Choice]):
    variant, auction = load_variant(name), _auction(name, *calls)
    said = meaning(system_for(variant), list(calls), bid)
    return MeaningQuestion(
        "system", "meaning", 1000, (), "", variant, system_for(variant), auction, said,
        (Choice(said.says, ""), *choices),
    )  # fmt: skip


def _signal_question(name: str, calls: tuple, bid: int, hand: str = "AS"):
    variant = load_variant(name)
    want = meaning(system_for(variant), list(calls), bid)
    return SignalQuestion(
        "system", "signal", 1000, (), "", variant, system_for(variant), _auction(name, *calls),
        Hand.parse(hand), want,
    )  # fmt: skip


def test_a_skip_bid_says_its_meld_and_how_it_is_counted() -> None:
    system = system_for(load_variant("examples/house-skip-meld"))
    assert rule_words(system, meaning(system, [], 53), []) == (
        '53 as the opening bid is read by skip-meld\'s row "opening 52 or more": it shows 30'
        " meld, 10 for each point over 50"
    )
    assert rule_words(system, meaning(system, [50, None], 65), [50, None]) == (
        "65 after 50 is read by none of skip-meld's rows: a bare number (it reads no bid above 60)"
    )


def test_a_raise_read_as_an_opening_is_named_as_the_mistake() -> None:
    question = _meaning_question(
        "examples/house-skip-meld", (52, None), 55, [Choice("shows 50 meld", "what 55 says as"
        " the opening bid")],
    )  # fmt: skip
    assert question.right_answer() == "a) shows 30 meld"
    assert question.read("b") == 1 and question.read("  A) shows 30 meld ") == 0
    assert question.read("shows 50 meld") == 1
    assert question.why(1) == (
        '55 after 52 is read by skip-meld\'s row "a raise of 2 or more": it shows 30 meld, 10'
        ' for each point of the raise over 52; "shows 50 meld" is what 55 says as the opening'
        " bid."
    )
    with pytest.raises(MeldcalcError, match="expected a or b, or a choice's words"):
        question.read("c")


def test_jim_davis_from_70_asks_a_king_with_78_and_80_asks_an_ace() -> None:
    question = _signal_question("examples/house-jim-davis", (70,), 78)
    row = '78 after 70 is read by jim-davis\'s row "a bid ending in 8": it needs a king'
    assert question.why(80) == (
        f'80 after 70 says "needs an ace", not what you want to tell; {row}.'
    )
    assert question.why(88) == (
        f'88 after 70 says "needs kings in every suit", not what you want to tell; {row}.'
    )
    assert question.why(68) == f"68 is not a legal bid now (the bids go 71, 72, 73, ...); {row}."
    assert question.why(78) is None
    assert question.explanation()[-1] == "  78: needs a king  <- the lowest that says it"


def test_a_higher_bid_that_says_it_too_is_a_jump_too_far() -> None:
    question = _signal_question("double-deck-toby-thomas", (), 26)
    assert question.why(36) == (
        "36 says it too, but 26 is the lowest bid that does: jump no further than the message"
        " needs."
    )


@pytest.mark.parametrize(
    "name", ["double-deck-toby-thomas", "examples/house-skip-meld", "examples/house-jim-davis"]
)
def test_which_bid_says_it_is_asked_for_a_hand_that_holds_it(name: str) -> None:
    variant = load_variant(name)
    for seed in range(6):
        question = question_for(variant, "system", "signal", seed, 1, 1200)
        assert question.is_right(question.read(typed(question)))
        assert question.answer == system_answer(question, variant)
        assert question.lines[2].startswith(f"  your hand (seat {question.auction.to_speak}): ")
        assert question.why(question.answer + 1).endswith(".")
        said = run("quiz", "-V", name, "--theme", "signal", "-n", "1", "--seed", str(seed),
                   input=str(question.answer + 1))  # fmt: skip
        assert said.exit_code == 0 and "\n  why: " in said.stdout


SYSTEMS = ["double-deck-toby-thomas", "examples/house-skip-meld", "examples/house-jim-davis"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(SYSTEMS))
def test_every_reading_offered_is_what_it_says_it_is(seed: int, name: str) -> None:
    """The right choice is the system's reading; each other is the reading it names (a
    bid as the opening, after the opening, here) or a bare number: the diagnosis that
    names it never lies."""
    variant = load_variant(name)
    system, bidding = system_for(variant), variant.bidding
    question = question_for(variant, "system", "meaning", seed, 1, 1200)
    calls = [bid for _, bid in question.auction.bids]
    assert question.auction.say(question.said.bid).bids[-1][1] == question.said.bid  # legal
    assert question.choices[question.answer].says == meaning(system, calls, question.said.bid).says
    assert len({choice.says for choice in question.choices}) == len(question.choices) >= 2
    for choice in question.choices:
        whose = re.fullmatch(r"what (\d+) says (as the opening bid|after (\d+)|here)", choice.whose)
        if choice.whose == "":
            continue
        if whose is None:
            assert choice.says == BARE
            continue
        bid, where, after = int(whose[1]), whose[2], whose[3]
        before = [] if where.startswith("as") else [int(after)] if after else calls
        assert meaning(system, before, bid).says == choice.says
        assert where != "here" or bidding.first_at_least(bid) == bid >= question.auction.lowest


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(SYSTEMS))
def test_the_bid_that_says_it_is_legal_the_lowest_and_fits_the_hand(seed: int, name: str) -> None:
    variant = load_variant(name)
    question = question_for(variant, "system", "signal", seed, 1, 1200)
    assert question.auction.say(question.answer).bids[-1][1] == question.answer
    assert question.answer == system_answer(question, variant)


def test_a_variant_without_a_system_refuses_its_questions_and_says_what_it_has() -> None:
    bare = run("quiz", "-V", "double-deck", "--ask", "system", input="")
    assert bare.exit_code == 2 and bare.stderr == (
        "meldcalc: error: --ask system: double-deck bids bare numbers: it names no bidding"
        " system (a house file names one with 'bidding: {system: NAME}': jim-davis,"
        " skip-meld, toby-thomas)\n"
    )
    two = run("quiz", "-V", "two-handed", "--theme", "meaning", input="")
    assert two.exit_code == 2 and two.stderr == (
        "meldcalc: error: --theme meaning: two-handed has no auction, so no bidding system\n"
    )
    assert all(kind != "system" for kind, _ in pool(load_variant("double-deck")))


def test_the_mix_asks_the_system_where_the_variant_plays_one() -> None:
    variant = load_variant("examples/house-skip-meld")
    cards = pool(variant)
    assert ("system", "meaning") in cards and ("system", "signal") in cards
    quiz = Quiz(variant, 4, memory.study_path())
    quiz.start()
    kinds = []
    for _ in range(len({kind for kind, _ in cards})):
        question = quiz.next_question(T0)
        quiz.answered(question, True, T0)
        kinds.append(question.kind)
    assert kinds == list(dict.fromkeys(kind for kind, _ in cards))
    assert kinds[-1] == "system"


def test_stats_name_the_system_themes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "now", lambda: T0)
    name = "examples/house-jim-davis"
    run("quiz", "-V", name, "--theme", "meaning", "-n", "1", "--seed", "2", input="a\n")
    run("quiz", "-V", name, "--theme", "signal", "-n", "1", "--seed", "2", input="50\n")
    shown = run("quiz", "--stats").stdout.splitlines()
    assert shown[0].startswith("house-jim-davis: rating ")
    themes = {line.split()[0] for line in shown[4:6]}
    assert themes == {"meaning", "signal"}
    assert {line.split("  ")[0] for line in shown[9:11]} == {
        "the bidding system · meaning",
        "the bidding system · signal",
    }


# --- the study file -------------------------------------------------------------------------


def test_a_lapsed_card_comes_back_before_a_right_one() -> None:
    study = memory.Study(None)
    memory.record(study, "single-deck", "total", "reuse", 1200, False, T0)
    memory.record(study, "single-deck", "total", "kkq", 1200, True, T0)
    learner = study.learner("single-deck")
    lapsed, known = learner.cards["total/reuse"], learner.cards["total/kkq"]
    assert lapsed.due < known.due
    cards = [("total", "kkq"), ("total", "reuse")]
    import random

    later = T0 + timedelta(minutes=5)
    assert next_card(learner, cards, later, random.Random(0)) == ("total", "reuse")
    for when in (T0 + timedelta(days=1), T0 + timedelta(days=7)):  # learnt well, then not
        memory.record(study, "single-deck", "total", "reuse", 1200, False, when)
        memory.record(study, "single-deck", "total", "kkq", 1200, True, when)
        assert learner.cards["total/reuse"].due < learner.cards["total/kkq"].due


def test_review_asks_what_was_missed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [T0]
    monkeypatch.setattr(memory, "now", lambda: clock[0])
    variant = load_variant("single-deck")
    asked = [first_question(variant, "total", 11)]
    answers = f"{asked[0].answer.total + 10}\n"
    assert run("quiz", "--ask", "total", "-n", "1", "--seed", "11", input=answers).exit_code == 0
    quiz = Quiz(variant, 12, memory.study_path(), "tricks")
    quiz.start()
    second = quiz.next_question(T0)
    run("quiz", "--ask", "tricks", "-n", "1", "--seed", "12", input=second.right_answer())
    clock[0] = T0 + timedelta(minutes=3)
    review = run("quiz", "--review", "-n", "5", "--seed", "13", input="1\n")
    assert "round 1: meld total · plain" in review.stdout
    assert "trick points" not in review.stdout  # answered right: not due for days
    clock[0] = T0 + timedelta(minutes=3, seconds=20)  # missed again: back in a minute
    nothing = run("quiz", "--review", input="")
    assert nothing.stdout.startswith("nothing is due in single-deck; next: ")


def test_a_study_file_torn_mid_write_is_set_aside_said_and_a_new_one_begun() -> None:
    quizzed = run("quiz", "--ask", "total", "-n", "1", "--seed", "5", input="0\n")
    assert quizzed.exit_code == 0
    path = memory.study_path()
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])  # what a write cut short would leave
    result = run("quiz", "--ask", "total", "-n", "1", "--seed", "6", input="0\n")
    assert result.exit_code == 0, result.output
    aside = path.with_name("study.json.damaged")
    assert aside.read_bytes() == whole[: len(whole) // 2]
    assert (
        f"meldcalc: warning: {path}: not a study file (not JSON: cut short, or edited?); set"
        f" aside as {aside}, a new one begun"
    ) in result.stderr
    assert memory.load(path).notes == ()
    assert memory.load(path).learner("single-deck").cards  # the new answer kept


def test_a_write_interrupted_before_the_rename_leaves_the_old_file_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run("quiz", "--ask", "total", "-n", "1", "--seed", "5", input="0\n").exit_code == 0
    path = memory.study_path()
    before = path.read_bytes()

    def crash(*args: object) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", crash)
    study = memory.load(path)
    memory.record(study, "single-deck", "total", "kkq", 1200, True, T0)
    with pytest.raises(OSError, match="power cut"):
        memory.save(study)
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_planted_link_is_not_followed_and_its_target_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("not yours to write")
    path = memory.study_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    result = run("quiz", "--ask", "total", "-n", "1", "--seed", "5", input="0\n")
    assert result.exit_code == 0
    assert "a symbolic link, not followed; set aside as" in result.stderr
    assert target.read_text() == "not yours to write"
    assert not path.is_symlink() and json.loads(path.read_text())["study"] == "meldcalc"
    assert path.with_name("study.json.damaged").is_symlink()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"x" * (memory.MAX_BYTES + 1), "larger than 4 MB: not a study file"),
        (b'{"study": "meldcalc", "format": 1, "quizzes": [], "variants": {"s": {"rating": "x"}}}',
         "variants.s.rating: expected int"),
        (b'{"study": "ledger"}', "not a meldcalc study file"),
    ],
)  # fmt: skip
def test_a_damaged_study_file_is_set_aside_with_the_reason(content: bytes, reason: str) -> None:
    path = memory.study_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    study = memory.load(path)
    assert study.notes == (
        f"{path}: {reason}; set aside as {path.with_name('study.json.damaged')}, a new one begun",
    )


def test_the_study_file_lives_where_the_environment_says_never_in_the_users_folder() -> None:
    assert str(memory.study_path()).startswith(os.environ["MELDCALC_DATA_DIR"])
    assert Path.home() not in memory.study_path().parents or "pytest" in str(memory.study_path())


def test_a_study_file_that_cannot_be_written_is_said_once_and_the_quiz_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "in-the-way").write_text("a file where the folder should be")
    monkeypatch.setenv("MELDCALC_DATA_DIR", str(tmp_path / "in-the-way" / "meldcalc"))
    result = run("quiz", "--ask", "total", "-n", "2", "--seed", "5", input="0\n0\n")
    assert result.exit_code == 0 and result.stdout.rstrip().endswith("0 of 2 right (0%)")
    assert result.stderr == (
        f"meldcalc: warning: {memory.study_path()}: cannot be written (Not a directory):"
        " this quiz is not remembered\n"
    )


def test_a_relative_data_folder_turns_memory_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MELDCALC_DATA_DIR", "relative/folder")
    assert memory.study_path() is None
    result = run("quiz", "--ask", "total", "-n", "1", "--seed", "5", input="0\n")
    assert result.exit_code == 0 and "rating:" not in result.stdout
    assert not Path("relative").exists()


# --- replay, themes, the mix, stats ---------------------------------------------------------


def _rounds(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines) if line.startswith("round ")]


def test_the_same_seed_asks_the_same_quiz_even_after_the_answers_changed_what_is_due() -> None:
    first = run("quiz", "-n", "3", "--seed", "21", input="0\n0\n0\n")
    again = run("quiz", "-n", "3", "--seed", "21", input="1\n1\n1\n")
    headings = [line for line in first.stdout.splitlines() if line.startswith("round ")]
    assert headings == [line for line in again.stdout.splitlines() if line.startswith("round ")]
    assert _rounds(first.stdout) == _rounds(again.stdout)


def test_a_quiz_without_a_seed_says_the_seed_that_asks_it_again() -> None:
    drawn = run("quiz", "-n", "2", input="0\n0\n")
    said = drawn.stdout.splitlines()[0]
    assert said.startswith("seed ") and "asks these questions again" in said
    seed = said.split()[1]
    again = run("quiz", "-n", "2", "--seed", seed, input="0\n0\n")
    assert _rounds(drawn.stdout) == _rounds(again.stdout)
    assert "seed " not in again.stdout.splitlines()[0]


def test_a_theme_is_drilled_alone() -> None:
    answers = "0\nnone\nS\n" * 4  # a line that is no answer to a round is asked again
    result = run("quiz", "--theme", "reuse", "-n", "4", "--seed", "2", input=answers)
    headings = [line for line in result.stdout.splitlines() if line.startswith("round ")]
    assert len(headings) == 4 and all("· reuse" in line for line in headings)
    assert {line.split(": ")[1].split(" · ")[0] for line in headings} <= {
        "meld total",
        "which melds",
        "best trump",
    }


def test_the_mix_asks_a_kind_at_a_time_until_something_is_due() -> None:
    variant = load_variant("single-deck")
    assert pool(variant)[:5] == [
        ("total", "plain"),
        ("melds", "plain"),
        ("trump", "plain"),
        ("tricks", "counters"),
        ("play", "heading"),
    ]
    result = run("quiz", "-n", "3", "--seed", "4", input="0\nnone\nS\n")
    kinds = [line.split(": ")[1] for line in result.stdout.splitlines() if line.startswith("round")]
    assert [kind.split(" (")[0] for kind in kinds] == [
        "meld total · plain",
        "which melds · plain",
        "best trump · plain",
    ]


def test_a_variant_without_the_rule_refuses_the_kind_and_says_what_it_has() -> None:
    result = run("quiz", "--ask", "widow", input="")
    assert result.exit_code == 2
    assert result.stderr == "meldcalc: error: --ask widow: single-deck has no such question\n"
    toby = run("quiz", "--ask", "total", "--theme", "tie", input="")
    assert "(its total themes: doubles, kkq, plain, reuse, run)" in toby.stderr


def test_stats_show_right_and_wrong_by_theme_the_rating_and_what_is_due(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(memory, "now", lambda: T0)
    assert "nothing studied yet" in run("quiz", "--stats").stdout
    question = first_question(load_variant("single-deck"), "total", 8)
    answers = f"{question.answer.total}\n"
    run("quiz", "--ask", "total", "-n", "1", "--seed", "8", input=answers)
    shown = run("quiz", "--stats").stdout.splitlines()
    assert shown[0].startswith("single-deck: rating 12") and shown[0].endswith(
        "1 answered, 1 right"
    )
    assert shown[4].split() == ["plain", "1", "0"]
    assert shown[8].startswith("meld total · plain") and "in 10 minutes" in shown[8]


def test_the_end_of_a_quiz_says_by_theme_the_rating_and_when_each_card_is_due() -> None:
    question = first_question(load_variant("single-deck"), "total", 8)
    result = run("quiz", "--ask", "total", "-n", "1", "--seed", "8", input="0\n")
    tail = result.stdout.splitlines()[-4:]
    assert tail[0] == "by theme: plain 0 of 1"
    assert tail[1].startswith("rating: 1") and tail[1].endswith(")")
    assert tail[2] == "next: in 1 minute: meld total · plain"
    assert tail[3] == "score: 0 of 1 right (0%)"
    assert question.answer.total != 0


def test_the_command_lines_words_are_the_learning_layers() -> None:
    from meldcalc.cli.quiz import QuizAsk, QuizTheme

    assert [word.value for word in QuizAsk] == ["mix", *KINDS]
    assert [word.value for word in QuizTheme] == ["any", *every_theme()]
    assert set(every_theme()) == {theme for themes in THEMES.values() for theme in themes}


def test_meld_names_are_read_as_players_write_them() -> None:
    variant = load_variant("single-deck")
    read = read_melds("run, 2 dix and double pinochle; marriages x2", variant)
    assert read == Counter({"run": 1, "dix": 2, "pinochle": 2, "marriage": 2})
    assert read_melds("none", variant) == Counter()
    with pytest.raises(ValueError, match="did you mean 'pinochle'"):
        read_melds("pinocle", variant)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    kind=st.sampled_from(KINDS),
    name=st.sampled_from(["single-deck", "double-deck", "three-handed", "double-deck-toby-thomas"]),
)
def test_a_question_takes_its_own_answer_and_refuses_another(
    seed: int, kind: str, name: str
) -> None:
    variant = load_variant(name)
    for theme in pool(variant, kind)[:2]:
        question = question_for(variant, kind, theme[1], seed, 1, 1200)
        assert question is not None
        assert question.is_right(question.read(typed(question)))
        assert not question.is_right(question.read(_a_wrong_answer(question)))
        assert question.why(question.read(typed(question))) is None


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="a Linux pseudo-terminal")
def test_ctrl_c_at_the_quiz_prompt_ends_its_line_for_the_shell(tmp_path) -> None:
    """Ended by Ctrl-C, the run ends itself (exit 130) rather than dying of the signal, so
    the shell does not end the line: the prompt's line must be ended, or the shell's
    prompt lands after 'your meld total? ^C'."""
    import pty
    import sys

    from sessions import AWAY, typed_at_prompt

    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(AWAY)
        os.environ["MELDCALC_DATA_DIR"] = str(tmp_path)
        os.execv(sys.executable, [sys.executable, "-m", "meldcalc", "quiz", "--seed", "1"])
    try:
        said = typed_at_prompt(pid, fd, "your meld total? ", b"\x03")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert said.endswith("\n"), repr(said)


def test_a_negative_or_overlong_answer_is_a_typo_to_type_again_not_a_wrong_answer(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("MELDCALC_DATA_DIR", str(tmp_path))
    typed = "-100\n99999999999999999999\n140\nq\n"  # seed 1 asks a meld total of 140 first
    result = CliRunner().invoke(app, ["quiz", "--seed", "1", "-n", "1"], input=typed)
    assert "'-100': the answer is 0 or more, such as 190; try again" in result.output
    assert "'99999999999999999999': too large for an answer here, such as 190" in result.output
    assert result.output.count("right") >= 1 and "wrong" not in result.output
