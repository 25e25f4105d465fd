"""Nothing impossible accepted: the session refuses melds, meld totals and trick points no
deal could give, saying the most there could be; `meldcalc score` refuses impossible meld
and trick counts; a step's word mistyped is told as such, in the play too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.errors import MeldcalcError
from meldcalc.game.session import apply, replay, start
from meldcalc.rules.cards import SUITS, Hand
from meldcalc.rules.holdings import most_meld, most_side_meld
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld

HAND = "hand AS 10S KS QS JS JD 9S AH AD AC KH QH"
AUCTION = [HAND, "300", "pass", "pass", "pass", "trump S"]
RULES = load_variant("single-deck")


def _table(steps: list[str], variant: str = "single-deck"):
    rules = load_variant(variant)
    return replay(start(rules, rules.players - 1), ["seat 0", *steps])


def _refused(steps: list[str], step: str) -> str:
    with pytest.raises(MeldcalcError) as error:
        apply(_table(steps), step, advise=False)
    return str(error.value)


def test_more_copies_of_a_card_across_the_seats_melds_than_the_deck_holds_is_refused() -> None:
    said = _refused([*AUCTION, "meld left AD QS JD"], "meld partner JD KD QD")
    assert "3 copies of 'JD' among your hand and the melds" in said
    assert "the single-deck deck holds 2" in said


def test_a_seat_shown_more_cards_than_its_hand_is_refused() -> None:
    said = _refused(AUCTION, "meld left KD QD KC QC KH QH 9S QS JD AD AC AH 10S")
    assert "seat 1 (left) is shown 13 cards" in said and "it holds 12" in said


@pytest.mark.parametrize("total", [5000, 1500])
def test_a_meld_total_the_seats_unseen_cards_cannot_make_is_refused_with_the_most(total) -> None:
    """With A♠ 10♠ K♠ Q♠ in your hand, partner holds no double run (1500): its twelve
    cards of those unseen meld 390 at most."""
    said = _refused(AUCTION, f"meld partner {total}")
    assert said == (
        f"meld {total}: the most seat 2 (partner) can meld from the cards it may hold (12 of"
        " those you have not seen) is 390: a typo?"
    )
    assert apply(_table(AUCTION), "meld partner 390").table.side_melds() == (710, 0)


def test_a_meld_typed_again_for_a_seat_says_what_it_replaces() -> None:
    table = _table([*AUCTION, "meld partner 120"])
    answer = apply(table, "meld partner 40")
    assert answer.lines == ["seat 2 (partner) melds 40 (in place of the 120 typed before)"]
    assert answer.table.side_melds() == (360, 0)


def test_trick_points_above_the_hands_total_say_the_most() -> None:
    steps = [*AUCTION, "meld left 0", "meld partner 0", "meld right 0"]
    assert _refused(steps, "tricks 500") == (
        "tricks '500': 500 trick points, but a hand has 210: the most is 210"
    )


def test_trick_points_the_tricks_played_contradict_are_refused() -> None:
    steps = [*AUCTION, "meld left 0", "meld partner 0", "meld right 0", "AS 9S 10S JS"]
    said = _refused(steps, "tricks 10")  # the bidding side took 20 in trick 1 already
    assert "seats 0 and 2 took 20 trick points in the tricks played already" in said


def test_trick_points_below_the_bidders_burial_say_what_was_buried() -> None:
    """The bidder's side counts its burial among its trick points: the error says so, not
    that tricks no one has played took them."""
    hand = "hand AS 10S KS QS JS JD 9S AH AD AC KH QH 9H 9C 9D"
    steps = [hand, "300", "pass", "pass", "widow 10S KD JC", "trump S", "bury KD JC 9H"]
    steps += ["meld left 20", "meld right 40"]
    with pytest.raises(MeldcalcError) as error:
        apply(_table(steps, "three-handed"), "tricks 0,100", advise=False)
    assert str(error.value) == (
        "tricks 0, 100, 150: seat 0 took 6 trick points (0 in the tricks played already, 6"
        " buried), not 0"
    )


@pytest.mark.parametrize(
    ("typed", "meant"), [("shwo", "show"), ("hnit", "hint"), ("trmp", "trump"), ("udno", "undo")]
)
def test_a_mistyped_step_in_the_play_is_told_as_a_step_not_a_card(typed, meant) -> None:
    steps = [*AUCTION, "meld left 0", "meld partner 0", "meld right 0"]
    assert _refused(steps, typed) == f"{typed!r}: not a step; did you mean {meant!r}?"


def test_cards_typed_in_one_line_are_played_in_turn_and_a_refused_one_takes_none() -> None:
    steps = [*AUCTION, "meld left 0", "meld partner 0", "meld right 0"]
    table = apply(_table(steps), "AS 9S 10S JS", advise=False).table
    assert len(table.played) == 4 and table.tricks()[0][2] == 0
    before = _table(steps)
    with pytest.raises(MeldcalcError, match="not in its hand as dealt"):
        apply(before, "AS 9S 10S JS 9C", advise=False)
    said = _refused(steps, "9D")  # refused: the next error counts no 9D played
    assert "9D" in said
    assert "AS" in _refused(steps, "10D") and "9D" not in _refused(steps, "10D")


def test_the_plays_errors_name_no_option_of_another_command() -> None:
    steps = [*AUCTION, "meld left QD QD", "meld partner 0", "meld right 0", "AS", "QS"]
    said = _refused(steps, "QD")  # partner cannot hold the QD left melded both of
    assert "--" not in said


def run_cli(argv: list[str]):
    from typer.testing import CliRunner

    from meldcalc.cli import app

    return CliRunner().invoke(app, argv)


def test_score_refuses_a_meld_no_hands_can_make() -> None:
    done = run_cli(
        ["score", "--bid", "300", "--bidder", "0", "--meld", "5000,80", "--tricks", "150"]
    )
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == (
        "meldcalc: error: --meld 5000,80: seats 0 and 2 cannot meld 5,000 in single-deck: the"
        " most its hands can meld is 3,600: a typo?\n"
    )


def test_score_refuses_more_trick_points_than_the_tricks_taken_hold() -> None:
    done = run_cli(["score", "--bid", "300", "--bidder", "0", "--meld", "500,80",
                    "--tricks", "200,10", "--tricks-taken", "1,11"])  # fmt: skip
    assert done.exit_code == 2
    assert "seats 0 and 2 took 200 trick points in 1 trick, but 1 can hold at most 50" in (
        done.stderr
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["single-deck", "double-deck", "check", "double-deck-toby-thomas"]),
       st.randoms(use_true_random=False))  # fmt: skip
def test_no_hand_from_the_cards_melds_more_than_the_most_and_a_whole_hand_reaches_it(
    name, rng
) -> None:
    """`most_meld` is a bound no hand of its cards passes (never a real meld refused), and
    exact where no meld reuses another's cards: a hand of exactly the cards meets it."""
    variant = load_variant(name)
    cards = variant.deck.cards()
    available = Hand.from_cards(rng.sample(cards, rng.randrange(variant.hand_size, len(cards))))
    trump = rng.choice(SUITS)
    most = most_meld(variant, trump, available, variant.hand_size)
    pool = list(available.cards())
    for _ in range(5):
        hand = Hand.from_cards(rng.sample(pool, variant.hand_size))
        assert best_meld(hand, variant, trump).total <= most
    hand = Hand.from_cards(rng.sample(pool, variant.hand_size))
    exact = most_meld(variant, trump, hand, variant.hand_size)
    assert exact >= best_meld(hand, variant, trump).total
    if not any(rule.reuses for rule in variant.melds):
        assert exact == best_meld(hand, variant, trump).total
    assert most <= most_side_meld(variant, 0, 0)


def test_the_most_a_seat_melds_in_single_deck_is_a_double_run_and_double_pinochle() -> None:
    deck = Hand.from_cards(RULES.deck.cards())
    assert most_meld(RULES, SUITS[0], deck, 12) == 1800
