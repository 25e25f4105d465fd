"""Making the simulated deals ready for play: what the table knows, the widow, the pass.

A bid simulates each deal under several setups (`Setup`: a trump, and where it applies the
suit asked for in a card exchange, the cards buried from a widow seen or passed back to the
partner). `plan_setups` lists them; `ready_hands` deals the unseen cards once (consistent
with what the table knows) and makes the hands ready under each setup: the widow taken and
buried, the pass made, the meld every seat lays down counted. `meldcalc.advice.bidding` plays
them and counts the odds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meldcalc.dealing.knowledge import TableKnowledge, partner_seat, partner_seats
from meldcalc.dealing.layouts import deal_consistent
from meldcalc.dealing.widow import burial_order
from meldcalc.rules.bits import planes_from_counts
from meldcalc.rules.cards import CARDS, NUM_CARDS, SUITS, Hand, Suit
from meldcalc.rules.meld import MeldResult, engine_for, meld_copies
from meldcalc.rules.variant import Variant


@dataclass(frozen=True)
class Sample:
    """Per-deal outcomes under one trump: own meld, partner meld, side trick points; and
    the layouts tried for these deals (more than the deals where the table's knowledge
    refused some)."""

    meld: np.ndarray
    partner_meld: np.ndarray
    tricks: np.ndarray
    tried: int = 0
    #: the tricks and the counters the bidding side took in each deal (a counter buried
    #: counts as taken), where play counted them (not where the last tricks were solved)
    tricks_taken: np.ndarray | None = None
    counters_taken: np.ndarray | None = None


@dataclass(frozen=True)
class Setup:
    """How the bidder's side makes its hands ready for play: the trump, and the suit asked
    for in a card exchange, the cards buried from a widow seen or those passed back to the
    partner once the bidder knows what it holds."""

    trump: Suit
    ask: Suit | None = None
    bury: Hand | None = None
    returns: Hand | None = None


def deal_unseen(hand: Hand, variant: Variant, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, players + 1, 24) counts: seat 0 the bidder's hand, then the others, then the
    widow (empty when the variant has none)."""
    from meldcalc.dealing.deal import deal_counts

    return deal_counts(variant, size, rng, bidder=hand)


def plan_setups(
    hand: Hand, variant: Variant, trumps: list[Suit], knowledge: TableKnowledge
) -> list[Setup]:
    """The setups to simulate: each trump; with a widow seen, each trump with each burial
    worth judging (`widow.burials`); with the cards to pass back known (the partner's
    received, or a pass at once from the hand as dealt), each trump with each pass-back
    worth judging (`passing.pass_backs`); under a card exchange, each trump with each suit
    that could be asked for (or the one asked)."""
    if knowledge.widow is not None:
        from meldcalc.dealing.widow import burials

        full = hand + knowledge.widow
        return [Setup(t, bury=cards) for t in trumps for cards in burials(full, t, variant)]
    if judges_pass_back(variant, knowledge):
        from meldcalc.dealing.passing import pass_backs

        at_once = variant.passing.simultaneous or knowledge.received is None
        full = hand if at_once else hand + knowledge.received
        wanted = knowledge.asked_by(partner_seat(variant))
        return [
            Setup(t, ask=knowledge.ask, returns=cards)
            for t in trumps
            for cards in pass_backs(full, variant, t, wanted)
        ]
    if knowledge.simulates_pass(variant) and variant.passing.kind == "exchange":
        asks = [knowledge.ask] if knowledge.ask is not None else list(SUITS)
        return [Setup(t, ask=ask) for ask in asks for t in trumps]
    return [Setup(trump) for trump in trumps]


def judges_pass_back(variant: Variant, knowledge: TableKnowledge) -> bool:
    """Whether the bidder knows the cards it passes back from: its partner's are in, or
    both pass at once (from the hands as dealt, whatever it has received)."""
    if not knowledge.simulates_pass(variant):
        return False
    return knowledge.received is not None or variant.passing.simultaneous


