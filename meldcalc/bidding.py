"""From a hand to a bid: sample the unseen cards, play them out, count the odds.

For the bidder's hand (seat 0) the unseen cards are dealt at random to the other seats (and
the widow, which the bidder takes, burying as many cards as it holds). Every sampled deal
is played out under each trump by the policy of `simulate`, so the trumps are compared on
the same deals. A deal's total for the bidding side is its own meld, the partner's meld
(partnership games) and its trick points; P(make) of a bid is the share of deals whose
total reaches it.

Deals are drawn in fixed chunks, each from its own seed derived from (seed, chunk number),
so the numbers depend on the seed alone, never on how many processes (`--jobs`) ran them.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from meldcalc.cards import CARDS, NUM_CARDS, SUITS, Hand, Rank, Suit
from meldcalc.errors import MeldcalcError, UnsupportedError
from meldcalc.meld import MeldResult, engine_for
from meldcalc.simulate import Game, Table, planes_from_counts
from meldcalc.variant import Bidding, Variant

CHUNK = 2000
#: The band of bid levels shown: from the last made this often ...
NEARLY_CERTAIN = 0.95
#: ... to the first made less often than this.
UNLIKELY = 0.05
#: A band wider than this (only absurd house tables make one) is shown every k-th level.
MAX_LEVELS = 200


@dataclass(frozen=True)
class Sample:
    """Per-deal outcomes under one trump: own meld, partner meld, side trick points."""

    meld: np.ndarray
    partner_meld: np.ndarray
    tricks: np.ndarray


@dataclass
class TrumpOdds:
    trump: Suit
    biddable: bool
    meld: float
    partner_meld: float | None  # None without a partner
    tricks: np.ndarray
    totals: np.ndarray
    make: list[tuple[int, float]] = field(default_factory=list)
    max_bid: int | None = None
    #: why this trump cannot be named, when it cannot
    reason: str | None = None

    @property
    def expected_total(self) -> float:
        return float(self.totals.mean())

    def percentiles(self, *qs: float) -> list[float]:
        """Percentiles of the trick points, interpolated linearly as numpy's default does
        (``np.percentile`` itself would import ``numpy.ma``, a noticeable start-up cost)."""
        ordered = np.sort(self.tricks)
        found = []
        for q in qs:
            position = (len(ordered) - 1) * q / 100
            low, high = int(np.floor(position)), int(np.ceil(position))
            fraction = position - low
            found.append(float(ordered[low] + (ordered[high] - ordered[low]) * fraction))
        return found


@dataclass
class BidReport:
    hand: Hand
    variant: Variant
    deals: int
    seed: int
    confidence: float
    results: list[TrumpOdds]  # best first
    warnings: list[str]

    @property
    def best(self) -> TrumpOdds:
        return self.results[0]

    @property
    def suggested_bid(self) -> int | None:
        return self.best.max_bid

    def advice(self) -> list[str]:
        """What to do, in sentences: the highest bid to go to and its trump, or why to
        pass (and, where the dealer is forced to bid, what to do then)."""
        best, confidence = self.best, f"{self.confidence:.0%}"
        trump = f"{best.trump.symbol} ({best.trump.letter})"
        bidding = self.variant.bidding
        if best.max_bid is not None:
            made = dict(best.make).get(best.max_bid)
            odds = f" ({made:.0%})" if made is not None else ""
            return [
                f"Bid up to {best.max_bid} with {trump} as trump: the highest bid made at"
                f" least {confidence} of the time{odds}. Open lower if the auction allows."
            ]
        if not best.biddable:
            lines = [f"Pass: {best.reason} or any other suit, so you cannot name trump."]
        else:
            opening = dict(best.make).get(bidding.opening, 0.0)
            lines = [
                f"Pass: even the opening bid of {bidding.opening} is made only {opening:.0%}"
                f" of the time (with {trump} as trump); a bid needs {confidence}."
            ]
        if bidding.dealer_forced:
            if best.biddable:
                opening = dict(best.make).get(bidding.opening, 0.0)
                forced = f"name {trump} (it is made {opening:.0%} of the time)"
            else:
                forced = "with no marriage to name trump, you lose it"
            lines.append(
                f"If you are the dealer and the others all pass, you must bid"
                f" {bidding.opening}: {forced}."
            )
        return lines


def check_biddable_variant(variant: Variant) -> None:
    if variant.bidding is None:
        raise UnsupportedError(
            f"{variant.name} has no auction (trump is turned up and cards are drawn from a"
            " stock), so there is no bid to estimate; 'meldcalc meld' counts its meld"
        )


def estimate(
    hand: Hand,
    variant: Variant,
    deals: int = 2000,
    seed: int | None = None,
    trumps: list[Suit] | None = None,
    confidence: float = 0.7,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    warnings: list[str] | None = None,
) -> BidReport:
    """Simulate ``deals`` deals for ``hand`` under each trump; the odds of every bid."""
    check_biddable_variant(variant)
    if not 0 < confidence < 1:
        raise MeldcalcError(f"confidence {confidence}: expected a probability between 0 and 1")
    if deals < 1:
        raise MeldcalcError(f"deals {deals}: expected at least 1")
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    trumps = trumps or list(SUITS)
    samples = _run_chunks(hand, variant, deals, seed, trumps, jobs, progress)
    results = [_odds(variant, hand, trump, samples[trump], confidence) for trump in trumps]
    results.sort(
        key=lambda r: (r.max_bid is not None, r.max_bid or 0, r.biddable, r.expected_total),
        reverse=True,
    )
    return BidReport(hand, variant, deals, seed, confidence, results, warnings or [])


def _run_chunks(
    hand: Hand,
    variant: Variant,
    deals: int,
    seed: int,
    trumps: list[Suit],
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> dict[Suit, Sample]:
    sizes = [min(CHUNK, deals - start) for start in range(0, deals, CHUNK)]
    tasks = [(hand, variant, size, seed, number, trumps) for number, size in enumerate(sizes)]
    with worker_map(jobs, len(tasks)) as run:
        parts, done = [], 0
        for part in run(_chunk_task, tasks):  # in chunk order, whatever finishes first
            parts.append(part)
            done += len(part[trumps[0]].tricks)
            if progress:
                progress(done, deals)

    def joined(trump: Suit, name: str) -> np.ndarray:
        return np.concatenate([getattr(part[trump], name) for part in parts])

    return {
        t: Sample(joined(t, "meld"), joined(t, "partner_meld"), joined(t, "tricks")) for t in trumps
    }


@contextlib.contextmanager
def worker_map(jobs: int, tasks: int) -> Iterator[Callable]:
    """``map``, or an ordered map over worker processes when more than one job is useful.

    Never more workers than CPUs or tasks. The workers end with the run however it ends:
    the pool is terminated on the way out (an error, Ctrl-C, SIGTERM turned into
    SystemExit), and on Linux each worker is also told to die with its parent, should the
    parent be killed outright."""
    workers = worker_count(jobs, tasks)
    if workers <= 1:
        yield map
        return
    import multiprocessing

    with multiprocessing.Pool(workers, initializer=_die_with_parent) as pool:
        yield pool.imap


def worker_count(jobs: int, tasks: int) -> int:
    """Processes worth starting: never more than asked, than tasks, or than CPUs."""
    return max(1, min(jobs, tasks, os.cpu_count() or 1))


def _die_with_parent() -> None:
    """In a worker: ask Linux for SIGTERM when the parent process dies (prctl
    PR_SET_PDEATHSIG); elsewhere nothing, the parent's clean-up has to do."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's SystemExit: a worker
    # stopped mid-task by an exception could die holding the pool's locks
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def _chunk_task(task: tuple) -> dict[Suit, Sample]:
    hand, variant, size, seed, number, trumps = task
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(number,)))
    return simulate_chunk(hand, variant, size, rng, trumps)


