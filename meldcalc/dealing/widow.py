"""The widow seen: which cards to bury, and the few burials worth simulating.

Once the bidder has taken the widow (three-handed: 18 cards; the double-deck three-handed
kitty: 30), burying is a choice among C(18, 3) = 816 or C(30, 5) = 142,506 ways, too many to
simulate each. `burials` lists a few dozen sensible ones, and ``meldcalc bid --widow``
judges them all on the same simulated deals, keeping the one that takes the most points.

Never buried while there is another choice: a card of a meld the bidder counts (its best
meld of all its cards under the trump: those cards have been laid down), and trumps. When
too few other cards are left, trumps outside the meld go first, lowest first, then meld
cards. `burial_order` ranks the cards as the rule of thumb buries them: counters outside
trump and the meld first (tens, then kings and any other counter: buried points count for
the bidder and are safe from the opponents), then the lowest plain cards, then plain aces;
then, when forced, trumps outside the meld, then meld cards (plain before trump).

The candidates, all from the cards that may be buried:
- the rule of thumb's choice (the first cards of `burial_order`), and every other choice
  among the first few cards of that order (as many as keep these to `NEIGHBOURS`);
- each plain suit buried whole where it fits (a void to trump in), topped up by the rule;
- the most trick points banked (counters, the biggest first);
- and every burial, when the cards that may be buried allow at most `MAX_CANDIDATES`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from meldcalc.rules.cards import CARDS, NUM_CARDS, Hand, Rank, Suit
from meldcalc.rules.variant import Variant

#: The most burials judged under one trump (each is simulated on every deal).
MAX_CANDIDATES = 30
#: The most burials taken from the first cards of the rule of thumb's order.
NEIGHBOURS = 20
#: Tiers of `burial_order`: a card of this tier or above is buried only when forced.
PROTECTED = 4


def burial_tier(card: int, in_meld: bool, trump: Suit, variant: Variant) -> int:
    """0 tens, 1 other counters, 2 low plain cards, 3 plain aces; when forced: 4 trumps
    outside the meld, 5 plain meld cards, 6 meld trumps."""
    rank, suit = CARDS[card].rank, CARDS[card].suit
    if in_meld:
        return 6 if suit is trump else 5
    if suit is trump:
        return 4
    if rank is Rank.ACE:
        return 3
    if variant.counters.get(rank, 0):
        return 0 if rank is Rank.TEN else 1
    return 2


def burial_order(
    counts: list[int] | tuple[int, ...], trump: Suit, variant: Variant, used: list[int]
) -> list[tuple[int, int]]:
    """Every card held (copies repeated) as (card, tier), in the order the rule of thumb
    buries them; ``used`` gives the copies of each card the bidder's meld lays down."""
    physical = [
        (card, burial_tier(card, copy < used[card], trump, variant))
        for card in range(NUM_CARDS)
        for copy in range(counts[card])
    ]
    return sorted(physical, key=lambda item: (item[1], -CARDS[item[0]].rank.index))


def burials(full: Hand, trump: Suit, variant: Variant) -> list[Hand]:
    """The burials worth judging under ``trump``, the rule of thumb's first."""
    from meldcalc.rules.meld import best_meld, meld_copies

    used = meld_copies(full, best_meld(full, variant, trump))
    order = burial_order(full.counts, trump, variant, used)
    size = variant.widow
    free = [card for card, tier in order if tier < PROTECTED]
    if len(free) <= size:  # forced: what must go, then the rule's order
        return [Hand.from_cards(CARDS[card] for card, _ in order[:size])]
    return choices(free, full, size, [_top_up(_banked(free, variant)[:size], free, size)])


def choices(free: list[int], full: Hand, size: int, extra: Iterable[list[int]] = ()) -> list[Hand]:
    """The choices of ``size`` cards from ``free`` (copies repeated, in a rule of thumb's
    order, so its own choice is the first ``size``) worth judging, the rule's first: its
    neighbours, each plain suit whole where it fits, ``extra``, and every choice when there
    are few. Burials use it, and so do the cards a bidder passes back to its partner."""
    found = [free[:size], *_neighbours(free, size), *_voids(free, full, size), *extra]
    if math.comb(len(free), size) <= 50 * MAX_CANDIDATES:
        every = _distinct(itertools.combinations(free, size))
        found += every if len(every) <= MAX_CANDIDATES else []
    distinct = _distinct(found)[:MAX_CANDIDATES]
    return [Hand.from_cards(CARDS[card] for card in choice) for choice in distinct]


def _neighbours(free: list[int], size: int) -> list[list[int]]:
    """Every choice among the first cards of the rule's order: as many cards as keep the
    distinct choices to `NEIGHBOURS` (3 of the first 6 in three-handed; more where cards
    repeat, as they do in double deck)."""
    choices: list[list[int]] = []
    for window in range(size, len(free) + 1):
        wider = _distinct(itertools.combinations(free[:window], size))
        if len(wider) > NEIGHBOURS or math.comb(window, size) > 50 * NEIGHBOURS:
            break
        choices = wider
    return choices


def _distinct(choices: Iterable[Iterable[int]]) -> list[list[int]]:
    """The choices as multisets, each once, in their first order."""
    return [list(choice) for choice in dict.fromkeys(tuple(sorted(c)) for c in choices)]


def _voids(free: list[int], full: Hand, size: int) -> list[list[int]]:
    """Each plain suit buried whole, where it fits and none of it must stay."""
    found = []
    for suit in dict.fromkeys(CARDS[card].suit for card in free):
        cards = [card for card in free if CARDS[card].suit is suit]
        whole = sum(full.count(card) for card in CARDS if card.suit is suit)
        if len(cards) == whole <= size:
            found.append(_top_up(cards, free, size))
    return found


def _banked(free: list[int], variant: Variant) -> list[int]:
    """The cards in order of the trick points they bank, the biggest first."""
    return sorted(free, key=lambda card: -variant.counters.get(CARDS[card].rank, 0))


def _top_up(chosen: list[int], free: list[int], size: int) -> list[int]:
    """``chosen`` and then the rule's next cards not chosen, up to ``size``."""
    rest = list(free)
    for card in chosen:
        rest.remove(card)
    return chosen + rest[: size - len(chosen)]
