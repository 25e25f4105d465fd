"""The exact solver: how long positions take, by kind, one at a time on one core.

Seeded random positions (whole deals played down by random legal cards, seat 0 leading the
deal): single-deck endgames of 4 and 8 tricks and whole deals; double-deck endgames of
growing length up to where the median passes half a second; three-handed and cutthroat
whole deals. Targets are printed beside the figures; the plain-Python minimax on the same
4-trick endgames gives the C/Python speed ratio measured in this run.

Usage: python bench/solve.py [--deals N] [--seed S]   (N single-deck whole deals, default 200;
the other samples are sized from N)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from meldcalc import minimax
from meldcalc.endgames import random_endgame
from meldcalc.solve import Position, solve_many, solver_nodes
from meldcalc.variant import Variant, load_variant

DOUBLE_DECK_LIMIT = 0.5  # seconds: the median up to which double-deck endgames count as solved


def solve_one(position: Position, variant: Variant) -> None:
    hands = np.array([[hand.counts for hand in position.hands]])
    solve_many(hands, position.trump.index, position.leader, variant)


def measure(
    positions: list[Position],
    variant: Variant,
    run: Callable[[Position, Variant], None] = solve_one,
) -> tuple[list[float], list[int]]:
    """Seconds and nodes of each position, solved one at a time."""
    seconds, nodes = [], []
    for position in positions:
        before, start = solver_nodes(), time.perf_counter()
        run(position, variant)
        seconds.append(time.perf_counter() - start)
        nodes.append(solver_nodes() - before)
    return seconds, nodes


def summary(label: str, seconds: list[float], nodes: list[int], target: str = "") -> None:
    ms = np.array(seconds) * 1000
    quantiles = {q: np.percentile(ms, q) for q in (50, 90, 99)}
    print(
        f"{label:<34} n={len(ms):<4} median {quantiles[50]:9.3f} ms  p90 {quantiles[90]:9.3f}"
        f"  p99 {quantiles[99]:9.3f}  max {ms.max():9.3f}  nodes median"
        f" {statistics.median(nodes):>10.0f} max {max(nodes):>11}"
    )
    if target:
        print(f"{'':<34} target: {target}")


def endgames(variant: Variant, count: int, tricks: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    return [random_endgame(variant, tricks, rng) for _ in range(count)]


def single_deck(deals: int, seed: int) -> None:
    variant = load_variant("single-deck")
    four = endgames(variant, deals, 4, seed)
    seconds, nodes = measure(four, variant)
    summary("single-deck, 4 tricks left", seconds, nodes)
    plain = four[: max(10, deals // 4)]
    python, _ = measure(plain, variant, lambda p, v: minimax.best(p, v))
    ratio = statistics.median(python) / statistics.median(seconds[: len(plain)])
    print(
        f"{'':<34} plain-Python minimax on {len(plain)} of them: median"
        f" {statistics.median(python) * 1000:.2f} ms, C is {ratio:.0f}x faster"
    )
    seconds, nodes = measure(endgames(variant, deals, 8, seed), variant)
    summary("single-deck, 8 tricks left", seconds, nodes, "median <= 1 ms")
    seconds, nodes = measure(endgames(variant, deals, variant.hand_size, seed), variant)
    summary("single-deck, whole deals", seconds, nodes, "median <= 50 ms, p99 <= 1 s, max <= 10 s")


def double_deck(deals: int, seed: int) -> None:
    """Endgames of 4, 6, 8, ... tricks until the median passes the limit."""
    variant = load_variant("double-deck")
    count = max(10, deals // 4)
    for tricks in range(4, variant.hand_size + 1, 2):
        seconds, nodes = measure(endgames(variant, count, tricks, seed), variant)
        summary(f"double-deck, {tricks} tricks left", seconds, nodes)
        if statistics.median(seconds) > DOUBLE_DECK_LIMIT:
            print(f"{'':<34} past the {DOUBLE_DECK_LIMIT} s median: longer endgames not tried")
            return


def three_handed(deals: int, seed: int) -> None:
    for name in ("three-handed", "cutthroat"):
        variant = load_variant(name)
        count = max(5, deals // 20)
        seconds, nodes = measure(endgames(variant, count, variant.hand_size, seed), variant)
        summary(f"{name}, whole deals", seconds, nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    single_deck(args.deals, args.seed)
    double_deck(args.deals, args.seed)
    three_handed(args.deals, args.seed)


if __name__ == "__main__":
    main()
