"""The equity table's hands: random deals bid by a stated policy, played out and scored.

`meldcalc.advice.equity` works its table out from these (its docstring, step 1): every seat
goes as high as the fast bid model (`meldcalc.dealing.bidmodel`) says its hand is worth,
the highest wins at the bid just above the other sides' highest, the winner takes the
widow and buries as `bid` does, names its best trump, the pass is made where the variant
has one, and the deal is played out by meldcalc's player and scored as `meldcalc score`
scores a hand.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from meldcalc.errors import UnsupportedError
from meldcalc.rules.cards import CARDS, NUM_CARDS, SUITS
from meldcalc.rules.variant import Variant

#: Deals the table's hands are (by the number of sides keeping score), and their seed.
DEALS = {2: 20_000, 3: 12_000}
SEED = 2026
#: The numbers of sides a table is worked out for.
TABLED = (2, 3)


@dataclass(frozen=True)
class HandOutcomes:
    """The table's hands: the side that bid each (-1: thrown in, no bid) and each side's
    score change (N, sides)."""

    bidding: np.ndarray
    points: np.ndarray
    defenders_meld: float
    #: (N,) the contract of each hand bid (0: thrown in), the bidding side's total (the
    #: meld that counts and its tricks) and the highest the winner would have bid
    contract: np.ndarray | None = None
    totals: np.ndarray | None = None
    limits: np.ndarray | None = None
    melds: np.ndarray | None = None  #: the bidding side's meld that counts

    @property
    def sides(self) -> int:
        return self.points.shape[1]

    def every_way(self) -> HandOutcomes:
        """Each hand once for every order of the sides: two sides as dealt and swapped,
        three in six orders."""
        orders = [np.array(order) for order in itertools.permutations(range(self.sides))]
        points = []
        for order in orders:
            seated = np.empty_like(self.points)
            seated[:, order] = self.points
            points.append(seated)
        return HandOutcomes(
            np.concatenate([np.where(self.bidding >= 0, o[self.bidding], -1) for o in orders]),
            np.concatenate(points),
            self.defenders_meld,
            *(
                np.concatenate([part] * len(orders))
                for part in (self.contract, self.totals, self.limits, self.melds)
            ),
        )


def sides_of(variant: Variant) -> int:
    from meldcalc.rules.scoring import side_count

    return side_count(variant)


def check_tabled(variant: Variant) -> None:
    """Refuse a variant the game's score cannot be tabled for, in one line."""
    if variant.bidding is None:
        raise UnsupportedError(f"{variant.name} has no auction: no bid to judge by the game")
    if sides_of(variant) not in TABLED:
        raise UnsupportedError(
            f"the game's score in a bid is worked out for games of two or three sides;"
            f" {variant.name} has {sides_of(variant)} players each for himself"
        )
    if variant.bidding.game is None:
        raise UnsupportedError(f"{variant.name} has no game target: give a house file one")


def hand_outcomes(variant: Variant, count: int | None = None, seed: int = SEED) -> HandOutcomes:
    """``count`` deals bid by the stated policy, played out and scored (module docstring)."""
    from meldcalc.dealing.bidmodel import model_for

    check_tabled(variant)
    sides = sides_of(variant)
    count = count or DEALS[sides]
    rng = np.random.default_rng(seed)
    players = variant.players
    counts = deal_hands(variant, count, rng)
    model = model_for(variant)
    by_trump = [model.levels_by_trump(counts[:, seat], variant) for seat in range(players)]
    levels = np.stack([np.stack([level[s] for s in SUITS], axis=1) for level in by_trump], axis=1)
    trumps = levels.argmax(axis=2)  # (N, players): each seat's best trump
    limits = legal_floor(variant, levels.max(axis=2))  # the highest legal bid each would make
    winner, contract = auction(variant, limits)
    played = winner >= 0
    seats = (winner[played, None] + np.arange(players)) % players  # the bidder in seat 0
    rows = np.flatnonzero(played)
    hands = counts[rows[:, None], seats]
    widow = counts[rows, players] if variant.widow else None
    trump = trumps[rows, winner[played]]
    melds, tricks, *taken = play_hands(variant, hands, trump, widow)
    scores = scored(variant, contract[played], melds, tricks, tuple(taken))
    bidding = np.where(played, winner % sides, -1)  # seats alternate between the sides
    points = np.zeros((count, sides), dtype=np.int64)
    turned = (bidding[played, None] + np.arange(sides)) % sides  # each side, the bidder's first
    points[rows[:, None], turned] = scores[:, :sides]
    contracts = np.where(played, contract, 0)
    totals = np.zeros(count, dtype=np.int64)
    totals[rows] = scores[:, sides]
    reached = np.zeros(count, dtype=np.int64)
    reached[rows] = limits[rows, winner[played]]
    bid_meld = np.zeros(count, dtype=np.int64)
    bid_meld[rows] = scores[:, sides + 1]
    defended = float(melds[:, 1:].mean()) if len(melds) else 0.0
    return HandOutcomes(bidding, points, defended, contracts, totals, reached, bid_meld)


