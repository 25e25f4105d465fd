"""The reference player and what it builds on: the table's knowledge, the layouts it deals,
forked games, melded cards; legal, reproducible play. And the look-ahead player, the
reference with layouts dealt for all deals at once: its layouts fit what the seat has seen
and are a fair deal where nothing constrains them."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.unseen import Seen, deal_layouts, sample_layouts
from meldcalc.engines.lookahead import LookAhead, what_is_seen
from meldcalc.engines.reference import Reference, play, seen_by
from meldcalc.engines.simulate import Game, Table
from meldcalc.rules.bits import BIT_OF, counts_from_planes, planes_from_counts
from meldcalc.rules.cards import CARDS, SUITS, Hand
from meldcalc.rules.loading import load_variant, shipped_names
from meldcalc.rules.meld import engine_for, melded_cards
from meldcalc.rules.tricks import legal_cards, winning_position

PLAYED = ["single-deck", "three-handed", "double-deck", "cutthroat"]
EXAMPLES = Path(__file__).resolve().parent.parent / "variants" / "examples"
AUCTION_VARIANTS = [name for name in shipped_names() if load_variant(name).bidding is not None]
AUCTION_VARIANTS.append(str(EXAMPLES / "house-easy-play.yaml"))  # head/overtrump switched off


def _game(name: str, count: int, seed: int, **options) -> tuple[Game, np.ndarray]:
    """A game of ``count`` random deals with every seat's meld shown, and its hands."""
    variant = load_variant(name)
    counts = deal_counts(variant, count, np.random.default_rng(seed))[:, : variant.players]
    trumps = np.arange(count) % 4
    shown = planes_from_counts(melded_cards(variant, counts, trumps), variant.deck.copies)
    table = Table.of(variant, trumps)
    return Game.from_counts(table, counts, variant.deck.copies, shown=shown, **options), counts


def _play_plies(game: Game, plies: int) -> None:
    for _ in range(plies):
        game.advance(game.policy_cards())


@pytest.mark.parametrize("name", PLAYED)
def test_what_the_table_knows_is_true_of_the_real_hands(name: str) -> None:
    """No seat ever holds a card it has shown it lacks, nor lacks one still shown."""
    game, _ = _game(name, 300, seed=3, random_seats=(1, 2), rng=np.random.default_rng(1))
    players = game.t.players
    while not game.over:
        held = game.held().reshape(-1, 24)
        lacks = (game.lacks[:, None] >> BIT_OF) & 1
        assert not (held * lacks).any()
        assert (counts_from_planes(game.shown).reshape(-1, 24) <= held).all()
        game.advance(game.policy_cards())
    assert game.lacks.reshape(-1, players).any()  # voids were shown


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(PLAYED),
    seed=st.integers(0, 2**16),
    plies=st.integers(0, 40),
)
def test_layouts_always_fit_what_the_seat_has_seen(name: str, seed: int, plies: int) -> None:
    game, _ = _game(name, 4, seed, random_seats=(0, 1, 2, 3), rng=np.random.default_rng(seed))
    _play_plies(game, min(plies, game.cards_left - 1))
    held = game.held()
    rng = np.random.default_rng(seed)
    for deal in range(game.n):
        seen = seen_by(game, deal, held)
        assert seen.allows(held[deal])  # the real deal fits: the knowledge is sound
        for layout in sample_layouts(seen, 20, rng):
            assert seen.allows(layout)


def test_layouts_are_drawn_uniformly_from_the_deals_that_fit() -> None:
    """A small case counted by hand: every fitting deal about equally often."""
    hand = np.zeros(24, dtype=np.int64)
    unseen = np.zeros(24, dtype=np.int64)
    unseen[[0, 1, 6, 7, 12]] = [2, 1, 1, 1, 1]  # AS AS 10S AH 10H AD
    lacks = np.zeros((4, 24), dtype=bool)
    lacks[1, :6] = True  # seat 1 showed no spades
    known = np.zeros((4, 24), dtype=np.int64)
    known[3, 12] = 1  # seat 3 melded the AD
    seen = Seen(0, hand, unseen, np.array([0, 2, 2, 2]), known, lacks)
    drawn = sample_layouts(seen, 60_000, np.random.default_rng(0))
    found = Counter(tuple(layout[1:].ravel()) for layout in drawn)
    fitting = _fitting_deals(seen)
    assert set(found) == set(fitting)
    total = sum(fitting.values())
    for layout, ways in fitting.items():
        assert found[layout] / len(drawn) == pytest.approx(ways / total, abs=0.012)


def _fitting_deals(seen: Seen) -> Counter:
    """Every deal of the physical unseen cards to seats 1-3, counted by the layout it makes."""
    physical = [card for card in range(24) for _ in range(seen.unseen[card])]
    deals: Counter = Counter()
    for seats in product((1, 2, 3), repeat=len(physical)):
        layout = np.zeros((4, 24), dtype=np.int64)
        for card, seat in zip(physical, seats):
            layout[seat, card] += 1
        if seen.allows(layout):
            deals[tuple(layout[1:].ravel())] += 1
    return deals


