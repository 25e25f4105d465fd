"""Scoring a hand and a game by the variant's rules (seeds' "scoring" sections).

A *side* is a partnership (seats 0 and 2 against 1 and 3) or, in three-handed games, a
player alone. For one hand:

- **made**: the bidding side's meld and trick points reach the bid; every side adds its
  meld and trick points;
- **set**: the bidding side scores nothing and loses the bid (times the house
  ``set_penalty``); the others keep their meld and trick points;
- **thrown in** before play: the bidding side loses the bid; the others score what the
  house ``thrown_in`` switch says (their meld by default), never the trick points;
- **not played** (double deck, no marriage in the suit named trump): the bidding side
  loses the bid and no one counts meld.

House switches change what meld counts: ``meld_minimum`` (a side's meld below it counts
nothing) and ``save_meld`` (a side must take a trick, a counter, or N trick points for
its meld to count). Checks (side scores of the ``check`` variant) follow the meld: a side
scores its meld's checks when its meld counts.

A played hand is settled by one set of functions (`meld_lost_clauses`, `counted_meld`,
`reach`, `settle`), written over numbers so that they score one hand's ints (`score_hand`:
`meldcalc score`, `play`, a game's ledger, the session) or arrays of thousands of simulated
hands at once (`score_hands`: `bid`'s odds, the equity table's hands). A house switch that
changes what a played hand scores is written there, once, and every one of those follows
it; tests hold `score_hands` equal to `score_hand` on every switch.

A game is the hands in order: the first side to the variant's ``game`` target at the end
of a hand wins; when several reach it on the same hand, the higher total wins (equal
totals play on) or, where ``both_reach: bidder``, the bidding side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from meldcalc.errors import HandError, MeldcalcError, UnsupportedError
from meldcalc.rules.cards import SUITS, Card, Hand, Rank, Suit
from meldcalc.rules.variant import Variant, checks_text, may_name_trump

MADE, SET, THROWN_IN, NOT_PLAYED = "made", "set", "thrown in", "not played"


def side_count(variant: Variant) -> int:
    return 2 if variant.partnerships else variant.players


def side_of(variant: Variant, seat: int) -> int:
    return seat % 2 if variant.partnerships else seat


def tricks_in_hand(variant: Variant) -> int:
    """How many tricks a hand has: what the sides' tricks taken add up to."""
    return (variant.deck.size - variant.widow - variant.stock) // variant.players


def complete_sides(
    values: Sequence[int], variant: Variant, bidder: int, total: int
) -> tuple[int, ...]:
    """Every side's count from what a player gave, in order of sides: all of them; all but
    the last, which is what is left of ``total``; or, with two sides, one number, the
    bidding side's (``bidder``'s), the other side having the rest."""
    sides = side_count(variant)
    if len(values) != sides - 1:
        return tuple(values)
    rest = total - sum(values)
    if sides != 2:
        return (*values, rest)
    return (values[0], rest) if side_of(variant, bidder) == 0 else (rest, values[0])


def counter_cards(variant: Variant) -> int:
    """How many cards of the deck are counters: what the sides' counters taken add up to."""
    return sum(1 for card in variant.deck.cards() if variant.counters.get(card.rank))


