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

from meldcalc.cards import CARD_NAMES, SUITS, cards_text
from meldcalc.errors import shown_path
from meldcalc.meld import MeldReport, MeldResult
from meldcalc.notation import PILES


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


def _batch_fields(line: int | None, label: str | None) -> dict[str, Any]:
    """``line`` (and ``label``, for lines such as ``seat 1: ...``) of a batch record."""
    record: dict[str, Any] = {"line": line} if line is not None else {}
    if label is not None:
        record["label"] = label
    return record


def meld_json(report: MeldReport, line: int | None = None, label: str | None = None) -> dict:
    """The documented JSON object of one hand; ``line`` is set for batch input."""
    record = _batch_fields(line, label)
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
    from meldcalc.explain import explain

    return explain(report.hand, report.variant, report.best)


def meld_table(report: MeldReport) -> str:
    """The human view: the trumps compared (when several), then the best meld in full."""
    best = report.best
    lines = [_heading(report, best.trump)]
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


def _heading(report: Any, trump: Any) -> str:
    """A report's first line: the hand (trump first), its size and the variant."""
    size = cards_text(len(report.hand))
    return f"{report.hand.notation(trump)}  ({size}, {report.variant.name})"


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
            self._csv.writerow(self.csv_header)
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
            self._csv.writerows(self.csv_rows(report, line))
        else:
            if self.batch:
                named = f" ({label})" if label else ""
                out.write(f"{'' if self.count == 0 else chr(10)}line {line}{named}: ")
            out.write(self.table(report) + "\n")
        self.count += 1

    def write_error(self, line: int, message: str, label: str | None = None) -> None:
        """Where the format keeps a record per input line (total, json, jsonl), a failed
        line keeps its place: ``error``, or ``{"line": N, "error": "..."}``. The message
        itself goes to stderr (the caller's business)."""
        record = json.dumps({**_batch_fields(line, label), "error": message}, ensure_ascii=False)
        if self.fmt is Format.total:
            self.out.write("error\n")
        elif self.fmt is Format.jsonl:
            self.out.write(record + "\n")
        elif self.fmt is Format.json:
            self._json_item(record)
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


# --- bidding -------------------------------------------------------------------------------


def bid_json(report: Any, line: int | None = None, label: str | None = None) -> dict[str, Any]:
    """The documented JSON object of one bid estimate (README, "meldcalc bid")."""
    record = _batch_fields(line, label)
    record.update(
        hand=report.hand.notation(),
        variant=report.variant.name,
        deals=report.deals,
        seed=report.seed,
        confidence=report.confidence,
        warnings=report.warnings,
        best_trump=report.best.trump.letter,
        suggested_bid=report.suggested_bid,
        results=[_odds_json(odds, report) for odds in report.results],
        knowledge=report.knowledge.json(report.variant) if report.knowledge.told else None,
        passing=_passing_json(report),
    )
    return record


def _passing_json(report: Any) -> dict[str, Any] | None:
    """The pass simulated in every deal, and under the exchange each suit asked for."""
    passing = report.passing
    if passing is None:
        return None
    asks = [
        {
            "ask": odds.ask.letter,
            "trump": odds.trump.letter,
            "expected_total": round(odds.expected_total, 2),
            "max_bid": odds.max_bid,
        }
        for odds in report.asks
    ]
    return {
        "kind": passing.kind,
        "cards": passing.cards,
        "simultaneous": passing.simultaneous,
        "ask": report.best.ask.letter if report.best.ask else None,
        "asks": asks,
    }


def _burial_json(odds: Any, report: Any) -> dict[str, Any] | None:
    """The burial chosen, with its expected total on the deals every candidate was judged
    on, and the rule of thumb's on the same deals."""
    if odds.bury is None:
        return None
    judged = report.burials[odds.trump]
    best, rule = _judged_best(judged), judged[0]  # the rule of thumb's is judged first
    return {
        "cards": [str(card) for card in odds.bury.cards(odds.trump)],
        "candidates": len(judged),
        "judged_total": round(best.expected_total, 2),
        "rule_of_thumb": {
            "cards": [str(card) for card in rule.bury.cards(odds.trump)],
            "judged_total": round(rule.expected_total, 2),
        },
    }


def _judged_best(judged: list[Any]) -> Any:
    return max(judged, key=lambda odds: odds.expected_total)