@pytest.mark.parametrize("name", PLAYED)
def test_a_fork_with_the_real_hands_plays_on_exactly_as_the_game(name: str) -> None:
    game, _ = _game(name, 200, seed=5)
    _play_plies(game, 2 * game.t.players + 1)  # mid-trick, with voids maybe shown
    fork = game.fork(np.arange(game.n), game.hands.copy())
    points_before = game.team_points.copy()
    ours, theirs = game.play(record=True), fork.play(record=True)
    assert (ours.cards == theirs.cards).all()
    assert (ours.team_points - points_before == theirs.team_points).all()


@pytest.mark.parametrize("name", PLAYED)
def test_a_game_can_start_with_cards_on_the_table(name: str) -> None:
    variant = load_variant(name)
    game, _ = _game(name, 200, seed=6)
    game.record()
    _play_plies(game, 2)
    cards, _ = game.recorded()
    shown = game.shown.reshape(game.hands.shape)
    started = Game.from_counts(
        Table.of(variant, np.arange(200) % 4),
        game.held(),
        variant.deck.copies,
        trick=cards,
        shown=shown,
    )
    assert (started.legal() == game.legal()).all()
    assert (started.play().team_points == game.play().team_points).all()


@pytest.mark.parametrize("name", ["single-deck", "double-deck-toby-thomas", "three-handed"])
def test_melded_cards_are_the_cards_of_the_best_meld(name: str) -> None:
    variant = load_variant(name)
    engine = engine_for(variant)
    hands = deal_counts(variant, 200, np.random.default_rng(2))[:, 0]
    for trump in SUITS:
        shown = engine.melded(hands, [trump])[trump]
        for hand, cards in zip(hands[:60], shown):
            result = engine.best(Hand(hand.tolist()), trump)
            used = np.zeros(24, dtype=np.int64)
            for meld in result.melds:
                used = np.maximum(used, np.bincount([c.index for c in meld.cards], minlength=24))
            assert (cards >= used).all() and (cards <= hand).all()
            assert (cards > 0).sum() == len({c.index for m in result.melds for c in m.cards})


@pytest.mark.parametrize("name", PLAYED)
def test_the_reference_plays_legal_cards_and_the_same_seed_the_same_game(name: str) -> None:
    variant = load_variant(name)
    runs = []
    for _ in range(2):
        game, counts = _game(name, 3, seed=8)
        player = Reference(variant, layouts=6, exact_from=3, seed=4)
        points = play(game, dict.fromkeys(range(variant.players), player), record=True)
        runs.append((points.copy(), *game.recorded()))
    (points, cards, seats), again = runs[0], runs[1]
    assert (cards == again[1]).all() and (points == again[0]).all()
    for deal in range(len(counts)):
        assert _replayed_points(variant, counts[deal], cards[deal], seats[deal], deal % 4) == list(
            points[deal]
        )


@pytest.mark.parametrize("name", AUCTION_VARIANTS)
def test_it_plays_legal_cards_in_every_variant(name: str) -> None:
    """In every variant with an auction (and a house file without the duty to head):
    every card it plays is legal by `meldcalc.rules.tricks`, and the points are the rules'."""
    variant = load_variant(name)
    game, counts = _game(name, 2, seed=8)
    player = LookAhead(variant, layouts=2, seed=4)
    points = play(game, dict.fromkeys(range(variant.players), player), record=True)
    cards, seats = game.recorded()
    for deal in range(len(counts)):
        replayed = _replayed_points(variant, counts[deal], cards[deal], seats[deal], deal % 4)
        assert replayed == list(points[deal])


def _replayed_points(variant, counts, cards, seats, trump_index: int) -> list[int]:
    """Play the recorded cards again under the trick rules; the points each side took."""
    trump, hands = SUITS[trump_index], [list(map(int, hand)) for hand in counts]
    team = Table.of(variant, trump).team
    leader, points, players = 0, [0, 0], variant.players
    for start in range(0, len(cards), players):
        trick = []
        for position in range(players):
            card, seat = int(cards[start + position]), int(seats[start + position])
            assert seat == (leader + position) % players
            assert card in legal_cards(hands[seat], trick, trump, variant.head, variant.overtrump)
            hands[seat][card] -= 1
            trick.append(card)
        leader = (leader + winning_position(trick, trump)) % players
        value = sum(variant.counters.get(CARDS[c].rank, 0) for c in trick)
        points[team[leader]] += value + (variant.last_trick if not any(map(any, hands)) else 0)
    assert not any(map(any, hands))
    return points


# --- the look-ahead player -------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from([*PLAYED, "double-deck-three-handed"]),
    seed=st.integers(0, 2**16),
    plies=st.integers(0, 60),
)
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
