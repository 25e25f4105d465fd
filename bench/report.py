"""The play model's report in one run: strength, calibration and review times, the shipped
network beside a candidate's.

Issue 48 asks for its figures printed in one run, beside the shipped build's; this bench
runs the three benches that make them, on the same seeds, for the package's network and,
with ``--weights FILE``, for a candidate network (a `bench/train_policy.py --write
--weights FILE`), so that the two are judged on the same deals against the same fixed
yardstick (the reference, its play-outs by 0.2.0's policy: bench/yardstick.py):

1. strength (bench/strength.py): per game and group (single deck: the weak, average and
   strong hands and random ones; other games: random hands), the learned policy's
   self-play, the reference's, and the reference's duplicate edge over it;
2. calibration (bench/calibration.py): `bid`'s P(make) of each level against fresh deals
   played by the reference, band by band, with a reliability diagram per game saved as a
   PNG in ``--png-dir`` (matplotlib: `pip install '.[bench]'`). A candidate bids with the
   spread fitted to the shipped network of its game (`meldcalc/advice/tableplay.json`):
   its own is fitted from its runs once it ships (bench/fit_spread.py), so its rows say
   how far the shipped spread misses its play, not how calibrated it would ship;
3. review times (bench/review.py): seeded single-deck deals reviewed by the solver, CPU
   seconds (the network plays the deals, so they move with it too).

The defaults are a quick look (about 15 minutes on two cores); the issue's figures need
500 hands with 12 fresh deals (`--hands 500 --fresh 12`), 450 deals a fixed hand and 300
random hands (`--deals 450 --random-hands 300`).

Usage: python bench/report.py [--games NAME ...] [--weights FILE] [--deals N]
       [--random-hands N] [--hands N] [--fresh M] [--bid-deals D] [--reviews N]
       [--png-dir DIR] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from meldcalc.engines.learned import Learned, Network, network_from
from meldcalc.engines.lookahead import LAYOUTS as LOOK_LAYOUTS
from meldcalc.engines.reference import EXACT_FROM, LAYOUTS
from meldcalc.rules.loading import load_variant

sys.path.insert(0, str(Path(__file__).parent))
import calibration
import review
import strength

GAMES = ["single-deck", "double-deck", "three-handed"]


def networks(weights: Path | None) -> dict[str, Network | None]:
    """The networks judged: the package's (None), and the candidate's, if given."""
    judged: dict[str, Network | None] = {"shipped": None}
    if weights is not None:
        judged["candidate"] = network_from(json.loads(weights.read_text()), str(weights))
    return judged


def strength_table(name: str, judged: dict[str, Network | None], args: argparse.Namespace) -> None:
    variant = load_variant(name)
    options = argparse.Namespace(
        deals=args.deals,
        hands=args.random_hands,
        layouts=LAYOUTS,
        exact_from=EXACT_FROM,
        seed=args.seed,
        look_layouts=LOOK_LAYOUTS,
    )
    print(f"\n## strength: {name} (bidding side's trick points of {variant.trick_total})")
    print(strength.row([column for column, _ in strength.COLUMNS]))
    for number, group in enumerate(strength._groups(variant)):
        deals = strength.group_deals(variant, group, options, args.seed * 100 + number)
        known: dict[str, np.ndarray] = {}
        for label, network in judged.items():
            policy = type(f"Learned_{label}", (Learned,), {"network": network})
            points = strength.measure(variant, deals, options, policy, False, known)
            known["reference"] = points["reference"]
            print(strength.report(group, label, points, None), flush=True)


def calibration_table(
    name: str, judged: dict[str, Network | None], args: argparse.Namespace
) -> None:
    options = argparse.Namespace(
        variant=name,
        hands=args.hands,
        fresh=args.fresh,
        deals=args.bid_deals,
        seed=args.seed,
        strong=0,
        policy="learned",
    )
    print(f"\n## calibration: {name} ({args.hands} hands x {args.fresh} fresh deals)")
    variant = load_variant(name)
    diagram, gaps = {}, {}
    for label, network in judged.items():
        Learned.network = network  # bid plays "learned" in this process (jobs 1)
        try:
            [(predicted, totals, meta)] = calibration.run(options)
        finally:
            Learned.network = None
        listed = calibration.levels(variant, predicted, "bid")
        rows = [
            (hand, probability, bool(total >= bid))
            for hand, make in enumerate(listed)
            for bid, probability in make
            for total in totals[hand]
        ]
        lines, gaps[label], diagram[label] = calibration.table(
            rows, meta["hands"], np.random.default_rng(meta["seed"])
        )
        print(f"{label}:\n{lines}", flush=True)
    print(calibration.side_by_side(gaps))
    png = Path(args.png_dir) / f"reliability-{name}.png"
    png.parent.mkdir(parents=True, exist_ok=True)
    calibration.reliability_diagram(str(png), diagram, f"{name}: bid's P(make) against play")
    print(f"reliability diagram: {png}")


def review_times(judged: dict[str, Network | None], args: argparse.Namespace) -> None:
    print(f"\n## review times: {args.reviews} seeded single-deck deals, CPU seconds")
    single = load_variant("single-deck")
    for label, network in judged.items():
        Learned.network = network
        try:
            deals = list(review.policy_deals(single, args.reviews, args.seed))
        finally:
            Learned.network = None
        kind = (f"{label}'s deals", "single-deck", review.LONG_DEAL_TRICKS, deals)
        review.measure([kind], {"this build": sys.executable}, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--weights", type=Path, help="a candidate network's weights file")
    parser.add_argument("--deals", type=int, default=60, help="deals of each fixed hand")
    parser.add_argument("--random-hands", type=int, default=100, help="random hands, a deal each")
    parser.add_argument("--hands", type=int, default=100, help="calibration's hands")
    parser.add_argument("--fresh", type=int, default=4, help="fresh deals of each hand")
    parser.add_argument("--bid-deals", type=int, default=2000, help="bid's deals a trump")
    parser.add_argument("--reviews", type=int, default=10, help="single-deck deals reviewed")
    parser.add_argument("--png-dir", default=".", help="where the reliability diagrams go")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    judged = networks(args.weights)
    print(f"networks judged: {', '.join(judged)}; seed {args.seed}")
    for name in args.games:
        strength_table(name, judged, args)
        calibration_table(name, judged, args)
    review_times(judged, args)


if __name__ == "__main__":
    main()
