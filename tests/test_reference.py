"""The reference player and what it builds on: the table's knowledge, the layouts it deals,
forked games, melded cards; legal, reproducible play."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.cards import CARDS, SUITS, Hand
from meldcalc.deal import deal_counts
from meldcalc.loading import load_variant, shipped_names
from meldcalc.lookahead import LookAhead
from meldcalc.meld import engine_for, melded_cards
from meldcalc.play import legal_cards, winning_position
from meldcalc.reference import Reference, Seen, play, sample_layouts, seen_by
from meldcalc.simulate import BIT_OF, Game, Table, counts_from_planes, planes_from_counts

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
    every card it plays is legal by `meldcalc.play`, and the points are the rules'."""
    variant = load_variant(name)
    game, counts = _game(name, 2, seed=8)
    player = LookAhead(variant, layouts=2, seed=4)
    points = play(game, dict.fromkeys(range(variant.players), player), record=True)
    cards, seats = game.recorded()
    for deal in range(len(counts)):
        replayed = _replayed_points(variant, counts[deal], cards[deal], seats[deal], deal % 4)
        assert replayed == list(points[deal])


def _replayed_points(variant, counts, cards, seats, trump_index: int) -> list[int]:
    """Play the recorded cards again under play.py's rules; the points each side took."""
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
