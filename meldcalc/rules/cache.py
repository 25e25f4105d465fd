"""A cache of variant files already read and checked, so a run need not import YAML.

The CLI runs once per hand in shell loops; reading and checking YAML costs more than the
count itself. The cache must never serve stale data, so it trusts nothing but bytes:

- An entry is found by the path as the user gave it (made absolute, symlinks *not*
  resolved: ``extends`` is resolved from the folder the user named, so one file linked
  into two folders is two variants).
- It records the chain of files read (the file, then what it ``extends``, as those paths
  were resolved) with the SHA-256 of the exact bytes that were parsed. A lookup reads every
  file of the chain again and serves the entry only if every hash matches: an edit that
  keeps size and time, a re-pointed symlink or a file changed mid-read is a miss.
- The entry is sealed by an HMAC-SHA256 of its own text under a random key made with the
  cache folder (``key``, readable by its owner alone), written to a temporary file and
  renamed into place: an entry edited and sealed again with a plain digest is a miss, so
  the cached data are always what the checks passed. Anything unexpected (a broken seal, a
  missing field, a path that does not match, JSON nested too deep) is a miss, never an
  error.

``MELDCALC_CACHE_DIR`` moves the cache; ``MELDCALC_NO_CACHE=1`` turns it off. A relative
XDG_CACHE_HOME is ignored, as the XDG spec says (the cache goes to ~/.cache); without a
usable home folder (HOME set empty, unset with no passwd entry, relative, or not an existing
folder: a home is never made) or with a relative MELDCALC_CACHE_DIR there is simply no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meldcalc import __version__
from meldcalc.files import FileProblem, read_bounded

#: Bumped whenever the layout of an entry or of the cached data changes.
FORMAT = 2
#: An entry larger than this is not ours: variant files are small.
MAX_ENTRY_BYTES = 4 * 1024 * 1024
_OFF = ("", "0", "false", "no", "off")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off or there is nowhere sensible for it."""
    if os.environ.get("MELDCALC_NO_CACHE", "").strip().lower() not in _OFF:
        return None
    if os.environ.get("MELDCALC_CACHE_DIR"):  # a relative one is ignored, as XDG's is
        moved = os.environ["MELDCALC_CACHE_DIR"]
        return Path(moved) if os.path.isabs(moved) else None
    base = _xdg_cache_home()
    return base / "meldcalc" if base is not None else None


def _xdg_cache_home() -> Path | None:
    """XDG_CACHE_HOME if absolute (the spec says to ignore a relative one), else ~/.cache."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(configured):
        return Path(configured)
    if os.environ.get("HOME") == "":
        return None  # set, but to nothing: there is no home to put a cache in
    try:
        home = Path.home()
    except (RuntimeError, KeyError, OSError):  # HOME unset and no passwd entry
        return None
    return home / ".cache" if home.is_absolute() and home.is_dir() else None  # never made here


def key_path(path: Path) -> str:
    """The path as given, absolute, with symlinks and ``..`` left as they are."""
    return str(path if path.is_absolute() else Path.cwd() / path)


def _entry(path: Path) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    name = digest(f"{FORMAT}\0{__version__}\0{key_path(path)}".encode())
    return folder / f"variant-{name[:32]}.json"


def read(path: Path, first: bytes, read_source: Callable[[Path], bytes]) -> dict[str, Any] | None:
    """The cached entry for the file at ``path`` whose bytes are ``first``, or None.

    ``read_source`` reads the other files of the chain, exactly as loading does; an entry
    is fresh only if every file still holds the bytes it was made from.
    """
    entry = _entry(path)
    if entry is None:
        return None
    try:
        record = _unsealed(entry, _key(entry.parent, create=False))
        chain = record["chain"]
        if not chain or chain[0] != [key_path(path), digest(first)]:
            return None
        for source, expected in chain[1:]:
            if digest(read_source(Path(source))) != expected:
                return None
        data, file = record["data"], record["file"]
        if isinstance(data, dict) and isinstance(file, str):
            return record
    except (OSError, FileProblem, ValueError, KeyError, TypeError, IndexError, RecursionError):
        pass  # a file of the chain gone or unreadable, a damaged entry: read afresh
    return None


KEY_BYTES = 32


def _key(folder: Path, create: bool) -> bytes:
    """The cache's sealing key: made once, with the folder, readable by its owner alone.
    Raises OSError (no cache) when it cannot be read or made."""
    path = folder / "key"
    if create and not path.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileExistsError):  # another run made it first
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(handle, "wb") as stream:
                stream.write(os.urandom(KEY_BYTES))
    if path.is_symlink():  # a key meldcalc did not make: its entries could be forged
        raise OSError(f"{path}: a symbolic link, not a cache key")
    key = read_bounded(path, KEY_BYTES, "the cache key")
    if len(key) != KEY_BYTES:
        raise OSError(f"{path}: not a cache key")
    return key


def seal(key: bytes, text: bytes) -> bytes:
    return hmac.new(key, text, hashlib.sha256).hexdigest().encode()


def _unsealed(entry: Path, key: bytes) -> dict[str, Any]:
    """The entry's record, if its seal (the HMAC of the text below it) holds."""
    raw = read_bounded(entry, MAX_ENTRY_BYTES, "a cache entry")
    given, _, text = raw.partition(b"\n")
    if not hmac.compare_digest(given, seal(key, text)):
        raise ValueError("a damaged cache entry")
    record = json.loads(text)
    if not isinstance(record, dict):
        raise ValueError("a damaged cache entry")
    return record


def write(path: Path, data: dict[str, Any], file: str, chain: list[tuple[Path, bytes]]) -> None:
    """Remember a checked variant made from ``chain`` (each file read and its bytes).

    Written to a temporary file and renamed, so a reader sees a whole entry or none; a
    cache that cannot be written is no cache.
    """
    entry = _entry(path)
    if entry is None:
        return
    record = {
        "file": file,
        "chain": [[key_path(source), digest(content)] for source, content in chain],
        "data": data,
    }
    _write_sealed(entry, record)


def _write_sealed(entry: Path, record: dict[str, Any]) -> None:
    """``record`` sealed into ``entry``: a temporary file renamed into place; a cache that
    cannot be written is no cache."""
    import tempfile

    text = json.dumps(record, ensure_ascii=False).encode()
    try:
        key = _key(entry.parent, create=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".entry-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(seal(key, text) + b"\n" + text)
            os.replace(temporary, entry)
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, FileProblem):
        pass


def _data_entry(name: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return (
        folder / f"data-{digest(f'{FORMAT}{chr(0)}{__version__}{chr(0)}{name}'.encode())[:32]}.json"
    )


def read_data(name: str) -> dict[str, Any] | None:
    """Data worked out once and kept under ``name`` (a digest of all it was made from), if
    its seal holds; None otherwise (a miss, never an error)."""
    entry = _data_entry(name)
    if entry is None:
        return None
    try:
        record = _unsealed(entry, _key(entry.parent, create=False))
        return record["data"] if record.get("name") == name else None
    except (OSError, FileProblem, ValueError, KeyError, TypeError, RecursionError):
        return None


def write_data(name: str, data: dict[str, Any]) -> None:
    """Keep ``data`` under ``name``, sealed as variant entries are."""
    entry = _data_entry(name)
    if entry is not None:
        _write_sealed(entry, {"name": name, "data": data})
