"""The meld quiz: deal a hand and a trump, ask for the total, grade the answer; or deal a
hand and ask which trump melds best."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from meldcalc.dealing.deal import deal
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import SUITS, Hand, Suit, parse_suit
from meldcalc.rules.meld import MeldResult, best_meld
from meldcalc.rules.variant import Variant


@dataclass(frozen=True)
class Question:
    number: int
    hand: Hand
    trump: Suit
    answer: MeldResult

    def prompt(self) -> str:
        return (
            f"round {self.number}: trump {self.trump.letter} {self.trump.symbol}\n"
            f"  {self.hand.notation(self.trump)}\n"
            "your meld total? "
        )

    def read(self, text: str) -> int:
        return read_answer(text)

    def is_right(self, total: int) -> bool:
        return total == self.answer.total

    def right_answer(self) -> str:
        return str(self.answer.total)


def questions(variant: Variant, rounds: int, seed: int | None) -> Iterator[Question]:
    """``rounds`` questions: seat 0's hand of a fresh deal, and a random trump."""
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        hand = deal(variant, rng).hands[0]
        trump = rng.choice(SUITS)
        yield Question(number, hand, trump, best_meld(hand, variant, trump))


@dataclass(frozen=True)
class TrumpQuestion:
    """Which trump melds best? ``answers``: each trump's best meld, the highest first."""

    number: int
    hand: Hand
    answers: tuple[MeldResult, ...]

    def prompt(self) -> str:
        hand = self.hand.notation()
        return f"round {self.number}: which trump melds best?\n  {hand}\nbest trump? "

    @property
    def best(self) -> list[Suit]:
        """Every trump that melds the most (ties are all right)."""
        top = self.answers[0].total
        return [result.trump for result in self.answers if result.total == top]

    def read(self, text: str) -> Suit:
        return read_trump(text)

    def is_right(self, trump: Suit) -> bool:
        return trump in self.best

    def right_answer(self) -> str:
        return " or ".join(f"{suit.symbol} ({suit.letter})" for suit in self.best)

    def totals(self) -> str:
        """``♠ (S) 190, ♥ (H) 40, ...``: each trump's total, the highest first."""
        return ", ".join(
            f"{result.trump.symbol} ({result.trump.letter}) {result.total}"
            for result in self.answers
        )


def trump_questions(variant: Variant, rounds: int, seed: int | None) -> Iterator[TrumpQuestion]:
    """``rounds`` questions: seat 0's hand of a fresh deal, and which trump melds best."""
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        hand = deal(variant, rng).hands[0]
        results = [best_meld(hand, variant, trump) for trump in SUITS]
        ranked = sorted(results, key=lambda result: -result.total)  # stable: suit order
        yield TrumpQuestion(number, hand, tuple(ranked))


def read_trump(text: str) -> Suit:
    """A player's trump, as ``-t`` reads it: S, ♠, spades; any case."""
    return parse_suit(text)


def read_answer(text: str) -> int:
    """A player's answer: a whole number, surrounding blanks allowed."""
    try:
        return int(text.strip())
    except ValueError:
        raise MeldcalcError(f"{text.strip()!r}: expected a whole number such as 190") from None


@dataclass
class Score:
    right: int = 0
    asked: int = 0

    def record(self, correct: bool) -> None:
        self.asked += 1
        self.right += correct

    def summary(self) -> str:
        percent = f" ({100 * self.right / self.asked:.0f}%)" if self.asked else ""
        return f"score: {self.right} of {self.asked} right{percent}"
