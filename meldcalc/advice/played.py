"""One deal played out and recorded trick by trick (`meldcalc play`, and what `review`,
`replay` and the session read back): a random deal of the unseen cards for a hand
(`play_one`), or a given deal (`play_deal`), played by a policy in every seat as `bid`'s
simulated deals are."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meldcalc.dealing.ready import deal_unseen, melded_planes, take_widow
from meldcalc.engines.policies import DEFAULT as DEFAULT_POLICY
from meldcalc.engines.policies import policy_class
from meldcalc.engines.simulate import Table
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import CARDS, NUM_CARDS, Hand, Suit
from meldcalc.rules.variant import Variant


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[tuple[int, str], ...]  # (seat, card)
    winner: int
    points: int


@dataclass(frozen=True)
class PlayedDeal:
    """One simulated deal, every hand shown and every trick."""

    trump: Suit
    hands: tuple[Hand, ...]  # as played: seat 0's after the widow, and after the pass if any
    widow: Hand
    buried: Hand
    tricks: tuple[Trick, ...]
    points: tuple[int, int]  # the bidding side, the others
    #: the card pass, where the variant has one: the partner's cards to seat 0, seat 0's back
    passed: tuple[Hand, Hand] | None = None


def play_one(
    hand: Hand, variant: Variant, trump: Suit, seed: int, policy: str = DEFAULT_POLICY
) -> PlayedDeal:
    """Deal the unseen cards at random and play the deal out with ``policy``, recorded."""
    from meldcalc.advice.bidding import check_biddable_variant

    check_biddable_variant(variant)
    counts = deal_unseen(hand, variant, 1, np.random.default_rng(seed))
    seats, _, _ = take_widow(counts, variant, trump)
    buried = Hand((counts[0, 0] + counts[0, variant.players] - seats[0, 0]).tolist())
    widow = Hand(counts[0, variant.players].tolist())
    return _played(seats[0], variant, trump, widow, buried, policy)


def play_deal(
    hands: tuple[Hand, ...], variant: Variant, trump: Suit, policy: str = DEFAULT_POLICY
) -> PlayedDeal:
    """A given deal (every seat's hand, seat 0 leading) played out with ``policy``."""
    if len(hands) != variant.players or len({len(hand) for hand in hands}) != 1:
        raise MeldcalcError(
            f"expected {variant.players} hands of equal size for {variant.name}, got"
            f" {', '.join(str(len(hand)) for hand in hands)} cards"
        )
    whole = sum(hands, Hand([0] * NUM_CARDS))
    variant.check_hand(whole)
    seats = np.array([hand.counts for hand in hands], dtype=np.int64)
    empty = Hand([0] * NUM_CARDS)
    return _played(seats, variant, trump, empty, empty, policy)


def _played(
    seats: np.ndarray, variant: Variant, trump: Suit, widow: Hand, buried: Hand, policy: str
) -> PlayedDeal:
    """Play one deal ((players, 24) counts) with ``policy`` and record it trick by trick."""
    from meldcalc.rules.tricks import winning_position

    passed = None
    if variant.passing is not None:  # as every simulated deal of a bid passes
        from meldcalc.dealing.passing import after_pass, passes

        sent, back = passes(seats[None], variant, trump, ask=trump)
        passed = (Hand(sent[0].tolist()), Hand(back[0].tolist()))
        seats = after_pass(seats[None], sent, back)[0]
    table = Table.of(variant, trump)
    shown = melded_planes(variant, [seats[None]], [trump])
    game = policy_class(policy).from_counts(table, seats[None], variant.deck.copies, shown=shown)
    out = game.play(record=True)
    cards, order = out.cards[0].tolist(), out.seats[0].tolist()
    tricks, players = [], variant.players
    for start in range(0, len(cards), players):
        trick = cards[start : start + players]
        who = order[start : start + players]
        points = sum(variant.counters.get(CARDS[c].rank, 0) for c in trick)
        if start + players == len(cards):
            points += variant.last_trick
        winner = who[winning_position(trick, trump)]
        tricks.append(
            Trick(who[0], tuple(zip(who, (str(CARDS[c]) for c in trick))), winner, points)
        )
    buried_points = sum(variant.counters.get(card.rank, 0) for card in buried.cards())
    return PlayedDeal(
        trump,
        tuple(Hand(seats[seat].tolist()) for seat in range(players)),
        widow,
        buried,
        tuple(tricks),
        (int(out.team_points[0, 0]) + buried_points, int(out.team_points[0, 1])),
        passed,
    )
