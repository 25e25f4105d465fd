"""The exact solver on every deck shape a house file may give, held to the plain minimax.

A house deck may leave out any ranks (`deck.ranks` is any subset, in any order), hold 1 to 4
copies and count any values, ranks of equal counters next to each other or not. The C search
numbers cards inside runs of equal counters for its table key, merges cards that play alike
and orders moves by their points: all of it must hold on such decks. Seeded random endgames
of each shape are solved by the C search and by `meldcalc.engines.minimax` (slow: short endgames);
many more, longer ones are held to the full deck with the left-out ranks gone from play (the
same positions, which the full deck's search, held to the minimax in test_solve.py and here,
must value alike).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from meldcalc.engines import minimax, solve
from meldcalc.engines.endgames import random_endgame
from meldcalc.engines.solve import Position, card_values_many, seat_sides
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS, RANK_TOKENS, RANKS, SUITS, Card, Hand, Rank
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Deck, Variant

pytest.importorskip("meldcalc.engines._solver", reason="the C solver is not built")

A, TEN, K, Q, J, NINE = RANKS

#: Counters by rank (A 10 K Q J 9); a deck keeps those of its own ranks.
COUNTERS = {
    "modern": (10, 10, 5, 0, 0, 0),
    "every-rank-different": (11, 10, 4, 3, 2, 1),
    "zero-runs": (0, 0, 7, 0, 0, 3),  # a run of zeros on top, another in the middle
    "classic-zero-nine": (11, 10, 4, 3, 2, 0),
    "all-equal": (5, 5, 5, 5, 5, 5),
    "last-trick-only": (0, 0, 0, 0, 0, 0),
}

#: The ranks a deck leaves out: each rank in turn, none, and a few gaps of several ranks.
LEFT_OUT: list[tuple[Rank, ...]] = [(rank,) for rank in RANKS]
LEFT_OUT += [(), (TEN, Q), (K, J), (A, Q, NINE), (TEN, Q, J, NINE)]

BASES = {4: load_variant("single-deck"), 3: load_variant("three-handed")}


def shown(ranks: tuple[Rank, ...]) -> str:
    return "".join(rank.value for rank in ranks) or "none"


def house_deck(players: int, left_out: tuple[Rank, ...], copies: int, counters: str) -> Variant:
    """The variant a house file would give (the face checks it as the loader would): a
    deck without ``left_out`` (its ranks high to low, as a file must list them), dealt out
    whole (three hands leave a widow), the melds of the ranks left (a file may not name a
    card its deck lacks)."""
    ranks = tuple(rank for rank in RANKS if rank not in left_out)
    cards = 4 * len(ranks) * copies
    values = dict(zip(RANKS, COUNTERS[counters]))
    melds = tuple(
        rule
        for rule in BASES[players].melds
        if not {*rule.ranks, *(card.rank for card in rule.cards)} & set(left_out)
    )
    return dataclasses.replace(
        BASES[players],
        name=f"{players}p-without-{shown(left_out)}-x{copies}-{counters}",
        deck=Deck(ranks, copies),
        melds=melds,
        hand_size=cards // players,
        widow=cards % players,
        stock=0,
        counters={rank: values[rank] for rank in ranks},
        last_trick=10,
    )


def endgame(variant: Variant, tricks: int, rng: random.Random, i: int) -> Position:
    """A third at a trick boundary, the rest with cards on the table."""
    on_table = rng.randrange(variant.players) * (i % 3 > 0)
    return random_endgame(variant, min(tricks, variant.hand_size), rng, on_table=on_table)


def c_card_values(positions: list[Position], variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    players = variant.players
    hands = np.array([[hand.counts for hand in p.hands] for p in positions])
    trumps = np.array([p.trump.index for p in positions])
    leaders = np.array([p.leader for p in positions])
    tricks = np.array([[*p.trick, *[-1] * (players - 1 - len(p.trick))] for p in positions])
    return card_values_many(hands, trumps, leaders, variant, tricks)


def per_card(row: np.ndarray) -> dict[int, int]:
    return {card: int(row[card]) for card in range(NUM_CARDS) if row[card] >= 0}


# Endgames of 4 tricks, what the minimax solves in tens of milliseconds: per deck, two
# four-handed and one three-handed for each set of counters, the copies taking turns.
MINIMAX_TRICKS = 4


@pytest.mark.parametrize("left_out", LEFT_OUT, ids=shown)
def test_every_card_value_on_house_decks_equals_the_plain_minimax(
    left_out: tuple[Rank, ...],
) -> None:
    rng = random.Random(LEFT_OUT.index(left_out))
    turn = 0
    for counters in COUNTERS:
        for players in (4, 4, 3):
            turn += 1
            variant = house_deck(players, left_out, turn % 4 + 1, counters)
            position = endgame(variant, MINIMAX_TRICKS, rng, turn)
            values, cards = c_card_values([position], variant)
            expected = minimax.card_values(position, variant)
            pick = max if seat_sides(variant)[position.to_play] == 0 else min
            where = f"{variant.name}: {solve.position_text(position)}"
            assert per_card(cards[0]) == expected, where
            assert values[0] == pick(expected.values()), where


def cashing_position(variant: Variant, rng: random.Random, every_suit: bool) -> Position:
    """Four tricks at a trick boundary, seat 0 leading with the top card of two plain suits
    (and more at random), or of every suit, trumps too (four tricks it may win in a row);
    the other seats dealt the rest at random: they follow those leads with what they hold,
    counters or not, or are void, with trumps or without."""
    trump, plain = SUITS[0], list(SUITS[1:])
    rng.shuffle(plain)
    ranks = sorted(variant.deck.ranks, key=RANKS.index)  # highest first
    stock = [Card(rank, suit).index for suit in SUITS for rank in ranks] * variant.deck.copies
    tops = [Card(ranks[0], suit).index for suit in (SUITS if every_suit else plain[:2])]
    for card in tops:
        stock.remove(card)
    rng.shuffle(stock)
    extra = 4 - len(tops)
    others = (stock[extra + 4 * i : extra + 4 + 4 * i] for i in range(variant.players - 1))
    dealt = [tops + stock[:extra], *others]
    hands = [Hand(cards.count(card) for card in range(NUM_CARDS)) for cards in dealt]
    return Position(tuple(hands), trump, 0)


@pytest.mark.parametrize("left_out", [(), (NINE,), (TEN, Q), (A, Q, NINE)], ids=shown)
def test_a_leader_cashing_top_cards_gets_the_minimax_values_on_house_decks(
    left_out: tuple[Rank, ...],
) -> None:
    """The quick-points bound counts the followers' cheapest cards of each suit the leader
    cashes, and gives every point to a leader holding nothing but tricks to cash: held to
    the minimax where they bite, on every set of counters and 1-3 copies."""
    rng = random.Random(len(left_out))
    for counters in COUNTERS:
        for players in (4, 3):
            for copies, every_suit in itertools.product((1, 2, 3), (False, True)):
                variant = house_deck(players, left_out, copies, counters)
                if len(variant.deck.ranks) * 4 * copies < 4 * players:
                    continue
                position = cashing_position(variant, rng, every_suit)
                position.check(variant)
                values, cards = c_card_values([position], variant)
                expected = minimax.card_values(position, variant)
                where = f"{variant.name}: {solve.position_text(position)}"
                assert per_card(cards[0]) == expected, where
                assert values[0] == max(expected.values()), where


@pytest.mark.parametrize("players", [4, 3])
def test_a_house_deck_plays_as_the_full_deck_with_its_missing_ranks_gone(players: int) -> None:
    """Longer endgames than the minimax can take: the same positions under the full deck
    (the left-out ranks as if all played already, counting nothing) must be worth the same,
    card by card, in every shape of deck and counters."""
    rng = random.Random(players)
    for left_out in [ranks for ranks in LEFT_OUT if ranks]:
        for counters in COUNTERS:
            for copies in range(1, 5):
                variant = house_deck(players, left_out, copies, counters)
                full = dataclasses.replace(variant, deck=Deck(RANKS, copies))
                positions = [endgame(variant, 6, rng, i) for i in range(6)]
                values, cards = c_card_values(positions, variant)
                full_values, full_cards = c_card_values(positions, full)
                assert values.tolist() == full_values.tolist(), variant.name
                for i, position in enumerate(positions):
                    where = f"{variant.name}: {solve.position_text(position)}"
                    assert per_card(cards[i]) == per_card(full_cards[i]), where


def replayed_points(position: Position, variant: Variant, line: tuple[solve.Trick, ...]) -> int:
    """The points seat 0's side takes playing ``line`` under the trick rules."""
    hands = [list(hand.counts) for hand in position.hands]
    sides, leader, total = seat_sides(variant), position.leader, 0
    for number, trick in enumerate(line):
        for i, card in enumerate(trick.cards):
            if number == 0 and i < len(position.trick):
                continue  # on the table already
            seat = (leader + i) % variant.players
            legal = legal_cards(
                hands[seat], trick.cards[:i], position.trump, variant.head, variant.overtrump
            )
            assert card in legal, f"seat {seat} may not play {CARD_NAMES[card]}"
            hands[seat][card] -= 1
        leader = (leader + winning_position(trick.cards, position.trump)) % variant.players
        total += trick.points if sides[leader] == 0 else 0
    assert not any(map(any, hands)), "the line leaves cards in hand"
    return total


ONCE_MISVALUED = Path(__file__).parent / "data" / "once-misvalued.txt"


def once_misvalued() -> list:
    lines = ONCE_MISVALUED.read_text(encoding="utf-8").splitlines()
    rows = [line.split(" ; ") for line in lines if line.strip() and not line.startswith("#")]
    return [
        pytest.param(int(p), left, int(c), counters, text, id=f"{p}p-{left}-x{c}-{counters}")
        for p, left, c, counters, text in rows
    ]


@pytest.mark.parametrize(("players", "left_out", "copies", "counters", "text"), once_misvalued())
def test_positions_once_misvalued_get_the_minimax_values_best_cards_and_line(
    players: int, left_out: str, copies: int, counters: str, text: str
) -> None:
    ranks = tuple(RANK_TOKENS[token] for token in left_out.split())
    variant = house_deck(players, ranks, copies, counters)
    position = solve.parse_position(text, variant)
    solution = solve.solve(position, variant)
    value, best = minimax.best(position, variant)
    assert solution.cards == minimax.card_values(position, variant)
    assert solution.value == value
    assert set(solution.best_cards) == best
    assert replayed_points(position, variant, solution.line) == value
