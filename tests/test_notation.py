"""Hands as text: every spelling players use, the canonical form, and clear errors."""

from __future__ import annotations

import pytest

from meldcalc.cards import Card, Hand, Suit
from meldcalc.errors import HandError, NotationError
from meldcalc.meld import read_hand


def test_letter_symbol_and_ten_spellings_make_the_same_hand() -> None:
    expected = Hand.parse("AS 10S KS QS JS JD")
    for text in (
        "as,10s,ks,qs,js,jd",
        "A♠ T♠ K♠ Q♠ J♠ J♦",
        "a♤ 10♤ k♤, q♤ j♤ j♢",
        "TS AS KS QS JS JD",
    ):
        assert Hand.parse(text) == expected


def test_suit_grouped_form() -> None:
    assert Hand.parse("S: A 10 K Q J  D: J") == Hand.parse("AS 10S KS QS JS JD")
    assert Hand.parse("S:A 10, H: K Q QH") == Hand.parse("AS 10S KH QH QH")
    assert Hand.parse("♥: a t  ♣: 9 9") == Hand.parse("AH 10H 9C 9C")


def test_canonical_form_is_sorted_with_trump_first() -> None:
    hand = Hand.parse("JD 9C QS AH 10S KD")
    assert hand.notation() == "10S QS AH KD JD 9C"
    assert hand.notation(Suit.DIAMONDS) == "KD JD 10S QS AH 9C"


def test_parse_of_print_is_identity_and_repr_rebuilds() -> None:
    hand = Hand.parse("9C 9C AS JD QS QS")
    assert Hand.parse(hand.notation()) == hand
    assert eval(repr(hand)) == hand
    assert eval(repr(Card.parse("10h"))) == Card.parse("TH")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AS 10S KS 1S", "'1S' at column 11: a rank is one of A 10 K Q J 9"),
        ("AS AX", "'AX' at column 4: a suit is one of S H D C (or ♠ ♥ ♦ ♣)"),
        ("AS, zz", "'zz' at column 5: expected a card such as AS, 10H or Q♠"),
        ("A K Q", "'A' at column 1: a bare rank needs a suit group before it"),
        ("X: A K", "'X:' at column 1: a suit group starts with a suit and a colon"),
        ("S: A B", "'B' at column 6: expected a card"),
        ("", "empty hand"),
        ("  ,  ", "empty hand"),
        ("AS KSQS", "'KSQS' at column 4: KS is a card, then 'QS': separate cards with spaces"),
        ("10SS", "'10SS' at column 1: 10S is a card, then 'S': separate cards with spaces"),
        ("KS\x01QS", "the control character U+0001: expected cards such as AS"),
        ("S : A", "'S' at column 1: a suit on its own: write a suit group as 'S: A 10 K'"),
    ],
)
def test_bad_token_is_named_with_its_column(text: str, message: str) -> None:
    with pytest.raises(NotationError) as error:
        Hand.parse(text)
    assert message in str(error.value)


def test_more_copies_than_the_deck_holds_is_a_hand_error(single_deck) -> None:
    with pytest.raises(HandError, match="3 copies of 'AS': the single-deck deck holds 2"):
        read_hand("AS AS AS", single_deck)


def test_a_nine_in_double_deck_is_a_hand_error(double_deck) -> None:
    with pytest.raises(HandError, match="'9S' is not in the double-deck deck"):
        read_hand("AS 9S", double_deck)


def test_wrong_hand_size_warns_and_strict_refuses(single_deck) -> None:
    _, warnings = read_hand("AS KS", single_deck)
    assert warnings == ["the hand has 2 cards; single-deck deals 12"]
    with pytest.raises(HandError, match="--strict"):
        read_hand("AS KS", single_deck, strict=True)
    full = "AS 10S KS QS JS JD 9S 9S AH AD AC KH"
    assert read_hand(full, single_deck, strict=True)[1] == []
