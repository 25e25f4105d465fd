"""Hands as text: every spelling players use, the canonical form, and clear errors."""

from __future__ import annotations

import pytest

from meldcalc.errors import HandError, NotationError
from meldcalc.rules.cards import Card, Hand, Suit
from meldcalc.rules.meld import read_hand


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
        ("AS \udcff", "'\\udcff' at column 4: byte 0xff is not UTF-8: expected cards such as AS"),
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


@pytest.mark.parametrize(
    "text",
    ["SA S10 SK SQ SJ DJ", "♠A ♠10 ♠K ♠Q ♠J ♦J", "sa st sk, sq sj dj", "♠️A ♠️10 ♠K ♠Q ♠J ♦️J"],
)
def test_a_card_may_be_written_suit_first(text: str) -> None:
    assert Hand.parse(text) == Hand.parse("AS 10S KS QS JS JD")


def test_a_suit_symbol_passed_as_undecoded_bytes_is_the_suit() -> None:
    """A command line in a locale that is not UTF-8 (Python's UTF-8 mode off) hands over
    ``A♠`` as its bytes escaped one by one; they are read again as UTF-8."""
    from meldcalc.rules.cards import parse_card, parse_suit

    escaped = "♠".encode().decode("ascii", "surrogateescape")
    assert Hand.parse(f"A{escaped} 10{escaped}") == Hand.parse("AS 10S")
    assert parse_card(f"K{escaped}").index == parse_card("KS").index
    assert parse_suit(escaped) is Suit.SPADES


def test_a_suit_symbol_in_emoji_or_text_style_is_the_suit() -> None:
    """Phones add a variation selector after a suit symbol: U+FE0F (emoji style) or
    U+FE0E (text style); either is read past, in a hand, a card alone and a suit."""
    from meldcalc.rules.cards import parse_card, parse_suit

    for style in ("\ufe0f", "\ufe0e"):
        assert Hand.parse(f"A♠{style} 10♠{style} ♦{style}J") == Hand.parse("AS 10S JD")
        assert Hand.parse(f"♠{style}: A 10") == Hand.parse("AS 10S")
        assert parse_card(f"A♠{style}").index == parse_card("AS").index
        assert parse_suit(f"♥{style}") == parse_suit("H")


@pytest.mark.parametrize(
    "text",
    ["S: AKQJ10 D: J", "S: A10KQJ D:J", "s:atkqj d:j", "S: AK QJ 10  D: J", "S:AKQJT DJ"],
)
def test_a_groups_ranks_may_run_together(text: str) -> None:
    assert Hand.parse(text) == Hand.parse("AS 10S KS QS JS JD")


@pytest.mark.parametrize(
    "text", ["spades: A 10 K Q J  diamonds: J", "Spades:A10KQJ Diamond: J", "spade: A10KQJ JD"]
)
def test_a_group_may_name_its_suit_as_trump_options_do(text: str) -> None:
    assert Hand.parse(text) == Hand.parse("AS 10S KS QS JS JD")


def test_a_suit_named_group_is_not_taken_for_a_seats_label() -> None:
    from meldcalc.rules.notation import split_label

    assert split_label("spades: A K Q") == (None, "spades: A K Q")
    assert split_label("seat 1: AS KS") == ("seat 1", "        AS KS")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AKQJ", "'AKQJ' at column 1: ranks written together need a suit group before them"),
        ("S: AKQX", "'AKQX' at column 4: 'X' at column 7 starts no rank; a rank is one of"),
        ("S: A01KQJ", "'A01KQJ' at column 4: '0' at column 5 starts no rank"),
        ("spades A K Q", "'spades' at column 1: a suit on its own: write a suit group as"),
        ("SX", "'SX' at column 1: a rank is one of A 10 K Q J 9"),
        ("sword: A", "'sword:' at column 1: a suit group starts with a suit and a colon"),
    ],
)
def test_what_is_still_not_a_hand_says_what_to_write(text: str, message: str) -> None:
    with pytest.raises(NotationError) as error:
        Hand.parse(text)
    assert message in str(error.value)
