"""The reference player: perfect-information Monte Carlo over the exact solver.

A yardstick for the fast policy of `meldcalc.engines.simulate`, far stronger and far slower. The
seat to play deals the cards it cannot see in K ways (layouts) consistent with all it has
seen, values each of its legal cards in every layout, and plays the card with the best
average for its side (seat 0's side maximises, the others minimise):

- once ``exact_from`` tricks or fewer are left (the current one included), a card's value
  in a layout is exact: the double-dummy solver, every layout of every deal waiting on a
  decision in one call;
- before that, a play-out of the layout by the fast policy after the card (in one numpy
  batch for every layout, card and deal at once).

What a seat knows, and so what its layouts respect (`Seen`): its own hand; the cards
played; the cards each seat melded, laid on the table before the first lead, while it
still holds them; and the cards each seat has shown it does not hold: a seat that did not
follow has none of the led suit, one that did not trump either has no trump, and one that
did not head the trick or over-trump where the rules made it has nothing that would have.

Layouts are drawn uniformly from every deal of the unseen cards that fits that knowledge:
`meldcalc.dealing.unseen.sample_layouts` counts the deals by dynamic programming over how
many cards each seat has been given so far (each card's copies split among the seats that
may hold it, weighted by the ways physical copies can make that split), then draws
backwards. It never returns a layout the seat's knowledge rules out, and needs no retries.
What the cards a seat melded say about the cards it did not meld (it would have melded them)
is not used. With ``infer`` (hint's player), four times as many layouts are drawn that way
and those valued are drawn from them in proportion to the chance of the others' plays, and
bids where the auction is told, in each (`meldcalc.engines.inference`); the benches' player,
the fixed yardstick, draws uniformly.

Cards out of play that the seat cannot see (a widow another seat took and buried from)
are a `Hidden` pile: a row of the layouts that never plays, holding the cards known to be
in it, the rest drawn with the others.

The same seed gives the same play: every random draw comes from the player's generator, in
the order the decisions are taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from meldcalc.dealing.unseen import Seen, sample_layouts
from meldcalc.engines.simulate import Game
from meldcalc.engines.solve import card_values_many
from meldcalc.rules.bits import (
    BIT_OF,
    BITS,
    CARD_OF,
    counts_from_planes,
    lowest_bit_index,
    planes_from_counts,
)
from meldcalc.rules.cards import NUM_CARDS
from meldcalc.rules.variant import Variant

#: Layouts per decision and the tricks left from which values are exact. Against the
#: policy, exact from 5, 6, 7 or 8 tricks left and 24 or 48 layouts were alike within the
#: noise of 40-deal duplicate samples, and exact from 8 cost 17 times the time of 6.
LAYOUTS = 24
EXACT_FROM = 6


# --- what a seat knows ---------------------------------------------------------------------


def seen_by(game: Game, deal: int, held: np.ndarray | None = None) -> Seen:
    """What the seat to play in ``deal`` of ``game`` knows (``held``: `game.held()`, if
    already computed). Only the seat's own hand is read from the hands; the rest is what
    the table shows: the sizes and union of the other hands, and the game's ``shown`` and
    ``lacks``."""
    held = game.held() if held is None else held
    players = game.t.players
    seat = int(game.seat[deal])
    seats = slice(deal * players, (deal + 1) * players)
    known = np.zeros((players, NUM_CARDS), dtype=np.int64)
    if game.shown is not None:
        known = counts_from_planes(game.shown[:, seats])
    known[seat] = 0
    lacks = ((game.lacks[seats, None] >> BIT_OF) & 1).astype(bool)
    lacks[seat] = False
    hand = held[deal, seat]
    return Seen(seat, hand, held[deal].sum(axis=0) - hand, held[deal].sum(axis=1), known, lacks)


@dataclass(frozen=True)
class Hidden:
    """Cards out of play the seat cannot see: ``pool`` (24,), the copies of each card
    among them or among the other hands (as a deal that fits the history left them over),
    ``size`` cards in all, of which ``known`` (24,) are known to be there."""

    pool: np.ndarray
    size: int
    known: np.ndarray

    def added_to(self, seen: Seen) -> Seen:
        """``seen`` with the pile as one more row, after the seats."""
        return Seen(
            seen.seat,
            seen.hand,
            seen.unseen + self.pool,
            np.append(seen.sizes, self.size),
            np.vstack([seen.known, self.known]),
            np.vstack([seen.lacks, np.zeros(NUM_CARDS, dtype=bool)]),
        )


# --- the player ----------------------------------------------------------------------------


def play(game: Game, players: dict[int, Reference], record: bool = False) -> np.ndarray:
    """Play ``game`` to the end with ``players`` (seat -> player) in their seats and the
    policy in the others; returns the (N, 2) team points (and, with ``record``, the cards
    stay readable through `Game.recorded`)."""
    if record:
        game.record()
    while not game.over:
        bits = game.policy_cards()
        for player in dict.fromkeys(players.values()):
            seats = [seat for seat, who in players.items() if who is player]
            rows = np.flatnonzero(np.isin(game.seat, seats))
            if len(rows):
                bits[rows] = player.choose(game, rows)
        game.advance(bits)
    return game.team_points


@dataclass(eq=False)
class Reference:
    """The PIMC player: `choose` picks its cards, `play` seats it at a table. Its layouts
    are played out by ``rollout``'s policy (a `Game` class; by default the game's own): a
    benchmark holds it fixed, so that its yardstick does not move with the policy it
    judges."""

    variant: Variant
    layouts: int = LAYOUTS
    exact_from: int = EXACT_FROM
    seed: int = 0
    rollout: type[Game] | None = None
    hidden: Hidden | None = None
    #: weigh the layouts by the others' plays (`meldcalc.engines.inference`), and by their
    #: bids where the auction is told (an `inference.Told`)
    infer: bool = False
    auction: object | None = None
    rng: np.random.Generator = field(init=False)
    weighings: list = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def choose(self, game: Game, rows: np.ndarray) -> np.ndarray:
        """The card (bit) this player plays for the seat to play in deals ``rows``."""
        legal = game.legal()[rows]
        bits = lowest_bit_index(legal)
        choices = np.flatnonzero(np.bitwise_count(legal) > 1)
        for i, (cards, values) in zip(choices, self.values(game, rows[choices])):
            bits[i] = BIT_OF[cards[_best(values)]]
        return bits

    def values(self, game: Game, rows: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """For the seat to play in each of deals ``rows``: its legal cards (canonical) and
        the mean value of each over the layouts, higher is better for the seat's side
        (seat 0's side's points from here on, negated for the other side)."""
        sides = game.t.team[game.seat[rows]]
        return [
            (cards, value.mean(axis=1) if side == 0 else -value.mean(axis=1))
            for (cards, value), side in zip(self.layout_values(game, rows), sides)
        ]

    def layout_values(
        self, game: Game, rows: np.ndarray, team: int = 0
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """For the seat to play in each of deals ``rows``: its legal cards (canonical) and
        the value of each in every layout drawn ((cards, layouts): ``team``'s points from
        here on, the cards on the table included; team 0 is seat 0's side), exact or played
        out as `is_exact` says."""
        if not len(rows):
            return []
        legal = game.legal()[rows]
        options = [CARD_OF[np.flatnonzero((mask >> np.arange(BITS)) & 1)] for mask in legal]
        layouts = self._layouts(game, rows)
        if self.is_exact(game):
            values = self._exact(game, rows, layouts, options)
            if team:
                values = [
                    _in_play(game, row, layouts[i], self.variant)[None] - value
                    for i, (row, value) in enumerate(zip(rows, values))
                ]
            return list(zip(options, values))
        return list(zip(options, self._rolled_out(game, rows, layouts, options, team)))

    def _layouts(self, game: Game, rows: np.ndarray) -> np.ndarray:
        """(rows, layouts, players, 24) counts: the deals of the unseen cards each seat to
        play values its cards in. Uniform among those that fit what it has seen; with
        ``infer`` (and a game that kept its past), drawn in proportion to the chance of the
        others' plays in each (`meldcalc.engines.inference`), how each row was weighed kept
        in ``weighings``."""
        self.weighings = []
        if not self.infer or not (_others_played(game, rows) or self._others_bid(game, rows)):
            return self._drawn(game, rows, self.layouts)
        from meldcalc.engines.inference import candidates_for, read_layouts

        candidates = self._drawn(game, rows, candidates_for(self.layouts))
        layouts, self.weighings = read_layouts(
            game, rows, candidates, self.layouts, self.rng, auction=self.auction
        )
        return layouts

    def _others_bid(self, game: Game, rows: np.ndarray) -> bool:
        """Whether an auction is told and a seat other than the one to play spoke in it."""
        if self.auction is None or game._past is None:
            return False
        spoke = {seat for seat, _ in self.auction.bids}
        return bool(spoke - set(game.seat[rows].tolist()))

    def _drawn(self, game: Game, rows: np.ndarray, count: int) -> np.ndarray:
        """(rows, count, players, 24) counts: deals of the unseen cards for each seat to
        play, uniformly among those that fit what it has seen (a hidden pile drawn with
        them, then set aside)."""
        held = game.held()
        seen = [seen_by(game, row, held) for row in rows]
        if self.hidden is not None:
            seen = [self.hidden.added_to(one) for one in seen]
        players = game.t.players
        return np.stack([sample_layouts(one, count, self.rng)[:, :players] for one in seen])

    def is_exact(self, game: Game) -> bool:
        """Whether the values at this point of ``game`` are the exact solver's (few enough
        tricks left), else play-outs by the policy."""
        return _tricks_left(game) <= self.exact_from

    def _exact(
        self, game: Game, rows: np.ndarray, layouts: np.ndarray, options: list[np.ndarray]
    ) -> list[np.ndarray]:
        """The exact value of each option in each layout, per deal."""
        count = self.layouts
        trick = np.full((len(rows), game.t.players - 1), -1, dtype=np.int64)
        trick[:, : game.position] = CARD_OF[game.on_table[rows, : game.position]]
        _, per_card = card_values_many(
            layouts.reshape(-1, *layouts.shape[2:]),
            np.repeat(game.t.trump[rows], count),
            np.repeat(game.leader[rows], count),
            self.variant,
            np.repeat(trick, count, axis=0),
        )
        per_card = per_card.reshape(len(rows), count, NUM_CARDS)
        return [per_card[i][:, cards].T for i, cards in enumerate(options)]

    def _rolled_out(
        self,
        game: Game,
        rows: np.ndarray,
        layouts: np.ndarray,
        options: list[np.ndarray],
        team: int = 0,
    ) -> list[np.ndarray]:
        """The value of each option in each layout, played out by the policy, per deal."""
        count = self.layouts
        deals = np.concatenate(
            [np.repeat(row, len(cards) * count) for row, cards in zip(rows, options)]
        )
        hands = np.concatenate(
            [np.tile(layouts[i], (len(cards), 1, 1)) for i, cards in enumerate(options)]
        )
        first = np.concatenate([np.repeat(BIT_OF[cards], count) for cards in options])
        planes = planes_from_counts(hands, self.variant.deck.copies)
        played_out = game.fork(deals, planes, self.rollout)
        played_out.advance(first)
        points = played_out.play().team_points[:, team]
        ends = np.cumsum([len(cards) * count for cards in options])
        return [
            part.reshape(len(cards), count)
            for part, cards in zip(np.split(points, ends[:-1]), options)
        ]


def _others_played(game: Game, rows: np.ndarray) -> bool:
    """Whether ``game`` kept its past and, in one of deals ``rows``, a seat other than the
    one to play now has played a card since: else no play is there to read."""
    if game._past is None:
        return False
    seats = game.past.seats[rows]
    return bool((seats != game.seat[rows, None]).any())


def _in_play(game: Game, row: int, layouts: np.ndarray, variant: Variant) -> np.ndarray:
    """(layouts,) the trick points still to take in each layout of deal ``row``: the cards
    in its hands and on the table, and the last trick's."""
    from meldcalc.engines.solve import counter_of

    counters = np.array([counter_of(variant, card) for card in range(NUM_CARDS)])
    on_table = CARD_OF[game.on_table[row, : game.position]]
    return layouts.sum(axis=1) @ counters + counters[on_table].sum() + variant.last_trick


def _tricks_left(game: Game) -> int:
    """Tricks still to finish, the current one included."""
    return (game.cards_left + game.position) // game.t.players


def _best(values: np.ndarray) -> int:
    """The index of the best value; of equal ones the last (the lowest card of its suit)."""
    return len(values) - 1 - int(np.argmax(values[::-1]))
