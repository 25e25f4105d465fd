"""The trainer: `quiz` asks, grades, says why, and remembers (`learning.quiz`)."""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Optional

import typer

from meldcalc import console
from meldcalc.cli.base import (
    SeedOption,
    VariantOption,
    app,
    choice_option,
    load,
    say,
    user_errors,
    warn,
)
from meldcalc.errors import MeldcalcError
from meldcalc.learning.kinds import KINDS, THEMES, every_theme
from meldcalc.rules.loading import DEFAULT_VARIANT

#: ``--ask``'s words: ``mix`` (the default), then each kind of question.
QuizAsk = enum.Enum("QuizAsk", {word: word for word in ("mix", *KINDS)}, type=str)  # type: ignore[misc]
#: ``--theme``'s words: ``any`` (the default), then every theme.
QuizTheme = enum.Enum(  # type: ignore[misc]
    "QuizTheme", {word: word for word in ("any", *every_theme())}, type=str
)


MIX, ANY = QuizAsk("mix"), QuizTheme("any")
#: Questions a quiz asks unless told; a review asks what is due, up to the most a sitting
#: should hold.
ROUNDS, MOST_REVIEWED = 5, 1000


@app.command(short_help="Practise the rules: questions graded, mistakes explained, remembered.")
def quiz(
    variant: VariantOption = DEFAULT_VARIANT,
    rounds: Annotated[
        Optional[int],
        typer.Option(
            "--rounds",
            "-n",
            min=1,
            max=1000,
            metavar="N",
            help="Questions to ask (default 5; with --review, all that are due).",
            show_default=False,
        ),
    ] = None,
    seed: SeedOption = None,
    ask: Annotated[
        QuizAsk,
        choice_option(
            "--ask",
            choices=QuizAsk,
            help="What to ask: {}. mix asks what you need most.",
            metavar="WHAT",
        ),
    ] = MIX,
    theme: Annotated[
        QuizTheme,
        choice_option("--theme", choices=QuizTheme, help="Drill one theme: {}.", metavar="THEME"),
    ] = ANY,
    review: Annotated[
        bool, typer.Option("--review", help="Ask only what is due for review.")
    ] = False,
    stats: Annotated[
        bool,
        typer.Option("--stats", help="Show what you know: right and wrong, rating, what is due."),
    ] = False,
) -> None:
    """Practise the rules: a question, your answer graded, a wrong one explained.

    Questions on every rule (--ask): the meld total, which melds, the best trump, trick
    points, which cards may be played, the auction, made or set, a throw-in, the widow,
    the pass, what the table's bidding system says; each built around a theme that trips
    players (--theme), and rated. Answers come from stdin (typed, or piped one per line);
    q (or Ctrl-D) stops. What you answer is kept in a study file (your data folder, or
    $MELDCALC_DATA_DIR): what you miss comes back sooner (--review asks what is due),
    --stats shows where you stand. Without --seed the seed drawn is said, so the quiz can
    be asked again.

    Example: meldcalc quiz --theme reuse --rounds 3
    """
    from meldcalc.learning import study as memory
    from meldcalc.learning.quiz import Quiz

    with user_errors():
        rules = load(variant)
        if stats:
            _show_stats(memory.load(memory.study_path()), memory.now())
            return
        answers = console.read_lines(console.stdin_bytes("your answers, one per line"))
        chosen = None if ask.value == "mix" else ask.value
        drilled = None if theme.value == "any" else theme.value
        _check_askable(rules, chosen, drilled)
    drawn = seed is None
    if drawn:
        import secrets

        seed = secrets.randbelow(2**31)
    session = Quiz(rules, seed, memory.study_path(), chosen, drilled, review)
    session.start()
    warn(session.take_notes())
    if review and not session.cards(memory.now()):
        _nothing_due(session)
        return
    rounds = rounds or (MOST_REVIEWED if review else ROUNDS)
    _opening(session, rounds, drawn)
    for _ in range(rounds):
        question = session.next_question(memory.now())
        if question is None or not _round(session, question, rounds, answers):
            break
        warn(session.take_notes())
    for line in session.summary(memory.now()):
        say(line)


def _check_askable(rules: Any, ask: str | None, theme: str | None) -> None:
    """A kind or theme this variant has no rule for is bad input, said with what it has."""
    from meldcalc.learning.quiz import pool

    if pool(rules, ask, theme):
        return
    what = " ".join(filter(None, [ask and f"--ask {ask}", theme and f"--theme {theme}"]))
    if (ask == "system" or theme in THEMES["system"]) and not pool(rules, "system"):
        from meldcalc.learning.systemquiz import no_system

        raise MeldcalcError(f"{what}: {no_system(rules)}")
    has = sorted({t for _, t in pool(rules, ask)}) if ask else []
    also = f" (its {ask} themes: {', '.join(has)})" if has else ""
    raise MeldcalcError(f"{what}: {rules.name} has no such question{also}")


