"""A played hand settled: the clauses that decide what each side's meld and points count,
written once over numbers so that they score one hand's ints (`scoring.score_hand`:
`meldcalc score`, `play`, a game's ledger, the session) or arrays of thousands of simulated
hands at once (`score_hands`: `bid`'s odds, the equity table's hands).

A house switch that changes what a played hand scores is written here, once, and every one
of those follows it; tests hold `score_hands` equal to `score_hand` on every switch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldcalc.errors import UnsupportedError
from meldcalc.rules.variant import Variant


def short_of_meld(variant: Variant, meld: Sequence[int], bidding_side: int) -> bool:
    """Whether the bidding side loses its bid without play for melding under the meld
    minimum (house ``forfeit_under_minimum``, seed 001's "minimum 20 to score")."""
    return variant.house.forfeit_under_minimum and meld[bidding_side] < variant.meld_minimum


def under_trick_minimum(variant: Variant, tricks: Sequence[int], side: int) -> bool:
    """Whether a side took too few trick points to score anything for the hand (house
    ``trick_minimum``): its meld is ignored, and a bidding side so is set."""
    return tricks[side] < variant.house.trick_minimum


## Each function below takes a side's numbers as plain ints (one hand) or as numpy arrays (one
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
    if variant.house.trick_minimum:
        least = variant.house.trick_minimum
        clauses.append(((meld > 0) & (points < least), f"under {least} in tricks"))
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
    whatever it bid gives -1, below every bid: under the trick minimum, or melding under the
    meld minimum where that forfeits the bid). It is what `bid` counts its odds by."""
    reached = counted_meld(variant, meld, points, tricks_taken, counters_taken) + points
    lost = points < variant.house.trick_minimum
    if variant.house.forfeit_under_minimum:
        lost = lost | (meld < variant.meld_minimum)
    return _where(lost, -1, reached)


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
    least = variant.house.trick_minimum  # under it a side scores nothing for the hand
    points = [_where(t < least, 0, m + t) for m, t in zip(counted, tricks)]
    points[bidder] = bidding_side_points(variant, bid, reached)
    forfeit = short_of_meld(variant, meld, bidder)
    if forfeit is not False:  # the bid lost on the meld, unplayed: the others as thrown in
        kept = [thrown_in_meld(variant, side_meld) for side_meld in meld]
        cards = variant.house.thrown_in.cards
        counted = [_where(forfeit, k, c) for k, c in zip(kept, counted)]
        points = [_where(forfeit, k + cards, p) for k, p in zip(kept, points)]
        counted[bidder] = _where(forfeit, 0, counted[bidder])
        points[bidder] = _where(forfeit, -bid * variant.house.set_penalty, points[bidder])
    return counted, reached >= bid, points


def thrown_in_meld(variant: Variant, meld: Any) -> Any:
    """The meld a side keeps when the bidding side loses the hand unplayed (thrown in, or
    short of meld): by the house ``thrown_in`` switch, from its minimum."""
    rule = variant.house.thrown_in
    least = max(rule.meld_minimum, variant.meld_minimum)
    return _where((meld >= least) & rule.meld, meld, 0)


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
