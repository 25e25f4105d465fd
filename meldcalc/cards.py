"""Suits, ranks, cards and hands.

A card is an index 0..23 (suit-major, ranks high to low inside a suit), so a hand is a
tuple of 24 per-card counts: pinochle decks hold identical cards, a hand is a multiset.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import NamedTuple


class Suit(enum.Enum):
    """The four suits, in the order meldcalc prints them."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons: identity hashing is right, and far cheaper than Enum's.
    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]


class Rank(enum.Enum):
    """The six ranks, high to low."""

    ACE = "A"
    TEN = "10"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"

    __hash__ = object.__hash__

    @property
    def index(self) -> int:
        return _RANK_INDEX[self]


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

SUIT_TOKENS: dict[str, Suit] = {suit.letter: suit for suit in SUITS}
SUIT_TOKENS.update({suit.symbol: suit for suit in SUITS})
SUIT_TOKENS.update(zip("♤♡♢♧", SUITS))
RANK_TOKENS: dict[str, Rank] = {rank.value: rank for rank in RANKS}
RANK_TOKENS["T"] = Rank.TEN

NUM_CARDS = len(SUITS) * len(RANKS)


class Card(NamedTuple):
    """One card: a rank of a suit. ``Card.parse('10S')`` and ``str(card)`` round-trip."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return self.suit.index * len(RANKS) + self.rank.index

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from one token such as ``AS``, ``10♥``, ``tc`` or ``q♤``."""
        from meldcalc.notation import parse_card

        return parse_card(text)

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
CARD_NAMES: tuple[str, ...] = tuple(str(card) for card in CARDS)


class Hand:
    """A multiset of cards, stored as 24 per-card counts.

    Hands are immutable and hashable; equal counts make equal hands, whatever the order the
    cards were written in.
    """

    __slots__ = ("counts",)

    counts: tuple[int, ...]

    def __init__(self, counts: Iterable[int]) -> None:
        counts = tuple(counts)
        if len(counts) != NUM_CARDS or min(counts) < 0:
            raise ValueError(f"a hand needs {NUM_CARDS} non-negative counts, got {counts!r}")
        object.__setattr__(self, "counts", counts)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    def __reduce__(self) -> tuple[type[Hand], tuple[tuple[int, ...]]]:
        return Hand, (self.counts,)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Hand:
        counts = [0] * NUM_CARDS
        for card in cards:
            counts[card.index] += 1
        return cls(counts)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """A hand from text: ``"AS 10S KS, QS JS JD"`` or ``"S: A 10 K Q J  D: J"``."""
        from meldcalc.notation import parse_hand

        return parse_hand(text)

    def notation(self, trump: Suit | None = None) -> str:
        """The canonical text: cards high to low, suit by suit, the trump suit first."""
        from meldcalc.notation import format_hand

        return format_hand(self, trump)

    def cards(self, trump: Suit | None = None) -> list[Card]:
        """Every card, copies repeated, in canonical order (trump suit first when given)."""
        return [CARDS[i] for i in card_order(trump) for _ in range(self.counts[i])]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[card.index]

    def __add__(self, other: Hand) -> Hand:
        return Hand(a + b for a, b in zip(self.counts, other.counts))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.counts == other.counts

    def __hash__(self) -> int:
        return hash(self.counts)

    def __repr__(self) -> str:
        return f"Hand.parse({self.notation()!r})"


def suit_order(trump: Suit | None) -> tuple[Suit, ...]:
    """S H D C, with the trump suit moved to the front."""
    if trump is None:
        return SUITS
    return (trump, *(suit for suit in SUITS if suit is not trump))


def card_order(trump: Suit | None = None) -> tuple[int, ...]:
    """Card indices in canonical printing order."""
    return _CARD_ORDER[trump]


_CARD_ORDER = {
    trump: tuple(
        suit.index * len(RANKS) + rank.index for suit in suit_order(trump) for rank in RANKS
    )
    for trump in (None, *SUITS)
}


def cards_text(count: int) -> str:
    """``'1 card'``, ``'12 cards'``."""
    return f"{count} card{'' if count == 1 else 's'}"
