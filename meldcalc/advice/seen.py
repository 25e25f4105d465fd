"""A seat's play priced as it saw it, and with every hand known.

Each card the seat played is held against the best card it had by what it could know
then: the reference player's values (`advice.hint`) on layouts of the unseen cards that
fit what the seat had seen (its hand, the cards played, the meld laid down), the paired
difference between its card and the best. Beside it, the card's cost with every hand
known (`advice.review`, the solver), where the solver reaches. A card can be right as
seen and wrong with every hand known (the cards lay badly), or the other way (a lucky
lie): a strong player points out the first kind of loss, not the second.

Every position is independent, so ``jobs`` processes price them at once (the exact
review, one search that shares its table from trick to trick, in one of them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meldcalc.advice.played import PlayedDeal
from meldcalc.rules.cards import CARDS, Hand
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    from meldcalc.advice.review import Review


@dataclass(frozen=True)
class CardPriced:
    """One card priced: ``seen``, against the best card by what the seat could know then
    (``best_seen``); ``exact``, against the best cards with every hand known
    (``best_exact``: None where the deal is longer than the solver reaches, or the solver
    is not built)."""

    trick: int
    card: str
    best_seen: str
    seen: float
    best_exact: tuple[str, ...] | None = None
    exact: int | None = None


def price_as_seen(
    deal: PlayedDeal,
    variant: Variant,
    seat: int,
    known: Sequence[str] = (),
    seed: int = 0,
    jobs: int = 1,
    widow: Hand | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    auction: tuple[tuple[int, int | None], ...] = (),
    reviewed: Review | None = None,
) -> list[CardPriced]:
    """Each card ``seat`` played in ``deal``, priced as it saw it and exactly; ``known``:
    the meld the other seats laid down, as `hint` takes it (``SEAT:CARDS``). With a widow
    the bidder (who led trick 1) buried the cards of the deck no hand holds, and the
    others saw the ``widow`` as turned up (None: not seen). The ``auction``, if told, is
    read with the plays, as `hint` reads it. The exact review stops with
    `TimeLimitError` after ``time_limit`` seconds (None: no limit); ``progress(done,
    total)`` hears of each part priced. ``reviewed``: the deal's exact review if already
    made (with ``seat``'s cards compared), not made again; else it is made, the bidder the
    seat that led trick 1."""
    from meldcalc.advice.history import Query
    from meldcalc.workers import worker_map

    order = [(number, s, card) for number, t in enumerate(deal.tricks) for s, card in t.cards]
    names = [card for _, _, card in order]
    mine = [index for index, (_, s, _) in enumerate(order) if s == seat]
    leader = deal.tricks[0].leader if deal.tricks else 0
    hand = deal.hands[seat]
    buried = _buried(deal, variant) if variant.widow and seat == leader else None
    seen = None if seat == leader else widow
    table = (seat, tuple(known), buried, seen, auction)
    queries = [Query(hand, deal.trump, leader, tuple(names[:index]), *table) for index in mine]
    tasks = [("seen", variant, query, seed) for query in queries]
    if reviewed is None:
        tasks.insert(0, ("exact", variant, deal, time_limit, seat))
    done = [] if reviewed is None else [_by_place(reviewed, variant)]
    with worker_map(jobs, len(tasks)) as run:
        for result in run(_priced, tasks):
            done.append(result)
            if progress is not None:
                progress(len(done), len(tasks) + (reviewed is not None))
    exact, *seen = done
    priced = []
    for index, found in zip(mine, seen):
        number, _, name = order[index]
        behind = {value.card: value.behind for value in found.cards}
        solved = exact.get(index)
        priced.append(
            CardPriced(
                number + 1,
                name,
                found.best.card,
                behind[name],
                *((solved.best, solved.cost) if solved else ()),
            )
        )
    return priced


def _buried(deal: PlayedDeal, variant: Variant) -> Hand:
    """The cards of the deck in no hand of ``deal``: the bidder's burial."""
    left = [variant.deck.copies_of(card) for card in CARDS]
    for hand in deal.hands:
        left = [n - k for n, k in zip(left, hand.counts)]
    return Hand(left)


def _priced(task: tuple) -> Any:
    """One job of `price_as_seen` (in a worker, when there are several): a hint as the
    seat saw it, or the exact review of the deal."""
    job, variant, *rest = task
    if job == "seen":
        from meldcalc.advice.hint import hint

        query, seed = rest
        return hint(query, variant, seed=seed)
    return _exact(*rest, variant=variant)


def _exact(
    deal: PlayedDeal, time_limit: float | None, seat: int, variant: Variant
) -> dict[int, Any]:
    """Each card's `review.CardReview` by its place in the deal, where the solver reaches
    (``seat``'s compared with every card it could have played); empty when the solver is
    not built."""
    from meldcalc.advice.review import review
    from meldcalc.engines.solve import solver_available

    if not solver_available():
        return {}
    leader = deal.tricks[0].leader if deal.tricks else 0  # the bidder, who led trick 1
    checked = review(deal, variant, time_limit=time_limit, bidder=leader, compared=(seat,))
    return _by_place(checked, variant)


def _by_place(checked: Review, variant: Variant) -> dict[int, Any]:
    """A review's `review.CardReview` of each card by its place in the deal."""
    skipped = (checked.first_trick - 1) * variant.players
    return {index + skipped: card for index, card in enumerate(checked.cards)}
