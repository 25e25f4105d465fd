"""The exact best meld of a hand under a trump.

The reuse rule makes this an optimisation: a card serves at most one meld of each class, so
melds compete for cards only inside a class. Under a given trump the variant's melds become
concrete *items* (the run in hearts, the marriage in clubs, ...). Items that could compete
(same class, shared card) are joined into *components*; components are independent, so the
best meld is the sum of each component's best, found by exhaustive search over copies.

A component's best depends only on the counts of its own few cards, so it is memoised on
them, and components that do not depend on trump (pinochle, arounds) are solved once per
hand for all four trumps. That is what makes a hand cost microseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from meldcalc.errors import HandError
from meldcalc.rules.cards import CARDS, NUM_CARDS, SUITS, Card, Hand, Suit
from meldcalc.rules.variant import MeldRule, Variant

if TYPE_CHECKING:
    import numpy as np

#: Memoised answers a component keeps before it starts afresh: bounds memory on huge inputs.
CACHE_LIMIT = 200_000


@dataclass(frozen=True)
class Meld:
    """One meld in a result: ``copies`` of it, the cards they use, the points they score."""

    name: str
    classes: tuple[str, ...]
    copies: int
    cards: tuple[Card, ...]
    points: int
    suit: Suit | None = None
    checks: int = 0

    @cached_property
    def json_text(self) -> str:
        """``json`` serialised once: batch output joins these instead of re-encoding."""
        import json

        return json.dumps(self.json, ensure_ascii=False)

    @cached_property
    def json(self) -> dict[str, object]:
        """The stable JSON form (see README): shared by every result that holds this meld."""
        record: dict[str, object] = {
            "name": self.name,
            "class": "+".join(self.classes),
            "copies": self.copies,
            "cards": [str(card) for card in self.cards],
            "points": self.points,
        }
        if self.checks:
            record["checks"] = self.checks
        return record


class MeldResult(NamedTuple):
    """The best meld of a hand under one trump."""

    trump: Suit
    total: int
    melds: tuple[Meld, ...]


class Answer(NamedTuple):
    """A component's best: its points and the melds that make them."""

    score: int
    melds: tuple[Meld, ...]


