"""Shuffling and dealing a variant's deck, reproducibly from a seed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from meldcalc.cards import Hand
from meldcalc.variant import Variant


@dataclass(frozen=True)
class Deal:
    """One deal: a hand per seat (seat 0 first, in playing order), the widow, the stock."""

    hands: tuple[Hand, ...]
    widow: Hand
    stock: Hand


def deal(variant: Variant, rng: random.Random) -> Deal:
    """Shuffle the whole deck and deal it as the variant says."""
    cards = variant.deck.cards()
    rng.shuffle(cards)
    size = variant.hand_size
    hands = tuple(
        Hand.from_cards(cards[seat * size : (seat + 1) * size]) for seat in range(variant.players)
    )
    dealt = variant.players * size
    widow = Hand.from_cards(cards[dealt : dealt + variant.widow])
    return Deal(hands, widow, Hand.from_cards(cards[dealt + variant.widow :]))


def deals(variant: Variant, count: int | None, seed: int | None) -> Iterator[Deal]:
    """``count`` deals (endless when None); the same seed gives the same deals."""
    rng = random.Random(seed)
    dealt = 0
    while count is None or dealt < count:
        yield deal(variant, rng)
        dealt += 1
