"""`meldcalc review`: a deal as it was really played, every card priced by the solver."""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any, Optional

import typer

from meldcalc.cli.base import (
    REVIEW_TIME_LIMIT,
    VariantOption,
    app,
    format_option,
    input_lines,
    load,
    no_limit_if_zero,
    progress_line,
    record_each,
    say,
    time_limit_option,
    trump_option,
    user_errors,
    words,
)
from meldcalc.cli.play import played_json, played_table
from meldcalc.cli.report import RecordFormat
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import Suit
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.variant import Variant


@app.command(short_help="Review a deal as it was played: what each card cost its side.")
def review(
    deals: Annotated[Optional[list[str]], typer.Argument(metavar="DEAL", hidden=True)] = None,
    trump: Annotated[Optional[Suit], trump_option("; or '| trump S' after a line's hands")] = None,
    leader: Annotated[
        int,
        typer.Option("--leader", "-l", min=0, max=5, metavar="SEAT", help="Who led trick 1."),
    ] = 0,
    side: Annotated[
        int,
        typer.Option(
            "--seat",
            min=0,
            max=5,
            metavar="SEAT",
            help="Your seat: the summary says what your side lost (default: seat 0).",
        ),
    ] = 0,
    variant: VariantOption = DEFAULT_VARIANT,
    fmt: Annotated[RecordFormat, format_option(RecordFormat)] = RecordFormat.table,
    time_limit: Annotated[
        float,
        time_limit_option(
            f"Stop a deal's review after this many seconds, with an error; 0: no limit."
            f" Default: {REVIEW_TIME_LIMIT:g}."
        ),
    ] = REVIEW_TIME_LIMIT,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help="Processes for deals read one a line: each reviewed on its own core.",
        ),
    ] = 1,
) -> None:
    """Review a deal as it was really played: every card checked against the rules and
    priced with the exact solver against the best card its seat had.

    DEAL is every seat's hand as dealt, in playing order, then the cards as played:
    'HAND / HAND / HAND / HAND | trump S | leader 0 | played AC 9C KC JC ...' (a deal
    may stop part way); '-' or a pipe on stdin gives one deal a line. 'play --deal ...
    -f json' output becomes a line of it with meldcalc.advice.replay.played_line (README).

    Example: meldcalc review "AS 10S / KS QS / AH 9S / KH 9H | trump S | played AS KS 9S 9H"
    """
    from meldcalc.engines.solve import check_solver

    with user_errors():
        rules = load(variant)
        check_solver(rules)
        limit = no_limit_if_zero(time_limit)
        if not 0 <= side < rules.players:
            raise MeldcalcError(f"--seat {side}: {rules.name} seats 0 to {rules.players - 1}")
        lines = input_lines(
            deals,
            "deals as played, one per line",
            missing="no deal given{}: give the hands and '| played ...', or '-' to read stdin",
        )
        if lines is None:
            parts = deals or []
            given = sum("played" in part.lower() for part in parts)
            if given > 1 and given == len(parts):
                raise MeldcalcError(
                    f"{given} deals given as {given} arguments: review takes one; give several"
                    " one per line on standard input (meldcalc review - < deals.txt)"
                )
            record = _reviewed(" ".join(parts), rules, trump, leader, side, limit)
            say(_shown(record, fmt, rules))
            return
    compute = functools.partial(
        _reviewed, rules=rules, trump=trump, leader=leader, seat=side, limit=limit, shown=jobs == 1
    )
    record_each(lines, "deal", compute, lambda record: _shown(record, fmt, rules), fmt, jobs)


def _reviewed(
    text: str,
    rules: Variant,
    trump: Suit | None,
    leader: int,
    seat: int,
    limit: float | None,
    shown: bool = True,
) -> dict[str, Any]:
    """A deal replayed and reviewed: ``played_json``'s record with ``summary``, and the
    objects the table is drawn from under ``_objects``. ``shown``: a progress line on a
    terminal (not from several workers at once)."""
    from meldcalc.advice.replay import parse_played
    from meldcalc.advice.review import review as review_deal

    played = parse_played(text, rules, trump, leader)
    if not played.tricks:
        raise MeldcalcError("no card played: give the cards as played, '| played AC 9C ...'")
    with progress_line("reviewing trick {}", after=0 if shown else float("inf")) as progress:
        checked = review_deal(played, rules, progress, limit)
    record = played_json(played, checked)
    record["summary"] = summary(checked, played, rules, seat)
    return {**record, "_objects": (played, checked)}


def _shown(record: dict[str, Any], fmt: RecordFormat, rules: Variant) -> str:
    played, checked = record.pop("_objects")
    if fmt is RecordFormat.table:
        bidder = played.tricks[0].leader if played.tricks else 0  # who bid leads the first trick
        return "\n".join(
            [record["summary"], "", played_table(played, checked, None, (), rules, bidder)]
        )
    return json.dumps(record, indent=2 if fmt is RecordFormat.json else None, ensure_ascii=False)


def summary(checked: Any, played: Any, rules: Variant, seat: int) -> str:
    """What a player reads first: what the side of ``seat`` lost, trick by trick, with the
    card played and the best one; and what the others gave away."""
    from meldcalc.engines.solve import seat_sides

    sides = seat_sides(rules)
    ours, players = sides[seat], rules.players
    losses, lost = [], 0
    for index, card in enumerate(checked.cards):
        if not card.cost or sides[card.seat] != ours:
            continue
        number = checked.first_trick + index // players
        verb = "led" if index % players == 0 else "played"
        best = words(list(card.best)) + (" was best" if len(card.best) == 1 else " were best")
        losses.append(
            f"{card.cost} at trick {number} (seat {card.seat} {verb} {card.card}; {best})"
        )
        lost += card.cost
    given = sum(card.cost for card in checked.cards if sides[card.seat] != ours)
    name = _side_words(rules, ours)
    head = (
        f"Your side ({name}) lost {lost} points: {', '.join(losses)}."
        if losses
        else f"Your side ({name}) lost nothing: every card it played was as good as any."
    )
    return f"{head} The others gave away {given}."


def _side_words(rules: Variant, side: int) -> str:
    """The seats of one side as the solver counts sides: seat 0's, and the others'."""
    from meldcalc.engines.solve import seat_sides

    seats = [seat for seat, of in enumerate(seat_sides(rules)) if of == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"
