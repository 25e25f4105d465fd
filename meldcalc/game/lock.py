"""One writer per game: the lock a `meldcalc game` session holds on its game for as long as
it runs, as SQLite holds a database while it writes.

The lock is ``fcntl.flock`` on a file beside the ledger (``FILE.lock``), taken without
waiting: a second session, or `meldcalc score -g` adding to the same game, is told at once
which file is held and by whom, and not let in. `score -g` commands share it among
themselves (each adds its hand in turn under the ledger's own lock, as before), so two
players scoring at once still get hands 6 and 7; a session waits a moment for them.
The lock is the kernel's, so it dies with its process: a session killed (kill -9, a
closed terminal, a power cut) leaves no lock behind, only a file that the next one takes
again. The holder removes the file when it
ends, under the lock; a command that opened the file before then sees it removed and opens
it afresh (`still_named`), so two commands never hold two different files of one name.

The standard library's flock is enough on this POSIX-only tool: the ``filelock`` package
would add a dependency for a lock this module takes in a few lines, and its soft (file
exists) fallback is the stale-lock problem flock does not have.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from meldcalc.errors import MeldcalcError, shown_path
from meldcalc.files import FileProblem, open_or_make, still_named

try:
    import fcntl
except ImportError:  # no flock (Windows): a game is then one player's at a time by trust
    fcntl = None  # type: ignore[assignment]

LOCK = "a meldcalc game lock"
#: What a lock file may say of its holder: a line, never more.
MAX_HOLDER = 200


class GameHeld(MeldcalcError):
    """The game is held by another session: not bad input, so exit code 1."""

    exit_code = 1


def lock_path(ledger: Path) -> Path:
    return ledger.with_name(ledger.name + ".lock")


#: How long a session waits for commands adding a hand (`meldcalc score -g`, a moment's
#: work each) to finish before it is refused; a session holding the game refuses at once.
WAIT_FOR_SCORES = 5.0


@contextmanager
def holding(ledger: Path, who: str, shared: bool = False) -> Iterator[Path]:
    """The game of ``ledger`` held by this process until the block ends; `GameHeld` at once
    where a session holds it. A session (``who`` written in the lock file for the next comer
    to be told) holds it alone; commands that add a hand and end (``shared``) hold it
    together, and take their turns at the ledger under its own lock. A link planted as the
    lock file is refused, never followed, and so is a ledger of several names (hard
    links): the lock is its name's, so each name would let in a session of its own."""
    _one_name(ledger)
    path = lock_path(ledger)
    descriptor = _taken(path, shared)
    if descriptor is None:  # no folder: no game to hold (what uses it says so)
        yield path
        return
    try:
        if not shared:  # who holds it: a courtesy to the next comer, not the lock
            with suppress(OSError):
                os.ftruncate(descriptor, 0)
                os.write(descriptor, f"{who}, process {os.getpid()}\n".encode())
        yield path
    finally:
        with suppress(OSError):  # held alone: whoever waits opens the name afresh
            if not shared and still_named(path, descriptor):
                os.unlink(path)
        os.close(descriptor)


def _one_name(ledger: Path) -> None:
    """Refuse a ledger that other names share (a hard link): two sessions, one on each
    name, would each hold a lock of their own and score one game's hands twice."""
    with suppress(OSError):  # no ledger yet (a new game), or none to read: told elsewhere
        names = os.stat(ledger).st_nlink
        if names > 1:
            raise MeldcalcError(
                f"{shown_path(ledger)}: the game's file has {names} names (hard links), and a"
                " game is held by its name, so two sessions could score it at once: copy it"
                " to a file of its own (cp) and play that, or remove the other names"
            )


def _taken(path: Path, shared: bool) -> int | None:
    """A descriptor on the lock file, locked by this process; None where its folder is
    missing."""
    waited = 0.0
    while True:
        descriptor = _opened(path)
        if descriptor is None or fcntl is None:
            return descriptor
        try:
            fcntl.flock(descriptor, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(descriptor)
            os.close(descriptor)
            if not shared and not holder and waited < WAIT_FOR_SCORES:
                time.sleep(0.1)  # hands being added, not a session: wait for them to end
                waited += 0.1
                continue
            raise GameHeld(
                f"{shown_path(path)}: another meldcalc session holds this game"
                f"{f' ({holder})' if holder else ''}: finish it there first"
            ) from None
        except OSError:  # a file system without locks: go on without
            return descriptor
        if still_named(path, descriptor):
            return descriptor
        os.close(descriptor)  # removed by its last holder as we took it: take the new one


def _opened(path: Path) -> int | None:
    try:
        return open_or_make(path, os.O_RDWR, LOCK)[0]
    except FileNotFoundError:
        if os.path.islink(path):
            raise MeldcalcError(
                f"{shown_path(path)}: a symbolic link, not the game's lock: remove it"
            ) from None
        return None
    except FileProblem as problem:
        raise MeldcalcError(f"{problem}: the game cannot be locked") from None


def _holder(descriptor: int) -> str:
    """What the holder wrote of itself, one printable line (a hostile file says nothing)."""
    try:
        text = os.pread(descriptor, MAX_HOLDER, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    return text if text.isprintable() else ""
