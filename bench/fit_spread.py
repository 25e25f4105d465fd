"""Fit the strong table's spread (`meldcalc/advice/tableplay.py`) to calibration runs.

A calibration run (`python bench/calibration.py --variant GAME --policy learned --fresh 12
--no-spread --save RUN.npz`) holds, for each seeded hand, `bid`'s simulated totals under
its best trump and the totals of fresh deals of the hand played by the reference in every
seat. For each game named, this finds the normal distribution (mean, standard deviation,
in trick points) which, added to every simulated total and rounded to the game's trick
step as `bid` does, makes the fresh deals' outcomes most likely: at every level `bid`
lists, made or not (maximum likelihood, on a grid, then a finer one around the best). It
prints each fit with the calibration of the hands held out (each run judged by the fit of
the others; a single run's halves by each other's) beside the odds without a spread, then
writes the fits, as shares of the game's trick points, to the package's file with
``--write`` (naming the runs, their seeds and the network they were played by; the
families fitted before, to the same network, stay). The runs must be made with
``--no-spread``: the self-play's odds as they are.

Usage: python bench/fit_spread.py GAME=RUN.npz[,RUN.npz ...] ... [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from meldcalc.advice.bidding import Made, make_odds
from meldcalc.advice.tableplay import (
    FITS,
    FORMAT,
    LARGEST,
    family_of,
    network_digest,
    network_played,
)
from meldcalc.errors import MeldcalcError
from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

sys.path.insert(0, str(Path(__file__).parent))
import calibration as cal

ROOT = Path(__file__).resolve().parent.parent


class Hands:
    """The runs' hands as the fit reads them: at each level `bid` lists without a spread,
    the share of simulated totals at least each threshold the level less an offset (one
    column an offset, from -reach to +reach points), and how many fresh deals made it."""

    def __init__(self, variant: Variant, predicted: list[cal.Predicted], fresh: np.ndarray):
        self.reach = math.ceil(LARGEST * variant.trick_total)
        self.offsets = np.arange(-self.reach, self.reach + 1)
        self.step = variant.trick_step
        self.survival, self.made, self.count = [], [], []
        for p, outcomes, listed in zip(predicted, fresh, cal.levels(variant, predicted, "plain")):
            bids = np.array([bid for bid, _ in listed])
            totals = np.sort(p.totals)
            thresholds = bids[:, None] - self.offsets[None, :]
            reached = len(totals) - np.searchsorted(totals, thresholds, side="left")
            self.survival.append(reached / len(totals))
            self.made.append((outcomes[:, None] >= bids[None, :]).sum(axis=0))
            self.count.append(len(outcomes))

    def pmf(self, mean: float, sd: float) -> np.ndarray:
        """The chance of each offset: a normal draw rounded to the trick step."""
        if sd == 0:
            at = np.zeros(len(self.offsets))
            at[self.offsets == self.step * round(mean / self.step)] = 1.0
            return at
        cdf = lambda x: 0.5 * (1 + math.erf((x - mean) / (sd * math.sqrt(2))))  # noqa: E731
        chance = np.zeros(len(self.offsets))
        for i, offset in enumerate(self.offsets):
            if offset % self.step == 0:
                chance[i] = cdf(offset + self.step / 2) - cdf(offset - self.step / 2)
        return chance

    def loss(self, hands: np.ndarray, mean: float, sd: float) -> float:
        """The mean negative log-likelihood of the outcomes of ``hands`` at their levels."""
        pmf = self.pmf(mean, sd)
        total = deals = 0.0
        for h in hands:
            p = np.clip(self.survival[h] @ pmf, 1e-6, 1 - 1e-6)
            made, n = self.made[h], self.count[h]
            total -= float((made * np.log(p) + (n - made) * np.log(1 - p)).sum())
            deals += n * len(p)
        return total / deals

    def fit(self, hands: np.ndarray) -> tuple[float, float]:
        """The (mean, sd) most likely on ``hands``: a grid of means within 4% of the trick
        points and standard deviations within 10%, then a finer one around the best."""
        total = self.reach / LARGEST
        coarse = max(0.25, total / 500)
        grids = [
            (
                np.arange(-0.04 * total, 0.04 * total + 1e-9, coarse),
                np.arange(0, 0.1 * total, coarse),
            ),
        ]
        best = (math.inf, 0.0, 0.0)
        for means, sds in grids:
            for mean in means:
                for sd in sds:
                    loss = self.loss(hands, float(mean), float(sd))
                    if loss < best[0]:
                        best = (loss, float(mean), float(sd))
            if len(grids) == 1:  # then around the best, a fifth of the spacing apart
                fine = np.arange(-coarse, coarse + 1e-9, coarse / 5)
                grids.append((best[1] + fine, np.maximum(best[2] + fine, 0.0)))
        return best[1], best[2]


def judged(variant: Variant, predicted: list[cal.Predicted], fresh: np.ndarray, fits: list) -> str:
    """The calibration table of the hands, each hand's totals spread by its own fit (an
    exact mixture: each total repeated in proportion to each offset's chance)."""
    hands = Hands(variant, predicted[:1], fresh[:1])
    spread = []
    for p, (mean, sd) in zip(predicted, fits):
        pmf = hands.pmf(mean, sd)
        repeats = np.round(pmf * 400).astype(int)
        moved = [np.repeat(p.totals + offset, r) for offset, r in zip(hands.offsets, repeats) if r]
        spread.append(replace(p, totals=np.concatenate(moved) if moved else p.totals))
    listed = [make_odds(variant.bidding, Made(p.totals), cal.CONFIDENCE)[0] for p in spread]
    rows = [
        (hand, probability, bool(total >= bid))
        for hand, make in enumerate(listed)
        for bid, probability in make
        for total in fresh[hand]
    ]
    lines, gaps, _ = cal.table(rows, len(predicted), np.random.default_rng(1))
    return (
        lines.splitlines()[-1]
        + "\n    bands from 0.5 up, then pooled: "
        + " ".join(f"{100 * g:+.1f}" for g in gaps)
    )


