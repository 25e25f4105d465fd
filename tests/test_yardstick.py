"""The benches' yardstick stays where it was: bench/yardstick.py plays as 0.2.0 did.

Every figure of bench/strength.py and bench/calibration.py is measured against the
reference playing its layouts out with this frozen policy, so an edit to it would quietly
move every comparison. The digests are of the cards the 0.2.0 policy played in these
seeded deals (measured with `meldcalc.engines.simulate.Game` while its policy was still 0.2.0's,
the one the copy was taken from); a new yardstick belongs in a new file, with new figures.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np
import pytest

from meldcalc.rules.loading import load_variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from games import new_game, random_hand_deals
from yardstick import Yardstick

PLAYED_BY_0_2_0 = {
    "single-deck": "06c3170523b1da4e",
    "double-deck": "e1b7f44f63fc7267",
    "three-handed": "5a3da12f3cb371f0",
    "double-deck-toby-thomas": "fc1b9a90bf1f6871",
}


@pytest.mark.parametrize("name", PLAYED_BY_0_2_0)
def test_the_yardstick_plays_the_cards_0_2_0_played(name: str) -> None:
    variant = load_variant(name)
    deals = random_hand_deals(variant, 200, 7)
    cards = new_game(variant, deals, Yardstick).play(record=True).cards
    digest = hashlib.sha256(cards.astype(np.int8).tobytes()).hexdigest()[:16]
    assert digest == PLAYED_BY_0_2_0[name], "bench/yardstick.py must play as 0.2.0 did"
