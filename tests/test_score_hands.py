"""One scorer for one hand and for thousands: `score_hands` (the arrays `bid`'s odds and the
equity table's hands are scored with) gives, hand for hand, what `score_hand` (`meldcalc
score`, `play`, a game's ledger) gives, under every house switch the schema knows and every
value it allows; and a hand's reach is the highest bid `score_hand` says it makes."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from meldcalc.errors import UnsupportedError
from meldcalc.rules.loading import load_variant, variant_from_data
from meldcalc.rules.schema import MAX_INTEGER, VARIANT_FIELDS
from meldcalc.rules.scoring import (
    HandPlay,
    counter_cards,
    most_in_tricks,
    score_hand,
    side_count,
    side_of,
    tricks_in_hand,
)
from meldcalc.rules.settle import reach_of_hands, score_hands, short_of_meld

BASES = ("single-deck", "three-handed", "double-deck", "check", "single-deck-classic")
#: The house switches of the schema, each with the values drawn for it. A switch the schema
#: gains must be given values here before this test passes (and so be scored the same way).
HOUSE_VALUES = {
    "meld_minimum": st.sampled_from([0, 10, 20, 40, 100, 250]) | st.integers(0, MAX_INTEGER),
    "save_meld": st.sampled_from(["trick", "counter", 1, 10, 20, 50, 170]) | st.integers(1, 400),
    "set_penalty": st.integers(1, 10),
    "forfeit_under_minimum": st.booleans(),
    "trick_minimum": st.sampled_from([0, 10, 20, 50, 170]) | st.integers(0, 400),
    "thrown_in": st.fixed_dictionaries(
        {},
        optional={
            "meld": st.booleans(),
            "meld_minimum": st.integers(0, 300),
            "cards": st.integers(0, 100),
        },
    ),
}


def test_every_house_switch_of_the_schema_is_drawn() -> None:
    assert set(VARIANT_FIELDS["house"].spec.fields) == set(HOUSE_VALUES)


@cache
def base(name: str) -> object:
    return load_variant(name)


@st.composite
def house_variants(draw):
    """A shipped variant with some of the schema's house switches set, checked as a file."""
    rules = base(draw(st.sampled_from(BASES)))
    keys = draw(st.lists(st.sampled_from(sorted(HOUSE_VALUES)), unique=True))
    house = {key: draw(HOUSE_VALUES[key]) for key in keys}
    if house.get("forfeit_under_minimum") and not house.get("meld_minimum"):
        house["meld_minimum"] = draw(st.integers(1, 400))  # a forfeit needs a minimum
    return variant_from_data({**rules.data, "house": house}, "house.yaml")


def _split(draw, total: int, parts: int, step: int = 1) -> list[int]:
    """``total`` in ``parts`` non-negative multiples of ``step`` (the rest to the last)."""
    left, split = total // step, []
    for _ in range(parts - 1):
        split.append(draw(st.integers(0, left)))
        left -= split[-1]
    return [n * step for n in [*split, left]]


def _fewest_tricks(rules, points: int) -> int:
    """The fewest tricks that can hold ``points`` trick points (none for none)."""
    return next(n for n in range(tricks_in_hand(rules) + 1) if most_in_tricks(rules, n) >= points)


@st.composite
def played_hands(draw, rules):
    """A played hand of ``rules`` that `score` accepts: each side's meld, a split of the
    trick points, and the tricks and counters each side took, agreeing with its points."""
    sides, step = side_count(rules), rules.meld_step
    meld = [draw(st.integers(0, 40)) * step for _ in range(sides)]
    tricks = _split(draw, rules.trick_total, sides, rules.trick_step)
    # each side takes at least the tricks that can hold its points (richest cards first)
    fewest = [_fewest_tricks(rules, points) for points in tricks]
    assume(sum(fewest) <= tricks_in_hand(rules))
    extra = _split(draw, tricks_in_hand(rules) - sum(fewest), sides)
    taken = [extra[side] + fewest[side] for side in range(sides)]
    counting = [side for side in range(sides) if tricks[side] not in (0, rules.last_trick)]
    spare = [side for side in range(sides) if tricks[side]]  # a side with no points, no counter
    counters = [int(side in counting) for side in range(sides)]
    for _ in range(counter_cards(rules) - sum(counters)):
        counters[draw(st.sampled_from(spare))] += 1
    return meld, tricks, taken, counters


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_score_hands_scores_every_hand_as_score_hand_does_under_every_house_switch(data) -> None:
    rules = data.draw(house_variants())
    bidder = data.draw(st.integers(0, rules.players - 1))
    side = side_of(rules, bidder)
    hands = data.draw(st.lists(played_hands(rules), min_size=1, max_size=12))
    levels = rules.bidding.levels(rules.bidding.opening + 60 * rules.meld_step)
    bids = [data.draw(st.sampled_from(levels)) for _ in hands]
    meld, tricks, taken, counters = (np.array(column) for column in zip(*hands))
    many = score_hands(rules, np.array(bids), meld, tricks, taken, counters, bidder=side)
    for row, (bid, (m, t, k, c)) in enumerate(zip(bids, hands)):
        if short_of_meld(rules, m, side):  # the bid lost on the meld: the hand is not played
            t = k = c = None
        one = score_hand(rules, _played(bid, bidder, m, t, k, c))
        assert list(many.points[row]) == list(one.points)
        assert list(many.counted[row]) == list(one.counted_meld)
        assert bool(many.made[row]) == (one.outcome == "made")
        # the reach: the highest bid it makes; every bid above it is set
        reach = int(many.reach[row])
        for level in (rules.bidding.last_at_most(reach), rules.bidding.first_at_least(reach + 1)):
            if level is not None:
                again = score_hand(rules, _played(level, bidder, m, t, k, c))
                assert (again.outcome == "made") == (level <= reach)


def _played(bid, bidder, meld, tricks, taken, counters) -> HandPlay:
    as_tuple = lambda values: None if values is None else tuple(values)  # noqa: E731
    return HandPlay(
        bid, bidder, tuple(meld), as_tuple(tricks), (), False, False,
        as_tuple(taken), as_tuple(counters),
    )  # fmt: skip


def test_a_count_the_rule_needs_and_no_one_kept_is_refused_by_its_key() -> None:
    rules = variant_from_data({**base("single-deck").data, "house": {"save_meld": "counter"}}, "h")
    melds, tricks = np.array([300, 100]), np.array([10, 150])
    with pytest.raises(UnsupportedError, match=r"house\.save_meld: counter"):
        reach_of_hands(rules, melds, tricks, np.array([1, 5]))
    assert list(reach_of_hands(rules, melds, tricks, None, np.array([0, 3]))) == [10, 250]
