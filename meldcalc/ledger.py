"""A game's ledger: a file the players name, one JSON object per line, only ever appended.

The first line names the game; then each scored hand is a line, written and flushed to
disk before the command reports it, so a crash never loses a hand. Taking a hand back
appends an ``undo`` line rather than rewriting the file::

    {"ledger": "meldcalc", "format": 1, "variant": "single-deck", "target": 500}
    {"hand": 1, "bid": 300, "bidder": 0, ..., "points": [290, 150], "explanation": [...]}
    {"undo": 1}

A file that does not parse is reported as ``file:line: what is wrong`` and never written
to: the players fix it (or start a new file) before anything is added.

Reading the game, scoring a hand and appending it happen under an exclusive lock on the
file (`held`), so two players scoring at once get hands 6 and 7, never two hands 6.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meldcalc.errors import MeldcalcError, VariantError, quote, shown_path
from meldcalc.files import FileProblem, open_regular, read_all
from meldcalc.loading import load_variant
from meldcalc.scoring import (
    MADE,
    NOT_PLAYED,
    SET,
    THROWN_IN,
    HandPlay,
    HandScore,
    Standing,
    score_hand,
    side_count,
    standing,
)
from meldcalc.variant import Variant

try:
    import fcntl
except ImportError:  # no flock (Windows): a game is then one player's file at a time
    fcntl = None  # type: ignore[assignment]

FORMAT = 1
#: A ledger larger than this is not a ledger (a game is a few dozen lines).
MAX_BYTES = 16 * 1024 * 1024
#: The largest target, bid, meld or trick count a ledger holds: the bound of the options.
MAX_POINTS = 10_000_000
OUTCOMES = (MADE, SET, THROWN_IN, NOT_PLAYED)


class LedgerError(MeldcalcError):
    """A ledger file that cannot be read: names the file and line."""


@dataclass(frozen=True)
class Ledger:
    """A game read from its file: the variant it is played under (its name in the file and
    its rules), its target, its hands."""

    path: Path
    variant: str
    rules: Variant
    target: int
    hands: tuple[HandScore, ...]

    def standing(self) -> Standing:
        return standing(self.rules, self.hands, self.target)


def read(path: Path) -> Ledger | None:
    """The game in ``path``; None when the file does not exist yet."""
    with held(path, write=False) as game:
        return game.book


@contextmanager
def held(path: Path, write: bool = True, create: bool = False) -> Iterator[Game]:
    """The game in ``path``, locked until the block ends: exclusively to ``write`` (read,
    score and append as one step), shared to read. ``create``: a missing file is made, to
    start the game in; left empty, it is removed again."""
    descriptor = _open_locked(path, write, create)
    if descriptor is None:
        yield Game(path, None, b"", None)
        return
    try:
        content = _content(path, descriptor)
        game = Game(path, descriptor, content, _parsed(path, content, empty_ok=create))
        try:
            yield game
        finally:
            if create and not game.content:  # nothing was added to the file made for it
                with suppress(OSError):  # still locked: a waiting writer opens the path afresh
                    os.unlink(path)
    finally:
        os.close(descriptor)


def _open_locked(path: Path, write: bool, create: bool) -> int | None:
    """A descriptor on the ledger, locked; None when it does not exist (and not ``create``)."""
    flags = (os.O_RDWR | os.O_APPEND if write else os.O_RDONLY) | (os.O_CREAT if create else 0)
    while True:
        try:
            descriptor = open_regular(path, flags, "a meldcalc ledger")
        except FileNotFoundError:
            return None
        except FileProblem as problem:
            raise LedgerError(str(problem)) from None
        if fcntl is not None:
            with suppress(OSError):  # a file system without locks: go on without
                fcntl.flock(descriptor, fcntl.LOCK_EX if write else fcntl.LOCK_SH)
        if _still_named(path, descriptor):
            return descriptor
        os.close(descriptor)  # removed or replaced while we waited for the lock


def _still_named(path: Path, descriptor: int) -> bool:
    try:
        named, held_file = os.stat(path), os.fstat(descriptor)
    except OSError:
        return False
    return (named.st_dev, named.st_ino) == (held_file.st_dev, held_file.st_ino)


def _content(path: Path, descriptor: int) -> bytes:
    try:
        return read_all(descriptor, path, MAX_BYTES, "a meldcalc ledger")
    except FileProblem as problem:
        raise LedgerError(str(problem)) from None


def _parsed(path: Path, content: bytes, empty_ok: bool = False) -> Ledger | None:
    records = list(_records(path, content))
    if not records and empty_ok:
        return None
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
    variant, target, rules = _header(where, header)
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
        hands.append(_hand(where, record, rules))
    return Ledger(path, variant, rules, target, tuple(hands))


def _header(where: str, header: dict) -> tuple[str, int, Variant]:
    """The game's variant name, target and rules, from its first line."""
    if header.get("ledger") != "meldcalc" or header.get("format") != FORMAT:
        raise LedgerError(f"{where}: expected the header of a meldcalc ledger (format {FORMAT})")
    variant, target = header.get("variant"), header.get("target")
    if not isinstance(variant, str):
        raise LedgerError(f"{where}: the header needs a variant name, got {quote(variant)}")
    if not _is_count(target) or not 1 <= target <= MAX_POINTS:
        raise LedgerError(
            f"{where}: target {quote(target)}: expected a whole number from 1 to {MAX_POINTS}"
        )
    try:
        rules = load_variant(variant)
    except VariantError as error:
        more = len(error.problems) - 1
        others = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise LedgerError(
            f"{where}: variant {quote(variant, 200)}: {error.problems[0]}{others}"
        ) from None
    except MeldcalcError as error:
        raise LedgerError(f"{where}: variant {quote(variant, 200)}: {error}") from None
    return variant, target, rules


