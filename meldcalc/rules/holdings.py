"""What a seat can hold, and so what it can meld: the most meld of any hand of at most
``size`` cards taken from the cards it may hold (`most_meld`), the bound a meld total typed
for a seat is held to, and a side's meld to (`most_side_meld`).

A hand's best meld (`rules.meld`) is the assignment of its cards to melds; a hand that
melds M holds at least the cards its melds use: card by card, the most any one class uses
(a card serves one meld of each class). So the most a seat can meld is the most points of
a choice of melds (each meld of the variant under trump, at some number of copies) whose
cards, so counted, are among those it may hold and number at most ``size``. Searched
exactly, depth first with a bound, over the few melds a variant has. Where a meld may reuse
another's cards (`MeldRule.reuses`, Toby Thomas's extra royal marriage) its cards are
counted as sharing them, so the bound is never below the truth; it is exact otherwise.
"""

from __future__ import annotations

from meldcalc.rules.cards import NUM_CARDS, SUITS, Hand, Suit
from meldcalc.rules.variant import Variant


def most_meld(variant: Variant, trump: Suit, available: Hand, size: int) -> int:
    """The most a hand of at most ``size`` cards from ``available`` melds under ``trump``."""
    return _most(variant, trump, tuple(available.counts), size)


def most_any_trump(variant: Variant, available: Hand, size: int) -> int:
    """`most_meld` under the trump that gives the most (trump not yet known)."""
    return max(most_meld(variant, trump, available, size) for trump in SUITS)


def most_side_meld(variant: Variant, bidder: int, side: int) -> int:
    """The most a side can meld in a hand: the most of each of its seats from the whole
    deck (the bidder's hand with the widow), under the trump that gives the side most."""
    from meldcalc.rules.scoring import side_of

    deck = Hand([variant.deck.copies_of(card) for card in _cards()])
    seats = [seat for seat in range(variant.players) if side_of(variant, seat) == side]
    sizes = [variant.hand_size + (variant.widow if seat == bidder else 0) for seat in seats]
    return max(sum(most_meld(variant, trump, deck, size) for size in sizes) for trump in SUITS)


def _cards() -> list:
    from meldcalc.rules.cards import CARDS

    return list(CARDS)


#: Bounds worked out, by variant (its identity), trump, cards and size: a hand asks the
#: same few again at every step replayed.
_FOUND: dict[tuple, tuple[Variant, int]] = {}
CACHE_LIMIT = 4096


def _most(variant: Variant, trump: Suit, available: tuple[int, ...], size: int) -> int:
    key = (id(variant), trump, available, size)
    found = _FOUND.get(key)
    if found is not None and found[0] is variant:
        return found[1]
    if len(_FOUND) >= CACHE_LIMIT:
        _FOUND.clear()
    most = _Search(variant, trump, available, size).run()
    _FOUND[key] = (variant, most)
    return most


class _Search:
    """Depth-first over each meld's copies (most first), a branch left once its points
    plus the most the melds after it could add cannot beat the best found."""

    def __init__(
        self, variant: Variant, trump: Suit, available: tuple[int, ...], size: int
    ) -> None:
        from meldcalc.rules.meld import engine_for

        items = [item for part in engine_for(variant).components[trump] for item in part.items]
        self.available, self.size = available, size
        self.items = [
            item for item in items if item.most_copies(available) and item.rule.value(1) > 0
        ]
        self.items.sort(key=lambda item: -item.rule.value(1) / sum(n for _, n in item.needs))
        self.keys = [_usage_key(item) for item in self.items]
        self.most = [0] * (len(self.items) + 1)
        for i in range(len(self.items) - 1, -1, -1):
            copies = self.items[i].most_copies(available)
            self.most[i] = self.most[i + 1] + max(
                self.items[i].rule.value(k) for k in range(copies + 1)
            )
        self.used: dict[str, list[int]] = {}
        self.best = 0

    def run(self) -> int:
        self._visit(0, 0)
        return self.best

    def _visit(self, i: int, points: int) -> None:
        if points > self.best:
            self.best = points
        if i == len(self.items) or points + self.most[i] <= self.best:
            return
        item, keys = self.items[i], self.keys[i]
        for copies in range(item.most_copies(self.available), 0, -1):
            if self._place(keys, item, copies):
                self._visit(i + 1, points + item.rule.value(copies))
            self._place(keys, item, -copies)
        self._visit(i + 1, points)

    def _place(self, keys: tuple[str, ...], item: object, copies: int) -> bool:
        """Add (or, negative, take back) ``copies`` of ``item``'s cards to its classes'
        usage; whether the cards so used are still a hand the seat may hold."""
        for key in keys:
            used = self.used.setdefault(key, [0] * NUM_CARDS)
            for card, need in item.needs:
                used[card] += need * copies
        if copies < 0:
            return True
        needed = [max(used[card] for used in self.used.values()) for card in range(NUM_CARDS)]
        fits = all(n <= a for n, a in zip(needed, self.available))
        return fits and sum(needed) <= self.size


def _usage_key(item: object) -> tuple[str, ...]:
    """The usage counters a meld's cards go to: its classes; a meld that may reuse others'
    cards, or belongs to no class (a bonus), a counter of its own, so its cards are counted
    as shared (never more than the truth)."""
    rule = item.rule
    if rule.reuses or not rule.classes:
        return (f"{rule.name}/{item.order}",)
    return tuple(rule.classes)
