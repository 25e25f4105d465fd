"""Hands built to hold a theme: the cases that trip players, which random deals rarely give.

Each meld theme is a *core* (the cards that make the case, chosen from the variant's own
melds under the trump, never from meld names) and a *test* the whole hand must pass once
the rest of it is dealt at random from what is left of the deck: a hand whose filler spoilt
the case is dealt again. So a theme works for any variant or house file whose melds have
the shape it needs (`available` says which do).

- ``plain``: a hand as dealt, with some meld in it;
- ``reuse``: melds of different classes sharing a card (Q♠ in a marriage, the pinochle and
  queens around at once);
- ``kkq``: one card of a two-card meld twice and the other once (K K Q: one marriage; J♦ J♦
  Q♠: one pinochle);
- ``run``: the run, its K-Q tempting a royal marriage, sometimes beside an extra K or Q or
  an extra K-Q;
- ``doubles``: a meld held twice (double pinochle, double aces), or an around one card
  short (queens around without a Q♦);
- ``toby``: the melds a variant lets reuse others' cards (Toby Thomas's royal marriages
  beside runs);
- ``tie``: (the best trump) two or three suits holding the same ranks, so trumps tie.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from meldcalc.rules.cards import CARDS, NUM_CARDS, RANKS, SUITS, Hand, Suit
from meldcalc.rules.meld import Item, MeldResult, best_meld, class_usage, engine_for
from meldcalc.rules.variant import Variant

#: How many times a theme's hand is dealt before the theme is given up for this question.
TRIES = 60

Counts = list[int]


def items(variant: Variant, trump: Suit) -> list[Item]:
    """The variant's melds made concrete under ``trump``."""
    return [item for c in engine_for(variant).components[trump] for item in c.items]


def available(variant: Variant, theme: str) -> bool:
    """Whether the variant's melds have the shape ``theme`` needs."""
    trump = SUITS[0]
    if theme == "tie":
        return True
    builder = _CORES.get(theme)
    if builder is None:
        return False
    probe = random.Random(0)
    return any(builder(variant, trump, probe) is not None for _ in range(8))


def themed_hand(variant: Variant, theme: str, trump: Suit, rng: random.Random) -> Hand | None:
    """A full hand of ``variant`` holding ``theme`` under ``trump``; None when the variant
    cannot hold it (or the tries ran out)."""
    core, test = _CORES[theme], _TESTS[theme]
    for _ in range(TRIES):
        counts = core(variant, trump, rng)
        if counts is None:
            return None
        hand = fill(counts, variant, variant.hand_size, rng)
        if hand is not None and test(hand, variant, trump):
            return hand
    return None


def fill(core: Counts, variant: Variant, size: int, rng: random.Random) -> Hand | None:
    """``core`` and random cards of the rest of the deck up to ``size`` cards; None when the
    core does not fit the deck or the hand."""
    if sum(core) > size or any(n > variant.deck.copies_of(CARDS[i]) for i, n in enumerate(core)):
        return None
    pool = _left(core, variant)
    counts = list(core)
    for card in rng.sample(pool, size - sum(core)):
        counts[card] += 1
    return Hand(counts)


def _left(core: Counts, variant: Variant) -> list[int]:
    """The cards of the deck not in ``core``, copies repeated."""
    pool = []
    for index in range(NUM_CARDS):
        pool += [index] * max(variant.deck.copies_of(CARDS[index]) - core[index], 0)
    return pool


def _with(*parts: tuple[Item, int]) -> Counts:
    """The cards of ``copies`` of each item, a card shared by items counted once (the most
    any of them needs)."""
    counts = [0] * NUM_CARDS
    for item, copies in parts:
        for card, need in item.needs:
            counts[card] = max(counts[card], need * copies)
    return counts


def _scoring(variant: Variant, trump: Suit) -> list[Item]:
    return [item for item in items(variant, trump) if item.rule.value(1) > 0]


# --- the cores ----------------------------------------------------------------------------


def _plain(variant: Variant, trump: Suit, rng: random.Random) -> Counts:
    return [0] * NUM_CARDS


