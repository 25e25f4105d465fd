"""The fast bid model, and what an auction's bids say of the hands behind them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meldcalc.advice.bidding import estimate
from meldcalc.dealing import bidmodel
from meldcalc.dealing.deal import deals
from meldcalc.dealing.knowledge import TableKnowledge
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import Hand
from meldcalc.rules.loading import load_variant

SINGLE = load_variant("single-deck")
HAND = Hand.parse("AS 10S KS QS JD 9S AH 10H KH AD KC QC")


def test_every_shipped_auction_game_has_weights_of_its_own_family() -> None:
    shipped = json.loads(
        (bidmodel.resources.files("meldcalc.dealing") / bidmodel.WEIGHTS).read_text()
    )
    assert shipped["version"] == bidmodel.VERSION and shipped["features"] == list(bidmodel.FEATURES)
    for name in ("single-deck", "double-deck", "cutthroat", "three-handed"):
        variant = load_variant(name)
        assert bidmodel.model_for(variant).family == bidmodel.family(variant)
    assert bidmodel.model_for(load_variant("double-deck-three-handed")).family == "4x3sw"


def test_the_models_level_follows_the_hand_meld_and_strength() -> None:
    """More meld, or an ace more, never lowers the level a hand bids to."""
    model = bidmodel.model_for(SINGLE)
    hands = np.array([dealt.hands[0].counts for dealt in deals(SINGLE, 200, 3)])
    levels = model.levels(hands, SINGLE)
    assert levels.shape == (200,) and np.isfinite(levels).all()
    strong = Hand.parse("AS AS 10S 10S KS KS QS QS JS JS JD AH")
    weak = Hand.parse("9S 9H 9H JH QD 9D 9D JC JC 9C 10C QH")
    assert model.levels(np.array([strong.counts, weak.counts]), SINGLE).tolist()[0] > 600


def test_a_damaged_or_mismatched_weights_file_is_one_clear_error(tmp_path, monkeypatch) -> None:
    class Files:
        def __init__(self, text: str) -> None:
            self.text = text

        def joinpath(self, name: str) -> Files:
            return self

        def read_text(self) -> str:
            return self.text

    def shipped(text: str) -> None:
        monkeypatch.setattr(bidmodel.resources, "files", lambda package: Files(text))
        bidmodel._load.cache_clear()

    try:
        for text, said in (
            ("{not json", "cannot be read"),
            ('{"version": 99}', "version 99, this meldcalc reads version 1"),
            ('{"version": 1, "features": ["aces"]}', "the weights are for other features"),
            (
                json.dumps(
                    {
                        "version": 1,
                        "features": list(bidmodel.FEATURES),
                        "families": {"2x4p": {"weights": [1, 2], "spread": 0.1}},
                    }
                ),
                "family '2x4p': expected 8 weights",
            ),
        ):
            shipped(text)
            with pytest.raises(MeldcalcError, match=said):
                bidmodel.model_for(SINGLE)
    finally:
        monkeypatch.undo()
        bidmodel._load.cache_clear()
    assert bidmodel.model_for(SINGLE).family == "2x4p"


def test_a_partners_high_bid_raises_its_expected_meld_and_a_pass_lowers_it() -> None:
    """The auction read: the deals kept as likely as the bids say. A partner that bid 350
    holds more meld, on average, than one that passed the opening bid."""
    plain = estimate(HAND, SINGLE, deals=600, seed=4, trumps=None)
    bid = estimate(
        HAND, SINGLE, deals=600, seed=4, knowledge=TableKnowledge(bids=((2, 350, None),))
    )
    passed = estimate(
        HAND, SINGLE, deals=600, seed=4, knowledge=TableKnowledge(bids=((2, None, 250),))
    )
    means = [report.best.partner_meld for report in (passed, plain, bid)]
    assert means[0] < means[1] - 2 and means[1] + 20 < means[2], means
    assert "partner bid 350 (read by the bid model)" in bid.knowledge.describe(SINGLE)
