"""Bidding-system files: found (a shipped name or a path), read and checked like variant
files (`meldcalc.rules.loading`), every problem ``file:line:col: key path: what was
expected``, unknown and duplicate keys errors; and modelled as a `systems.System`.

The shipped systems are ``variants/systems/NAME.yaml``; a variant names one with
``bidding: {system: NAME}``, or a house system by its path (from the variant file's
folder). A system file starts with ``system: NAME`` where a variant file has ``name:``, so
``meldcalc check`` tells them apart.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from meldcalc.errors import VariantError, did_you_mean, quote
from meldcalc.rules.cards import RANK_TOKENS, Card
from meldcalc.rules.rulefile import decode_source, display_name, read_source, shipped_dir
from meldcalc.rules.schema import (
    CARD,
    MAX_BID,
    RANK,
    Boolean,
    Field,
    Integer,
    ListOf,
    OneOf,
    Record,
    Text,
)
from meldcalc.rules.systems import Ask, Entry, Holds, Meaning, MeldRule, System, meaning
from meldcalc.rules.variant import Variant
from meldcalc.rules.yamlfile import Node

#: The most entries a system may have (the shipped ones have 5 to 13).
MAX_ENTRIES = 64

_SPAN = Record({"from": Field(Integer(maximum=MAX_BID), required=True), "to": Field(Integer())})
LEVELS = OneOf(
    (Integer(maximum=MAX_BID), ListOf(Integer(maximum=MAX_BID)), _SPAN),
    what="a bid, a list of bids, or {from: N, to: M} (to: optional)",
    doc="The bids the entry reads.",
)
ENTRY = Record(
    {
        "bid": Field(LEVELS),
        "ending": Field(Integer(maximum=9, doc="The bid's last digit.")),
        "when": Field(
            Text(choices=("opening", "later"), doc="The first bid of the auction, or a later one.")
        ),
        "raise": Field(
            OneOf(
                (Integer(minimum=1, maximum=MAX_BID), _SPAN),
                what="a raise in points, or {from: N, to: M}",
                doc="The bid less the highest bid before it.",
            )
        ),
        "jump": Field(
            Boolean(doc="The bid passes over a bid of the same last digit that could be made.")
        ),
        "says": Field(
            Text(max_length=200, doc="What the bid says, as a player says it; {meld}: the meld."),
            required=True,
        ),
        "meld": Field(
            Record(
                {
                    "per_point": Field(Integer(minimum=1, maximum=MAX_BID)),
                    "above": Field(
                        OneOf(
                            (Integer(maximum=MAX_BID), Text(choices=("high",))),
                            what="a bid, or 'high' (the bid before it)",
                        )
                    ),
                    "min": Field(Integer(maximum=MAX_BID)),
                    "max": Field(Integer(maximum=MAX_BID)),
                },
                doc="The meld shown: per_point meld for each point of the bid above a bid (or"
                " the bid before it: above: high), up to the next figure; or min and max.",
            )
        ),
        "holds": Field(
            Record(
                {
                    "cards": Field(ListOf(CARD, max_items=8)),
                    "rank": Field(RANK),
                    "at_least": Field(Integer(minimum=1, maximum=96), required=True),
                },
                exactly_one_of=("cards", "rank"),
                doc="Cards the bidder holds: at least so many of the cards, or of a rank.",
            )
        ),
        "asks": Field(
            Record(
                {
                    "rank": Field(RANK),
                    "ranks": Field(ListOf(RANK, max_items=6)),
                    "every_suit": Field(Boolean(doc="One card of the rank in each suit.")),
                },
                exactly_one_of=("rank", "ranks"),
                doc="Cards the bidder asks its partner to pass: one of the rank, one of each"
                " suit, or one of each rank in one suit.",
            )
        ),
        "wants_trump": Field(Boolean(doc="The bidder wants to name trump.")),
        "shuts_out": Field(Boolean(doc="The bid shuts the others out.")),
    },
    doc="One row of the system: which bids it reads, and what they say.",
)
SYSTEM = Record(
    {
        "system": Field(Text(max_length=64, doc="The system's name."), required=True),
        "title": Field(Text(max_length=200, doc="A one-line title."), required=True),
        "source": Field(
            Text(max_length=2000, multiline=True, doc="Where the system comes from."),
            required=True,
        ),
        "description": Field(Text(max_length=5000, multiline=True)),
        "up_to": Field(Integer(maximum=MAX_BID, doc="Bids above this are bare numbers.")),
        "bids": Field(ListOf(ENTRY, max_items=MAX_ENTRIES), required=True),
    }
)
#: Which bids an entry reads: at least one of these keys.
MATCHES = ("bid", "ending", "when", "raise", "jump")


def system_for(variant: Variant) -> System | None:
    """The system ``variant`` names (``bidding.system``), for its bids; None without one."""
    name = None if variant.bidding is None else variant.bidding.system
    if name is None:
        return None
    return load_system(name).for_game(variant.bidding)


def heard(
    variant: Variant, bids: Sequence[tuple[int, int | None]], me: int
) -> tuple[tuple[int, Meaning], ...]:
    """Each bid of the auction (absolute seats, in the order spoken) read by the table's
    system, its seat counted from ``me``; nothing without a system."""
    system = system_for(variant)
    if system is None:
        return ()
    spoken = [bid for _, bid in bids]
    return tuple(
        ((seat - me) % variant.players, meaning(system, spoken[:i], bid))
        for i, (seat, bid) in enumerate(bids)
        if bid is not None
    )


def systems_dir() -> Path:
    return shipped_dir() / "systems"


def shipped_systems() -> list[str]:
    return sorted(path.stem for path in systems_dir().glob("*.yaml"))


def resolve_system(spec: str, base: Path | None = None) -> Path:
    """The file a system's name or path stands for; a path is taken from ``base``."""
    if spec in shipped_systems():
        return systems_dir() / f"{spec}.yaml"
    looks_like_path = "/" in spec or "\\" in spec or spec.endswith((".yaml", ".yml"))
    if not looks_like_path:
        names = shipped_systems()
        raise VariantError(
            [
                f"unknown bidding system {quote(spec)}: expected one of {', '.join(names)}, or a"
                f" path to a system file{did_you_mean(spec, names)}"
            ]
        )
    path = Path(spec)
    return path if base is None or path.is_absolute() else base / path


