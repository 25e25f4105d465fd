"""A fast bid model: the level a hand would bid to, from its meld and its trick strength.

`meldcalc bid` simulates a hand's deals to find the bid it makes 70% of the time. Judging
what an auction says of the other seats' hands needs that level for thousands of unseen
hands at once, so this model stands in for the simulation: under each trump the hand could
name, its meld (the meld engine's, exact) plus a linear formula of its trick strength
(trumps held, aces and tens in and out of trump, void suits, counters) times the
variant's trick points, plus a constant (the partner's expected meld, where there is one).
The hand's bid is the most of those over the trumps it may name.

The formula's weights are fitted by least squares to `bid`'s own levels (the 30th
percentile of its simulated totals, under every trump, 300 deals each) on seeded random
hands (`bench/fit_bidmodel.py`, which prints how far the model is from `bid` on held-out
hands), one fit a family of games: the copies of each card (2 single deck, 4 double
deck), four seats in partnerships or three each for himself, with a widow or without. A
house file takes its family's weights, scaled by its own trick points. The weights are a
small file shipped in the package (`bidmodel.json`), read on first use and checked (its
version, its features).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import RANKS, SUITS, Rank, Suit
from meldcalc.rules.variant import Variant

#: The trick-strength features, per trump, in the order of the weights.
FEATURES = (
    "trumps",
    "trump_aces",
    "trump_tens",
    "side_aces",
    "side_tens",
    "voids",
    "counters",
)
#: The weights file's format: a file of another version is refused.
VERSION = 1
WEIGHTS = "bidmodel.json"


def family(variant: Variant) -> str:
    """The family of games whose weights a variant takes: ``2x4p`` single deck (two copies
    of each card), four seats in partnerships; ``4x3sw`` double deck, three seats each for
    himself, with a widow."""
    paired = variant.paired
    widow = "w" if variant.widow else ""
    return f"{variant.deck.copies}x{variant.players}{'p' if paired else 's'}{widow}"


def trick_strength(counts: np.ndarray, variant: Variant) -> dict[Suit, np.ndarray]:
    """(N, len(FEATURES)) trick-strength features of (N, 24) hands under each trump."""
    per_suit = len(RANKS)
    by_suit = counts.reshape(len(counts), len(SUITS), per_suit)
    ace, ten = RANKS.index(Rank.ACE), RANKS.index(Rank.TEN)
    counter_values = np.array([variant.counters.get(rank, 0) for rank in RANKS])
    counters = (by_suit * counter_values).sum(axis=(1, 2)) / max(1, variant.trick_total) * 10
    lengths = by_suit.sum(axis=2)
    found = {}
    for suit in SUITS:
        side = [s.index for s in SUITS if s is not suit]
        found[suit] = np.stack(
            [
                lengths[:, suit.index],
                by_suit[:, suit.index, ace],
                by_suit[:, suit.index, ten],
                by_suit[:, side, ace].sum(axis=1),
                by_suit[:, side, ten].sum(axis=1),
                (lengths[:, side] == 0).sum(axis=1),
                counters,
            ],
            axis=1,
        ).astype(float)
    return found


@dataclass(frozen=True)
class BidModel:
    """One family's fitted weights: ``weights`` (constant first, then one a feature) give
    the trick points and partner's meld a hand adds to its meld, as a share of the
    variant's trick points; ``spread``, the residual's standard deviation (same unit)."""

    family: str
    weights: np.ndarray
    spread: float

    def levels_by_trump(self, counts: np.ndarray, variant: Variant) -> dict[Suit, np.ndarray]:
        """(N,) the level each of (N, 24) hands bids to under each trump it may name
        (-inf under a trump it may not)."""
        from meldcalc.rules.meld import engine_for

        melds = engine_for(variant).totals(counts)
        strength = trick_strength(counts, variant)
        levels = {}
        for suit in SUITS:
            share = self.weights[0] + strength[suit] @ self.weights[1:]
            level = melds[suit] + share * variant.trick_total
            if variant.bidding is not None and variant.bidding.marriage_in_trump:
                allowed = _has_marriage(counts, suit)
                level = np.where(allowed, level, -np.inf)
            levels[suit] = level
        return levels

    def levels(self, counts: np.ndarray, variant: Variant) -> np.ndarray:
        """(N,) the level each hand bids to: its best over the trumps it may name."""
        return np.max(np.stack(list(self.levels_by_trump(counts, variant).values())), axis=0)

    def spread_points(self, variant: Variant) -> float:
        """The model's error, in the variant's points (one standard deviation)."""
        return self.spread * variant.trick_total


def _has_marriage(counts: np.ndarray, suit: Suit) -> np.ndarray:
    king, queen = RANKS.index(Rank.KING), RANKS.index(Rank.QUEEN)
    start = suit.index * len(RANKS)
    return (counts[:, start + king] > 0) & (counts[:, start + queen] > 0)


def model_for(variant: Variant) -> BidModel:
    """The bid model of ``variant``'s family (a house file of another shape takes the
    nearest: the same deck, then any)."""
    models = _load()
    key = family(variant)
    if key in models:
        return models[key]
    same_deck = [name for name in models if name.startswith(f"{variant.deck.copies}x")]
    return models[(same_deck or sorted(models))[0]]


@cache
def _load() -> dict[str, BidModel]:
    """The shipped weights, checked: a damaged or mismatched file is one clear error."""
    where = f"meldcalc/dealing/{WEIGHTS}"
    try:
        data = json.loads(resources.files("meldcalc.dealing").joinpath(WEIGHTS).read_text())
    except (OSError, ValueError) as error:
        raise MeldcalcError(f"{where}: the bid model's weights cannot be read: {error}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise MeldcalcError(
            f"{where}: weights of version {data.get('version') if isinstance(data, dict) else '?'},"
            f" this meldcalc reads version {VERSION}: reinstall meldcalc"
        )
    if data.get("features") != list(FEATURES):
        raise MeldcalcError(f"{where}: the weights are for other features: reinstall meldcalc")
    models = {}
    for key, fitted in data.get("families", {}).items():
        weights = np.array(fitted.get("weights", []), dtype=float)
        spread = fitted.get("spread")
        if weights.shape != (len(FEATURES) + 1,) or not isinstance(spread, (int, float)):
            raise MeldcalcError(f"{where}: family {key!r}: expected {len(FEATURES) + 1} weights")
        models[key] = BidModel(key, weights, float(spread))
    if not models:
        raise MeldcalcError(f"{where}: no family of weights: reinstall meldcalc")
    return models


def fit(
    counts: np.ndarray, levels: dict[Suit, np.ndarray], variant: Variant, features: bool = True
) -> np.ndarray:
    """Least-squares weights from (N, 24) hands and `bid`'s level under each trump (NaN
    where the hand may not name it); returns the weights, then the residual spread. With
    ``features`` False only the constant is fitted (meld alone, a yardstick)."""
    from meldcalc.rules.meld import engine_for

    melds = engine_for(variant).totals(counts)
    strength = trick_strength(counts, variant)
    rows, targets = [], []
    for suit in SUITS:
        ok = ~np.isnan(levels[suit])
        used = strength[suit][ok] if features else np.zeros((ok.sum(), len(FEATURES)))
        rows.append(np.hstack([np.ones((ok.sum(), 1)), used]))
        targets.append((levels[suit][ok] - melds[suit][ok]) / variant.trick_total)
    x, y = np.vstack(rows), np.concatenate(targets)
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    spread = float(np.std(y - x @ weights))
    return np.append(weights, spread)
