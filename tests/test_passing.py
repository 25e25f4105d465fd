"""The card pass: every card exactly once after it, in every deal; the exchange's rule
kept; the bidder keeps trump and meld unless forced; the suit to ask for is named."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meldcalc.advice.bidding import estimate
from meldcalc.advice.chunks import _setup_groups, simulate_chunk
from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.knowledge import TableKnowledge, read_knowledge
from meldcalc.dealing.passing import after_pass, bidder_returns, partner_sends, passes
from meldcalc.dealing.ready import Setup, plan_setups, ready_hands
from meldcalc.rules.cards import CARDS, SUITS, Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import engine_for

EXAMPLES = Path(__file__).resolve().parent.parent / "variants" / "examples"
TOBY = load_variant("double-deck-toby-thomas")
PLAIN = load_variant(str(EXAMPLES / "house-passing.yaml"))
TOBY_HAND = Hand.parse("AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS")
RANK_OF = np.array([card.rank.index for card in CARDS])


def _of(suit: Suit) -> np.ndarray:
    """Which of the 24 cards are of ``suit``."""
    return np.array([card.suit is suit for card in CARDS])


def _passing_at_once(folder: Path):
    """A house single deck where bidder and partner pass three cards at once."""
    house = folder / "at-once.yaml"
    house.write_text(
        "name: at-once\nextends: single-deck\ntitle: t\nsource: s\n"
        "passing: {kind: plain, cards: 3, simultaneous: true}\n"
    )
    return load_variant(str(house))


def _deals(variant, count: int, seed: int) -> np.ndarray:
    return deal_counts(variant, count, np.random.default_rng(seed))[:, : variant.players]


@pytest.mark.parametrize("variant", [TOBY, PLAIN], ids=lambda v: v.name)
def test_every_card_is_held_exactly_once_after_the_pass_in_every_deal(variant) -> None:
    seats = _deals(variant, 400, seed=1)
    for trump in SUITS:
        for ask in SUITS if variant.passing.kind == "exchange" else [None]:
            after = after_pass(seats, *passes(seats, variant, trump, ask))
            assert (after.sum(axis=1) == seats.sum(axis=1)).all()  # no card made or lost
            assert (after.sum(axis=2) == variant.hand_size).all()
            assert (after >= 0).all()
            assert (after[:, [1, 3]] == seats[:, [1, 3]]).all()  # the opponents untouched
            moved = np.abs(after[:, 0] - seats[:, 0]).sum(axis=1)
            assert (moved <= 2 * variant.passing.cards).all()


def test_the_exchange_sends_the_asked_suit_from_the_top_where_the_partner_has_it() -> None:
    partner = _deals(TOBY, 500, seed=2)[:, 2]
    for ask in SUITS:
        sent = partner_sends(partner, TOBY, trump=Suit.CLUBS, ask=ask)
        assert (sent.sum(axis=1) == 3).all() and (sent <= partner).all()
        in_suit = _of(ask)
        held, given = partner[:, in_suit].sum(axis=1), sent[:, in_suit].sum(axis=1)
        assert (given == np.minimum(held, 3)).all()
        # from the top: nothing of the suit kept that outranks a card of it sent
        for row in range(len(partner)):
            kept = (partner[row] - sent[row]) * in_suit
            sent_ranks = RANK_OF[(sent[row] * in_suit) > 0]
            kept_ranks = RANK_OF[kept > 0]
            if len(sent_ranks) and len(kept_ranks):
                assert kept_ranks.min() >= sent_ranks.max()


def test_a_plain_pass_sends_trumps_first_then_aces() -> None:
    partner = _deals(PLAIN, 500, seed=3)[:, 2]
    sent = partner_sends(partner, PLAIN, trump=Suit.HEARTS)
    trumps = _of(Suit.HEARTS)
    assert (sent[:, trumps].sum(axis=1) == np.minimum(partner[:, trumps].sum(axis=1), 3)).all()


@pytest.mark.parametrize("variant", [TOBY, PLAIN], ids=lambda v: v.name)
def test_the_bidder_returns_neither_trump_nor_meld_unless_forced(variant) -> None:
    seats = _deals(variant, 400, seed=4)
    grown = seats[:, 0] + partner_sends(seats[:, 2], variant, Suit.SPADES, Suit.SPADES)
    engine, n = engine_for(variant), variant.passing.cards
    for trump in SUITS:
        returned = bidder_returns(grown, variant, trump)
        assert (returned.sum(axis=1) == n).all() and (returned <= grown).all()
        meld = engine.used_copies(grown, trump)
        trumps = _of(trump)
        protected = np.where(trumps, grown, meld)
        free = (grown - protected).sum(axis=1)
        given = np.maximum(0, returned - (grown - protected)).sum(axis=1)  # per copy
        assert (given == np.maximum(0, n - free)).all()


def test_the_pass_received_goes_to_the_bidder_in_every_deal() -> None:
    knowledge = read_knowledge(TOBY, received="AS 10S 10S", ask="S")
    setups = plan_setups(TOBY_HAND, TOBY, [Suit.HEARTS], knowledge)
    grown = np.array(TOBY_HAND.counts) + np.array(Hand.parse("AS 10S 10S").counts)
    rule = bidder_returns(grown[None], TOBY, Suit.HEARTS)[0]
    assert setups[0] == Setup(Suit.HEARTS, ask=Suit.SPADES, returns=Hand(rule.tolist()))
    ready = ready_hands(TOBY_HAND, TOBY, 200, np.random.default_rng(5), setups[:1], knowledge)
    (seats,) = ready.seats
    returned = grown - seats[:, 0]
    assert (returned == rule).all() and (returned.sum(axis=1) == 3).all()
    deck = np.array([TOBY.deck.copies_of(card) for card in CARDS])
    assert (seats.sum(axis=1) == deck).all()  # every card exactly once, in every deal


def test_received_short_of_the_asked_suit_leaves_the_partner_none_of_it() -> None:
    knowledge = read_knowledge(TOBY, received="AS 10S AD", ask="S")
    ready = ready_hands(
        TOBY_HAND,
        TOBY,
        200,
        np.random.default_rng(6),
        [Setup(Suit.HEARTS, ask=Suit.SPADES)],
        knowledge,
    )
    (seats,) = ready.seats
    spades = _of(Suit.SPADES)
    # all the partner's spades were passed; any it holds now the bidder gave back
    returned = (np.array(TOBY_HAND.counts) + np.array(Hand.parse("AS 10S AD").counts)) - seats[:, 0]
    assert (seats[:, 2][:, spades].sum(axis=1) == returned[:, spades].sum(axis=1)).all()


def test_a_simultaneous_pass_returns_from_the_hand_as_dealt(tmp_path: Path) -> None:
    variant = _passing_at_once(tmp_path)
    seats = _deals(variant, 300, seed=7)
    after = after_pass(seats, *passes(seats, variant, Suit.DIAMONDS))
    sent = partner_sends(seats[:, 2], variant, Suit.DIAMONDS)
    returned = seats[:, 0] + sent - after[:, 0]
    assert (returned <= seats[:, 0]).all()  # never a card just received
    assert (returned == bidder_returns(seats[:, 0], variant, Suit.DIAMONDS)).all()


@pytest.mark.parametrize(
    ("variant", "received", "ask"), [(TOBY, "AS 10S 10S", "S"), (PLAIN, "AD 9H 9C", None)]
)
def test_the_pass_backs_judged_are_the_rules_first_then_others_of_cards_it_may_pass(
    variant, received: str, ask: str | None
) -> None:
    hand = TOBY_HAND if variant is TOBY else Hand.parse("AS 10S KS QS JS JD 9S AH KH QH 10D KC")
    knowledge = read_knowledge(variant, received=received, ask=ask)
    full = np.array((hand + Hand.parse(received)).counts)
    for trump in SUITS:
        setups = plan_setups(hand, variant, [trump], knowledge)
        returns = [np.array(setup.returns.counts) for setup in setups]
        assert (returns[0] == bidder_returns(full[None], variant, trump)[0]).all()
        assert len({setup.returns for setup in setups}) == len(setups) > 1
        meld = engine_for(variant).used_copies(full[None], trump)[0]
        for cards in returns:  # the right number, from the hand, never trump or meld
            assert cards.sum() == variant.passing.cards and (cards <= full - meld).all()
            assert not cards[_of(trump)].any()


def test_bid_with_the_partners_cards_in_names_the_best_pass_back_judged_on_the_same_deals() -> None:
    knowledge = read_knowledge(TOBY, received="AS 10S 10S", ask="S")
    report = estimate(TOBY_HAND, TOBY, deals=300, seed=4, knowledge=knowledge)
    best = report.best
    judged = report.pass_backs[best.trump]
    chosen = max(judged, key=lambda odds: odds.expected_total)
    assert best.returns == chosen.returns and len(judged) > 1
    assert chosen.expected_total >= judged[0].expected_total  # the rule of thumb's
    assert report.advice()[1].startswith(f"Pass back {best.returns.notation(best.trump)} with")
    # the odds shown are from fresh deals of the pass-back chosen, every card passed back
    ready = ready_hands(
        TOBY_HAND,
        TOBY,
        50,
        np.random.default_rng(1),
        [Setup(best.trump, Suit.SPADES, returns=best.returns)],
        knowledge,
    )
    grown = np.array((TOBY_HAND + Hand.parse("AS 10S 10S")).counts)
    assert (grown - ready.seats[0][:, 0] == np.array(best.returns.counts)).all()


def test_a_simultaneous_pass_back_is_judged_from_the_hand_as_dealt(tmp_path: Path) -> None:
    variant = _passing_at_once(tmp_path)
    hand = Hand.parse("AS 10S KS QS JS 9S AH 10H 9H 10D 9C KC")
    report = estimate(hand, variant, deals=200, seed=5, trumps=[Suit.SPADES])
    assert report.best.returns is not None and len(report.pass_backs[Suit.SPADES]) > 1
    assert all(hand.count(card) >= report.best.returns.count(card) for card in CARDS)
    assert report.advice()[1].startswith("Pass ") and "Pass back" not in report.advice()[1]
    # what the partner sent does not change what the bidder passes from: its hand as dealt
    told = read_knowledge(variant, received="9D 9D 9S")
    received = estimate(hand, variant, 200, seed=5, trumps=[Suit.SPADES], knowledge=told)
    assert received.best.returns is not None and len(received.pass_backs[Suit.SPADES]) > 1
    assert all(hand.count(card) >= received.best.returns.count(card) for card in CARDS)


def test_bid_under_the_exchange_names_the_suit_to_ask_for() -> None:
    report = estimate(TOBY_HAND, TOBY, deals=200, seed=3)
    assert sorted(odds.ask.letter for odds in report.asks) == ["C", "D", "H", "S"]
    assert report.best.ask is report.asks[0].ask
    assert all(odds.ask is report.best.ask for odds in report.results)
    assert report.passing == TOBY.passing
    assert report.advice()[1].startswith(f"Ask your partner for {report.best.ask.symbol}")
    asked = estimate(TOBY_HAND, TOBY, 200, seed=3, knowledge=read_knowledge(TOBY, ask="D"))
    assert [odds.ask for odds in asked.asks] == [Suit.DIAMONDS]
    # with the pass over, nothing is passed and the hand plays as given
    over = estimate(TOBY_HAND, TOBY, 200, seed=3, knowledge=TableKnowledge(after_pass=True))
    assert over.passing is None and over.asks == []
    assert {odds.meld for odds in over.results} == {
        float(engine_for(TOBY).best(TOBY_HAND, suit).total) for suit in SUITS
    }


def test_bid_with_a_plain_pass_counts_the_meld_after_it() -> None:
    hand = Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH")
    report = estimate(hand, PLAIN, deals=300, seed=2, trumps=[Suit.SPADES])
    (spades,) = report.results
    before = engine_for(PLAIN).best(hand, Suit.SPADES).total
    # every card of this hand is meld: some deals force the bidder to give up meld, and it
    # gives up what costs least, so it melds at least as much as dealt
    assert spades.meld >= before and report.passing == PLAIN.passing and report.asks == []


@pytest.mark.parametrize("variant", [TOBY, PLAIN], ids=lambda v: v.name)
def test_the_pass_never_lowers_the_bidders_meld(variant) -> None:
    engine = engine_for(variant)
    seats = _deals(variant, 300, seed=8)
    for trump in SUITS:
        before = engine.totals(seats[:, 0])[trump]
        for ask in SUITS if variant.passing.kind == "exchange" else [None]:
            after = after_pass(seats, *passes(seats, variant, trump, ask))
            assert (engine.totals(after[:, 0])[trump] >= before).all()


def test_the_exchange_with_a_meld_range_gives_the_same_numbers_whatever_the_jobs() -> None:
    knowledge = read_knowledge(TOBY, partner_meld="10:")
    runs = [estimate(TOBY_HAND, TOBY, 2500, seed=5, jobs=j, knowledge=knowledge) for j in (1, 2)]
    one, two = runs
    assert [o.ask for o in one.asks] == [o.ask for o in two.asks]
    for a, b in zip(one.results, two.results):
        assert (a.trump, a.ask, a.layouts) == (b.trump, b.ask, b.layouts) and a.layouts > 1
        assert (a.tricks == b.tricks).all() and (a.partner_meld == b.partner_meld)
        assert a.make == b.make


def test_setups_split_between_processes_play_the_deals_they_would_together() -> None:
    """A bid of one chunk readied many ways (the exchange: an ask a trump) is split by
    setups over the CPUs: each part deals what the whole deals, so each setup's outcomes
    are the same however it is split, and with --jobs 1 or 2."""
    knowledge = read_knowledge(TOBY, partner_meld="10:")
    setups = plan_setups(TOBY_HAND, TOBY, list(SUITS), knowledge)
    assert len(setups) > 2

    def chunk(group=None):
        rng = np.random.default_rng(np.random.SeedSequence(3, spawn_key=(0,)))
        return simulate_chunk(TOBY_HAND, TOBY, 300, rng, list(SUITS), knowledge, setups,
                              group=group)  # fmt: skip

    whole = chunk()
    parts = {}
    for group in _setup_groups(len(setups), 1, 3):
        parts.update(chunk(group))
    assert list(parts) == list(whole) == setups
    for setup in setups:
        assert (parts[setup].tricks == whole[setup].tricks).all()
        assert (parts[setup].partner_meld == whole[setup].partner_meld).all()
    assert [list(g) for g in _setup_groups(5, 1, 2)] == [[0, 1], [2, 3, 4]]
    assert [list(g) for g in _setup_groups(5, 4, 2)] == [[0, 1, 2, 3, 4]]
    one, two = (estimate(TOBY_HAND, TOBY, 600, seed=5, jobs=j, knowledge=knowledge)
                for j in (1, 2))  # fmt: skip
    for a, b in zip(one.results, two.results):
        assert (a.trump, a.ask) == (b.trump, b.ask) and (a.tricks == b.tricks).all()


def test_a_bid_of_two_runs_counts_its_progress_as_one() -> None:
    """The asks compared on a quarter of the deals (at least 200), then the one chosen on
    deals of its own: the progress line counts on to their sum, never back to nothing."""
    told = []
    report = estimate(TOBY_HAND, TOBY, 600, seed=2, progress=lambda d, t: told.append((d, t)))
    total = report.chosen_on + report.deals
    assert report.chosen_on == 200 and {t for _, t in told} == {total}
    done = [d for d, _ in told]
    assert done == sorted(done) and done[-1] == total
