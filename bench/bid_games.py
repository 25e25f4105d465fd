"""`meldcalc bid` in every seed game, as a new user runs it: wall seconds, goal at most 2.

Issue 48: "`bid` in every seed game within 2 s on this machine". Each case is a README
command, or the README's way of asking in a game the README shows no hand of (double deck;
double-deck three-handed with its kitty seen): the default deals, the default `--jobs`
(every core where the simulation is large), table output. Each is run ``--runs`` times
and its median wall time printed; with ``--previous PYTHON`` (the interpreter of an
environment where the previous build is installed) the previous build runs each case too,
alternating with this one, so both meet the same load.

Usage: python bench/bid_games.py [--runs R] [--previous PYTHON] [--only LABEL ...]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

GOAL = 2.0
DD3H_HAND = "AS 10S 10S KS QS QS QS JS AH 10H QH QH JH AD AD 10D 10D 10D KD QD JD AC AC 10C JC"
TOBY = "AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS"
CASES: dict[str, list[str]] = {
    "single deck, the strong hand": ["AS 10S KS QS JS JD 9S AH AD AC KH QH", "--seed", "7"],
    "double deck, 20 cards": [
        "AS AS 10S KS QS JS JS AH 10H KH KH QH QD QD JD JD AC 10C KC QC",
        "-V",
        "double-deck",
        "--seed",
        "7",
    ],
    "three-handed, widow seen": [
        "AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D",
        "-V",
        "three-handed",
        "--widow",
        "KS 10H 9C",
        "--seed",
        "7",
    ],
    "double-deck three-handed, kitty seen": [
        DD3H_HAND,
        "-V",
        "double-deck-three-handed",
        "--widow",
        "JS KH 10D KC QC",
        "--seed",
        "1",
    ],
    "Toby Thomas, the asks": [TOBY, "-V", "double-deck-toby-thomas", "--seed", "7"],
    "Toby Thomas, --received": [
        TOBY,
        "-V",
        "double-deck-toby-thomas",
        "--received",
        "AS 10S AD",
        "--ask",
        "S",
        "--seed",
        "7",
    ],
}


def wall(python: str, case: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-m", "meldcalc", "bid", *case], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--previous", help="a previous build's python, timed beside this one")
    parser.add_argument("--only", nargs="*", help="the cases to run (their labels' first words)")
    args = parser.parse_args()
    builds = {"this build": sys.executable}
    if args.previous:
        builds = {"previous": args.previous, **builds}
    cases = {
        label: case
        for label, case in CASES.items()
        if not args.only or any(label.startswith(word) for word in args.only)
    }
    print(f"median wall seconds of {args.runs} runs, the builds alternating (goal {GOAL:g} s)")
    print(f"{'case':40}" + "".join(f"{name:>14}" for name in builds))
    for label, case in cases.items():
        times: dict[str, list[float]] = {name: [] for name in builds}
        for _ in range(args.runs):
            for name, python in builds.items():
                times[name].append(wall(python, case))
        medians = {name: statistics.median(found) for name, found in times.items()}
        cells = "".join(f"{medians[name]:14.2f}" for name in builds)
        verdict = "" if medians["this build"] <= GOAL else f"  over {GOAL:g} s"
        print(f"{label:40}{cells}{verdict}", flush=True)


if __name__ == "__main__":
    main()
