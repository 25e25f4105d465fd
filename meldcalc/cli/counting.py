"""`meldcalc meld`: the best meld of a hand, and how it is written out."""

from __future__ import annotations

import functools
import json
import sys
from typing import Annotated, Any, TextIO

import typer

from meldcalc.cli.base import (
    FormatOption,
    HandArgument,
    TrumpOption,
    VariantOption,
    app,
    load,
    report_each,
    user_errors,
)
from meldcalc.cli.report import Format, ReportWriter, batch_fields, heading, tabulate
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import SUITS
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.meld import MeldReport, MeldResult
from meldcalc.rules.notation import PILES

StrictOption = Annotated[
    bool, typer.Option("--strict", help="A hand of the wrong size is an error, not a warning.")
]


ExplainOption = Annotated[
    bool,
    typer.Option("--explain", help="Say in words why the total is what it is, and near misses."),
]


@app.command(short_help="Count the best meld of a hand, under one trump or each.")
def meld(
    hand: HandArgument = None,
    trump: TrumpOption = None,
    variant: VariantOption = DEFAULT_VARIANT,
    fmt: FormatOption = Format.table,
    strict: StrictOption = False,
    explain: ExplainOption = False,
) -> None:
    """Count the best meld of a hand, under one trump or under each (best named first).

    HAND is a hand such as 'AS 10S KS QS JS JD' or 'S: A 10 K Q J D: J' (quotes
    optional); '-' or a pipe on stdin gives one hand per line.

    Example: meldcalc meld "AS 10S KS QS JS JD" --trump S
    """
    from meldcalc.rules.meld import meld_report

    with user_errors():
        if explain and fmt in (Format.csv, Format.tsv, Format.total):
            raise MeldcalcError(
                f"--explain: the {fmt.value} format has no room for it: use table, json or jsonl"
            )
        rules = load(variant)
    report_each(
        hand,
        lambda text, label: meld_report(text, rules, trump, strict, dealt=label not in PILES),
        lambda batch: MeldWriter(fmt, sys.stdout, batch, explain=explain),
        "meld",
    )


def result_json(result: MeldResult) -> dict[str, Any]:
    return {
        "trump": result.trump.letter,
        "total": result.total,
        "melds": [meld.json for meld in result.melds],
    }


def meld_json(report: MeldReport, line: int | None = None, label: str | None = None) -> dict:
    """The documented JSON object of one hand; ``line`` is set for batch input."""
    record = batch_fields(line, label)
    record.update(
        hand=report.hand.notation(),
        variant=report.variant.name,
        cards=len(report.hand),
        warnings=report.warnings,
        best_trump=report.best.trump.letter,
        results=[result_json(result) for result in report.results],
    )
    return record


def meld_json_text(report: MeldReport, line: int | None = None, label: str | None = None) -> str:
    """``json.dumps(meld_json(report, line, label))``, assembled from each meld's cached text.

    Batch output spends most of its time encoding JSON; melds repeat across hands, so
    their text is encoded once. A test holds this equal to the plain encoding.
    """
    head = f'{{"line": {line}, ' if line is not None else "{"
    if label is not None:
        head += f'"label": {_dumps(label)}, '
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
    from meldcalc.learning.explain import explain

    return explain(report.hand, report.variant, report.best)


def meld_table(report: MeldReport) -> str:
    """The human view: the trumps compared (when several), then the best meld in full."""
    best = report.best
    lines = [heading(report, best.trump)]
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


class MeldWriter(ReportWriter):
    csv_header = ("line", "hand", "trump", "total")

    def __init__(self, fmt: Format, out: TextIO, batch: bool, explain: bool = False) -> None:
        super().__init__(fmt, out, batch)
        self.explain = explain

    def total(self, report: MeldReport) -> int:
        return report.best.total

    def json(
        self,
        report: MeldReport,
        line: int | None,
        label: str | None = None,
        indent: int | None = None,
    ) -> str:
        if not self.explain and indent is None:
            return meld_json_text(report, line, label)
        record = meld_json(report, line, label)
        if self.explain:
            record["explanation"] = explanation(report)
        return json.dumps(record, indent=indent, ensure_ascii=False)

    def csv_rows(self, report: MeldReport, line: int) -> list[list[Any]]:
        hand = report.hand.notation()
        return [[line, hand, r.trump.letter, r.total] for r in report.results]

    def table(self, report: MeldReport) -> str:
        if not self.explain:
            return meld_table(report)
        return meld_table(report) + "\n\n" + "\n".join(explanation(report))
