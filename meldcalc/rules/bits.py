"""Cards as bits: the rank-major masks the vectorised play works in, and their operations.

A hand is an int32 mask of 24 bits laid out rank-major (bit = rank * 4 + suit), so the
lowest set bit of a mask is its highest card and the highest set bit its lowest card, and
the cards of a suit are 4 bits apart. `meldcalc.engines.simulate` plays with these, and the
dealers (`meldcalc.dealing`) hand their deals over in this form (`planes_from_counts`).
"""

from __future__ import annotations

import numpy as np

from meldcalc.rules.cards import NUM_CARDS, RANKS, SUITS

BITS = len(SUITS) * len(RANKS)
#: 24 cards fit an int32; narrow arrays halve the memory traffic of every operation
MASK = np.int32
#: rank-major bit of each canonical card index (suit * 6 + rank) and back
BIT_OF = np.array([(i % len(RANKS)) * 4 + i // len(RANKS) for i in range(NUM_CARDS)])
CARD_OF = np.argsort(BIT_OF)
SUIT_MASK = np.array([sum(1 << (r * 4 + s) for r in range(len(RANKS))) for s in range(4)], MASK)
ABOVE = (MASK(1) << np.arange(BITS, dtype=MASK)) - 1  # bits of higher-ranked cards
ONE = MASK(1)


def lowest_bit_index(mask: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit (the highest card); undefined where mask is 0."""
    return np.frexp((mask & -mask).astype(np.float32))[1] - 1  # exact below 2**24


def highest_bit_index(mask: np.ndarray) -> np.ndarray:
    """Index of the highest set bit (the lowest card); undefined where mask is 0."""
    return np.frexp(mask.astype(np.float32))[1] - 1


def outranked(mask: np.ndarray) -> np.ndarray:
    """The cards outranked by some card of the same suit in ``mask`` (suits are 4 bits apart
    in the rank-major layout, so shifting by multiples of 4 moves a card down its suit)."""
    below = mask << 4
    for _ in range(len(RANKS) - 2):
        below |= below << 4
    return below


def prefer(cards: np.ndarray, better: np.ndarray) -> np.ndarray:
    """``better`` in the deals where it holds a card, else ``cards``."""
    return np.where(better != 0, better, cards)


def singletons(mask: np.ndarray) -> np.ndarray:
    """The cards of ``mask`` that are alone in their suit."""
    alone = np.zeros_like(mask)
    for suit in SUIT_MASK:
        cards = mask & suit
        alone |= np.where(np.bitwise_count(cards) == 1, cards, 0)
    return alone


def suits_of(mask: np.ndarray) -> np.ndarray:
    """The suits (a 4-bit nibble) with a card in ``mask``: rank-major bits fold onto the
    lowest nibble."""
    folded = mask | (mask >> 4)
    folded |= folded >> 8
    return (folded | (folded >> 16)) & 0xF


def of_suits(suits: np.ndarray) -> np.ndarray:
    """Every card of the suits of a 4-bit nibble."""
    return (suits & 0xF) * MASK(0x111111)


def planes_from_counts(counts: np.ndarray, copies: int) -> np.ndarray:
    """(..., 24 canonical counts) -> (copies, ...) rank-major masks."""
    ordered = counts[..., CARD_OF]  # rank-major: bit b is column b
    planes = np.zeros((copies, *ordered.shape[:-1], 4), dtype=np.uint8)
    for k in range(copies):
        planes[k, ..., :3] = np.packbits(ordered > k, axis=-1, bitorder="little")
    return planes.view("<i4")[..., 0].astype(MASK)


def counts_from_planes(planes: np.ndarray) -> np.ndarray:
    """(copies, ...) masks -> (..., 24) canonical counts."""
    bits = (planes[..., None] >> BIT_OF.astype(MASK)) & 1
    return bits.sum(axis=0)
