"""Learning the rules: `table`, `check`, `variants` and `deal` (`quiz` has its own module)."""

from __future__ import annotations

import enum
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from meldcalc import console
from meldcalc.cli.base import (
    SeedOption,
    VariantOption,
    app,
    complete_variant,
    fail,
    format_option,
    load,
    say,
    user_errors,
    variant_option,
)
from meldcalc.cli.report import tabulate
from meldcalc.console import EXIT_BAD_INPUT
from meldcalc.errors import MeldcalcError, VariantError, quote
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.notation import PILES
from meldcalc.rules.variant import checks_text


class ListFormat(str, enum.Enum):
    table = "table"
    json = "json"


class TableFormat(str, enum.Enum):
    table = "table"
    markdown = "markdown"
    json = "json"
    yaml = "yaml"


class DealFormat(str, enum.Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


@app.command(short_help="List the shipped rule variants.")
def variants(
    fmt: Annotated[ListFormat, format_option(ListFormat)] = ListFormat.table,
) -> None:
    """List the shipped rule variants.

    Example: meldcalc variants
    """
    from meldcalc.learning.tables import shipped_summaries

    with user_errors():
        rows = shipped_summaries()
    if fmt is ListFormat.json:
        say(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        say(variants_table(rows, terminal_width(sys.stdout)))


@app.command(short_help="Show a variant's whole scoring table.")
def table(
    name: Annotated[
        Optional[str],
        typer.Argument(autocompletion=complete_variant, metavar="VARIANT", hidden=True),
    ] = None,
    variant: Annotated[
        Optional[str], variant_option("The same as VARIANT, as the other commands spell it.")
    ] = None,
    fmt: Annotated[
        TableFormat, format_option(TableFormat, "; yaml is the file itself, to copy")
    ] = TableFormat.table,
) -> None:
    """Show a variant's whole scoring table: melds, tricks, bidding, scoring, play.

    VARIANT is a shipped variant's name (default: single-deck), a shipped example
    (examples/NAME, listed by 'meldcalc variants') or a YAML file, given alone or as -V
    VARIANT. -f yaml prints the file as it is, to copy and edit as house rules.

    A bidding system's name (skip-meld, jim-davis, toby-thomas) or file shows the system's
    table of bids.

    Example: meldcalc table double-deck --format markdown
    """
    from meldcalc.learning.tables import scoring_table

    with user_errors():
        if name is not None and variant is not None and name != variant:
            raise MeldcalcError(f"two variants given: {quote(name)} and -V {quote(variant)}")
        spec = name or variant or DEFAULT_VARIANT
        if _is_system(spec):
            data, text, source, kind = _system_table(spec)
        else:
            from meldcalc.rules.loading import resolve

            rules = load(spec)  # a file that is no variant is refused, in every format
            data, text, source, kind = None, scoring_text, resolve(spec), "variant"
        if fmt is TableFormat.yaml:
            from meldcalc.rules.rulefile import decode_source, read_source

            say(decode_source(read_source(source, kind), str(source)), end="")
            return
        data = data or scoring_table(rules)
    if fmt is TableFormat.json:
        say(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        markdown = fmt is TableFormat.markdown
        say(text(data, markdown, None if markdown else terminal_width(sys.stdout)))


def _is_system(spec: str) -> bool:
    """Whether ``table`` was given a bidding system (a shipped name or a system file)."""
    import os

    from meldcalc.rules.systemfile import looks_like_system, shipped_systems

    if spec in shipped_systems():
        return True
    return os.path.isfile(spec) and looks_like_system(Path(spec))


def _system_table(spec: str) -> tuple[dict[str, Any], Callable, Path, str]:
    """A bidding system's table, how to print it, and its file (checked: a bad one is
    refused in every format)."""
    from meldcalc.learning.tables import system_table
    from meldcalc.rules.systemfile import load_system, resolve_system

    path = resolve_system(spec)
    return system_table(load_system(path)), system_text, path, "system"


def system_text(data: dict[str, Any], markdown: bool = False, width: int | None = None) -> str:
    """``meldcalc table SYSTEM``: the system's table of bids with its words and source, on
    a terminal ``width`` wide made to fit."""
    return "\n".join(system_lines(data, markdown, width, whole=True))


def system_lines(
    data: dict[str, Any], markdown: bool = False, width: int | None = None, whole: bool = False
) -> list[str]:
    """A bidding system's table of bids (``whole``: with its title, description and
    source, as ``table SYSTEM`` shows it; else as a section of a variant's table); on a
    terminal ``width`` wide, its columns wrapped, or a line an entry where even that is
    too wide."""
    rows = [[entry["bids"], entry["says"], entry["tells"]] for entry in data["bids"]]
    headers = ["bids", "says", "tells of the hand"]
    if markdown:
        bids = tabulate(rows, headers, tablefmt="github")
    else:
        lines = "\n".join(f"- {said}: {says} ({tells})" for said, says, tells in rows)
        bids = fitted_table(rows, headers, width, wrap=[0, 1, 2]) or lines
    up_to = [f"Bids above {data['up_to']} are bare numbers."] if data["up_to"] else []
    tried = (
        "Each bid is read by the first row that matches it; a bid none matches is a bare number."
    )
    if not whole:
        heading = "## " if markdown else ""
        named = f"{heading}Bidding system{'' if markdown else ':'} {data['system']}"
        return [named, "", data["title"], "", bids, "", tried, *up_to]
    title = (
        f"# {data['system']}: {data['title']}" if markdown else f"{data['system']}: {data['title']}"
    )
    return [
        title,
        "",
        data["description"],
        "",
        bids,
        "",
        tried,
        *up_to,
        "",
        f"Source: {data['source']}",
    ]


@app.command(short_help="Validate house-rules files, every problem linter-style.")
def check(
    files: Annotated[
        Optional[list[str]], typer.Argument(metavar="FILE", hidden=True, show_default=False)
    ] = None,
) -> None:
    """Validate house-rules files; every problem as file:line:column: key: message.

    FILE is a variant file, a folder standing for every .yaml file in it (and its
    subfolders), or a shipped variant's name. Each file is read afresh, never from the
    cache. The summary line ("N files checked, M with problems") goes to stderr.

    Example: meldcalc check house.yaml
    """
    import os

    from meldcalc.rules.loading import is_shipped, resolve, variant_files

    if not files:
        fail("no file given: name the variant files to check, e.g. house.yaml")
        raise typer.Exit(EXIT_BAD_INPUT)
    checked = bad = 0
    for file in files:
        try:
            shipped = is_shipped(file) and not os.path.lexists(file)
            paths = [resolve(file)] if shipped else variant_files(Path(file))
        except VariantError as error:
            checked, bad = checked + 1, bad + 1
            say(error.problems[0])
            continue
        for path in paths:
            checked += 1
            try:
                variant = _checked_file(path)
            except VariantError as error:
                bad += 1
                for problem in _in_file_order(error.problems):
                    say(problem)
            else:
                where = f"{file} (shipped: {path})" if shipped else str(path)
                say(f"{where}: ok ({variant.name}: {variant.title})")
    files_checked = f"{checked} file{'' if checked == 1 else 's'} checked"
    console.to_stderr(f"{files_checked}, {bad} with problems\n")
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)


def _checked_file(path: Path) -> Any:
    """A variant file read and checked afresh, or a bidding system's (`rules.systemfile`):
    a file that starts ``system:`` where a variant has ``name:``."""
    from meldcalc.rules.loading import load_variant_file
    from meldcalc.rules.systemfile import load_system, looks_like_system

    return load_system(path) if looks_like_system(path) else load_variant_file(path)


_PLACE = re.compile(r"(.*?):(\d+):(\d+): ")


def _in_file_order(problems: list[str]) -> list[str]:
    """Problems as a linter lists them: by file (in the order met), then line and column;
    the loader finds them phase by phase (shape, then meaning)."""
    files: dict[str, int] = {}

    def place(problem: str) -> tuple[int, int, int]:
        match = _PLACE.match(problem)
        if match is None:
            return (len(problems), 0, 0)
        file = files.setdefault(match.group(1), len(files))
        return (file, int(match.group(2)), int(match.group(3)))

    return sorted(problems, key=place)


@app.command(short_help="Deal random hands in the notation meld reads.")
def deal(
    variant: VariantOption = DEFAULT_VARIANT,
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, metavar="N", help="How many deals.")
    ] = 1,
    seed: SeedOption = None,
    players: Annotated[
        bool, typer.Option("--players", help="Show every seat of each deal (and the widow).")
    ] = False,
    fmt: Annotated[DealFormat, format_option(DealFormat)] = DealFormat.text,
) -> None:
    """Deal random hands, one per line, in the notation meld reads.

    With --players every seat is a line 'seat N: ...' (seats numbered from 0, as play and
    solve number them), then 'widow: ...' where there is one; meld reads those lines too.
    Where a card turned up names trump (two-handed), a line '# turn-up: ...' follows the
    deal (meld skips it). Without --seed the seed drawn is said on stderr (and is a field
    of JSON), so the deals can be dealt again.

    Example: meldcalc deal -n 1000 --seed 7 | meldcalc meld -f jsonl
    """
    import secrets

    from meldcalc.dealing.deal import deals

    with user_errors():
        rules = load(variant)
    if seed is None:
        seed = secrets.randbelow(2**31)
        if fmt is DealFormat.text:
            console.to_stderr(
                f"meldcalc: dealt from seed {seed} (--seed {seed} deals the same again)\n"
            )
    dealt = enumerate(deals(rules, count, seed), start=1)
    if fmt is DealFormat.json:
        records = [deal_json(one, number, seed) for number, one in dealt]
        say(json.dumps(records if count > 1 else records[0], indent=2))
        return
    for number, one in dealt:
        if fmt is DealFormat.jsonl:
            say(json.dumps(deal_json(one, number, seed)))
        else:
            say("\n".join(deal_lines(one, number if count > 1 else None, players)))


