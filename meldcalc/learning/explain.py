"""Why a meld total is what it is, in words, for learners (``meldcalc meld --explain``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from meldcalc.rules.cards import CARDS, Card, Hand
from meldcalc.rules.meld import Item, Meld, MeldResult, engine_for
from meldcalc.rules.variant import MeldRule, Variant, checks_text

MULTIPLES = {1: "single", 2: "double", 3: "triple", 4: "quadruple"}
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def pretty(card: Card) -> str:
    """A card as players read it: ``K♣``."""
    return f"{card.rank.value}{card.suit.symbol}"


@dataclass(frozen=True)
class NearMiss:
    """One card more would make ``copies`` of ``meld``, worth ``points`` in all."""

    meld: str
    card: Card
    copies: int
    points: int
    gain: int

    def sentence(self) -> str:
        if self.copies == 1:
            return f"one {pretty(self.card)} short of {self.meld} ({self.points})"
        ordinal = ORDINALS.get(self.copies, f"{self.copies}th")
        multiple = MULTIPLES.get(self.copies, f"{self.copies}x")
        return f"a {ordinal} {pretty(self.card)} would make {multiple} {self.meld} ({self.points})"


def explain(hand: Hand, variant: Variant, result: MeldResult) -> list[str]:
    """Sentences: each meld and its cards, shared cards, blocked melds, near misses, total."""
    lines = [_meld_sentence(meld) for meld in result.melds] or ["no meld at all."]
    lines += _shared_cards(result.melds)
    lines += _reused(result.melds, variant)
    lines += _blocked(hand, variant, result)
    misses = near_misses(hand, variant, result)
    if misses:
        lines.append("near misses: " + "; ".join(miss.sentence() for miss in misses[:5]) + ".")
    lines.append(_total_sentence(result))
    if variant.meld_minimum and result.total < variant.meld_minimum:
        lines.append(
            f"below this variant's meld minimum of {variant.meld_minimum}: "
            "a side's meld scores only from there."
        )
    return lines


def _total_sentence(result: MeldResult) -> str:
    """``total under ♣: 40 + 20 = 60.``; a single meld's total is no sum: ``... ♣: 40.``"""
    parts = [str(meld.points) for meld in result.melds if meld.points]
    sum_of = f"{' + '.join(parts)} = " if len(parts) > 1 else ""
    return f"total under {result.trump.symbol}: {sum_of}{result.total}."


def _meld_sentence(meld: Meld) -> str:
    copies = f"{MULTIPLES.get(meld.copies, f'{meld.copies}x')} " if meld.copies > 1 else ""
    classes = "/".join(meld.classes) or "bonus, uses no cards"
    checks = f", {checks_text(meld.checks)}" if meld.checks else ""
    cards = " ".join(pretty(card) for card in meld.cards)
    return f"{copies}{meld.name} ({classes}): {cards} = {meld.points}{checks}."


def _shared_cards(melds: tuple[Meld, ...]) -> list[str]:
    """Cards that serve melds of different classes, and why that is allowed."""
    serving: dict[Card, dict[str, str]] = defaultdict(dict)
    for meld in melds:
        for card in meld.cards:
            for cls in meld.classes:
                serving[card].setdefault(cls, meld.name)
    lines = []
    for card in sorted(serving, key=lambda c: c.index):
        uses = serving[card]
        if len(uses) > 1:
            listed = ", ".join(f"{name} ({cls})" for cls, name in uses.items())
            lines.append(
                f"{pretty(card)} counts in {listed}: a card may serve one meld of each class."
            )
    return lines


def _reused(melds: tuple[Meld, ...], variant: Variant) -> list[str]:
    """The variant's exceptions to the reuse rule that this count used."""
    rules = {rule.name: rule for rule in variant.melds}
    lines = []
    for meld in melds:
        rule = rules[meld.name]
        if rule.reuses and meld.copies >= rule.reuse_from:
            others = [m for m in melds if m.name in rule.reuses and set(m.cards) & set(meld.cards)]
            if others:
                lines.append(
                    f"the {meld.name}s may use cards of the {' and '.join(rule.reuses)}: this"
                    f" variant allows it from {rule.reuse_from} copies on, beside"
                    f" {_copies(rule.reuse_beside)} of their own."
                )
    return lines


def _copies(count: int) -> str:
    return f"{count} cop{'y' if count == 1 else 'ies'}"


def _items(variant: Variant, result: MeldResult) -> list[Item]:
    return [item for c in engine_for(variant).components[result.trump] for item in c.items]


def _copies_in(result: MeldResult, item: Item) -> int:
    for meld in result.melds:
        if meld.name == item.rule.name and meld.suit is item.suit:
            return meld.copies
    return 0


def _blocked(hand: Hand, variant: Variant, result: MeldResult) -> list[str]:
    """Melds the hand holds the cards for but the best count leaves out: why."""
    lines = []
    for item in _items(variant, result):
        held = item.most_copies(list(hand.counts))
        counted = _copies_in(result, item)
        if held > counted and item.rule.value(held) > 0:
            rivals = sorted(
                {m.name for m in result.melds if _rivals(m, item) and m.name != item.rule.name}
            )
            if rivals:
                cards = " ".join(pretty(card) for card in item.cards)
                lines.append(
                    f"{cards} {'also ' if counted else ''}could make {item.rule.name}, but those"
                    f" cards already serve the {' and '.join(rivals)}: one meld of each class"
                    f" ({'/'.join(item.rule.classes)}) per card{_reuse_needs(item.rule, rivals)}."
                )
    return lines


def _reuse_needs(rule: MeldRule, rivals: list[str]) -> str:
    """Why a meld that may reuse its rivals' cards did not: it had too few of its own."""
    if not set(rivals) & set(rule.reuses):
        return ""
    return (
        f"; {rule.name}s may use the {' and '.join(rule.reuses)}'s cards only beside"
        f" {_copies(rule.reuse_beside)} of their own"
    )


def _rivals(meld: Meld, item: Item) -> bool:
    shares_class = set(meld.classes) & set(item.rule.classes)
    return bool(shares_class) and bool(set(meld.cards) & set(item.cards))


def near_misses(hand: Hand, variant: Variant, result: MeldResult) -> list[NearMiss]:
    """Melds (or one more copy of a meld) that exactly one more card would complete."""
    misses = []
    for item in _items(variant, result):
        copies = _copies_in(result, item) + 1
        short = [
            (card, need * copies - hand.counts[card])
            for card, need in item.needs
            if need * copies > hand.counts[card]
        ]
        exists = all(need * copies <= variant.deck.copies_of(CARDS[c]) for c, need in item.needs)
        if exists and len(short) == 1 and short[0][1] == 1:
            rule = item.rule
            gain = rule.value(copies) - rule.value(copies - 1)
            if gain > 0:
                card = CARDS[short[0][0]]
                misses.append(NearMiss(rule.name, card, copies, rule.value(copies), gain))
    return sorted(misses, key=lambda miss: -miss.gain)
