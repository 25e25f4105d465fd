"""Suits, ranks, cards and hands, and their text.

A card is an index 0..23 (suit-major, ranks high to low inside a suit), so a hand is a
tuple of 24 per-card counts: pinochle decks hold identical cards, a hand is a multiset.

Hands as text. Grammar (any case; separators are spaces and/or commas)::

    hand   := item (sep item)*
    item   := card | group
    card   := rank suit | suit rank           e.g. AS  10h  T♥  q♤   SA  ♠10
    group  := name ":" ranks (sep ranks)*     e.g. S: A 10 K Q J   S:AKQJ   spades: A10K
    ranks  := rank+                           ranks written together: A10KQJ, ATKQJ
    rank   := A | 10 | T | K | Q | J | 9
    suit   := S | H | D | C | ♠ | ♥ | ♦ | ♣ | ♤ | ♡ | ♢ | ♧
    name   := suit | spades | hearts | diamonds | clubs (also spade, heart ...)

A group's bare ranks belong to its suit until the next group starts; whole cards may stand
anywhere. No spelling is two cards: a rank never starts with a suit's letter, nor a suit
with a rank's. The canonical form that ``format_hand`` prints is the whole-card form, suit by
suit (trump first), high to low: ``AS 10S KS QS JS JD``.
"""

from __future__ import annotations

import enum
import operator
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from meldcalc.errors import HandError, NotationError, did_you_mean, quote


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
        counts = tuple(map(operator.index, counts))  # whole numbers (numpy's too), else TypeError
        if len(counts) != NUM_CARDS or min(counts) < 0:
            raise HandError(f"a hand needs {NUM_CARDS} non-negative counts, got {quote(counts)}")
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
        return parse_hand(text)

    def notation(self, trump: Suit | None = None) -> str:
        """The canonical text: cards high to low, suit by suit, the trump suit first."""
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


# --- text ----------------------------------------------------------------------------------

_RANK_HELP = "a rank is one of A 10 K Q J 9"
_SUIT_HELP = "a suit is one of S H D C (or ♠ ♥ ♦ ♣)"

#: Every spelling of every card, upper-cased, to its index: the fast path of the parser.
#: Rank then suit (``AS``) or suit then rank (``SA``, ``♠10``), as players write them.
CARD_TOKENS: dict[str, int] = {
    spelling: suit.index * len(RANKS) + rank.index
    for rank_text, rank in RANK_TOKENS.items()
    for suit_text, suit in SUIT_TOKENS.items()
    for spelling in (rank_text + suit_text, suit_text + rank_text)
}
#: Ranks as a group writes them run together: ``10`` is the only rank of two characters.
_RANK_RUN = re.compile(r"(?:10|[AKQJT9])+")

_TOKEN = re.compile(r"[^\s,]+")


def _check_text(text: object) -> str:
    """Text is parsed; anything else is a `TypeError` (a script's mistake, not a typo).
    Returns the text with the bytes Python could not decode read again as UTF-8: a command
    line in a locale that is not UTF-8 arrives as ``'A\\udce2\\udc99\\udca0'`` for ``A♠``.
    Bytes that are not UTF-8 either stay escaped, for the error to name."""
    if not isinstance(text, str):
        raise TypeError(f"expected text (str) to parse, got {type(text).__name__} {quote(text)}")
    if text.isascii():
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        return text


def parse_card(text: str) -> Card:
    """One card token, e.g. ``AS`` or ``10♥``."""
    text = _check_text(text)
    index = CARD_TOKENS.get(text.strip().translate(_STYLES).upper())
    if index is None:
        raise NotationError(f"{quote(text)}: {_diagnose_card(text.strip())}")
    return CARDS[index]


#: Phones type suits in emoji style, the symbol followed by a variation selector (U+FE0F;
#: U+FE0E asks for text style): either is read past.
_STYLES = str.maketrans("", "", "\ufe0e\ufe0f")
_SUIT_NAMES = {suit.name.lower(): suit for suit in Suit}
_SUIT_NAMES.update({name[:-1]: suit for name, suit in _SUIT_NAMES.items()})  # "spade"


def parse_suit(text: str) -> Suit:
    """A suit as hands write it (``S``, ``♠``, ``♤``, ``♠️``) or by name (``spades``)."""
    text = _check_text(text)
    key = text.strip().translate(_STYLES)
    suit = SUIT_TOKENS.get(key.upper()) or _SUIT_NAMES.get(key.lower())
    if suit is None:
        raise NotationError(
            f"{quote(text)}: expected a suit: S H D C (or ♠ ♥ ♦ ♣, or spades, hearts,"
            f" diamonds, clubs){did_you_mean(key, _SUIT_NAMES)}"
        )
    return suit


def parse_hand(text: str) -> Hand:
    """A hand from text in the grammar above; raises `NotationError` naming the bad token."""
    text = _check_text(text)
    counts = [0] * NUM_CARDS
    tokens = text.replace(",", " ").translate(_STYLES).upper().split()
    try:
        for token in tokens:
            counts[CARD_TOKENS[token]] += 1
    except KeyError:
        counts = _parse_hand_slowly(text)
    if not any(counts):
        raise NotationError(f"{quote(text)}: empty hand, expected cards such as 'AS 10S KS'")
    return Hand(counts)


