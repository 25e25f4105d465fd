"""Layouts of the unseen cards for a seat in play: every deal of the cards it cannot see
that fits what it has seen (`Seen`).

meldcalc deals unseen cards in three places, each for a reason of its own:

- `sample_layouts` (here): exact and uniform. It counts the fitting deals by dynamic
  programming over how many cards each seat has been given so far (each card's copies split
  among the seats that may hold it, weighted by the ways physical copies can make that
  split), then draws backwards. It never returns a layout the knowledge rules out and needs
  no retries, but it works one decision at a time: the reference player and `hint` use it.
- `deal_layouts` (here): fast and approximate, for every decision of a batch at once. It
  deals the unseen cards one at a time, those the fewest seats may hold first, each to a
  seat that may hold it with odds in proportion to the room left in its hand over the cards
  that could still fill it. Without constraints that is a uniform deal; with them it is
  close to one (module docstring of `meldcalc.engines.lookahead`, which uses it, has the
  measurements). A draw that finds no seat for a card is drawn again by `sample_layouts`.
- `meldcalc.dealing.layouts.deal_consistent`: the bid's sampler, before any card is played.
  It honours what the auction and the meld tell (known cards, voids, and a range of the
  partner's and opponents' meld under each trump), which neither sampler here can: a meld
  range is a property of the whole hand, kept by rejection, with each trump its own layouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import factorial

import numpy as np

from meldcalc.rules.cards import NUM_CARDS


@dataclass(frozen=True)
class Seen:
    """What the seat to play knows of the hands at a decision, as per-card counts.

    ``hand``: its own (24,); ``unseen``: copies of each card in the other hands (all the
    cards not yet played, less its own); ``sizes``: (players,) cards each seat holds;
    ``known``: (players, 24) cards each other seat is known to hold (melded, not played);
    ``lacks``: (players, 24) True where a seat is known to hold no copy of the card."""

    seat: int
    hand: np.ndarray
    unseen: np.ndarray
    sizes: np.ndarray
    known: np.ndarray
    lacks: np.ndarray

    @property
    def others(self) -> list[int]:
        return [seat for seat in range(len(self.sizes)) if seat != self.seat]

    def allows(self, layout: np.ndarray) -> bool:
        """Whether ``layout`` ((players, 24) counts) could be the real deal."""
        others = self.others
        return bool(
            (layout[self.seat] == self.hand).all()
            and (layout[others].sum(axis=0) == self.unseen).all()
            and (layout.sum(axis=1) == self.sizes).all()
            and (layout >= self.known).all()
            and not (layout[others] * self.lacks[others]).any()
        )


def sample_layouts(seen: Seen, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` layouts ((count, players, 24) counts) drawn uniformly from the deals that
    fit ``seen``; the seat's own hand in its place in each."""
    others = seen.others
    free = seen.unseen - seen.known[others].sum(axis=0)
    caps = seen.sizes[others] - seen.known[others].sum(axis=1)
    cards = np.flatnonzero(free)
    splits = [_splits(int(free[card]), tuple(~seen.lacks[others, card])) for card in cards]
    tables = _count_deals(splits, caps)
    layouts = np.zeros((count, len(seen.sizes), NUM_CARDS), dtype=np.int64)
    layouts[:, others] = seen.known[others]
    layouts[:, seen.seat] = seen.hand
    given = _draw(splits, tables, caps, count, rng)  # (count, cards, others)
    for i, seat in enumerate(others):
        layouts[:, seat, cards] += given[:, :, i]
    return layouts