def side_name(variant: Variant, side: int, names: Sequence[str] | None = None) -> str:
    """The side's name as the game gave it (``names``, one a side), else its seats:
    ``seats 0 and 2`` for a partnership, ``seat 1`` for a player alone."""
    if names:
        return names[side]
    seats = [seat for seat in range(variant.players) if side_of(variant, seat) == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


@dataclass(frozen=True)
class HandPlay:
    """What happened in one hand, as a player reports it; every list is one value per side.

    ``tricks``: trick points (None when the hand was not played); ``tricks_taken``: how many
    tricks each side took, needed only when a ``save_meld: trick`` rule cannot tell from
    the points."""

    bid: int
    bidder: int
    meld: tuple[int, ...]
    tricks: tuple[int, ...] | None = None
    checks: tuple[int, ...] = ()
    thrown_in: bool = False
    no_marriage: bool = False
    tricks_taken: tuple[int, ...] | None = None
    #: counters each side took, needed only when a ``save_meld: counter`` rule cannot tell
    #: from the points (a side whose points are the last trick's alone)
    counters_taken: tuple[int, ...] | None = None


@dataclass(frozen=True)
class HandScore:
    """The outcome of a hand: per side, the meld that counted and the points scored."""

    play: HandPlay
    bidding_side: int
    outcome: str
    counted_meld: tuple[int, ...]
    points: tuple[int, ...]
    checks: tuple[int, ...]
    explanation: tuple[str, ...] = field(default=())


def check_hand(variant: Variant, play: HandPlay) -> None:
    """Refuse a hand that cannot have happened under the variant's rules."""
    bidding = variant.bidding
    if bidding is None:
        raise UnsupportedError(f"{variant.name} has no auction: there is no bid to score")
    sides = side_count(variant)
    if not 0 <= play.bidder < variant.players:
        last = variant.players - 1
        raise MeldcalcError(f"bidder {play.bidder}: expected a seat from 0 to {last}")
    if bidding.first_at_least(play.bid) != play.bid:
        following = bidding.first_at_least(play.bid)
        raise MeldcalcError(
            f"{play.bid} is not a legal bid in {variant.name}: bids start at"
            f" {bidding.opening}; the next legal bid is {following}"
        )
    _check_per_side("meld", play.meld, sides)
    step = variant.meld_step
    if any(points % step for points in play.meld):
        raise MeldcalcError(
            f"meld {', '.join(map(str, play.meld))}: in {variant.name} every meld is worth a"
            f" multiple of {step}, so a side's meld is too: a typo?"
        )
    if play.checks:
        _check_per_side("checks", play.checks, sides)
        _check_checks_fit_meld(variant, play)
    if play.thrown_in and play.no_marriage:
        raise MeldcalcError("a hand is either thrown in or not played for want of a marriage")
    if play.thrown_in and not bidding.concede:
        raise UnsupportedError(f"{variant.name} does not allow a side to throw the hand in")
    if play.no_marriage and not bidding.marriage_in_trump:
        raise UnsupportedError(f"{variant.name} does not require a marriage in trump")
    if play.thrown_in or play.no_marriage:
        if play.tricks is not None:
            why = "thrown in" if play.thrown_in else "without a marriage in trump (the bidder's)"
            raise MeldcalcError(
                f"a hand {why} is not played, so it has no trick points: leave out the tricks"
            )
        return
    if play.tricks is None:
        raise MeldcalcError("the trick points of each side are needed for a played hand")
    _check_per_side("tricks", play.tricks, sides)
    if sum(play.tricks) != variant.trick_total:
        shown = " + ".join(map(str, play.tricks))
        raise MeldcalcError(
            f"tricks {shown} = {sum(play.tricks)}, but every hand of {variant.name} has"
            f" {variant.trick_total} trick points (counters and last trick): a typo?"
        )
    step = variant.trick_step
    if any(points % step for points in play.tricks):
        raise MeldcalcError(
            f"tricks {', '.join(map(str, play.tricks))}: in {variant.name} every counter and"
            f" the last trick are multiples of {step}, so trick points are too: a typo?"
        )
    if play.tricks_taken is not None:
        _check_tricks_taken(variant, play.tricks, play.tricks_taken)
    if play.counters_taken is not None:
        _check_counters_taken(variant, play.tricks, play.counters_taken)


def _check_tricks_taken(variant: Variant, points: Sequence[int], taken: Sequence[int]) -> None:
    """The tricks each side took agree with the hand and with its trick points."""
    _check_per_side("tricks taken", taken, len(points))
    tricks = tricks_in_hand(variant)
    if sum(taken) != tricks:
        raise MeldcalcError(f"tricks taken add up to {sum(taken)}; a hand has {tricks} tricks")
    for side, (count, won) in enumerate(zip(taken, points)):
        if won and not count:
            raise MeldcalcError(
                f"{side_name(variant, side)} took no trick but {won} trick points:"
                " check --tricks and --tricks-taken"
            )


def _check_counters_taken(variant: Variant, points: Sequence[int], taken: Sequence[int]) -> None:
    """The counters each side took agree with the deck and with its trick points: a side
    with none took the last trick's points at most."""
    _check_per_side("counters taken", taken, len(points))
    counters = counter_cards(variant)
    if sum(taken) != counters:
        raise MeldcalcError(
            f"counters taken add up to {sum(taken)}; the {variant.name} deck has {counters}"
        )
    for side, (count, won) in enumerate(zip(taken, points)):
        if not count and won not in (0, variant.last_trick):
            raise MeldcalcError(
                f"{side_name(variant, side)} took no counter but {won} trick points:"
                " check --tricks and --counters-taken"
            )
        if count and not won:
            raise MeldcalcError(
                f"{side_name(variant, side)} took {count} counters but no trick points:"
                " check --tricks and --counters-taken"
            )


def _check_per_side(what: str, values: Sequence[int], sides: int) -> None:
    if len(values) != sides:
        raise MeldcalcError(f"{what}: expected {sides} numbers, one per side, got {len(values)}")
    if any(value < 0 for value in values):
        raise MeldcalcError(f"{what}: expected numbers of at least 0, got {list(values)}")


def _check_checks_fit_meld(variant: Variant, play: HandPlay) -> None:
    for side, (meld, checks) in enumerate(zip(play.meld, play.checks)):
        most = most_checks(variant, meld)
        if checks > most:
            raise MeldcalcError(
                f"checks {', '.join(map(str, play.checks))}: side {side}'s meld of {meld}"
                f" carries at most {checks_text(most)} in {variant.name}, not {checks}: a typo?"
            )


def most_checks(variant: Variant, meld: int) -> int:
    """The most checks a side's meld of ``meld`` points can carry: a knapsack over the melds
    each of its seats could hold (every copy count of every meld's every suit), whose points
    add up to ``meld``. A meld counts only where ``meld`` reaches the least a hand holding
    it melds in all (a roundhouse, worth no points itself, comes with 240 of marriages and
    arounds). Loose, never tight: a count a real deal gives is never refused."""
    import numpy as np

    step = variant.meld_step
    if meld % step or not any(rule.checks for rule in variant.melds):
        return 0
    size = meld // step + 1
    best = np.full(size, -1, dtype=np.int64)  # the most checks at each total; -1: unreachable
    best[0] = 0
    seats = variant.players // side_count(variant)
    for instances, options in _check_items(variant, meld):
        for _ in range(instances * seats):
            grown = best.copy()
            for points, checks in options:
                shift = points // step
                reachable = best[: size - shift] >= 0
                moved = np.where(reachable, best[: size - shift] + checks, -1)
                grown[shift:] = np.maximum(grown[shift:], moved)
            best = grown
    return max(int(best[-1]), 0)


def _check_items(variant: Variant, meld: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Each meld with its number of instances (suits) and the (points, checks) of each copy
    count a hand of ``meld`` points could hold."""
    from meldcalc.rules.meld import best_meld

    items = []
    for rule in variant.melds:
        options = []
        for copies in range(1, variant.deck.copies + 1):
            least = min(
                best_meld(_copies_of(rule.instances(trump)[0], copies), variant, trump).total
                for trump in SUITS
            )
            if least <= meld:
                options.append((rule.value(copies), rule.check_value(copies)))
        if options:
            items.append((len(rule.instances(SUITS[0])), options))
    return items


def _copies_of(cards: Sequence[int], copies: int) -> Hand:
    return Hand.from_cards(Card.from_index(card) for card in cards for _ in range(copies))


def score_hand(variant: Variant, play: HandPlay, names: Sequence[str] | None = None) -> HandScore:
    """The points (and checks) every side scores for ``play``; ``names`` name the sides in
    the sentences that explain it."""
    check_hand(variant, play)
    bidder = side_of(variant, play.bidder)
    checks = play.checks or (0,) * side_count(variant)
    if play.no_marriage:
        return _not_played(variant, play, bidder, names)
    if play.thrown_in:
        return _thrown_in(variant, play, bidder, checks, names)
    taken = [_taken(variant, play, side) for side in range(len(play.meld))]
    counted, made, points = settle(
        variant,
        play.bid,
        bidder,
        play.meld,
        play.tricks,
        [tricks for tricks, _ in taken],
        [counters for _, counters in taken],
    )
    scored_checks = [c if meld else 0 for c, meld in zip(checks, counted)]
    if not made:
        scored_checks[bidder] = 0
    outcome = MADE if made else SET
    score = HandScore(play, bidder, outcome, tuple(counted), tuple(points), tuple(scored_checks))
    return _explained(variant, score, names)


# --- a played hand settled: one hand's numbers, or arrays of many hands ----------------------
#
# Each function below takes a side's numbers as plain ints (one hand) or as numpy arrays (one
# entry a hand) and computes with operators both understand (``&``, ``|``, comparisons), so
# that `score_hand` and `score_hands` run the very same clauses.


def meld_lost_clauses(
    variant: Variant, meld: Any, points: Any, tricks_taken: Any, counters_taken: Any
) -> list[tuple[Any, str]]:
    """Each rule under which a side's meld does not count, in the order a player tells
    them: (where it holds, why in words). ``meld`` and ``points`` are the side's meld and
    trick points, ``tricks_taken`` and ``counters_taken`` how many tricks and counters it
    took (read only where the variant's ``save_meld`` asks)."""
    clauses = []
    if variant.meld_minimum:
        minimum = variant.meld_minimum
        clauses.append(((meld > 0) & (meld < minimum), f"below the minimum of {minimum}"))
    rule = variant.house.save_meld
    if rule == "counter":
        clauses.append(((meld > 0) & (counters_taken == 0), "no counter taken"))
    elif rule == "trick":
        clauses.append(((meld > 0) & (points == 0) & (tricks_taken == 0), "no trick taken"))
    elif isinstance(rule, int):
        clauses.append(((meld > 0) & (points < rule), f"under {rule} in tricks"))
    return clauses


def counted_meld(
    variant: Variant, meld: Any, points: Any, tricks_taken: Any = 0, counters_taken: Any = 0
) -> Any:
    """A side's meld as it counts: nothing where a clause of `meld_lost_clauses` holds."""
    lost = False
    for holds, _ in meld_lost_clauses(variant, meld, points, tricks_taken, counters_taken):
        lost = lost | holds
    return _where(lost, 0, meld)


def reach(
    variant: Variant, meld: Any, points: Any, tricks_taken: Any = 0, counters_taken: Any = 0
) -> Any:
    """The highest bid the bidding side makes with this meld and these trick points: the
    hand is made at every bid up to its reach and set above it (a clause that sets the side
    whatever it bid gives -1, below every bid). It is what `bid` counts its odds by."""
    return counted_meld(variant, meld, points, tricks_taken, counters_taken) + points


def settle(
    variant: Variant,
    bid: Any,
    bidder: int,
    meld: Sequence[Any],
    tricks: Sequence[Any],
    tricks_taken: Sequence[Any],
    counters_taken: Sequence[Any],
) -> tuple[list[Any], Any, list[Any]]:
    """A played hand settled: each side's meld that counts, whether the bidding side (side
    ``bidder``) made its bid, and each side's points (made: every side adds its counted
    meld and its tricks; set: the bidding side loses the bid times the set penalty). Every
    sequence holds one value a side."""
    counted = [
        counted_meld(variant, *numbers)
        for numbers in zip(meld, tricks, tricks_taken, counters_taken)
    ]
    reached = reach(variant, *_of_side(bidder, meld, tricks, tricks_taken, counters_taken))
    points = [side_meld + side_tricks for side_meld, side_tricks in zip(counted, tricks)]
    points[bidder] = bidding_side_points(variant, bid, reached)
    return counted, reached >= bid, points


def bidding_side_points(variant: Variant, bid: Any, reached: Any) -> Any:
    """What the bidding side scores at ``bid`` with its `reach`: the reach (its meld that
    counts and its tricks) where made, else minus the bid times the set penalty."""
    return _where(reached >= bid, reached, -bid * variant.house.set_penalty)


def _of_side(side: int, *per_side: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(values[side] for values in per_side)


def _where(condition: Any, yes: Any, no: Any) -> Any:
    """``yes`` where ``condition`` holds, else ``no``: for one hand, or elementwise for an
    array of hands."""
    if getattr(condition, "ndim", 0):
        import numpy as np

        return np.where(condition, yes, no)
    return yes if condition else no


@dataclass(frozen=True)
class HandsScored:
    """`score_hands`' answer, one row a hand: each side's meld that counts and points,
    whether the bid was made and the bidding side's reach (`reach`)."""

    counted: Any  # (N, sides)
    points: Any  # (N, sides)
    made: Any  # (N,)
    reach: Any  # (N,)


def score_hands(
    variant: Variant,
    bid: Any,
    meld: Any,
    tricks: Any,
    tricks_taken: Any = None,
    counters_taken: Any = None,
    bidder: int = 0,
) -> HandsScored:
    """`score_hand` for many played hands at once (simulated deals come in thousands):
    ``bid`` (N,), and (N, sides) arrays of each side's meld, trick points and, where the
    variant's ``save_meld`` asks, tricks and counters taken; side ``bidder`` bid every
    hand. The same clauses (`settle`), on arrays."""
    import numpy as np

    meld, tricks = np.asarray(meld), np.asarray(tricks)
    tricks_taken, counters_taken = _counted_taken(variant, tricks, tricks_taken, counters_taken)
    columns = [
        [array[:, side] for side in range(meld.shape[1])]
        for array in (meld, tricks, tricks_taken, counters_taken)
    ]
    counted, made, points = settle(variant, np.asarray(bid), bidder, *columns)
    side = _of_side(bidder, *columns)
    return HandsScored(
        np.stack(counted, axis=1),
        np.stack(points, axis=1),
        made,
        reach(variant, *side),
    )


def reach_of_hands(
    variant: Variant, meld: Any, tricks: Any, tricks_taken: Any = None, counters_taken: Any = None
) -> Any:
    """`reach` of many hands at once: (N,) arrays of the bidding side's meld, trick points
    and, where the variant's ``save_meld`` asks, tricks and counters taken."""
    taken = _counted_taken(variant, tricks, tricks_taken, counters_taken)
    return reach(variant, meld, tricks, *taken)


def _counted_taken(
    variant: Variant, tricks: Any, tricks_taken: Any, counters_taken: Any
) -> tuple[Any, Any]:
    """The tricks and counters taken of many hands, as arrays; refused where the rules ask
    for a count that was not kept (zeros where they do not ask)."""
    import numpy as np

    needed = counts_needed(variant)
    for name, given in (("trick", tricks_taken), ("counter", counters_taken)):
        if needed == f"{name}s" and given is None:
            raise UnsupportedError(
                f"house.save_meld: {name}: a side saves its meld by taking a {name}, but the"
                f" {name}s each side took were not counted here"
            )
    zeros = np.zeros_like(tricks)
    return (
        zeros if tricks_taken is None else np.asarray(tricks_taken),
        zeros if counters_taken is None else np.asarray(counters_taken),
    )


def counts_needed(variant: Variant) -> str | None:
    """What a side's meld is saved by, where it is a count the trick points do not give:
    ``"tricks"`` or ``"counters"`` (else None)."""
    rule = variant.house.save_meld
    return {"trick": "tricks", "counter": "counters"}.get(rule) if isinstance(rule, str) else None


def _taken(variant: Variant, play: HandPlay, side: int) -> tuple[int, int]:
    """The tricks and counters a side took, as far as the rules in force ask: as told, or
    plain from its trick points; where they cannot tell, the player is asked."""
    needed, meld = counts_needed(variant), play.meld[side]
    if needed is None or not meld or meld < variant.meld_minimum:  # counts or lost: not asked
        return 0, 0
    if needed == "tricks":
        return int(_took_a_trick(play, side)), 0
    return 0, int(_took_a_counter(variant, play, side))


def _meld_lost(variant: Variant, play: HandPlay, side: int) -> str | None:
    """Why a side's meld of a played hand does not count, in words; None when it counts."""
    taken = _taken(variant, play, side)
    clauses = meld_lost_clauses(variant, play.meld[side], play.tricks[side], *taken)
    return next((why for holds, why in clauses if holds), None)


def _took_a_counter(variant: Variant, play: HandPlay, side: int) -> bool:
    """Whether the side took a counter: told, or plain from its points unless they are the
    last trick's alone, which no counter or a counter of the same worth may have made."""
    points = play.tricks[side]
    if play.counters_taken is not None:
        return play.counters_taken[side] > 0
    if points != variant.last_trick or points == 0:
        return points > 0
    raise MeldcalcError(
        f"{side_name(variant, side)} took {points} trick points, which may be the last trick"
        " alone: under this variant's rule a side must take a counter to save its meld, so"
        " say how many counters each side took (--counters-taken)"
    )


def _took_a_trick(play: HandPlay, side: int) -> bool:
    if play.tricks[side] > 0:
        return True
    if play.tricks_taken is None:
        raise MeldcalcError(
            "a side took no trick points: under this variant's rule a side must take a trick"
            " to save its meld, so say how many tricks each side took (--tricks-taken)"
        )
    return play.tricks_taken[side] > 0


def _thrown_in(
    variant: Variant,
    play: HandPlay,
    bidder: int,
    checks: tuple[int, ...],
    names: Sequence[str] | None,
) -> HandScore:
    rule = variant.house.thrown_in
    counted, points, scored_checks = [], [], []
    for side, meld in enumerate(play.meld):
        if side == bidder:
            counted.append(0)
            points.append(-play.bid * variant.house.set_penalty)
            scored_checks.append(0)
            continue
        keeps = rule.meld and meld >= max(rule.meld_minimum, variant.meld_minimum)
        counted.append(meld if keeps else 0)
        points.append(counted[-1] + rule.cards)
        scored_checks.append(checks[side] if keeps else 0)
    score = HandScore(play, bidder, THROWN_IN, tuple(counted), tuple(points), tuple(scored_checks))
    return _explained(variant, score, names)


def _not_played(
    variant: Variant, play: HandPlay, bidder: int, names: Sequence[str] | None
) -> HandScore:
    sides = len(play.meld)
    lost = -play.bid * variant.house.set_penalty
    points = tuple(lost if side == bidder else 0 for side in range(sides))
    score = HandScore(play, bidder, NOT_PLAYED, (0,) * sides, points, (0,) * sides)
    return _explained(variant, score, names)


def _explained(variant: Variant, score: HandScore, names: Sequence[str] | None) -> HandScore:
    return replace(score, explanation=tuple(explain_hand(variant, score, names)))


def _capital(name: str) -> str:
    """A name to start a sentence: ``seats 0 and 2`` -> ``Seats 0 and 2``, ``ann`` as given."""
    return name[:1].upper() + name[1:] if name.startswith("seat") else name


def explain_hand(
    variant: Variant, score: HandScore, names: Sequence[str] | None = None
) -> list[str]:
    """Sentences a player can read aloud at the table."""
    play, bidder = score.play, score.bidding_side
    name = _capital(side_name(variant, bidder, names))
    lost = -score.points[bidder]
    if score.outcome == NOT_PLAYED:
        return [
            f"{name} bid {play.bid} without a marriage in trump: the hand is not played,"
            f" minus {lost}, and no one counts meld."
        ]
    if score.outcome == THROWN_IN:
        lines = [f"{name} bid {play.bid} and threw the hand in: minus {lost}."]
    else:
        total = score.counted_meld[bidder] + play.tricks[bidder]
        parts = f"{_meld_words(variant, play, bidder)} + {play.tricks[bidder]} in tricks = {total}"
        if score.outcome == MADE:
            lines = [f"{name} bid {play.bid} and made it: {parts}."]
        else:
            short = play.bid - total
            lines = [f"{name} bid {play.bid} and went set: {parts}, {short} short: minus {lost}."]
    others = [side for side in range(len(play.meld)) if side != bidder]
    return lines + [_others_line(variant, score, side, names) for side in others]


def _meld_words(variant: Variant, play: HandPlay, side: int) -> str:
    reason = _meld_lost(variant, play, side)
    if reason is None:
        return f"{play.meld[side]} meld"
    return f"{play.meld[side]} meld that does not count ({reason}), so 0"


def _others_line(variant: Variant, score: HandScore, side: int, names: Sequence[str] | None) -> str:
    play, name = score.play, _capital(side_name(variant, side, names))
    if score.outcome == THROWN_IN:
        rule, meld = variant.house.thrown_in, play.meld[side]
        words = f"{meld} meld" if score.counted_meld[side] == meld else f"{meld} meld, not scored"
        cards = f" + {rule.cards} for the cards" if rule.cards else ""
        return f"{name}: {words}{cards} = {score.points[side]}."
    tricks = play.tricks[side]
    return (
        f"{name}: {_meld_words(variant, play, side)} + {tricks} in tricks = {score.points[side]}."
    )


def meld_of_hands(
    variant: Variant, hands: dict[int, Hand], trump: Suit, bidder: int, no_marriage: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Each side's meld and checks from the seats' hands under ``trump`` (seats not given
    meld nothing), and whether the hand is not played for want of a marriage in trump
    (double deck: the bidder must hold one): as ``no_marriage`` says, or as the bidder's
    hand shows; a bidder's hand holding the marriage refutes ``no_marriage``."""
    from meldcalc.rules.meld import best_meld

    meld, checks = [0] * side_count(variant), [0] * side_count(variant)
    for seat, hand in hands.items():
        if not 0 <= seat < variant.players:
            raise MeldcalcError(f"seat {seat}: expected a seat from 0 to {variant.players - 1}")
        variant.check_hand(hand)
        _check_hand_size(variant, seat, hand, bidder)
        result = best_meld(hand, variant, trump)
        meld[side_of(variant, seat)] += result.total
        checks[side_of(variant, seat)] += sum(found.checks for found in result.melds)
    variant.check_together([(f"seat {seat}", hand) for seat, hand in hands.items()])
    bidder_hand = hands.get(bidder)
    if bidder_hand is None:
        return tuple(meld), tuple(checks), no_marriage
    lacking = not may_name_trump(bidder_hand, variant, trump)
    if no_marriage and not lacking and variant.bidding and variant.bidding.marriage_in_trump:
        king, queen = Card(Rank.KING, trump), Card(Rank.QUEEN, trump)
        raise MeldcalcError(
            f"--no-marriage, but the bidder's hand (seat {bidder}) holds {king} and {queen},"
            " a marriage in trump: leave out --no-marriage"
        )
    return tuple(meld), tuple(checks), no_marriage or lacking


def most_cards_held(variant: Variant, seat: int, bidder: int) -> int:
    """The most cards ``seat`` melds from: its deal, and for the bidder the widow too."""
    return variant.hand_size + (variant.widow if seat == bidder else 0)


def _check_hand_size(variant: Variant, seat: int, hand: Hand, bidder: int) -> None:
    most = most_cards_held(variant, seat, bidder)
    if len(hand) > most:
        held = f"{variant.hand_size} cards" + (
            f" and the widow's {variant.widow}" if most > variant.hand_size else ""
        )
        role = "the bidder" if seat == bidder else "a seat"
        raise HandError(
            f"seat {seat}: {len(hand)} cards, but in {variant.name} {role} holds {held}:"
            f" at most {most}"
        )


# --- the game --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """The game after some hands: totals per side, and the winner once there is one."""

    totals: tuple[int, ...]
    checks: tuple[int, ...]
    hands: int
    winner: int | None = None
    reason: str = ""


def standing(variant: Variant, scores: Sequence[HandScore], target: int) -> Standing:
    """Add up ``scores`` in order; the game ends at the first hand that decides it."""
    sides = side_count(variant)
    totals, checks = [0] * sides, [0] * sides
    for number, score in enumerate(scores, start=1):
        totals = [t + p for t, p in zip(totals, score.points)]
        checks = [t + c for t, c in zip(checks, score.checks)]
        winner, reason = _decided(variant, totals, score, target, number)
        if winner is not None:
            return Standing(tuple(totals), tuple(checks), number, winner, reason)
    return Standing(tuple(totals), tuple(checks), len(scores))


def _decided(
    variant: Variant, totals: list[int], score: HandScore, target: int, number: int
) -> tuple[int | None, str]:
    out = [side for side, total in enumerate(totals) if total >= target]
    if not out:
        return None, ""
    if len(out) == 1:
        return out[0], f"first to {target}, after hand {number}"
    if variant.bidding.both_reach == "bidder" and score.bidding_side in out:
        return score.bidding_side, (
            f"{len(out)} sides reached {target} on hand {number}; the bidding side wins"
        )
    best = max(totals[side] for side in out)
    leaders = [side for side in out if totals[side] == best]
    if len(leaders) > 1:
        return None, ""  # equal totals over the target: another hand is played
    return leaders[0], (
        f"{len(out)} sides reached {target} on hand {number}; the higher total wins"
    )
