"""Shuffling and dealing a variant's deck, reproducibly from a seed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meldcalc.rules.cards import CARDS, NUM_CARDS, Card, Hand
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Deal:
    """One deal: a hand per seat (seat 0 first, in playing order), the widow, the stock;
    where the variant turns trump up, the turn-up (the stock's first card, one of its
    cards) and ``drawn``, the rest of the stock face down in the order it is drawn, top
    first (the turn-up lies under it and is drawn last)."""

    hands: tuple[Hand, ...]
    widow: Hand
    stock: Hand
    turn_up: Card | None = None
    drawn: tuple[Card, ...] = ()


def deal(variant: Variant, rng: random.Random) -> Deal:
    """Shuffle the whole deck and deal it as the variant says."""
    cards = variant.deck.cards()
    rng.shuffle(cards)
    return _laid_out(variant, (), cards)


def deal_holding(variant: Variant, rng: random.Random, held: Hand) -> Deal:
    """A deal in which seat 0 holds ``held``: the rest of the deck shuffled and dealt to
    the other seats, the widow and the stock as `deal` deals them."""
    rest = variant.deck.cards()
    for card in held:
        rest.remove(card)
    rng.shuffle(rest)
    return _laid_out(variant, (held,), rest)


def _laid_out(variant: Variant, given: tuple[Hand, ...], cards: list[Card]) -> Deal:
    """``cards`` dealt in order after the ``given`` hands: a hand to each other seat, the
    widow, the stock (the turn-up its first card, where trump is turned up)."""
    size, seats = variant.hand_size, variant.players - len(given)
    dealt = [Hand.from_cards(cards[seat * size : (seat + 1) * size]) for seat in range(seats)]
    hands = (*given, *dealt)
    widow = Hand.from_cards(cards[seats * size : seats * size + variant.widow])
    stock = cards[seats * size + variant.widow :]
    if not variant.turns_up_trump:
        return Deal(hands, widow, Hand.from_cards(stock))
    return Deal(hands, widow, Hand.from_cards(stock), stock[0], tuple(stock[1:]))


def deals(variant: Variant, count: int | None, seed: int | None) -> Iterator[Deal]:
    """``count`` deals (endless when None); the same seed gives the same deals."""
    rng = random.Random(seed)
    dealt = 0
    while count is None or dealt < count:
        yield deal(variant, rng)
        dealt += 1


def deal_counts(
    variant: Variant, size: int, rng: np.random.Generator, bidder: Hand | None = None
) -> np.ndarray:
    """``size`` deals at once, as (size, players + 1, 24) per-card counts: a row per seat,
    then the widow. With ``bidder``, seat 0 holds that hand in every deal and the other
    cards are shuffled among the rest (what a bid simulates); the stock, if any, is left
    out."""
    import numpy as np

    held = bidder.counts if bidder is not None else (0,) * NUM_CARDS
    cards = [c.index for c in CARDS for _ in range(variant.deck.copies_of(c) - held[c.index])]
    shuffled = rng.permuted(np.tile(np.array(cards), (size, 1)), axis=1)
    counts = np.zeros((size, variant.players + 1, NUM_CARDS), dtype=np.int64)
    first = 0 if bidder is None else 1
    counts[:, 0] = held
    sizes = [variant.hand_size] * (variant.players - first) + [variant.widow]
    offsets = np.arange(size)[:, None] * NUM_CARDS
    start = 0
    for seat, width in enumerate(sizes, start=first):
        flat = (shuffled[:, start : start + width] + offsets).ravel()
        counts[:, seat] = np.bincount(flat, minlength=size * NUM_CARDS).reshape(size, NUM_CARDS)
        start += width
    return counts
