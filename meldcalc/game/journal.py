"""The journal of the hand under way: every step of `meldcalc game`, on disk before it is
answered, so that a crash, Ctrl-C or a closed terminal loses nothing.

It lies beside the game's ledger (``FILE.hand``), one JSON object a line. The first says
which deal of the game the hand is (``{"deal": 3}``, the ledger then holding two), and for
a new game the settings it began with (`settings_of`); then ``{"step": "bid 300"}`` for a
step taken, ``{"undo": N}`` when step N is taken back (the file is only ever appended to,
as the ledger is). Once the hand is scored in the ledger the journal is removed; an
unfinished hand is never scored by accident, only by its last step, and a journal whose
deal the ledger already holds (a run cut short between the two) is never taken for the
next deal's (`deal_of`). A journal begun before the deal was kept has no such line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from meldcalc.errors import MeldcalcError, shown_path
from meldcalc.files import (
    FileProblem,
    WriteProblem,
    append_whole,
    open_or_make,
    read_all,
    read_bounded,
    torn_tail,
)

#: A journal larger than this is no hand's (a double-deck hand takes a few hundred steps).
MAX_BYTES = 1024 * 1024
JOURNAL = "a meldcalc hand journal"


class JournalError(MeldcalcError):
    """A journal that cannot be read or written: names the file and line."""


def journal_path(ledger: Path) -> Path:
    return ledger.with_name(ledger.name + ".hand")


def read_steps(path: Path) -> tuple[list[str], list[str]]:
    """The steps the journal keeps (undone ones left out), and warnings: a torn last line
    (a write cut short) is left out and said. The variant of a game not yet in its ledger
    is a line of its own (`variant_of`), not a step."""
    if path.is_symlink():  # a journal is a file meldcalc makes, never one it is pointed to
        raise JournalError(
            f"{shown_path(path)}: a symbolic link, not the hand's journal: remove it to start"
            " the hand afresh"
        )
    try:
        content = read_bounded(path, MAX_BYTES, JOURNAL)
    except FileNotFoundError:
        return [], []
    except FileProblem as problem:
        raise JournalError(str(problem)) from None
    steps: list[str] = []
    warnings: list[str] = []
    lines = content.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{shown_path(path)}:{number}"
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):  # nested past Python's depth: no journal line
            if number == len(lines):  # no line break after it: a torn last write
                warnings.append(f"{where}: a torn last line, left out")
                continue
            raise JournalError(f"{where}: not a journal line") from None
        steps = _applied(steps, record, where)
    return steps, warnings


#: What a new game's first line keeps besides its variant: the settings it began with.
SETTINGS = ("variant", "names", "to")
#: What a journal's first line keeps: the deal, and a new game's settings.
HEAD = ("deal", *SETTINGS)


def _applied(steps: list[str], record: object, where: str) -> list[str]:
    if _is_head(record):
        return steps
    if isinstance(record, dict) and isinstance(record.get("step"), str) and len(record) == 1:
        return [*steps, record["step"]]
    if isinstance(record, dict) and record.get("undo") == len(steps) and steps:
        return steps[:-1]
    raise JournalError(f"{where}: expected a step or the undo of the last one")


def _is_head(record: object) -> bool:
    """Whether ``record`` is a journal's first line: a deal (from 1), a new game's variant
    and its other settings, or both."""
    if not isinstance(record, dict):
        return False
    keys, deal = record.keys(), record.get("deal", 1)
    return (
        bool(keys & {"deal", "variant"})
        and keys <= set(HEAD)
        and type(deal) is int
        and deal >= 1
        and isinstance(record.get("variant", ""), str)
    )


def deal_of(path: Path) -> int | None:
    """Which deal of the game the hand is (from 1), as the journal's first line says; None
    for no journal, or one begun before the deal was kept."""
    return _head(path).get("deal")


def variant_of(path: Path) -> str | None:
    """The variant a new game's first hand was begun under (its ledger not yet written)."""
    return settings_of(path).get("variant")


