"""Fitting the inference's temperature and floor (`meldcalc.engines.inference`).

The inference reads a card played as the softmax of the learned policy's scores over the
legal cards, divided by a temperature, mixed with a uniform choice (the floor). Both are
fitted here to the table the inference reads: the look-ahead player (`bid --strong`'s, the
strongest player that plays thousands of deals), in every seat of seeded deals the shipped
network never trained on (bench/train_policy.py's decisions, seed 4800 on, far from its
seeds), each decision's card its best-valued one. The pair kept is the one that gives its
cards the highest mean log-chance; printed beside it, game by game, how sharp that reading
is: the mean chance of the card played, and how often the policy's best card is it.

Fitted 2026-12-05 (400 deals of each game, seed 4800, 30 s on two cores): of 58,085
decisions with a choice, the mean log-chance of the look-ahead player's card is highest at
temperature 16, floor 0.1: -1.092 (a uniform choice: -1.321; temperature 1: -1.614).
Fitted game by game, single deck would take 20 and 0.05 (-1.049 against -1.050 shared),
double deck 12 and 0.15 (-1.055 against -1.061), three-handed 20 and 0.1 (-1.215 against
-1.220): a few thousandths of a nat a decision, so one temperature serves every game.

Fitted again once single deck played a network of its own (each game's cards scored by
the network its game plays; the same decisions): the best pair is temperature 14, floor
0.15, and the shipped 16 and 0.1 give the same mean log-chance to the third decimal
(-1.086), so they stay. Single deck's own network reads the look-ahead player's cards a
little better than the shared one did: -1.036 at its best (temperature 18, floor 0.1)
where the shared network gave -1.049; its best card is the one played 57.1% of the time.

Usage: python bench/fit_temperature.py [--deals N] [--variant NAME ...] [--seed S] [--jobs J]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from meldcalc.advice.tableplay import network_played
from meldcalc.engines.inference import FLOOR, TEMPERATURE
from meldcalc.engines.learned import shipped
from meldcalc.rules.loading import load_variant

sys.path.insert(0, str(Path(__file__).parent))
from train_policy import decisions, featured

GAMES = ["single-deck", "double-deck", "three-handed"]
TEMPERATURES = (1.0, 4.0, 8.0, 12.0, 14.0, 16.0, 18.0, 20.0, 24.0, 32.0, 64.0)
FLOORS = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3)


def log_chances(
    scores: np.ndarray, group: np.ndarray, chosen: np.ndarray, temperature: float, floor: float
) -> np.ndarray:
    """The log-chance of each decision's chosen card (``chosen``: True at it) under the
    softmax of ``scores`` / ``temperature`` over the decision's cards, mixed with a uniform
    choice (``floor``), per decision."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    scaled = scores / temperature
    top = np.maximum.reduceat(scaled, starts)
    spread = np.exp(scaled - top[group])
    total = np.add.reduceat(spread, starts)
    chance = np.add.reduceat(np.where(chosen, spread, 0.0), starts) / total
    options = np.diff(np.r_[starts, len(group)])
    return np.log((1 - floor) * chance + floor / options)


def chosen_cards(value: np.ndarray, group: np.ndarray) -> np.ndarray:
    """True at each decision's best-valued card (of equal values the last: the lowest card,
    the look-ahead player's choice)."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    best = np.maximum.reduceat(value, starts)
    at = np.where(value >= best[group], np.arange(len(group)), -1)
    chosen = np.zeros(len(group), dtype=bool)
    chosen[np.maximum.reduceat(at, starts)] = True
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--variant", nargs="*", default=GAMES)
    parser.add_argument("--seed", type=int, default=4800)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    data = decisions(args.variant, args.deals, args.seed, None, args.jobs)
    x, group = featured(data)
    game_of = data["game"]
    options = np.diff(np.r_[np.flatnonzero(np.r_[True, group[1:] != group[:-1]]), len(group)])
    card_game = np.repeat(game_of, options)  # each card's game
    scores = np.zeros(len(x))
    for number, name in enumerate(data["names"].tolist()):  # by the network its game plays
        cards = card_game == number
        scores[cards] = shipped(network_played(load_variant(name))).scores(x[cards])
    chosen = chosen_cards(data["value"].astype(np.float64), group)
    grid = {
        (t, f): log_chances(scores, group, chosen, t, f).mean()
        for t in TEMPERATURES
        for f in FLOORS
    }
    best_t, best_f = max(grid, key=grid.get)
    print(f"decisions with a choice: {len(data['count']):,}; the look-ahead player's cards")
    print(f"fitted: temperature {best_t}, floor {best_f} (shipped: {TEMPERATURE}, {FLOOR})")
    print("temperature " + " ".join(f"{f:>7}" for f in FLOORS) + "   (mean log-chance by floor)")
    for t in TEMPERATURES:
        print(f"{t:>11} " + " ".join(f"{grid[t, f]:7.3f}" for f in FLOORS))
    print(f"(a uniform choice: {np.log(1 / options).mean():.3f})")
    decision_game = game_of  # a decision's game, per decision
    for number, name in enumerate(data["names"].tolist()):
        mine, cards = decision_game == number, card_game == number
        renumbered = np.unique(group[cards], return_inverse=True)[1].ravel()
        fits = {
            (t, f): log_chances(scores[cards], renumbered, chosen[cards], t, f).mean()
            for t in TEMPERATURES
            for f in FLOORS
        }
        t, f = max(fits, key=fits.get)
        print(
            f"{name}: best temperature {t}, floor {f}: {fits[t, f]:.3f}; at the shared"
            f" {best_t}, {best_f}: {fits[best_t, best_f]:.3f} ({int(mine.sum()):,} decisions)"
        )
    print("\ngame            decisions  mean chance  policy's best played  uniform chance")
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    best = np.maximum.reduceat(scores, starts)
    top = np.where(scores >= best[group], np.arange(len(group)), -1)
    policy_best = np.zeros(len(group), dtype=bool)
    policy_best[np.maximum.reduceat(top, starts)] = True
    agree = np.add.reduceat(policy_best & chosen, starts) > 0
    chance = np.exp(log_chances(scores, group, chosen, best_t, best_f))
    options = np.diff(np.r_[starts, len(group)])
    for number, name in enumerate(data["names"].tolist()):
        mine = game_of == number
        print(
            f"{name:<15} {int(mine.sum()):>9,}  {chance[mine].mean():11.3f}"
            f"  {agree[mine].mean():19.1%}  {(1 / options[mine]).mean():14.3f}"
        )


if __name__ == "__main__":
    main()
