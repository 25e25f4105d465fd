"""Hands as text, and back.

Grammar (any case; separators are spaces and/or commas)::

    hand   := item (sep item)*
    item   := card | group
    card   := rank suit                       e.g. AS  10h  T♥  q♤
    group  := suit ":" rank (sep rank)*       e.g. S: A 10 K Q J   (also S:A 10)
    rank   := A | 10 | T | K | Q | J | 9
    suit   := S | H | D | C | ♠ | ♥ | ♦ | ♣ | ♤ | ♡ | ♢ | ♧

A group's bare ranks belong to its suit until the next group starts; whole cards may stand
anywhere. The canonical form that ``format_hand`` prints is the whole-card form, suit by
suit (trump first), high to low: ``AS 10S KS QS JS JD``.
"""

from __future__ import annotations

import re
import unicodedata

from meldcalc.cards import (
    CARD_NAMES,
    CARDS,
    NUM_CARDS,
    RANK_TOKENS,
    RANKS,
    SUIT_TOKENS,
    Card,
    Hand,
    Suit,
    card_order,
)
from meldcalc.errors import NotationError, quote

_RANK_HELP = "a rank is one of A 10 K Q J 9"
_SUIT_HELP = "a suit is one of S H D C (or ♠ ♥ ♦ ♣)"

#: Every spelling of every card, upper-cased, to its index: the fast path of the parser.
CARD_TOKENS: dict[str, int] = {
    rank_text + suit_text: suit.index * len(RANKS) + rank.index
    for rank_text, rank in RANK_TOKENS.items()
    for suit_text, suit in SUIT_TOKENS.items()
}

_TOKEN = re.compile(r"[^\s,]+")


def is_whole_number(text: str) -> bool:
    """Digits 0-9 only: Python's ``isdigit`` also takes ``²`` and ``٣``, which ``int``
    then refuses (or reads as a number nobody typed)."""
    return text.isascii() and text.isdigit()


def parse_card(text: str) -> Card:
    """One card token, e.g. ``AS`` or ``10♥``."""
    index = CARD_TOKENS.get(text.strip().upper())
    if index is None:
        raise NotationError(f"{quote(text)}: {_diagnose_card(text.strip())}")
    return CARDS[index]


#: Phones type suits in emoji style: the symbol followed by this variation selector.
_EMOJI_STYLE = "\ufe0f"
_SUIT_NAMES = {suit.name.lower(): suit for suit in Suit}
_SUIT_NAMES.update({name[:-1]: suit for name, suit in _SUIT_NAMES.items()})  # "spade"


def parse_suit(text: str) -> Suit:
    """A suit as hands write it (``S``, ``♠``, ``♤``, ``♠️``) or by name (``spades``)."""
    key = text.strip().replace(_EMOJI_STYLE, "")
    suit = SUIT_TOKENS.get(key.upper()) or _SUIT_NAMES.get(key.lower())
    if suit is None:
        raise NotationError(
            f"{quote(text)}: expected a suit: S H D C (or ♠ ♥ ♦ ♣, or spades, hearts,"
            " diamonds, clubs)"
        )
    return suit


#: Labels of cards dealt to no seat, in ``meldcalc deal --players`` output.
PILES = ("widow", "stock")

_LABEL = re.compile(r"\s*([A-Za-z]{2,}(?: \d+)?)\s*:\s*")


def split_label(line: str) -> tuple[str | None, str]:
    """``'seat 1: AS KS'`` -> ``('seat 1', 'AS KS')``: a line of ``meldcalc deal --players``
    names whose hand it is. A suit group (``S: A 10``) is not a label."""
    match = _LABEL.match(line)
    if match is None or match.group(1).upper() in SUIT_TOKENS:
        return None, line
    return match.group(1), line[match.end() :]


def parse_hand(text: str) -> Hand:
    """A hand from text in the grammar above; raises `NotationError` naming the bad token."""
    counts = [0] * NUM_CARDS
    tokens = text.replace(",", " ").replace(_EMOJI_STYLE, "").upper().split()
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
            upper = token.replace(_EMOJI_STYLE, "").upper()
            if upper in CARD_TOKENS:
                counts[CARD_TOKENS[upper]] += 1
            elif upper.endswith(":"):
                group = _group_suit(token, column)
            elif upper in RANK_TOKENS and group is not None:
                counts[group.index * len(RANKS) + RANK_TOKENS[upper].index] += 1
            elif upper in RANK_TOKENS:
                raise NotationError(
                    f"{quote(token)} at column {column}: a bare rank needs a suit group before it"
                    f" ('S: {token}') or a suit after it ('{token}S')"
                )
            else:
                raise NotationError(f"{quote(token)} at column {column}: {_diagnose_card(token)}")
    return counts


def _split_group(raw: str, column: int) -> list[tuple[str, int]]:
    """``'S:A'`` is a group header glued to its first rank: two tokens."""
    head, colon, rest = raw.partition(":")
    if not colon or not rest:
        return [(raw, column)]
    return [(head + colon, column), *_split_group(rest, column + len(head) + 1)]


def _group_suit(token: str, column: int) -> Suit:
    suit = SUIT_TOKENS.get(token[:-1].replace(_EMOJI_STYLE, "").upper())
    if suit is None:
        raise NotationError(
            f"{quote(token)} at column {column}: a suit group starts with a suit and a colon; "
            f"{_SUIT_HELP}"
        )
    return suit


def _diagnose_card(token: str) -> str:
    """Says what is wrong with a token that is not a card."""
    upper = token.upper()
    odd = next((char for char in token if unicodedata.category(char).startswith("C")), None)
    if odd is not None:
        return f"the control character U+{ord(odd):04X}: expected cards such as AS, 10H or Q♠"
    for length in (3, 2):  # a card glued to what follows it: 'KSQS', '10SS'
        if upper[:length] in CARD_TOKENS and len(upper) > length:
            rest = quote(token[length:])
            return f"{token[:length]} is a card, then {rest}: separate cards with spaces or commas"
    if upper in SUIT_TOKENS:
        return f"a suit on its own: write a suit group as '{token}: A 10 K' (colon after the suit)"
    if upper[-1:] in SUIT_TOKENS:
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
