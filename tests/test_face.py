"""The Python face checks what the command line checks: hands against the variant (copies,
size, the same warnings), deals, seeds and jobs within the options' bounds, a variant made
or changed outside the loader checked again; a user's mistake is a `MeldcalcError` with the
command line's words, a wrong type a `TypeError`. Hypothesis drives every function of the
face with arbitrary arguments: a right answer or one of those two, never anything else."""

from __future__ import annotations

import dataclasses
import math
import warnings

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import meldcalc
from meldcalc.cli import app
from meldcalc.errors import MeldcalcError, MeldcalcWarning
from meldcalc.rules.arguments import MAX_DEALS, MAX_SEED
from meldcalc.rules.cards import SUITS, Hand
from meldcalc.rules.variant import HouseRules, ThrownIn

runner = CliRunner()
SINGLE = meldcalc.load_variant("single-deck")
STRONG = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def cli_error(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    return result.stderr.removeprefix("meldcalc: error: ").strip()


def face_error(call, *args, **kwargs) -> MeldcalcError:
    with pytest.raises(MeldcalcError) as raised:
        call(*args, **kwargs)
    return raised.value


def test_a_hand_no_deck_holds_is_refused_as_meld_refuses_it() -> None:
    for text in ("AS AS AS KS QS", " ".join([STRONG] * 10), "AS " * 1_000_000):
        error = face_error(meldcalc.best_meld, Hand.parse(text), SINGLE, meldcalc.Suit.SPADES)
        assert isinstance(error, meldcalc.HandError)
        if len(text) < 60_000:  # the command line reads lines of at most 64 KB
            assert str(error) == cli_error("meld", text, "-t", "S")


def test_a_hand_of_another_size_is_warned_of_as_meld_warns() -> None:
    with pytest.warns(MeldcalcWarning, match="the hand has 4 cards; single-deck deals 12"):
        total = meldcalc.best_meld(Hand.parse("AS KS QS JS"), SINGLE, meldcalc.Suit.SPADES).total
    assert total == 40
    shown = runner.invoke(app, ["meld", "AS KS QS JS", "-t", "S"])
    assert "warning: the hand has 4 cards; single-deck deals 12" in shown.stderr


@pytest.mark.parametrize("cards", [2, 14, 20])
def test_a_bid_is_simulated_from_a_whole_hand_only_as_bid_says(cards: int) -> None:
    text = " ".join(SINGLE.deck.cards()[index].__str__() for index in range(0, 2 * cards, 2))
    error = face_error(meldcalc.estimate_bid, Hand.parse(text), SINGLE, deals=10)
    assert isinstance(error, meldcalc.HandError)
    assert str(error) == cli_error("bid", text, "-n", "10")


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("deals", 10**7, "deals 10000000: expected a whole number from 1 to 1,000,000"),
        ("deals", 0, "deals 0: expected a whole number from 1 to 1,000,000"),
        ("seed", -1, "seed -1: expected a whole number from 0 to"),
        ("seed", 2**64, "seed 18446744073709551616: expected a whole number from 0 to"),
        ("jobs", 0, "jobs 0: expected a whole number of at least 1"),
        ("confidence", 1.0, "confidence 1.0: expected a number from 0.01 to 0.99"),
        ("strong", 1, "--strong 1: expected 0 (off) or at least 2 deals"),
        ("endgame", 9, "--endgame 9: expected 1 to 8 tricks"),
        ("time_limit", -1, "time_limit -1: expected a number from 0 to 1e+09"),
        ("policy", "best", "policy 'best': expected one of learned, rules"),
    ],
)
def test_the_bids_numbers_are_held_to_the_options_bounds(option, value, said) -> None:
    error = face_error(meldcalc.estimate_bid, Hand.parse(STRONG), SINGLE, **{option: value})
    assert str(error).startswith(said)


@pytest.mark.parametrize(
    ("option", "value"),
    [("deals", "500"), ("seed", 1.5), ("jobs", "2"), ("confidence", "70%"), ("trumps", [1])],
)
def test_a_value_of_the_wrong_type_is_a_type_error(option, value) -> None:
    with pytest.raises(TypeError, match=option):
        meldcalc.estimate_bid(Hand.parse(STRONG), SINGLE, **{option: value})


