"""What the table knows: read from the command line's words, checked for contradictions,
and dealt exactly: every kept layout agrees with it, uniformly among those that do."""

from __future__ import annotations

import collections
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.knowledge import MeldRange, TableKnowledge, opponent_seats, read_knowledge
from meldcalc.dealing.layouts import LayoutSampler, deal_consistent
from meldcalc.errors import KnowledgeError, NotationError
from meldcalc.rules.cards import CARDS, RANKS, SUITS, Card, Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import engine_for

TINY = Path(__file__).parent / "data" / "tiny" / "tiny.yaml"
SINGLE = load_variant("single-deck")
HAND = Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH")


def test_meld_ranges_read_and_print_back() -> None:
    assert MeldRange.parse("40:") == MeldRange(40, None)
    assert MeldRange.parse(" :60") == MeldRange(None, 60)
    assert MeldRange.parse("40:60") == MeldRange(40, 60)
    assert MeldRange.parse("40") == MeldRange(40, 40)
    for text in ("40:", ":60", "40:60", "40"):
        assert MeldRange.parse(MeldRange.parse(text).text()).text() == text
    assert MeldRange.parse("40:").words() == "at least 40"
    assert MeldRange(None, 60).words() == "at most 60"
    assert MeldRange(40, 40).words() == "exactly 40"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"partner_meld": "forty:"}, "--partner-meld: 'forty:': 'forty' is not a meld total"),
        ({"opponents_meld": "60:40"}, "the lower end 60 is above the upper 40"),
        ({"partner_meld": ":"}, "expected a meld range such as 40: or :60"),
        (
            {"known": ["partnr:JD"]},
            "--known: seat 'partnr': expected a seat from 0 to 3, or me, left, partner, right",
        ),
        ({"known": ["partner JD"]}, "--known: 'partner JD': expected SEAT:CARDS"),
        ({"known": ["left:JX"]}, "--known: 'JX'"),
        ({"known": ["0:JD"]}, "seat '0' is you"),
        ({"voids": ["left:X"]}, "--void: 'X': expected a suit"),
        ({"voids": ["4:S"]}, "seat '4': expected a seat from 0 to 3"),
        (
            {"known": ["²:JD"]},
            "seat '²': expected a seat from 0 to 3",
        ),  # a digit to isdigit, not to int
        ({"partner_meld": "²:"}, "'²' is not a meld total"),
        ({"ask": "spade"}, None),
        ({"ask": "stars"}, "--ask: 'stars': expected a suit"),
    ],
)
def test_every_bad_value_is_one_line_naming_the_option_and_token(options, message) -> None:
    if message is None:
        assert read_knowledge(SINGLE, **options).ask is Suit.SPADES
        return
    with pytest.raises(NotationError) as error:
        read_knowledge(SINGLE, **options)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_seats_are_named_from_the_bidders_place() -> None:
    four = read_knowledge(SINGLE, known=["partner:JD", "left:QS", "right:9C", "3:9H"])
    assert dict(four.known) == {1: Hand.parse("QS"), 2: Hand.parse("JD"), 3: Hand.parse("9C 9H")}
    three = load_variant("three-handed")
    assert dict(read_knowledge(three, voids=["right:S,H", "left:♣"]).voids) == {
        1: (Suit.CLUBS,),
        2: (Suit.SPADES, Suit.HEARTS),
    }
    with pytest.raises(NotationError, match="three-handed has no partner"):
        read_knowledge(three, known=["partner:JD"])
    assert opponent_seats(SINGLE) == (1, 3) and opponent_seats(three) == (1, 2)


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("single-deck", {"known": ["partner:AS AS"]}, "'AS' is told 3 times (your hand 1,"),
        ("single-deck", {"known": ["left:JD", "right:JD"]}, "'JD' is told 3 times"),
        ("double-deck", {"known": ["left:9S"]}, "'9S' is not in the double-deck deck"),
        (
            "single-deck",
            {"known": ["left:AH"], "voids": ["left:H"]},
            "left has no ♥ but is known to hold 'AH'",
        ),
        (
            "single-deck",
            {"known": ["partner:10H 10H KD KD QD QD JH JH 9H 9H 10C 10C KC"]},
            "partner is told to hold 13 cards",
        ),
        (
            "single-deck",
            {"voids": ["left:S H D", "partner:S", "right:S"]},
            "no layout fits the voids",
        ),
        ("three-handed", {"partner_meld": "20:"}, "--partner-meld: three-handed has no partner"),
        ("single-deck", {"widow": "AS KH 9D"}, "--widow: single-deck has no widow"),
        ("three-handed", {"widow": "KH 9D"}, "has a widow of 3 cards, got 2"),
        ("single-deck", {"received": "AS 10S 10S"}, "--received: single-deck has no card pass"),
        ("single-deck", {"ask": "S"}, "--ask: single-deck has no card exchange"),
    ],
)
def test_contradictions_are_caught_before_dealing(variant, options, message) -> None:
    rules = load_variant(variant)
    hand = HAND if rules.hand_size == 12 else _hand_of(rules, seed=1)
    if rules.deck.copies == 4:
        hand = Hand.parse("AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS")
    knowledge = read_knowledge(rules, **options)
    with pytest.raises(KnowledgeError) as error:
        knowledge.check(hand, rules)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_received_pass_must_fit_the_variants_pass() -> None:
    toby = load_variant("double-deck-toby-thomas")
    hand = Hand.parse("AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS")
    cases = [
        ({"received": "AS 10S"}, "passes 3 cards, got 2"),
        ({"received": "AS 10S 10S"}, "needs --ask SUIT"),
        ({"received": "AS 10S 10S", "ask": "S", "after_pass": True}, "both under way and over"),
        ({"ask": "S", "after_pass": True}, "with --no-passing the exchange is over"),
        ({"received": "AS 10S AD", "ask": "S", "known": ["partner:10S 10S"]}, "holds no more"),
    ]
    for options, message in cases:
        with pytest.raises(KnowledgeError, match=message):
            read_knowledge(toby, **options).check(hand, toby)
    single = load_variant("single-deck")
    with pytest.raises(KnowledgeError, match="single-deck has no card pass to leave out"):
        read_knowledge(single, after_pass=True).check(Hand.parse("AS"), single)
    fine = read_knowledge(toby, received="AS 10S AD", ask="S", known=["partner:10S"])
    fine.check(hand, toby)
    assert fine.dealt_voids(toby) == {Suit.SPADES: {2}}  # it passed every ♠ it had
    assert read_knowledge(toby, received="AS 10S 10S", ask="S").dealt_voids(toby) == {}