def _opening(session: Any, rounds: int, drawn: bool) -> None:
    """The seed when it was drawn (to ask the quiz again), what is asked, how to stop."""
    if drawn:
        say(f"seed {session.seed} (--seed {session.seed} asks these questions again)")
    what = "what is due" if session.review else f"{rounds} question{'' if rounds == 1 else 's'}"
    say(f"{session.variant.name}: {what}; q (or Ctrl-D) stops.")
    say()


def _nothing_due(session: Any) -> None:
    from meldcalc.learning import study as memory

    when = memory.now()
    learner = memory.load(session.path).learner(session.variant.name)
    if not learner.cards:
        say(f"nothing is due: no question of {session.variant.name} answered yet.")
        return
    key, card = min(learner.cards.items(), key=lambda item: item[1].due)
    kind, theme = key.split("/")
    from meldcalc.learning.question import card_label

    due = memory.due_words(card.due, when)
    say(f"nothing is due in {session.variant.name}; next: {card_label(kind, theme)} {due}.")


def _round(session: Any, question: Any, rounds: int, answers: Any) -> bool:
    """Ask, read, grade and explain one question; False when the learner stops."""
    from meldcalc.learning import study as memory

    number = len(session.results) + 1
    total = f" of {rounds}" if not session.review else ""
    say(f"round {number}{total}: {question.label} (rated {question.rating})")
    for line in question.lines:
        say(line)
    sys.stdout.write(question.prompt)
    sys.stdout.flush()
    answer = _ask(answers, question.read)
    if answer is None or answer is QUIT:
        say("\n(no more answers: the quiz ends here)" if answer is None else "(stopped)")
        return False
    right = question.is_right(answer)
    session.answered(question, right, memory.now())
    say("right." if right else f"wrong: it is {question.right_answer()}.")
    why = None if right else question.why(answer)
    if why:
        say(f"  why: {why}")
    for line in question.explanation():
        say(f"  {line}")
    say()
    return True


#: What ends the quiz at its prompt, besides the end of input (Ctrl-D).
QUIT = ("q", "quit", "exit")


def _ask(answers: Iterator[tuple[int, str | MeldcalcError]], parse: Callable[[str], Any]) -> Any:
    """Read answers until one parses; None at the end of input, `QUIT` when the player
    quits (``q``, ``quit``)."""
    for _, line in answers:
        if not sys.stdin.isatty():  # show piped answers, so the transcript reads well
            say(line.strip() if isinstance(line, str) else "?")
        if isinstance(line, str) and line.strip().lower() in QUIT:
            return QUIT
        try:
            if isinstance(line, MeldcalcError):
                raise line
            return parse(line)
        except MeldcalcError as error:
            sys.stdout.write(f"{error}; try again: ")
            sys.stdout.flush()
    return None


def _show_stats(study: Any, when: Any) -> None:
    """Each variant studied: the rating, right and wrong by theme, each card's due date."""
    from meldcalc.cli.report import tabulate
    from meldcalc.learning import study as memory
    from meldcalc.learning.question import card_label

    warn(list(study.notes))
    if not study.variants:
        say("nothing studied yet: meldcalc quiz asks the first questions.")
        return
    for name, learner in study.variants.items():
        right = sum(card.right for card in learner.cards.values())
        wrong = sum(card.wrong for card in learner.cards.values())
        say(f"{name}: rating {learner.rating}; {right + wrong} answered, {right} right")
        say()
        say(tabulate(_theme_rows(learner), ["theme", "right", "wrong"]))
        say()
        rows = [
            [
                card_label(*key.split("/")),
                memory.due_words(card.due, when),
                memory.local_time(card.due),
            ]
            for key, card in sorted(learner.cards.items(), key=lambda item: item[1].due)
        ]
        say(tabulate(rows, ["card", "due", "at"]))
        say()


def _theme_rows(learner: Any) -> list[list[Any]]:
    totals: dict[str, list[int]] = {}
    for key, card in learner.cards.items():
        counts = totals.setdefault(key.split("/")[1], [0, 0])
        counts[0] += card.right
        counts[1] += card.wrong
    return [[theme, right, wrong] for theme, (right, wrong) in totals.items()]
