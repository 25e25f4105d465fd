"""What the quiz remembers: the study file, one card per kind and theme per variant,
scheduled by FSRS, and a rating per variant.

The file lives in the user's data folder (``platformdirs``: ``~/.local/share/meldcalc/
study.json`` on Linux; ``MELDCALC_DATA_DIR`` moves it, an absolute path only, as the cache's
folder)::

    {"study": "meldcalc", "format": 1,
     "variants": {"single-deck": {"rating": 1216, "cards": {"total/reuse": {
         "right": 3, "wrong": 1, "fsrs": {...an fsrs.Card...}}}}},
     "quizzes": [{"seed": 812, "variant": "single-deck", "asked": "mix",
                  "plan": ["total/reuse/1200", ...]}]}

Each card is an `fsrs.Card` (Anki's scheduler: a memory model sets when a card is due, a
lapse brings it back within minutes, a right answer pushes it out by days as it is
learnt); fuzzing is off, so the same answers give the same dates. ``quizzes`` keeps the
plan of the last few quizzes by seed, so ``--seed`` asks a quiz again as it was.

The file is rewritten whole on every answer: to a temporary file, synced, renamed over it
(`os.replace`), so a crash leaves the old file or the new one, never half of either. At
load it is checked like a ledger: a symbolic link is not followed, a file larger than
`MAX_BYTES`, not JSON, or not of this shape is set aside under another name (said so)
and a new one begun. Two quizzes at once take turns on a lock, so neither loses answers.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from meldcalc.errors import shown_path
from meldcalc.files import FileProblem, read_all, sync_folder

FORMAT = 1
#: A study file larger than this is not one (a year of daily quizzes is a few KB).
MAX_BYTES = 4 * 1024 * 1024
#: The quizzes whose plan is kept, to ask them again by seed.
KEPT_QUIZZES = 20
START_RATING = 1200
#: How far one answer moves the learner's rating (Elo's K).
RATING_STEP = 32
ENVIRONMENT = "MELDCALC_DATA_DIR"
STUDY = "study.json"


def study_path() -> Path | None:
    """Where the study file is: ``$MELDCALC_DATA_DIR/study.json`` if that is absolute (a
    relative one turns memory off), else the user's data folder; None when there is none."""
    moved = os.environ.get(ENVIRONMENT)
    if moved:
        return Path(moved) / STUDY if os.path.isabs(moved) else None
    try:
        import platformdirs

        return Path(platformdirs.user_data_dir("meldcalc", appauthor=False)) / STUDY
    except Exception:
        return None


def now() -> datetime:
    return datetime.now(timezone.utc)


def card_key(kind: str, theme: str) -> str:
    return f"{kind}/{theme}"


# --- the data -------------------------------------------------------------------------------


@dataclass
class Card:
    """One question kind and theme of one variant: FSRS's card and the answers so far."""

    fsrs: dict[str, Any]
    right: int = 0
    wrong: int = 0

    @property
    def due(self) -> datetime:
        return datetime.fromisoformat(self.fsrs["due"])

    @property
    def reviewed(self) -> datetime | None:
        last = self.fsrs.get("last_review")
        return None if last is None else datetime.fromisoformat(last)


@dataclass
class Learner:
    """A learner's record in one variant."""

    rating: int = START_RATING
    cards: dict[str, Card] = field(default_factory=dict)


@dataclass
class Study:
    path: Path | None
    variants: dict[str, Learner] = field(default_factory=dict)
    quizzes: list[dict[str, Any]] = field(default_factory=list)
    #: What happened at load that the learner should be told (a file set aside).
    notes: tuple[str, ...] = ()

    def learner(self, variant: str) -> Learner:
        return self.variants.setdefault(variant, Learner())

    def to_json(self) -> dict[str, Any]:
        return {
            "study": "meldcalc",
            "format": FORMAT,
            "variants": {
                name: {
                    "rating": learner.rating,
                    "cards": {
                        key: {"right": c.right, "wrong": c.wrong, "fsrs": c.fsrs}
                        for key, c in learner.cards.items()
                    },
                }
                for name, learner in self.variants.items()
            },
            "quizzes": self.quizzes[-KEPT_QUIZZES:],
        }