def settings_of(path: Path) -> dict:
    """What a new game's first hand was begun with (its ledger not yet written): its
    ``variant``, and its ``names`` and target (``to``) where they were given."""
    head = _head(path)
    return {key: head[key] for key in SETTINGS if key in head} if "variant" in head else {}


def _head(path: Path) -> dict:
    """The journal's first line, where it is one (`_is_head`); a link is no journal."""
    if path.is_symlink():
        return {}
    try:
        first = read_bounded(path, MAX_BYTES, JOURNAL).split(b"\n", 1)[0]
        record = json.loads(first)
    except (FileNotFoundError, FileProblem, ValueError, RecursionError):
        return {}
    return record if _is_head(record) else {}


def append(path: Path, record: dict, head: dict | None = None) -> None:
    """Add one line to the journal, made when missing; never through a link. ``head``, the
    journal's first line (the deal, `deal_of`), goes before it where the journal is new.
    A torn last line (`torn_tail`: left out when the journal was read) is cut off first,
    and a whole one given its line break, so the line added is read whole."""
    try:
        descriptor, _ = open_or_make(path, os.O_RDWR | os.O_APPEND, JOURNAL)
    except FileNotFoundError:
        raise JournalError(f"{shown_path(path)}: cannot keep the hand's journal there") from None
    except FileProblem as problem:
        raise JournalError(str(problem)) from None
    try:
        content = _mended(descriptor, path)
        lines = [head, record] if head and not content else [record]
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        if content and not content.endswith(b"\n"):
            text = "\n" + text
        data = text.encode()
        if len(content) + len(data) > MAX_BYTES:  # written, it could not be read back
            raise JournalError(
                f"{shown_path(path)}: the step would take the hand's journal past"
                f" {MAX_BYTES // 1024 // 1024} MB: the step is not taken; the hand is kept"
            )
        append_whole(descriptor, path, data)
    except WriteProblem as problem:
        raise JournalError(f"{problem}: the step is not taken") from None
    except FileProblem as problem:
        raise JournalError(str(problem)) from None
    finally:
        os.close(descriptor)


def _mended(descriptor: int, path: Path) -> bytes:
    """The journal open on ``descriptor``, its torn last line (if any) cut off the file."""
    content = read_all(descriptor, path, MAX_BYTES, JOURNAL)
    start = torn_tail(content)
    if start is None:
        return content
    try:
        os.ftruncate(descriptor, start)
    except OSError as error:
        raise FileProblem(
            f"{shown_path(path)}: cannot cut off its torn last line: {error.strerror}"
        ) from None
    return content[:start]


def clear(path: Path) -> None:
    """Remove the journal of a hand now scored (a link there is left alone)."""
    if path.is_file() and not path.is_symlink():
        path.unlink()


def last_path(path: Path) -> Path:
    """Where the journal of the last hand scored is kept (``FILE.hand.last``), for
    `review` once the session has restarted."""
    return path.with_name(path.name + ".last")


def keep_last(path: Path) -> None:
    """The journal of a hand now scored kept as the last hand's (`last_path`), in one
    rename: the journal is gone as `clear` leaves it. A link is left alone (and a link
    planted at the last hand's name is replaced, never followed)."""
    if path.is_file() and not path.is_symlink():
        os.replace(path, last_path(path))


def set_aside(path: Path) -> Path | None:
    """Moves an unfinished hand's journal out of the way, never deleting it: renamed to
    the first free ``FILE.hand.aside``, ``.aside.2``, ... (linked there, no name taken
    over, then unlinked); where it went, or None when there is no journal."""
    if not path.is_file() or path.is_symlink():
        return None
    for number in range(1, 1000):
        aside = path.with_name(path.name + (".aside" if number == 1 else f".aside.{number}"))
        try:
            os.link(path, aside)
        except FileExistsError:
            continue
        except OSError as error:
            raise JournalError(
                f"{shown_path(path)}: cannot set the hand's journal aside: {error.strerror}"
            ) from None
        path.unlink()
        return aside
    raise JournalError(f"{shown_path(path)}: cannot set the hand's journal aside: too many")
