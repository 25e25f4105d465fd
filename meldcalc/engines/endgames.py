"""Realistic random endgames: whole deals played down by random legal cards.

For testing and measuring the exact solver: positions with the cards that went gone, the
voids and the trumps where play left them, not just small random hands.
"""

from __future__ import annotations

import random

from meldcalc.dealing.deal import deal
from meldcalc.engines.solve import Position
from meldcalc.rules.cards import SUITS, Hand, Suit
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Variant


def random_endgame(
    variant: Variant,
    tricks: int,
    rng: random.Random,
    on_table: int = 0,
    leader: int = 0,
    trump: Suit | None = None,
) -> Position:
    """Deal, then play random legal cards from ``leader``'s lead until ``tricks`` tricks are
    left and ``on_table`` cards are on the table of the first of them; under ``trump``, or
    a random one."""
    hands = [list(hand.counts) for hand in deal(variant, rng).hands]
    trump = rng.choice(SUITS) if trump is None else trump
    trick: list[int] = []
    plays = (variant.hand_size - tricks) * variant.players + on_table
    for _ in range(plays):
        seat = (leader + len(trick)) % variant.players
        card = rng.choice(legal_cards(hands[seat], trick, trump, variant.head, variant.overtrump))
        hands[seat][card] -= 1
        trick.append(card)
        if len(trick) == variant.players:
            leader = (leader + winning_position(trick, trump)) % variant.players
            trick = []
    return Position(tuple(Hand(hand) for hand in hands), trump, leader, tuple(trick))
