"""A step's word mistyped (``shwo``, ``hnit``): told as a step mistyped, with the word meant,
not read as a card that fails. Both sessions (`game.session`, `game.twohanded`) ask it."""

from __future__ import annotations

from collections.abc import Iterable

from meldcalc.errors import NotationError, quote
from meldcalc.rules.notation import is_whole_number

#: The words the command itself takes at the prompt (`meldcalc.cli.game`).
SESSION_WORDS = ("undo", "review", "quit")


def not_a_misspelt_step(word: str, steps: Iterable[str]) -> None:
    """Refuses a word that is no card or number but one slip off a step's: "did you mean"."""
    from meldcalc.rules.cards import CARD_TOKENS

    if word.upper() in CARD_TOKENS or is_whole_number(word):
        return
    near = [step for step in (*steps, *SESSION_WORDS) if _one_slip(word.lower(), step)]
    if near:
        raise NotationError(f"{quote(word)}: not a step; did you mean {near[0]!r}?")


def _one_slip(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with one slip: a letter wrong, missing, extra, or two
    side by side swapped (a word of three letters or more)."""
    if typed == word or len(word) < 3 or abs(len(typed) - len(word)) > 1:
        return False
    if len(typed) == len(word):
        wrong = [i for i, (a, b) in enumerate(zip(typed, word)) if a != b]
        swapped = len(wrong) == 2 and wrong[1] == wrong[0] + 1
        return len(wrong) == 1 or (
            swapped and typed[wrong[0]] == word[wrong[1]] and typed[wrong[1]] == word[wrong[0]]
        )
    short, long = sorted((typed, word), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
