"""Reading a file someone named (a variant, a game's ledger, a cache entry) without surprises.

The file is opened without blocking and checked once open, so a FIFO, a device or a folder
is refused without hanging, whatever the name pointed to when it was looked up; and it is
read only up to a bound, so a huge file is refused without being read into memory.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from meldcalc.errors import shown_path


class FileProblem(Exception):
    """Why a file cannot be read, as a whole message naming it."""


def read_bounded(path: Path, limit: int, expected: str) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; ``expected`` says
    what it should be ("a variant file") in the message of a `FileProblem`. A missing file
    raises FileNotFoundError, for the caller to say what that means."""
    descriptor = open_regular(path, os.O_RDONLY, expected)
    try:
        return read_all(descriptor, path, limit, expected)
    finally:
        os.close(descriptor)


def open_regular(path: Path, flags: int, expected: str, mode: int = 0o666) -> int:
    """A descriptor on ``path`` opened with ``flags``, refused (`FileProblem`) unless it is
    a regular file: opened without blocking, so a FIFO never hangs. A missing file raises
    FileNotFoundError."""
    name = shown_path(path)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), mode)
    except FileNotFoundError:
        raise
    except OSError as error:
        if error.errno == errno.EISDIR:
            raise FileProblem(f"{name}: not a regular file (a folder)") from None
        doing = "read" if flags & (os.O_WRONLY | os.O_RDWR) == 0 else "write"
        raise FileProblem(f"{name}: cannot {doing}: {error.strerror}") from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        what = "a folder" if stat.S_ISDIR(mode) else f"expected {expected}"
        raise FileProblem(f"{name}: not a regular file ({what})")
    return descriptor


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


def _size(count: int) -> str:
    for unit, scale in (("MB", 2**20), ("KB", 2**10)):
        if count >= scale and count % scale == 0:
            return f"{count // scale} {unit}"
    return f"{count} bytes"
