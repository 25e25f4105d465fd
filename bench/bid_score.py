"""What the game's score costs a bid: `meldcalc bid --score` beside the plain `meldcalc bid`
of the same hands, as commands (start-up included), in the same run.

Each hand is bid three ways, in turn: plain; with --score and the equity table already
kept in the cache (a player's usual case); with --score and an empty cache (the first bid
of a variant: the table is worked out, about a second, and kept). Wall seconds, the median
and the worst over the hands; issue #29's goal is `bid --score` within 1.5 s single deck.

Usage: python bench/bid_score.py [--variant NAME] [--hands N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from meldcalc.dealing.deal import deals
from meldcalc.rules.loading import load_variant


def timed(argv: list[str], cache: str) -> float:
    began = time.perf_counter()
    subprocess.run(
        argv, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "MELDCALC_CACHE_DIR": cache}
    )
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="single-deck")
    parser.add_argument("--hands", type=int, default=5)
    args = parser.parse_args()
    meldcalc = shutil.which("meldcalc")
    rules = load_variant(args.variant)
    kept = tempfile.mkdtemp(prefix="meldcalc-bench-")
    rows: dict[str, list[float]] = {
        "bid": [],
        "bid --score (table kept)": [],
        "bid --score (first)": [],
    }
    for i, dealt in enumerate(deals(rules, args.hands, 7)):
        argv = [meldcalc, "bid", dealt.hands[0].notation(), "-V", args.variant, "--seed", str(i)]
        scored = [*argv, "--score", "850,920"]
        rows["bid"].append(timed(argv, kept))
        timed(scored, kept)  # the table kept for the warm runs
        rows["bid --score (table kept)"].append(timed(scored, kept))
        empty = tempfile.mkdtemp(prefix="meldcalc-bench-")
        rows["bid --score (first)"].append(timed(scored, empty))
        shutil.rmtree(empty)
    shutil.rmtree(kept)
    print(f"{args.variant}: wall seconds over {args.hands} hands (goal: bid --score within 1.5 s)")
    for name, times in rows.items():
        print(f"  {name:26}: median {statistics.median(times):.2f} s, max {max(times):.2f} s")


if __name__ == "__main__":
    main()
