"""The look-ahead player: the reference's Monte Carlo, cheap enough to play many deals.

`meldcalc.engines.reference` values each legal card over 24 layouts of the unseen cards, exact
from 6 tricks left. This player asks the same question with less: 16 layouts, play-outs by
the fast policy to the end, exact values only over the last 3 tricks, and the layouts of
every deal waiting on a decision drawn at once in numpy rather than one deal at a time.
In duplicate against the reference it is as strong, where the fast policy gives up 15-25
trick points a deal (README "How strong it is"), at about a tenth of the reference's cost
in single deck: `bid --strong N` plays its N deals with it.

The layouts respect everything the seat has seen, as the reference's do (its own hand, the
cards played, the meld on the table, the suits and cards each seat has shown it lacks), but
they are drawn by dealing, not counted: the unseen cards one at a time, those the fewest
seats may hold first, each to a seat that may hold it with odds in proportion to the room
left in its hand over the cards that could still fill it (so a seat that must take every
card it may hold takes them). Without constraints that is a uniform deal; with them it is
close to one (each card's odds of lying in each hand within 0.05 of the exact sampler's
in 79 of 80 positions measured, 0.10 in the last). A draw that finds no seat for a card
is drawn again by the reference's sampler: a guard, never needed in 58,000 draws of play
(single deck, three-handed, double deck) nor in 54,000 random sets of constraints.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meldcalc.dealing.unseen import deal_layouts, sample_layouts
from meldcalc.engines.reference import Reference, seen_by
from meldcalc.engines.simulate import Game
from meldcalc.rules.bits import BIT_OF, MASK, counts_from_planes

#: Layouts per decision and the tricks left from which values are exact. Measured in
#: duplicate against the reference, single deck, the strong hand (trick points a deal the
#: reference takes over it): 4 layouts to the end 12.6 ± 3.3 (40 deals), 8 layouts 3.6 ±
#: 2.8 (80), 8 exact from 3 tricks 6.1 ± 2.9 (80) and 8.3 ± 1.5 (150) at half the cost,
#: 16 exact from 3 0.3 ± 1.7 (150); looking ahead at the leads alone
#: 18.4 ± 2.4 (80: no better than the policy, whose losses are as much in its follows).
LAYOUTS = 16
EXACT_FROM = 3


@dataclass(eq=False)
class LookAhead(Reference):
    """The reference with fewer layouts, drawn for all deals at once (module docstring)."""

    layouts: int = LAYOUTS
    exact_from: int = EXACT_FROM

    def _drawn(self, game: Game, rows: np.ndarray, count: int) -> np.ndarray:
        """(rows, count, players, 24) counts: each seat to play's layouts, dealt for all
        of ``rows`` at once; a draw that found no seat for a card drawn again exactly."""
        known = what_is_seen(game, rows)
        layouts, failed = deal_layouts(*known, count, self.variant.deck.copies, self.rng)
        for i in np.unique(np.flatnonzero(failed) // count):
            again = failed[i * count : (i + 1) * count]
            seen = seen_by(game, int(rows[i]))
            drawn = sample_layouts(seen, int(again.sum()), self.rng)
            layouts[i * count : (i + 1) * count][again] = drawn
        return layouts.reshape(len(rows), count, *layouts.shape[1:])


def what_is_seen(
    game: Game, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For the seat to play in each of deals ``rows``: every hand as the seat knows it
    ((R, players, 24) counts: its own, and the cards each other seat melded and still
    holds), the unseen cards left to deal ((R, 24)), the room left in each hand ((R,
    players), none in its own) and where a seat may be dealt a card ((R, players, 24)).
    Of the real hands only the seat's own is read; of the others, what the table shows:
    their sizes and their union (every card not yet played, less its own)."""
    players, count = game.t.players, len(rows)
    held = counts_from_planes(game.hands[:, rows])  # (R, players, 24)
    seat = game.seat[rows]
    at = np.arange(count)
    known = np.zeros_like(held)
    if game.shown is not None:
        known = counts_from_planes(game.shown.reshape(game.hands.shape)[:, rows])
    known[at, seat] = held[at, seat]
    free = held.sum(axis=1) - known.sum(axis=1)
    room = held.sum(axis=2) - known.sum(axis=2)
    lacks = game.lacks.reshape(-1, players)[rows].astype(MASK)
    may_hold = ((lacks[..., None] >> BIT_OF.astype(MASK)) & 1) == 0
    may_hold[at, seat] = False
    return known, free, room, may_hold