def _parse_hand_slowly(text: str) -> list[int]:
    """The full grammar, with suit groups and positioned errors: per-card counts."""
    counts = [0] * NUM_CARDS
    group: Suit | None = None
    for match in _TOKEN.finditer(text):
        for token, column in _split_group(match.group(), match.start() + 1):
            upper = token.translate(_STYLES).upper()
            if upper in CARD_TOKENS:
                counts[CARD_TOKENS[upper]] += 1
            elif upper.endswith(":"):
                group = _group_suit(token, column)
            elif _RANK_RUN.fullmatch(upper) and group is not None:
                for rank in _ranks_of(upper):
                    counts[group.index * len(RANKS) + rank.index] += 1
            elif upper in RANK_TOKENS:
                raise NotationError(
                    f"{quote(token)} at column {column}: a bare rank needs a suit group before it"
                    f" ('S: {token}') or a suit after it ('{token}S')"
                )
            elif _RANK_RUN.fullmatch(upper):
                raise NotationError(
                    f"{quote(token)} at column {column}: ranks written together need a suit group"
                    f" before them ('S: {token if len(token) <= 12 else 'AKQJ'}')"
                )
            elif group is not None and upper[:1] in "AKQJT91":  # ranks, one of them amiss
                raise NotationError(_rank_run_problem(token, column))
            else:
                raise NotationError(f"{quote(token)} at column {column}: {_diagnose_card(token)}")
    return counts


def _split_group(raw: str, column: int) -> list[tuple[str, int]]:
    """``'S:A'`` is a group header glued to its first rank: two tokens."""
    head, colon, rest = raw.partition(":")
    if not colon or not rest:
        return [(raw, column)]
    return [(head + colon, column), *_split_group(rest, column + len(head) + 1)]


def _rank_run_problem(token: str, column: int) -> str:
    """What spoils a group's run of ranks at ``column``: the first character starting none."""
    at = _RANK_RUN.match(token.upper())
    start = at.end() if at else 0
    return (
        f"{quote(token)} at column {column}: {quote(token[start])} at column {column + start}"
        f" starts no rank; {_RANK_HELP}"
    )


def _ranks_of(run: str) -> list[Rank]:
    """``'A10KQJ'`` -> A, 10, K, Q, J (``run`` upper-cased and all ranks)."""
    return [RANK_TOKENS[text] for text in re.findall(r"10|.", run)]


def is_suit_name(text: str) -> bool:
    """Whether ``text`` names a suit as a group may (``S``, ``♠``, ``spades``)."""
    key = text.strip().translate(_STYLES)
    return key.upper() in SUIT_TOKENS or key.lower() in _SUIT_NAMES


def _group_suit(token: str, column: int) -> Suit:
    if not is_suit_name(token[:-1]):
        raise NotationError(
            f"{quote(token)} at column {column}: a suit group starts with a suit and a colon; "
            f"{_SUIT_HELP}, or its name"
        )
    return parse_suit(token[:-1])


def _diagnose_card(token: str) -> str:
    """Says what is wrong with a token that is not a card."""
    upper = token.upper()
    odd = next((char for char in token if unicodedata.category(char).startswith("C")), None)
    if odd is not None and 0xDC80 <= ord(odd) <= 0xDCFF:  # a byte escaped by _check_text
        return f"byte 0x{ord(odd) - 0xDC00:02x} is not UTF-8: expected cards such as AS, 10H or Q♠"
    if odd is not None:
        return f"the control character U+{ord(odd):04X}: expected cards such as AS, 10H or Q♠"
    for length in (3, 2):  # a card glued to what follows it: 'KSQS', '10SS'
        if upper[:length] in CARD_TOKENS and len(upper) > length:
            rest = quote(token[length:])
            return f"{token[:length]} is a card, then {rest}: separate cards with spaces or commas"
    if upper in SUIT_TOKENS or is_suit_name(token):
        return f"a suit on its own: write a suit group as '{token}: A 10 K' (colon after the suit)"
    if upper[-1:] in SUIT_TOKENS or upper[:1] in SUIT_TOKENS:
        return _RANK_HELP
    if upper[:2] in RANK_TOKENS or upper[:1] in RANK_TOKENS:
        return _SUIT_HELP
    return f"expected a card such as AS, 10H or Q♠ ({_RANK_HELP}; {_SUIT_HELP})"


def format_hand(hand: Hand, trump: Suit | None = None) -> str:
    """The canonical text of a hand: ``AS 10S KS QS JS JD``."""
    counts = hand.counts
    return " ".join([_copies(i, counts[i]) for i in card_order(trump) if counts[i]])


def _copies(card: int, count: int) -> str:
    """``'AS AS'`` for two aces of spades; the common counts are prepared once."""
    common = _COPIES[card]
    return common[count] if count < len(common) else " ".join([CARD_NAMES[card]] * count)


_COPIES = [[" ".join([name] * n) for n in range(5)] for name in CARD_NAMES]
