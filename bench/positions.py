"""Decisions kept as positions: enough of a game's state to set the game up again.

The training data of the learned policy (bench/train_policy.py) keeps each decision as the
position it was taken in, not as features, so that a new set of features is worked out
from the same labels without playing the games again. A position is every hand (the
real cards, of which the features read only the seat's own), the meld still on the table,
the cards each seat has shown it lacks, and the trick so far; `games` sets up the positions
again as `Game` batches, those taken at the same point of play together.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from meldcalc.engines.simulate import Game, Table
from meldcalc.rules.bits import counts_from_planes, planes_from_counts
from meldcalc.rules.variant import Variant

#: The arrays of a position, per decision.
FIELDS = (
    "hands",  # (SEATS, 24) counts of every seat's cards
    "shown",  # (SEATS, 24) counts of the melded cards each seat still holds
    "lacks",  # (SEATS,) masks of the cards each seat has shown it lacks
    "on_table",  # (SEATS,) bits of the trick so far, by position (-1 beyond it)
    "leader",
    "position",
    "best",
    "best_pos",
    "cards_left",
    "trump",
)


#: The seats a position keeps room for: games of fewer leave the last ones empty, so that
#: the positions of every game sit in the same arrays.
SEATS = 4


def positions(game: Game, rows: np.ndarray) -> dict[str, np.ndarray]:
    """The positions of deals ``rows`` of ``game`` (all at the same point of play)."""
    players = game.t.players
    assert players <= SEATS, f"a position keeps {SEATS} seats"
    count = len(rows)
    spare = ((0, 0), (0, SEATS - players))
    shown = (
        np.zeros((len(rows), players, 24), dtype=np.int8)
        if game.shown is None
        else counts_from_planes(game.shown.reshape(game.hands.shape)[:, rows])
    )
    on_table = np.full((count, SEATS), -1, dtype=np.int8)
    on_table[:, : game.position] = game.on_table[rows, : game.position]
    return {
        "hands": np.pad(counts_from_planes(game.hands[:, rows]), (*spare, (0, 0))).astype(np.int8),
        "shown": np.pad(shown, (*spare, (0, 0))).astype(np.int8),
        "lacks": np.pad(game.lacks.reshape(-1, players)[rows], spare),
        "on_table": on_table,
        "leader": game.leader[rows].astype(np.int8),
        "position": np.full(count, game.position, dtype=np.int8),
        "best": game.best[rows].astype(np.int8),
        "best_pos": game.best_pos[rows].astype(np.int8),
        "cards_left": np.full(count, game.cards_left, dtype=np.int16),
        "trump": game.t.trump[rows].astype(np.int8),
    }


def games(
    variant: Variant, kept: dict[str, np.ndarray], policy: type[Game] = Game
) -> Iterator[tuple[np.ndarray, Game]]:
    """The positions of ``kept`` set up again, as (their indices, a game of them) batches of
    positions at the same point of play, in the order of their first position."""
    point = kept["cards_left"].astype(np.int64) * 8 + kept["position"]
    _, first, which = np.unique(point, return_index=True, return_inverse=True)
    for batch in np.argsort(first):
        rows = np.flatnonzero(which == batch)
        yield rows, _game(variant, {name: kept[name][rows] for name in FIELDS}, policy)


def _game(variant: Variant, kept: dict[str, np.ndarray], policy: type[Game]) -> Game:
    copies, players = variant.deck.copies, variant.players
    counts = kept["hands"][:, :players].astype(np.int64)
    table = Table.of(variant, kept["trump"].astype(np.int64))
    game = policy(
        table,
        planes_from_counts(counts, copies),
        planes_from_counts(counts.sum(axis=1), copies),
        kept["leader"].astype(np.int64),
        shown=planes_from_counts(kept["shown"][:, :players].astype(np.int64), copies),
    )
    position = int(kept["position"][0])
    game.lacks = kept["lacks"][:, :players].ravel().copy()
    game.on_table = np.maximum(kept["on_table"][:, :players].astype(np.int64), 0)
    game.on_table[:, position:] = 0
    game.position = position
    game.best = kept["best"].astype(np.int64)
    game.best_pos = kept["best_pos"].astype(np.int64)
    game.cards_left = int(kept["cards_left"][0])
    game._seat_up()
    return game
