"""Fit the fast bid model (`meldcalc.dealing.bidmodel`) to `bid`'s own levels, and say how
far it is from them on held-out hands.

For each family of games, seeded random hands of its variant are simulated as `meldcalc
bid` simulates them (300 deals, under every trump); a hand's level under a trump is the
30th percentile of its totals (the level made 70% of the time, `bid`'s default
confidence). The first three quarters of the hands fit the weights by least squares; the
last quarter is held out: the model's level of each hand (its best trump's) against
`bid`'s, as a mean absolute error and the share within one bidding step, beside a model of
meld alone (a constant added to the best meld) fitted the same way. --write saves the
weights to meldcalc/dealing/bidmodel.json (with the figures, the seed and the count).

Usage: python bench/fit_bidmodel.py [--hands N] [--seed S] [--write]
(About 5 minutes at the defaults on this 2-core machine.)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from meldcalc.advice.bidding import estimate
from meldcalc.dealing.bidmodel import FEATURES, VERSION, WEIGHTS, BidModel, family, fit
from meldcalc.dealing.deal import deals
from meldcalc.rules.cards import SUITS
from meldcalc.rules.loading import load_variant

#: The variant each family is fitted on.
FAMILIES = ("single-deck", "double-deck", "cutthroat", "three-handed", "double-deck-three-handed")
DEALS = 300


def levels_of(variant, count: int, seed: int) -> tuple[np.ndarray, dict]:
    """(count, 24) hands and `bid`'s level of each under every trump (NaN: not nameable)."""
    hands = [dealt.hands[0] for dealt in deals(variant, count, seed)]
    levels = {suit: np.full(count, np.nan) for suit in SUITS}
    for i, hand in enumerate(hands):
        report = estimate(hand, variant, deals=DEALS, seed=seed + i)
        for odds in report.results:
            if odds.biddable:
                levels[odds.trump][i] = float(np.percentile(odds.totals, 30))
    return np.array([hand.counts for hand in hands], dtype=np.int64), levels


def best(levels: dict, rows: slice) -> np.ndarray:
    return np.nanmax(np.stack([levels[suit][rows] for suit in SUITS]), axis=0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=800)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    fitted = {}
    for name in FAMILIES:
        variant = load_variant(name)
        began = time.perf_counter()
        counts, levels = levels_of(variant, args.hands, args.seed)
        train, test = slice(0, args.hands * 3 // 4), slice(args.hands * 3 // 4, None)
        solved = fit(counts[train], {s: v[train] for s, v in levels.items()}, variant)
        model = BidModel(family(variant), solved[:-1], float(solved[-1]))
        meld_only = fit(
            counts[train], {s: v[train] for s, v in levels.items()}, variant, features=False
        )
        plain = BidModel("meld", meld_only[:-1], float(meld_only[-1]))
        truth = best(levels, test)
        ok = np.isfinite(truth)
        step = variant.bidding.increments[-1].by
        figures = {}
        for label, used in (("model", model), ("meld alone", plain)):
            guess = used.levels(counts[test], variant)
            error = np.abs(guess - truth)[ok]
            figures[label] = (float(error.mean()), float((error <= step).mean()))
        print(
            f"{name} ({family(variant)}): {ok.sum()} held-out hands, fitted on"
            f" {train.stop}; mean |model - bid| {figures['model'][0]:.1f} points,"
            f" {figures['model'][1]:.0%} within a step of {step} (meld alone:"
            f" {figures['meld alone'][0]:.1f}, {figures['meld alone'][1]:.0%});"
            f" spread {model.spread_points(variant):.1f}; {time.perf_counter() - began:.0f} s"
        )
        fitted[family(variant)] = {
            "variant": name,
            "weights": [round(float(w), 6) for w in model.weights],
            "spread": round(model.spread, 6),
            "held_out_mean_error": round(figures["model"][0], 2),
            "held_out_within_a_step": round(figures["model"][1], 3),
        }
    if args.write:
        path = Path(__file__).resolve().parent.parent / "meldcalc" / "dealing" / WEIGHTS
        data = {
            "version": VERSION,
            "features": list(FEATURES),
            "made_by": f"bench/fit_bidmodel.py --hands {args.hands} --seed {args.seed}",
            "families": fitted,
        }
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
