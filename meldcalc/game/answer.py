"""What a step of `meldcalc game` answers (`Answer`), where the hand stands when a step
does not belong there (`in_phase`), and how a hand ends: scored, or waiting for what its
score still needs (`closing`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meldcalc.errors import MeldcalcError
from meldcalc.game.odds import auction_prompt
from meldcalc.game.table import Table


@dataclass
class Answer:
    """What a step says: lines for a player, and the same for a script (``data``)."""

    table: Table
    lines: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


#: Where the hand is, as a step that does not belong there is told.
WHERE = {
    "hand": "your hand is not typed yet (hand CARDS)",
    "auction": "the hand is at its auction",
    "widow": "the widow is to be taken up (widow CARDS)",
    "ask": "the bidder is to ask for a suit (ask SUIT)",
    "pass": "the cards are being passed",
    "trump": "trump is to be named (trump SUIT)",
    "bury": "cards are to be buried (bury CARDS)",
    "meld": "the hand is at its meld",
    "play": "the hand is in its play",
    "counts": "the hand's score waits for a count",
    "over": "the hand is over",
}


def in_phase(table: Table, phases: str | tuple[str, ...], step: str) -> None:
    """Refuses a step where the hand is not at one of ``phases``, saying where it is."""
    allowed = (phases,) if isinstance(phases, str) else phases
    if table.phase not in allowed:
        where = WHERE[table.phase]
        if table.phase == "counts":
            where += f" ({COUNT_WANTED[table.counts_wanted()]})"
        raise MeldcalcError(
            f"{step}: not now: {where}"
            + (f" ({auction_prompt(table)})" if table.phase == "auction" else "")
        )


#: What the score still needs, asked for by the step that gives it (`Table.counts_wanted`).
COUNT_WANTED = {
    "checks": "meld was given as totals: say each side's checks: checks N,N",
    "counters_taken": "a side's trick points may be the last trick's alone, and a side"
    " must take a counter to save its meld: say the counters each side took: counters N,N",
    "tricks_taken": "a side took no trick points, and a side must take a trick to save"
    " its meld: say the tricks each side took: taken N,N",
}


def scored_lines(table: Table) -> list[str]:
    scored = table.outcome()
    return ["the hand is over", *scored.explanation]


def closing(table: Table, lines: list[str], data: dict[str, Any]) -> Answer:
    """A step that may end the hand: scored, or waiting for what the score still needs."""
    wanted = table.counts_wanted()
    if wanted is not None:
        return Answer(table, [*lines, COUNT_WANTED[wanted]], {**data, "wanted": wanted})
    return Answer(table, [*lines, *scored_lines(table)], data)