def deal_unseen(hand: Hand, variant: Variant, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, players + 1, 24) counts: seat 0 the bidder's hand, then the others, then the
    widow (empty when the variant has none)."""
    from meldcalc.deal import deal_counts

    return deal_counts(variant, size, rng, bidder=hand)


def simulate_chunk(
    hand: Hand, variant: Variant, size: int, rng: np.random.Generator, trumps: list[Suit]
) -> dict[Suit, Sample]:
    """Deal ``size`` deals once and play them out under each trump, all in one batch."""
    counts = deal_unseen(hand, variant, size, rng)
    prepared = [_take_widow(counts, variant, trump) for trump in trumps]
    copies = variant.deck.copies

    def planes(seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return planes_from_counts(seats, copies), planes_from_counts(seats.sum(axis=1), copies)

    if variant.widow:  # the bidder's hand differs by trump (what it buries)
        parts = [planes(seats) for seats, _, _ in prepared]
        hands = np.concatenate([h for h, _ in parts], axis=1)
        remaining = np.concatenate([r for _, r in parts], axis=1)
    else:  # the same deals under every trump
        hands, remaining = planes(prepared[0][0])
        hands, remaining = np.tile(hands, (1, len(trumps), 1)), np.tile(remaining, (1, len(trumps)))
    trump_of_deal = np.repeat([trump.index for trump in trumps], size)
    table = Table.of(variant, trump_of_deal)
    shown = melded_planes(variant, [seats for seats, _, _ in prepared], trumps)
    points = Game(table, hands, remaining, shown=shown).play().team_points[:, 0]
    partners = _partner_melds(counts, variant, trumps)
    return {
        trump: Sample(meld, partners[trump], points[i * size : (i + 1) * size] + buried)
        for i, (trump, (_, meld, buried)) in enumerate(zip(trumps, prepared))
    }


def melded_planes(variant: Variant, seats: list[np.ndarray], trumps: list[Suit]) -> np.ndarray:
    """What every seat lays on the table before play, as `Game` takes it: ``seats`` holds
    each trump's (size, players, 24) hands, in the order the deals are played (without a
    widow, the same hands under every trump)."""
    players = seats[0].shape[1]
    engine = engine_for(variant)
    if variant.widow:
        shown = [engine.melded(h.reshape(-1, NUM_CARDS), [t])[t] for h, t in zip(seats, trumps)]
    else:
        melded = engine.melded(seats[0].reshape(-1, NUM_CARDS), trumps)
        shown = [melded[trump] for trump in trumps]
    hands = np.concatenate(shown).reshape(-1, players, NUM_CARDS)
    return planes_from_counts(hands, variant.deck.copies)


def _partner_melds(
    counts: np.ndarray, variant: Variant, trumps: list[Suit]
) -> dict[Suit, np.ndarray]:
    """The partner's (seat 2's) best meld in each deal under each trump; 0 without partners."""
    if not _has_partner(variant):
        return {trump: np.zeros(len(counts), dtype=np.int64) for trump in trumps}
    every_trump = engine_for(variant).totals(counts[:, 2])
    return {trump: every_trump[trump] for trump in trumps}


def _has_partner(variant: Variant) -> bool:
    return variant.partnerships and variant.players == 4


def _take_widow(
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
    """The cards the bidder buries after taking the widow.

    Counters (tens, then kings) outside trump and outside the meld go first: buried points
    count for the bidder and are safe from the opponents. Then the lowest plain cards, then
    plain aces, then plain meld cards, and trumps last, lowest first.
    """
    in_meld = {card.index for found in meld.melds for card in found.cards}

    def key(card: int) -> tuple[int, int]:
        rank, suit = CARDS[card].rank, CARDS[card].suit
        if suit is trump:
            tier = 5
        elif card in in_meld:
            tier = 4
        elif rank is Rank.ACE:
            tier = 3
        elif variant.counters.get(rank, 0):
            tier = 0 if rank is Rank.TEN else 1
        else:
            tier = 2
        return tier, -rank.index

    physical = [card for card in range(NUM_CARDS) for _ in range(counts[card])]
    return sorted(physical, key=key)[:how_many]


def _odds(
    variant: Variant, hand: Hand, trump: Suit, sample: Sample, confidence: float
) -> TrumpOdds:
    side_meld = sample.meld + sample.partner_meld
    if variant.meld_minimum:
        side_meld = np.where(side_meld >= variant.meld_minimum, side_meld, 0)
    totals = side_meld + sample.tricks
    biddable = may_name_trump(hand, variant, trump)
    odds = TrumpOdds(
        trump,
        biddable,
        float(sample.meld.mean()),
        float(sample.partner_meld.mean()) if _has_partner(variant) else None,
        sample.tricks,
        totals,
    )
    if biddable:
        odds.make, odds.max_bid = make_odds(variant.bidding, totals, confidence)
    else:
        odds.reason = f"no marriage (K and Q) in {trump.symbol}"
    return odds


def make_odds(
    bidding: Bidding, totals: np.ndarray, confidence: float
) -> tuple[list[tuple[int, float]], int | None]:
    """P(make) of the bid levels that matter, and the highest bid made with ``confidence``.

    The levels listed run from the last one made at least `NEARLY_CERTAIN` of the time (or
    the highest safe bid, if lower; the opening bid at least) to the first one made less
    than `UNLIKELY` of the time: the band where the decision lies. Each P(make) is a count
    in the sorted totals, so even a wide band costs little; it is thinned to at most
    `MAX_LEVELS` rows.
    """
    ordered = np.sort(totals)

    def made(bid: int) -> float:
        return float(len(ordered) - np.searchsorted(ordered, bid, side="left")) / len(ordered)

    def reached(probability: float) -> int:
        """The highest total reached with at least this probability."""
        return int(ordered[len(ordered) - max(1, math.ceil(probability * len(ordered) - 1e-9))])

    max_bid = bidding.last_at_most(reached(confidence))
    start = bidding.last_at_most(min(reached(NEARLY_CERTAIN), reached(confidence)))
    bid, make = bidding.first_at_least(start or 0), []
    while True:
        make.append((bid, made(bid)))
        if make[-1][1] < UNLIKELY:
            break
        bid = bidding.next_bid(bid)
    stride = math.ceil(len(make) / MAX_LEVELS)
    return make[::stride] if stride > 1 else make, max_bid


def may_name_trump(hand: Hand, variant: Variant, trump: Suit) -> bool:
    """Double deck: the bidder must hold a marriage (K and Q) in the suit named trump."""
    if not variant.bidding.marriage_in_trump:
        return True
    from meldcalc.cards import Card

    return hand.count(Card(Rank.KING, trump)) > 0 and hand.count(Card(Rank.QUEEN, trump)) > 0


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[tuple[int, str], ...]  # (seat, card)
    winner: int
    points: int


@dataclass(frozen=True)
class PlayedDeal:
    """One simulated deal, every hand shown and every trick."""

    trump: Suit
    hands: tuple[Hand, ...]  # as dealt, seat 0 the given hand (after the widow, if any)
    widow: Hand
    buried: Hand
    tricks: tuple[Trick, ...]
    points: tuple[int, int]  # the bidding side, the others


def play_one(hand: Hand, variant: Variant, trump: Suit, seed: int) -> PlayedDeal:
    """Deal the unseen cards at random and play the deal out with the policy, recorded."""
    check_biddable_variant(variant)
    counts = deal_unseen(hand, variant, 1, np.random.default_rng(seed))
    seats, _, _ = _take_widow(counts, variant, trump)
    buried = Hand((counts[0, 0] + counts[0, variant.players] - seats[0, 0]).tolist())
    return _played(seats[0], variant, trump, Hand(counts[0, variant.players].tolist()), buried)


def play_deal(hands: tuple[Hand, ...], variant: Variant, trump: Suit) -> PlayedDeal:
    """A given deal (every seat's hand, seat 0 leading) played out with the policy."""
    if len(hands) != variant.players or len({len(hand) for hand in hands}) != 1:
        raise MeldcalcError(
            f"expected {variant.players} hands of equal size for {variant.name}, got"
            f" {', '.join(str(len(hand)) for hand in hands)} cards"
        )
    whole = sum(hands, Hand([0] * NUM_CARDS))
    variant.check_hand(whole)
    seats = np.array([hand.counts for hand in hands], dtype=np.int64)
    empty = Hand([0] * NUM_CARDS)
    return _played(seats, variant, trump, empty, empty)


def _played(
    seats: np.ndarray, variant: Variant, trump: Suit, widow: Hand, buried: Hand
) -> PlayedDeal:
    """Play one deal ((players, 24) counts) with the policy and record it trick by trick."""
    from meldcalc.play import winning_position

    table = Table.of(variant, trump)
    shown = melded_planes(variant, [seats[None]], [trump])
    out = Game.from_counts(table, seats[None], variant.deck.copies, shown=shown).play(record=True)
    cards, order = out.cards[0].tolist(), out.seats[0].tolist()
    tricks, players = [], variant.players
    for start in range(0, len(cards), players):
        trick = cards[start : start + players]
        who = order[start : start + players]
        points = sum(variant.counters.get(CARDS[c].rank, 0) for c in trick)
        if start + players == len(cards):
            points += variant.last_trick
        winner = who[winning_position(trick, trump)]
        tricks.append(
            Trick(who[0], tuple(zip(who, (str(CARDS[c]) for c in trick))), winner, points)
        )
    buried_points = sum(variant.counters.get(card.rank, 0) for card in buried.cards())
    return PlayedDeal(
        trump,
        tuple(Hand(seats[seat].tolist()) for seat in range(players)),
        widow,
        buried,
        tuple(tricks),
        (int(out.team_points[0, 0]) + buried_points, int(out.team_points[0, 1])),
    )