def test_jobs_and_seeds_at_their_ends_run() -> None:
    report = meldcalc.estimate_bid(Hand.parse(STRONG), SINGLE, deals=40, seed=MAX_SEED, jobs=2**63)
    assert report.seed == MAX_SEED and report.best.trump is meldcalc.Suit.SPADES


def test_a_variant_changed_outside_the_loader_is_checked_again() -> None:
    seven = dataclasses.replace(SINGLE, players=7)
    error = face_error(meldcalc.best_meld, Hand.parse(STRONG), seven, meldcalc.Suit.SPADES)
    assert isinstance(error, meldcalc.VariantError) and "players: expected an integer <= 6" in str(
        error
    )
    with pytest.raises(meldcalc.VariantError, match=r"house\.save_meld"):
        meldcalc.estimate_bid(
            Hand.parse(STRONG), dataclasses.replace(SINGLE, house=HouseRules(save_meld="x"))
        )
    harder = dataclasses.replace(SINGLE, house=HouseRules(save_meld=170))  # a good change
    report = meldcalc.estimate_bid(Hand.parse(STRONG), harder, deals=300, seed=1, trumps=[SUITS[0]])
    assert dict(report.best.make).get(460, 0.0) < 0.6  # scored as a file with it would be
    with pytest.raises(TypeError, match=r"variant\.deck"):
        meldcalc.best_meld(
            Hand.parse(STRONG), dataclasses.replace(SINGLE, deck="48 cards"), SUITS[0]
        )


# --- every function of the face, driven with arbitrary arguments ---------------------------

#: Anything at all, but no number of deals, seed or count that would run long.
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers().filter(lambda n: not 0 <= n <= MAX_DEALS),
    st.integers(-5, 5),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.sampled_from([*SUITS, SINGLE, Hand.parse(STRONG), object()]),
)
SHIPPED = ["single-deck", "three-handed", "double-deck", "cutthroat"]
#: Changes a script may make to a loaded variant: some the loader takes, some it refuses.
CHANGES = [
    {"house": HouseRules(set_penalty=2)},
    {"meld_minimum": 20},
    {"players": 7},
    {"hand_size": 13},
    {"house": HouseRules(save_meld="counter", thrown_in=ThrownIn(cards=-5))},
    {"deck": None},
    {"name": 5},
    {"bidding": "none"},
    {"melds": ()},
]


@st.composite
def calls(draw, arguments: dict[str, st.SearchStrategy]) -> dict[str, object]:
    """Arguments of a call: every one right in a third of the calls; else one of them
    (named by the draw) is anything at all, or a variant changed outside the loader."""
    names = list(arguments)
    wrong = draw(st.sampled_from([None, *names]))
    if wrong is None or draw(st.booleans()):  # a second wrong one, now and then
        wrong = draw(st.sampled_from([None, None, *names]))
    return {name: draw(JUNK if name == wrong else arguments[name]) for name in names}


@st.composite
def variants(draw, names: list[str] = SHIPPED) -> object:
    """A shipped variant, or one changed outside the loader (in a way it takes or not)."""
    variant = meldcalc.load_variant(draw(st.sampled_from(names)))
    if draw(st.integers(0, 3)) == 0:
        variant = dataclasses.replace(variant, **draw(st.sampled_from(CHANGES)))
    return variant


def dealt(variant: object, rng: object) -> Hand:
    """A hand as the variant deals one (any hand where the variant is not a variant)."""
    deck = getattr(variant, "deck", SINGLE.deck)
    cards = deck.cards() if hasattr(deck, "cards") else SINGLE.deck.cards()
    size = getattr(variant, "hand_size", 12)
    return Hand.from_cards(
        rng.sample(cards, min(size, len(cards)) if isinstance(size, int) else 12)
    )