# --- FSRS ---------------------------------------------------------------------------------------


def _scheduler() -> Any:
    from fsrs import Scheduler

    return Scheduler(enable_fuzzing=False)


def new_card(when: datetime) -> dict[str, Any]:
    from fsrs import Card as FsrsCard

    return FsrsCard(card_id=1, due=when).to_dict()


def reviewed(card: dict[str, Any], right: bool, when: datetime) -> dict[str, Any]:
    """The FSRS card after an answer: right is "good", wrong is "again" (a lapse)."""
    from fsrs import Card as FsrsCard
    from fsrs import Rating

    rating = Rating.Good if right else Rating.Again
    after, _ = _scheduler().review_card(FsrsCard.from_dict(card), rating, when)
    return after.to_dict()


def retrievability(card: Card, when: datetime) -> float:
    """FSRS's chance the learner still knows the card at ``when`` (0 for a new one)."""
    from fsrs import Card as FsrsCard

    return _scheduler().get_card_retrievability(FsrsCard.from_dict(card.fsrs), when)


def expected_score(learner: int, question: int) -> float:
    """Elo's expected score of a learner rated ``learner`` on a question rated ``question``."""
    return 1 / (1 + 10 ** ((question - learner) / 400))


def record(
    study: Study, variant: str, kind: str, theme: str, rating: int, right: bool, when: datetime
) -> Card:
    """An answer in the study (in memory): the card rescheduled, its counts, the rating."""
    learner = study.learner(variant)
    key = card_key(kind, theme)
    card = learner.cards.get(key) or Card(new_card(when))
    card.fsrs = reviewed(card.fsrs, right, when)
    card.right += right
    card.wrong += not right
    learner.cards[key] = card
    change = RATING_STEP * (right - expected_score(learner.rating, rating))
    learner.rating = max(100, min(3000, round(learner.rating + change)))
    return card


# --- reading and writing --------------------------------------------------------------------


class Damaged(Exception):
    """Why a study file cannot be read, in words."""


def load(path: Path | None) -> Study:
    """The study in ``path``: a new one when it does not exist; a damaged one set aside
    (its notes say where) and a new one begun."""
    if path is None:
        return Study(None)
    try:
        raw = _read(path)
    except FileNotFoundError:
        return Study(path)
    except Damaged as problem:
        return Study(path, notes=(_set_aside(path, str(problem)),))
    try:
        return _parsed(path, raw)
    except Damaged as problem:
        return Study(path, notes=(_set_aside(path, str(problem)),))


def _read(path: Path) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    if os.path.islink(path):
        raise Damaged("a symbolic link, not followed")
    try:
        descriptor = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):  # nothing there yet, or no folder to hold it
        raise FileNotFoundError(path) from None
    except OSError as error:
        raise Damaged(f"cannot be read ({error.strerror})") from None
    try:
        import stat

        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise Damaged("not a regular file")
        return read_all(descriptor, path, MAX_BYTES, "a study file")
    except FileProblem as problem:
        raise Damaged(str(problem).split(": ", 1)[-1]) from None
    finally:
        os.close(descriptor)


def _set_aside(path: Path, reason: str) -> str:
    """Rename the damaged file (or link) out of the way; the note says so."""
    for number in range(1, 1000):
        aside = path.with_name(f"{path.name}.damaged{'' if number == 1 else f'-{number}'}")
        if not os.path.lexists(aside):
            break
    try:
        os.replace(path, aside)
    except OSError as error:
        return f"{shown_path(path)}: {reason}, and it cannot be set aside ({error.strerror})"
    return f"{shown_path(path)}: {reason}; set aside as {shown_path(aside)}, a new one begun"


