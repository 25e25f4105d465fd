"""`meldcalc review`: a deal as it was really played, every card priced by the solver."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, replace
from typing import Annotated, Any, Optional

import typer

from meldcalc.cli.base import (
    REVIEW_TIME_LIMIT,
    VariantOption,
    all_best_option,
    app,
    file_hint,
    format_option,
    input_lines,
    jobs_option,
    load,
    no_limit_if_zero,
    progress_line,
    record_each,
    say,
    seat_auction_option,
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
from meldcalc.rules.seats import SEAT_WORDS, Seating
from meldcalc.rules.variant import Variant


@app.command(short_help="Review a deal as it was played: what each card cost its side.")
def review(
    deals: Annotated[Optional[list[str]], typer.Argument(metavar="DEAL", hidden=True)] = None,
    trump: Annotated[Optional[Suit], trump_option("; or '| trump S' after a line's hands")] = None,
    leader: Annotated[
        str,
        typer.Option("--leader", "-l", metavar="SEAT", help=f"Who led trick 1: {SEAT_WORDS}."),
    ] = "0",
    side: Annotated[
        str,
        typer.Option(
            "--seat",
            metavar="SEAT",
            help="Your seat, from 0 in playing order: the summary says what your side lost.",
        ),
    ] = "0",
    bidder: Annotated[
        Optional[str],
        typer.Option(
            "--bidder",
            metavar="SEAT",
            help=f"Who bid, named the bidding side (default: who led trick 1): {SEAT_WORDS}.",
            show_default=False,
        ),
    ] = None,
    view: Annotated[
        Optional[str],
        typer.Option(
            "--view",
            metavar="SEAT",
            help="Also price that seat's cards as it saw them (the reference player's values"
            " on layouts that fit what it had seen) beside the exact cost.",
            show_default=False,
        ),
    ] = None,
    auction: Annotated[
        Optional[str], seat_auction_option("read with the plays by --view, as hint reads it")
    ] = None,
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
        int, jobs_option("Processes for deals read one a line: each reviewed on its own core.")
    ] = 1,
    all_best: Annotated[bool, all_best_option("your cards (--seat)")] = False,
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
        seats = replace(
            _seats(rules, side, leader, bidder, view), auction=auction, all_best=all_best
        )
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
            with file_hint(parts, "review", "deals"):
                record = _reviewed(" ".join(parts), rules, trump, seats, limit)
            say(_shown(record, fmt, rules))
            return
    compute = functools.partial(
        _reviewed, rules=rules, trump=trump, seats=seats, limit=limit, shown=jobs == 1
    )
    record_each(lines, "deal", compute, lambda record: _shown(record, fmt, rules), fmt, jobs)


@dataclass(frozen=True)
class _Seats:
    """The seats the options name: yours, who led trick 1, who bid (None: the leader),
    and whose view to price (None: no view)."""

    seating: Seating
    leader: int
    bidder: int | None
    view: int | None
    auction: str | None = None  # as typed: its seats are checked against each deal's
    all_best: bool = False  # every seat's cards compared with the others it could play


def _seats(rules: Variant, seat: str, leader: str, bidder: str | None, view: str | None) -> _Seats:
    mine = Seating(rules).parse(seat, "--seat")
    seating = Seating(rules, mine)
    return _Seats(
        seating,
        seating.parse(leader, "--leader"),
        None if bidder is None else seating.parse(bidder, "--bidder"),
        None if view is None else seating.parse(view, "--view"),
    )


def _reviewed(
    text: str,
    rules: Variant,
    trump: Suit | None,
    seats: _Seats,
    limit: float | None,
    shown: bool = True,
) -> dict[str, Any]:
    """A deal replayed and reviewed: ``played_json``'s record with ``summary`` (and
    ``view``, the seat's cards priced as it saw them), and the objects the table is drawn
    from under ``_objects``. ``shown``: a progress line on a terminal (not from several
    workers at once)."""
    from meldcalc.advice.replay import parse_played
    from meldcalc.advice.review import review as review_deal

    played = parse_played(text, rules, trump, seats.leader)
    if not played.tricks:
        raise MeldcalcError("no card played: give the cards as played, '| played AC 9C ...'")
    bidder = played.tricks[0].leader if seats.bidder is None else seats.bidder
    with progress_line("reviewing trick {}", after=0 if shown else float("inf")) as progress:
        mine = {seats.seating.me, seats.view} - {None}
        compared = None if seats.all_best else mine
        checked = review_deal(played, rules, progress, limit, bidder, compared)
    record = played_json(played, checked)
    record["bidder"] = bidder
    record["summary"] = summary(checked, played, rules, seats.seating, bidder)
    view = None
    if seats.view is not None:
        from meldcalc.advice.history import parse_auction
        from meldcalc.advice.seen import price_as_seen

        bids = (
            ()
            if not seats.auction
            else parse_auction(seats.auction, rules, bidder, seats.seating.me)
        )
        # the view's exact column from the review above (its --bidder's lone side, too)
        priced = price_as_seen(played, rules, seats.view, auction=bids, reviewed=checked)
        who = "you" if seats.view == seats.seating.me else f"seat {seats.view}"
        view = seen_review(priced, who)
        record["view"] = {"seat": seats.view, **view[1]}
    return {**record, "_objects": (played, checked, bidder, view)}


def _shown(record: dict[str, Any], fmt: RecordFormat, rules: Variant) -> str:
    played, checked, bidder, view = record.pop("_objects")
    if fmt is RecordFormat.table:
        lines = [record["summary"], "", played_table(played, checked, None, (), rules, bidder)]
        return "\n".join(lines + ([] if view is None else ["", *view[0]]))
    return json.dumps(record, indent=2 if fmt is RecordFormat.json else None, ensure_ascii=False)


def summary(checked: Any, played: Any, rules: Variant, seating: Seating, bidder: int) -> str:
    """What a player reads first: what your side (``seating.me``'s) lost, trick by trick,
    with the card played and the best one; and what the others gave away."""
    from meldcalc.engines.solve import seat_sides

    sides = seat_sides(rules, bidder)
    ours, players = sides[seating.me], rules.players
    losses, lost = [], 0
    for index, card in enumerate(checked.cards):
        if not card.cost or sides[card.seat] != ours:
            continue
        number = checked.first_trick + index // players
        verb = "led" if index % players == 0 else "played"
        best = words(list(card.best)) + (" was best" if len(card.best) == 1 else " were best")
        losses.append(
            f"{card.cost} at trick {number} ({seating.label(card.seat)} {verb} {card.card}; {best})"
        )
        lost += card.cost
    given = sum(card.cost for card in checked.cards if sides[card.seat] != ours)
    name = _side_words(sides, ours) + (
        ", the bidding side" if sides[bidder] == ours else ", the defenders"
    )
    head = (
        f"Your side ({name}) lost {lost} points: {', '.join(losses)}."
        if losses
        else f"Your side ({name}) lost nothing: every card it played was as good as any."
    )
    return f"{head} The others gave away {given}."


def _side_words(sides: tuple[int, ...], side: int) -> str:
    """The seats of one side, as ``sides`` (`engines.solve.seat_sides`) counts them."""
    seats = [seat for seat, of in enumerate(sides) if of == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def seen_review(priced: list[Any], who: str = "you") -> tuple[list[str], dict]:
    """A seat's cards priced as it saw them and exactly (`advice.seen`), as lines and as
    data; the largest losses marked. ``who``: the seat, as the lines name it ("you",
    "seat 2")."""
    from meldcalc.cli.report import tabulate

    whose = "your play" if who == "you" else f"{who}'s play"
    worst_seen = max(priced, key=lambda p: p.seen)
    worst_exact = max(priced, key=lambda p: p.exact or 0)
    rows = [
        [
            p.trick,
            p.card,
            p.best_seen,
            f"{p.seen:.1f}",
            " ".join(p.best_exact) if p.best_exact else "",
            "" if p.exact is None else p.exact,
            _marks(p, worst_seen, worst_exact),
        ]
        for p in priced
    ]
    headers = [
        "trick",
        f"{who} played",
        "best as seen",
        "lost",
        "best, all hands known",
        "lost",
        "",
    ]
    table = tabulate(rows, headers, colalign=("right", "left", "left", "right", "left", "right"))
    total_seen = sum(p.seen for p in priced)
    total_exact = sum(p.exact or 0 for p in priced)
    lines = [
        f"{whose}, each card against the best {who} had: as {who} saw it (the reference"
        f" player's values on layouts that fit what {who} had seen) and with every hand known (the"
        " solver); lost in trick points",
        *table.splitlines(),
        f"in all: {total_seen:.1f} as seen, {total_exact} with every hand known",
    ]
    data = {
        "review": [
            {
                "trick": p.trick,
                "card": p.card,
                "best_seen": p.best_seen,
                "lost_seen": round(p.seen, 2),
                "best_exact": list(p.best_exact) if p.best_exact else None,
                "lost_exact": p.exact,
            }
            for p in priced
        ]
    }
    return lines, data


def _marks(price: Any, worst_seen: Any, worst_exact: Any) -> str:
    """The largest losses, as a strong player would point them out."""
    seen = price is worst_seen and price.seen >= 1
    exact = price is worst_exact and (price.exact or 0) > 0
    if seen and exact:
        return "← the largest loss, as seen and with every hand known"
    if seen or exact:
        return f"← the largest loss {'as seen' if seen else 'with every hand known'}"
    return ""