@cache
def _splits(copies: int, allowed: tuple[bool, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every way to split ``copies`` copies of a card among the seats it may be in, and in
    how many ways the physical copies make each split (a multinomial coefficient)."""
    ways: list[tuple[int, ...]] = [()]
    for seat_allowed in allowed:
        ways = [(*w, k) for w in ways for k in range(copies + 1 if seat_allowed else 1)]
    ways = [w for w in ways if sum(w) == copies]
    weights = [factorial(copies) / np.prod([factorial(k) for k in w]) for w in ways]
    return np.array(ways, dtype=np.int64).reshape(-1, len(allowed)), np.array(weights)


def _count_deals(splits: list[tuple[np.ndarray, np.ndarray]], caps: np.ndarray) -> list[np.ndarray]:
    """tables[i][c]: the weighted number of ways to deal the first i cards so that the
    seats but the last have been given c cards (the last seat has the rest)."""
    table = np.zeros(tuple(caps[:-1] + 1))
    table[(0,) * (len(caps) - 1)] = 1.0
    tables = [table]
    for ways, weights in splits:
        grown = np.zeros_like(table)
        for way, weight in zip(ways, weights):
            grown[_shifted(way[:-1], table.shape)] += weight * table[_kept(way[:-1], table.shape)]
        tables.append(table := grown)
    if not table[tuple(caps[:-1])] > 0:
        raise ValueError("no deal of the unseen cards fits what the seat has seen")
    return tables


def _shifted(way: np.ndarray, shape: tuple[int, ...]) -> tuple[slice, ...]:
    return tuple(slice(k, size) for k, size in zip(way, shape))


def _kept(way: np.ndarray, shape: tuple[int, ...]) -> tuple[slice, ...]:
    return tuple(slice(0, max(size - k, 0)) for k, size in zip(way, shape))


def _draw(
    splits: list[tuple[np.ndarray, np.ndarray]],
    tables: list[np.ndarray],
    caps: np.ndarray,
    count: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Draw ``count`` deals backwards, the last card first: each card's split with odds
    proportional to its ways times the ways to deal the cards before it into what is left."""
    left = np.tile(caps, (count, 1))
    given = np.zeros((count, len(splits), len(caps)), dtype=np.int64)
    for i in range(len(splits) - 1, -1, -1):
        ways, weights = splits[i]
        before = left[:, None, :] - ways[None]  # (count, splits, seats)
        fits = (before >= 0).all(axis=2)
        index = tuple(np.maximum(before[..., seat], 0) for seat in range(len(caps) - 1))
        odds = weights * tables[i][index] * fits
        cumulative = odds.cumsum(axis=1)
        pick = (cumulative < rng.random((count, 1)) * cumulative[:, -1:]).sum(axis=1)
        given[:, i] = ways[pick]
        left = before[np.arange(count), pick]
    return given


def deal_layouts(
    known: np.ndarray,
    free: np.ndarray,
    room: np.ndarray,
    may_hold: np.ndarray,
    per_row: int,
    copies: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """``per_row`` deals of each row's ``free`` cards into the ``room`` of the hands that
    ``may_hold`` them, on top of the ``known`` cards (module docstring): (R * per_row,
    players, 24) counts, and which of them found no seat for some card (to draw again)."""
    known, free, room, may_hold = (
        np.repeat(x, per_row, axis=0) for x in (known, free, room, may_hold)
    )
    draws, players = len(free), room.shape[1]
    at = np.arange(draws)
    layouts = known.copy()
    failed = np.zeros(draws, dtype=bool)
    # what could still fill each hand: the copies left of the cards it may hold
    supply = (may_hold * free[:, None, :]).sum(axis=2)
    # the cards the fewest seats may hold first, ties at random; cards not to deal last
    constraint = may_hold.sum(axis=1) + rng.random((draws, NUM_CARDS)) + players * (free == 0)
    for card in np.argsort(constraint, axis=1).T:  # (draws,): each draw's next card
        for _ in range(copies):
            dealing = (free[at, card] > 0) & ~failed
            if not dealing.any():
                break
            open_ = may_hold[at, :, card] & (room > 0) & dealing[:, None]
            must = open_ & (room >= supply)  # room for every card it may still hold
            odds = np.where(must.any(axis=1)[:, None], must, open_ * room / np.maximum(supply, 1))
            total = odds.sum(axis=1)
            failed |= dealing & (total <= 0)
            dealing &= total > 0
            rows = at[dealing]
            pick = rng.random(draws) * total
            seat = np.minimum((odds.cumsum(axis=1) < pick[:, None]).sum(axis=1), players - 1)
            seat, card_dealt = seat[dealing], card[dealing]
            layouts[rows, seat, card_dealt] += 1
            room[rows, seat] -= 1
            free[rows, card_dealt] -= 1
            supply[rows] -= may_hold[rows, :, card_dealt]
    return layouts, failed
