"""The exact solver against a previous build, on the same seeded positions, in one run.

Positions (single deck: 8-trick endgames and whole deals, played down by random legal cards)
are dealt by this checkout; each build solves every one in a process of its own, the runs
alternating (previous, this, previous, this) so drifts in machine load hit both alike; a
position's time is its faster run. Values must agree: the build under test is exact where
the previous one was.

Usage: python bench/solve_previous.py --previous PYTHON [--deals N] [--seed S]
(PYTHON: the interpreter of an environment where the previous build is installed, e.g. a
venv with 0.2.0 from `git archive v0.2.0` installed by pip.)
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

from meldcalc.endgames import random_endgame
from meldcalc.loading import load_variant
from meldcalc.solve import position_text

#: Runs in each build's own interpreter: solve every line, one time and value a line.
CHILD = """
import json, sys, time
try:
    from meldcalc.loading import load_variant
except ImportError:  # 0.2.0 kept loading in variant
    from meldcalc.variant import load_variant
from meldcalc.solve import parse_position, solve
variant = load_variant("single-deck")
for line in open(sys.argv[1]):
    position = parse_position(line, variant)
    start = time.perf_counter()
    value = solve(position, variant, line=False).value
    print(json.dumps([time.perf_counter() - start, value]), flush=True)
"""


def positions(count: int, seed: int) -> list[str]:
    variant, rng = load_variant("single-deck"), random.Random(seed)
    return [
        position_text(random_endgame(variant, tricks, rng))
        for tricks in (8, 12)
        for _ in range(count)
    ]


def solved(python: str, path: Path) -> list[tuple[float, int]]:
    out = subprocess.run(
        [python, "-c", CHILD, str(path)], capture_output=True, text=True, check=True, cwd="/"
    ).stdout
    return [tuple(json.loads(line)) for line in out.splitlines()]


def summary(times: list[float]) -> str:
    times = sorted(times)
    p90 = times[int(0.9 * (len(times) - 1))]
    median = statistics.median(times)
    return f"median {median * 1e3:8.1f} ms  p90 {p90 * 1e3:8.1f}  max {times[-1] * 1e3:8.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", required=True, help="the previous build's python")
    parser.add_argument("--deals", type=int, default=30, help="positions of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = positions(args.deals, args.seed)
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
    for kind, part in (
        ("8 tricks left", slice(0, args.deals)),
        ("whole deals", slice(args.deals, None)),
    ):
        for name, run in runs.items():
            times = [min(one[i][0] for one in run) for i in range(len(lines))][part]
            print(f"{kind:14} {name:9} {summary(times)}")


if __name__ == "__main__":
    main()
