"""Helpers shared by the benchmarks: run a command repeatedly, random hands."""

from __future__ import annotations

import random
import statistics
import subprocess
import time

from meldcalc.rules.cards import CARDS


def median_wall_time(argv: list[str], runs: int, stdin: bytes | None = None) -> float:
    """Median seconds of ``runs`` executions of ``argv``, interleaving nothing else."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def random_hands(count: int, seed: int = 1, copies: int = 2, size: int = 12) -> list[str]:
    """Random single-deck hands (12 of 48 cards) in meldcalc's notation."""
    rng = random.Random(seed)
    deck = [str(card) for card in CARDS for _ in range(copies)]
    return [" ".join(rng.sample(deck, size)) for _ in range(count)]