def _reuse(variant: Variant, trump: Suit, rng: random.Random) -> Counts | None:
    scoring = _scoring(variant, trump)
    pairs = [
        (a, b)
        for a in scoring
        for b in scoring
        if a.order < b.order
        and not set(a.rule.classes) & set(b.rule.classes)
        and {c for c, _ in a.needs} & {c for c, _ in b.needs}
    ]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    third = [c for c in scoring if _shares_card(c, a) or _shares_card(c, b)]
    parts = [(a, 1), (b, 1)] + ([(rng.choice(third), 1)] if third and rng.random() < 0.5 else [])
    return _with(*parts)


def _shares_card(a: Item, b: Item) -> bool:
    return a is not b and bool({c for c, _ in a.needs} & {c for c, _ in b.needs})


def _pairs(variant: Variant, trump: Suit) -> list[Item]:
    """Two-card melds (a marriage, the pinochle) whose cards the deck holds twice."""
    return [
        item
        for item in _scoring(variant, trump)
        if len(item.needs) == 2
        and all(need == 1 for _, need in item.needs)
        and all(variant.deck.copies_of(CARDS[card]) >= 2 for card, _ in item.needs)
    ]


def _kkq(variant: Variant, trump: Suit, rng: random.Random) -> Counts | None:
    pairs = _pairs(variant, trump)
    if not pairs:
        return None
    item = rng.choice(pairs)
    (first, _), (second, _) = item.needs
    doubled, single = (first, second) if rng.random() < 0.5 else (second, first)
    counts = [0] * NUM_CARDS
    counts[doubled], counts[single] = 2, 1
    return counts


def _inside(variant: Variant, trump: Suit) -> list[tuple[Item, Item]]:
    """(big, small): a meld whose cards hold another meld of its class (the run and the
    royal marriage)."""
    scoring = _scoring(variant, trump)
    return [
        (big, small)
        for big in scoring
        for small in scoring
        if big is not small
        and set(big.rule.classes) & set(small.rule.classes)
        and {c for c, _ in small.needs} < {c for c, _ in big.needs}
    ]


def _run(variant: Variant, trump: Suit, rng: random.Random) -> Counts | None:
    nested = [(big, small) for big, small in _inside(variant, trump) if not big.rule.reuses]
    if not nested:
        return None
    big, small = rng.choice(nested)
    counts = _with((big, 1))
    extra = rng.choice(["none", "one", "one", "both"])
    cards = [card for card, _ in small.needs]
    chosen = [rng.choice(cards)] if extra == "one" else cards if extra == "both" else []
    for card in chosen:
        counts[card] += 1
    return counts


def _doubles(variant: Variant, trump: Suit, rng: random.Random) -> Counts | None:
    scoring = _scoring(variant, trump)
    doubled = [i for i in scoring if all(need * 2 <= variant.deck.copies for _, need in i.needs)]
    arounds = [i for i in scoring if i.rule.kind == "around"]
    if arounds and (not doubled or rng.random() < 0.35):
        item = rng.choice(arounds)
        counts = _with((item, 1))
        counts[rng.choice([card for card, _ in item.needs])] -= 1
        return counts
    if not doubled:
        return None
    return _with((rng.choice(doubled), 2))


def _toby(variant: Variant, trump: Suit, rng: random.Random) -> Counts | None:
    scoring = _scoring(variant, trump)
    reusers = [item for item in scoring if item.rule.reuses]
    if not reusers:
        return None
    reuser = rng.choice(reusers)
    reused = [item for item in scoring if item.rule.name in reuser.rule.reuses]
    if not reused:
        return None
    base = rng.choice(reused)
    runs = rng.choice([1, 1, 2]) if base.most_copies([variant.deck.copies] * NUM_CARDS) > 1 else 1
    extra = rng.choice([0, 1, 1, 2]) if runs == 1 else rng.choice([0, 1])
    counts = _with((base, runs))
    for card, need in reuser.needs:
        counts[card] = min(counts[card] + need * extra, variant.deck.copies)
    return counts


_CORES: dict[str, Callable[[Variant, Suit, random.Random], Counts | None]] = {
    "plain": _plain,
    "reuse": _reuse,
    "kkq": _kkq,
    "run": _run,
    "doubles": _doubles,
    "toby": _toby,
}


# --- the tests a whole hand must pass -------------------------------------------------------


def _melds(hand: Hand, variant: Variant, trump: Suit) -> MeldResult:
    return best_meld(hand, variant, trump)


def _has_meld(hand: Hand, variant: Variant, trump: Suit) -> bool:
    return _melds(hand, variant, trump).total > 0