def _odds_json(odds: Any, report: Any = None) -> dict[str, Any]:
    tricks = odds.tricks
    p10, p50, p90 = odds.percentiles(10, 50, 90)
    sd = float(tricks.std(ddof=1)) if len(tricks) > 1 else 0.0
    return {
        "trump": odds.trump.letter,
        "biddable": odds.biddable,
        "meld": round(odds.meld, 2),
        "partner_meld": None
        if odds.partner_meld is None
        else {"mean": round(odds.partner_meld, 2)},
        "tricks": {
            "mean": round(float(tricks.mean()), 2),
            "sd": round(sd, 2),
            "se": round(sd / len(tricks) ** 0.5, 2),
            "p10": p10,
            "p50": p50,
            "p90": p90,
        },
        "expected_total": round(odds.expected_total, 2),
        "reason": odds.reason,
        "make": [{"bid": bid, "probability": round(p, 4)} for bid, p in odds.make],
        "max_bid": odds.max_bid,
        "layouts_tried_per_kept": round(odds.layouts, 2),
        "burial": None if report is None else _burial_json(odds, report),
    }


def bid_table(report: Any) -> str:
    """The advice first, then the trumps compared, each trump's spread of totals as a
    picture, and the odds of the bids that matter for the best trump."""
    best = report.best
    lines = [
        _heading(report, best.trump),
        f"{report.deals} simulated deals per trump, seed {report.seed}",
        "",
        *report.advice(),
        "",
        *_table_knows(report),
        _trumps_table(report),
        "",
        *_spread_picture(report),
    ]
    if best.biddable:
        trump = f"{best.trump.symbol} ({best.trump.letter})"
        lines += ["", f"chance of making each bid with {trump} as trump:", _odds_bars(best)]
    return "\n".join(lines)


def _table_knows(report: Any) -> list[str]:
    """What the deals assumed: what the table knows, the pass, the burials judged; each
    block ends with a blank line. Nothing when nothing was told or simulated."""
    lines = []
    told = report.knowledge.describe(report.variant, [odds.trump for odds in report.results])
    if report.knowledge.shapes_deal:
        lines += ["what the table knows (every deal simulated agrees with it):"]
        lines += [f"  {line}" for line in told]
        lines += [f"  {_layouts_line(report)}", ""]
    elif told:
        lines += [*told, ""]
    if report.passing is not None:
        lines += [*_passing_lines(report), ""]
    if report.burials:
        lines += [*_burial_lines(report), ""]
    return lines


def _layouts_line(report: Any) -> str:
    ratios = {f"{odds.layouts:.1f}" for odds in report.results}
    if len(ratios) == 1:
        return f"layouts tried for each one kept: {ratios.pop()}"
    each = ", ".join(
        f"{odds.trump.letter} {odds.trump.symbol} {odds.layouts:.1f}" for odds in report.results
    )
    return f"layouts tried for each one kept: {each}"


def _passing_lines(report: Any) -> list[str]:
    from meldcalc.tables import passing_line

    lines = [
        "the card pass, simulated in every deal by the policy of meldcalc/passing.py:",
        f"  {passing_line(report.passing)}",
    ]
    if len(report.asks) < 2:
        return lines
    rows = [
        [
            f"{odds.ask.letter} {odds.ask.symbol}",
            f"{odds.trump.letter} {odds.trump.symbol}",
            round(odds.expected_total, 2),
            "pass" if odds.max_bid is None else odds.max_bid,
        ]
        for odds in report.asks
    ]
    headers = ["ask for", "best trump", "expected", f"bid up to ({report.confidence:.0%})"]
    table = tabulate(rows, headers, colalign=("left", "left", "right", "right"))
    return [*lines, "", table]


def _burial_lines(report: Any) -> list[str]:
    """Per trump the best burial against the rule of thumb's, both judged on the same
    deals: trick points with the buried counters (meld is the same whatever is buried)."""
    rows = []
    for odds in report.results:
        judged = report.burials[odds.trump]
        best, rule = _judged_best(judged), judged[0]
        rows.append(
            [
                f"{odds.trump.letter} {odds.trump.symbol}",
                best.bury.notation(odds.trump),
                round(float(best.tricks.mean()), 2),
                rule.bury.notation(odds.trump),
                round(float(rule.tricks.mean()), 2),
                len(judged),
            ]
        )
    headers = ["trump", "bury", "tricks", "rule of thumb", "tricks", "judged"]
    align = ("left", "left", "right", "left", "right", "right")
    return [
        "the best burial under each trump, judged on the same deals (the odds shown are",
        "from other deals, so the luck that chose a burial does not flatter it):",
        tabulate(rows, headers, colalign=align),
    ]