def _hand_of(variant, seed: int) -> Hand:
    return Hand(deal_counts(variant, 1, np.random.default_rng(seed))[0, 0].tolist())


def _violations(counts: np.ndarray, hand: Hand, variant, knowledge, trump: Suit) -> list[str]:
    """Everything a kept layout could get wrong, as readable complaints."""
    problems = []
    deck = np.array([variant.deck.copies_of(card) for card in CARDS])
    if not (counts.sum(axis=1) == deck).all():
        problems.append("a card is not dealt exactly once")
    sizes = counts[:, 1 : variant.players].sum(axis=2)
    if not (sizes == variant.hand_size).all() or (counts[:, 0] != hand.counts).any():
        problems.append("a hand of the wrong size, or the bidder's hand changed")
    for seat, cards in knowledge.placed(variant).items():
        if (counts[:, seat] < cards.counts).any():
            problems.append(f"seat {seat} lacks a known card")
    for suit, seats in knowledge.dealt_voids(variant).items():
        in_suit = [Card(rank, suit).index for rank in variant.deck.ranks]
        for seat in seats:
            if counts[:, seat][:, in_suit].sum(axis=1).any():
                problems.append(f"seat {seat} holds {suit.symbol}")
    if knowledge.widow is not None and (counts[:, variant.players] != knowledge.widow.counts).any():
        problems.append("the widow is not the one seen")
    engine = engine_for(variant)
    for who, told in knowledge.meld_ranges:
        seats = [2] if who == "partner" else opponent_seats(variant)
        totals = sum(engine.totals(counts[:, seat])[trump] for seat in seats)
        if not told.holds(totals).all():
            problems.append(f"{who}'s meld out of range")
    return problems


