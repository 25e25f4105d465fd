"""`meldcalc hint`: the time one decision takes, from a whole deal to the last tricks.

Seeded single-deck deals are played out by the policy; at fixed points of each (the first
lead, a card later, a quarter and a half through, the first decision with 6 tricks left,
where values become exact, and later) the seat to play asks for a hint from its hand as
dealt and the cards played. Prints the median and the worst time per point, and whether
the values were played out or exact: with the layouts weighed by the others' plays (the
default, `meldcalc.engines.inference`) beside the same hints drawn uniformly (``--uniform``,
the build before the inference: what reading the plays costs), and the weights' median
effective sample.

Usage: python bench/hint.py [--deals N] [--layouts N]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from meldcalc.advice.hint import LAYOUTS, hint
from meldcalc.advice.history import parse_query
from meldcalc.engines.simulate import Game, Table
from meldcalc.rules.cards import CARD_NAMES, Hand, Suit
from meldcalc.rules.loading import load_variant

POINTS = (0, 1, 12, 23, 24, 30, 36)  # cards played before the decision


def played_deal(seed: int, variant):
    """A seeded deal as dealt, the cards the policy played and the seat of each."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(24), variant.deck.copies)
    rng.shuffle(deck)
    counts = np.zeros((1, variant.players, 24), dtype=np.int64)
    size = variant.hand_size
    for seat in range(variant.players):
        np.add.at(counts[0, seat], deck[seat * size : (seat + 1) * size], 1)
    out = Game.from_counts(Table.of(variant, Suit.SPADES), counts, variant.deck.copies).play(True)
    return counts[0], list(out.cards[0]), list(out.seats[0])


def main() -> None:
    args = sys.argv[1:]
    deals = int(args[args.index("--deals") + 1]) if "--deals" in args else 10
    layouts = int(args[args.index("--layouts") + 1]) if "--layouts" in args else LAYOUTS
    variant = load_variant("single-deck")
    games = [played_deal(seed, variant) for seed in range(deals)]
    print(f"{deals} seeded single-deck deals, {layouts:,} layouts a hint, trump S")
    print("                                      weighed (median, worst)   uniform     effective")
    for played in POINTS:
        times = {True: [], False: []}
        method, left, effective = "", 0, []
        for counts, cards, seats in games:
            line = f"{Hand(counts[seats[played]]).notation()} | trump S | played "
            line += " ".join(CARD_NAMES[card] for card in cards[:played])
            for infer in (False, True):
                start = time.perf_counter()
                found = hint(parse_query(line, variant), variant, layouts, infer=infer)
                times[infer].append(time.perf_counter() - start)
            method, left = found.method, found.tricks_left
            if found.inference is not None:
                effective.append(found.inference.effective)
        weighed, uniform = times[True], times[False]
        print(
            f"after {played:2} cards ({left:2} tricks left, {method:8}):"
            f" {statistics.median(weighed):5.2f} s {max(weighed):5.2f} s"
            f"    {statistics.median(uniform):5.2f} s {max(uniform):5.2f} s"
            f"    {statistics.median(effective) if effective else float('nan'):7,.0f}"
        )


if __name__ == "__main__":
    main()
