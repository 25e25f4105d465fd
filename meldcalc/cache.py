"""A cache of variant files already read and checked, so a run need not import YAML.

The CLI runs once per hand in shell loops; reading YAML costs more than the count itself.
An entry holds the merged, checked data of a variant and the stamp (path, mtime, size) of
every file it was read from (the file and what it ``extends``). It is used only while
every stamp still matches and the meldcalc version is the same; anything unreadable is
simply a miss. ``MELDCALC_CACHE_DIR`` moves the cache, ``MELDCALC_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from meldcalc import __version__


def cache_dir() -> Path | None:
    if os.environ.get("MELDCALC_NO_CACHE"):
        return None
    if os.environ.get("MELDCALC_CACHE_DIR"):
        return Path(os.environ["MELDCALC_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "meldcalc"


def _entry(path: Path) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(f"{__version__}\0{path.resolve()}".encode()).hexdigest()
    return folder / f"variant-{digest[:24]}.json"


def stamp(path: Path) -> list[Any]:
    status = path.stat()
    return [str(path.resolve()), status.st_mtime_ns, status.st_size]


def read(path: Path) -> dict[str, Any] | None:
    """The cached data of the variant at ``path``, or None when absent or stale."""
    entry = _entry(path)
    try:
        cached = json.loads(entry.read_text(encoding="utf-8")) if entry else None
        fresh = cached and all(stamp(Path(s[0])) == s for s in cached["stamps"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    return cached if fresh else None


def write(path: Path, data: dict[str, Any], file: str, sources: list[Path]) -> None:
    """Remember a checked variant; a cache that cannot be written is no cache."""
    entry = _entry(path)
    if entry is None:
        return
    record = {"file": file, "data": data, "stamps": [stamp(source) for source in sources]}
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(record), encoding="utf-8")
        temporary.replace(entry)
    except OSError:
        pass
