"""`meldcalc hint`: the seat's view during play, and the reference player's decision."""

from __future__ import annotations

import json
from typing import Annotated, Any, Optional

import typer

from meldcalc.cli.base import (
    DEFAULT_POLICY,
    HandArgument,
    Policy,
    SeedOption,
    VariantOption,
    app,
    file_hint,
    format_option,
    input_lines,
    load,
    policy_option,
    record_each,
    say,
    seat_auction_option,
    trump_option,
    user_errors,
    words,
)
from meldcalc.cli.report import RecordFormat, tabulate
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import CARD_NAMES, CARDS, RANKS, Suit, suit_order
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.seats import SEAT_WORDS
from meldcalc.rules.variant import Variant

#: hint.LAYOUTS and hint.MAX_LAYOUTS, not imported: the module brings numpy (start-up time);
#: a test holds them equal.
LAYOUTS = 1000
MAX_LAYOUTS = 100_000


@app.command(short_help="The seat to play's view: each legal card's expected points.")
def hint(
    hand: HandArgument = None,
    trump: Annotated[Optional[Suit], trump_option("; or '| trump S' after the hand")] = None,
    played: Annotated[
        str,
        typer.Option(
            "--played",
            "-p",
            metavar="CARDS",
            help="The cards played so far, in order from the first lead.",
            show_default=False,
        ),
    ] = "",
    leader: Annotated[
        str,
        typer.Option("--leader", "-l", metavar="SEAT", help=f"Who led trick 1: {SEAT_WORDS}."),
    ] = "0",
    seat: Annotated[
        Optional[str],
        typer.Option(
            "--seat",
            metavar="SEAT",
            help="Your seat, from 0 in playing order: whose hint (default: the seat to play"
            " next; any other is refused).",
            show_default=False,
        ),
    ] = None,
    known: Annotated[
        Optional[list[str]],
        typer.Option(
            "--known",
            metavar="SEAT:CARDS",
            help=f"Cards a seat melded, e.g. 2:'JD QS' (SEAT: {SEAT_WORDS}; repeat for more).",
            show_default=False,
        ),
    ] = None,
    buried: Annotated[
        Optional[str],
        typer.Option(
            "--buried",
            metavar="CARDS",
            help="With a widow, when you bid: the cards you buried (HAND is then your hand as"
            " you play it: the widow taken, these left out).",
            show_default=False,
        ),
    ] = None,
    widow: Annotated[
        Optional[str],
        typer.Option(
            "--widow",
            metavar="CARDS",
            help="With a widow, when another seat bid: the widow as it was turned up, if it"
            " was (the bidder took it and buried as many unseen).",
            show_default=False,
        ),
    ] = None,
    layouts: Annotated[
        int,
        typer.Option(
            "--layouts",
            "-n",
            min=2,
            max=MAX_LAYOUTS,
            metavar="N",
            help=f"Layouts of the unseen cards to value each card in (2 to {MAX_LAYOUTS:,});"
            f" the time grows with N: in single deck {LAYOUTS:,} take 0.2-0.3 s on a whole"
            " deal, about 1 s (up to 4 s) at 6 tricks left, where exact values start, and"
            " less after.",
        ),
    ] = LAYOUTS,
    turn_up: Annotated[
        Optional[str],
        typer.Option(
            "--turn-up",
            metavar="CARD",
            help="Two-handed: the card turned up under the stock, which names trump (HAND is"
            " then every card you hold, in hand and on your table).",
            show_default=False,
        ),
    ] = None,
    won: Annotated[
        bool,
        typer.Option(
            "--won",
            help="Two-handed: you won the last trick in --played (and drew, where the meld"
            " follows the draw): what to meld now, and what to keep.",
        ),
    ] = False,
    auction: Annotated[
        Optional[str], seat_auction_option("the others' bids are read with their plays")
    ] = None,
    uniform: Annotated[
        bool,
        typer.Option(
            "--uniform",
            help="Draw the layouts uniformly among those that fit, not in proportion to"
            " the chance of the others' plays in each (README: How the seats read the"
            " table).",
        ),
    ] = False,
    seed: SeedOption = 0,
    policy: Annotated[Policy, policy_option("each layout out")] = DEFAULT_POLICY,
    variant: VariantOption = DEFAULT_VARIANT,
    fmt: Annotated[RecordFormat, format_option(RecordFormat)] = RecordFormat.table,
) -> None:
    """What the seat to play sees, and the reference player's decision: each legal card
    with the trick points the seat's side takes from here, over layouts of the unseen
    cards that fit everything the seat has seen (the cards played, the meld shown, the
    voids the play showed), best first.

    HAND is the seat's hand as it was dealt (its cards in --played are taken out). A line
    may carry the settings itself: 'HAND | trump S | leader 0 | played AC 9C KC JC |
    seat 1 | known 2:JD QS'; '-' or a pipe on stdin gives one position a line.

    Example: meldcalc hint "AS 10S KS QS JS JD 9S AH AD AC KH QH" -t S --played "AC 9C KC JC"
    """
    with user_errors():
        rules = load(variant)
        if rules.turns_up_trump:
            from meldcalc.cli.twohanded import hint_two_handed

            if not hand or hand == ["-"] or trump is not None:
                raise MeldcalcError(
                    f"{rules.name}: give the position on the command line, every card you hold"
                    " as HAND and --turn-up CARD (the turn-up names trump, not --trump)"
                )
            if auction is not None or uniform:
                raise MeldcalcError(
                    f"{rules.name}: {'--auction' if auction is not None else '--uniform'} is"
                    " not for a game with a stock: it has no auction, and its hint deals no"
                    " layouts"
                )
            text = " ".join(hand)
            as_json = fmt is not RecordFormat.table
            return hint_two_handed(rules, text, turn_up, played, leader, known or [], won, as_json)
        if turn_up is not None or won:
            raise MeldcalcError("--turn-up and --won are two-handed's: this game turns no card up")
        drawing = (layouts, seed, policy.value, not uniform)
        defaults = {
            "trump": trump,
            "leader": leader,
            "played": played,
            "seat": seat,
            "known": known or [],
            "buried": buried,
            "widow": widow,
            "auction": auction,
        }
        lines = input_lines(
            hand,
            "positions, one per line",
            missing="no hand given{}: give the seat's hand as dealt, or '-' to read stdin",
        )
        if lines is None:
            with file_hint(hand, "hint", "positions"):
                found = _hinted(" ".join(hand or []), rules, defaults, *drawing)
            say(_shown(found, fmt))
            return
    record_each(
        lines,
        "position",
        lambda text: _hinted(text, rules, defaults, *drawing),
        lambda record: _shown(record, fmt),
        fmt,
    )


