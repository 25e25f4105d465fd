"""The game's score for `meldcalc bid`: from ``--score`` or a game's ledger (``--game``),
checked, yours first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meldcalc.errors import MeldcalcError, quote, shown_path
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.variant import Variant


def game_book(game: Path, variant: str | None) -> Any:
    """The game's ledger, read; its own rules are the bid's (-V, where given, may only
    repeat them, as `score` and `game` say)."""
    from meldcalc.cli.scoring import _game_variant
    from meldcalc.game import ledger

    book = ledger.read(game)
    if book is None:
        raise MeldcalcError(f"--game {shown_path(game)}: no such game yet")
    _game_variant(book, variant)
    done = book.standing()
    if done.winner is not None:
        raise MeldcalcError(f"{shown_path(book.path)}: the game is over ({done.reason})")
    return book


def game_score(
    rules: Variant, score: str | None, book: Any, seat: int
) -> tuple[tuple[int, ...], int] | None:
    """The sides' scores, yours first (then the others' in playing order from your left),
    and the target: from --score, or a game's ledger."""
    from meldcalc.advice.equity import seated
    from meldcalc.advice.tablehands import check_tabled, sides_of
    from meldcalc.rules.scoring import side_of

    if score is None and book is None:
        return None
    check_tabled(rules)
    if book is not None:
        given = shown_path(book.path)
        scores, target = seated(book.standing().totals, side_of(rules, seat)), book.target
    else:
        given, target = f"--score {quote(score)}", rules.bidding.game
        scores = _scores_given(score, sides_of(rules), given)
        if max(scores) >= target:
            raise MeldcalcError(f"{given}: a side at {target} or more has won the game already")
    return scores, target


def _scores_given(score: str, sides: int, given: str) -> tuple[int, ...]:
    values = [token.strip() for token in score.split(",")]
    wrong = next((token for token in values if not _signed(token)), None)
    if wrong is not None and len(values) == sides:
        raise MeldcalcError(f"{given}: {quote(wrong)} is not a whole number of points")
    if len(values) != sides or wrong is not None:
        expected = (
            "two scores, your side's first, e.g. 850,920"
            if sides == 2
            else f"{sides} scores, yours first, then the others' in playing order from your"
            " left, e.g. 850,920,400"
        )
        raise MeldcalcError(f"{given}: expected {expected}")
    if any(len(token.lstrip("-")) > 12 for token in values):
        raise MeldcalcError(f"{given}: a score out of range")
    return tuple(int(token) for token in values)


def _signed(token: str) -> bool:
    """A whole number, minus allowed (a side set below nothing)."""
    digits = token[1:] if token.startswith("-") else token
    return is_whole_number(digits)
