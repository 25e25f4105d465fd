"""What every quiz question shares: its kind and theme, its rating, its text, and how an
answer is read, judged and explained.

A question is data the CLI prints and grades: ``lines`` (the situation), ``prompt`` (one
line ending in ``? ``), `read` (a typed answer to a value, or `MeldcalcError` saying what
was expected), `is_right`, `right_answer`, `why` (one sentence on a wrong answer: the
likely mistake, before the breakdown) and `explanation` (the breakdown, said after every
answer). The kinds live in their own modules (`meldquiz`, `playquiz`, `tablequiz`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldcalc.errors import MeldcalcError, quote
from meldcalc.learning.kinds import KIND_NAMES
from meldcalc.rules.cards import Card, Hand, Suit


@dataclass(frozen=True)
class Question:
    """One question. Subclasses read, judge and explain their kind's answers."""

    kind: str
    theme: str
    rating: int
    lines: tuple[str, ...]
    prompt: str

    def read(self, text: str) -> Any:
        raise NotImplementedError

    def is_right(self, answer: Any) -> bool:
        raise NotImplementedError

    def right_answer(self) -> str:
        raise NotImplementedError

    def why(self, answer: Any) -> str | None:
        """The likely mistake behind a wrong ``answer``, in one sentence; None if unknown."""
        return None

    def explanation(self) -> list[str]:
        return []

    @property
    def label(self) -> str:
        """``meld total · reuse``: the card this question reviews."""
        return card_label(self.kind, self.theme)


@dataclass(frozen=True)
class NumberQuestion(Question):
    """A question whose answer is one whole number (`number`): read, judged and said alike."""

    #: What the prompt's error offers as a sample answer.
    example = "190"

    @property
    def number(self) -> int:
        raise NotImplementedError

    def read(self, text: str) -> int:
        return read_number(text, self.example)

    def is_right(self, answer: int) -> bool:
        return answer == self.number

    def right_answer(self) -> str:
        return str(self.number)


def card_label(kind: str, theme: str) -> str:
    return f"{KIND_NAMES.get(kind, kind)} · {theme}"


def pretty(card: Card) -> str:
    """A card as players read it: ``K♣``."""
    return f"{card.rank.value}{card.suit.symbol}"


def article(card: Card) -> str:
    """``an`` before an ace, ``a`` before the rest: ``an A♦``, ``a Q♣``."""
    return "an" if card.rank.value == "A" else "a"


def pretty_cards(cards: Sequence[Card]) -> str:
    return " ".join(pretty(card) for card in cards)


def suit_words(suit: Suit) -> str:
    """``♠ (S)``: how an answer names a suit, as ``-t`` reads it."""
    return f"{suit.symbol} ({suit.letter})"


def listed(words: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# --- reading answers -------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?\d{1,9}")


def read_number(text: str, example: str = "190") -> int:
    """A whole number of 0 or more (every answer asked for one is: a total, a count, a
    bid), surrounding blanks allowed; a minus sign or a number longer than any answer is a
    typo, refused as one rather than judged wrong."""
    body = text.strip()
    if not _NUMBER.fullmatch(body):
        if body.isascii() and body.isdigit():
            raise MeldcalcError(f"{quote(body)}: too large for an answer here, such as {example}")
        raise MeldcalcError(f"{quote(body)}: expected a whole number such as {example}")
    if body.startswith("-") and int(body):
        raise MeldcalcError(f"{quote(body)}: the answer is 0 or more, such as {example}")
    return int(body)


def read_numbers(text: str, count: int, example: str) -> tuple[int, ...]:
    """``count`` whole numbers separated by commas or blanks (``330, -250``); a leading
    ``made`` or ``set`` is read past (the numbers say which it was)."""
    body = re.sub(r"^\s*(made|set)\b[:,]?", "", text.strip(), flags=re.IGNORECASE)
    parts = [part for part in re.split(r"[\s,;/]+", body) if part]
    if len(parts) != count or not all(_NUMBER.fullmatch(part) for part in parts):
        raise MeldcalcError(
            f"{quote(text.strip())}: expected {count} whole numbers, one per side, such as"
            f" {example}"
        )
    return tuple(int(part) for part in parts)


def read_cards(text: str) -> Hand:
    """Cards as hands are written (``10H KH``, ``10♥ K♥``); ``none`` for no card."""
    if text.strip().lower() in ("none", "-", "nothing"):
        return Hand([0] * 24)
    return Hand.parse(text)


def read_word(text: str, words: dict[str, Any], expected: str) -> Any:
    """One of ``words`` (any case), or a whole number."""
    body = text.strip().lower()
    if body in words:
        return words[body]
    if _NUMBER.fullmatch(body):
        return int(body)
    raise MeldcalcError(f"{quote(text.strip())}: expected {expected}")
