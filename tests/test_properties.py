"""Invariants of the meld engine over random hands (hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.rules.cards import SUITS, Card, Hand, Rank, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld

VARIANTS = {
    name: load_variant(name)
    for name in ("single-deck", "double-deck", "double-deck-toby-thomas", "single-deck-tens")
}


@st.composite
def deals(draw, max_cards: int = 20):
    """A variant, a legal hand of it (as a card list) and a trump."""
    name = draw(st.sampled_from(sorted(VARIANTS)))
    variant = VARIANTS[name]
    deck = variant.deck.cards()
    cards = draw(st.lists(st.sampled_from(range(len(deck))), unique=True, max_size=max_cards))
    return variant, [deck[i] for i in cards], draw(st.sampled_from(SUITS))


@settings(max_examples=300, deadline=None)
@given(deals(), st.randoms(use_true_random=False))
def test_card_order_never_matters(deal, rnd) -> None:
    variant, cards, trump = deal
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert best_meld(Hand.from_cards(cards), variant, trump) == best_meld(
        Hand.from_cards(shuffled), variant, trump
    )


@settings(max_examples=300, deadline=None)
@given(deals(max_cards=19), st.data())
def test_adding_a_card_never_lowers_the_best_total(deal, data) -> None:
    variant, cards, trump = deal
    hand = Hand.from_cards(cards)
    spare = [c for c in variant.deck.cards() if hand.count(c) < variant.deck.copies_of(c)]
    extra: Card = data.draw(st.sampled_from(spare))
    bigger = Hand.from_cards([*cards, extra])
    assert best_meld(bigger, variant, trump).total >= best_meld(hand, variant, trump).total


@settings(max_examples=300, deadline=None)
@given(deals(), st.sampled_from([None, *SUITS]))
def test_parse_of_print_round_trips(deal, order: Suit | None) -> None:
    hand = Hand.from_cards(deal[1])
    if len(hand):
        assert Hand.parse(hand.notation(order)) == hand


@settings(max_examples=300, deadline=None)
@given(deals())
def test_total_is_the_sum_of_listed_melds_and_classes_never_overuse_cards(deal) -> None:
    variant, cards, trump = deal
    hand = Hand.from_cards(cards)
    result = best_meld(hand, variant, trump)
    assert result.total == sum(meld.points for meld in result.melds)
    for cls in variant.classes:
        used = Counter(c for m in result.melds if cls in m.classes for c in m.cards)
        if variant.name == "double-deck-toby-thomas" and cls == "sequence":
            # royal marriages may share the runs' cards, only beside a K-Q of their own
            used = Counter(
                c
                for m in result.melds
                if m.name != "royal marriage"
                for c in m.cards
                if cls in m.classes
            )
            _royal_marriages_share_the_runs_only_beside_an_extra(hand, trump, result.melds)
        assert all(hand.count(card) >= n for card, n in used.items())


def _royal_marriages_share_the_runs_only_beside_an_extra(hand, trump, melds) -> None:
    copies = {m.name: m.copies for m in melds}
    runs, marriages = copies.get("run", 0), copies.get("royal marriage", 0)
    pairs = min(hand.count(Card(Rank.KING, trump)), hand.count(Card(Rank.QUEEN, trump)))
    assert marriages <= pairs
    if runs + marriages > pairs:  # some K-Q serve a run and a royal marriage at once
        assert pairs - runs >= 1, (runs, marriages, pairs)


@settings(max_examples=200, deadline=None)
@given(deals(), st.sampled_from([None, *SUITS]), st.integers(1, 10**6))
def test_fast_json_text_equals_plain_json_encoding(deal, trump, line) -> None:
    import json

    from meldcalc.cli.counting import meld_json, meld_json_text
    from meldcalc.rules.meld import meld_report

    variant, cards, _ = deal
    if cards:
        report = meld_report(Hand.from_cards(cards).notation(), variant, trump)
        expected = json.dumps(meld_json(report, line), ensure_ascii=False)
        assert meld_json_text(report, line) == expected
        assert meld_json_text(report) == json.dumps(meld_json(report), ensure_ascii=False)
