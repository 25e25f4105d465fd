"""A week of `meldcalc quiz`: what a learner sees, day by day, with simulated dates.

The quiz is the real one (`meldcalc.learning.quiz.Quiz`, the study file written as the
command writes it, in a folder of its own); only the learner and the calendar are
simulated. The learner knows some themes and not others: each theme starts with a chance
of a right answer (``--start``; ``--hard`` for the themes that trip players: reuse, K K Q,
the run's K-Q, doubles, ties, heading), and a wrong answer, diagnosed, raises that theme's
chance by ``--learn`` (the sentence read, a little learnt); a theme not asked for days is
forgotten a little (``--forget`` a day). Each day: in the morning `quiz --review` (every
card due), in the evening a quiz of ``--evening`` questions (the default mix). Printed per
day: the questions asked at review and in the evening, the share right, the cards due the
next morning, the weakest themes left; at the end the CPU time per question (the issue's
bound is 0.3 s).

Usage: python bench/week.py [--variant single-deck] [--days 7] [--evening 10] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meldcalc.learning import study as memory
from meldcalc.learning.quiz import Quiz
from meldcalc.rules.loading import load_variant

#: Themes players trip on (the issue's list): the simulated learner starts weaker on them.
HARD = ("reuse", "kkq", "run", "doubles", "tie", "heading")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="single-deck")
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--evening", type=int, default=10)
    parser.add_argument("--start", type=float, default=0.75, help="chance right on a theme")
    parser.add_argument("--hard", type=float, default=0.35, help="on the themes that trip")
    parser.add_argument("--learn", type=float, default=0.2)
    parser.add_argument("--forget", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    variant = load_variant(args.variant)
    rng = random.Random(args.seed)
    path = Path(tempfile.mkdtemp(prefix="meldcalc-week-")) / memory.STUDY
    skill: dict[str, float] = {}
    last_seen: dict[str, int] = {}
    monday = datetime(2026, 12, 7, 8, 0, tzinfo=timezone.utc)
    seconds, questions = 0.0, 0
    print(f"{args.variant}: a learner at {args.start:.0%} ({args.hard:.0%} on {', '.join(HARD)})")
    print("day  review: asked right   evening: asked right   due next morning   weakest")

    def sitting(day: int, when: datetime, review: bool, most: int) -> tuple[int, int]:
        nonlocal seconds, questions
        quiz = Quiz(variant, seed=args.seed * 1000 + day * 2 + review, path=path, review=review)
        quiz.start()
        asked = right = 0
        while asked < most:
            began = time.process_time()
            question = quiz.next_question(when)
            seconds += time.process_time() - began
            if question is None:
                break
            theme = f"{question.kind}/{question.theme}"
            base = args.hard if question.theme in HARD else args.start
            chance = skill.get(theme, base) - args.forget * (day - last_seen.get(theme, day))
            correct = rng.random() < max(0.05, min(0.98, chance))
            skill[theme] = min(0.98, max(chance, 0.05) + (0 if correct else args.learn))
            last_seen[theme] = day
            began = time.process_time()
            quiz.answered(question, correct, when)
            seconds += time.process_time() - began
            questions += 1
            asked, right = asked + 1, right + correct
            when += timedelta(seconds=40)
        return asked, right

    for day in range(args.days):
        morning = monday + timedelta(days=day)
        review = sitting(day, morning, True, 200) if day else (0, 0)
        evening = sitting(day, morning + timedelta(hours=11), False, args.evening)
        tomorrow = morning + timedelta(days=1)
        learner = memory.load(path).learner(variant.name)
        due = sum(card.due <= tomorrow for card in learner.cards.values())
        weakest = sorted(skill, key=skill.get)[:3]
        print(
            f"{day + 1:>3}  {review[0]:>13} {_share(review):>5}   {evening[0]:>14}"
            f" {_share(evening):>5}   {due:>3} of {len(learner.cards):<3} cards"
            f"      {', '.join(f'{t} {skill[t]:.0%}' for t in weakest)}"
        )
    print(f"rating at the end: {memory.load(path).learner(variant.name).rating}")
    print(f"cost: {1000 * seconds / max(questions, 1):.1f} ms CPU per question ({questions} asked)")


def _share(counts: tuple[int, int]) -> str:
    asked, right = counts
    return f"{100 * right / asked:.0f}%" if asked else "-"


if __name__ == "__main__":
    main()