def load_system(spec: str | Path, base: Path | None = None) -> System:
    """A system by shipped name or path, read and checked afresh (a parse of the same
    bytes is kept for the run)."""

    path = resolve_system(str(spec), base) if isinstance(spec, str) else spec
    return _checked(display_name(path), read_system_source(path), str(path))


def read_system_source(path: Path) -> bytes:
    """The bytes of a system file (`rulefile.read_source`'s checks)."""
    return read_source(path, "system")


@lru_cache(maxsize=32)
def _checked(name: str, content: bytes, where: str) -> System:
    from meldcalc.rules.yamlfile import read_yaml

    tree = read_yaml(decode_source(content, name), name)
    problems: list[str] = []
    SYSTEM.check(tree, problems)
    if not problems:
        problems += [p for entry in tree.value["bids"].value for p in _entry_problems(entry)]
    if problems:
        raise VariantError(problems)
    return _model(tree, Path(where))


def looks_like_system(path: Path) -> bool:
    """Whether a file is a system file rather than a variant: a top-level ``system:`` key
    and no ``name:`` (read as text: no YAML needed to tell)."""
    try:
        text = read_source(path).decode("utf-8", "replace")
    except VariantError:  # not a regular file, or none: the variant loader says so
        return False
    keys = re.findall(r"^([A-Za-z_]+)\s*:", text, flags=re.MULTILINE)
    return "system" in keys and "name" not in keys


# --- what the spec cannot see ------------------------------------------------------------


def _entry_problems(entry: Node) -> list[str]:
    fields = entry.value
    problems = []
    if not any(key in fields for key in MATCHES):
        problems.append(
            entry.problem(
                f"expected at least one of {', '.join(MATCHES)}: which bids the entry reads"
            )
        )
    if "jump" in fields and "bid" not in fields:
        problems.append(fields["jump"].problem("a jump needs the bid it jumps to: expected 'bid'"))
    for key in ("bid", "raise"):
        if key in fields and isinstance(fields[key].value, dict):
            problems += _span_problems(fields[key])
    if "meld" in fields:
        problems += _meld_problems(fields["meld"], fields)
    if "asks" in fields:
        asks = fields["asks"].value
        every = asks.get("every_suit")
        if every is not None and every.value and "ranks" in asks:
            problems.append(every.problem("every_suit asks for one rank: expected 'rank'"))
    problems += _says_problems(fields["says"], "meld" in fields)
    return problems


