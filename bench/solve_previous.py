"""The exact solver against a previous build, on the same seeded positions, in one run.

Positions (single deck: 8-trick endgames and whole deals; with --long M also 14-trick
double-deck, three-handed and cutthroat endgames, all played down by random legal cards)
are dealt by this checkout; each build solves every one in a process of its own, the runs
alternating (previous, this, previous, this) so drifts in machine load hit both alike; a
position's time is its faster run. Values must agree: the build under test is exact where
the previous one was. Issue #18's targets are printed beside the figures.

Usage: python bench/solve_previous.py --previous PYTHON [--deals N] [--long M] [--seed S]
(PYTHON: the interpreter of an environment where the previous build is installed, e.g. a
venv with 0.2.0 from `git archive v0.2.0` installed by pip. The 14-trick positions take
seconds to minutes each: M of 5 to 10 is most of an hour.)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meldcalc.engines.endgames import random_endgame
from meldcalc.engines.solve import position_text
from meldcalc.rules.loading import load_variant

#: Runs in each build's own interpreter: solve every line (a variant's name, a tab, a
#: position), one time and value a line.
CHILD = """
import inspect, json, sys, time
try:
    from meldcalc.rules.loading import load_variant
except ImportError:  # 0.2.0 kept loading in variant
    from meldcalc.rules.variant import load_variant
from meldcalc.engines.solve import parse_position, solve
variants = {}
unlimited = {"time_limit": None} if "time_limit" in inspect.signature(solve).parameters else {}
for line in open(sys.argv[1]):
    name, text = line.rstrip("\\n").split("\\t")
    variant = variants.setdefault(name, load_variant(name))
    position = parse_position(text, variant)
    start = time.perf_counter()
    value = solve(position, variant, line=False, **unlimited).value
    print(json.dumps([time.perf_counter() - start, value]), flush=True)
"""

#: (label, variant, tricks left or None for a whole deal, issue #18's target)
SINGLE = [
    ("8 tricks left", "single-deck", 8, "median <= 1 ms"),
    ("whole deals", "single-deck", None, "median <= 50 ms, p99 <= 1 s"),
]
LONG = [
    (f"{name}, 14 tricks", name, 14, "median <= 1 s")
    for name in ("double-deck", "three-handed", "cutthroat")
]


def positions(
    kinds: list[tuple[str, str, int | None, str]], count: dict[str, int], seed: int
) -> list[str]:
    """Seeded positions of every kind, in order, as lines for CHILD."""
    rng, lines = random.Random(seed), []
    for label, name, tricks, _ in kinds:
        variant = load_variant(name)
        for _ in range(count[label]):
            position = random_endgame(variant, tricks or variant.hand_size, rng)
            lines.append(f"{name}\t{position_text(position)}")
    return lines


def solved(python: str, path: Path) -> list[tuple[float, int]]:
    out = subprocess.run(
        [python, "-c", CHILD, str(path)], capture_output=True, text=True, check=True, cwd="/"
    ).stdout
    return [tuple(json.loads(line)) for line in out.splitlines()]


def summary(times: list[float]) -> str:
    times = sorted(times)
    p90, p99 = (times[int(q * (len(times) - 1))] for q in (0.9, 0.99))
    median = statistics.median(times)
    return (
        f"median {median * 1e3:8.1f} ms  p90 {p90 * 1e3:8.1f}  p99 {p99 * 1e3:8.1f}"
        f"  max {times[-1] * 1e3:8.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", required=True, help="the previous build's python")
    parser.add_argument("--deals", type=int, default=30, help="single-deck positions of each kind")
    parser.add_argument("--long", type=int, default=0, help="14-trick positions of each game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds = SINGLE + (LONG if args.long else [])
    count = {kind[0]: args.deals if kind in SINGLE else args.long for kind in kinds}
    lines = positions(kinds, count, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "positions.txt"
        path.write_text("\n".join(lines) + "\n")
        builds = {"previous": args.previous, "this": sys.executable}
        runs: dict[str, list[list[tuple[float, int]]]] = {name: [] for name in builds}
        for _ in range(2):
            for name, python in builds.items():
                runs[name].append(solved(python, path))
    values = {name: [run[0][i][1] for i in range(len(lines))] for name, run in runs.items()}
    wrong = sum(a != b for a, b in zip(values["previous"], values["this"]))
    print(f"{len(lines)} positions, values that differ: {wrong}")
    start = 0
    for label, _, _, target in kinds:
        part = slice(start, start + count[label])
        start = part.stop
        for name, run in runs.items():
            times = [min(one[i][0] for one in run) for i in range(len(lines))][part]
            print(f"{label:24} {name:9} {summary(times)}")
        print(f"{'':24} target:   {target}")


if __name__ == "__main__":
    main()
