"""Reading a file someone named (a variant, a game's ledger, a cache entry) without surprises,
and adding to one all or nothing.

The file is opened without blocking and checked once open, so a FIFO, a device or a folder
is refused without hanging, whatever the name pointed to when it was looked up; and it is
read only up to a bound, so a huge file is refused without being read into memory. What is
appended (`append_whole`) is on disk whole, or the file is cut back to what it was; what
a crash cut short before (`torn_tail`) is found at the end of a file of JSON lines.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

from meldcalc.errors import quote, shown_path


class FileProblem(Exception):
    """Why a file cannot be read, as a whole message naming it; ``errno``: the system's
    reason, where there is one."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


def read_bounded(path: Path, limit: int, expected: str) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; ``expected`` says
    what it should be ("a variant file") in the message of a `FileProblem`. A missing file
    raises FileNotFoundError, for the caller to say what that means."""
    descriptor = open_regular(path, os.O_RDONLY, expected)
    try:
        return read_all(descriptor, path, limit, expected)
    finally:
        os.close(descriptor)


def read_shipped_json(path: Path, limit: int, what: str, way_out: str) -> object:
    """The JSON of a data file the package ships (``what``: "the learned policy's weights"),
    read as `read_bounded` reads, nested no deeper than Python parses; a missing, damaged
    or swapped file is one `MeldcalcError` ending in ``way_out`` (how to mend it)."""
    from meldcalc.errors import MeldcalcError

    try:
        return json.loads(read_bounded(path, limit, what))
    except FileProblem as problem:
        raise MeldcalcError(f"{problem}: {way_out}") from None
    except (OSError, ValueError, RecursionError) as error:
        why = "nested too deep" if isinstance(error, RecursionError) else error
        raise MeldcalcError(f"{path}: unreadable, {what} ({why}): {way_out}") from None


def open_regular(path: Path, flags: int, expected: str, mode: int = 0o666) -> int:
    """A descriptor on ``path`` opened with ``flags``, refused (`FileProblem`) unless it is
    a regular file: opened without blocking, so a FIFO never hangs, and to write never
    through a symbolic link. A missing file (or a link to one) raises FileNotFoundError;
    under ``O_CREAT | O_EXCL`` an existing one raises FileExistsError."""
    name = shown_path(path)
    writing = flags & (os.O_WRONLY | os.O_RDWR) != 0
    if writing:  # a link planted where meldcalc writes would aim the write elsewhere
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), mode)
    except (FileNotFoundError, FileExistsError):
        raise
    except OSError as error:
        if error.errno == errno.EISDIR:
            raise FileProblem(f"{name}: not a regular file (a folder)") from None
        if error.errno == errno.ELOOP and writing and os.path.islink(path):
            if not os.path.exists(path):
                missing = FileNotFoundError(errno.ENOENT, "a link to a missing file", str(path))
                raise missing from None
            raise FileProblem(
                f"{name}: a symbolic link (to {shown_path(Path(os.path.realpath(path)))}):"
                " meldcalc writes through no link (name the file itself, or remove the link)"
            ) from None
        doing = "read" if flags & (os.O_WRONLY | os.O_RDWR) == 0 else "write"
        raise FileProblem(f"{name}: cannot {doing}: {error.strerror}", error.errno) from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        what = "a folder" if stat.S_ISDIR(mode) else f"expected {expected}"
        raise FileProblem(f"{name}: not a regular file ({what})")
    return descriptor


def link_target(path: Path) -> str | None:
    """Where a symbolic link points, quoted (for a message); None where ``path`` is no link."""
    try:
        return quote(os.readlink(path), 200)
    except OSError:
        return None


def open_or_make(path: Path, flags: int, expected: str) -> tuple[int, bool]:
    """`open_regular`, making the file when it is missing; True when this call made it, so
    the caller removes only what it made. A link to a missing file is not followed to make
    its target: it raises FileNotFoundError, as a missing folder does."""
    while True:
        try:
            return open_regular(path, flags | os.O_CREAT | os.O_EXCL, expected), True
        except FileExistsError:
            pass
        try:
            return open_regular(path, flags, expected), False
        except FileNotFoundError:
            if os.path.islink(path):
                raise
            # removed since it was seen: make it after all


def read_all(descriptor: int, path: Path, limit: int, expected: str) -> bytes:
    """Everything in the open file ``descriptor`` (of ``path``), from its start, up to
    ``limit`` bytes; the descriptor stays open."""
    name = shown_path(path)
    chunks, size = [], 0
    try:
        os.lseek(descriptor, 0, os.SEEK_SET)
        while size <= limit and (chunk := os.read(descriptor, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise FileProblem(f"{name}: cannot read: {error.strerror}") from None
    if size > limit:
        raise FileProblem(f"{name}: larger than {_size(limit)}: not {expected}")
    return b"".join(chunks)


#: What a write meets when the disk (or the user's share of it) is full: not bad input.
FULL = frozenset(
    code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG) if code
)


class WriteProblem(FileProblem):
    """Why data could not be added to a file; ``restored``: the file is as it was before."""

    def __init__(self, message: str, restored: bool) -> None:
        super().__init__(message)
        self.restored = restored


def append_whole(descriptor: int, path: Path, data: bytes) -> None:
    """Add ``data`` at the end of the open file (opened ``O_APPEND``) and sync it to disk,
    all of it or none: on any failure (a full disk, a quota, a file-size limit) the file
    is cut back to its size before and synced, and `WriteProblem` says why."""
    size = os.fstat(descriptor).st_size
    try:
        written = os.write(descriptor, data)
        while written < len(data):  # a short write: the next one says why, or ends the data
            more = os.write(descriptor, data[written:])
            if not more:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            written += more
        os.fsync(descriptor)
    except OSError as error:
        name = shown_path(path)
        try:
            os.ftruncate(descriptor, size)
            os.fsync(descriptor)
        except OSError as undo:
            raise WriteProblem(
                f"{name}: cannot write: {error.strerror}, and cannot cut the file back to"
                f" its {size} bytes before: {undo.strerror}",
                restored=False,
            ) from None
        raise WriteProblem(f"{name}: cannot write: {error.strerror}", restored=True) from None


#: What some editors (Notepad) write before UTF-8 text: a byte-order mark.
BOM = b"\xef\xbb\xbf"


def unmarked(content: bytes) -> bytes:
    """``content`` with a leading byte-order mark read as blanks: of the same length, so
    every place in it is still the file's."""
    return b" " * len(BOM) + content[len(BOM) :] if content.startswith(BOM) else content


