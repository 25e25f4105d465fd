"""`review` held to the plain minimax, card by card, on whole small deals of house decks.

A review solves the first position of a deal with nothing in the solver's table yet: it
values the card played first, over its own subtree, then probes whether another card does
better (the C search's `value_through`); later positions reuse the table. Every price a
review gives (each card's cost, the cards as good as any, the deal's value, and for a deal
that stops part way what best play from there gives) must be what `meldcalc.engines.minimax`
says. Seeded deals of 3 to 6 tricks on decks that skip ranks, hold 1 to 4 copies, count
unusual values, or drop the heading and over-trumping duties, played by random legal cards
and stopped anywhere from the first card to the last; any seat leads trick 1, so the first
position's card is played by either side. A review that compares only one seat's cards with
the others they could have been gives every other price the same.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from meldcalc.advice.replay import replay
from meldcalc.advice.review import review
from meldcalc.engines import minimax
from meldcalc.engines.solve import Position, seat_sides
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS, RANKS, SUITS, Card, Hand, Rank
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Deck, Variant

pytest.importorskip("meldcalc.engines._solver", reason="the C solver is not built")

A, TEN, K, Q, J, NINE = RANKS
BASES = {2: "two-handed", 3: "three-handed", 4: "single-deck"}


@dataclasses.dataclass(frozen=True)
class Shape:
    """A house deck: who plays, the ranks and copies, the counters (by rank, the others
    count nothing), the last trick's bonus, the trick duties and the cards dealt each."""

    players: int
    ranks: tuple[Rank, ...]
    copies: int
    counters: dict[Rank, int]
    tricks: int
    last_trick: int = 10
    head: str = "always"
    overtrump: bool = True

    def variant(self) -> Variant:
        base = load_variant(BASES[self.players])
        size = len(SUITS) * len(self.ranks) * self.copies
        return dataclasses.replace(
            base,
            name=f"{self.players}p-{''.join(r.value for r in self.ranks)}-x{self.copies}",
            deck=Deck(self.ranks, self.copies),
            hand_size=self.tricks,
            widow=size - self.players * self.tricks,  # the cards not dealt
            stock=0,
            counters=dict(self.counters),
            last_trick=self.last_trick,
            head=self.head,
            overtrump=self.overtrump,
        )


SHAPES = {
    "four-ranks-one-copy": Shape(4, (A, TEN, K, Q), 1, {A: 10, TEN: 10, K: 5}, 4),
    "no-ace-no-king-two-copies": Shape(
        4, (TEN, Q), 2, {TEN: 10, Q: 3}, 4, head="trump-led", overtrump=False
    ),
    "one-rank-four-copies": Shape(4, (K,), 4, {K: 5}, 4),
    "zero-run-on-top": Shape(4, (A, J, NINE), 1, {NINE: 3}, 3, head="never"),
    "every-rank-different": Shape(4, (A, TEN, Q, J), 1, {A: 11, TEN: 10, Q: 3, J: 2}, 4),
    "last-trick-only": Shape(4, (A, K, Q), 1, {}, 3),
    "odd-counters-three-copies": Shape(
        4, (TEN, NINE), 3, {TEN: 7, NINE: 2}, 3, last_trick=3, overtrump=False
    ),
    "full-deck-part-dealt": Shape(4, RANKS, 2, {A: 10, TEN: 10, K: 5}, 4),
    "three-hands-widow": Shape(3, (A, TEN, K, Q), 1, {A: 11, TEN: 10, K: 4, Q: 3}, 5),
    "three-hands-two-ranks": Shape(3, (A, NINE), 2, {A: 10}, 5, head="trump-led"),
    "two-hands": Shape(2, (A, TEN, K, J), 1, {A: 10, TEN: 10, K: 5}, 6, overtrump=False),
}
DEALS = 12  # per shape


def play_at_random(
    hands: list[list[int]], variant: Variant, trump, leader: int, rng: random.Random
) -> list[str]:
    """Random legal cards from ``leader``'s lead to the end of the deal, by name."""
    held = [list(hand) for hand in hands]
    cards: list[str] = []
    while any(held[0]):
        table: list[int] = []
        for i in range(variant.players):
            seat = (leader + i) % variant.players
            legal = legal_cards(held[seat], table, trump, variant.head, variant.overtrump)
            card = rng.choice(legal)
            held[seat][card] -= 1
            table.append(card)
            cards.append(CARD_NAMES[card])
        leader = (leader + winning_position(table, trump)) % variant.players
    return cards


