"""Writers of reports, one per input hand, in every format: a table for people,
JSON/JSONL/CSV/TSV/a bare total for scripts.

The JSON field names are a promise to scripts (README, "JSON output"); change them only
with a new major version. `tabulate` is imported only when a table is drawn.
"""

from __future__ import annotations

import csv
import enum
import json
from typing import Any, TextIO

from meldcalc.rules.cards import cards_text


class Format(str, enum.Enum):
    """Output formats shared by every reporting command."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    tsv = "tsv"
    total = "total"


class RecordFormat(str, enum.Enum):
    """Formats of the commands whose records are not a hand's (solve, review): a table for
    people, one JSON document, or a JSON object a line."""

    table = "table"
    json = "json"
    jsonl = "jsonl"


def tabulate(rows: list[list[Any]], headers: list[str], **options: Any) -> str:
    from tabulate import tabulate as draw

    return draw(rows, headers=headers, disable_numparse=True, **options)


def fitted(text: str, out: TextIO) -> str:
    """``text`` as ``out`` shows it: on a terminal, each line of prose wider than it wrapped
    to its width (`wrapped`); a pipe or a file gets every line whole, as scripts expect."""
    width = _terminal_width(out)
    if width is None or (len(text) <= width and "\n" not in text):
        return text
    return "\n".join(wrapped(line, width) for line in text.split("\n"))


def _terminal_width(out: TextIO) -> int | None:
    import shutil

    try:
        if not out.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return max(shutil.get_terminal_size().columns, 40)


def wrapped(line: str, width: int) -> str:
    """``line`` wrapped to ``width`` if it is prose: never a table row (columns stand two
    or more spaces apart) or a table's rule, which wrapping would tear; continuation lines
    keep its indent (and a bullet's)."""
    body = line.lstrip()
    if len(line) <= width or "  " in body or body.startswith(("|", "│", "--", "──")):
        return line
    import textwrap

    indent = line[: len(line) - len(body)]
    hang = indent + ("  " if body[:2] in ("- ", "* ") else "")
    return textwrap.fill(
        body,
        width,
        initial_indent=indent,
        subsequent_indent=hang,
        break_long_words=False,
        break_on_hyphens=False,
    )


def batch_fields(line: int | None, label: str | None) -> dict[str, Any]:
    """``line`` (and ``label``, for lines such as ``seat 1: ...``) of a batch record."""
    record: dict[str, Any] = {"line": line} if line is not None else {}
    if label is not None:
        record["label"] = label
    return record


class _Chunks:
    """Collects output text and hands it to the stream a few hundred records at a time."""

    def __init__(self, out: TextIO, size: int = 256) -> None:
        self.out, self.size, self.parts = out, size, []

    def write(self, text: str) -> None:
        self.parts.append(text)
        if len(self.parts) >= self.size:
            self.flush()

    def flush(self) -> None:
        self.out.write("".join(self.parts))
        self.parts.clear()
        self.out.flush()

    def isatty(self) -> bool:
        return self.out.isatty()


def heading(report: Any, trump: Any) -> str:
    """A report's first line: the hand (trump first), its size and the variant."""
    size = cards_text(len(report.hand))
    return f"{report.hand.notation(trump)}  ({size}, {report.variant.name})"


#: The last columns of every CSV/TSV row: the input line's label (``seat 1``, ``widow``)
#: and, for a line that could not be read, what was wrong with it.
CSV_TAIL = ("label", "error")


class ReportWriter:
    """Streams reports, one per hand, in one format: memory stays flat.

    What a report looks like in each format is the business of subclasses (`MeldWriter`,
    `BidWriter`); the framing (JSON array, CSV header, batch headings) is shared here.
    """

    csv_header: tuple[str, ...] = ()

    def __init__(self, fmt: Format, out: TextIO, batch: bool, flush_each: bool = False) -> None:
        """``flush_each``: hand each record to the stream at once (slow reports, such as
        bids, then show up as they are made even through a pipe)."""
        self.fmt, self.out, self.batch = fmt, _Chunks(out, 1 if flush_each else 256), batch
        self.count = 0
        self._csv = None
        if fmt in (Format.csv, Format.tsv):
            delimiter = "," if fmt is Format.csv else "\t"
            self._csv = csv.writer(self.out, delimiter=delimiter, lineterminator="\n")
            self._csv.writerow([*self.csv_header, *CSV_TAIL])
        if fmt is Format.json and batch:
            self.out.write("[")

    def write(self, report: Any, line: int, label: str | None = None) -> None:
        fmt, out = self.fmt, self.out
        if fmt is Format.total:
            out.write(f"{self.total(report)}\n")
        elif fmt is Format.jsonl:
            out.write(self.json(report, line, label) + "\n")
        elif fmt is Format.json and self.batch:
            self._json_item(self.json(report, line, label))
        elif fmt is Format.json:
            out.write(self.json(report, None, None, indent=2) + "\n")
        elif self._csv is not None:
            self._csv.writerows([*row, label or "", ""] for row in self.csv_rows(report, line))
        else:
            if self.batch:
                named = f" ({label})" if label else ""
                out.write(f"{'' if self.count == 0 else chr(10)}line {line}{named}: ")
            out.write(fitted(self.table(report), out) + "\n")
        self.count += 1

    def write_error(self, line: int, message: str, label: str | None = None) -> None:
        """Where the format keeps a record per input line (total, json, jsonl, csv, tsv), a
        failed line keeps its place: ``error``, ``{"line": N, "error": "..."}``, or a row of
        its line number and error. The message goes to stderr too (the caller's business)."""
        record = json.dumps({**batch_fields(line, label), "error": message}, ensure_ascii=False)
        if self.fmt is Format.total:
            self.out.write("error\n")
        elif self.fmt is Format.jsonl:
            self.out.write(record + "\n")
        elif self.fmt is Format.json:
            self._json_item(record)
        elif self._csv is not None:  # the line keeps its place, its cells left empty
            blanks = [""] * (len(self.csv_header) - 1)
            self._csv.writerow([line, *blanks, label or "", message])
        else:
            return
        self.count += 1

    def _json_item(self, text: str) -> None:
        self.out.write(("\n" if self.count == 0 else ",\n") + text)

    def flush(self) -> None:
        """Hand what is written so far to the stream (before waiting for more input)."""
        self.out.flush()

    def close(self) -> None:
        if self.fmt is Format.json and self.batch:
            self.out.write("\n]\n" if self.count else "]\n")
        self.out.flush()

    def total(self, report: Any) -> object:
        raise NotImplementedError

    def json(
        self, report: Any, line: int | None, label: str | None = None, indent: int | None = None
    ) -> str:
        raise NotImplementedError

    def csv_rows(self, report: Any, line: int) -> list[list[Any]]:
        raise NotImplementedError

    def table(self, report: Any) -> str:
        raise NotImplementedError
