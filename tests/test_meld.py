"""The optimiser's promises beyond single vectors: exactness, reuse, structure of results."""

from __future__ import annotations

from collections import Counter

from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld, best_meld_all_trumps, meld_report


def _greedy_run_first(hand: Hand, variant, trump: Suit) -> int:
    """What a count that takes melds one at a time, biggest first, would say."""
    counts = list(hand.counts)
    total = 0
    for rule in sorted(variant.melds, key=lambda rule: -rule.points[0]):
        for cards in rule.instances(trump):
            while all(counts[card] >= cards.count(card) for card in cards):
                for card in cards:
                    counts[card] -= 1
                total += rule.points[0]
    return total


def test_greedy_loses_where_toby_thomas_royal_marriages_reuse_the_run() -> None:
    variant = load_variant("double-deck-toby-thomas")
    hand = Hand.parse("H: A 10 K K Q Q J")
    assert best_meld(hand, variant, Suit.HEARTS).total == 45
    assert _greedy_run_first(hand, variant, Suit.HEARTS) < 45


def test_toby_thomas_runs_alone_make_no_royal_marriage_unless_a_house_says_beside_0(
    tmp_path,
) -> None:
    """The texts: a multiple royal marriage beside a run only with an EXTRA K-Q; a house
    table may still count the runs' own K-Q (``beside: 0``, the old reading)."""
    double_run = Hand.parse("H: A A 10 10 K K Q Q J J")
    toby = load_variant("double-deck-toby-thomas")
    assert best_meld(double_run, toby, Suit.HEARTS).total == 150
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: house\nextends: double-deck-toby-thomas\nmelds:\n  - name: royal marriage\n"
        "    reuse: {melds: [run], from_copies: 2, beside: 0}\n"
    )
    assert best_meld(double_run, load_variant(house), Suit.HEARTS).total == 180


def test_royal_marriage_inside_run_is_not_counted_twice(single_deck) -> None:
    result = best_meld(Hand.parse("AS 10S KS QS JS"), single_deck, Suit.SPADES)
    assert [meld.name for meld in result.melds] == ["run"]


def test_queen_of_spades_serves_three_classes_at_once(single_deck) -> None:
    result = best_meld(Hand.parse("KS QS JD QH QD QC"), single_deck, Suit.SPADES)
    holders = [meld.name for meld in result.melds if any(str(c) == "QS" for c in meld.cards)]
    assert holders == ["royal marriage", "pinochle", "queens around"]


def test_within_a_class_no_card_is_used_more_often_than_held(double_deck) -> None:
    hand = Hand.parse("AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS")
    result = best_meld(hand, double_deck, Suit.HEARTS)
    for cls in double_deck.classes:
        used = Counter(c for m in result.melds if cls in m.classes for c in m.cards)
        assert all(hand.count(card) >= n for card, n in used.items())


def test_all_trumps_are_best_first_and_ties_keep_suit_order(single_deck) -> None:
    results = best_meld_all_trumps(Hand.parse("AS 10S KS QS JS JD"), single_deck)
    assert [r.trump.letter for r in results] == ["S", "H", "D", "C"]
    assert [r.total for r in results] == [190, 60, 60, 60]


def test_best_trump_is_named_first_when_it_is_not_spades(single_deck) -> None:
    report = meld_report("AC 10C KC QC JC 9C", single_deck)
    assert report.best.trump is Suit.CLUBS
    assert report.best.total == 160


def test_house_roundhouse_bonus_competes_with_its_parts() -> None:
    """A meld in two classes: the optimiser takes the bonus only where it pays."""
    from pathlib import Path

    house = load_variant(Path(__file__).parent / "data" / "roundhouse.yaml")
    roundhouse = Hand.parse("KS QS KH QH KD QD KC QC")
    result = best_meld(roundhouse, house, Suit.SPADES)
    assert (result.total, [m.name for m in result.melds]) == (320, ["roundhouse"])
    # With the run, the run plus the parts (150+60+80+60 = 350) beats roundhouse alone (320).
    with_run = Hand.parse("AS 10S KS QS JS KH QH KD QD KC QC")
    assert best_meld(with_run, house, Suit.SPADES).total == 350


def test_meld_copies_count_a_card_once_across_classes_and_each_copy_within_one() -> None:
    from meldcalc.rules.meld import meld_copies

    variant = load_variant("single-deck")
    # K♥ serves the marriage (sequence) and kings around (around): one physical card
    hand = Hand.parse("KS QS KH QH KD KC 9S 9S AH AH 10C JC")
    result = best_meld(hand, variant, Suit.SPADES)
    used = Hand(meld_copies(hand, result))
    assert used == Hand.parse("KS QS KH QH KD KC 9S 9S")
    # Toby Thomas: the double royal marriage reuses the run's K and Q, and never more
    # copies than the hand holds
    toby = load_variant("double-deck-toby-thomas")
    hand = Hand.parse("H: A 10 K K Q Q J  S: A A")
    result = best_meld(hand, toby, Suit.HEARTS)
    assert Hand(meld_copies(hand, result)) == Hand.parse("H: A 10 K K Q Q J")


def test_used_copies_of_many_hands_at_once_match_one_at_a_time() -> None:
    import numpy as np

    from meldcalc.dealing.deal import deal_counts
    from meldcalc.rules.meld import engine_for, meld_copies

    for name in ("single-deck", "double-deck-toby-thomas", "check"):
        variant = load_variant(name)
        engine = engine_for(variant)
        counts = deal_counts(variant, 200, np.random.default_rng(3))[:, 0]
        for trump in Suit:
            batch = engine.used_copies(counts, trump)
            for row, used in zip(counts, batch):
                hand = Hand(row.tolist())
                assert used.tolist() == meld_copies(hand, engine.best(hand, trump))
