"""Dealing the unseen cards consistently with what the table knows (`meldcalc.dealing.knowledge`).

`deal_consistent` deals only layouts consistent with a `TableKnowledge`, and uniformly
among them:

- Known cards are placed: dealt to their seat first, the other cards shuffled into the
  free places. Where the deck has other copies of a known card, placing makes a layout in
  which the seat holds m copies of a card it is known to hold k times C(m, k) times
  likelier than it should be; such a layout is kept with chance 1 / C(m, k).
- Voids are placed too: each suit some seat is void in is dealt first, among the free
  places of the seats that may hold it, then the other cards. Where the suits of several
  voids compete for places, a layout is kept in proportion to the ways each suit had to be
  placed (rejection sampling), which makes the kept layouts uniform again.
- Meld ranges are checked: a layout is kept under a trump when the partner's meld (and the
  opponents') under that trump falls in the range told. Each trump then has layouts of its
  own; without a meld range every trump plays the same layouts.

Layouts are drawn in batches from the caller's generator, so a seed gives the same deals
whatever else runs; the layouts tried for each one kept are counted, and a constraint kept
in fewer than 1 in `RARE` layouts is refused rather than sampled for minutes.

This is the bid's sampler, before a card is played: unlike the samplers of the play
(`meldcalc.dealing.unseen`), it honours meld ranges, which only rejection can keep.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meldcalc.dealing.knowledge import (
    TableKnowledge,
    free_places,
    opponent_seats,
    partner_seats,
    unseen_pool,
)
from meldcalc.errors import KnowledgeError
from meldcalc.rules.cards import NUM_CARDS, RANKS, Card, Hand, Suit
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np

#: A constraint kept in fewer than 1 in this many layouts is too rare to sample.
RARE = 1000
#: Layouts tried before a rate is judged too rare (a rate near 1 in RARE shows ~20 kept).
PROBE = 20_000
#: How loosely a bid is read, as a share of the variant's trick points (one standard
#: deviation: 31 points in single deck). The bid model is within 7 points of `bid` on held-out
#: hands, but players are not `bid`: they push, save, and bid a step or three off their
#: hand's worth; read as sharply as the model fits, a bid of 400 kept 1 layout in 2,100.
AUCTION_SPREAD = 0.15
#: Layouts drawn at once: bounds memory ((players + 1) x 24 counts a layout).
MAX_BATCH = 20_000
MIN_BATCH = 500


class LayoutSampler:
    """Deals the unseen cards into layouts consistent with the known cards and the voids.

    ``draw`` gives (n, players + 1, 24) counts (row 0 the bidder, then each seat, then the
    widow) and which of them to keep: kept layouts are uniform among the consistent ones.

    Voids are dealt exactly: a suit some seats are void in is a group of its own, the other
    cards one group more. A *count table* says how many cards of each group each seat
    gets; a table that gives seat h m_gh cards of group g is the outcome of
    prod_g (n_g! / prod_h m_gh!) layouts, so tables are drawn with that weight (all of them
    are listed: the void groups are few), then each group's cards are shuffled into the
    counts its table gives. Only the copies of known cards need rejection (module
    docstring)."""

    def __init__(self, hand: Hand, variant: Variant, knowledge: TableKnowledge) -> None:
        import numpy as np

        self.rows = variant.players + 1
        fixed = np.zeros((self.rows, NUM_CARDS), dtype=np.int64)
        fixed[0] = hand.counts
        if knowledge.widow is not None:
            fixed[variant.players] = knowledge.widow.counts
        placed = knowledge.placed(variant)
        for seat, cards in placed.items():
            fixed[seat] += cards.counts
        self.fixed = fixed
        free = free_places(hand, variant, knowledge)
        self.holders = np.array([row for row in range(self.rows) if free[row]])
        pool = np.array(unseen_pool(hand, variant, knowledge))
        #: (seat, card, k): known k times, where other copies may join them
        self.copies = [
            (seat, card, cards.counts[card])
            for seat, cards in placed.items()
            for card in range(NUM_CARDS)
            if cards.counts[card] and pool[card]
        ]
        self.groups, limits = [], []
        for suit, seats in knowledge.dealt_voids(variant).items():
            in_suit = [Card(rank, suit).index for rank in RANKS]
            self.groups.append(np.repeat(in_suit, pool[in_suit]))
            limits.append([row not in seats for row in self.holders])
            pool[in_suit] = 0
        self.groups.append(np.repeat(np.arange(NUM_CARDS), pool))
        sizes = [len(cards) for cards in self.groups]
        tables, weights = count_tables([free[row] for row in self.holders], sizes, limits)
        self.tables = np.array(tables, dtype=np.int64).reshape(-1, len(sizes), len(self.holders))
        self.odds = np.exp(np.array(weights) - max(weights))
        self.odds /= self.odds.sum()

    def draw(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        picked = self.tables[rng.choice(len(self.tables), size=n, p=self.odds)]
        flat = []
        for group, cards in enumerate(self.groups):
            shuffled = rng.permuted(np.broadcast_to(cards, (n, len(cards))), axis=1)
            ends = np.cumsum(picked[:, group], axis=1)  # where each holder's share ends
            holder = (np.arange(len(cards))[None, :, None] >= ends[:, None, :]).sum(axis=2)
            row = np.arange(n)[:, None] * self.rows + self.holders[holder]
            flat.append((row * NUM_CARDS + shuffled).ravel())
        counts = np.bincount(np.concatenate(flat), minlength=n * self.rows * NUM_CARDS)
        counts = counts.reshape(n, self.rows, NUM_CARDS) + self.fixed
        if not self.copies:
            return counts, np.ones(n, dtype=bool)
        keep = np.ones(n)
        ways = np.array(_WAYS_TO_CHOOSE)
        for seat, card, known in self.copies:
            keep /= ways[counts[:, seat, card], known]
        return counts, rng.random(n) < keep


#: C(m, k) for the copies of a card a seat can hold (at most four of each)
_WAYS_TO_CHOOSE = [[math.comb(m, k) for k in range(5)] for m in range(5)]
#: More count tables than this (voids in every suit, double deck) would take long to list.
MAX_TABLES = 200_000


def count_tables(
    free: list[int], sizes: list[int], limits: list[list[bool]]
) -> tuple[list[list[int]], list[float]]:
    """Every way to share the groups' cards among the holders, and its log weight.

    ``free``: places of each holder; ``sizes``: cards of each group, the last group
    unconstrained; ``limits``: for every group but the last, which holders may take it.
    A table is flattened group by group; its weight is log prod 1 / m_gh! (the layouts
    behind it, less what every table shares)."""
    tables: list[list[int]] = []
    weights: list[float] = []

    def place(group: int, room: list[int], table: list[int], weight: float) -> None:
        if group == len(sizes) - 1:  # the last group fills every place left
            tables.append(table + room)
            weights.append(weight - sum(math.lgamma(m + 1) for m in room))
            if len(tables) > MAX_TABLES:
                raise KnowledgeError(
                    "too many voids to deal exactly: tell fewer (each void left out only"
                    " widens the deals)"
                )
            return
        tops = [r if ok else 0 for r, ok in zip(room, limits[group])]
        for share in _shares(sizes[group], tops):
            left = [r - m for r, m in zip(room, share)]
            place(group + 1, left, table + share, weight - sum(math.lgamma(m + 1) for m in share))

    place(0, list(free), [], 0.0)
    if not tables:
        raise KnowledgeError("no layout fits the voids told")
    return tables, weights


def _shares(total: int, tops: list[int]) -> list[list[int]]:
    """Every split of ``total`` cards among holders taking at most ``tops`` each."""
    if not tops:
        return [[]] if total == 0 else []
    room_after = sum(tops[1:])
    return [
        [first, *rest]
        for first in range(max(0, total - room_after), min(tops[0], total) + 1)
        for rest in _shares(total - first, tops[1:])
    ]


@dataclass
class ConsistentDeals:
    """Deals for each trump (the same array for every trump when no meld range is told)
    and the layouts tried for them."""

    counts: dict[Suit, np.ndarray]
    tried: dict[Suit, int]


def deal_consistent(
    hand: Hand,
    variant: Variant,
    knowledge: TableKnowledge,
    size: int,
    rng: np.random.Generator,
    trumps: list[Suit],
) -> ConsistentDeals:
    """``size`` layouts for each trump consistent with ``knowledge``, drawn in batches
    until each trump has its own; `KnowledgeError` when they are too rare to sample."""
    import numpy as np

    sampler = LayoutSampler(hand, variant, knowledge)
    groups = trumps if knowledge.meld_ranges else [None]
    kept: dict = {group: [] for group in groups}
    need = dict.fromkeys(groups, size)
    found, tried = dict.fromkeys(groups, 0), {}
    drawn, batch = 0, size
    while any(need.values()):
        counts, keep = sampler.draw(rng, batch)
        if knowledge.bids:
            keep &= _bids_agree(counts, keep, variant, knowledge, rng)
        if knowledge.meanings:
            keep &= _meanings_agree(counts, keep, variant, knowledge)
        agrees = _meld_agrees(counts, keep, variant, knowledge, [g for g in groups if need[g]])
        for group, fits in agrees.items():
            rows = np.flatnonzero(keep & fits)
            taken = rows[: need[group]]
            kept[group].append(counts[taken])
            found[group] += len(rows)
            need[group] -= len(taken)
            if not need[group]:
                tried[group] = drawn + int(taken[-1]) + 1
        drawn += batch
        _refuse_rare(found, need, drawn, knowledge, variant, trumps)
        batch = _next_batch(found, need, drawn)
    dealt = {group: np.concatenate(parts) for group, parts in kept.items()}
    if groups == [None]:
        return ConsistentDeals(
            dict.fromkeys(trumps, dealt[None]), dict.fromkeys(trumps, tried[None])
        )
    return ConsistentDeals(dealt, tried)


def _meld_agrees(
    counts: np.ndarray,
    keep: np.ndarray,
    variant: Variant,
    knowledge: TableKnowledge,
    groups: list[Suit | None],
) -> dict[Suit | None, np.ndarray]:
    """For each trump of ``groups`` (None: no meld range told), which layouts have the told
    melds under it. Only the layouts kept so far are scored, each seat once for all trumps."""
    import numpy as np

    agrees = {group: np.ones(len(counts), dtype=bool) for group in groups}
    rows = np.flatnonzero(keep)
    if groups == [None] or not len(rows):
        return agrees
    from meldcalc.rules.meld import engine_for

    engine = engine_for(variant)
    for who, told in knowledge.meld_ranges:
        seats = partner_seats(variant) if who == "partner" else opponent_seats(variant)
        melds = [engine.totals(counts[rows, seat]) for seat in seats]
        for trump in groups:
            agrees[trump][rows] &= told.holds(sum(meld[trump] for meld in melds))
    return agrees


def _bids_agree(
    counts: np.ndarray,
    keep: np.ndarray,
    variant: Variant,
    knowledge: TableKnowledge,
    rng: np.random.Generator,
) -> np.ndarray:
    """Which layouts to keep for what the auction said: each in proportion to how likely
    the bids told are for the seats' hands in it, as the fast bid model (`dealing.bidmodel`)
    reads a hand: a seat that bid B would go to B or more, one that passed rather than bid
    P would not, each within a spread of `AUCTION_SPREAD` (a normal spread, taken as a
    logistic curve). Kept so, the layouts are drawn from the deals as likely as the auction makes
    them (the uniform deal, weighted by the bids' likelihood)."""
    import numpy as np

    from meldcalc.dealing.bidmodel import model_for

    rows = np.flatnonzero(keep)
    chance = np.ones(len(rows))
    model = model_for(variant)
    spread = max(model.spread_points(variant), AUCTION_SPREAD * variant.trick_total, 1.0)
    for seat, high, passed in knowledge.bids:
        level = model.levels(counts[rows, seat], variant)
        if high is not None:
            chance *= _normal_below((level - high) / spread)
        if passed is not None:
            chance *= _normal_below((passed - level) / spread)
    agrees = np.zeros(len(counts), dtype=bool)
    agrees[rows] = rng.random(len(rows)) < chance
    return agrees


def _meanings_agree(
    counts: np.ndarray, keep: np.ndarray, variant: Variant, knowledge: TableKnowledge
) -> np.ndarray:
    """Which layouts agree with what the other seats' bids said by the table's bidding
    system: each seat's hand as dealt fits every meaning that tells something of it (a
    meld shown, cards held or asked for: `rules.systems.Meaning.fits`)."""
    import numpy as np

    rows = np.flatnonzero(keep)
    for seat, said in knowledge.meanings:
        if seat and said.tells and len(rows):
            rows = rows[said.fits(counts[rows, seat], variant)]
    agrees = np.zeros(len(counts), dtype=bool)
    agrees[rows] = True
    return agrees


def _normal_below(z: np.ndarray) -> np.ndarray:
    """The normal distribution's chance below ``z``, within 0.01 (a logistic curve)."""
    import numpy as np

    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-1.702 * np.nan_to_num(z, neginf=-50.0, posinf=50.0)))


def _refuse_rare(
    found: dict,
    need: dict,
    drawn: int,
    knowledge: TableKnowledge,
    variant: Variant,
    trumps: list[Suit],
) -> None:
    for group, count in found.items():
        if need[group] and drawn >= PROBE and count * RARE < drawn:
            told = "; ".join(knowledge.describe(variant, [group] if group else trumps))
            raise KnowledgeError(
                f"{told}: kept in {count:,} of {drawn:,} layouts: too rare to sample"
                f" (fewer than 1 in {RARE:,})"
            )


def _next_batch(found: dict, need: dict, drawn: int) -> int:
    """Enough layouts for the trump still shortest of its deals, at the rate seen so far."""
    short = [(need[g], (found[g] + 1) / drawn) for g in need if need[g]]
    if not short:
        return 0
    wanted = max(math.ceil(1.1 * missing / rate) for missing, rate in short)
    return min(MAX_BATCH, max(MIN_BATCH, wanted))