@dataclass
class ReadyHands:
    """Every setup's deals ready for play, setup after setup: the seats' hands, the
    bidder's meld, the partner's meld, the points buried, the layouts tried."""

    setups: list[Setup]
    seats: list[np.ndarray]  # (size, players, 24) each; the same array where shared
    meld: list[np.ndarray]
    partner_meld: list[np.ndarray]
    buried: list[np.ndarray]
    tried: list[int]

    def planes(self, copies: int) -> tuple[np.ndarray, np.ndarray]:
        """The hands and the cards still to play of the whole batch, as planes."""

        def planes(seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            remaining = planes_from_counts(seats.sum(axis=1), copies)
            return planes_from_counts(seats, copies), remaining

        if all(seats is self.seats[0] for seats in self.seats):  # one deal, every setup
            hands, remaining = planes(self.seats[0])
            times = len(self.seats)
            return np.tile(hands, (1, times, 1)), np.tile(remaining, (1, times))
        parts = [planes(seats) for seats in self.seats]
        hands = np.concatenate([h for h, _ in parts], axis=1)
        return hands, np.concatenate([r for _, r in parts], axis=1)

    def samples(
        self, points: np.ndarray, taken: tuple[np.ndarray, np.ndarray] | None = None
    ) -> dict[Setup, Sample]:
        """Each setup's outcomes, from the bidding side's points of the whole batch (and
        the tricks and counters it took, where counted: `Game.side_taken`)."""
        size = len(self.meld[0])
        samples = {}
        for i, setup in enumerate(self.setups):
            rows = slice(i * size, (i + 1) * size)
            tricks = counters = None
            if taken is not None:
                tricks, counters = taken[0][rows], taken[1][rows] + (self.buried[i] > 0)
            samples[setup] = Sample(
                self.meld[i],
                self.partner_meld[i],
                points[rows] + self.buried[i],
                self.tried[i],
                tricks,
                counters,
            )
        return samples


def ready_hands(
    hand: Hand,
    variant: Variant,
    size: int,
    rng: np.random.Generator,
    setups: list[Setup],
    knowledge: TableKnowledge,
    dealt_for: list[Setup] | None = None,
) -> ReadyHands:
    """Deal ``size`` deals for each trump of ``dealt_for`` (by default ``setups``) and
    make them ready per setup of ``setups``: a process playing some of the setups deals
    what one playing them all deals, so each setup's deals are the same either way."""
    trumps = list(dict.fromkeys(setup.trump for setup in dealt_for or setups))
    if knowledge.shapes_deal:
        dealt = deal_consistent(hand, variant, knowledge, size, rng, trumps)
        counts, tried = dealt.counts, dealt.tried
    else:
        shared = deal_unseen(hand, variant, size, rng)
        counts, tried = dict.fromkeys(trumps, shared), dict.fromkeys(trumps, size)
    partners: dict[int, dict[Suit, np.ndarray]] = {}
    seats: dict[int, np.ndarray] = {}  # deals no setup changes, played as they were dealt
    ready = ReadyHands(setups, [], [], [], [], [])
    for setup in setups:
        dealt = counts[setup.trump]
        played, meld, buried, partner = _make_ready(dealt, variant, setup, knowledge)
        if partner is None:  # the partner's hand as dealt
            if id(dealt) not in partners:
                partners[id(dealt)] = _partner_melds(dealt, variant, trumps)
            partner = partners[id(dealt)][setup.trump]
        if played.base is dealt:  # a view of the deal: share one per deal
            played = seats.setdefault(id(dealt), played)
        ready.seats.append(played)
        ready.meld.append(meld)
        ready.partner_meld.append(partner)
        ready.buried.append(buried)
        ready.tried.append(tried[setup.trump])
    return ready


def _make_ready(
    counts: np.ndarray, variant: Variant, setup: Setup, knowledge: TableKnowledge
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """One setup's hands for play, the bidder's meld and buried points in each deal, and
    the partner's meld where the setup changed the partner's hand (else None)."""
    if setup.bury is not None:
        return (*_bury_seen(counts, variant, setup), None)
    if knowledge.simulates_pass(variant):
        from meldcalc.dealing.passing import after_pass, passes

        seats = counts[:, : variant.players]
        received, returns = knowledge.received, setup.returns
        wants = (knowledge.asked_by(0), knowledge.asked_by(partner_seat(variant)))
        chosen = passes(seats, variant, setup.trump, setup.ask, received, returns, wants)
        seats = after_pass(seats, *chosen)
        engine, zeros = engine_for(variant), np.zeros(len(counts), dtype=np.int64)
        meld = engine.totals(seats[:, 0])[setup.trump]
        return seats, meld, zeros, engine.totals(seats[:, partner_seat(variant)])[setup.trump]
    return (*take_widow(counts, variant, setup.trump), None)


def _bury_seen(
    counts: np.ndarray, variant: Variant, setup: Setup
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """With the widow seen: the bidder's hand is its cards and the widow, less the burial,
    in every deal; its meld (of all those cards) and the buried points are the same."""
    players, size = variant.players, len(counts)
    full = Hand((counts[0, 0] + counts[0, players]).tolist())
    seats = counts[:, :players].astype(np.int8)
    seats[:, 0] = np.subtract(full.counts, setup.bury.counts)
    meld = engine_for(variant).best(full, setup.trump).total
    buried = sum(variant.counters.get(card.rank, 0) for card in setup.bury.cards())
    return seats, np.full(size, meld, dtype=np.int64), np.full(size, buried, dtype=np.int64)


def melded_planes(variant: Variant, seats: list[np.ndarray], trumps: list[Suit]) -> np.ndarray:
    """What every seat lays on the table before play, as `Game` takes it: ``seats`` holds
    the (size, players, 24) hands of each block of deals, in the order they are played,
    ``trumps`` the trump of each block; hands shared by several blocks are scored once."""
    players, engine = seats[0].shape[1], engine_for(variant)
    distinct = list({id(hands): hands for hands in seats}.values())
    starts = np.cumsum([0] + [hands.shape[0] * players for hands in distinct])
    at = {id(hands): slice(start, end) for hands, start, end in zip(distinct, starts, starts[1:])}
    # one batch for every block: the engine solves each distinct pattern of a meld's cards
    # once, and the blocks of a widow's burials share every hand but the bidder's
    every = np.concatenate([hands.reshape(-1, NUM_CARDS) for hands in distinct])
    melded = engine.melded(every, list(dict.fromkeys(trumps)))
    shown = [melded[trump][at[id(hands)]] for hands, trump in zip(seats, trumps)]
    return planes_from_counts(
        np.concatenate(shown).reshape(-1, players, NUM_CARDS), variant.deck.copies
    )


def _partner_melds(
    counts: np.ndarray, variant: Variant, trumps: list[Suit]
) -> dict[Suit, np.ndarray]:
    """The partners' best meld (each partner's, added) in each deal under each trump; 0
    without partners."""
    melds = [engine_for(variant).totals(counts[:, seat]) for seat in partner_seats(variant)]
    zeros = np.zeros(len(counts), dtype=np.int64)
    return {trump: sum((meld[trump] for meld in melds), zeros) for trump in trumps}


def take_widow(
    counts: np.ndarray, variant: Variant, trump: Suit
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The seats' hands for play under ``trump`` (the bidder with the widow, less what it
    buries), the bidder's meld in each deal, and the points of the buried cards."""
    engine = engine_for(variant)
    size = counts.shape[0]
    if not variant.widow:
        meld = engine.best(Hand(counts[0, 0].tolist()), trump).total
        seats = counts[:, : variant.players]
        return seats, np.full(size, meld, dtype=np.int64), np.zeros(size, dtype=np.int64)
    seats = counts[:, : variant.players].copy()
    melds = np.zeros(size, dtype=np.int64)
    buried = np.zeros(size, dtype=np.int64)
    for deal in range(size):
        full = (counts[deal, 0] + counts[deal, variant.players]).tolist()
        result = engine.best(Hand(full), trump)
        melds[deal] = result.total
        for card in bury(full, trump, variant.widow, result, variant):
            full[card] -= 1
            buried[deal] += variant.counters.get(CARDS[card].rank, 0)
        seats[deal, 0] = full
    return seats, melds, buried


def bury(
    counts: list[int], trump: Suit, how_many: int, meld: MeldResult, variant: Variant
) -> list[int]:
    """The cards the bidder buries after taking the widow, by the rule of thumb.

    Counters (tens, then kings) outside trump and outside the meld go first: buried points
    count for the bidder and are safe from the opponents. Then the lowest plain cards, then
    plain aces; only when forced, trumps outside the meld, lowest first, then meld cards.
    The meld is counted per copy: of two K♥ and one marriage, one K♥ may go
    (`widow.burial_order`).
    """
    used = meld_copies(Hand(counts), meld)
    return [card for card, _ in burial_order(counts, trump, variant, used)[:how_many]]