def deal_hands(variant: Variant, count: int, rng: np.random.Generator) -> np.ndarray:
    """(count, players, 24) hands of random deals; with a widow, a last row holds it."""
    deck = np.repeat(np.arange(NUM_CARDS), [variant.deck.copies_of(card) for card in CARDS])
    shuffled = rng.permuted(np.broadcast_to(deck, (count, len(deck))), axis=1)
    size, players = variant.hand_size, variant.players
    rows = players + (1 if variant.widow else 0)
    hands = np.zeros((count, rows, NUM_CARDS), dtype=np.int64)
    for seat in range(rows):
        width = size if seat < players else variant.widow
        cards = shuffled[:, seat * size : seat * size + width]
        np.add.at(hands[:, seat], (np.arange(count)[:, None], cards), 1)
    return hands


def legal_bids(variant: Variant, top: float) -> np.ndarray:
    bidding, bids = variant.bidding, [variant.bidding.opening]
    while bids[-1] < top:
        bids.append(bidding.next_bid(bids[-1]))
    return np.array(bids)


def legal_floor(variant: Variant, levels: np.ndarray) -> np.ndarray:
    """The highest legal bid at or below each level; -1 below the opening bid."""
    finite = levels[np.isfinite(levels)]
    bids = legal_bids(variant, float(finite.max()) if len(finite) else 0.0)
    at = np.searchsorted(bids, np.where(np.isfinite(levels), levels, -1.0), side="right") - 1
    return np.where(at >= 0, bids[np.clip(at, 0, None)], -1)


def auction(variant: Variant, limits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The winner of each deal's auction (-1: no bid) and its contract: the seat whose
    limit is highest (the first to speak of equals), at the bid above the highest limit of
    the other sides (partners do not bid each other up; the opening at least, its own
    limit at most); the dealer (the last seat) at the opening bid where every seat passed
    and the dealer must bid."""
    bidding, sides = variant.bidding, sides_of(variant)
    winner = limits.argmax(axis=1)
    top = limits.max(axis=1)
    others = limits.copy()
    partners = (np.arange(limits.shape[1])[None, :] % sides) == (winner[:, None] % sides)
    others[partners] = -1
    second = others.max(axis=1)
    bids = legal_bids(variant, float(max(top.max(), bidding.opening)))
    above = bids[np.clip(np.searchsorted(bids, second, side="right"), 0, len(bids) - 1)]
    contract = np.minimum(np.maximum(above, bidding.opening), np.maximum(top, bidding.opening))
    nobody = top < bidding.opening
    if bidding.dealer_forced:
        winner = np.where(nobody, variant.players - 1, winner)
        contract = np.where(nobody, bidding.opening, contract)
    else:
        winner = np.where(nobody, -1, winner)
    return winner, contract


def play_hands(
    variant: Variant, hands: np.ndarray, trump: np.ndarray, widow: np.ndarray | None = None
) -> tuple[np.ndarray, ...]:
    """Each deal's meld, trick points, tricks taken and counters taken by side, from the
    bidder's (its side first, then the others in playing order): the widow taken by the
    bidder (its meld counted with it, the counters it buries its tricks) and the pass made
    where the variant has them, played out by meldcalc's player."""
    from meldcalc.dealing.passing import after_pass, passes
    from meldcalc.dealing.ready import take_widow
    from meldcalc.engines.simulate import Game, Table
    from meldcalc.rules.meld import engine_for

    players, sides = variant.players, sides_of(variant)
    buried = np.zeros(len(hands), dtype=np.int64)
    widow_meld = None
    if widow is not None:
        widow_meld = np.zeros(len(hands), dtype=np.int64)
        for suit in SUITS:
            rows = np.flatnonzero(trump == suit.index)
            if len(rows):
                dealt = np.concatenate([hands[rows], widow[rows, None]], axis=1)
                hands[rows], widow_meld[rows], buried[rows] = take_widow(dealt, variant, suit)
    if variant.passing is not None:
        for suit in SUITS:
            rows = np.flatnonzero(trump == suit.index)
            if len(rows):
                sent, back = passes(hands[rows], variant, suit, suit)
                hands[rows] = after_pass(hands[rows], sent, back)
    engine = engine_for(variant)
    seat_meld = np.zeros((len(hands), players), dtype=np.int64)
    for seat in range(players):
        totals = engine.totals(hands[:, seat])
        picked = np.stack([totals[suit] for suit in SUITS], axis=1)
        seat_meld[:, seat] = picked[np.arange(len(hands)), trump]
    if widow_meld is not None:
        seat_meld[:, 0] = widow_meld
    game = Game.from_counts(Table.of(variant, trump), hands, variant.deck.copies)
    out = game.play()
    side = np.arange(players) % sides

    def by_side(seats: np.ndarray) -> np.ndarray:
        return np.stack([seats[:, side == s].sum(axis=1) for s in range(sides)], axis=1)

    melds, tricks = by_side(seat_meld), by_side(out.seat_points)
    taken, counters = by_side(out.seat_tricks), by_side(out.seat_counters)
    tricks[:, 0] += buried
    counters[:, 0] += buried > 0  # a counter buried is one the bidder took
    return melds, tricks, taken, counters


def scored(
    variant: Variant,
    contract: np.ndarray,
    melds: np.ndarray,
    tricks: np.ndarray,
    taken: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """(N, sides + 2) each side's points, the bidder's first, as `meldcalc score` scores
    each hand (`settle.score_hands`, given the tricks and counters each side took), the
    highest bid the bidder's side makes with it (its reach: the meld that counts and the
    tricks) and its meld that counts."""
    from meldcalc.rules.settle import score_hands

    hands = score_hands(variant, contract, melds, tricks, *(taken or (None, None)))
    return np.column_stack([hands.points, hands.reach, hands.counted[:, 0]]).astype(np.int64)