NAMES = ["single-deck", "double-deck", "three-handed", "double-deck-three-handed"]
VARIANTS = {name: load_variant(name) for name in NAMES}


@st.composite
def table_knowledge(draw):
    """A variant, a hand, a trump and what the table knows, taken from one real deal (so
    it can always be met): some of each seat's cards, suits it lacks, meld it reaches."""
    variant = VARIANTS[draw(st.sampled_from(NAMES))]
    deal = deal_counts(variant, 1, np.random.default_rng(draw(st.integers(0, 2**32))))[0]
    trump = draw(st.sampled_from(SUITS))
    known, voids = [], []
    for seat in range(1, variant.players):
        cards = [c for c in CARDS for _ in range(deal[seat, c.index])]
        chosen = draw(st.lists(st.sampled_from(range(len(cards))), unique=True, max_size=4))
        if chosen:
            known.append((seat, Hand.from_cards(cards[i] for i in chosen)))
        lacking = [s for s in SUITS if not any(deal[seat, Card(r, s).index] for r in RANKS)]
        if lacking and draw(st.booleans()):
            voids.append((seat, tuple(lacking)))
    engine = engine_for(variant)
    ranges = {}
    if variant.partnerships and draw(st.booleans()):
        actual = engine.best(Hand(deal[2].tolist()), trump).total
        ranges["partner_meld"] = MeldRange(actual // 2, None)
    if draw(st.booleans()):
        actual = sum(
            engine.best(Hand(deal[s].tolist()), trump).total for s in opponent_seats(variant)
        )
        ranges["opponents_meld"] = MeldRange(None, actual + 20)
    widow = Hand(deal[variant.players].tolist()) if variant.widow and draw(st.booleans()) else None
    knowledge = TableKnowledge(tuple(known), tuple(voids), widow=widow, **ranges)
    return variant, Hand(deal[0].tolist()), trump, knowledge


@settings(max_examples=60, deadline=None)
@given(table_knowledge(), st.integers(0, 2**32))
def test_constrained_dealing_never_breaks_what_the_table_knows(case, seed) -> None:
    variant, hand, trump, knowledge = case
    knowledge.check(hand, variant)
    try:
        dealt = deal_consistent(hand, variant, knowledge, 60, np.random.default_rng(seed), [trump])
    except KnowledgeError as error:  # a meld range rarer than 1 in 1,000: nothing to check
        assume("too rare" not in str(error))
        raise
    counts = dealt.counts[trump]
    assert len(counts) == 60 and dealt.tried[trump] >= 60
    assert _violations(counts, hand, variant, knowledge, trump) == []


def test_the_same_generator_deals_the_same_layouts() -> None:
    knowledge = read_knowledge(SINGLE, known=["partner:10D"], voids=["left:H"], partner_meld="40:")
    one, two = (
        deal_consistent(HAND, SINGLE, knowledge, 300, np.random.default_rng(4), list(SUITS))
        for _ in range(2)
    )
    for trump in SUITS:
        assert (one.counts[trump] == two.counts[trump]).all()
        assert one.tried[trump] == two.tried[trump] > 300
    # the meld depends on trump, so each trump keeps layouts of its own
    assert (one.counts[Suit.SPADES] != one.counts[Suit.HEARTS]).any()


def test_without_a_meld_range_every_trump_plays_the_same_layouts() -> None:
    knowledge = read_knowledge(SINGLE, voids=["left:H"])
    dealt = deal_consistent(HAND, SINGLE, knowledge, 100, np.random.default_rng(1), list(SUITS))
    assert len({id(counts) for counts in dealt.counts.values()}) == 1
    assert set(dealt.tried.values()) == {100}  # voids are dealt exactly: nothing refused


def test_a_constraint_too_rare_to_sample_is_refused_clearly() -> None:
    knowledge = read_knowledge(SINGLE, partner_meld="500:")
    with pytest.raises(KnowledgeError) as error:
        deal_consistent(HAND, SINGLE, knowledge, 200, np.random.default_rng(1), [Suit.SPADES])
    assert str(error.value).startswith("partner's meld at least 500 under ♠: kept in 0 of ")
    assert str(error.value).endswith("layouts: too rare to sample (fewer than 1 in 1,000)")


def _every_layout(variant, hand: Hand, keep) -> collections.Counter:
    """Every way to deal the tiny deck's unseen cards (copies told apart), counted by the
    hands they make, where ``keep`` accepts the three hands."""
    unseen = [c.index for c in CARDS for _ in range(variant.deck.copies_of(c) - hand.count(c))]
    found: collections.Counter = collections.Counter()
    size = variant.hand_size
    for left in itertools.combinations(range(len(unseen)), size):
        rest = [i for i in range(len(unseen)) if i not in left]
        for partner in itertools.combinations(rest, size):
            hands = np.zeros((3, 24), dtype=np.int64)
            for seat, chosen in enumerate((left, partner, [i for i in rest if i not in partner])):
                np.add.at(hands[seat], [unseen[i] for i in chosen], 1)
            if keep(hands):
                found[hands.tobytes()] += 1
    return found


def _chi_square(exact: collections.Counter, counts: np.ndarray) -> float:
    drawn = collections.Counter(np.ascontiguousarray(row[1:4]).tobytes() for row in counts)
    assert set(drawn) <= set(exact)  # nothing inconsistent, ever
    total, n = sum(exact.values()), len(counts)
    return sum(
        (drawn[key] - n * ways / total) ** 2 / (n * ways / total) for key, ways in exact.items()
    )


def test_kept_layouts_are_uniform_among_the_consistent_ones() -> None:
    """A 16-card deck, small enough to list every layout: a known card with a second copy
    unseen, two voids competing for places, and a meld range."""
    variant, hand = load_variant(str(TINY)), Hand.parse("AS KS AH KD")
    knowledge = read_knowledge(
        variant, known=["partner:KH"], voids=["left:D", "right:C"], partner_meld="40:"
    )
    kh = Card.parse("KH").index
    diamonds = [Card.parse(c).index for c in ("AD", "KD")]
    clubs = [Card.parse(c).index for c in ("AC", "KC")]
    engine = engine_for(variant)

    def consistent(hands: np.ndarray, meld: bool) -> bool:
        fits = hands[1, kh] >= 1 and not hands[0, diamonds].any() and not hands[2, clubs].any()
        return fits and (not meld or engine.best(Hand(hands[1].tolist()), Suit.SPADES).total >= 40)

    bound = lambda exact: len(exact) + 6 * math.sqrt(2 * len(exact))  # noqa: E731
    exact = _every_layout(variant, hand, lambda hands: consistent(hands, meld=False))
    sampler = LayoutSampler(hand, variant, knowledge)
    counts, keep = sampler.draw(np.random.default_rng(2), 60_000)
    assert _chi_square(exact, counts[keep]) < bound(exact)
    # placing the known K♥ without thinning favours layouts with both K♥ in partner's hand:
    # the test sees it
    sampler.copies = []
    counts, keep = sampler.draw(np.random.default_rng(2), 60_000)
    assert _chi_square(exact, counts[keep]) > 3 * bound(exact)
    exact = _every_layout(variant, hand, lambda hands: consistent(hands, meld=True))
    dealt = deal_consistent(
        hand, variant, knowledge, 40_000, np.random.default_rng(3), [Suit.SPADES]
    )
    assert _chi_square(exact, dealt.counts[Suit.SPADES]) < bound(exact)
