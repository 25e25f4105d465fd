"""The strong table's spread: each simulated deal's trick points moved as strong players'
play moves them, in the odds `bid` gives by default and nowhere else."""

from __future__ import annotations

import json
import re
from importlib import resources

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from meldcalc.advice.bidding import estimate
from meldcalc.advice.chunks import run_chunks
from meldcalc.advice.tableplay import (
    FITS,
    Spread,
    fits_from,
    network_digest,
    network_played,
    spread_for,
)
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import SUITS, Hand
from meldcalc.rules.loading import load_variant

SINGLE = load_variant("single-deck")
HAND = Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH")


def test_the_shipped_fits_load_and_each_names_the_network_its_game_plays() -> None:
    data = json.loads(resources.files("meldcalc.advice").joinpath(FITS).read_text())
    fits = fits_from(data, FITS)
    # single deck, double deck, three-handed, cutthroat, the Toby Thomas exchange
    assert {"2x4p", "4x4p", "2x3sw", "2x3s", "4x4p+pass"} <= set(fits)
    for key, (_, _, network, digest) in fits.items():
        assert network == network_played(load_variant(data["families"][key]["game"]))
        assert digest == network_digest(network)
    # single deck plays a network of its own, the others the shared one
    assert fits["2x4p"][2] == "policy-single-deck.json" and fits["4x4p"][2] == "policy.json"


def test_a_fit_of_another_network_is_refused_not_applied(monkeypatch) -> None:
    """A fit is of one network's self-play: applied to another's it would move the odds by
    a lean that network does not have."""
    from meldcalc.advice import tableplay

    fits = dict(tableplay._load())
    mean, sd, _, digest = fits["2x4p"]
    monkeypatch.setattr(
        tableplay, "_load", lambda: {**fits, "2x4p": (mean, sd, "policy.json", digest)}
    )
    played = "'2x4p' was fitted to another network than meldcalc/engines/policy-single-deck.json"
    with pytest.raises(MeldcalcError, match=re.escape(played)):
        spread_for(SINGLE, "learned", 0, 0)
    monkeypatch.setattr(
        tableplay,
        "_load",
        lambda: {**fits, "2x4p": (mean, sd, "policy-single-deck.json", "0" * 64)},
    )
    with pytest.raises(MeldcalcError, match="fit it again"):
        spread_for(SINGLE, "learned", 0, 0)


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("single-deck", "2x4p"),
        ("double-deck", "4x4p"),
        ("three-handed", "2x3sw"),
        ("cutthroat", "2x3s"),
        ("double-deck-toby-thomas", "4x4p+pass"),  # double deck's hands, but passed: its own
    ],
)
def test_each_fitted_game_spreads_its_default_bid_in_its_own_points(name: str, family: str) -> None:
    variant = load_variant(name)
    spread = spread_for(variant, "learned", 0, 0)
    assert spread is not None and spread.family == family
    assert spread.step == variant.trick_step and spread.total == variant.trick_total
    assert 0 < spread.sd < 0.25 * variant.trick_total


def test_no_spread_where_it_was_not_fitted() -> None:
    """The fit is of the learned policy's plain self-play: the rules, exact endgames and a
    strong check (which measures the table's play on the hand itself) take none, nor a
    game of a family with no fit (two-handed; double-deck three-handed, whose self-play
    needed none)."""
    assert spread_for(SINGLE, "rules", 0, 0) is None
    assert spread_for(SINGLE, "learned", 3, 0) is None
    assert spread_for(SINGLE, "learned", 0, 20) is None
    assert spread_for(load_variant("two-handed"), "learned", 0, 0) is None
    assert spread_for(load_variant("double-deck-three-handed"), "learned", 0, 0) is None