def _hinted(
    text: str,
    rules: Variant,
    defaults: dict[str, Any],
    layouts: int,
    seed: int,
    policy: str,
    infer: bool,
) -> dict[str, Any]:
    """The hint of one position: its JSON record, and the objects the table is drawn from
    under ``_objects``."""
    from meldcalc.advice.hint import hint as seat_hint
    from meldcalc.advice.history import parse_query

    query = parse_query(text, rules, **defaults)
    found = seat_hint(query, rules, layouts, seed, policy, infer)
    return {**hint_json(found, rules), "_objects": (found, rules)}


def _shown(record: dict[str, Any], fmt: RecordFormat) -> str:
    found, rules = record.pop("_objects")
    if fmt is RecordFormat.table:
        return hint_table(found, rules)
    return json.dumps(record, indent=2 if fmt is RecordFormat.json else None, ensure_ascii=False)


def hint_json(found: Any, rules: Variant) -> dict[str, Any]:
    """The documented record of `meldcalc hint -f json`."""
    return {
        "variant": rules.name,
        "trump": found.trump.letter,
        "seat": found.seat,
        "hand": [str(card) for card in found.held.cards(found.trump)],
        "trick": found.trick_number,
        "on_table": [{"seat": seat, "card": card} for seat, card in found.on_table],
        "tricks_left": found.tricks_left,
        "points_left": found.points_left,
        "shown": [
            {"seat": seat, "cards": [str(card) for card in cards.cards(found.trump)]}
            for seat, cards in found.shown
        ],
        "lacks": [
            {"seat": seat, "cards": [_name(card) for card in cards]} for seat, cards in found.lacks
        ],
        "layouts": found.layouts,
        "seed": found.seed,
        "policy": found.policy,
        "auction": [{"seat": seat, "bid": bid} for seat, bid in found.auction],
        "inference": _inference_json(found),
        "method": found.method,
        "exact_from": found.exact_from,
        "not_exact": found.not_exact,
        "buried": None if found.buried is None else [str(c) for c in found.buried.cards()],
        "widow": None if found.widow is None else [str(c) for c in found.widow.cards()],
        "best": found.best.card,
        "cards": [
            {
                "card": card.card,
                "points": round(card.points, 2),
                "se": round(card.se, 2),
                "behind": round(card.behind, 2),
                "behind_se": round(card.behind_se, 2),
            }
            for card in found.cards
        ],
    }


def _inference_json(found: Any) -> dict[str, Any]:
    """How the layouts were drawn: weighed by the others' plays (their effective sample
    size), or uniformly."""
    if found.inference is None:
        return {"method": "uniform", "candidates": None, "effective": None, "power": None,
                "note": None, "moved": []}  # fmt: skip
    return found.inference.json()


