"""The exact solver (meldcalc.engines.solve over the C search) held to the plain minimax, on
realistic endgames of every variant with trick play (and decks of one and four copies);
its line replayed under the trick rules (rules/tricks.py); bad input refused with clear errors."""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from meldcalc.engines import minimax, solve
from meldcalc.engines.endgames import random_endgame
from meldcalc.engines.solve import Position, card_values_many, seat_sides, solve_many
from meldcalc.errors import HandError, UnsupportedError
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS, RANKS, Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Deck, Variant

pytest.importorskip("meldcalc.engines._solver", reason="the C solver is not built")

EXAMPLES = Path(__file__).resolve().parent.parent / "variants" / "examples"
SHIPPED = ["single-deck", "single-deck-classic", "three-handed", "cutthroat", "double-deck"]
SHIPPED.append("double-deck-100-aces")
# (endgames of 3 tricks, endgames of 4 tricks) compared with the minimax per variant
SHORT, LONG = 250, 50


def _variants() -> dict[str, Variant]:
    variants = {name: load_variant(name) for name in SHIPPED}
    variants["house-easy-play"] = load_variant(EXAMPLES / "house-easy-play.yaml")
    single = load_variant("single-deck")
    variants["head-never"] = dataclasses.replace(single, head="never")
    # decks no variant ships: one copy, and four of six ranks (too big for an exact key)
    variants["one-copy"] = dataclasses.replace(single, deck=Deck(RANKS, 1), hand_size=6)
    variants["four-copies"] = dataclasses.replace(single, deck=Deck(RANKS, 4), hand_size=24)
    return variants


VARIANTS = _variants()


def _endgames(variant: Variant, count: int, tricks: int, seed: int) -> list[Position]:
    """Random endgames, a third of them at a trick boundary, the rest part-way through."""
    rng = random.Random(seed)
    return [
        random_endgame(variant, tricks, rng, on_table=rng.randrange(variant.players) * (i % 3 > 0))
        for i in range(count)
    ]


def _arrays(positions: list[Position], players: int) -> tuple[np.ndarray, ...]:
    hands = np.array([[hand.counts for hand in p.hands] for p in positions])
    trumps = np.array([p.trump.index for p in positions])
    leaders = np.array([p.leader for p in positions])
    tricks = np.array([[*p.trick, *[-1] * (players - 1 - len(p.trick))] for p in positions])
    return hands, trumps, leaders, tricks


@pytest.mark.parametrize("name", VARIANTS)
def test_every_card_value_equals_the_plain_minimax(name: str) -> None:
    variant = VARIANTS[name]
    positions = _endgames(variant, SHORT, 3, seed=1) + _endgames(variant, LONG, 4, seed=2)
    hands, trumps, leaders, tricks = _arrays(positions, variant.players)
    values, cards = card_values_many(hands, trumps, leaders, variant, tricks)
    sides = seat_sides(variant)
    for i, position in enumerate(positions):
        expected = minimax.card_values(position, variant)
        got = {card: int(cards[i, card]) for card in range(NUM_CARDS) if cards[i, card] >= 0}
        assert got == expected, f"{name} position {i}: {position}"
        # minimax.best's value, picked from these values rather than searched for again
        pick = max if sides[position.to_play] == 0 else min
        assert values[i] == pick(expected.values())


@pytest.mark.parametrize("name", ["single-deck", "three-handed", "double-deck"])
def test_the_batch_path_equals_one_position_at_a_time(name: str) -> None:
    variant = VARIANTS[name]
    positions = _endgames(variant, 40, 5, seed=3)
    hands, trumps, leaders, tricks = _arrays(positions, variant.players)
    values = solve_many(hands, trumps, leaders, variant, tricks)
    with_cards, _ = card_values_many(hands, trumps, leaders, variant, tricks)
    singles = [solve.solve(position, variant, line=False).value for position in positions]
    assert values.tolist() == singles == with_cards.tolist()


@pytest.mark.parametrize("name", ["single-deck", "three-handed", "double-deck", "head-never"])
def test_a_review_prices_the_card_played_as_the_full_search_does(name: str) -> None:
    """With ``played``, the played card's value and the set of optimal cards are those of
    the search that values every card (itself held to the minimax above)."""
    variant = VARIANTS[name]
    positions = _endgames(variant, 60, 5, seed=4)
    hands, trumps, leaders, tricks = _arrays(positions, variant.players)
    values, full = card_values_many(hands, trumps, leaders, variant, tricks)
    rng = random.Random(5)
    played = np.array([rng.choice(np.flatnonzero(row >= 0)) for row in full])
    review_values, priced = card_values_many(hands, trumps, leaders, variant, tricks, played)
    assert review_values.tolist() == values.tolist()
    for i, card in enumerate(played):
        assert priced[i, card] == full[i, card]
        assert ((priced[i] == values[i]) == (full[i] == values[i])).all()  # the optimal set
        assert ((priced[i] >= 0) == (full[i] >= 0)).all()  # the legal cards


