"""The plain reference for the exact solver: minimax over the trick rules, memoised.

No cleverness beyond the memo: every legal card is tried in every position. It is slow (a
few tricks at most) and meant to be obviously right, for tests to hold the C search to.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from meldcalc.engines.solve import Position, seat_sides
from meldcalc.rules.cards import NUM_CARDS, RANKS
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Variant

State = tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...]]  # hands, leader, trick


def card_values(position: Position, variant: Variant) -> dict[int, int]:
    """The points seat 0's side takes after each legal card of the seat to play."""
    value = _value_function(position, variant)
    hands = tuple(hand.counts for hand in position.hands)
    seat = position.to_play
    return {
        card: value(*_play(hands, position.leader, position.trick, seat, card))
        for card in _legal(position, variant, hands[seat], position.trick)
    }


def best(position: Position, variant: Variant) -> tuple[int, set[int]]:
    """The position's value and the cards that keep it."""
    values = card_values(position, variant)
    pick = max if seat_sides(variant)[position.to_play] == 0 else min
    value = pick(values.values())
    return value, {card for card, after in values.items() if after == value}


def _legal(
    position: Position, variant: Variant, counts: tuple[int, ...], trick: tuple[int, ...]
) -> list[int]:
    return legal_cards(counts, trick, position.trump, variant.head, variant.overtrump)


def _play(
    hands: tuple[tuple[int, ...], ...], leader: int, trick: tuple[int, ...], seat: int, card: int
) -> State:
    hand = list(hands[seat])
    hand[card] -= 1
    return (*hands[:seat], tuple(hand), *hands[seat + 1 :]), leader, (*trick, card)


def _value_function(position: Position, variant: Variant) -> Callable[..., int]:
    """value(hands, leader, trick): the points seat 0's side takes from that state on."""
    players, sides = variant.players, seat_sides(variant)
    counter = [variant.counters.get(RANKS[card % len(RANKS)], 0) for card in range(NUM_CARDS)]

    @cache
    def value(hands: tuple[tuple[int, ...], ...], leader: int, trick: tuple[int, ...]) -> int:
        if len(trick) == players:
            winner = (leader + winning_position(trick, position.trump)) % players
            last = not any(map(any, hands))
            points = sum(counter[card] for card in trick) + (variant.last_trick if last else 0)
            return (points if sides[winner] == 0 else 0) + value(hands, winner, ())
        if not trick and not any(map(any, hands)):
            return 0
        seat = (leader + len(trick)) % players
        after = [
            value(*_play(hands, leader, trick, seat, card))
            for card in _legal(position, variant, hands[seat], trick)
        ]
        return max(after) if sides[seat] == 0 else min(after)

    return value