def torn_tail(content: bytes) -> int | None:
    """Where the last line of ``content`` (JSON lines) begins, if a write was cut short
    there: no line break ends it, and it holds no whole JSON object (a whole line without
    its break is a line, as an editor may leave it; no shorter part of a JSON object is
    one). None when the last line is whole, or blank."""
    start = content.rfind(b"\n") + 1
    tail = content[start:]
    return None if not tail.strip() or _is_object(tail) else start


def _is_object(raw: bytes) -> bool:
    try:
        return isinstance(json.loads(raw), dict)
    except (ValueError, RecursionError):
        return False


def still_named(path: Path, descriptor: int) -> bool:
    """Whether ``path`` still names the file open on ``descriptor``: not removed or
    replaced while a lock on it was waited for."""
    try:
        named, held_file = os.stat(path), os.fstat(descriptor)
    except OSError:
        return False
    return (named.st_dev, named.st_ino) == (held_file.st_dev, held_file.st_ino)


def sync_folder(path: Path) -> None:
    """Put a new file's name on disk (its folder's entry), where the system allows it."""
    try:
        descriptor = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # a folder some systems cannot sync: the file's own data is synced
    finally:
        os.close(descriptor)


def _size(count: int) -> str:
    for unit, scale in (("MB", 2**20), ("KB", 2**10)):
        if count >= scale and count % scale == 0:
            return f"{count // scale} {unit}"
    return f"{count} bytes"
