"""Simulation: play-out speed, the policy's strength, and the wall time of a default bid.

1. Deals per second for full play-outs with each policy (the rules; the learned policy,
   `--policy learned`), single deck and double deck, one core, in batches of 8,000
   (targets for the rules: 100,000 and 50,000).
2. Strength: duplicate matches of each policy against random legal play. Each deal is
   played twice with the sides swapped (policy on seats 0/2 and random on 1/3, then the
   reverse); the gain of a deal is what the policy's seats took minus what random play
   took on the same seats. Mean gain per deal with its standard error.
3. Wall time of `meldcalc bid <12 cards>` (2,000 deals per trump, table output; the learned
   policy, the default: issue 28's goal at most 1 s) and of the same bid with `--policy
   rules` (the previous default), against the minimal Typer app, timed alternately in the
   same run (the rules' target: at most 2x the minimal app); then a double-deck hand of 20
   cards, both policies (the learned policy's goal: at most 2.5 s).

With ``--previous TREE`` (a checkout of the previous build, e.g. ``git worktree add
/tmp/prev HEAD~1``, its solver built or not) the learned policy's `bid` of both builds is
timed alternately, each run from its source the same way (``python -c``), and printed side
by side.

Usage: python bench/simulate.py [--deals N] [--runs R] [--previous TREE]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from meldcalc.dealing.deal import deal_counts
from meldcalc.engines.policies import POLICIES, policy_class
from meldcalc.engines.simulate import Table
from meldcalc.rules.bits import planes_from_counts
from meldcalc.rules.loading import load_variant

sys.path.insert(0, str(Path(__file__).parent))
from common import median_wall_time
from startup import MINIMAL_APP

HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
#: A double-deck hand of 20 cards (a run in hearts, kings around, a double pinochle).
DOUBLE_DECK_HAND = "AH 10H KH KH QH QH JH JD JD QS QS KS KD KC AD 10D JC JC AC 10S"


def whole_deals(name: str, count: int, seed: int) -> tuple[object, np.ndarray]:
    variant = load_variant(name)
    counts = deal_counts(variant, count, np.random.default_rng(seed))
    return variant, counts[:, : variant.players]


def speed(name: str, count: int, runs: int, policy: str) -> float:
    variant, counts = whole_deals(name, count, seed=1)
    trumps = np.arange(count) % 4
    hands = planes_from_counts(counts, variant.deck.copies)
    remaining = planes_from_counts(counts.sum(axis=1), variant.deck.copies)
    best = float("inf")
    for _ in range(runs):
        game = policy_class(policy)(Table.of(variant, trumps), hands, remaining)
        start = time.perf_counter()
        game.play()
        best = min(best, time.perf_counter() - start)
    return count / best


def strength(name: str, count: int, policy: str) -> tuple[float, float]:
    variant, counts = whole_deals(name, count, seed=2)
    trumps = np.arange(count) % 4
    table = Table.of(variant, trumps)
    seats = range(variant.players)
    even = tuple(s for s in seats if table.team[s] == 0)
    odd = tuple(s for s in seats if table.team[s] == 1)
    copies, rng, game = variant.deck.copies, np.random.default_rng(3), policy_class(policy)
    policy_even = game.from_counts(table, counts, copies, random_seats=odd, rng=rng).play()
    random_even = game.from_counts(table, counts, copies, random_seats=even, rng=rng).play()
    gain = policy_even.team_points[:, 0] - random_even.team_points[:, 0]
    return float(gain.mean()), float(gain.std(ddof=1) / np.sqrt(count))


def bid_times(runs: int) -> dict[str, float]:
    """Median wall times of the minimal Typer app and of `bid` in single and double deck,
    the default and ``--policy rules``, timed in turn."""
    meldcalc = shutil.which("meldcalc") or sys.exit("meldcalc is not installed on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        minimal = Path(tmp) / "minimal.py"
        minimal.write_text(MINIMAL_APP)
        single = [meldcalc, "bid", HAND, "--seed", "1"]
        double = [meldcalc, "bid", DOUBLE_DECK_HAND, "-V", "double-deck", "--seed", "1"]
        commands = {
            "minimal": [sys.executable, str(minimal), HAND],
            "single": single,
            "single rules": [*single, "--policy", "rules"],
            "double": double,
            "double rules": [*double, "--policy", "rules"],
        }
        for command in commands.values():
            median_wall_time(command, 1)  # a first run fills the variant cache
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                times[name].append(median_wall_time(command, 1))
    return {name: sorted(taken)[runs // 2] for name, taken in times.items()}


def from_source(tree: Path) -> list[str]:
    """`meldcalc` run from the checkout ``tree``'s source, whatever is installed."""
    start = f"import sys; sys.path.insert(0, {str(tree)!r}); from meldcalc.cli import main; main()"
    return [sys.executable, "-c", start]


def against_previous(tree: Path, runs: int) -> tuple[float, float]:
    """Median wall times of the learned policy's `bid` of ``tree`` and of this checkout."""
    args = ["bid", HAND, "--seed", "1", "--policy", "learned"]
    previous = [*from_source(tree), *args]
    ours = [*from_source(Path(__file__).resolve().parent.parent), *args]
    median_wall_time(previous, 1), median_wall_time(ours, 1)  # fill each one's caches
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        times[0].append(median_wall_time(previous, 1))
        times[1].append(median_wall_time(ours, 1))
    return sorted(times[0])[runs // 2], sorted(times[1])[runs // 2]


def main() -> None:
    deals = int(sys.argv[sys.argv.index("--deals") + 1]) if "--deals" in sys.argv else 8000
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 15
    for name, target in (("single-deck", 100_000), ("double-deck", 50_000)):
        rates = {policy: speed(name, deals, 5, policy) for policy in POLICIES}
        shown = ", ".join(f"{policy} {rate:,.0f}" for policy, rate in rates.items())
        print(f"{name:12} play-outs : deals/s {shown} (target for the rules >= {target:,})")
    for name in ("single-deck", "double-deck"):
        total = load_variant(name).trick_total
        for policy in POLICIES:
            mean, se = strength(name, deals, policy)
            print(
                f"{name:12} strength  : {policy} takes {mean:+.1f} ± {se:.1f} trick points a"
                f" deal more than random play on the same seats (of {total})"
            )
    ms = {name: taken * 1000 for name, taken in bid_times(runs).items()}
    print(f"minimal Typer app      : {ms['minimal']:7.1f} ms (median of {runs})")
    print(f"bid --policy rules     : {ms['single rules']:7.1f} ms (median of {runs});"
          f" ratio {ms['single rules'] / ms['minimal']:.2f} (target <= 2)")  # fmt: skip
    print(f"meldcalc bid (default) : {ms['single']:7.1f} ms (median of {runs}; learned,"
          " goal <= 1000)")  # fmt: skip
    print(f"double deck, default   : {ms['double']:7.1f} ms (median of {runs}; learned, goal"
          f" <= 2500); --policy rules {ms['double rules']:.1f} ms")  # fmt: skip
    if "--previous" in sys.argv:
        tree = Path(sys.argv[sys.argv.index("--previous") + 1])
        before, now = against_previous(tree, runs)
        print(f"bid --policy learned   : previous build ({tree}) {before * 1000:.1f} ms, this build"
              f" {now * 1000:.1f} ms (medians of {runs}, each from its source)")  # fmt: skip


if __name__ == "__main__":
    main()