def still_shipped(fitted: dict) -> bool:
    """Whether the network a kept fit names is in the package as it was fitted."""
    try:
        return fitted["network_sha256"] == network_digest(fitted["network"])
    except (KeyError, TypeError, MeldcalcError):
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="GAME=RUN.npz[,RUN.npz ...]")
    parser.add_argument("--write", action="store_true", help=f"write meldcalc/advice/{FITS}")
    args = parser.parse_args()
    families = {}
    for spec in args.runs:
        game, _, files = spec.partition("=")
        paths = files.split(",")
        predicted, fresh, meta = cal.load(paths)
        variant = load_variant(game)
        if meta["variant"] != game:
            sys.exit(f"{files}: runs of {meta['variant']}, not {game}")
        spread = [path for path in paths if json.loads(str(np.load(path)["meta"])).get("spread")]
        if spread:
            sys.exit(f"{', '.join(spread)}: made with the spread; fit runs made with --no-spread")
        hands = Hands(variant, predicted, fresh)
        everyone = np.arange(len(predicted))
        seeds = [json.loads(str(np.load(path)["meta"]))["seed"] for path in paths]
        # folds: each run judged by the fit of the others; one run: its halves
        sizes = [len(np.load(path)["trump"]) for path in paths]
        folds = np.repeat(np.arange(len(paths)), sizes) if len(paths) > 1 else everyone % 2
        held_out = [(0.0, 0.0)] * len(predicted)
        for fold in np.unique(folds):
            fitted = hands.fit(everyone[folds != fold])
            inside = everyone[folds == fold]
            for h in inside:
                held_out[h] = fitted
            part = f"run of seed {seeds[fold]}" if len(paths) > 1 else f"half {fold}"
            print(
                f"{game}: {part}, by the others' fit (mean {fitted[0]:+.2f}, sd {fitted[1]:.2f}):"
            )
            subset = ([predicted[h] for h in inside], fresh[inside])
            print(f"    no spread: {judged(variant, *subset, [(0.0, 0.0)] * len(inside))}")
            print(f"    held out:  {judged(variant, *subset, [fitted] * len(inside))}", flush=True)
        mean, sd = hands.fit(everyone)
        key = family_of(variant)
        print(f"{game} ({key}), {len(predicted)} hands: mean {mean:+.2f}, sd {sd:.2f}")
        print(f"  no spread:   {judged(variant, predicted, fresh, [(0.0, 0.0)] * len(predicted))}")
        print(f"  held out:    {judged(variant, predicted, fresh, held_out)}")
        families[key] = {
            "game": game,
            "mean": round(mean / variant.trick_total, 5),
            "sd": round(sd / variant.trick_total, 5),
            "hands": len(predicted),
            "fresh": int(fresh.shape[1]),
            "seeds": seeds,
            "network": network_played(variant),
            "network_sha256": network_digest(network_played(variant)),
        }
    if args.write:
        path = ROOT / "meldcalc" / "advice" / FITS
        kept = json.loads(path.read_text()) if path.exists() else {}
        kept = kept.get("families", {}) if kept.get("format") == FORMAT else {}
        # the families not fitted now stay while the network they were fitted to is shipped
        families = {**{k: v for k, v in kept.items() if still_shipped(v)}, **families}
        data = {
            "format": FORMAT,
            "about": "bench/fit_spread.py: each family's mean and sd, shares of its trick points,"
            " and the network (file, SHA-256) whose self-play it was fitted to",
            "families": dict(sorted(families.items())),
        }
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"written: {path}")


if __name__ == "__main__":
    main()
