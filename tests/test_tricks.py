"""The trick rules, a case for every clause of RULES.md "Trick play"."""

from __future__ import annotations

from meldcalc.rules.cards import Card, Hand, Suit
from meldcalc.rules.tricks import legal_cards, winning_position


def cards(text: str) -> list[int]:
    return [Card.parse(token).index for token in text.split()]


def legal(hand: str, trick: str, trump: Suit = Suit.HEARTS, **duties) -> set[str]:
    counts = Hand.parse(hand).counts
    played = cards(trick) if trick else []
    return {str(Card.from_index(c)) for c in legal_cards(counts, played, trump, **duties)}


def test_the_leader_may_play_anything() -> None:
    assert legal("AS 9D KH", "") == {"AS", "9D", "KH"}


def test_a_follower_must_follow_suit_and_head_the_trick() -> None:
    assert legal("AS 9S KH", "10S") == {"AS"}


def test_unable_to_head_any_card_of_the_led_suit_will_do() -> None:
    assert legal("QS 9S KH", "10S") == {"QS", "9S"}


def test_a_trumped_trick_need_not_be_headed() -> None:
    assert legal("AS 9S", "10S 9H") == {"AS", "9S"}


def test_void_in_the_led_suit_must_trump_and_overtrump() -> None:
    assert legal("AH 9H AC", "10S") == {"AH", "9H"}
    assert legal("AH 9H AC", "10S JH") == {"AH"}


def test_unable_to_overtrump_must_still_trump() -> None:
    assert legal("JH 9H AC", "10S QH") == {"JH", "9H"}


def test_void_in_both_may_play_anything() -> None:
    assert legal("AC 9D", "10S") == {"AC", "9D"}


def test_variant_duties_head_only_when_trump_is_led_and_no_overtrump() -> None:
    assert legal("AS 9S", "10S", head="trump-led") == {"AS", "9S"}
    assert legal("AH 9H", "10H", head="trump-led") == {"AH"}
    assert legal("AH 9H AC", "10S JH", overtrump=False) == {"AH", "9H"}


def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    assert winning_position(cards("AS 9H 10S"), Suit.HEARTS) == 1
    assert winning_position(cards("KS AD 10S QS"), Suit.HEARTS) == 2


def test_of_identical_cards_the_first_played_wins() -> None:
    assert winning_position(cards("10S AS AS"), Suit.HEARTS) == 1
    assert winning_position(cards("AS 9H 9H"), Suit.HEARTS) == 1
