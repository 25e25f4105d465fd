"""A played deal reviewed with the exact solver: what each card cost against the best one.

For every card played, the position just before it is solved: the value (seat 0's side's
trick points from there on, under best play) of each legal card. A card's cost is how much
worse for its own side it is than the best card: seat 0's side wants the value high, the
others want it low. Adding the costs per seat shows where the points went; the deal's
exact value beside what the players took shows how far the play as a whole fell short.
A deal longer than the solver's reach (three-handed, double deck) is reviewed over its last
`LONG_DEAL_TRICKS` tricks.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

import numpy as np

from meldcalc.advice.played import PlayedDeal
from meldcalc.engines.solve import (
    NOT_COMPARED,
    REACH,
    Deadline,
    bigger_table,
    card_values_many,
    seat_sides,
)
from meldcalc.errors import MeldcalcError, TimeLimitError
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS
from meldcalc.rules.variant import Variant

#: The tricks of a longer deal that are reviewed. Every position is solved card by card,
#: which from 12 tricks of a three-handed deal took from 3 s to 130 s a deal; from 10,
#: 0.3 to 1.7 s. Five double-deck deals (bench/review.py): from 14 tricks 5 to 39 s, from
#: 12 0.2 to 3 s, from 10 under 0.2 s.
LONG_DEAL_TRICKS = 10

#: The solver's table during a review: 2**23 entries of 32 bytes (256 MB, paged in as used
#: and returned when the review ends; twice the usual). The hardest reviews overflow the
#: usual one: the strong hand's slowest (`play --seed 0`, seat 0's cards compared) took 419M
#: nodes and 47 s with it, 330M and 39 s with this, 290M and 35 s with 2**24 entries (but a
#: fresh process may take a second more to be given that much memory).
REVIEW_TABLE_BITS = 23

#: Seconds a review may take by default before it stops with `TimeLimitError`: it solves
#: every position of a deal card by card, which for 30 seeded single-deck deals took from
#: 0.3 s to 12 s, and for 10 of random cards up to 42 s (README), and house rules take
#: longer.
REVIEW_TIME_LIMIT = 300.0


@dataclass(frozen=True)
class CardReview:
    seat: int
    card: str
    cost: int
    #: the cards that were as good as any; None for a card of a seat not compared that
    #: cost nothing (see `review`)
    best: tuple[str, ...] | None


@dataclass(frozen=True)
class Review:
    value: int  # the counted seat's side under best play from the first trick reviewed
    taken: int  # what the counted seat's side took in those tricks as played
    cards: tuple[CardReview, ...]  # in the order played, from the first trick reviewed
    first_trick: int = 1  # the trick the review starts at (1 unless the deal is too long)
    #: a deal that stops part way: what seat 0's side takes with the cards as played, then
    #: best play from where the deal stops (None for a deal played to the end)
    then_best: int | None = None
    #: the seat whose side ``value`` and ``taken`` count: seat 0, or the bidder where each
    #: plays for himself and the bidder sits elsewhere (its lone side against the rest)
    counted: int = 0

    def lost_by_seat(self, players: int) -> list[int]:
        lost = [0] * players
        for card in self.cards:
            lost[card.seat] += card.cost
        return lost


def review(
    deal: PlayedDeal,
    variant: Variant,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = REVIEW_TIME_LIMIT,
    bidder: int = 0,
    compared: Collection[int] | None = None,
) -> Review:
    """Solve the position before every card of ``deal`` and price each card played;
    ``progress(trick, total)`` hears of each trick as its review begins (the first can take
    minutes). The solver keeps what it learnt from one trick's positions to the next's.
    After ``time_limit`` seconds in all (None: no limit) it stops with `TimeLimitError`,
    saying how many tricks it had reviewed.

    Where each plays for himself the ``bidder`` plays alone against the rest: the solver
    seats its lone side in seat 0, so a deal whose bidder sits elsewhere is turned to put
    it there, and the review's seats turned back (``value`` and ``taken`` are then the
    bidder's).

    Every card's cost is exact. Its ``best`` (every card as good as any) is found for the
    cards of the seats in ``compared`` (None: every seat) and for every card that cost
    something; a card of another seat that cost nothing has ``best`` None, as proving
    each other card as good takes a whole search: half the time of the slowest reviews."""
    paired = variant.paired
    if bidder and not paired:
        players = variant.players
        seats = None if compared is None else [(seat - bidder) % players for seat in compared]
        turned = review(turn(deal, -bidder, players), variant, progress, time_limit, 0, seats)
        cards = tuple(
            replace(card, seat=(card.seat + bidder) % variant.players) for card in turned.cards
        )
        return replace(turned, cards=cards, counted=bidder)
    deadline = Deadline.after(time_limit)
    skipped, reach = reviewed_tricks(deal)
    hands, leaders, tricks, played = _positions(deal, variant)
    start = skipped * variant.players
    hands, leaders, tricks, played = hands[start:], leaders[start:], tricks[start:], played[start:]
    positions = (hands, leaders, tricks, played)
    with bigger_table(REVIEW_TABLE_BITS):
        values, per_card = _priced(positions, deal, variant, reach, progress, deadline, compared)
    sides = seat_sides(variant)
    reviewed = []
    for index, (seat, card) in enumerate(played):
        row = per_card[index]
        if (row == NOT_COMPARED).any():  # the card played was as good as any
            reviewed.append(CardReview(seat, CARD_NAMES[card], 0, None))
            continue
        legal = row >= 0
        wanted = row[legal].max() if sides[seat] == 0 else row[legal].min()
        cost = abs(int(wanted) - int(row[card]))
        best = tuple(CARD_NAMES[c] for c in np.flatnonzero(legal & (row == wanted)))
        reviewed.append(CardReview(seat, CARD_NAMES[card], cost, best))
    taken = sum(t.points for t in deal.tricks[skipped:] if t.winner >= 0 and sides[t.winner] == 0)
    then_best = None
    if any(map(sum, deal_left(deal, variant))):  # stopped part way: the last card played, then
        _, last_card = played[-1]  # best play (its trick's points included)
        before = sum(t.points for t in deal.tricks[skipped:-1] if sides[t.winner] == 0)
        then_best = before + int(per_card[-1][last_card])
    return Review(int(values[0]), taken, tuple(reviewed), skipped + 1, then_best)


def _priced(
    positions: tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]],
    deal: PlayedDeal,
    variant: Variant,
    reach: int,
    progress: Callable[[int, int], None] | None,
    deadline: Deadline | None,
    compared: Collection[int] | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each position's value and the values after its cards, a trick at a time."""
    hands, leaders, tricks, played = positions
    values = np.zeros(len(hands), dtype=np.int64)
    per_card = np.zeros((len(hands), NUM_CARDS), dtype=np.int64)
    for trick in range(reach):
        if progress is not None:
            progress(trick + 1, reach)
        part = slice(trick * variant.players, (trick + 1) * variant.players)
        cards = np.array([card for _, card in played[part]], dtype=np.int64)
        compare = np.array([compared is None or seat in compared for seat, _ in played[part]])
        try:
            values[part], per_card[part] = card_values_many(
                hands[part],
                deal.trump.index,
                leaders[part],
                variant,
                tricks[part],
                cards,
                deadline,
                compare,
            )
        except TimeLimitError as stop:
            raise TimeLimitError(stop.limit, f"{trick} of {reach} tricks reviewed") from None
    return values, per_card


