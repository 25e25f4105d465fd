"""The steps that end a hand other than by its last card, each scored as `meldcalc score`
scores the same hand (`rules.scoring.score_hand`): ``tricks N`` (the play not followed),
``throw in`` (``concede``) before play, ``no marriage`` (double deck: the bidder holds none
in trump), and the counts a score may still need: ``counters N,N`` and ``taken N,N`` for a
save-meld rule the trick points do not settle, ``checks N,N`` where meld was typed as
totals in a game of checks."""

from __future__ import annotations

from dataclasses import replace

from meldcalc.errors import MeldcalcError, NotationError, UnsupportedError, quote
from meldcalc.game.answer import Answer, closing, in_phase
from meldcalc.game.table import Table
from meldcalc.rules.notation import is_whole_number


def tricks_step(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """The trick points of each side, the play not followed (or followed in part: the
    tricks played bound them)."""
    from meldcalc.game.houserules import refuse_short_of_meld

    in_phase(table, ("meld", "play"), "tricks")
    refuse_short_of_meld(table, "tricks")
    variant = table.variant
    numbers = _per_side(table, rest, "tricks", variant.trick_total, "trick points")
    _agrees_with_play(table, numbers)
    new = replace(table, tricks_given=numbers)
    new.counts_wanted()  # refuses what the score refuses (points that cannot be)
    return closing(new, no_meld_typed(table, closes=True), {"tricks": list(numbers)})


def no_meld_typed(table: Table, closes: bool = False) -> list[str]:
    """At the first card, or the trick points typed at once: the seats no meld was typed
    for, said, as they count none (a meld typed once play has begun is refused, so this is
    the moment to see it). At the first card 'undo' still takes the card back; the trick
    points (``closes``) end the hand, and only the ledger can take it back."""
    if table.played or not (seats := table.unmelded()):
        return []
    named = ", ".join(table.seat_label(seat) for seat in seats)
    if closes:
        how = "the hand is scored so: 'meldcalc score --game FILE --undo' takes it back"
    else:
        how = f"'undo', then 'meld {seats[0]} N'"
    return [f"no meld typed for {named}: counted as none ({how})"]


def _agrees_with_play(table: Table, numbers: tuple[int, ...]) -> None:
    """Trick points typed that the tricks already played contradict: a side has more."""
    from meldcalc.rules.scoring import side_name, side_of

    won = table.trick_points()
    for side, (given, already) in enumerate(zip(numbers, won)):
        if given < already:
            name = side_name(table.variant, side, table.names or None)
            where = "in the tricks played already"
            bidders = (  # the burial counts for the bidder's side (trick_points)
                table.variant.widow
                and table.bidder is not None
                and side == side_of(table.variant, table.bidder)
            )
            if buried := table.buried_points() if bidders else 0:
                where = f"({already - buried} in the tricks played already, {buried} buried)"
            raise MeldcalcError(
                f"tricks {', '.join(map(str, numbers))}: {name} took {already} trick"
                f" points {where}, not {given}"
            )


def _per_side(table: Table, rest: str, step: str, total: int | None, what: str) -> tuple[int, ...]:
    """Whole numbers, one a side in order; where the sides' counts add up to ``total``,
    all but the last (with two sides: the bidding side's alone) give the rest."""
    from meldcalc.rules.scoring import complete_sides, side_count

    sides = side_count(table.variant)
    values = [v.strip() for v in rest.split(",")]
    if not all(is_whole_number(v) and len(v) < 9 for v in values):
        example = "160 (the bidding side's)" if sides == 2 else "125,100 (seats 0 and 1)"
        if total is None:
            example = ",".join(["1"] * sides)
        raise NotationError(
            f"{step} {quote(rest)}: expected {what}, a side's after a comma, e.g. {example}"
        )
    given = [int(v) for v in values]
    fewer = total is not None and len(given) == sides - 1
    if len(given) != sides and not fewer:
        alone = "the bidding side's alone" if sides == 2 else f"the first {sides - 1}"
        other = "other" if sides == 2 else "last"
        also = f", or {alone} (the {other} side takes the rest)" if total is not None else ""
        raise MeldcalcError(
            f"{step} {quote(rest)}: expected {sides} numbers, one a side in order{also};"
            f" got {len(given)}"
        )
    if total is not None and sum(given) > total:
        raise MeldcalcError(
            f"{step} {quote(rest)}: {sum(given)} {what}, but a hand has {total}: the most is"
            f" {total}"
        )
    if not fewer:
        return tuple(given)
    return complete_sides(given, table.variant, table.bidder, total)


def throw_in(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """``throw in``: the bidding side gives the hand up before play; scored as ``score
    --thrown-in`` under the variant's own rule of what the others score."""
    if rest.strip().lower() != "in":
        raise NotationError(f"throw {quote(rest.strip())}: expected 'throw in' (or 'concede')")
    return concede(table, "", advise, seed)


def concede(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    if rest.strip():
        raise NotationError(f"concede {quote(rest.strip())}: 'concede' takes nothing after it")
    variant = table.variant
    in_phase(table, "meld", "throw in")
    if not variant.bidding.concede:
        raise UnsupportedError(
            f"throw in: {variant.name} does not allow a side to throw the hand in: play it out"
        )
    missing = _meld_missing(table)
    if missing and variant.house.thrown_in.meld:
        raise MeldcalcError(
            f"throw in: the other side scores its meld: lay down {missing}'s first (meld"
            f" {missing} 0 if none)"
        )
    new = replace(table, thrown_in=True)
    return closing(
        new, [f"{table.seat_label(table.bidder)} threw the hand in"], {"thrown_in": True}
    )


def _meld_missing(table: Table) -> str | None:
    """A seat of the sides that did not bid whose meld is not laid down yet, by its word."""
    from meldcalc.rules.scoring import side_of
    from meldcalc.rules.seats import place_offsets

    laid = {seat for seat, _, _ in table.melds}
    bidding = side_of(table.variant, table.bidder)
    places = {(table.me + o) % table.players: p for p, o in place_offsets(table.variant).items()}
    for seat in range(table.players):
        if seat not in laid and side_of(table.variant, seat) != bidding:
            return places.get(seat, str(seat))
    return None


def no_marriage(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """``no marriage``: the bidder holds no marriage in trump (double deck), so the hand is
    not played; scored as ``score --no-marriage``."""
    from meldcalc.rules.cards import SUITS
    from meldcalc.rules.variant import may_name_trump

    if rest.strip().lower() != "marriage":
        raise NotationError(f"no {quote(rest.strip())}: expected 'no marriage'")
    variant = table.variant
    if not variant.bidding.marriage_in_trump:
        raise UnsupportedError(
            f"no marriage: {variant.name} does not require a marriage in trump: name trump"
        )
    in_phase(table, ("trump", "meld"), "no marriage")
    if table.bidder == table.me:
        mine = table.meld_counted() if table.trump else table.playing
        suits = [table.trump] if table.trump else list(SUITS)
        held = [suit for suit in suits if may_name_trump(mine, variant, suit)]
        if held:
            raise MeldcalcError(
                f"no marriage: your hand holds a marriage in {held[0].symbol}"
                + ("" if table.trump else f": name it trump (trump {held[0].letter})")
            )
    new = replace(table, no_marriage=True)
    holds = "you hold" if table.bidder == table.me else f"{table.seat_label(table.bidder)} holds"
    said = f"{holds} no marriage in trump: the hand is not played"
    return closing(new, [said], {"no_marriage": True})


def counters(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """``counters N,N``: the counters each side took, where a save-meld rule needs them."""
    from meldcalc.rules.scoring import counter_cards

    return _count_step(table, rest, "counters", "counters_taken", counter_cards(table.variant))


def taken(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """``taken N,N``: the tricks each side took, where a save-meld rule needs them."""
    from meldcalc.rules.scoring import tricks_in_hand

    return _count_step(table, rest, "taken", "tricks_taken", tricks_in_hand(table.variant))


def checks(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """``checks N,N``: each side's checks, where meld was typed as totals."""
    if not table.keeps_checks:
        raise UnsupportedError(f"checks: {table.variant.name} keeps no checks")
    in_phase(table, ("meld", "play", "counts"), "checks")
    numbers = _per_side(table, rest, "checks", None, "checks")
    new = replace(table, checks_given=numbers)
    _fits_meld(new)
    if new.phase in ("meld", "play"):
        return Answer(new, [f"checks {', '.join(map(str, numbers))}"], {"checks": list(numbers)})
    return closing(new, [], {"checks": list(numbers)})


def _fits_meld(table: Table) -> None:
    """Checks that no meld of the sides' totals so far can carry are refused (the score
    refuses them again once the meld is all laid down)."""
    from meldcalc.rules.scoring import most_checks, side_name
    from meldcalc.rules.variant import checks_text

    for side, (meld, count) in enumerate(zip(table.side_melds(), table.checks_given)):
        most = most_checks(table.variant, meld)
        if count > most:
            name = side_name(table.variant, side, table.names or None)
            raise MeldcalcError(
                f"checks {', '.join(map(str, table.checks_given))}: {name}'s meld of {meld}"
                f" carries at most {checks_text(most)}, not {count}"
            )


_FIELD_OF = {"counters_taken": "counters_given", "tricks_taken": "taken_given"}


def _count_step(table: Table, rest: str, step: str, wanted: str, total: int) -> Answer:
    if table.phase != "counts" or table.counts_wanted() != wanted:
        raise MeldcalcError(
            f"{step}: not needed now: it is asked for once the trick points are typed, where"
            " a save-meld rule cannot tell from them whether a side saved its meld"
        )
    numbers = _per_side(table, rest, step, total, step)
    new = replace(table, **{_FIELD_OF[wanted]: numbers})
    new.outcome()  # refuses counts the trick points contradict
    return closing(new, [], {step: list(numbers)})
