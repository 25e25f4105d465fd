"""Questions on meld: the total under a trump, which melds (named), the best trump.

The hand is built for the question's theme (`themes`); the answers are the exact best
meld (`rules.meld`), explained as ``meld --explain`` explains it, and a wrong total or
trump is diagnosed (`diagnose`) before the breakdown.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from meldcalc.errors import MeldcalcError, did_you_mean, quote
from meldcalc.learning.diagnose import meld_mistake, meld_words, trump_mistake
from meldcalc.learning.explain import MULTIPLES, explain, near_misses
from meldcalc.learning.kinds import THEMES
from meldcalc.learning.question import (
    NumberQuestion,
    Question,
    article,
    listed,
    pretty,
    suit_words,
)
from meldcalc.learning.themes import available, items, themed_hand, tied_hand
from meldcalc.rules.cards import SUITS, Hand, Suit, parse_suit
from meldcalc.rules.meld import MeldResult, best_meld, best_meld_all_trumps, class_usage
from meldcalc.rules.variant import Variant


def meld_themes(variant: Variant, kind: str) -> list[str]:
    """The themes ``kind`` (total, melds, trump) can drill in ``variant``."""
    return [theme for theme in THEMES[kind] if available(variant, theme)]


def meld_rating(hand: Hand, variant: Variant, result: MeldResult) -> int:
    """How hard the count is, on a chess-like scale (about 800 to 2200): more melds, cards
    serving several classes, doubles, melds the reuse rule leaves out and long hands each
    make a count harder."""
    usage = class_usage(result.melds).values()
    shared = sum(1 for card in range(24) if sum(1 for u in usage if u[card]) > 1)
    doubles = sum(1 for meld in result.melds if meld.copies > 1)
    left_out = sum(
        1
        for item in items(variant, result.trump)
        if item.most_copies(list(hand.counts)) > _counted(result, item) and item.rule.value(1) > 0
    )
    rating = 800 + 70 * len(result.melds) + 110 * shared + 120 * doubles + 90 * left_out
    return min(rating + 8 * max(len(hand) - 8, 0), 2400)


def _counted(result: MeldResult, item: Any) -> int:
    return next(
        (m.copies for m in result.melds if m.name == item.rule.name and m.suit is item.suit), 0
    )


def _hand_and_trump(variant: Variant, theme: str, rng: random.Random) -> tuple[Hand, Suit] | None:
    trump = rng.choice(SUITS)
    hand = themed_hand(variant, theme, trump, rng)
    return None if hand is None else (hand, trump)


# --- the total ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TotalQuestion(NumberQuestion):
    hand: Hand | None = None
    variant: Variant | None = None
    answer: MeldResult | None = None

    @property
    def number(self) -> int:
        return self.answer.total

    def why(self, answer: int) -> str | None:
        return meld_mistake(self.hand, self.variant, self.answer, answer)

    def explanation(self) -> list[str]:
        return explain(self.hand, self.variant, self.answer)


def total_question(variant: Variant, theme: str, rng: random.Random) -> TotalQuestion | None:
    made = _hand_and_trump(variant, theme, rng)
    if made is None:
        return None
    hand, trump = made
    result = best_meld(hand, variant, trump)
    return TotalQuestion(
        "total",
        theme,
        meld_rating(hand, variant, result),
        (f"trump {trump.letter} {trump.symbol}", f"  {hand.notation(trump)}"),
        "your meld total? ",
        hand,
        variant,
        result,
    )


# --- which melds ----------------------------------------------------------------------------

_COUNT_WORDS = {word: copies for copies, word in MULTIPLES.items()} | {"two": 2, "three": 3}
_SPLIT = re.compile(r"\s*(?:,|;|\+|\band\b)\s*")
_TIMES = re.compile(r"^(.*?)\s*(?:x|×|\*)\s*(\d)$")


def read_melds(text: str, variant: Variant) -> Counter:
    """Meld names with their copies: ``run, pinochle, 2 dix``, ``double pinochle``,
    ``dix x2``, ``marriage, marriage``; ``none`` for no meld. A plural is a name too."""
    names = {rule.name.lower(): rule.name for rule in variant.melds}
    found: Counter = Counter()
    body = text.strip().lower()
    if body in ("none", "nothing", "no meld", "-"):
        return found
    for part in filter(None, _SPLIT.split(body)):
        copies, name = _copies_and_name(part)
        rule = names.get(name) or names.get(name.removesuffix("s")) or names.get(name[:-2])
        if rule is None:
            raise MeldcalcError(
                f"{quote(part)}: expected meld names such as 'run, pinochle, 2 dix' (or none)"
                f"{did_you_mean(name, names)}"
            )
        found[rule] += copies
    return found


def _copies_and_name(part: str) -> tuple[int, str]:
    words = re.sub(r"[♠♥♦♣]", "", re.sub(r"\s+(?:in|of)\s+\S+$", "", part)).split()
    times = _TIMES.match(" ".join(words))
    if times:
        return int(times.group(2)), times.group(1).strip()
    if words and words[0].isdigit():
        return int(words[0]), " ".join(words[1:])
    if words and words[0] in _COUNT_WORDS:
        return _COUNT_WORDS[words[0]], " ".join(words[1:])
    return 1, " ".join(words)


def meld_names(result: MeldResult) -> Counter:
    """Each meld's name with its copies, all suits together (two marriages: 2)."""
    names: Counter = Counter()
    for meld in result.melds:
        if meld.points:
            names[meld.name] += meld.copies
    return names


