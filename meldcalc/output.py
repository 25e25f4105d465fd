"""Rendering results: a table for people, JSON/JSONL/CSV/TSV/a bare total for scripts.

The JSON field names are a promise to scripts (README, "JSON output"); change them only
with a new major version. `tabulate` is imported only when a table is drawn.
"""

from __future__ import annotations

import csv
import enum
import functools
import json
from typing import Any, TextIO

from meldcalc.cards import SUITS
from meldcalc.meld import MeldReport, MeldResult


class Format(str, enum.Enum):
    """Output formats shared by every reporting command."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    tsv = "tsv"
    total = "total"


def tabulate(rows: list[list[Any]], headers: list[str], **options: Any) -> str:
    from tabulate import tabulate as draw

    return draw(rows, headers=headers, disable_numparse=True, **options)


# --- meld ----------------------------------------------------------------------------------


def result_json(result: MeldResult) -> dict[str, Any]:
    return {
        "trump": result.trump.letter,
        "total": result.total,
        "melds": [meld.json for meld in result.melds],
    }


def meld_json(report: MeldReport, line: int | None = None) -> dict[str, Any]:
    """The documented JSON object of one hand; ``line`` is set for batch input."""
    record: dict[str, Any] = {"line": line} if line is not None else {}
    record.update(
        hand=report.hand.notation(),
        variant=report.variant.name,
        cards=len(report.hand),
        warnings=report.warnings,
        best_trump=report.best.trump.letter,
        results=[result_json(result) for result in report.results],
    )
    return record


def meld_json_text(report: MeldReport, line: int | None = None) -> str:
    """``json.dumps(meld_json(report, line))``, assembled from each meld's cached text.

    Batch output spends most of its time encoding JSON; melds repeat across hands, so
    their text is encoded once. A test holds this equal to the plain encoding.
    """
    head = f'{{"line": {line}, ' if line is not None else "{"
    results = ", ".join([_result_json_text(result) for result in report.results])
    warnings = _dumps(report.warnings) if report.warnings else "[]"
    return (
        f'{head}"hand": "{report.hand.notation()}", "variant": {_name_json(report.variant.name)},'
        f' "cards": {len(report.hand)}, "warnings": {warnings},'
        f' "best_trump": "{report.best.trump.letter}", "results": [{results}]}}'
    )


def _result_json_text(result: MeldResult) -> str:
    melds = ", ".join([meld.json_text for meld in result.melds])
    return f'{_TRUMP_KEY[result.trump]}{result.total}, "melds": [{melds}]}}'


_TRUMP_KEY = {suit: f'{{"trump": "{suit.letter}", "total": ' for suit in SUITS}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@functools.cache
def _name_json(name: str) -> str:
    return _dumps(name)


def explanation(report: MeldReport) -> list[str]:
    """The ``--explain`` sentences for the best (or chosen) trump."""
    from meldcalc.explain import explain

    return explain(report.hand, report.variant, report.best)


def meld_table(report: MeldReport) -> str:
    """The human view: the trumps compared (when several), then the best meld in full."""
    best = report.best
    lines = [
        f"{report.hand.notation(best.trump)}  ({len(report.hand)} cards, {report.variant.name})"
    ]
    if len(report.results) > 1:
        rows = [
            [f"{r.trump.letter} {r.trump.symbol}", r.total, "best" if r is best else ""]
            for r in report.results
        ]
        lines += ["", tabulate(rows, ["trump", "meld", ""], colalign=("left", "right"))]
    with_checks = any(rule.checks for rule in report.variant.melds)
    lines += ["", f"trump {best.trump.letter} {best.trump.symbol}:"]
    lines.append(breakdown_table(best, with_checks))
    return "\n".join(lines)


def breakdown_table(result: MeldResult, with_checks: bool = False) -> str:
    """A row per meld (name, class, copies, cards, points, and checks where scored)."""
    headers = ["meld", "class", "copies", "cards", "points"] + (["checks"] if with_checks else [])
    rows: list[list[Any]] = []
    for meld in result.melds:
        row = [meld.name, "+".join(meld.classes), meld.copies, " ".join(meld.json["cards"])]
        rows.append([*row, meld.points] + ([meld.checks] if with_checks else []))
    total = ["total", "", "", "", result.total]
    rows.append(total + ([sum(m.checks for m in result.melds)] if with_checks else []))
    align = ("left", "left", "right", "left", "right", "right")
    return tabulate(rows, headers, colalign=align[: len(headers)])


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


class MeldWriter:
    """Streams meld reports, one per hand, in one format: memory stays flat."""

    def __init__(self, fmt: Format, out: TextIO, batch: bool, explain: bool = False) -> None:
        self.fmt, self.out, self.batch, self.explain = fmt, _Chunks(out), batch, explain
        self.count = 0
        self._csv = None
        if fmt in (Format.csv, Format.tsv):
            delimiter = "," if fmt is Format.csv else "\t"
            self._csv = csv.writer(self.out, delimiter=delimiter, lineterminator="\n")
            self._csv.writerow(["line", "hand", "trump", "total"])
        if fmt is Format.json and batch:
            self.out.write("[")

    def write(self, report: MeldReport, line: int) -> None:
        fmt, out = self.fmt, self.out
        if fmt is Format.total:
            out.write(f"{report.best.total}\n")
        elif fmt is Format.jsonl:
            out.write(self._json(report, line) + "\n")
        elif fmt is Format.json and self.batch:
            separator = "\n" if self.count == 0 else ",\n"
            out.write(separator + self._json(report, line))
        elif fmt is Format.json:
            out.write(self._json(report, None, indent=2) + "\n")
        elif self._csv is not None:
            hand = report.hand.notation()
            self._csv.writerows([line, hand, r.trump.letter, r.total] for r in report.results)
        else:
            if self.batch:
                out.write(f"{'' if self.count == 0 else chr(10)}line {line}: ")
            out.write(meld_table(report) + "\n")
            if self.explain:
                out.write("\n" + "\n".join(explanation(report)) + "\n")
        self.count += 1

    def _json(self, report: MeldReport, line: int | None, indent: int | None = None) -> str:
        if not self.explain and indent is None:
            return meld_json_text(report, line)
        record = meld_json(report, line)
        if self.explain:
            record["explanation"] = explanation(report)
        return json.dumps(record, indent=indent, ensure_ascii=False)

    def close(self) -> None:
        if self.fmt is Format.json and self.batch:
            self.out.write("\n]\n" if self.count else "]\n")
        self.out.flush()


# --- learning the tables -----------------------------------------------------------------

MULTIPLE_NAMES = ("single", "double", "triple", "quadruple")


def variants_table(rows: list[dict[str, Any]]) -> str:
    headers = ["name", "players", "deck", "hand", "widow", "title"]
    cells = [
        [r["name"], r["players"], r["deck"], r["hand_size"], r["widow"], r["title"]] for r in rows
    ]
    return tabulate(cells, headers)


def scoring_text(data: dict[str, Any], markdown: bool = False) -> str:
    """The scoring table of a variant for reading (or, with ``markdown``, printing)."""
    style = "github" if markdown else "simple"
    multiples = [
        MULTIPLE_NAMES[k] if k < len(MULTIPLE_NAMES) else f"x{k + 1}"
        for k in range(data["multiples"])
    ]
    rows = []
    for group in data["classes"]:
        for meld in group["melds"]:
            checks = meld.get("checks")
            points = [
                f"{p} ({c} checks)" if checks and c else str(p)
                for p, c in zip(meld["points"], checks or [0] * len(meld["points"]))
            ]
            rows.append([group["class"], meld["name"], meld["cards"], *points])
    melds = tabulate(rows, ["class", "meld", "cards", *multiples], tablefmt=style)
    tricks = data["tricks"]
    counters = ", ".join(f"{rank} {points}" for rank, points in tricks["counters"].items())
    trick_line = (
        f"{counters}; {tricks['cards_of_each_rank']} cards of each rank: "
        f"{tricks['cards_total']} in the cards + last trick {tricks['last_trick']}"
        f" = {tricks['total']}"
    )
    heading = "## " if markdown else ""
    title = f"# {data['name']}: {data['title']}" if markdown else f"{data['name']}: {data['title']}"
    return "\n".join(
        [
            title,
            "",
            data["description"],
            "",
            f"Deal: {data['deal']}.",
            "",
            f"{heading}Meld{'' if markdown else ':'}",
            "",
            melds,
            "",
            "A card serves at most one meld of each class, and melds of different classes freely.",
            "",
            f"{heading}Tricks{'' if markdown else ':'}",
            "",
            trick_line,
            "",
            f"{heading}Bidding{'' if markdown else ':'}",
            "",
            *[f"- {line}" for line in data["bidding"]],
            "",
            f"{heading}Play{'' if markdown else ':'}",
            "",
            *[f"- {line}" for line in data["play"]],
            "",
            f"Source: {data['source']}",
        ]
    )
