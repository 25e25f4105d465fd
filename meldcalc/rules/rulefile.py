"""A rules file read as text: the shipped files' folder, a file's bytes (bounded, a regular
file), its UTF-8 text, and the name its problems give it. Variant files
(`meldcalc.rules.loading`) and bidding-system files (`meldcalc.rules.systemfile`) are read
alike.
"""

from __future__ import annotations

from pathlib import Path

from meldcalc.errors import VariantError, shown_path
from meldcalc.files import FileProblem, read_bounded

#: A rules file larger than this is not one (the shipped ones are ~2 KB).
MAX_FILE_BYTES = 1024 * 1024


def shipped_dir() -> Path:
    """The folder of shipped variant files: inside the installed package, or the checkout's."""
    package = Path(__file__).parent.parent  # meldcalc/
    installed = package / "variants"
    return installed if installed.is_dir() else package.parent / "variants"


def read_source(path: Path, kind: str = "variant") -> bytes:
    """The bytes of a ``kind`` file (a variant's, a bidding system's): a regular file of at
    most `MAX_FILE_BYTES`."""
    try:
        return read_bounded(path, MAX_FILE_BYTES, f"a {kind} file")
    except FileNotFoundError:
        raise VariantError([f"{shown_path(path)}: no such {kind} file"]) from None
    except FileProblem as problem:
        raise VariantError([str(problem)]) from None


def decode_source(content: bytes, name: str) -> str:
    """The text of a rules file, which must be UTF-8; a bad byte is named by its place."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = content[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        byte = content[error.start]
        raise VariantError(
            [f"{name}:{line}:{column}: byte 0x{byte:02x} is not UTF-8: expected UTF-8 text"]
        ) from None


def display_name(path: Path) -> str:
    """Shipped files are named by their path in the shipped folder, others as the user
    wrote the path."""
    try:
        return path.resolve().relative_to(shipped_dir().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return shown_path(path)