def _parsed(path: Path, raw: bytes) -> Study:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Damaged("not a study file (not JSON: cut short, or edited?)") from None
    if not isinstance(data, dict) or data.get("study") != "meldcalc":
        raise Damaged("not a meldcalc study file")
    if data.get("format") != FORMAT:
        raise Damaged(f"a study file of format {data.get('format')!r}, not {FORMAT}")
    variants = _expect(data, "variants", dict)
    quizzes = _expect(data, "quizzes", list)
    study = Study(path, quizzes=[_quiz(quiz) for quiz in quizzes])
    for name, learner in variants.items():
        study.variants[str(name)] = _learner(learner, name)
    return study


def _expect(data: Any, key: str, kind: type, where: str = "") -> Any:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise Damaged(f"{where}{key}: expected {kind.__name__}")
    return value


def _learner(data: Any, name: str) -> Learner:
    where = f"variants.{name}."
    rating = _expect(data, "rating", int, where)
    if not 0 <= rating <= 4000:
        raise Damaged(f"{where}rating: {rating} is out of range")
    learner = Learner(rating)
    for key, card in _expect(data, "cards", dict, where).items():
        learner.cards[str(key)] = _card(card, f"{where}cards.{key}.")
    return learner


def _card(data: Any, where: str) -> Card:
    right, wrong = _expect(data, "right", int, where), _expect(data, "wrong", int, where)
    fsrs = _expect(data, "fsrs", dict, where)
    if right < 0 or wrong < 0:
        raise Damaged(f"{where}right/wrong: expected counts")
    try:
        from fsrs import Card as FsrsCard

        checked = FsrsCard.from_dict(fsrs)
        if checked.due.tzinfo is None:
            raise ValueError("a date without its zone")
        for value in (checked.stability, checked.difficulty):
            if value is not None and not math.isfinite(value):
                raise ValueError("not a number")
    except (KeyError, ValueError, TypeError, OverflowError) as error:
        raise Damaged(f"{where}fsrs: not a scheduler's card ({error})") from None
    return Card(checked.to_dict(), right, wrong)


def _quiz(data: Any) -> dict[str, Any]:
    _expect(data, "seed", int, "quizzes.")
    _expect(data, "variant", str, "quizzes.")
    _expect(data, "asked", str, "quizzes.")
    plan = _expect(data, "plan", list, "quizzes.")
    if not all(isinstance(step, str) and step.count("/") == 2 for step in plan):
        raise Damaged("quizzes.plan: expected kind/theme/rating steps")
    return data


def save(study: Study) -> None:
    """Write the study whole: a temporary file beside it, synced, renamed over it."""
    if study.path is None:
        return
    import tempfile

    folder = study.path.parent
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = json.dumps(study.to_json(), ensure_ascii=False, indent=1).encode() + b"\n"
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".study-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, study.path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    sync_folder(study.path)


@contextmanager
def held(path: Path | None) -> Iterator[Study]:
    """The study in ``path`` under a lock, written back when the block ends."""
    if path is None:
        yield Study(None)
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with _locked(path.with_name(path.name + ".lock")):
        study = load(path)
        yield study
        save(study)


@contextmanager
def _locked(lock: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # no flock (Windows): one quiz at a time
        yield
        return
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def update(path: Path | None, change: Callable[[Study], Any]) -> Any:
    """Apply ``change`` to the study in ``path`` and write it: one answer, kept at once."""
    with held(path) as study:
        return change(study)


# --- what is due, in words ------------------------------------------------------------------


def due_words(due: datetime, when: datetime) -> str:
    """``now``, ``in 10 minutes``, ``in 3 days``, ``2 days ago``."""
    seconds = (due - when).total_seconds()
    if abs(seconds) < 30:
        return "now"
    amount = abs(seconds)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if amount >= size * 0.85 or unit == "minute":  # 23 hours: in 1 day
            count = max(1, round(amount / size))
            words = f"{count} {unit}{'' if count == 1 else 's'}"
            return f"in {words}" if seconds > 0 else f"{words} ago"
    return "now"


def local_time(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