def hint_table(found: Any, rules: Variant) -> str:
    """What a player reads: the position, what the table has shown, the card to play and
    every legal card's points, how the values were found."""
    from meldcalc.advice.hint import side_seats

    after = " ".join(f"{seat}:{card}" for seat, card in found.on_table)
    lines = [
        f"trump {found.trump.letter} {found.trump.symbol}, {rules.name}: seat {found.seat} to"
        f" play to trick {found.trick_number}" + (f", after {after}" if after else ", leading"),
        f"seat {found.seat} holds {found.held.notation(found.trump)}",
    ]
    shown = _what_the_table_shows(found, rules)
    if shown:
        lines.append(f"the table has shown: {'; '.join(shown)}")
    side = side_seats(rules, found.seat, found.bidder)
    if len(side) == 1:
        who = f"seat {side[0]} takes"
    else:
        who = f"seats {words([str(s) for s in side], 'and')} take"
    best = found.best
    lines += [
        "",
        f"Play {best.card}: {who} {best.points:.1f} of the {found.points_left} points"
        f" left (give or take {best.se:.1f}).",
        "",
    ]
    rows = [
        [
            card.card,
            f"{card.points:.1f}",
            f"{card.se:.1f}",
            "best" if index == 0 else f"{card.behind:.1f} ± {card.behind_se:.1f}",
        ]
        for index, card in enumerate(found.cards)
    ]
    headers = ["card", "points", "give or take", "behind the best"]
    lines.append(tabulate(rows, headers, colalign=("left", "right", "right", "left")))
    lines.append(_method_line(found))
    if found.inference is not None and found.inference.moved:
        read = "the plays and the bids" if found.auction else "the plays"
        lines.append(f"read from {read}: " + "; ".join(_moves(found.inference)))
    return "\n".join(lines)


def _what_the_table_shows(found: Any, rules: Variant) -> list[str]:
    """The meld each seat still holds, and what each is known to lack: a whole suit (``no
    ♥``), or some of its cards (``none of AC 10C``), trump first."""
    said = [
        f"seat {seat} holds {cards.notation(found.trump)} (melded)" for seat, cards in found.shown
    ]
    if found.auction:
        from meldcalc.advice.history import auction_text

        said.append(f"the auction went {auction_text(found.auction)}")
    if found.buried is not None:
        said.append(f"you buried {found.buried.notation(found.trump)}")
    if found.widow is not None:
        said.append(f"the widow went to seat {found.bidder}: {found.widow.notation(found.trump)}")
    for seat, cards in found.lacks:
        lacked = set(cards)
        parts = []
        for suit in suit_order(found.trump):
            first = suit.index * len(RANKS)
            of_suit = [c for c in range(first, first + len(RANKS)) if _in_deck(c, rules)]
            if set(of_suit) <= lacked:
                parts.append(f"no {suit.symbol}")
            elif lacked & set(of_suit):
                parts.append("none of " + " ".join(_name(c) for c in of_suit if c in lacked))
        said.append(f"seat {seat} has {', '.join(parts)}")
    return said


def _method_line(found: Any) -> str:
    how = (
        f"each card's exact value in every layout ({found.tricks_left}"
        f" trick{'' if found.tricks_left == 1 else 's'} left; exact from {found.exact_from})"
        if found.exact
        else f"each card played out by the {found.policy} policy in every layout"
        + (f" (exact from {found.exact_from} tricks left)" if found.exact_from else "")
    )
    said = (
        f"{found.layouts:,} layouts of the unseen cards that fit what seat {found.seat} has"
        f" seen{_weighed(found)}, seed {found.seed}: {how}"
    )
    return said + (f"; {found.not_exact}" if found.not_exact else "")


def _moves(weighing: Any) -> list[str]:
    """The holdings the others' plays moved most, as a player says them."""
    return [
        f"seat {seat} holds {CARD_NAMES[card]} in {weighed:.0%} of the layouts"
        f" ({uniform:.0%} drawn uniformly)"
        for seat, card, uniform, weighed in weighing.moved
    ]


def _weighed(found: Any) -> str:
    """How the layouts were drawn, where they were weighed by the others' plays."""
    weighing = found.inference
    if weighing is None:
        return ", uniformly (--uniform: the bids not read)" if found.auction else ""
    if weighing.note:
        return f" ({weighing.note})"
    what = "plays and bids" if found.auction else "plays"
    return (
        f", drawn from {weighing.candidates:,} by the chance of the others' {what} in each"
        f" ({weighing.effective:,.0f} effective)"
    )


def _name(card: int) -> str:
    return CARD_NAMES[card]


def _in_deck(card: int, rules: Variant) -> bool:
    return rules.deck.copies_of(CARDS[card]) > 0