def _reuses(hand: Hand, variant: Variant, trump: Suit) -> bool:
    """Some card counts in melds of two classes."""
    usage = class_usage(_melds(hand, variant, trump).melds).values()
    return any(sum(1 for counts in usage if counts[card]) > 1 for card in range(NUM_CARDS))


def _unequal_pair(hand: Hand, variant: Variant, trump: Suit) -> bool:
    counts = hand.counts
    for item in _pairs(variant, trump):
        (a, _), (b, _) = item.needs
        if min(counts[a], counts[b]) >= 1 and counts[a] != counts[b]:
            return True
    return False


def _holds_run(hand: Hand, variant: Variant, trump: Suit) -> bool:
    names = {meld.name for meld in _melds(hand, variant, trump).melds}
    return any(big.rule.name in names for big, _ in _inside(variant, trump))


def _double_or_short(hand: Hand, variant: Variant, trump: Suit) -> bool:
    if any(meld.copies >= 2 for meld in _melds(hand, variant, trump).melds):
        return True
    counts = hand.counts
    return any(
        item.rule.kind == "around" and sum(1 for card, _ in item.needs if not counts[card]) == 1
        for item in _scoring(variant, trump)
    )


def _holds_reused(hand: Hand, variant: Variant, trump: Suit) -> bool:
    reused = {name for item in items(variant, trump) for name in item.rule.reuses}
    return any(
        item.most_copies(hand.counts) >= 1
        for item in items(variant, trump)
        if item.rule.name in reused
    )


_TESTS: dict[str, Callable[[Hand, Variant, Suit], bool]] = {
    "plain": _has_meld,
    "reuse": _reuses,
    "kkq": _unequal_pair,
    "run": _holds_run,
    "doubles": _double_or_short,
    "toby": _holds_reused,
}


# --- trumps that tie ------------------------------------------------------------------------


def tied_hand(variant: Variant, rng: random.Random) -> Hand | None:
    """A hand whose best meld is the same under two or three trumps: those suits hold the
    same ranks, the others no card a trump meld could use (so they meld less)."""
    size, copies = variant.hand_size, variant.deck.copies
    for _ in range(TRIES):
        ways = rng.choice([2, 2, 3])
        tied = rng.sample(SUITS, ways)
        pattern = _pattern(variant, rng, size // ways)
        rest_size = size - ways * sum(pattern.values())
        plain = _plain_ranks(variant)
        others = [suit for suit in SUITS if suit not in tied]
        pool = [(rank, suit) for suit in others for rank in plain for _ in range(copies)]
        if rest_size < 0 or rest_size > len(pool):
            continue
        counts = [0] * NUM_CARDS
        for suit in tied:
            for rank, n in pattern.items():
                counts[suit.index * len(RANKS) + rank.index] += n
        for rank, suit in rng.sample(pool, rest_size):
            counts[suit.index * len(RANKS) + rank.index] += 1
        hand = Hand(counts)
        results = engine_for(variant).all_trumps(hand)
        top = results[0].total
        if top > 0 and results[ways - 1].total == top and results[-1].total < top:
            return hand
    return None


def _trump_ranks(variant: Variant) -> set:
    """The ranks a trump-dependent meld uses (K, Q, J, A, 10 of a run; the dix's 9)."""
    return {rank for rule in variant.melds if rule.kind == "trump" for rank in rule.ranks}


def _plain_ranks(variant: Variant) -> list:
    """The ranks no trump meld uses but the run: cards that meld the same under any trump
    (an A, a 10 or a J alone make no run)."""
    sequence = {
        rank
        for rule in variant.melds
        if rule.kind in ("trump", "non_trump") and len(rule.ranks) <= 2
        for rank in rule.ranks
    }
    return [rank for rank in variant.deck.ranks if rank not in sequence]


def _pattern(variant: Variant, rng: random.Random, most: int) -> dict:
    """Ranks (with copies) each tied suit holds: some of the trump melds' ranks."""
    ranks = [rank for rank in variant.deck.ranks if rank in _trump_ranks(variant)]
    chosen: dict = {}
    for _ in range(rng.randint(2, max(2, min(most, 2 * len(ranks))))):
        rank = rng.choice(ranks)
        if chosen.get(rank, 0) < variant.deck.copies:
            chosen[rank] = chosen.get(rank, 0) + 1
    return chosen