MULTIPLE_NAMES = ("single", "double", "triple", "quadruple")


def variants_table(rows: list[dict[str, Any]], width: int | None = None) -> str:
    """The shipped variants, then the examples of house files; on a terminal ``width``
    wide, the titles wrapped to fit (or a line per variant)."""
    headers = ["name", "players", "deck", "hand", "widow", "title"]

    def cells(example: bool) -> str:
        found = [
            [r["name"], r["players"], r["deck"], r["hand_size"], r["widow"], r["title"]]
            for r in rows
            if r["example"] is example
        ]
        table = fitted_table(found, headers, width, wrap=[5])
        return table or "\n".join(
            f"{name}: {title}\n  {players} players, deck {deck}, {hand} cards each"
            + (f", a widow of {widow}" if widow else "")
            for name, players, deck, hand, widow, title in found
        )

    return "\n".join(
        [
            cells(False),
            "",
            "Examples of house rules, to copy and edit"
            " (meldcalc table examples/NAME -f yaml > house.yaml):",
            "",
            cells(True),
        ]
    )


#: The narrowest a wrapped column is made: narrower, a cell is mostly line breaks.
NARROWEST = 8


def fitted_table(
    rows: list[list[Any]], headers: list[str], width: int | None, wrap: list[int]
) -> str | None:
    """A table no wider than ``width`` (None: as wide as it is), the columns ``wrap``
    wrapped at word boundaries as far as needed (the room shared as their widths are);
    None when even that cannot fit."""
    table = tabulate(rows, headers)
    if width is None or _widest(table) <= width:
        return table
    widths = [len(rule) for rule in table.splitlines()[1].split("  ")]  # the rule: ---  ---
    room = width - sum(w for i, w in enumerate(widths) if i not in wrap) - 2 * (len(widths) - 1)
    wanted = sum(widths[i] for i in wrap)
    limits: list[int | None] = [None] * len(headers)
    for i in wrap:
        limits[i] = max(NARROWEST, room * widths[i] // wanted)
    fitted = tabulate(rows, headers, maxcolwidths=limits)
    return fitted if _widest(fitted) <= width else None


def terminal_width(out: Any) -> int | None:
    """The terminal's width when ``out`` is one; None for a pipe or a file (left whole)."""
    from meldcalc.cli.report import _terminal_width

    return _terminal_width(out)


def _widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


def meld_grid(rows: list[list[Any]], multiples: list[str], width: int | None) -> str:
    """The melds by class on a terminal ``width`` wide: the grid as it is, or with short
    headings (1x 2x ...) and the classes and cards wrapped, or a line per meld."""
    grid = tabulate(rows, ["class", "meld", "cards", *multiples])
    if width is None or _widest(grid) <= width:
        return grid
    short = ["class", "meld", "cards", *(f"{k}x" for k in range(1, len(multiples) + 1))]
    breakable = [[cls.replace("+", "+ "), *rest] for cls, *rest in rows]  # wraps after a +
    grid = fitted_table(breakable, short, width, wrap=[2, 0])
    if grid is not None:
        return grid
    return "\n".join(
        f"{meld} ({cards}; {cls}): {', '.join(values)}" for cls, meld, cards, *values in rows
    )


def scoring_text(data: dict[str, Any], markdown: bool = False, width: int | None = None) -> str:
    """The scoring table of a variant for reading (or, with ``markdown``, printing); on a
    terminal ``width`` wide, the grid made to fit (its prose is wrapped as it is said)."""
    from meldcalc.learning.tables import HOUSE_DEFAULT, MARK, reuse_lines

    multiples = [
        MULTIPLE_NAMES[k] if k < len(MULTIPLE_NAMES) else f"x{k + 1}"
        for k in range(data["multiples"])
    ]
    rows = []
    for group in data["classes"]:
        for meld in group["melds"]:
            checks = meld.get("checks")
            derived = set(meld.get("derived", ()))
            own = meld.get("house_default", {})
            points = [
                (f"({p}*)" if k in derived else f"{p}")
                + (MARK if k in own.get("points", ()) else "")
                + (f" ({checks_text(c)}{MARK if k in own.get('checks', ()) else ''})" if c else "")
                for k, (p, c) in enumerate(
                    zip(meld["points"], checks or [0] * len(meld["points"])), start=1
                )
            ]
            rows.append([group["class"], meld["name"], meld["cards"], *points])
    headers = ["class", "meld", "cards", *multiples]
    melds = (
        tabulate(rows, headers, tablefmt="github")
        if markdown
        else meld_grid(rows, multiples, width)
    )
    tricks = data["tricks"]
    counters = ", ".join(f"{rank} {points}" for rank, points in tricks["counters"].items())
    trick_line = (
        f"{counters}; {tricks['cards_of_each_rank']} cards of each rank: "
        f"{tricks['cards_total']} in the cards + last trick {tricks['last_trick']}"
        f" = {tricks['total']}" + (f" {MARK}" if tricks.get("house_default") else "")
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
            *reuse_lines(data),
            *_derived_note(data, multiples),
            "",
            f"{heading}Tricks{'' if markdown else ':'}",
            "",
            trick_line,
            "",
            f"{heading}Bidding{'' if markdown else ':'}",
            "",
            *[f"- {line}" for line in data["bidding"]],
            "",
            f"{heading}Scoring{'' if markdown else ':'}",
            "",
            *[f"- {line}" for line in data["scoring"]],
            "",
            f"{heading}Play{'' if markdown else ':'}",
            "",
            *[f"- {line}" for line in data["play"]],
            "",
            *([*system_lines(data["system"], markdown, width), ""] if data.get("system") else []),
            *([f"{MARK} {HOUSE_DEFAULT}.", ""] if data.get("house_defaults") else []),
            f"Source: {data['source']}",
        ]
    )


