"""The quiz: which question comes next, and what it adds up to.

Every kind of question (the ``--ask`` words) has its themes in each variant (`themes`):
a *card* of the study file is one kind and theme of one variant. A quiz picks its cards
by what the learner needs (`next_card`): the cards due first, the most overdue first; then
the cards never asked, a kind at a time (total, melds, trump, tricks, play, the auction,
...); then those FSRS thinks most forgotten. ``--review`` asks only the cards due.

A question is drawn from the quiz's seed, its round, kind and theme alone, a few at a
time, and the one rated nearest the learner's rating is asked (lichess's way of choosing
a puzzle), so the same seed and plan give the same questions. The plan (each round's card
and the rating aimed at) is kept in the study file under the seed, so ``--seed`` asks a
quiz again as it was, whatever was learnt since.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from meldcalc.learning import study as memory
from meldcalc.learning.kinds import KINDS, THEMES
from meldcalc.learning.question import Question, card_label
from meldcalc.rules.variant import Variant

#: Questions drawn for a round; the one nearest the learner's rating is asked.
CANDIDATES = 4

Maker = Callable[[Variant, str, random.Random], Question | None]


def themes(variant: Variant, kind: str) -> list[str]:
    """The themes ``kind`` can ask in ``variant`` (none: the variant lacks the rule)."""
    if kind in ("total", "melds", "trump"):
        from meldcalc.learning.meldquiz import meld_themes

        return meld_themes(variant, kind)
    if kind in ("tricks", "play"):
        return list(THEMES[kind])
    if kind == "system":
        from meldcalc.learning.systemquiz import system_themes

        return system_themes(variant)
    from meldcalc.learning.tablequiz import table_themes

    return table_themes(variant, kind)


def maker(kind: str) -> Maker:
    from meldcalc.learning import meldquiz, passquiz, playquiz, systemquiz, tablequiz

    return {
        "total": meldquiz.total_question,
        "melds": meldquiz.melds_question,
        "trump": meldquiz.trump_question,
        "tricks": playquiz.tricks_question,
        "play": playquiz.play_question,
        "bid": tablequiz.bid_question,
        "score": tablequiz.score_question,
        "throwin": tablequiz.throwin_question,
        "widow": passquiz.widow_question,
        "pass": passquiz.pass_question,
        "system": systemquiz.system_question,
    }[kind]


def pool(
    variant: Variant, ask: str | None = None, theme: str | None = None
) -> list[tuple[str, str]]:
    """The cards (kind, theme) a quiz may ask: every kind and theme the variant has, or
    those of ``ask`` and ``theme``; in the order new cards come, a kind at a time."""
    kinds = [ask] if ask else list(KINDS)
    found = {kind: themes(variant, kind) for kind in kinds}
    found = {kind: [t for t in named if theme in (None, t)] for kind, named in found.items()}
    depth = max((len(named) for named in found.values()), default=0)
    return [
        (kind, named[level])
        for level in range(depth)
        for kind, named in found.items()
        if level < len(named)
    ]


def question_for(
    variant: Variant, kind: str, theme: str, seed: int, number: int, target: int
) -> Question | None:
    """Round ``number``'s question of this card: drawn from the seed, the round and the
    card alone; of a few drawn, the one rated nearest ``target``."""
    rng = random.Random(f"{seed}/{number}/{kind}/{theme}")
    make = maker(kind)
    drawn = [q for q in (make(variant, theme, rng) for _ in range(CANDIDATES)) if q is not None]
    if not drawn:
        return None
    return min(drawn, key=lambda question: abs(question.rating - target))


# --- choosing the next card ------------------------------------------------------------------


def next_card(
    learner: memory.Learner,
    cards: list[tuple[str, str]],
    when: datetime,
    rng: random.Random,
    last: tuple[str, str] | None = None,
) -> tuple[str, str] | None:
    """What the learner needs most: a card due (the most overdue first), else one never
    asked (in ``cards``' order), else the one most likely forgotten; not the card just
    asked when another will do."""
    choices = [card for card in cards if card != last] or cards
    if not choices:
        return None
    known = {card: learner.cards.get(memory.card_key(*card)) for card in choices}
    due = [card for card, kept in known.items() if kept is not None and kept.due <= when]
    if due:
        return min(due, key=lambda card: known[card].due)
    new = [card for card, kept in known.items() if kept is None]
    if new:
        return new[0]
    weakest = min(memory.retrievability(kept, when) for kept in known.values())
    ties = [c for c, kept in known.items() if memory.retrievability(kept, when) == weakest]
    return rng.choice(sorted(ties))


# --- a quiz under way ---------------------------------------------------------------------------


@dataclass
class Result:
    question: Question
    right: bool
    due: datetime | None


@dataclass
class Quiz:
    """One quiz: its variant, its seed, what it may ask, and what was answered."""

    variant: Variant
    seed: int
    path: Path | None
    ask: str | None = None
    theme: str | None = None
    review: bool = False
    results: list[Result] = field(default_factory=list)
    rating_before: int = memory.START_RATING
    plan: list[str] = field(default_factory=list)
    replayed: list[str] = field(default_factory=list)
    notes: tuple[str, ...] = ()
    told: int = 0  #: how many of the notes were taken (`take_notes`)

    @property
    def asked(self) -> str:
        return "review" if self.review else f"{self.ask or 'mix'}/{self.theme or 'any'}"

    def start(self) -> None:
        """Read the study: the learner's rating, and the plan of a quiz of this seed."""
        study = memory.load(self.path)
        self.notes = study.notes
        if study.notes:
            self._write(lambda _: memory.save(study))  # set aside: begin a new one at once
        self.rating_before = study.learner(self.variant.name).rating
        for quiz in reversed(study.quizzes):
            same = (quiz["seed"], quiz["variant"], quiz["asked"])
            if same == (self.seed, self.variant.name, self.asked):
                self.replayed = list(quiz["plan"])
                break

    def cards(self, when: datetime) -> list[tuple[str, str]]:
        everything = pool(self.variant, self.ask, self.theme)
        if not self.review:
            return everything
        learner = memory.load(self.path).learner(self.variant.name)
        due = [
            card
            for card in everything
            if (kept := learner.cards.get(memory.card_key(*card))) and kept.due <= when
        ]
        return sorted(due, key=lambda card: learner.cards[memory.card_key(*card)].due)

    def next_question(self, when: datetime) -> Question | None:
        """The next round's question; None when there is nothing (more) to ask."""
        number = len(self.results) + 1
        if number <= len(self.replayed):
            kind, theme, target = self.replayed[number - 1].split("/")
            found = question_for(self.variant, kind, theme, self.seed, number, int(target))
            if found is not None:
                self.plan.append(self.replayed[number - 1])
                return found
        learner = memory.load(self.path).learner(self.variant.name)
        cards = self.cards(when)
        last = (
            (self.results[-1].question.kind, self.results[-1].question.theme)
            if self.results
            else None
        )
        rng = random.Random(f"{self.seed}/{number}/plan")
        for _ in range(len(cards)):
            card = next_card(learner, cards, when, rng, last)
            if card is None:
                return None
            found = question_for(self.variant, *card, self.seed, number, learner.rating)
            if found is not None:
                self.plan.append(f"{card[0]}/{card[1]}/{learner.rating}")
                return found
            cards = [other for other in cards if other != card]  # cannot be built here
        return None

    def answered(self, question: Question, right: bool, when: datetime) -> Result:
        """Keep the answer: in the study file at once (the card, the rating, the plan)."""

        def change(study: memory.Study) -> datetime:
            kept = memory.record(
                study,
                self.variant.name,
                question.kind,
                question.theme,
                question.rating,
                right,
                when,
            )
            self._keep_plan(study)
            return kept.due

        due = self._write(lambda path: memory.update(path, change))
        result = Result(question, right, due)
        self.results.append(result)
        return result

    def take_notes(self) -> list[str]:
        """The notes not taken yet: each is said once."""
        fresh, self.told = list(self.notes[self.told :]), len(self.notes)
        return fresh

    def _write(self, write: Callable[[Path], Any]) -> Any:
        """Write to the study file; one that cannot be written (a read-only folder, a full
        disk) is said once, and the quiz goes on without memory."""
        if self.path is None:
            return None
        try:
            return write(self.path)
        except OSError as error:
            reason = error.strerror or str(error)
            self.notes = (
                *self.notes,
                f"{self.path}: cannot be written ({reason}): this quiz is not remembered",
            )
            self.path = None
            return None

    def _keep_plan(self, study: memory.Study) -> None:
        entry = {"seed": self.seed, "variant": self.variant.name, "asked": self.asked}
        study.quizzes = [
            quiz
            for quiz in study.quizzes
            if (quiz["seed"], quiz["variant"], quiz["asked"]) != tuple(entry.values())
        ]
        study.quizzes.append({**entry, "plan": list(self.plan)})

    # --- the summary --------------------------------------------------------------------------

    def summary(self, when: datetime) -> list[str]:
        """By theme, the rating, what is due when; the score last."""
        lines = []
        if self.results:
            lines.append("by theme: " + by_theme(self.results))
            rating = memory.load(self.path).learner(self.variant.name).rating
            if self.path is not None:
                change = rating - self.rating_before
                lines.append(f"rating: {rating} ({change:+d})")
                lines.append("next: " + self.due_line(when))
        right = sum(result.right for result in self.results)
        asked = len(self.results)
        percent = f" ({100 * right / asked:.0f}%)" if asked else ""
        return [*lines, f"score: {right} of {asked} right{percent}"]

    def due_line(self, when: datetime) -> str:
        """When the cards asked are due again, the soonest first: ``in 1 minute: meld
        total · reuse; in 10 minutes: best trump · tie``."""
        latest: dict[str, datetime] = {}
        for result in self.results:
            if result.due is not None:
                latest[result.question.label] = result.due
        grouped: dict[str, list[str]] = {}
        for label, due in sorted(latest.items(), key=lambda item: item[1]):
            grouped.setdefault(memory.due_words(due, when), []).append(label)
        return "; ".join(f"{words}: {_few(names)}" for words, names in grouped.items())


def _few(names: list[str], most: int = 4) -> str:
    """``a, b, c and 5 more``: a long list said short."""
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[: most - 1])} and {len(names) - most + 1} more"


def by_theme(results: list[Result]) -> str:
    """``reuse 1 of 2, kkq 1 of 1``: right of asked, theme by theme, in the order asked."""
    asked, right = Counter(), Counter()
    for result in results:
        asked[result.question.theme] += 1
        right[result.question.theme] += result.right
    return ", ".join(f"{theme} {right[theme]} of {count}" for theme, count in asked.items())


def labels(cards: list[tuple[str, str]]) -> list[str]:
    return [card_label(kind, theme) for kind, theme in cards]