def _hand(where: str, record: dict, rules: Variant) -> HandScore:
    """A hand line, checked: its sides are the variant's, and what it scored is what its
    bid, meld and tricks score (`score_hand`), so an edited line is refused, not added up."""
    stored = _stored_hand(where, record)
    if stored.outcome not in OUTCOMES:
        known = ", ".join(map(repr, OUTCOMES))
        raise LedgerError(f"{where}: outcome {quote(stored.outcome)}: expected one of {known}")
    try:
        expected = score_hand(rules, stored.play)
    except MeldcalcError as error:
        raise LedgerError(f"{where}: {error}") from None
    sides = side_count(rules)
    if any(len(values) != sides for values in (stored.points, stored.checks, stored.counted_meld)):
        raise LedgerError(f"{where}: points, checks and meld must name every side ({sides})")
    for field, label, verb in _RESULTS:
        got, want = getattr(stored, field), getattr(expected, field)
        if got != want:
            shown, wanted = (list(v) if isinstance(v, tuple) else v for v in (got, want))
            raise LedgerError(
                f"{where}: {label} {quote(shown)} {verb} not follow from the hand's bid, meld"
                f" and tricks (expected {quote(wanted)}): was the file edited?"
            )
    return expected


#: What a hand line says it scored, each compared with what its inputs score.
_RESULTS = (
    ("points", "the points", "do"),
    ("outcome", "the outcome", "does"),
    ("bidding_side", "the bidding side", "does"),
    ("counted_meld", "the counted meld", "does"),
    ("checks", "the scored checks", "do"),
)


def _stored_hand(where: str, record: dict) -> HandScore:
    try:
        taken = record.get("tricks_taken")
        play = HandPlay(
            bid=_count(record["bid"]),
            bidder=_count(record["bidder"]),
            meld=_counts(record["meld"]),
            tricks=None if record["tricks"] is None else _counts(record["tricks"]),
            checks=_counts(record["checks"]),
            thrown_in=_flag(record["thrown_in"]),
            no_marriage=_flag(record["no_marriage"]),
            tricks_taken=None if taken is None else _counts(taken),
        )
        return HandScore(
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


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: object, negative: bool = False) -> int:
    """A whole number from 0 to `MAX_POINTS`; any, where ``negative`` (points, which are
    checked against what the hand scores)."""
    if _is_count(value) and (negative or 0 <= value <= MAX_POINTS):
        return value
    bound = "" if negative else f" from 0 to {MAX_POINTS}"
    raise ValueError(f"expected a whole number{bound}, got {quote(value)}")


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
        "tricks_taken": None if play.tricks_taken is None else list(play.tricks_taken),
        "outcome": score.outcome,
        "bidding_side": score.bidding_side,
        "counted_meld": list(score.counted_meld),
        "points": list(score.points),
        "scored_checks": list(score.checks),
        "explanation": list(score.explanation),
    }


def header(variant: str, target: int) -> dict[str, Any]:
    return {"ledger": "meldcalc", "format": FORMAT, "variant": variant, "target": target}


@dataclass
class Game:
    """A ledger held under its lock (`held`): the game as read (None before the first
    hand), and the way to add to it."""

    path: Path
    descriptor: int | None
    content: bytes
    book: Ledger | None

    def add_hand(
        self, rules: Variant, variant: str, target: int | None, score: HandScore, trump: str | None
    ) -> Ledger:
        """Append a scored hand (starting the game, under ``variant`` and ``target``, when
        there is none yet) and read the game back."""
        book, new = self.book, []
        if book is None:
            goal = target or (rules.bidding.game if rules.bidding else None)
            if goal is None:
                raise MeldcalcError(f"{rules.name} names no game target: give one with --to")
            new.append(header(variant, goal))
        else:
            if target is not None and target != book.target:
                raise MeldcalcError(
                    f"{shown_path(book.path)} is a game to {book.target}: leave out --to"
                )
            done = book.standing()
            if done.winner is not None:
                raise MeldcalcError(
                    f"{shown_path(book.path)}: the game is over ({done.reason}); start anew"
                )
        number = len(book.hands) + 1 if book else 1
        new.append(hand_record(number, score, trump))
        return self._append(*new)

    def undo_last(self) -> Ledger:
        """Take the last hand back: an ``undo`` line, never a rewrite."""
        if self.book is None or not self.book.hands:
            raise MeldcalcError(f"{shown_path(self.path)}: no hand to take back")
        return self._append({"undo": len(self.book.hands)})

    def _append(self, *records: dict[str, Any]) -> Ledger:
        """Add lines at the end of the file, on disk before returning (flushed and synced),
        and read the game back."""
        if self.descriptor is None:
            raise MeldcalcError(f"{shown_path(self.path)}: no such game yet")
        text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
        if self.content and not self.content.endswith(b"\n"):
            text = "\n" + text  # an edited file may lack its last line break
        data = text.encode()
        try:
            while data:
                data = data[os.write(self.descriptor, data) :]
            os.fsync(self.descriptor)
        except OSError as error:
            raise LedgerError(f"{shown_path(self.path)}: cannot write: {error.strerror}") from None
        self.content = _content(self.path, self.descriptor)
        self.book = _parsed(self.path, self.content)
        assert self.book is not None
        return self.book


def append(path: Path, *records: dict[str, Any]) -> Ledger:
    """Add lines at the end of ``path`` (made when missing), under its lock."""
    with held(path, create=True) as game:
        return game._append(*records)
