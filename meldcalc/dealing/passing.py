"""The card pass between partners (a variant's `passing`), and the policy every simulated
deal passes by.

The kinds (RULES.md "Card exchange"; variants/README.md):
- ``exchange`` (seed 001, the Toby Thomas game): having won the bid, before naming trump,
  the bidder names a suit; the partner sends ``cards`` cards, of that suit where it has
  them; the bidder names trump and returns as many.
- ``plain``: once trump is named the partner sends ``cards`` cards, the bidder returns as
  many; ``simultaneous``: both at once, the bidder choosing from its hand as dealt.

The policy, the same in every deal, uses only what the passer holds and has been told:
- The partner sends first what it must or what serves the bidder most: under the
  exchange the asked suit, from the top (all of it, when it has fewer than the pass); under
  a plain pass trumps, from the top. Then its aces, then its highest other cards, keeping
  the cards of its own meld (under trump, or under the asked suit while trump is not named)
  for last.
- The bidder returns what neither trump nor its meld needs (its best meld, under the trump,
  of the cards it holds when it chooses): its shortest plain suit first (to void it and
  trump in), lowest first. Only when those run out: trumps outside the meld, lowest first;
  then, one at a time, the meld card whose loss costs the meld least (a dix before a
  pinochle card, anything before a card of the run).
- What a bid asked for, by the table's bidding system (`rules.systems`: Jim Davis's "I
  need a jack", Toby Thomas's "pass me queens"), goes first: under the exchange the asked
  ranks of the suit named, then of the other suits; under a plain pass (and in the cards
  passed back) one card of the rank (one of each suit, or of each rank, where that is
  asked), from the cards outside the passer's meld, trump first, then S H D C. A passer
  with no such card passes by the rest of the policy (`meldcalc bid` and the session say so).
- The suit to ask for: each is simulated, and ``meldcalc bid`` names the best.
- Once the bidder holds its partner's cards (``bid --received``), what it passes back is
  judged instead: the rule's choice and a few dozen others (`pass_backs`), each simulated
  on the same deals, as burials are.

Meld is laid down after the pass, so the bidder's and the partner's meld are counted on
the hands after it, deal by deal. Whether the bidder may name trump (double deck: a
marriage in it) is judged on its hand as dealt; seed 001 names "a marriage after the
exchange is enough" as a house variation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldcalc.rules.cards import CARDS, NUM_CARDS, RANKS, SUITS, Card, Hand, Suit
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np

    from meldcalc.rules.systems import Ask

PARTNER = 2
#: Sort keys of a card by rank: highest first, and lowest first (suit breaks ties).
_HIGH_FIRST = [card.rank.index * len(SUITS) + card.suit.index for card in CARDS]
_LOW_FIRST = [(len(RANKS) - 1 - card.rank.index) * len(SUITS) + card.suit.index for card in CARDS]
#: A tier's keys lie in [tier * _TIER, (tier + 1) * _TIER).
_TIER = 1_000_000


def after_pass(seats: np.ndarray, sent: np.ndarray, back: np.ndarray) -> np.ndarray:
    """(N, players, 24) hands once the partner has sent ``sent`` and the bidder ``back``
    (`passes`)."""
    after = seats.copy()
    after[:, 0] = seats[:, 0] + sent - back
    after[:, PARTNER] = seats[:, PARTNER] - sent + back
    return after


def passes(
    seats: np.ndarray,
    variant: Variant,
    trump: Suit,
    ask: Suit | None = None,
    received: Hand | None = None,
    returned: Hand | None = None,
    wants: tuple[Ask | None, Ask | None] = (None, None),
) -> tuple[np.ndarray, np.ndarray]:
    """(N, 24) each: the cards the partner sends the bidder (the policy's, or ``received``
    in every deal) and the cards the bidder sends back (the policy's, or ``returned``);
    ``wants``: what the bidder's bids asked its partner for, and the partner's the bidder."""
    import numpy as np

    def every_deal(hand: Hand) -> np.ndarray:
        return np.broadcast_to(np.array(hand.counts, dtype=seats.dtype), bidder.shape)

    bidder, partner = seats[:, 0], seats[:, PARTNER]
    if received is None:
        sent = partner_sends(partner, variant, trump, ask, wants[0])
    else:
        sent = every_deal(received)
    if returned is not None:
        return sent, every_deal(returned)
    chooses_from = bidder if variant.passing.simultaneous else bidder + sent
    return sent, bidder_returns(chooses_from, variant, trump, wants[1])


def partner_sends(
    partner: np.ndarray,
    variant: Variant,
    trump: Suit,
    ask: Suit | None = None,
    wanted: Ask | None = None,
) -> np.ndarray:
    """(N, 24): the cards the partner sends (module docstring). ``ask``: the suit asked
    for under the exchange, before trump is named; ``wanted``: what the bidder's bids
    asked for."""
    import numpy as np

    exchange = variant.passing.kind == "exchange"
    first = ask if exchange else trump
    meld = _meld_needs(partner, variant, first)
    ranks = wanted.ranks if wanted is not None and exchange else ()
    free = np.array([_partner_key(card, first, False, ranks) for card in range(NUM_CARDS)])
    kept = np.array([_partner_key(card, first, True, ranks) for card in range(NUM_CARDS)])
    if wanted is None or exchange:
        return take_first(partner, meld, free, kept, variant.passing.cards)
    suits = [trump, *(suit for suit in SUITS if suit is not trump)]
    given = asked_cards(partner - meld, wanted, suits, variant.passing.cards)
    rest = variant.passing.cards - given.sum(axis=1)
    return given + take_first(partner - given, meld, free, kept, rest)


def _partner_key(card: int, first: Suit, kept: bool, wanted: tuple = ()) -> int:
    """First the asked suit (or trump), its ``wanted`` ranks first, then the wanted ranks
    of other suits, then aces, then the highest; its meld last."""
    rank, suit = CARDS[card].rank, CARDS[card].suit
    if suit is first:
        tier = 0 if rank in wanted else 1
    elif kept:
        tier = 5
    elif rank in wanted:
        tier = 2
    else:
        tier = 3 if rank is RANKS[0] else 4
    return tier * _TIER + _HIGH_FIRST[card]


def asked_cards(spare: np.ndarray, wanted: Ask, suits: list[Suit], limit: int) -> np.ndarray:
    """(N, 24): the asked cards a passer gives first, from ``spare`` (its cards outside its
    meld): each card asked for (one of the rank, or one of each rank or suit asked), in
    the first of ``suits`` it holds a spare copy of; at most ``limit`` cards."""
    import numpy as np

    given = np.zeros_like(spare)
    wanted_cards = wanted.options()[0]
    for slot in wanted_cards[:limit]:
        choices = [slot] if wanted.every_suit else [Card(slot.rank, suit) for suit in suits]
        done = np.zeros(len(spare), dtype=bool)
        for card in choices:
            take = ~done & (spare[:, card.index] - given[:, card.index] > 0)
            given[take, card.index] += 1
            done |= take
    return given


def bidder_returns(
    hand: np.ndarray, variant: Variant, trump: Suit, wanted: Ask | None = None
) -> np.ndarray:
    """(N, 24): the cards the bidder returns from ``hand`` (module docstring); ``wanted``:
    what the partner's bids asked for, given first where the bidder can spare it."""
    import numpy as np

    meld, n = _meld_needs(hand, variant, trump), variant.passing.cards
    given = np.zeros_like(hand)
    if wanted is not None:  # trump last: the bidder plays it
        plain = [suit for suit in SUITS if suit is not trump]
        given = asked_cards(hand - meld, wanted, [*plain, trump], n)
        hand, n = hand - given, n - given.sum(axis=1)
    suit_of = np.array([card.suit.index for card in CARDS])
    length = np.stack([hand[:, suit_of == s].sum(axis=1) for s in range(len(SUITS))], axis=1)
    is_trump = suit_of == trump.index
    low = np.array(_LOW_FIRST)
    plain = (length[:, suit_of] * len(SUITS) + suit_of) * 100 + low  # the shortest suit first
    free = np.where(is_trump, _TIER + low, plain)
    returned = take_first(hand, meld, free, np.full(NUM_CARDS, 2 * _TIER), n)
    forced = np.flatnonzero((hand - meld).sum(axis=1) < n)
    if len(forced):  # too few cards outside the meld: give up the meld that costs least
        outside = hand[forced] - meld[forced]
        short = (n[forced] if np.ndim(n) else n) - outside.sum(axis=1)
        returned[forced] = outside + _meld_given_up(meld[forced], variant, trump, short)
    return returned + given


def pass_backs(full: Hand, variant: Variant, trump: Suit, wanted: Ask | None = None) -> list[Hand]:
    """The cards worth judging for the bidder to pass back from ``full`` (its hand with
    its partner's cards) under ``trump``: the rule's choice first (with what the partner's
    bids asked for, ``wanted``, where it can be spared), then others from the cards the
    rule may pass (outside trump and the meld; shortest suit first, lowest first, as the
    rule orders them), by `widow.choices`."""
    import numpy as np

    from meldcalc.dealing.widow import MAX_CANDIDATES, choices

    counts = np.array([full.counts])
    rule = Hand(bidder_returns(counts, variant, trump, wanted)[0].tolist())
    meld = _meld_needs(counts, variant, trump)[0]
    length = {suit: sum(full.count(card) for card in CARDS if card.suit is suit) for suit in SUITS}
    free = [
        card
        for card in sorted(
            range(NUM_CARDS),
            key=lambda c: (length[CARDS[c].suit], CARDS[c].suit.index, _LOW_FIRST[c]),
        )
        if CARDS[card].suit is not trump
        for _ in range(full.counts[card] - meld[card])
    ]
    if len(free) <= variant.passing.cards:
        return [rule]
    others = [hand for hand in choices(free, full, variant.passing.cards) if hand != rule]
    return [rule, *others[: MAX_CANDIDATES - 1]]


def _meld_given_up(
    melds: np.ndarray, variant: Variant, trump: Suit, short: np.ndarray
) -> np.ndarray:
    """(M, 24): ``short`` cards of each meld to give up, one at a time, each the card whose
    loss lowers the meld least (the lower card on a tie)."""
    import numpy as np

    from meldcalc.rules.meld import engine_for

    engine, given = engine_for(variant), np.zeros_like(melds)
    tie_break = np.array(_LOW_FIRST) / 100
    for step in range(int(short.max())):
        due = short > step
        left = melds - given
        now = engine.totals(left)[trump]
        cost = np.full(melds.shape, np.inf)
        for card in np.flatnonzero(left[due].any(axis=0)):
            rows = np.flatnonzero(due & (left[:, card] > 0))
            trial = left[rows]
            trial[:, card] -= 1
            cost[rows, card] = now[rows] - engine.totals(trial)[trump] + tie_break[card]
        given[np.flatnonzero(due), cost[due].argmin(axis=1)] += 1
    return given


def _meld_needs(hand: np.ndarray, variant: Variant, trump: Suit) -> np.ndarray:
    from meldcalc.rules.meld import engine_for

    return engine_for(variant).used_copies(hand, trump)


def take_first(
    counts: np.ndarray,
    kept: np.ndarray,
    free_key: np.ndarray,
    kept_key: np.ndarray,
    n: int | np.ndarray,
) -> np.ndarray:
    """(N, 24): the first ``n`` cards of each row of ``counts`` (``n`` one number, or one
    a row), its free copies ordered by ``free_key`` and its ``kept`` copies by
    ``kept_key`` (lower first)."""
    import numpy as np

    rows = len(counts)
    n = np.reshape(n, (-1, 1)) if np.ndim(n) else n
    copies = np.concatenate([counts - kept, kept], axis=1)
    keys = np.concatenate(
        [np.broadcast_to(free_key, counts.shape), np.broadcast_to(kept_key, counts.shape)], axis=1
    )
    order = np.argsort(keys, axis=1, kind="stable")
    ordered = np.take_along_axis(copies, order, axis=1)
    before = np.cumsum(ordered, axis=1) - ordered
    taken = np.zeros((rows, 2 * NUM_CARDS), dtype=counts.dtype)
    np.put_along_axis(taken, order, np.clip(n - before, 0, ordered), axis=1)
    return taken[:, :NUM_CARDS] + taken[:, NUM_CARDS:]