def test_the_spread_moves_trick_points_only_and_the_same_draw_under_every_trump() -> None:
    """The deals, the meld and the tricks taken are as without it; each deal's trick
    points move by a multiple of the trick step, the same under every trump, within the
    deal's points; the moves average about the fitted mean."""
    spread = spread_for(SINGLE, "learned", 0, 0)
    plain, spread_out = (
        run_chunks(HAND, SINGLE, 4000, 11, list(SUITS), 1, None, spread=s) for s in (None, spread)
    )
    moves, inside = [], []
    for setup, sample in plain.items():
        moved = spread_out[setup]
        assert (moved.meld == sample.meld).all() and (
            moved.tricks_taken == sample.tricks_taken
        ).all()
        assert ((moved.tricks - sample.tricks) % SINGLE.trick_step == 0).all()
        assert moved.tricks.min() >= 0 and moved.tricks.max() <= SINGLE.trick_total
        moves.append(moved.tricks - sample.tricks)
        inside.append((sample.tricks > 60) & (sample.tricks < SINGLE.trick_total - 60))
    for move, unclipped in zip(moves, inside):  # where no clip is near: the same draw
        both = unclipped & inside[0]
        assert both.sum() > 300 and (move[both] == moves[0][both]).all()
    first = moves[0][inside[0]]
    assert len(first) > 1000 and abs(first.mean() - spread.mean) < 1.5  # sd 12 / sqrt(1000): 0.4
    assert abs(first.std() - spread.sd) < 1.5  # rounding to 5 adds ~1.4 in quadrature


def test_a_bid_with_the_spread_repeats_with_its_seed_and_whatever_the_jobs() -> None:
    one, again, two = (estimate(HAND, SINGLE, 2500, seed=4, jobs=jobs) for jobs in (1, 1, 2))
    assert one.spread is not None
    for a, b in ((one, again), (one, two)):
        assert [o.make for o in a.results] == [o.make for o in b.results]
        assert all((x.tricks == y.tricks).all() for x, y in zip(a.results, b.results))


def test_the_spread_flag_is_checked_as_every_argument_is() -> None:
    with pytest.raises(TypeError, match="spread: expected True or False, not str"):
        estimate(HAND, SINGLE, 100, seed=1, spread="no")


def test_the_spread_makes_the_strong_hand_less_sure_of_its_top_bids() -> None:
    """A wider distribution of the same mean: the bids made most often are made less
    often, so the highest bid at 90% is at most that of the self-play alone."""
    spread, plain = (estimate(HAND, SINGLE, 2000, seed=3, spread=s) for s in (True, False))
    assert plain.spread is None and spread.spread is not None
    sure = [bid for bid, p in plain.best.make if p >= 0.95]
    for bid in sure:
        assert dict(spread.best.make).get(bid, 1.0) <= dict(plain.best.make)[bid] + 0.01


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ([], "not a spread file of format 2"),
        ({"format": 1}, "not a spread file of format 2"),
        ({"format": True}, "not a spread file of format 2"),
        ({"format": 2, "families": {}}, "no families"),
        ({"format": 2, "families": []}, "no families"),
        ({"format": 2, "families": {"2x4p": {"mean": 0}}}, "'2x4p'"),
        ({"format": 2, "families": {"2x4p": {"mean": 0, "sd": -0.01}}}, "from 0 to 0.25"),
        ({"format": 2, "families": {"x": {"mean": float("nan"), "sd": 0}}}, "'x'"),
        ({"format": 2, "families": {"x": {"mean": True, "sd": 0}}}, "'x'"),
        ({"format": 2, "families": {"x": {"mean": 0, "sd": 0}}}, "'x': expected the network"),
        (
            {
                "format": 2,
                "families": {"x": {"mean": 0, "sd": 0, "network": 1, "network_sha256": "N"}},
            },
            "'x': expected the network",
        ),
    ],
)
def test_a_damaged_fits_file_is_one_clear_error(data: object, said: str) -> None:
    with pytest.raises(MeldcalcError, match=said) as error:
        fits_from(data, "tableplay.json")
    assert str(error.value).startswith("tableplay.json: ") and "\n" not in str(error.value)


@given(
    tricks=st.lists(st.integers(0, 50), min_size=1, max_size=40),
    mean=st.floats(-12, 12),
    sd=st.floats(0, 25),
    seed=st.integers(0, 2**31),
)
def test_moved_trick_points_stay_whole_steps_within_the_deal(
    tricks: list[int], mean: float, sd: float, seed: int
) -> None:
    spread = Spread("2x4p", mean, sd, 5, 250)
    points = np.array(tricks) * 5
    draws = spread.chunk_draws(seed, [(0,), (1,)], [len(points), 3])[: len(points)]
    moved = spread.moved(points, draws)
    assert (moved % 5 == 0).all() and moved.min() >= 0 and moved.max() <= 250
