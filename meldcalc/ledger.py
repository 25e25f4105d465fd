"""A game's ledger: a file the players name, one JSON object per line, only ever appended.

The first line names the game; then each scored hand is a line, written and flushed to
disk before the command reports it, so a crash never loses a hand. Taking a hand back
appends an ``undo`` line rather than rewriting the file::

    {"ledger": "meldcalc", "format": 1, "variant": "single-deck", "target": 500}
    {"hand": 1, "bid": 300, "bidder": 0, ..., "points": [290, 150], "explanation": [...]}
    {"undo": 1}

A file that does not parse is reported as ``file:line: what is wrong`` and never written
to: the players fix it (or start a new file) before anything is added.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meldcalc.errors import MeldcalcError, quote, shown_path
from meldcalc.files import FileProblem, read_bounded
from meldcalc.scoring import HandPlay, HandScore, Standing, standing
from meldcalc.variant import Variant

FORMAT = 1
#: A ledger larger than this is not a ledger (a game is a few dozen lines).
MAX_BYTES = 16 * 1024 * 1024


class LedgerError(MeldcalcError):
    """A ledger file that cannot be read: names the file and line."""


@dataclass(frozen=True)
class Ledger:
    """A game read from its file: the variant it is played under, its target, its hands."""

    path: Path
    variant: str
    target: int
    hands: tuple[HandScore, ...]

    def standing(self, rules: Variant) -> Standing:
        return standing(rules, self.hands, self.target)


def read(path: Path) -> Ledger | None:
    """The game in ``path``; None when the file does not exist yet."""
    try:
        content = read_bounded(path, MAX_BYTES, "a meldcalc ledger")
    except FileNotFoundError:
        return None
    except FileProblem as problem:
        raise LedgerError(str(problem)) from None
    records = list(_records(path, content))
    if not records:
        raise LedgerError(f"{shown_path(path)}:1: empty file: expected a meldcalc ledger")
    return _game(path, records)


def _records(path: Path, content: bytes) -> Any:
    for number, raw in enumerate(content.split(b"\n"), start=1):
        if not raw.strip():
            continue
        where = f"{shown_path(path)}:{number}"
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            byte, column = raw[error.start], error.start + 1
            raise LedgerError(
                f"{where}:{column}: byte 0x{byte:02x} is not UTF-8: expected JSON text"
            ) from None
        try:
            record = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise LedgerError(f"{where}: not a JSON object: {quote(str(error), 80)}") from None
        if not isinstance(record, dict):
            raise LedgerError(f"{where}: expected a JSON object, got {quote(record)}")
        yield where, record


def _game(path: Path, records: list[tuple[str, dict]]) -> Ledger:
    where, header = records[0]
    if header.get("ledger") != "meldcalc" or header.get("format") != FORMAT:
        raise LedgerError(f"{where}: expected the header of a meldcalc ledger (format {FORMAT})")
    variant, target = header.get("variant"), header.get("target")
    if not isinstance(variant, str) or not _is_count(target) or target < 1:
        raise LedgerError(f"{where}: the header needs a variant name and a target above 0")
    hands: list[HandScore] = []
    for where, record in records[1:]:
        if "undo" in record:
            if record["undo"] != len(hands) or not hands:
                raise LedgerError(f"{where}: undo {quote(record['undo'])}: not the last hand")
            hands.pop()
            continue
        if record.get("hand") != len(hands) + 1:
            raise LedgerError(
                f"{where}: expected hand {len(hands) + 1}, got {quote(record.get('hand'))}"
            )
        hands.append(_hand(where, record))
    return Ledger(path, variant, target, tuple(hands))


def _hand(where: str, record: dict) -> HandScore:
    try:
        play = HandPlay(
            bid=_count(record["bid"]),
            bidder=_count(record["bidder"]),
            meld=_counts(record["meld"]),
            tricks=None if record["tricks"] is None else _counts(record["tricks"]),
            checks=_counts(record["checks"]),
            thrown_in=_flag(record["thrown_in"]),
            no_marriage=_flag(record["no_marriage"]),
        )
        score = HandScore(
            play,
            _count(record["bidding_side"]),
            str(record["outcome"]),
            _counts(record["counted_meld"]),
            _counts(record["points"], negative=True),
            _counts(record["scored_checks"]),
            tuple(str(line) for line in record["explanation"]),
        )
    except KeyError as error:
        raise LedgerError(f"{where}: missing field {error}") from None
    except (TypeError, ValueError) as error:
        raise LedgerError(f"{where}: {error}") from None
    if len(score.points) != len(play.meld) or len(score.checks) != len(play.meld):
        raise LedgerError(f"{where}: points, checks and meld must name every side")
    return score


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: object, negative: bool = False) -> int:
    if not _is_count(value) or (value < 0 and not negative):
        raise ValueError(f"expected a whole number, got {quote(value)}")
    return value


def _counts(values: object, negative: bool = False) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise ValueError(f"expected a list of whole numbers, got {quote(values)}")
    return tuple(_count(value, negative) for value in values)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {quote(value)}")
    return value


def hand_record(number: int, score: HandScore, trump: str | None) -> dict[str, Any]:
    """The ledger line of a scored hand: what was reported, and what it scored."""
    play = score.play
    return {
        "hand": number,
        "bid": play.bid,
        "bidder": play.bidder,
        "trump": trump,
        "meld": list(play.meld),
        "tricks": None if play.tricks is None else list(play.tricks),
        "checks": list(play.checks),
        "thrown_in": play.thrown_in,
        "no_marriage": play.no_marriage,
        "outcome": score.outcome,
        "bidding_side": score.bidding_side,
        "counted_meld": list(score.counted_meld),
        "points": list(score.points),
        "scored_checks": list(score.checks),
        "explanation": list(score.explanation),
    }


def header(variant: str, target: int) -> dict[str, Any]:
    return {"ledger": "meldcalc", "format": FORMAT, "variant": variant, "target": target}


def append(path: Path, *records: dict[str, Any]) -> None:
    """Add lines at the end of the file, on disk before returning (flushed and synced)."""
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    try:
        with path.open("a+b") as stream:
            if stream.tell() and (stream.seek(-1, os.SEEK_END), stream.read(1))[1] != b"\n":
                text = "\n" + text  # an edited file may lack its last line break
            stream.write(text.encode())
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as error:
        raise LedgerError(f"{shown_path(path)}: cannot write: {error.strerror}") from None


def add_hand(
    path: Path,
    book: Ledger | None,
    rules: Variant,
    variant: str,
    target: int | None,
    score: HandScore,
    trump: str | None,
) -> Ledger:
    """Append a scored hand to the game in ``path`` (starting it, under ``variant`` and
    ``target``, when ``book`` is None) and read the game back."""
    new = []
    if book is None:
        goal = target or (rules.bidding.game if rules.bidding else None)
        if goal is None:
            raise MeldcalcError(f"{rules.name} names no game target: give one with --to")
        new.append(header(variant, goal))
    else:
        if target is not None and target != book.target:
            raise MeldcalcError(f"{book.path} is a game to {book.target}: leave out --to")
        done = book.standing(rules)
        if done.winner is not None:
            raise MeldcalcError(f"{book.path}: the game is over ({done.reason}); start anew")
    number = len(book.hands) + 1 if book else 1
    new.append(hand_record(number, score, trump))
    append(path, *new)
    game = read(path)
    assert game is not None
    return game


def undo_last(book: Ledger) -> Ledger:
    """Take the last hand back: an ``undo`` line, never a rewrite."""
    if not book.hands:
        raise MeldcalcError(f"{book.path}: no hand to take back")
    append(book.path, {"undo": len(book.hands)})
    game = read(book.path)
    assert game is not None
    return game