def _replay(position: Position, variant: Variant, solution: solve.Solution) -> int:
    """Play the line under the trick rules; return the points seat 0's side takes."""
    hands = [list(hand.counts) for hand in position.hands]
    sides, leader, total = seat_sides(variant), position.leader, 0
    for number, trick in enumerate(solution.line):
        assert trick.leader == leader
        for i, card in enumerate(trick.cards):
            seat = (leader + i) % variant.players
            if number == 0 and i < len(position.trick):
                continue  # on the table already
            legal = legal_cards(
                hands[seat], trick.cards[:i], position.trump, variant.head, variant.overtrump
            )
            assert card in legal, f"seat {seat} may not play {CARD_NAMES[card]}"
            hands[seat][card] -= 1
        leader = (leader + winning_position(trick.cards, position.trump)) % variant.players
        assert trick.winner == leader
        total += trick.points if sides[leader] == 0 else 0
    assert not any(map(any, hands)), "the line leaves cards in hand"
    return total


@pytest.mark.parametrize("name", VARIANTS)
def test_the_optimal_line_is_legal_and_adds_up_to_the_value(name: str) -> None:
    variant = VARIANTS[name]
    for position in _endgames(variant, 15, 5, seed=4):
        solution = solve.solve(position, variant)
        assert _replay(position, variant, solution) == solution.value
        assert solution.line[0].cards[len(position.trick)] in solution.best_cards


def test_a_full_single_deck_deal_solves() -> None:
    variant = VARIANTS["single-deck"]
    position = random_endgame(variant, variant.hand_size, random.Random(6))  # solves in 0.3 s
    solution = solve.solve(position, variant)
    assert 0 <= solution.value <= variant.trick_total
    assert solution.value == max(solution.cards.values())  # seat 0 leads for its side
    assert set(solution.cards) == {c for c in range(NUM_CARDS) if position.hands[0].counts[c]}
    assert _replay(position, variant, solution) == solution.value
    assert sum(trick.points for trick in solution.line) == variant.trick_total


def test_three_handed_values_are_seat_zeros_alone() -> None:
    variant = VARIANTS["cutthroat"]
    assert seat_sides(variant) == (0, 1, 1)
    assert seat_sides(VARIANTS["single-deck"]) == (0, 1, 0, 1)


# --- bad input ---------------------------------------------------------------------------

SINGLE = VARIANTS["single-deck"]
FOUR = ["AS 10S", "KS QS", "JS 9S", "AH 10H"]


def test_a_position_needs_one_hand_per_seat() -> None:
    with pytest.raises(HandError, match="expected 4 hands for single-deck, got 3"):
        Position.of(SINGLE, FOUR[:3], Suit.HEARTS)


def test_hands_must_be_of_equal_size_once_the_trick_is_complete() -> None:
    with pytest.raises(HandError, match="expected hands of equal size"):
        Position.of(SINGLE, ["AS 10S", "KS", "JS 9S", "AH 10H"], Suit.HEARTS)
    Position.of(SINGLE, ["AS", "KS QS", "JS 9S", "AH 10H"], Suit.HEARTS, trick=["10S"])


def test_no_more_copies_than_the_deck_holds_counting_the_table() -> None:
    with pytest.raises(HandError, match="3 copies of 'AS'"):
        Position.of(SINGLE, ["AS", "AS QS", "JS 9S", "AH 10H"], Suit.HEARTS, trick=["AS"])


def test_a_card_on_the_table_must_have_been_a_legal_play() -> None:
    # seat 1 holds spades, so it may not have trumped the spade lead
    with pytest.raises(HandError, match="seat 1 may not play 'AH'"):
        Position.of(SINGLE, ["AS", "KS", "JS 9S", "AH 10H"], Suit.HEARTS, trick=["10S", "AH"])


def test_the_c_search_refuses_bad_arrays_with_value_errors() -> None:
    hands = np.array([[Hand.parse(text).counts for text in FOUR]])
    with pytest.raises(ValueError, match="hands: expected 96 int64 values"):
        solve_many(hands[:, :3], 0, 0, SINGLE)
    too_many = hands.copy()
    too_many[0, 1, 0] = 3
    with pytest.raises(ValueError, match="seat 1 holds 3 of AS; the deck has 2"):
        solve_many(too_many, 0, 0, SINGLE)
    with pytest.raises(ValueError, match="seat 1 holds 1 cards and seat 0 2"):
        solve_many(hands - np.eye(NUM_CARDS, dtype=int)[2] * [[0], [1], [0], [0]], 0, 0, SINGLE)
    after = np.array([[Hand.parse(text).counts for text in ["AS", "KS", "JS 9S", "AH 10H"]]])
    with pytest.raises(ValueError, match="seat 1 may not play AH"):  # it holds a spade
        solve_many(after, 1, 0, SINGLE, tricks=np.array([[1, 6, -1]]))
    with pytest.raises(ValueError, match="leader 4 is not a seat"):
        solve_many(hands, 0, 4, SINGLE)
    with pytest.raises(ValueError, match="trump 7 is not a suit"):
        solve_many(hands, 7, 0, SINGLE)


def test_variants_the_solver_cannot_play_are_refused() -> None:
    with pytest.raises(UnsupportedError, match="2 to 4 seats"):
        solve.rules_of(dataclasses.replace(SINGLE, players=6))


def test_a_missing_extension_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "meldcalc.engines._solver", None)
    monkeypatch.setattr(solve, "_local", type(solve._local)())
    assert not solve.solver_available()
    with pytest.raises(UnsupportedError, match="not built in this install"):
        solve_many(np.zeros((1, 4, NUM_CARDS), dtype=int), 0, 0, SINGLE)