def _answers_or_refuses(call, *args, **kwargs) -> object:
    """The call's answer, or None where it refused as the face may: a `MeldcalcError`
    (its message one line or more, never empty) or a `TypeError`."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MeldcalcWarning)
            answer = call(*args, **kwargs)
    except (MeldcalcError, TypeError) as error:
        assert str(error).strip()
        event(f"{call.__name__}: {type(error).__name__}")
        return None
    event(f"{call.__name__}: answered")
    return answer


FACE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FACE
@given(variant=variants(), rng=st.randoms(use_true_random=False), data=st.data())
def test_best_meld_answers_or_refuses_whatever_it_is_given(variant, rng, data) -> None:
    hand = st.one_of(st.just(dealt(variant, rng)), st.just(Hand([3] * 24)))
    call = data.draw(calls({"hand": hand, "variant": st.just(variant),
                            "trump": st.sampled_from(SUITS)}))  # fmt: skip
    result = _answers_or_refuses(meldcalc.best_meld, **call)
    if result is not None:
        assert result.trump is call["trump"]
        assert result.total == sum(m.points for m in result.melds) >= 0
    call.pop("trump")
    every = _answers_or_refuses(meldcalc.best_meld_all_trumps, **call)
    if every is not None:
        assert {r.trump for r in every} == set(SUITS)
        assert [r.total for r in every] == sorted((r.total for r in every), reverse=True)


@FACE
@given(variant=variants(), rng=st.randoms(use_true_random=False), data=st.data())
def test_estimate_bid_answers_or_refuses_whatever_it_is_given(variant, rng, data) -> None:
    call = data.draw(
        calls(
            {
                "hand": st.just(dealt(variant, rng)),
                "variant": st.just(variant),
                "deals": st.integers(1, 15),
                "seed": st.one_of(st.none(), st.integers(0, MAX_SEED)),
                "trumps": st.one_of(st.none(), st.lists(st.sampled_from(SUITS), max_size=2)),
                "confidence": st.floats(0.01, 0.99),
                "jobs": st.integers(1, 2**70),
                "endgame": st.integers(0, 2),
                "time_limit": st.one_of(st.none(), st.floats(1, 60)),
                "strong": st.sampled_from([0, 0, 0, 2]),
                "policy": st.sampled_from(["learned", "rules"]),
                "warnings": st.one_of(st.none(), st.lists(st.text(max_size=5), max_size=2)),
                "progress": st.one_of(st.none(), st.just(lambda done, total: None)),
            }
        )
    )
    report = _answers_or_refuses(meldcalc.estimate_bid, **call)
    if report is not None:
        deals = call["deals"]
        assert report.deals == deals and len(report.best.tricks) == deals
        assert all(0 <= p <= 1 for _, p in report.best.make)
        assert math.isfinite(report.best.expected_total)


#: Positions a few tricks from the end of single-deck deals, whose exact search is quick.
POSITIONS = [
    "AS 10S / KS 9H / QS 9D / JS 9C | trump S",
    "AS 10S KH / KS 9H QD / QS 9D AC / JS 9C 10C | trump H | leader 2",
    "AS 10S / KS / QS / JS | leader 1 | trick 9H 9D 9C",
    "AS AS / KS KS | trump S",
]
READ = [meldcalc.parse_position(text, SINGLE) for text in POSITIONS[:2]]


@FACE
@given(variant=variants(["single-deck"]), data=st.data())
def test_positions_are_read_and_solved_or_refused_whatever_they_are_given(variant, data) -> None:
    read = data.draw(
        calls(
            {
                "text": st.one_of(st.sampled_from(POSITIONS), st.text(max_size=30)),
                "variant": st.just(variant),
                "trump": st.one_of(st.none(), st.sampled_from(SUITS)),
                "leader": st.integers(0, 3),
            }
        )
    )
    position = _answers_or_refuses(meldcalc.parse_position, **read)
    solving = data.draw(
        calls(
            {
                "position": st.just(position) if position else st.sampled_from(READ),
                "variant": st.just(variant),
                "line": st.booleans(),
                "time_limit": st.one_of(st.none(), st.floats(1, 60)),
            }
        )
    )
    solved = _answers_or_refuses(meldcalc.solve, **solving)
    if solved is not None:
        assert 0 <= solved.value <= solving["position"].points_left(variant)
        assert solved.value in solved.cards.values() and solved.best_cards