def _span_problems(node: Node) -> list[str]:
    span = node.value
    if "to" in span and span["to"].value < span["from"].value:
        return [span["to"].problem(f"to {span['to'].value} is below from {span['from'].value}")]
    return []


def _meld_problems(meld: Node, fields: dict) -> list[str]:
    rule = meld.value
    figured, ranged = "per_point" in rule, "min" in rule or "max" in rule
    if figured == ranged:
        return [meld.problem("expected per_point and above, or min and/or max")]
    if figured and "above" not in rule:
        return [meld.problem("per_point needs 'above': the bid the points are counted from")]
    above = rule.get("above")
    later = "raise" in fields or ("when" in fields and fields["when"].value == "later")
    if above is not None and above.value == "high" and not later:
        wanted = "expected 'raise' or 'when: later'"
        return [above.problem(f"above: high needs a bid before it: {wanted}")]
    if "min" in rule and "max" in rule and rule["max"].value < rule["min"].value:
        return [rule["max"].problem(f"max {rule['max'].value} is below min {rule['min'].value}")]
    return []


def _says_problems(says: Node, meld: bool) -> list[str]:
    for name in re.findall(r"\{([^{}]*)\}", says.value):
        if name != "meld" or not meld:
            wanted = "{meld}, with a meld" if name == "meld" else "only {meld}"
            return [says.problem(f"unknown placeholder {{{name}}}: expected {wanted}")]
    return []


# --- the model ---------------------------------------------------------------------------


def _model(tree: Node, path: Path) -> System:
    data = tree.plain()
    return System(
        name=data["system"],
        title=data["title"],
        source=" ".join(data["source"].split()),
        description=" ".join(data.get("description", "").split()),
        entries=tuple(_entry(entry) for entry in data["bids"]),
        up_to=data.get("up_to"),
        path=path,
    )


def _entry(data: dict) -> Entry:
    meld = data.get("meld")
    holds = data.get("holds")
    asks = data.get("asks")
    return Entry(
        says=data["says"],
        levels=_levels(data.get("bid")),
        ending=data.get("ending"),
        when=data.get("when"),
        raises=_levels(data["raise"])[0] if "raise" in data else None,
        jump=data.get("jump", False),
        meld=None
        if meld is None
        else MeldRule(meld.get("per_point"), meld.get("above"), meld.get("min"), meld.get("max")),
        holds=None
        if holds is None
        else Holds(
            holds["at_least"],
            tuple(Card.parse(card) for card in holds.get("cards", ())),
            _rank(holds["rank"]) if "rank" in holds else None,
        ),
        asks=None
        if asks is None
        else Ask(
            tuple(_rank(rank) for rank in ([asks["rank"]] if "rank" in asks else asks["ranks"])),
            asks.get("every_suit", False),
        ),
        wants_trump=data.get("wants_trump", False),
        shuts_out=data.get("shuts_out", False),
    )


def _levels(value: object) -> tuple[tuple[int, int | None], ...]:
    if value is None:
        return ()
    if isinstance(value, dict):
        return ((value["from"], value.get("to")),)
    bids = value if isinstance(value, list) else [value]
    return tuple((bid, bid) for bid in bids)


def _rank(value: object) -> object:
    return RANK_TOKENS[str(value).upper()]


# --- named by a variant ------------------------------------------------------------------


def system_problems(tree: Node) -> list[str]:
    """The system a variant's ``bidding.system`` names, checked; a path is made absolute
    (from the folder of the file that named it), so the variant finds it from anywhere."""
    bidding = tree.value.get("bidding")
    if bidding is None or not isinstance(bidding.value, dict) or "system" not in bidding.value:
        return []
    node = bidding.value["system"]
    try:
        path = resolve_system(node.value, Path(node.file).parent)
        read_system_source(path)
    except VariantError as error:
        return [node.problem(error.problems[0])]
    try:
        load_system(path)
    except VariantError as error:  # the system file's own problems, each at its place
        return error.problems
    if node.value not in shipped_systems():
        node.value = os.path.abspath(path)
    return []
