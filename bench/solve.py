"""The exact solver: how long positions take, by kind, one at a time on one core.

Seeded random positions (whole deals played down by random legal cards, seat 0 leading the
deal): single-deck endgames of 4 and 8 tricks and whole deals; double-deck, three-handed and
cutthroat endgames of growing length until the median passes a quarter second (whole
three-handed deals take seconds to minutes: --three-handed-deals N times them). Targets are
printed beside the figures; the plain-Python minimax on the same 4-trick endgames gives the
C/Python speed ratio measured in this run.

Usage: python bench/solve.py [--deals N] [--seed S] [--three-handed-deals N]
(N single-deck positions of each kind, default 200; the other samples are sized from N.
About 8 minutes at the default on this 2-core machine, 3 with --deals 50: most of it the
whole single-deck deals and the last, longest endgames of each series.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from meldcalc.engines import minimax
from meldcalc.engines.endgames import random_endgame
from meldcalc.engines.solve import Position, solve_many, solver_nodes
from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

LIMIT = 0.25  # seconds: the median up to which longer endgames are tried
BUDGET = 10  # seconds: the time in all up to which longer endgames are tried


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
    measure(endgames(variant, 20, 8, seed + 1), variant)  # the table's pages, paged in once
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


def growing(name: str, first: int, count: int, seed: int) -> None:
    """Endgames of `first`, `first` + 1, ... tricks until the median passes the limit (or
    one length takes longer than the budget in all)."""
    variant = load_variant(name)
    for tricks in range(first, variant.hand_size + 1):
        seconds, nodes = measure(endgames(variant, count, tricks, seed), variant)
        target = "14 tricks or more within 1 s at the median" if tricks == 14 else ""
        summary(f"{name}, {tricks} tricks left", seconds, nodes, target)
        if statistics.median(seconds) > LIMIT or sum(seconds) > BUDGET:
            print(f"{'':<34} past a {LIMIT} s median or {BUDGET} s in all: no longer endgames")
            return


def whole_deals(name: str, count: int, seed: int) -> None:
    variant = load_variant(name)
    seconds, nodes = measure(endgames(variant, count, variant.hand_size, seed), variant)
    summary(f"{name}, whole deals", seconds, nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--three-handed-deals", type=int, default=0, help="also time N whole three-handed deals"
    )
    args = parser.parse_args()
    single_deck(args.deals, args.seed)
    count = max(10, args.deals // 20)
    growing("double-deck", 6, count, args.seed)
    growing("three-handed", 6, count, args.seed)
    growing("cutthroat", 6, count, args.seed)
    if args.three_handed_deals:
        whole_deals("three-handed", args.three_handed_deals, args.seed)
        whole_deals("cutthroat", args.three_handed_deals, args.seed)


if __name__ == "__main__":
    main()
