"""The meld quiz: deal a hand and a trump, ask for the total, grade the answer."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from meldcalc.cards import SUITS, Hand, Suit
from meldcalc.deal import deal
from meldcalc.errors import MeldcalcError
from meldcalc.meld import MeldResult, best_meld
from meldcalc.variant import Variant


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


def questions(variant: Variant, rounds: int, seed: int | None) -> Iterator[Question]:
    """``rounds`` questions: seat 0's hand of a fresh deal, and a random trump."""
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        hand = deal(variant, rng).hands[0]
        trump = rng.choice(SUITS)
        yield Question(number, hand, trump, best_meld(hand, variant, trump))


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
