"""The widow seen: the burials judged, and the one chosen, keep the bidder's counted meld
and its trumps unless nothing else is left to bury."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.advice.bidding import estimate
from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.knowledge import read_knowledge
from meldcalc.dealing.ready import bury
from meldcalc.dealing.widow import MAX_CANDIDATES, burials
from meldcalc.rules.cards import CARDS, SUITS, Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld

VARIANTS = {name: load_variant(name) for name in ("three-handed", "double-deck-three-handed")}


def _forced(full: Hand, variant, trump: Suit, result) -> tuple[int, int]:
    """How many trumps outside the meld, and how many meld cards, any burial must take:
    what the widow's size leaves once every other card is buried."""
    in_meld = [0] * 24
    for cls in variant.classes:
        used = [0] * 24
        for meld in result.melds:
            if cls in meld.classes:
                for card in meld.cards:
                    used[card.index] += 1
        in_meld = [max(a, b) for a, b in zip(in_meld, used)]
    trumps = sum(n - in_meld[c.index] for c, n in zip(CARDS, full.counts) if c.suit is trump)
    other = len(full) - trumps - sum(in_meld)
    missing = max(0, variant.widow - other)
    return min(missing, trumps), max(0, missing - trumps)


def _keeps_the_meld(kept: Hand, result) -> bool:
    """Every class's counted melds still fit in the cards kept (a card serves one meld of
    each class, melds of different classes freely)."""
    classes = {cls for meld in result.melds for cls in meld.classes}
    for cls in classes:
        needed = [0] * 24
        for meld in result.melds:
            if cls in meld.classes:
                for card in meld.cards:
                    needed[card.index] += 1
        if any(n > k for n, k in zip(needed, kept.counts)):
            return False
    return True


@st.composite
def widow_hands(draw):
    name = draw(st.sampled_from(sorted(VARIANTS)))
    variant = VARIANTS[name]
    deal = deal_counts(variant, 1, np.random.default_rng(draw(st.integers(0, 2**32))))[0]
    full = Hand((deal[0] + deal[variant.players]).tolist())
    return variant, full, draw(st.sampled_from(SUITS))


def _check(variant, full: Hand, trump: Suit, buried: Hand) -> None:
    result = best_meld(full, variant, trump)
    trumps_forced, meld_forced = _forced(full, variant, trump, result)
    kept = Hand(a - b for a, b in zip(full.counts, buried.counts))
    assert len(buried) == variant.widow
    buried_trumps = sum(buried.count(c) for c in CARDS if c.suit is trump)
    if meld_forced == 0:
        assert _keeps_the_meld(kept, result), (full, trump, buried)
    if trumps_forced == 0:
        assert buried_trumps == 0, (full, trump, buried)


@settings(max_examples=150, deadline=None)
@given(widow_hands())
def test_no_burial_judged_holds_counted_meld_or_trumps_unless_forced(case) -> None:
    variant, full, trump = case
    found = burials(full, trump, variant)
    assert 1 <= len(found) <= MAX_CANDIDATES and len(set(found)) == len(found)
    rule = bury(list(full.counts), trump, variant.widow, best_meld(full, variant, trump), variant)
    assert found[0] == Hand.from_cards(CARDS[card] for card in rule)
    for buried in found:
        _check(variant, full, trump, buried)


def test_forced_burials_take_trumps_outside_the_meld_before_meld_cards() -> None:
    variant = VARIANTS["three-handed"]
    # spades trump: the run, the dix, a pinochle and aces, kings and queens around leave
    # one plain card (9♥) and one trump outside the meld (the second 10♠)
    full = Hand.parse("AS 10S KS QS JS 9S AH AD AC KH KD KC QH QD QC JD 10S 9H")
    result = best_meld(full, variant, Suit.SPADES)
    assert _forced(full, variant, Suit.SPADES, result) == (1, 1)
    # the lowest plain meld card goes last of all
    assert burials(full, Suit.SPADES, variant) == [Hand.parse("9H 10S JD")]


def test_a_second_copy_outside_the_meld_may_be_buried() -> None:
    variant = VARIANTS["three-handed"]
    full = Hand.parse("AS 10S KS QS JS JD 9S 9S AH 10H KH KH QH 10C KC AD AC 9D")
    meld = best_meld(full, variant, Suit.SPADES)
    buried = [str(CARDS[card]) for card in bury(list(full.counts), Suit.SPADES, 3, meld, variant)]
    assert sorted(buried) == ["10C", "10H", "KH"]  # one K♥ is the marriage's, the other free


@settings(max_examples=6, deadline=None)
@given(widow_hands(), st.integers(0, 1000))
def test_bid_with_the_widow_seen_buries_as_judged_and_never_counted_meld(case, seed) -> None:
    variant, full, _ = case
    cards = full.cards()
    hand, widow = Hand.from_cards(cards[variant.widow :]), Hand.from_cards(cards[: variant.widow])
    knowledge = read_knowledge(variant, widow=widow.notation())
    report = estimate(hand, variant, deals=60, seed=seed, knowledge=knowledge)
    assert [odds.trump for odds in report.results] != []
    some_named = any(odds.biddable for odds in report.results)
    for odds in report.results:
        judged = report.burials[odds.trump]
        if some_named and not odds.biddable:  # a trump not to name: the rule of thumb's alone
            assert [other.bury for other in judged] == burials(full, odds.trump, variant)[:1]
            assert odds.bury == judged[0].bury
            continue
        assert len(judged) == len(burials(full, odds.trump, variant))
        assert judged[0].bury == burials(full, odds.trump, variant)[0]  # the rule of thumb
        best = max(judged, key=lambda other: other.expected_total)
        assert odds.bury == best.bury
        if len(judged) > 1:  # its odds come from fresh deals, not the ones that chose it
            assert not np.array_equal(odds.tricks, best.tricks)
        _check(variant, full, odds.trump, odds.bury)
        # judged on the same deals: every burial of a trump, the same partner-free totals
        assert len({len(other.tricks) for other in judged}) == 1
    assert report.advice()[1].startswith(f"Bury {report.best.bury.notation(report.best.trump)}")


def test_screened_burials_keep_the_rule_of_thumb_and_are_judged_as_without_screening(
    monkeypatch,
) -> None:
    """Screening only drops burials: those it keeps (the rule of thumb's always) are
    judged on the very deals, with the very totals, they had when every burial was."""
    import meldcalc.advice.bidding as bidding
    from meldcalc.dealing.knowledge import TableKnowledge

    variant = VARIANTS["three-handed"]
    hand = Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D")
    knowledge = TableKnowledge(widow=Hand.parse("KS 10H 9C"))
    deals = 2 * bidding.SCREEN_DEALS  # the fewest that are screened
    run = lambda: estimate(hand, variant, deals, 3, knowledge=knowledge, policy="rules")  # noqa: E731
    screened = run()
    monkeypatch.setattr(bidding, "SCREEN_DEALS", deals)  # now too few deals to screen
    every = run()
    assert not every.screened and screened.screened
    for trump, judged in every.burials.items():
        kept = screened.burials[trump]
        assert screened.screened[trump] == len(judged) > len(kept)
        assert kept[0].bury == judged[0].bury  # the rule of thumb's, first
        assert len(kept) <= bidding.SCREEN_KEEP + 1
        totals = {odds.bury: odds.expected_total for odds in judged}
        assert all(totals[odds.bury] == odds.expected_total for odds in kept)