@dataclass(frozen=True, eq=False)
class Item:
    """A meld rule made concrete under a trump: its cards, as (card index, copies needed)."""

    rule: MeldRule
    needs: tuple[tuple[int, int], ...]
    order: tuple[int, int]
    suit: Suit | None

    def most_copies(self, free: Sequence[int]) -> int:
        return min(free[card] // need for card, need in self.needs)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        return tuple(CARDS[card] for card, need in self.needs for _ in range(need))

    def meld(self, copies: int) -> Meld:
        cards = tuple(card for card in self.cards for _ in range(copies))
        cards = tuple(sorted(cards, key=lambda c: c.index))
        rule = self.rule
        checks = rule.check_value(copies)
        return Meld(rule.name, rule.classes, copies, cards, rule.value(copies), self.suit, checks)


@dataclass(eq=False)
class Component:
    """Items that may compete for cards; solved exactly, memoised on its cards' counts."""

    items: tuple[Item, ...]
    cards: tuple[int, ...] = field(init=False)
    _key: itemgetter = field(init=False)
    _cache: dict[object, Answer] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        # Items that may reuse others' cards are searched last, once the others are placed.
        self.items = tuple(sorted(self.items, key=lambda item: bool(item.rule.reuses)))
        self.cards = tuple(sorted({card for item in self.items for card, _ in item.needs}))
        self._key = itemgetter(*self.cards)

    def best(self, counts: tuple[int, ...] | list[int]) -> Answer:
        key = self._key(counts)
        try:
            return self._cache[key]
        except KeyError:
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            answer = self._cache[key] = self._solve(counts)
            return answer

    def _solve(self, counts: tuple[int, ...] | list[int]) -> Answer:
        if len(self.items) == 1:  # nothing to compete with: as many copies as the cards allow
            item = self.items[0]
            copies = item.most_copies(counts)
            melds = (item.meld(copies),) if copies else ()
            return Answer(item.rule.value(copies), tuple(m for m in melds if m.points or m.checks))
        search = _Search(self.items, counts)
        search.visit(0, 0)
        melds = tuple(item.meld(copies) for item, copies in search.best if copies)
        return Answer(search.best_score, tuple(m for m in melds if m.points or m.checks))


class _Search:
    """Depth-first search over the copies of each item, keeping the class budgets.

    Branch and bound: a branch is left as soon as its score plus the most the remaining
    items could add (each as many copies as the hand holds, ignoring the classes) cannot
    beat the best found, so the first, greedy, descent usually settles it.
    """

    def __init__(self, items: tuple[Item, ...], counts: tuple[int, ...] | list[int]) -> None:
        self.items = items
        self.counts = counts
        classes = {cls for item in items for cls in item.rule.classes}
        self.used = {cls: [0] * NUM_CARDS for cls in classes}
        self.reusable = {cls: [0] * NUM_CARDS for cls in classes}
        self.shared = {name for item in items for name in item.rule.reuses}
        self.chosen: list[tuple[Item, int]] = []
        self.best: list[tuple[Item, int]] = []
        self.best_score = -1
        self.most = [0] * (len(items) + 1)  # most the items from i on could add
        for i in range(len(items) - 1, -1, -1):
            value, copies = items[i].rule.value, items[i].most_copies(counts)
            self.most[i] = self.most[i + 1] + max(value(k) for k in range(copies + 1))

    def visit(self, i: int, score: int) -> None:
        if i == len(self.items):
            if score > self.best_score:
                self.best_score, self.best = score, list(self.chosen)
            return
        if score + self.most[i] <= self.best_score:
            return
        item = self.items[i]
        for copies in self._choices(item):
            self._take(item, copies, +1)
            self.chosen.append((item, copies))
            self.visit(i + 1, score + item.rule.value(copies))
            self.chosen.pop()
            self._take(item, copies, -1)

    def _choices(self, item: Item) -> Iterator[int]:
        """Feasible copy counts, most first. A reuser past its threshold has a wider budget,
        the reused melds' cards, but only beside enough copies of cards of its own."""
        plain = item.most_copies(self._free(item, reusing=False))
        rule = item.rule
        if rule.reuses and plain >= rule.reuse_beside:
            wide = item.most_copies(self._free(item, reusing=True))
            yield from range(wide, max(rule.reuse_from, plain + 1) - 1, -1)
        yield from range(plain, -1, -1)

    def _free(self, item: Item, reusing: bool) -> list[int]:
        free = list(self.counts)
        for cls in item.rule.classes:
            used = self.used[cls]
            if reusing:
                used = [u - r for u, r in zip(used, self.reusable[cls])]
            free = [min(f, n - u) for f, n, u in zip(free, self.counts, used)]
        return free

    def _take(self, item: Item, copies: int, sign: int) -> None:
        if not copies:
            return
        reused = item.rule.name in self.shared
        for cls in item.rule.classes:
            for card, need in item.needs:
                self.used[cls][card] += sign * need * copies
                if reused:
                    self.reusable[cls][card] += sign * need * copies


class MeldEngine:
    """A variant's melds compiled for fast scoring under any trump."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        shared: dict[tuple, Component] = {}
        self.components: dict[Suit, list[Component]] = {}
        for trump in SUITS:
            self.components[trump] = [
                shared.setdefault(_identity(group), Component(tuple(group)))
                for group in _group(_items(variant, trump))
            ]
        self.unique: list[Component] = list(shared.values())
        self._solvers = [component.best for component in self.unique]
        position = {id(component): i for i, component in enumerate(self.unique)}
        # Picks a trump's answers out of the list of every unique component's answer.
        self._pick = {
            trump: _picker([position[id(c)] for c in components])
            for trump, components in self.components.items()
        }

    def best(self, hand: Hand, trump: Suit) -> MeldResult:
        """The best meld of ``hand`` with ``trump`` as trump."""
        return _result(trump, tuple([c.best(hand.counts) for c in self.components[trump]]))

    def totals(self, counts: np.ndarray) -> dict[Suit, np.ndarray]:
        """Best meld totals of many hands at once under each trump: ``counts`` is (N, 24).

        Each component is solved once per distinct count pattern of its cards in the batch
        (and once for all trumps where it does not depend on trump), so thousands of
        simulated partner hands cost a few array operations.
        """

        radix = int(counts.max()) + 1
        solved = [_batch_scores(component, counts, radix) for component in self.unique]
        return {trump: sum(pick(solved)) for trump, pick in self._pick.items()}

    def melded(self, counts: np.ndarray, trumps: Sequence[Suit]) -> dict[Suit, np.ndarray]:
        """The cards many hands lay on the table with their best meld under each of
        ``trumps``: ``counts`` (N, 24) in, (N, 24) per trump out. What the other seats see
        before the first lead.

        A card serves one meld of each class, so a class shows the sum of its melds' cards
        and the hand shows, card by card, the most any class needs (never more than it
        holds). Each component is solved once per distinct count pattern in the batch, and
        once for all the trumps it does not depend on.
        """
        import numpy as np

        classes = self.variant.classes
        needed = {id(c): c for trump in trumps for c in self.components[trump]}
        usage = {key: _batch_usage(component, counts, classes) for key, component in needed.items()}
        shown = {}
        for trump in trumps:
            per_class = np.zeros((len(counts), len(classes), NUM_CARDS), dtype=np.int8)
            for component in self.components[trump]:
                per_class[:, :, list(component.cards)] += usage[id(component)]
            shown[trump] = np.minimum(per_class.max(axis=1), counts)
        return shown

    def used_copies(self, counts: np.ndarray, trump: Suit) -> np.ndarray:
        """(N, 24): the copies of each card the best meld under ``trump`` of each row of
        ``counts`` lays down: what a player keeps to keep its meld."""
        return self.melded(counts, [trump])[trump]

    def all_trumps(self, hand: Hand) -> list[MeldResult]:
        """The best meld under each trump, best first (ties in suit order S H D C)."""
        counts = hand.counts
        solved = [best(counts) for best in self._solvers]
        results = [_result(trump, pick(solved)) for trump, pick in self._pick.items()]
        results.sort(key=_minus_total)
        return results


def _batch_scores(component: Component, counts: np.ndarray, radix: int) -> np.ndarray:
    """``component``'s best score for each row of ``counts``."""
    import numpy as np

    if len(component.items) == 1:  # no search: as many copies as the cards allow
        item = component.items[0]
        copies = np.min([counts[:, card] // need for card, need in item.needs], axis=0)
        values = [item.rule.value(k) for k in range(int(copies.max()) + 1)]
        return np.array(values, dtype=np.int64)[copies]
    where, patterns = _patterns(component, counts, radix)
    scores = [component.best(_spread(component.cards, pattern)).score for pattern in patterns]
    return np.array(scores, dtype=np.int64)[where]


def class_usage(melds: Sequence[Meld]) -> dict[str, list[int]]:
    """Per class, the copies of each card its melds use (a card serves one meld a class)."""
    usage: dict[str, list[int]] = {}
    for meld in melds:
        for cls in meld.classes:
            counts = usage.setdefault(cls, [0] * NUM_CARDS)
            for card in meld.cards:
                counts[card.index] += 1
    return usage


def meld_copies(hand: Hand, result: MeldResult) -> list[int]:
    """The copies of each card ``result``'s melds lay down: the most any one class uses
    (a physical card may serve a meld of each class), at most what the hand holds."""
    most = [0] * NUM_CARDS
    for counts in class_usage(result.melds).values():
        most = [max(a, b) for a, b in zip(most, counts)]
    return [min(a, b) for a, b in zip(most, hand.counts)]


def _batch_usage(component: Component, counts: np.ndarray, classes: tuple[str, ...]) -> np.ndarray:
    """(N, classes, len(component.cards)): the copies of the component's cards its best
    melds use in each hand, class by class."""
    import numpy as np

    cards = list(component.cards)
    pattern_of, patterns = _patterns(component, counts)
    answers = [component.best(_spread(cards, pattern)) for pattern in patterns]
    return np.array([_usage(answer, classes, cards) for answer in answers], np.int8)[pattern_of]


def _patterns(
    component: Component, counts: np.ndarray, radix: int | None = None
) -> tuple[np.ndarray, list[list[int]]]:
    """The distinct count patterns of ``component``'s cards among the rows of ``counts``,
    and which pattern each row has."""
    import numpy as np

    held = counts[:, list(component.cards)]
    radix = radix or int(counts.max()) + 1
    keys = held @ (radix ** np.arange(held.shape[1], dtype=np.int64))
    _, first, where = np.unique(keys, return_index=True, return_inverse=True)
    return where.reshape(-1), held[first].tolist()


def _usage(answer: Answer, classes: tuple[str, ...], cards: list[int]) -> list[list[int]]:
    """(classes, len(cards)) copies of each of ``cards`` the melds of ``answer`` use,
    class by class."""
    per_class = class_usage(answer.melds)
    unused = [0] * NUM_CARDS
    return [[per_class.get(name, unused)[card] for card in cards] for name in classes]


def _spread(cards: Sequence[int], counts: list[int]) -> list[int]:
    """24 per-card counts holding ``counts`` at ``cards`` and nothing else."""
    full = [0] * NUM_CARDS
    for card, count in zip(cards, counts):
        full[card] = count
    return full


def _picker(indices: list[int]) -> Callable[[list], tuple]:
    """``itemgetter`` that always returns a tuple, even of one item."""
    if len(indices) == 1:
        return lambda answers: (answers[indices[0]],)
    return itemgetter(*indices)


def _minus_total(result: MeldResult) -> int:
    return -result.total


_SCORE, _MELDS = itemgetter(0), itemgetter(1)


def _result(trump: Suit, answers: tuple[tuple[int, tuple[Meld, ...]], ...]) -> MeldResult:
    melds = tuple(chain.from_iterable(map(_MELDS, answers)))
    return MeldResult(trump, sum(map(_SCORE, answers)), melds)


def _items(variant: Variant, trump: Suit) -> list[Item]:
    items = []
    for order, rule in enumerate(variant.melds):
        others = [suit for suit in SUITS if suit is not trump]
        suits: list[Suit | None] = {"trump": [trump], "non_trump": others}.get(rule.kind, [None])
        for sub, (suit, cards) in enumerate(zip(suits, rule.instances(trump))):
            needs = tuple((card, cards.count(card)) for card in sorted(set(cards)))
            items.append(Item(rule, needs, (order, sub), suit))
    return items


def _group(items: list[Item]) -> list[list[Item]]:
    """Split items into components: joined when they share a class and a card."""
    groups: list[list[Item]] = []
    for item in items:
        joined = [group for group in groups if any(_compete(item, other) for other in group)]
        merged = [item] + [other for group in joined for other in group]
        groups = [group for group in groups if group not in joined] + [merged]
    groups = [sorted(group, key=lambda item: item.order) for group in groups]
    return sorted(groups, key=lambda group: group[0].order)


def _compete(a: Item, b: Item) -> bool:
    shares_class = bool(set(a.rule.classes) & set(b.rule.classes))
    shares_card = bool({c for c, _ in a.needs} & {c for c, _ in b.needs})
    return shares_class and shares_card


def _identity(group: list[Item]) -> tuple:
    return tuple((item.rule.name, item.needs) for item in group)


#: The most copy combinations one component may have: its exhaustive search must finish in
#: well under a second on any hand (a roundhouse bonus in double deck has 390,625).
MAX_COMBINATIONS = 1_000_000


def hardest_component(variant: Variant) -> tuple[int, list[str]]:
    """The largest number of copy combinations a component of ``variant`` can have, and
    the melds in it: what bounds the cost of the exact search."""
    worst: tuple[int, list[str]] = (1, [])
    for component in MeldEngine(variant).unique:
        combinations = 1
        for item in component.items:
            most = min(variant.deck.copies // need for _, need in item.needs)
            combinations *= most + 1
        if combinations > worst[0]:
            worst = (combinations, sorted({item.rule.name for item in component.items}))
    return worst


_ENGINES: dict[int, MeldEngine] = {}


def engine_for(variant: Variant) -> MeldEngine:
    """The compiled engine of a variant, built once per process."""
    engine = _ENGINES.get(id(variant))
    if engine is None or engine.variant is not variant:
        engine = _ENGINES[id(variant)] = MeldEngine(variant)
    return engine


def melded_cards(variant: Variant, counts: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """The cards every seat lays on the table with its best meld: ``counts`` (N, players,
    24) hands, ``trumps`` (N,) suit indices; returns (N, players, 24) counts."""
    import numpy as np

    engine = engine_for(variant)
    shown = np.zeros_like(counts)
    for trump in SUITS:
        rows = np.flatnonzero(trumps == trump.index)
        if len(rows):
            hands = counts[rows].reshape(-1, NUM_CARDS)
            melded = engine.melded(hands, [trump])[trump]
            shown[rows] = melded.reshape(len(rows), *counts.shape[1:])
    return shown


def meld_items(variant: Variant, trump: Suit) -> list[Item]:
    """Every meld of ``variant`` made concrete under ``trump`` (the run in hearts, the
    marriage in clubs ...), in the table's order: what a player may lay down one at a time
    (two-handed)."""
    items = [
        item for component in engine_for(variant).components[trump] for item in component.items
    ]
    return sorted(items, key=lambda item: item.order)


def best_meld(hand: Hand, variant: Variant, trump: Suit) -> MeldResult:
    """The best meld of ``hand`` under ``trump`` in ``variant``."""
    return engine_for(variant).best(hand, trump)


def best_meld_all_trumps(hand: Hand, variant: Variant) -> list[MeldResult]:
    """The best meld under each of the four trumps, best first."""
    return engine_for(variant).all_trumps(hand)


@dataclass(frozen=True)
class MeldReport:
    """Everything ``meldcalc meld`` says about one hand: results best first, and warnings."""

    hand: Hand
    variant: Variant
    results: list[MeldResult]
    warnings: list[str]

    @property
    def best(self) -> MeldResult:
        return self.results[0]


def read_hand(
    text: str, variant: Variant, strict: bool = False, dealt: bool = True
) -> tuple[Hand, list[str]]:
    """Parse and check a hand for ``variant``; with ``strict`` a short hand is an error.
    Cards not ``dealt`` to a seat (a widow, a stock) may be any number."""
    hand = Hand.parse(text)
    variant.check_hand(hand)
    warnings = variant.hand_warnings(hand) if dealt else []
    if strict and warnings:
        raise HandError(f"{warnings[0]} (--strict)")
    return hand, warnings


def meld_report(
    text: str,
    variant: Variant,
    trump: Suit | None = None,
    strict: bool = False,
    dealt: bool = True,
) -> MeldReport:
    """The best meld of a hand given as text, under ``trump`` or under each trump (of a
    seat's hand as ``dealt``, or of other cards: no size to check)."""
    hand, warnings = read_hand(text, variant, strict, dealt)
    engine = engine_for(variant)
    results = [engine.best(hand, trump)] if trump else engine.all_trumps(hand)
    return MeldReport(hand, variant, results, warnings)
