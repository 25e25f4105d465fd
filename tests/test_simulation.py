"""Simulated play: legal, complete and conserving points, in every variant with an auction;
and the bids built on it: reproducible, sensible at the extremes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meldcalc.advice.bidding import estimate
from meldcalc.advice.played import play_one
from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.ready import bury, deal_unseen
from meldcalc.engines.simulate import Game, Table
from meldcalc.errors import UnsupportedError
from meldcalc.rules.bits import planes_from_counts
from meldcalc.rules.cards import CARDS, SUITS, Hand, Suit
from meldcalc.rules.loading import load_variant, shipped_names
from meldcalc.rules.meld import best_meld, melded_cards
from meldcalc.rules.tricks import legal_cards, winning_position

EXAMPLES = Path(__file__).resolve().parent.parent / "variants" / "examples"
AUCTION_VARIANTS = [name for name in shipped_names() if load_variant(name).bidding is not None]
AUCTION_VARIANTS.append(str(EXAMPLES / "house-easy-play.yaml"))  # head/overtrump switched off
CHECKED_DEALS = 150  # deals per variant replayed card by card against the reference rules


def _random_deals(variant, count: int, seed: int) -> np.ndarray:
    """(count, players, 24) counts: whole deals of the variant (the widow left out)."""
    return deal_counts(variant, count, np.random.default_rng(seed))[:, : variant.players]


@pytest.mark.parametrize("name", AUCTION_VARIANTS)
def test_every_simulated_card_is_legal_played_once_and_points_add_up(name: str) -> None:
    variant = load_variant(name)
    counts = _random_deals(variant, 1000, seed=len(variant.name))
    trumps = np.arange(len(counts)) % 4
    shown = planes_from_counts(melded_cards(variant, counts, trumps), variant.deck.copies)
    table = Table.of(variant, trumps)
    out = Game.from_counts(table, counts, variant.deck.copies, shown=shown).play(record=True)
    # trick points of both sides add up to the counters in play (the variant's total less
    # any widow, which this test leaves out) plus the last trick
    value = np.array([variant.counters.get(card.rank, 0) for card in CARDS])
    in_play = (counts.sum(axis=1) * value).sum(axis=1) + variant.last_trick
    assert (out.team_points.sum(axis=1) == in_play).all()
    if not variant.widow:
        assert (in_play == variant.trick_total).all()
    # every card of every hand played exactly once
    played = np.zeros_like(counts)
    np.add.at(played, (np.arange(len(counts))[:, None], out.seats, out.cards), 1)
    assert (played == counts).all()
    for deal in range(CHECKED_DEALS):
        _replay(variant, counts[deal], out, deal, SUITS[trumps[deal]])


def _replay(variant, counts: np.ndarray, out, deal: int, trump: Suit) -> None:
    """Play the recorded cards again under the reference trick rules (rules/tricks.py)."""
    hands = [list(map(int, counts[seat])) for seat in range(variant.players)]
    cards, seats = out.cards[deal].tolist(), out.seats[deal].tolist()
    leader, points = 0, [0, 0]
    table = Table.of(variant, trump)
    for start in range(0, len(cards), variant.players):
        trick = []
        for position in range(variant.players):
            card, seat = cards[start + position], seats[start + position]
            assert seat == (leader + position) % variant.players
            assert card in legal_cards(hands[seat], trick, trump, variant.head, variant.overtrump)
            hands[seat][card] -= 1
            trick.append(card)
        leader = (leader + winning_position(trick, trump)) % variant.players
        value = sum(variant.counters.get(CARDS[c].rank, 0) for c in trick)
        points[table.team[leader]] += value + (
            variant.last_trick if not any(map(any, hands)) else 0
        )
    assert points == out.team_points[deal].tolist()


@pytest.mark.parametrize("name", ["three-handed", "double-deck-three-handed"])
def test_with_a_widow_the_bidders_buried_cards_count_and_all_points_add_up(name: str) -> None:
    variant = load_variant(name)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        hand = Hand(_random_deals(variant, 1, seed)[0, 0].tolist())
        deal = play_one(hand, variant, SUITS[seed % 4], int(rng.integers(1 << 30)))
        assert sum(deal.points) == variant.trick_total
        assert len(deal.buried) == variant.widow
        assert all(len(h) == variant.hand_size for h in deal.hands)


def test_bury_keeps_trumps_and_meld_and_banks_plain_tens_first() -> None:
    variant = load_variant("three-handed")
    full = Hand.parse("AS 10S KS QS JS JD 9S 9S AH 10H KH QH 10C 10D 9D 9C KC AD")
    meld = best_meld(full, variant, Suit.SPADES)
    buried = sorted(str(CARDS[c]) for c in bury(list(full.counts), Suit.SPADES, 3, meld, variant))
    assert buried == ["10C", "10D", "10H"]  # the K-Q of hearts is a marriage: 10H is plain


def test_the_same_seed_gives_the_same_numbers_whatever_the_jobs() -> None:
    variant, hand = load_variant("single-deck"), Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH")
    one = estimate(hand, variant, deals=4500, seed=11, jobs=1)
    two = estimate(hand, variant, deals=4500, seed=11, jobs=2)
    again = estimate(hand, variant, deals=4500, seed=11, jobs=1)
    for a, b, c in zip(one.results, two.results, again.results):
        assert a.trump is b.trump is c.trump
        assert (a.tricks == b.tricks).all() and (a.tricks == c.tricks).all()
        assert a.make == b.make == c.make
    other = estimate(hand, variant, deals=4500, seed=12)
    assert not all((a.tricks == b.tricks).all() for a, b in zip(one.results, other.results))


def test_a_hand_with_both_runs_and_aces_bids_high_and_nines_and_jacks_pass() -> None:
    variant = load_variant("single-deck")
    strong = estimate(Hand.parse("AS AS 10S 10S KS KS QS QS JS JS AH AD"), variant, 500, seed=1)
    assert strong.best.trump is Suit.SPADES and strong.suggested_bid >= 1600
    weak = estimate(Hand.parse("9S 9S 9H 9H 9D 9D 9C JS JH JD JC JC"), variant, 500, seed=1)
    assert weak.suggested_bid is None


def test_double_deck_needs_a_marriage_in_trump() -> None:
    variant = load_variant("double-deck")
    hand = Hand.parse("AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS")
    report = estimate(hand, variant, 300, seed=3)
    biddable = {odds.trump.letter: odds.biddable for odds in report.results}
    assert biddable == {"H": True, "S": True, "D": False, "C": False}
    assert all(o.max_bid is None for o in report.results if not o.biddable)


def test_partner_meld_counts_in_partnerships_only() -> None:
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    four = estimate(Hand.parse(hand), load_variant("single-deck"), 300, seed=2)
    assert all(odds.partner_meld > 0 for odds in four.results)
    cutthroat = "AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D 9C"
    three = estimate(Hand.parse(cutthroat), load_variant("cutthroat"), 300, seed=2)
    assert all(odds.partner_meld is None for odds in three.results)


def test_two_handed_has_no_auction_to_estimate() -> None:
    with pytest.raises(UnsupportedError, match="two-handed has no auction"):
        estimate(Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH"), load_variant("two-handed"))


def test_deal_unseen_gives_every_other_card_exactly_once() -> None:
    variant = load_variant("three-handed")
    hand = Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D")
    counts = deal_unseen(hand, variant, 50, np.random.default_rng(0))
    assert (counts.sum(axis=1) == 2).all()
    assert (counts[:, :3].sum(axis=2) == 15).all() and (counts[:, 3].sum(axis=1) == 3).all()


def test_trick_percentiles_match_numpy() -> None:
    report = estimate(
        Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH"), load_variant("single-deck"), 777, seed=5
    )
    for odds in report.results:
        expected = np.percentile(odds.tricks, [10, 50, 90]).tolist()
        assert odds.percentiles(10, 50, 90) == pytest.approx(expected)


def test_what_the_policy_knows_is_exactly_the_cards_still_in_hands() -> None:
    """The unplayed-card planes the policy reads stay the union of the hands, trick by trick."""
    from meldcalc.rules.bits import counts_from_planes

    variant = load_variant("double-deck")
    counts = _random_deals(variant, 200, seed=9)
    game = Game.from_counts(Table.of(variant, np.arange(200) % 4), counts, variant.deck.copies)
    close_trick = game._close_trick
    checked = []

    def checked_trick():
        result = close_trick()
        hands = counts_from_planes(game.flat.reshape(game.hands.shape))
        assert (counts_from_planes(game.remaining) == hands.sum(axis=1)).all()
        trumps = np.bitwise_count(game.remaining & game.trump_mask).sum(axis=0)
        assert (game.trumps_left == trumps).all()
        checked.append(True)
        return result

    game._close_trick = checked_trick
    game.play()
    assert len(checked) == variant.hand_size


@pytest.mark.parametrize("name", AUCTION_VARIANTS)
def test_every_auction_variant_gives_a_bid_estimate(name: str) -> None:
    variant = load_variant(name)
    hand = Hand(_random_deals(variant, 1, seed=4)[0, 0].tolist())
    report = estimate(hand, variant, deals=100, seed=4)
    assert [odds.trump for odds in report.results] != []
    for odds in report.results:
        assert len(odds.tricks) == 100
        assert odds.tricks.min() >= 0 and odds.tricks.max() <= variant.trick_total
        if odds.biddable:
            bids = [bid for bid, _ in odds.make]
            assert bids == variant.bidding.levels(bids[-1], start=bids[0])
            assert bids[0] == variant.bidding.opening or odds.make[0][1] >= 0.95
        else:
            assert odds.make == [] and odds.max_bid is None


def test_easy_play_rules_change_what_is_legal_in_simulation() -> None:
    strict, easy = load_variant("single-deck"), load_variant(str(EXAMPLES / "house-easy-play.yaml"))
    counts = _random_deals(strict, 500, seed=1)
    trumps = np.arange(500) % 4
    plays = [
        Game.from_counts(Table.of(v, trumps), counts, 2).play(record=True) for v in (strict, easy)
    ]
    assert (plays[0].cards != plays[1].cards).any()


def test_a_meld_minimum_drops_small_side_meld_from_the_totals(tmp_path: Path) -> None:
    house = tmp_path / "minimum.yaml"
    house.write_text(
        "name: minimum\nextends: double-deck\ntitle: t\nsource: s\nhouse: {meld_minimum: 20}\n"
    )
    hand = Hand.parse("AS AS AS 10S 10S 10S AH 10H 10H 10H KH QH 10D 10D 10D 10D 10C 10C 10C 10C")
    with_minimum = estimate(hand, load_variant(str(house)), 300, seed=6, trumps=[Suit.HEARTS])
    without = estimate(hand, load_variant("double-deck"), 300, seed=6, trumps=[Suit.HEARTS])
    kept, every = with_minimum.best, without.best
    assert (kept.tricks == every.tricks).all()
    side = every.totals - every.tricks
    assert (kept.totals == np.where(side >= 20, every.totals, every.tricks)).all()
    assert (side < 20).any() and (side >= 20).any()
