"""The deals the play benches share, in every game of the rules.

A bench names its game with ``--variant`` (one of `GAMES` or any variant file). Seat 0 is
the bidder and leads; before play the deal is made ready the way every deal `bid`
simulates is: a widow is taken and buried by `bid`'s rule of thumb (three-handed: 3 cards;
double-deck three-handed: a 5-card kitty), a pass is made by the passing policy (under the
Toby Thomas exchange the bidder asks for the suit it names trump), and every seat lays its
meld on the table. The bidding side's meld (the bidder's of all its cards, widow included,
and each partner's after any pass) and the points buried are kept beside the hands.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.knowledge import partner_seats
from meldcalc.dealing.passing import after_pass, passes
from meldcalc.dealing.ready import take_widow
from meldcalc.engines.simulate import Game, Table
from meldcalc.rules.bits import planes_from_counts
from meldcalc.rules.cards import SUITS, Hand, Suit
from meldcalc.rules.meld import engine_for, melded_cards
from meldcalc.rules.variant import Variant, may_name_trump

#: The games every play bench runs: the dominant forms of the rules, each with its own
#: way of making the hands ready (none, a widow, a kitty, the exchange).
GAMES = (
    "single-deck",
    "double-deck",
    "three-handed",
    "double-deck-three-handed",
    "double-deck-toby-thomas",
)


@dataclass(frozen=True)
class Deals:
    """Deals ready for play: (N, players, 24) counts, each deal's trump, the bidding side's
    meld and the points the bidder buried (they count for its side)."""

    counts: np.ndarray
    trumps: np.ndarray
    meld: np.ndarray
    buried: np.ndarray

    def __len__(self) -> int:
        return len(self.trumps)


def fixed_hand_deals(variant: Variant, hand: str, trump: Suit, count: int, seed: int) -> Deals:
    """``count`` deals of the bidder's ``hand``, the other cards dealt at random."""
    dealt = deal_counts(variant, count, np.random.default_rng(seed), bidder=Hand.parse(hand))
    return ready(variant, dealt, np.full(count, trump.index))


def random_hand_deals(variant: Variant, count: int, seed: int) -> Deals:
    """``count`` random deals, the bidder's trump its longest suit it may name."""
    dealt = deal_counts(variant, count, np.random.default_rng(seed))
    return ready(variant, dealt, np.array([bidders_trump(variant, hand) for hand in dealt[:, 0]]))


def bidders_trump(variant: Variant, counts: np.ndarray) -> int:
    """The bidder's longest suit of those it may name (double deck: with a marriage in
    it; with none, any); of equally long ones the better meld, then S H D C."""
    hand = Hand(counts.tolist())
    melds = engine_for(variant).all_trumps(hand)
    meld_of = {result.trump.index: result.total for result in melds}
    length = counts.reshape(len(SUITS), -1).sum(axis=1)
    allowed = [suit for suit in SUITS if may_name_trump(hand, variant, suit)] or list(SUITS)
    return max((s.index for s in allowed), key=lambda s: (length[s], meld_of[s], -s))


def ready(
    variant: Variant, dealt: np.ndarray, trumps: np.ndarray, asks: np.ndarray | None = None
) -> Deals:
    """Deals as dealt ((N, players + 1, 24), the widow last) made ready for play under
    each deal's trump (module docstring); ``asks``: under an exchange, the suit the bidder
    asks for in each deal (by default its trump)."""
    asks = trumps if asks is None else asks
    players, engine = variant.players, engine_for(variant)
    counts = dealt[:, :players].copy()
    meld = np.zeros(len(dealt), dtype=np.int64)
    buried = np.zeros(len(dealt), dtype=np.int64)
    for index, asked in sorted(set(zip(trumps.tolist(), asks.tolist()))):
        rows, trump = (trumps == index) & (asks == asked), SUITS[index]
        if variant.widow:
            counts[rows], meld[rows], buried[rows] = take_widow(dealt[rows], variant, trump)
        else:
            seats = dealt[rows, :players]
            if variant.passing is not None:
                ask = SUITS[asked] if variant.passing.kind == "exchange" else None
                seats = after_pass(seats, *passes(seats, variant, trump, ask))
            counts[rows], meld[rows] = seats, engine.totals(seats[:, 0])[trump]
        for seat in partner_seats(variant):
            meld[rows] += engine.totals(counts[rows, seat])[trump]
    return Deals(counts, trumps, meld, buried)


def new_game(variant: Variant, deals: Deals, policy: type[Game] = Game) -> Game:
    """A fresh game of the deals, every seat's meld on the table, seat 0 to lead, the
    seats played by ``policy`` (a `Game` class) where no other player sits."""
    copies = variant.deck.copies
    shown = melded_cards(variant, deals.counts, deals.trumps)
    table = Table.of(variant, deals.trumps)
    return policy.from_counts(table, deals.counts, copies, shown=planes_from_counts(shown, copies))


def bidding_seats(variant: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bidder's side's seats and the defenders'."""
    bidders = (0, *partner_seats(variant))
    return bidders, tuple(seat for seat in range(variant.players) if seat not in bidders)


def side_totals(variant: Variant, deals: Deals, points: np.ndarray) -> np.ndarray:
    """What the bidding side scores towards its bid: its meld (nothing below the variant's
    meld minimum, as `bid` counts it) and its trick points, the buried ones included."""
    meld = deals.meld
    if variant.meld_minimum:
        meld = np.where(meld >= variant.meld_minimum, meld, 0)
    return meld + points + deals.buried


def mean_se(values: np.ndarray) -> str:
    se = values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return f"{values.mean():6.1f} ± {se:4.1f}"