def turn(deal: PlayedDeal, shift: int, players: int) -> PlayedDeal:
    """``deal`` with every seat ``shift`` places on (seat s becomes seat s + shift)."""

    def moved(seat: int) -> int:
        return (seat + shift) % players if seat >= 0 else seat

    hands = tuple(deal.hands[(seat - shift) % players] for seat in range(players))
    tricks = tuple(
        replace(
            trick,
            leader=moved(trick.leader),
            cards=tuple((moved(seat), card) for seat, card in trick.cards),
            winner=moved(trick.winner),
        )
        for trick in deal.tricks
    )
    return replace(deal, hands=hands, tricks=tricks)


def deal_left(deal: PlayedDeal, variant: Variant) -> list[list[int]]:
    """The cards each seat still holds after the cards of ``deal`` were played."""
    held = [list(hand.counts) for hand in deal.hands]
    for trick in deal.tricks:
        for seat, name in trick.cards:
            held[seat][CARD_NAMES.index(name)] -= 1
    return held


def reviewed_tricks(deal: PlayedDeal) -> tuple[int, int]:
    """The tricks of ``deal`` left out of its review, and the tricks reviewed: a deal of
    more tricks than the solver's reach (counted from the hands as dealt, whether or not
    it was played to the end) is reviewed from `LONG_DEAL_TRICKS` before its end."""
    length = len(deal.hands[-1])  # tricks in the deal as dealt (the last seat takes no widow)
    skipped = length - LONG_DEAL_TRICKS if length > REACH else 0
    reach = len(deal.tricks) - skipped
    if reach <= 0:
        raise MeldcalcError(
            f"the solver reviews the last {LONG_DEAL_TRICKS} of a deal's {length} tricks, from"
            f" trick {skipped + 1}; this one stops at trick {len(deal.tricks)}"
        )
    return skipped, reach


def _positions(
    deal: PlayedDeal, variant: Variant
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Every position met in ``deal`` (just before each card), as the solver takes them."""
    players = variant.players
    held = np.array([hand.counts for hand in deal.hands], dtype=np.int64)
    hands, leaders, tricks, played = [], [], [], []
    for trick in deal.tricks:
        on_table: list[int] = []
        for seat, name in trick.cards:
            card = CARD_NAMES.index(name)
            hands.append(held.copy())
            leaders.append(trick.leader)
            tricks.append(on_table + [-1] * (players - 1 - len(on_table)))
            played.append((seat, card))
            held[seat, card] -= 1
            on_table = [*on_table, card]
    shape = (len(hands), players, NUM_CARDS)
    return (
        np.array(hands, dtype=np.int64).reshape(shape),
        np.array(leaders, dtype=np.int64),
        np.array(tricks, dtype=np.int64).reshape(len(hands), players - 1),
        played,
    )