def minimax_prices(hands, variant: Variant, trump, leader: int, cards: list[str]):
    """For each card played, the minimax's value of every legal card of the position
    before it, and the seat that played it."""
    held = [list(hand.counts) for hand in hands]
    priced, table = [], []
    for name in cards:
        seat = (leader + len(table)) % variant.players
        position = Position(tuple(Hand(h) for h in held), trump, leader, tuple(table))
        priced.append((seat, minimax.card_values(position, variant)))
        card = CARD_NAMES.index(name)
        held[seat][card] -= 1
        table.append(card)
        if len(table) == variant.players:
            leader = (leader + winning_position(table, trump)) % variant.players
            table = []
    return priced


@pytest.mark.parametrize("name", SHAPES)
def test_every_price_a_review_gives_is_the_plain_minimaxs(name: str) -> None:
    variant = SHAPES[name].variant()
    sides = seat_sides(variant)
    rng = random.Random(name)
    deck = [Card(rank, suit).index for suit in SUITS for rank in variant.deck.ranks]
    deck *= variant.deck.copies
    uncompared = 0  # cards whose alternatives the brief review left alone
    for number in range(DEALS):
        rng.shuffle(deck)
        size = variant.hand_size
        dealt = [deck[seat * size : (seat + 1) * size] for seat in range(variant.players)]
        counts = [[cards.count(card) for card in range(NUM_CARDS)] for cards in dealt]
        trump, leader = rng.choice(SUITS), rng.randrange(variant.players)
        played = play_at_random(counts, variant, trump, leader, rng)
        # the whole deal, or stopped after 1, 2 or 3 cards, after trick 1 or anywhere
        stop = rng.choice([len(played)] * 3 + [1, 2, 3, variant.players])
        stop = rng.randrange(1, len(played) + 1) if number % 4 == 3 else stop
        cards = played[:stop]
        hands = [Hand(c) for c in counts]
        deal = replay(hands, variant, trump, leader, cards)
        reviewed = review(deal, variant, time_limit=None)
        mine = rng.randrange(variant.players)  # the one seat whose cards are all compared
        brief = review(deal, variant, time_limit=None, compared=(mine,))
        expected = minimax_prices(hands, variant, trump, leader, cards)
        where = f"{variant.name} deal {number}: {trump.value}, leader {leader}, played {cards}"
        assert len(reviewed.cards) == len(cards), where
        for i, (card, (seat, values)) in enumerate(zip(reviewed.cards, expected)):
            wanted = (max if sides[seat] == 0 else min)(values.values())
            best = tuple(CARD_NAMES[c] for c in sorted(values) if values[c] == wanted)
            cost = abs(wanted - values[CARD_NAMES.index(card.card)])
            assert (card.seat, card.card) == (seat, cards[i]), where
            assert (card.cost, card.best) == (cost, best), f"{where}: card {i + 1} {card.card}"
            # compared with the others where asked or where it cost something; else None,
            # unless the others play alike (no search tells them apart)
            compared = seat == mine or cost
            named = (best,) if compared else (None, best)
            assert brief.cards[i].cost == cost and brief.cards[i].best in named, f"{where}: {i}"
            uncompared += brief.cards[i].best is None
        assert (brief.value, brief.taken, brief.then_best) == (
            reviewed.value,
            reviewed.taken,
            reviewed.then_best,
        ), where
        first_seat, first_values = expected[0]
        value = (max if sides[first_seat] == 0 else min)(first_values.values())
        assert reviewed.value == value, where
        if reviewed.then_best is not None:  # stopped part way: as played, then best play
            before = sum(t.points for t in deal.tricks[:-1] if sides[t.winner] == 0)
            last = expected[-1][1][CARD_NAMES.index(cards[-1])]
            assert reviewed.then_best == before + last, where
    assert uncompared, "the brief review compared every card: nothing above was held to it"