def _derived_note(data: dict[str, Any], multiples: list[str]) -> list[str]:
    """The footnote of the values marked ``(n*)``: meldcalc's own, worked out by a rule of
    its own where the file stops; the rule, and the first of them worked out."""
    from meldcalc.learning.tables import DERIVED

    melds = [meld for group in data["classes"] for meld in group["melds"] if "derived" in meld]
    if not melds:
        return []
    first, copies = melds[0], melds[0]["derived"][0]
    points = first["points"]
    listed = len(points) - len(first["derived"])  # the copies the file gives a value
    worked = f"{points[listed - 1]} + {points[copies - listed - 1]} = {points[copies - 1]}"
    example = f"{multiples[copies - 1]} {first['name']}: {worked}"
    return [
        "",
        f"(n*) meldcalc's own value, in neither the file nor its source: {DERIVED} ({example}).",
    ]


def deal_lines(deal: Any, number: int | None, players: bool) -> list[str]:
    """A deal as text ``meld`` reads: seat 0's hand, or with ``players`` a labelled line per
    seat (``seat 0: ...``, then ``widow: ...``, ``stock: ...``) under ``# deal N``."""
    if not players:
        return [deal.hands[0].notation(), *_turn_up_lines(deal)]
    lines = [f"# deal {number}"] if number is not None else []
    lines += [f"seat {seat}: {hand.notation()}" for seat, hand in enumerate(deal.hands)]
    lines += [f"{name}: {getattr(deal, name).notation()}" for name in PILES]
    return [line for line in lines if not line.endswith(": ")] + _turn_up_lines(deal)


def _turn_up_lines(deal: Any) -> list[str]:
    """``# turn-up: 9C (trump C ♣)``, a comment: meld skips it."""
    card = deal.turn_up
    if card is None:
        return []
    return [f"# turn-up: {card} (trump {card.suit.letter} {card.suit.symbol})"]


def deal_json(deal: Any, number: int, seed: int) -> dict[str, Any]:
    """``{"deal": N, "seed": S, "hands": [[cards of seat 0], ...], "widow": [...],
    "stock": [...], "turn_up": "9C" or null}``. Where a card is turned up the stock is
    listed in the order it is drawn, top first, the turn-up last (under the stock)."""
    stock = [*deal.drawn, deal.turn_up] if deal.turn_up is not None else deal.stock.cards()
    return {
        "deal": number,
        "seed": seed,
        "hands": [[str(card) for card in hand.cards()] for hand in deal.hands],
        "widow": [str(card) for card in deal.widow.cards()],
        "stock": [str(card) for card in stock],
        "turn_up": None if deal.turn_up is None else str(deal.turn_up),
    }