def _trumps_table(report: Any) -> str:
    """A row per trump: meld, partner's meld, tricks, the expected total, the highest bid."""
    partners = report.variant.partnerships
    headers = ["trump", "meld"] + (["partner"] if partners else [])
    headers += ["tricks (mean ± se)", "expected", f"bid up to ({report.confidence:.0%})"]
    rows = []
    for odds in report.results:
        data = _odds_json(odds)
        tricks = data["tricks"]
        highest = (
            odds.max_bid
            if odds.max_bid is not None
            else ("pass" if odds.biddable else "no marriage")
        )
        row = [f"{odds.trump.letter} {odds.trump.symbol}", data["meld"]]
        row += [data["partner_meld"]["mean"]] if partners else []
        row += [f"{tricks['mean']} ± {tricks['se']}", data["expected_total"], highest]
        rows.append(row)
    return tabulate(rows, headers, colalign=("left",) + ("right",) * (len(headers) - 1))


_LEVELS = " ▁▂▃▄▅▆▇█"
_SPREAD_WIDTH = 48


def _spread_picture(report: Any) -> list[str]:
    """Each trump's totals as a row of bars over one shared axis (2nd to 98th percentile
    of all trumps), so the trumps' spreads can be compared at a glance. Bins are whole
    multiples of the step totals move in (5 in single deck), so no bin is empty by
    arithmetic alone."""
    import numpy as np

    every = np.concatenate([odds.totals for odds in report.results]).astype(np.int64)
    low, high = (int(v) for v in np.quantile(every, [0.02, 0.98]))
    grain = max(int(np.gcd.reduce(every - every.min())), 1)
    width = grain * max(1, -(-(high - low + 1) // (grain * _SPREAD_WIDTH)))
    low -= low % grain
    bins = max(1, -(-(high - low + 1) // width))
    edges = low + width * np.arange(bins + 1)
    partner = " + partner's" if report.variant.partnerships else ""
    lines = [f"how the total (meld{partner} + tricks) falls, 2nd to 98th percentile:"]
    right = f"{edges[-1] - 1}"
    lines.append("      " + f"{low}".ljust(bins - len(right)) + right)
    for odds in report.results:
        counts, _ = np.histogram(odds.totals, bins=edges)
        scaled = np.ceil(counts / max(counts.max(), 1) * (len(_LEVELS) - 1)).astype(int)
        bars = "".join(_LEVELS[level] for level in scaled)
        lines.append(f"{odds.trump.letter} {odds.trump.symbol}   {bars}")
    bid = report.suggested_bid
    if bid is not None and low <= bid < edges[-1]:
        lines.append(" " * (6 + (bid - low) // width) + f"▲ {bid}: the highest bid to go to")
    return lines


def _odds_bars(odds: Any) -> str:
    rows = []
    for bid, probability in odds.make:
        bar = "█" * round(probability * 30)
        mark = "  ← the highest bid to go to" if bid == odds.max_bid else ""
        rows.append([bid, f"{probability:.1%}", bar + mark])
    return tabulate(rows, ["bid", "P(make)", ""], colalign=("right", "right", "left"))


class BidWriter(ReportWriter):
    csv_header = (
        "line",
        "hand",
        "trump",
        "meld",
        "partner_meld",
        "tricks_mean",
        "expected_total",
        "max_bid",
    )

    def total(self, report: Any) -> object:
        """The highest bid to go to and its trump (``470 S``), or ``pass``."""
        if report.suggested_bid is None:
            return "pass"
        return f"{report.suggested_bid} {report.best.trump.letter}"

    def json(
        self, report: Any, line: int | None, label: str | None = None, indent: int | None = None
    ) -> str:
        return json.dumps(bid_json(report, line, label), indent=indent, ensure_ascii=False)

    def csv_rows(self, report: Any, line: int) -> list[list[Any]]:
        hand = report.hand.notation()
        return [
            [
                line,
                hand,
                odds.trump.letter,
                round(odds.meld, 2),
                "" if odds.partner_meld is None else round(odds.partner_meld, 2),
                round(float(odds.tricks.mean()), 2),
                round(odds.expected_total, 2),
                "" if odds.max_bid is None else odds.max_bid,
            ]
            for odds in report.results
        ]

    def table(self, report: Any) -> str:
        return bid_table(report)


def played_json(deal: Any, review: Any = None, seed: int | None = None) -> dict[str, Any]:
    """A played deal (``seed``: the one it was dealt from, if dealt at random); with
    ``review``, each card's cost against the best card and the exact value of the deal
    (``"review": {"value", "taken", "lost"}``)."""
    costs = _costs_by_play(deal, review)
    record: dict[str, Any] = {
        **({} if seed is None else {"seed": seed}),
        "trump": deal.trump.letter,
        "seats": [
            {"seat": seat, "hand": [str(c) for c in hand.cards(deal.trump)]}
            for seat, hand in enumerate(deal.hands)
        ],
        "tricks": [
            {
                "leader": t.leader,
                "cards": [{"seat": s, "card": c, **_cost_fields(next(costs))} for s, c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in deal.tricks
        ],
        "points": list(deal.points),
    }
    if len(deal.widow):
        record["widow"] = [str(c) for c in deal.widow.cards(deal.trump)]
        record["buried"] = [str(c) for c in deal.buried.cards(deal.trump)]
    if review is not None:
        record["review"] = {
            "from_trick": review.first_trick,
            "value": review.value,
            "taken": review.taken,
            "lost": review.lost_by_seat(len(deal.hands)),
        }
    return record


def _costs_by_play(deal: Any, review: Any) -> Any:
    """The review of each card played, in order: None for cards not reviewed."""
    if review is None:
        return iter(lambda: None, 0)  # endless Nones
    unreviewed = (review.first_trick - 1) * len(deal.hands)
    return iter([None] * unreviewed + list(review.cards))


def _cost_fields(card: Any) -> dict[str, Any]:
    return {} if card is None else {"cost": card.cost, "best": list(card.best)}


def played_table(deal: Any, review: Any = None, seed: int | None = None) -> str:
    """The deal trick by trick; with ``review`` every costly card marked with its cost."""
    data = played_json(deal, review)
    dealt = "" if seed is None else f", seed {seed}"
    lines = [f"trump {deal.trump.letter} {deal.trump.symbol}{dealt}"]
    lines += [f"seat {seat}: {hand.notation(deal.trump)}" for seat, hand in enumerate(deal.hands)]
    if len(deal.widow):
        lines.append(
            f"widow: {deal.widow.notation(deal.trump)}  (buried by seat 0: "
            f"{deal.buried.notation(deal.trump)})"
        )
    lines += ["", _tricks_table(data["tricks"])]
    lines += ["", f"points: bidding side {deal.points[0]}, others {deal.points[1]}"]
    if review is not None:
        lines += ["", *review_lines(data["review"], deal)]
    return "\n".join(lines)


def review_lines(summary: dict[str, Any], deal: Any) -> list[str]:
    lost = summary["lost"]
    per_seat = ", ".join(f"seat {seat} {points}" for seat, points in enumerate(lost))
    start = summary["from_trick"]
    since = "the start" if start == 1 else f"trick {start} (the solver's reach)"
    return [
        "review (cards marked with the points they cost their side against the best card):",
        f"points lost by each seat: {per_seat}",
        f"under best play from {since} the bidding side takes {summary['value']} in tricks;"
        f" it took {summary['taken']}.",
    ]


# --- dealing -------------------------------------------------------------------------------


def deal_lines(deal: Any, number: int | None, players: bool) -> list[str]:
    """A deal as text ``meld`` reads: seat 0's hand, or with ``players`` a labelled line per
    seat (``seat 0: ...``, then ``widow: ...``, ``stock: ...``) under ``# deal N``."""
    if not players:
        return [deal.hands[0].notation()]
    lines = [f"# deal {number}"] if number is not None else []
    lines += [f"seat {seat}: {hand.notation()}" for seat, hand in enumerate(deal.hands)]
    lines += [f"{name}: {getattr(deal, name).notation()}" for name in PILES]
    return [line for line in lines if not line.endswith(": ")]


def deal_json(deal: Any, number: int) -> dict[str, Any]:
    """``{"deal": N, "hands": [[cards of seat 0], ...], "widow": [...], "stock": [...]}``."""
    return {
        "deal": number,
        "hands": [[str(card) for card in hand.cards()] for hand in deal.hands],
        "widow": [str(card) for card in deal.widow.cards()],
        "stock": [str(card) for card in deal.stock.cards()],
    }


# --- scoring -------------------------------------------------------------------------------


def score_json(score: Any, variant: Any) -> dict[str, Any]:
    """One scored hand: ``{"outcome", "bid", "bidder", "sides": [...], "explanation"}``."""
    from meldcalc.scoring import side_name

    play = score.play
    return {
        "variant": variant.name,
        "outcome": score.outcome,
        "bid": play.bid,
        "bidder": play.bidder,
        "bidding_side": score.bidding_side,
        "sides": [
            {
                "side": side,
                "seats": side_name(variant, side),
                "meld": play.meld[side],
                "counted_meld": score.counted_meld[side],
                "tricks": None if play.tricks is None else play.tricks[side],
                "points": score.points[side],
                "checks": score.checks[side],
            }
            for side in range(len(play.meld))
        ],
        "explanation": list(score.explanation),
    }


def score_table(score: Any, variant: Any) -> str:
    """A row per side (meld, tricks, points), then the hand explained in sentences."""
    data = score_json(score, variant)
    checks = any(rule.checks for rule in variant.melds)
    headers = ["", "meld", "tricks", "points"] + (["checks"] if checks else [])
    rows = []
    for side in data["sides"]:
        meld = side["meld"] if side["meld"] == side["counted_meld"] else f"({side['meld']}) 0"
        tricks = "-" if side["tricks"] is None else side["tricks"]
        row = [side["seats"], meld, tricks, side["points"]] + ([side["checks"]] if checks else [])
        rows.append(row)
    table = tabulate(rows, headers, colalign=("left",) + ("right",) * (len(headers) - 1))
    return "\n".join([table, "", *data["explanation"]])


def standing_json(ledger: Any, standing: Any, variant: Any) -> dict[str, Any]:
    """A game so far: its hands, the totals, and the winner once decided."""
    from meldcalc.scoring import side_name

    sides = range(len(standing.totals))
    return {
        "ledger": str(ledger.path),
        "variant": ledger.variant,
        "target": ledger.target,
        "sides": [side_name(variant, side) for side in sides],
        "hands": [
            {
                "hand": number,
                "bid": score.play.bid,
                "bidder": score.play.bidder,
                "outcome": score.outcome,
                "points": list(score.points),
                "checks": list(score.checks),
            }
            for number, score in enumerate(ledger.hands, start=1)
        ],
        "totals": list(standing.totals),
        "checks": list(standing.checks),
        "winner": standing.winner,
        "result": standing_sentence(standing, variant, ledger.target),
    }


def standing_sentence(standing: Any, variant: Any, target: int) -> str:
    """Who won and why, or what each side still needs."""
    from meldcalc.scoring import side_name

    totals = standing.totals
    if standing.winner is not None:
        others = ", ".join(str(t) for side, t in enumerate(totals) if side != standing.winner)
        name = side_name(variant, standing.winner).capitalize()
        return f"{name} won, {totals[standing.winner]} to {others}: {standing.reason}."
    if not standing.hands:
        return f"No hands yet; the game is to {target}."
    best = max(totals)
    tied = [side for side, total in enumerate(totals) if total == best]
    if best >= target and len(tied) > 1:  # equal totals over the target play on
        both = len(tied) == len(totals) == 2
        names = "both sides" if both else " and ".join(side_name(variant, s) for s in tied)
        return (
            f"{names[0].upper()}{names[1:]} reached {target} with {best} each:"
            " another hand is played."
        )
    needs = "; ".join(
        f"{side_name(variant, side)} {max(target - total, 0)}" for side, total in enumerate(totals)
    )
    hands = f"{standing.hands} hand{'s' if standing.hands != 1 else ''}"
    return f"No winner yet after {hands}. Still needed to reach {target}: {needs}."


def standing_table(ledger: Any, standing: Any, variant: Any) -> str:
    data = standing_json(ledger, standing, variant)
    checks = any(rule.checks for rule in variant.melds)
    headers = ["hand", "bid", "by", "outcome", *data["sides"]]
    rows = [
        [hand["hand"], hand["bid"], f"seat {hand['bidder']}", hand["outcome"]]
        + [
            f"{points} ({check} checks)" if checks else points
            for points, check in zip(hand["points"], hand["checks"])
        ]
        for hand in data["hands"]
    ]
    totals = [
        f"{total} ({check} checks)" if checks else total
        for total, check in zip(data["totals"], data["checks"])
    ]
    rows.append(["total", "", "", "", *totals])
    align = ("right", "right", "left", "left") + ("right",) * len(data["sides"])
    title = f"{shown_path(ledger.path)}: {variant.name}, game to {ledger.target}"
    return "\n".join([title, "", tabulate(rows, headers, colalign=align), "", data["result"]])


# --- the exact solver ----------------------------------------------------------------------


def _named_plays(leader: int, cards: Any, players: int) -> list[dict[str, Any]]:
    return [
        {"seat": (leader + i) % players, "card": CARD_NAMES[card]} for i, card in enumerate(cards)
    ]


def solution_json(position: Any, solution: Any, variant: Any) -> dict[str, Any]:
    """``{"trump", "leader", "hands", "trick", "to_play", "value", "cards", "line"}``:
    values are the trick points seat 0's side takes from the position on."""
    players = len(position.hands)
    return {
        "variant": variant.name,
        "trump": position.trump.letter,
        "leader": position.leader,
        "hands": [[str(card) for card in hand.cards(position.trump)] for hand in position.hands],
        "trick": [CARD_NAMES[card] for card in position.trick],
        "to_play": position.to_play,
        "value": solution.value,
        "cards": [
            {"card": CARD_NAMES[card], "value": value}
            for card, value in sorted(solution.cards.items(), key=lambda item: -item[1])
        ],
        "line": [
            {
                "leader": trick.leader,
                "cards": _named_plays(trick.leader, trick.cards, players),
                "winner": trick.winner,
                "points": trick.points,
            }
            for trick in solution.line
        ],
    }


def solution_table(position: Any, solution: Any, variant: Any) -> str:
    """The position, every legal card's value (a double-dummy table), the optimal line."""
    data = solution_json(position, solution, variant)
    trump, seat = position.trump, position.to_play
    side = "seat 0's side" if variant.players > 2 else "seat 0"
    lines = [
        f"trump {trump.letter} {trump.symbol}, {variant.name}",
        *(
            f"seat {n}: {position.hands[n].notation(trump) or '-'}"
            for n in range(len(position.hands))
        ),
    ]
    if position.trick:
        lines.append(
            "on the table: "
            + "  ".join(
                f"{p['seat']}:{p['card']}"
                for p in _named_plays(position.leader, position.trick, len(position.hands))
            )
        )
    lines += [
        "",
        f"under best play {side} takes {solution.value} from here (of {variant.trick_total}).",
        "",
        f"seat {seat} to play; each card and what {side} takes after it:",
    ]
    sign = 1 if _on_side_of_seat_0(variant, seat) else -1  # what the seat to play wants
    target = sign * max(sign * value for value in solution.cards.values())
    cards = sorted(data["cards"], key=lambda card: -sign * card["value"])
    rows = [
        [
            card["card"],
            card["value"],
            "best" if card["value"] == target else f"{card['value'] - target:+d}",
        ]
        for card in cards
    ]
    lines.append(tabulate(rows, ["card", "value", ""], colalign=("left", "right", "left")))
    if data["line"]:
        lines += ["", "an optimal line of play:", _tricks_table(data["line"])]
    return "\n".join(lines)


def _on_side_of_seat_0(variant: Any, seat: int) -> bool:
    from meldcalc.solve import seat_sides

    return seat_sides(variant)[seat] == 0


def _play_text(play: dict[str, Any]) -> str:
    """``1:9S``, or ``1:9S(-10)`` when a review priced it."""
    cost = play.get("cost")
    return f"{play['seat']}:{play['card']}" + (f"(-{cost})" if cost else "")


def _tricks_table(tricks: list[dict[str, Any]]) -> str:
    rows = [
        [
            number,
            trick["leader"],
            "  ".join(_play_text(play) for play in trick["cards"]),
            trick["winner"],
            trick["points"],
        ]
        for number, trick in enumerate(tricks, start=1)
    ]
    return tabulate(
        rows,
        ["trick", "led by", "cards (seat:card)", "won by", "points"],
        colalign=("right", "right", "left", "right", "right"),
    )
