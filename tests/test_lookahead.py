"""The look-ahead player: its layouts fit what the seat has seen, are a fair deal where
nothing constrains them, and the same seed plays the same cards (that they are legal in
every variant: tests/test_reference.py, beside the reference's own replay)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.deal import deal_counts
from meldcalc.loading import load_variant
from meldcalc.lookahead import LookAhead, deal_layouts, what_is_seen
from meldcalc.meld import melded_cards
from meldcalc.reference import play, seen_by
from meldcalc.simulate import Game, Table, planes_from_counts

PLAYED = ["single-deck", "three-handed", "double-deck", "cutthroat", "double-deck-three-handed"]


def _game(name: str, count: int, seed: int, **options) -> tuple[Game, np.ndarray]:
    """``count`` random deals with every seat's meld shown, and their hands."""
    variant = load_variant(name)
    counts = deal_counts(variant, count, np.random.default_rng(seed))[:, : variant.players]
    trumps = np.arange(count) % 4
    shown = planes_from_counts(melded_cards(variant, counts, trumps), variant.deck.copies)
    table = Table.of(variant, trumps)
    return Game.from_counts(table, counts, variant.deck.copies, shown=shown, **options), counts


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(PLAYED), seed=st.integers(0, 2**16), plies=st.integers(0, 60))
def test_every_layout_fits_what_the_seat_has_seen(name: str, seed: int, plies: int) -> None:
    """Its own hand in its place, the meld on the table where it lies, no card where its
    seat showed it lacks one, every hand its size: a deal the seat could be facing."""
    game, _ = _game(name, 6, seed, random_seats=(0, 1, 2, 3), rng=np.random.default_rng(seed))
    for _ in range(min(plies, game.cards_left - 1)):
        game.advance(game.policy_cards())
    player = LookAhead(load_variant(name), layouts=12, seed=seed)
    rows = np.arange(game.n)
    layouts = player._layouts(game, rows)
    held = game.held()
    for row in rows:
        seen = seen_by(game, row, held)
        assert all(seen.allows(layout) for layout in layouts[row])


def test_where_nothing_is_known_the_layouts_are_a_fair_deal() -> None:
    """Before the first lead, with no meld shown: each card the seat cannot see lies in
    each other hand about as often as that hand's share of the unseen cards."""
    variant = load_variant("single-deck")
    counts = deal_counts(variant, 1, np.random.default_rng(5))[:, : variant.players]
    game = Game.from_counts(Table.of(variant, 0), counts, variant.deck.copies)
    known, free, room, may_hold = what_is_seen(game, np.array([0]))
    layouts, failed = deal_layouts(known, free, room, may_hold, 20_000, 2, np.random.default_rng(1))
    assert not failed.any()
    share = layouts[:, 1:].mean(axis=0)  # (3 seats, 24): mean copies of each card
    assert share == pytest.approx(np.tile(free[0] / 3, (3, 1)), abs=0.02)


def test_a_hand_that_must_take_every_card_it_may_hold_takes_them() -> None:
    """Seat 1 has shown it holds only spades and has room for all the spades unseen: every
    layout gives it exactly those, and none is drawn again."""
    free = np.zeros((1, 24), dtype=np.int64)
    free[0, [0, 1, 2]] = 1  # AS 10S KS
    free[0, [6, 7, 12, 13]] = 1  # AH 10H AD 10D
    room = np.array([[0, 3, 2, 2]])
    may_hold = np.ones((1, 4, 24), dtype=bool)
    may_hold[0, 0] = False
    may_hold[0, 1, 6:] = False  # seat 1: no hearts, diamonds, clubs
    known = np.zeros((1, 4, 24), dtype=np.int64)
    layouts, failed = deal_layouts(known, free, room, may_hold, 500, 1, np.random.default_rng(2))
    assert not failed.any()
    assert (layouts[:, 1, :3] == 1).all() and layouts[:, 1].sum(axis=1).tolist() == [3] * 500


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_a_draw_never_breaks_a_constraint_and_says_when_it_found_no_seat(seed: int) -> None:
    """Random small constraint sets that some deal fits: every draw not marked failed gives
    each seat its room exactly, every card where it may lie."""
    rng = np.random.default_rng(seed)
    truth = np.zeros((1, 4, 24), dtype=np.int64)
    cards = rng.choice(24, size=9, replace=False)
    for i, card in enumerate(cards):
        truth[0, 1 + i % 3, card] = 1
    may_hold = rng.random((1, 4, 24)) < 0.6
    may_hold |= truth > 0  # the real deal fits
    may_hold[0, 0] = False
    free, room = truth.sum(axis=1), truth.sum(axis=2)
    known = np.zeros_like(truth)
    layouts, failed = deal_layouts(known, free, room, may_hold, 50, 1, rng)
    kept = layouts[~failed]
    assert (kept.sum(axis=2) == room).all()
    assert (kept.sum(axis=1) == free).all()
    assert not (kept * ~may_hold).any()


@pytest.mark.parametrize("name", ["single-deck", "three-handed"])
def test_the_same_seed_plays_the_same_game(name: str) -> None:
    variant = load_variant(name)
    runs = []
    for _ in range(2):
        game, _ = _game(name, 4, seed=8)
        player = LookAhead(variant, seed=4)
        runs.append(play(game, dict.fromkeys(range(variant.players), player), record=True))
        runs.append(game.recorded()[0])
    assert (runs[0] == runs[2]).all() and (runs[1] == runs[3]).all()
