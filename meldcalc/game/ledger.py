"""A game's ledger: a file the players name, one JSON object per line, only ever appended.

The first line names the game and keeps the rules it began with (``rules``: the variant's
checked fields, merged), so a house file edited later changes no game under way; then each
scored hand is a line, written and synced to disk before the command reports it, so a
crash never loses a hand. Taking a hand back appends an ``undo`` line rather than
rewriting the file::

    {"ledger": "meldcalc", "format": 1, "variant": "single-deck", "target": 500, "rules": {...}}
    {"hand": 1, "bid": 300, "bidder": 0, ..., "points": [290, 150], "explanation": [...]}
    {"undo": 1}
    {"passed": 3}

A deal every seat passed is not played (the next dealer deals): ``meldcalc game`` keeps it
as a ``passed`` line, the deal's number counting hands and passed deals alike, so that
the deal goes round as it did at the table. A ledger written before ``rules`` was kept
reads its variant's file as it is now.

A line is written whole or not at all: a write that fails (a full disk) is cut back, so
the file is as it was. Only a crash or a power cut mid-write can leave a torn last line
(no line break, no whole JSON object): it is left out of the game, named, and nothing is
added after it until `Game.repair` drops it (kept in ``FILE.torn``). Any other line that
does not parse is reported as ``file:line: what is wrong`` and never written to: the
players fix it (or start a new file) before anything is added. A byte-order mark an
editor saved in front is read past, as in a variant file (and kept; none is written).

Reading the game, scoring a hand and appending it happen under an exclusive lock on the
file (`held`), so two players scoring at once get hands 6 and 7, never two hands 6.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meldcalc.errors import MeldcalcError, VariantError, WriteFailure, quote, shown_path
from meldcalc.files import (
    FULL,
    FileProblem,
    WriteProblem,
    append_whole,
    link_target,
    open_or_make,
    open_regular,
    read_all,
    still_named,
    sync_folder,
    torn_tail,
    unmarked,
)
from meldcalc.rules.loading import load_variant, variant_from_data
from meldcalc.rules.scoring import (
    MADE,
    NOT_PLAYED,
    PLAYED,
    SET,
    SHORT_OF_MELD,
    THROWN_IN,
    HandPlay,
    HandScore,
    Standing,
    score_hand,
    side_count,
    standing,
)
from meldcalc.rules.variant import Variant

try:
    import fcntl
except ImportError:  # no flock (Windows): a game is then one player's file at a time
    fcntl = None  # type: ignore[assignment]

FORMAT = 1
#: A ledger larger than this is not a ledger (a game is a few dozen lines).
MAX_BYTES = 16 * 1024 * 1024
#: The largest target, bid, meld or trick count a ledger holds: the bound of the options.
MAX_POINTS = 10_000_000
OUTCOMES = (MADE, SET, THROWN_IN, NOT_PLAYED, SHORT_OF_MELD, PLAYED)
LEDGER = "a meldcalc ledger"


class LedgerError(MeldcalcError):
    """A ledger file that cannot be read: names the file and line."""


@dataclass(frozen=True)
class Tear:
    """A torn last line: no line break after it and no whole JSON object in it, as a write
    cut short by a crash or a power cut leaves it. It is no part of the game."""

    path: Path
    line: int
    start: int  #: where the torn line begins: the whole lines end there
    size: int

    def __str__(self) -> str:
        return (
            f"{shown_path(self.path)}:{self.line}: a torn last line ({self.size} bytes, no"
            " line break), as an interrupted write leaves it"
        )

    @property
    def remedy(self) -> str:
        return f"`meldcalc score -g {shlex.quote(str(self.path))} --repair` drops it"

    @property
    def dropped(self) -> str:
        """What `Game.repair` did, in a sentence."""
        return (
            f"{shown_path(self.path)}:{self.line}: dropped a torn last line of {self.size}"
            f" bytes (kept in {shown_path(torn_copy(self.path))})"
        )


def torn_copy(path: Path) -> Path:
    """Where `Game.repair` keeps the torn lines it drops from ``path``, one a line."""
    return path.with_name(path.name + ".torn")


@dataclass(frozen=True)
class Ledger:
    """A game read from its file: the variant it is played under (its name in the file and
    its rules), its target, its hands; a torn last line left out (`Tear`), and ``notes``
    on the rules (the variant's file reads otherwise now)."""

    path: Path
    variant: str
    rules: Variant
    target: int
    hands: tuple[HandScore, ...]
    torn: Tear | None = None
    notes: tuple[str, ...] = ()
    names: tuple[str, ...] | None = None  #: the sides' names, as the game began
    trumps: tuple[str | None, ...] = ()  #: each hand's trump, where it was given
    passed: int = 0  #: the deals every seat passed, not played
    last_passed: bool = False  #: the last deal was passed (no hand may be taken back)

    @property
    def deals(self) -> int:
        """The deals so far: the hands scored and the deals passed."""
        return len(self.hands) + self.passed

    def standing(self) -> Standing:
        return standing(self.rules, self.hands, self.target)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the players should be told: a torn last line left out, then the notes."""
        if self.torn is None:
            return self.notes
        return (f"{self.torn}: the game is shown without it; {self.torn.remedy}", *self.notes)


def check_open(book: Ledger, target: int | None) -> None:
    """Refuses what would refuse the next deal's line: a torn last line, another target
    (``target``, as given), or a game already won. `meldcalc game` asks before a deal is
    typed, not once it is over."""
    if book.torn is not None:
        raise LedgerError(f"{book.torn}: nothing is added after it; {book.torn.remedy}")
    if target is not None and target != book.target:
        raise MeldcalcError(f"{shown_path(book.path)} is a game to {book.target}: leave out --to")
    done = book.standing()
    if done.winner is not None:
        raise MeldcalcError(
            f"{shown_path(book.path)}: the game is over ({done.reason}); start anew"
        )


def read(path: Path) -> Ledger | None:
    """The game in ``path``; None when the file does not exist yet, or holds no line."""
    with held(path, write=False) as game:
        return game.book


@contextmanager
def held(
    path: Path, write: bool = True, create: bool = False, repair: bool = False
) -> Iterator[Game]:
    """The game in ``path``, locked until the block ends: exclusively to ``write`` (read,
    score and append as one step), shared to read. ``create``: a missing file is made, to
    start the game in; left empty, it is removed again (only a file this call made).

    A torn last line is left out of the game read; writing after it is refused, unless the
    block is to ``repair`` it (`Game.repair`)."""
    opened = _open_locked(path, write, create)
    if opened is None:
        yield Game(path, None, b"", None)
        return
    descriptor, made = opened
    try:
        content = _content(path, descriptor)
        if not _begins_a_ledger(content):  # named, not quoted: a planted link points anywhere
            link = f" (a symbolic link to {target})" if (target := link_target(path)) else ""
            raise LedgerError(
                f"{shown_path(path)}{link}: not a meldcalc ledger (its first line is no ledger's"
                " header): name the file 'meldcalc score -g' keeps the game in"
            )
        book = _parsed(path, content)  # a bad line before a torn one first: --repair keeps it
        tear = None if repair else _tear(path, content)
        if tear is not None and (write or book is None):
            before = "nothing is added after it" if write else "no hand before it"
            raise LedgerError(f"{tear}: {before}; {tear.remedy}")
        game = Game(path, descriptor, content, book, made)
        try:
            yield game
        finally:
            if made and not game.content:  # nothing was added to the file made for it
                with suppress(OSError):  # still locked: a waiting writer opens the path afresh
                    os.unlink(path)
    finally:
        os.close(descriptor)


def _open_locked(path: Path, write: bool, create: bool) -> tuple[int, bool] | None:
    """A descriptor on the ledger, locked, and whether this call made the file; None when
    it does not exist (and not ``create``)."""
    flags = os.O_RDWR | os.O_APPEND if write else os.O_RDONLY
    while True:
        try:
            if create:
                descriptor, made = open_or_make(path, flags, LEDGER)
            else:
                descriptor, made = open_regular(path, flags, LEDGER), False
        except FileNotFoundError:
            if os.path.islink(path):
                raise LedgerError(_dangling(path, create)) from None
            if create:
                folder = shown_path(path.parent)
                raise LedgerError(
                    f"{shown_path(path)}: cannot start a game: no folder {folder}"
                ) from None
            return None
        except FileProblem as problem:  # a full disk may refuse even to make the file
            raise (WriteFailure if problem.errno in FULL else LedgerError)(str(problem)) from None
        if fcntl is not None:
            with suppress(OSError):  # a file system without locks: go on without
                fcntl.flock(descriptor, fcntl.LOCK_EX if write else fcntl.LOCK_SH)
        if still_named(path, descriptor):
            return descriptor, made
        os.close(descriptor)  # removed or replaced while we waited for the lock


def _begins_a_ledger(content: bytes) -> bool:
    """Whether the first line is a ledger's header, or the start of one a crash cut short
    (an empty file is the caller's to judge)."""
    first, newline, _ = unmarked(content).lstrip().partition(b"\n")
    start = b'{"ledger": "meldcalc"'  # how `meldcalc score -g` begins every ledger
    if not first or (not newline and start.startswith(first[: len(start)])):
        return True
    with suppress(ValueError, RecursionError):
        header = json.loads(first)
        return isinstance(header, dict) and header.get("ledger") == "meldcalc"
    return False


def _dangling(path: Path, create: bool) -> str:
    """A link to a missing file: no game, and never a file made where the link points."""
    what = f"{shown_path(path)}: a symbolic link to {link_target(path) or 'a missing file'}"
    what += ", which does not exist"
    return what + (": a game is not started through a link; name the file itself" if create else "")


def _content(path: Path, descriptor: int) -> bytes:
    try:
        return read_all(descriptor, path, MAX_BYTES, "a meldcalc ledger")
    except FileProblem as problem:
        raise LedgerError(str(problem)) from None


def _parsed(path: Path, content: bytes) -> Ledger | None:
    """The game in ``content``, a torn last line left out; None for an empty file (or one
    of blank lines): a game not begun, which the first hand scored begins."""
    tear = _tear(path, content)
    records = list(_records(path, content if tear is None else content[: tear.start]))
    return _game(path, records, tear) if records else None


def _tear(path: Path, content: bytes) -> Tear | None:
    """The last line, if a write was cut short there (`torn_tail`)."""
    start = torn_tail(unmarked(content))
    if start is None:
        return None
    return Tear(path, content.count(b"\n") + 1, start, len(content) - start)


def _records(path: Path, content: bytes) -> Any:
    for number, raw in enumerate(unmarked(content).split(b"\n"), start=1):
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
            why = "nested too deep" if isinstance(error, RecursionError) else quote(str(error), 80)
            raise LedgerError(f"{where}: not a JSON object: {why}") from None
        if not isinstance(record, dict):
            raise LedgerError(f"{where}: expected a JSON object, got {quote(record)}")
        yield where, record


def _game(path: Path, records: list[tuple[str, dict]], tear: Tear | None) -> Ledger:
    where, header = records[0]
    variant, target, rules, kept = _header(path, where, header)
    names = _names(where, header.get("names"), side_count(rules))
    question = "was the file edited?" if kept is not None else _question(variant)
    hands: list[HandScore] = []
    trumps: list[str | None] = []
    passed, last_passed = 0, False
    for where, record in records[1:]:
        if "passed" in record:
            deal = len(hands) + passed + 1
            if (
                set(record) != {"passed"}
                or not _is_count(record["passed"])
                or (record["passed"] != deal)
            ):
                raise LedgerError(f'{where}: expected {{"passed": {deal}}}, the next deal passed')
            passed += 1
            last_passed = True
            continue
        if "undo" in record:
            if record["undo"] != len(hands) or not hands:
                raise LedgerError(f"{where}: undo {quote(record['undo'])}: not the last hand")
            if last_passed:  # taking it back would deal its number again
                raise LedgerError(
                    f"{where}: undo {quote(record['undo'])}: a passed deal follows the last hand"
                )
            hands.pop()
            trumps.pop()
            continue
        if record.get("hand") != len(hands) + 1:
            raise LedgerError(
                f"{where}: expected hand {len(hands) + 1}, got {quote(record.get('hand'))}"
            )
        hands.append(_hand(where, record, rules, question))
        last_passed = False
        trumps.append(_trump(where, record.get("trump")))
    kept = kept or ()
    return Ledger(
        path, variant, rules, target, tuple(hands), tear, kept, names, tuple(trumps), passed,
        last_passed,
    )  # fmt: skip


def _trump(where: str, trump: object) -> str | None:
    """A hand's trump as the line keeps it: a suit's letter, or none (not given)."""
    if trump is None or trump in ("S", "H", "D", "C"):
        return trump
    raise LedgerError(f"{where}: trump {quote(trump)}: expected S, H, D, C or null")


#: The longest side name: it heads a column of the game's table.
MAX_NAME = 40


def is_name(name: object) -> bool:
    """A side's name as a game keeps it: 1 to `MAX_NAME` printable characters (no terminal
    escapes, no line breaks), not all blanks."""
    return (
        isinstance(name, str)
        and bool(name.strip())
        and name.isprintable()
        and len(name) <= MAX_NAME
    )


def _names(where: str, names: object, sides: int) -> tuple[str, ...] | None:
    """The sides' names a header keeps: one a side, each as `--names` takes them (an
    edited header may hold anything: it is checked as the option is)."""
    if names is None:
        return None
    if not isinstance(names, list) or len(names) != sides or not all(map(is_name, names)):
        raise LedgerError(
            f"{where}: names {quote(names)}: expected {sides} names, one a side, each of 1 to"
            f" {MAX_NAME} printable characters"
        )
    return tuple(names)


def _question(variant: str) -> str:
    """What to ask of a hand that does not add up under rules read from their file now."""
    return f"was the file edited, or did {shown_path(variant)} change since the game began?"


def _header(
    path: Path, where: str, header: dict
) -> tuple[str, int, Variant, tuple[str, ...] | None]:
    """The game's variant name, target and rules, from its first line; with the notes on
    the rules it keeps (None for a ledger that keeps none: its variant's file is read)."""
    if header.get("ledger") != "meldcalc" or header.get("format") != FORMAT:
        raise LedgerError(f"{where}: expected the header of a meldcalc ledger (format {FORMAT})")
    variant, target = header.get("variant"), header.get("target")
    if not isinstance(variant, str):
        raise LedgerError(f"{where}: the header needs a variant name, got {quote(variant)}")
    if not _is_count(target) or not 1 <= target <= MAX_POINTS:
        raise LedgerError(
            f"{where}: target {quote(target)}: expected a whole number from 1 to {MAX_POINTS}"
        )
    if "rules" in header:
        return (variant, target, *_kept_rules(path, where, variant, header["rules"]))
    try:
        return variant, target, load_variant(variant), None
    except MeldcalcError as error:
        raise LedgerError(f"{where}: variant {quote(variant, 200)}: {_why(error)}") from None


def _kept_rules(
    path: Path, where: str, variant: str, kept: object
) -> tuple[Variant, tuple[str, ...]]:
    """The rules the game began with, as its header keeps them; and a note when the variant
    it names reads otherwise now (a house file edited since, another meldcalc's table)."""
    try:
        now: Variant | None = load_variant(variant)
    except MeldcalcError as error:
        now, why = None, _why(error)
    if now is not None and now.data == kept:
        return now, ()
    line = int(where.rpartition(":")[2])
    try:
        rules = variant_from_data(kept, shown_path(path), line, "rules")
    except VariantError as error:
        raise LedgerError(_why(error)) from None
    game = shown_path(path)
    if now is None:
        change = f"{game}: its variant cannot be read now ({why})"
    else:
        change = f"{game}: {shown_path(variant)} has changed since the game began"
    return rules, (f"{change}: the game keeps the rules it began with",)


def _why(error: MeldcalcError) -> str:
    """An error's first problem, and how many more."""
    if not isinstance(error, VariantError):
        return str(error)
    more = len(error.problems) - 1
    others = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{error.problems[0]}{others}"


def _hand(
    where: str, record: dict, rules: Variant, question: str = "was the file edited?"
) -> HandScore:
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
                f" and tricks (expected {quote(wanted)}): {question}"
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
        taken, counters = record.get("tricks_taken"), record.get("counters_taken")
        play = HandPlay(
            bid=_count(record["bid"]),
            bidder=_count(record["bidder"]),
            meld=_counts(record["meld"]),
            tricks=None if record["tricks"] is None else _counts(record["tricks"]),
            checks=_counts(record["checks"]),
            thrown_in=_flag(record["thrown_in"]),
            no_marriage=_flag(record["no_marriage"]),
            tricks_taken=None if taken is None else _counts(taken),
            counters_taken=None if counters is None else _counts(counters),
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
        "counters_taken": None if play.counters_taken is None else list(play.counters_taken),
        "outcome": score.outcome,
        "bidding_side": score.bidding_side,
        "counted_meld": list(score.counted_meld),
        "points": list(score.points),
        "scored_checks": list(score.checks),
        "explanation": list(score.explanation),
    }


def header(
    variant: str, target: int, rules: dict | None = None, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The first line of a game; ``rules``: the variant's data (`Variant.data`) it keeps;
    ``names``: the sides' names, one a side."""
    line = {"ledger": "meldcalc", "format": FORMAT, "variant": variant, "target": target}
    return line | ({"names": list(names)} if names else {}) | ({"rules": rules} if rules else {})


@dataclass
class Game:
    """A ledger held under its lock (`held`): the game as read (None before the first
    hand), and the way to add to it."""

    path: Path
    descriptor: int | None
    content: bytes
    book: Ledger | None
    made: bool = False  #: the file was made for this game, by this command

    def add_hand(
        self,
        rules: Variant,
        variant: str,
        target: int | None,
        score: HandScore,
        trump: str | None,
        names: Sequence[str] | None = None,
    ) -> Ledger:
        """Append a scored hand (starting the game, under ``variant``, ``target`` and the
        sides' ``names``, when there is none yet) and read the game back."""
        new = self._begun(rules, variant, target, names)
        new.append(hand_record(len(self.book.hands) + 1 if self.book else 1, score, trump))
        return self._append(*new)

    def add_passed(
        self, rules: Variant, variant: str, target: int | None, names: Sequence[str] | None
    ) -> Ledger:
        """Append a deal every seat passed (starting the game as `add_hand` does)."""
        new = self._begun(rules, variant, target, names)
        new.append({"passed": self.book.deals + 1 if self.book else 1})
        return self._append(*new)

    def _begun(
        self, rules: Variant, variant: str, target: int | None, names: Sequence[str] | None
    ) -> list[dict[str, Any]]:
        """The game's first line when there is none yet; else checks that a deal may be
        added (the same target, the game not over)."""
        if self.book is None:
            goal = target or rules.game_target
            if goal is None:
                raise MeldcalcError(f"{rules.name} names no game target: give one with --to")
            return [header(variant, goal, rules.data, names)]
        check_open(self.book, target)
        return []

    def undo_last(self) -> Ledger:
        """Take the last hand back: an ``undo`` line, never a rewrite."""
        if self.book is None or not self.book.hands:
            raise MeldcalcError(f"{shown_path(self.path)}: no hand to take back")
        if self.book.last_passed:
            raise MeldcalcError(
                f"{shown_path(self.path)}: the last deal was passed by every seat, after the"
                " last hand: that hand can no longer be taken back"
            )
        return self._append({"undo": len(self.book.hands)})

    def repair(self) -> Tear | None:
        """Drop a torn last line, first kept at the end of `torn_copy`; None when the
        last line is whole."""
        tear = self.book.torn if self.book else _tear(self.path, self.content)
        if tear is None or self.descriptor is None:
            return None
        _keep(torn_copy(self.path), self.content[tear.start :] + b"\n")
        try:
            os.ftruncate(self.descriptor, tear.start)
            os.fsync(self.descriptor)
        except OSError as error:
            raise WriteFailure(
                f"{shown_path(self.path)}: cannot drop the torn line: {error.strerror}"
            ) from None
        self.content = self.content[: tear.start]
        self.book = _parsed(self.path, self.content)
        return tear

    def _append(self, *records: dict[str, Any]) -> Ledger:
        """Add lines at the end of the file, on disk before returning (synced), and read the
        game back. A write that fails leaves the file as it was (`append_whole`)."""
        if self.descriptor is None:
            raise MeldcalcError(f"{shown_path(self.path)}: no such game yet")
        text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
        if unmarked(self.content).strip() and not self.content.endswith(b"\n"):
            text = "\n" + text  # an edited file may lack its last line break
        try:  # what is written is what every later command reads back: check it first
            _parsed(self.path, self.content + text.encode())
        except LedgerError as error:
            raise LedgerError(
                f"not recorded, since the game could not be read back: {error}"
            ) from None
        try:
            append_whole(self.descriptor, self.path, text.encode())
        except WriteProblem as problem:
            if problem.restored:
                raise WriteFailure(f"{problem}; nothing was added") from None
            tear = Tear(self.path, self.content.count(b"\n") + 1, len(self.content), 0)
            raise WriteFailure(f"{problem}; a torn line may be left: {tear.remedy}") from None
        if self.made and not self.content:
            sync_folder(self.path)  # the new file's name on disk too
        self.content = _content(self.path, self.descriptor)
        self.book = _parsed(self.path, self.content)
        assert self.book is not None
        return self.book


def _keep(path: Path, data: bytes) -> None:
    """Add ``data`` to the end of ``path``, made when missing (removed again if the data
    could not be written to it)."""
    try:
        descriptor, made = open_or_make(path, os.O_WRONLY | os.O_APPEND, "a file of torn lines")
    except FileNotFoundError:
        raise LedgerError(f"{shown_path(path)}: cannot keep the torn line there") from None
    except FileProblem as problem:
        raise LedgerError(f"{problem}: the torn line is not dropped") from None
    try:
        append_whole(descriptor, path, data)
    except WriteProblem as problem:
        if made:
            with suppress(OSError):
                os.unlink(path)
        raise WriteFailure(f"{problem}: the torn line is not dropped") from None
    finally:
        os.close(descriptor)


def append(path: Path, *records: dict[str, Any]) -> Ledger:
    """Add lines at the end of ``path`` (made when missing), under its lock."""
    with held(path, create=True) as game:
        return game._append(*records)