def melds_words(names: Counter) -> str:
    """``run, 2 marriage``: names and counts, as an answer may give them."""
    if not names:
        return "none"
    return ", ".join(name if n == 1 else f"{n} {name}" for name, n in names.items())


@dataclass(frozen=True)
class MeldsQuestion(TotalQuestion):
    def read(self, text: str) -> Counter:
        return read_melds(text, self.variant)

    def is_right(self, answer: Counter) -> bool:
        return answer == meld_names(self.answer)

    def right_answer(self) -> str:
        """``royal marriage, marriage in ♠, double dix``: each meld as ``--explain`` names it."""
        rules = {rule.name: rule for rule in self.variant.melds}
        melds = [meld for meld in self.answer.melds if meld.points]
        return ", ".join(meld_words(meld, rules[meld.name]) for meld in melds) or "none"

    def why(self, answer: Counter) -> str | None:
        right = meld_names(self.answer)
        extra, missing = answer - right, right - answer
        said = []
        if missing:
            said.append(f"you left out {melds_words(missing)}")
        if extra:
            said.append(f"you named {melds_words(extra)}, which this hand does not meld")
            said += self._short_of(extra)
        return "; ".join(said) + "." if said else None

    def _short_of(self, named: Counter) -> list[str]:
        """For a meld named that the hand does not hold: the card it lacks, where one card
        would make it (queens around needs a Q♣)."""
        misses = near_misses(self.hand, self.variant, self.answer)
        said = []
        for name in named:
            miss = next((miss for miss in misses if miss.meld == name), None)
            if miss is not None:
                said.append(f"{name} needs {article(miss.card)} {pretty(miss.card)}")
        return said


def melds_question(variant: Variant, theme: str, rng: random.Random) -> MeldsQuestion | None:
    asked = total_question(variant, theme, rng)
    if asked is None:
        return None
    return MeldsQuestion(
        "melds",
        theme,
        asked.rating,
        asked.lines,
        "which melds (e.g. run, pinochle, 2 dix)? ",
        asked.hand,
        variant,
        asked.answer,
    )


# --- the best trump -------------------------------------------------------------------------


@dataclass(frozen=True)
class TrumpQuestion(Question):
    """Which trump melds best? ``answers``: each trump's best meld, the highest first."""

    hand: Hand | None = None
    variant: Variant | None = None
    answers: tuple[MeldResult, ...] = ()

    @property
    def best(self) -> list[Suit]:
        """Every trump that melds the most (ties are all right)."""
        top = self.answers[0].total
        return [result.trump for result in self.answers if result.total == top]

    def read(self, text: str) -> Suit:
        return parse_suit(text)

    def is_right(self, answer: Suit) -> bool:
        return answer in self.best

    def right_answer(self) -> str:
        return " or ".join(suit_words(suit) for suit in self.best)

    def why(self, answer: Suit) -> str | None:
        return trump_mistake(self.hand, self.variant, self.answers, answer)

    def totals(self) -> str:
        """``♠ (S) 190, ♥ (H) 40, ...``: each trump's total, the highest first."""
        return ", ".join(f"{suit_words(result.trump)} {result.total}" for result in self.answers)

    def explanation(self) -> list[str]:
        lines = [f"each trump's total: {self.totals()}."]
        if len(self.best) > 1:
            suits = listed([suit.symbol for suit in self.best])
            lines.append(f"{suits} tie at {self.answers[0].total}: each of them is right.")
        return lines + explain(self.hand, self.variant, self.answers[0])


def trump_question(variant: Variant, theme: str, rng: random.Random) -> TrumpQuestion | None:
    if theme == "tie":
        hand = tied_hand(variant, rng)
    else:
        made = _hand_and_trump(variant, theme, rng)
        hand = None if made is None else made[0]
    if hand is None:
        return None
    answers = tuple(best_meld_all_trumps(hand, variant))
    if answers[-1].total == answers[0].total:
        return None  # every trump melds the same: nothing to choose
    ties = sum(1 for result in answers if result.total == answers[0].total)
    rating = max(meld_rating(hand, variant, result) for result in answers) + 60 * (ties - 1)
    return TrumpQuestion(
        "trump",
        theme,
        rating,
        (f"  {hand.notation()}",),
        "which trump melds best? ",
        hand,
        variant,
        answers,
    )
