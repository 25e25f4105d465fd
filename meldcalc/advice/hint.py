"""A seat's view during play: the reference player's decision, from what the seat has seen.

At a real table a player sees one hand, the meld laid down and the cards played. `hint`
takes just that: the seat's hand as dealt, the cards played in order from the first lead,
who led, and the cards each seat melded. It checks the history as it goes
(`meldcalc.advice.history`: the seat's own cards against its hand and the trick rules;
another seat's against what it is known to hold, what its earlier cards showed it lacks
and the copies the deck has), replays it into
a `meldcalc.engines.simulate.Game`, so that what the play shows (voids, no higher card) is inferred
as in the simulation, and asks `meldcalc.engines.reference.Reference` for the value of each legal
card in layouts of the unseen cards that fit all of it, drawn in proportion to the chance
of the others' plays (and bids, where the auction is told) in each
(`meldcalc.engines.inference`), or uniformly (``infer`` off).

A value is the trick points the seat's side takes from the current trick on (its cards on
the table included), the mean over the layouts with its standard error; cards are also
compared with the best one on the same layouts (a paired difference, far less noisy).

One position a line, the hand then settings, as `meldcalc review` writes a deal::

    HAND | trump S | leader 0 | played AC 9C KC JC 10H | seat 1 | known 2:JD QS

Seats are numbered in playing order from 0, as everywhere; in ``known`` they may also be
named from the seat's place: ``left`` (the next to play), ``partner``, ``right``.

The bidder leads the first trick. Where each plays for himself it plays alone against the
rest: the engines seat that lone side in seat 0, so a position led from elsewhere is turned
to put the leader there and turned back. With a widow, the bidder gives the cards it
buried (``| buried CARDS``: out of play, known); another seat gives the widow as turned up
(``| widow CARDS``), if it was: the bidder's burial is then a hidden pile of the layouts
(`meldcalc.engines.reference.Hidden`), and a widow card the bidder has not played is taken
to be in its hand unless the play showed it holds none, or its hand has no room for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from meldcalc.advice.history import (
    History,
    Query,
    hint_table,
    known_cards,
)
from meldcalc.dealing.unseen import sample_layouts
from meldcalc.engines.inference import Told, Weighing
from meldcalc.engines.policies import DEFAULT as DEFAULT_POLICY
from meldcalc.engines.policies import policy_class
from meldcalc.engines.reference import EXACT_FROM, Hidden, Reference, seen_by
from meldcalc.engines.simulate import Game, Table
from meldcalc.engines.solve import counter_of, rules_of, seat_sides, solver_available
from meldcalc.errors import HandError, KnowledgeError, UnsupportedError
from meldcalc.rules.bits import BIT_OF, planes_from_counts
from meldcalc.rules.cards import (
    CARD_NAMES,
    CARDS,
    NUM_CARDS,
    Hand,
    Suit,
)
from meldcalc.rules.variant import Variant

#: Layouts drawn by default. In single deck 1,000 take 0.2-0.3 s on a whole deal (the
#: median of ten seeded deals, bench/hint.py: each of 12 cards played out in every layout)
#: and give standard errors under a point, about half a point on the gap between two
#: cards; at 6 tricks left, where values become exact, about 1 s (up to 4 s), then less.
LAYOUTS = 1000
MAX_LAYOUTS = 100_000


# --- the answer -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CardValue:
    """A legal card: the points its side takes from here after it (mean over the layouts)
    and their standard error; how far it is behind the best card on the same layouts."""

    card: str
    points: float
    se: float
    behind: float
    behind_se: float


@dataclass(frozen=True)
class Hint:
    """The decision of ``seat``: its cards now, the trick so far, what the table has shown
    (melded cards still held, cards each seat is known to lack) and every legal card's
    value, best first."""

    seat: int
    trump: Suit
    held: Hand
    trick_number: int
    on_table: tuple[tuple[int, str], ...]
    points_left: int
    tricks_left: int
    layouts: int
    seed: int
    exact: bool
    exact_from: int
    shown: tuple[tuple[int, Hand], ...]
    lacks: tuple[tuple[int, tuple[int, ...]], ...]
    cards: tuple[CardValue, ...]
    #: why no value is exact where one would be (the solver not built), if so
    not_exact: str | None = None
    #: who led trick 1, the bidder: where each plays for himself, its side is itself alone
    bidder: int = 0
    #: with a widow: the cards the seat buried (it bid), or the widow as turned up
    buried: Hand | None = None
    widow: Hand | None = None
    #: the fast policy each layout was played out by before its exact part, if any
    policy: str = DEFAULT_POLICY
    #: how the layouts were weighed by the others' plays (`meldcalc.engines.inference`),
    #: or None where they were drawn uniformly (asked so, or nothing played to read)
    inference: Weighing | None = None
    #: the auction read with the plays, if told: (seat, bid or None for a pass)
    auction: tuple[tuple[int, int | None], ...] = ()

    @property
    def best(self) -> CardValue:
        return self.cards[0]

    @property
    def method(self) -> str:
        return "exact" if self.exact else "roll-out"


def side_seats(variant: Variant, seat: int, bidder: int = 0) -> list[int]:
    sides = seat_sides(variant, bidder)
    return [other for other, side in enumerate(sides) if side == sides[seat]]


# --- the decision ---------------------------------------------------------------------------


def hint(
    query: Query,
    variant: Variant,
    layouts: int = LAYOUTS,
    seed: int = 0,
    policy: str = DEFAULT_POLICY,
    infer: bool = True,
) -> Hint:
    """The reference player's values of each legal card of the seat to play, over
    ``layouts`` layouts of the unseen cards that fit what it has seen (seeded), each
    played out by ``policy`` (`meldcalc.engines.policies`) up to its exact part; with
    ``infer``, the layouts drawn in proportion to the chance of the others' plays in each
    (`meldcalc.engines.inference`)."""
    table, cards, seat = hint_table(query, variant)
    if query.leader and not variant.paired:
        return _rotated_hint(query, variant, seat, layouts, seed, policy, infer)
    shown = _shown(table)  # the meld: the widow's cards the bidder is taken to hold join it
    hidden = _hidden_pile(table) if table.hidden else None
    dealt = _a_deal(table)
    game = replayed_game(table, cards, query, dealt)
    if hidden is not None:
        hidden = replace(hidden, pool=_left_over(table, dealt))
    assert int(game.seat[0]) == seat, "the game and the history disagree on the seat to play"
    try:
        seen = seen_by(game, 0) if hidden is None else hidden.added_to(seen_by(game, 0))
        sample_layouts(seen, 1, np.random.default_rng(0))
    except ValueError:
        raise KnowledgeError(
            "no layout of the unseen cards fits the history: what the play showed the"
            " seats lack leaves too few places for the cards still out"
        ) from None
    exact_from = EXACT_FROM if _solvable(variant) else 0
    not_exact = None
    if not exact_from and _plays_exactly(variant):
        not_exact = (
            "the exact solver is not built (pip install . builds it with a C compiler and"
            " the Python headers), so every value is a play-out, not exact from"
            f" {EXACT_FROM} tricks left: the advice may differ from a built install's"
        )
    told = Told(variant, query.auction) if query.auction else None
    player = Reference(
        variant, layouts, exact_from, seed, policy_class(policy), hidden, infer, told
    )
    team = seat_sides(variant)[seat]
    [(options, values)] = player.layout_values(game, np.array([0]), team)
    [weighing] = player.weighings or [None]
    points_left = _points_left(variant, cards) - sum(
        count * counter_of(variant, card) for card, count in enumerate(table.out)
    )
    return Hint(
        seat=seat,
        trump=query.trump,
        held=Hand(table.mine),
        trick_number=len(cards) // variant.players + 1,
        on_table=_on_table(cards, seat, variant.players),
        points_left=points_left,
        tricks_left=(game.cards_left + game.position) // variant.players,
        layouts=layouts,
        seed=seed,
        exact=player.is_exact(game),
        exact_from=exact_from,
        shown=shown,
        lacks=_lacks(table),
        cards=_ranked(options, values, weighing),
        not_exact=not_exact,
        buried=query.buried,
        widow=query.widow,
        policy=policy,
        inference=weighing,
        auction=query.auction,
    )


def _hidden_pile(table: History) -> Hidden:
    """Another seat's burial, which the seat cannot see: its size, and the widow's cards
    known to be in it. The widow as turned up (if seen) went to the bidder: a copy of it
    the bidder has not played is taken to be in its hand, unless the play showed it holds
    none (then it was buried) or its hand has no room left for it (then it was too). The
    burial's other cards are any of those unseen. The copies taken to be in the bidder's
    hand join ``table.melded`` (cards known held); the pile's pool is set with the deal
    (`_left_over`)."""
    bidder, size = table.bidder, table.variant.hand_size
    melded, played = table.melded[bidder], table.played[bidder]
    held = [max(m, p) for m, p in zip(melded, played)]
    buried = np.zeros(NUM_CARDS, dtype=np.int64)
    for card in range(NUM_CARDS):
        rest = max(table.widow[card] - played[card], 0)
        if card in table.lacks[bidder]:
            buried[card] = rest
            continue
        extra = max(played[card] + rest, melded[card]) - held[card]
        taken = min(extra, size - sum(held))
        held[card] += taken
        buried[card] = extra - taken
    table.melded[bidder] = held
    if buried.sum() > table.hidden:
        raise KnowledgeError(
            f"the widow as turned up does not fit the play: seat {bidder} would have buried"
            f" {int(buried.sum())} of its cards, and buries {table.hidden}"
        )
    return Hidden(np.zeros(NUM_CARDS, dtype=np.int64), table.hidden, buried)


def _left_over(table: History, dealt: list[list[int]]) -> np.ndarray:
    """The cards of the deck in no hand of ``dealt`` and not known out of play: those a
    hidden pile is drawn from, with the other hands."""
    copies = np.array([table.variant.deck.copies_of(card) for card in CARDS], dtype=np.int64)
    return copies - np.array(dealt, dtype=np.int64).sum(axis=0) - np.array(table.out)


def _rotated_hint(
    query: Query, variant: Variant, seat: int, layouts: int, seed: int, policy: str, infer: bool
) -> Hint:
    """Where each plays for himself, the bidder (who led trick 1) plays alone against the
    rest: the engines seat the bidder in seat 0, so the position is turned to put it there,
    hinted, and its seats turned back."""
    players, shift = variant.players, query.leader
    known = []
    for text in query.known:
        other, cards = known_cards(text, variant, seat)
        known.append(f"{(other - shift) % players}:{cards.notation()}")
    auction = tuple(((other - shift) % players, bid) for other, bid in query.auction)
    turned = replace(
        query, leader=0, seat=(seat - shift) % players, known=tuple(known), auction=auction
    )
    found = hint(turned, variant, layouts, seed, policy, infer)

    def back(other: int) -> int:
        return (other + shift) % players

    return replace(
        found,
        bidder=shift,
        seat=back(found.seat),
        on_table=tuple((back(s), card) for s, card in found.on_table),
        shown=tuple((back(s), cards) for s, cards in found.shown),
        lacks=tuple((back(s), cards) for s, cards in found.lacks),
        auction=tuple((back(s), bid) for s, bid in found.auction),
        inference=found.inference and found.inference.turned(back),
    )


def _shown(table: History) -> tuple[tuple[int, Hand], ...]:
    """The cards each other seat melded and still holds, by seat."""
    shown = [(other, Hand(table.still_shown(other))) for other in table.others]
    return tuple((other, cards) for other, cards in shown if len(cards))


def _lacks(table: History) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The cards of the deck each other seat is known to lack, by seat."""
    deck = table.variant.deck
    lacks = [
        (other, tuple(card for card in sorted(table.lacks[other]) if deck.copies_of(CARDS[card])))
        for other in table.others
    ]
    return tuple((other, cards) for other, cards in lacks if cards)


def replayed_game(
    table: History, cards: list[int], query: Query, dealt: list[list[int]] | None = None
) -> Game:
    """A one-deal `Game` of a deal that fits the history (the seat's hand, each other
    seat's melded and played cards, the rest anywhere: the reference reads of the others'
    hands only what the table shows; ``dealt``, if made already), with the history played
    into it."""
    variant = table.variant
    counts = np.array(_a_deal(table) if dealt is None else dealt, dtype=np.int64)[None]
    shown = planes_from_counts(np.array(table.melded, dtype=np.int64)[None], variant.deck.copies)
    rules = Table.of(variant, query.trump)
    game = Game.from_counts(rules, counts, variant.deck.copies, leader=query.leader, shown=shown)
    game.keep_past()
    for card in cards:
        game.advance(np.array([BIT_OF[card]], dtype=np.int32))
    return game


def _a_deal(table: History) -> list[list[int]]:
    """Every seat's hand as dealt: the seat's own; each other seat's melded and played
    cards, filled up from the cards left over in any way."""
    variant, size = table.variant, table.variant.hand_size
    hands = [
        [table.need(seat, card) for card in range(NUM_CARDS)] for seat in range(variant.players)
    ]
    hands[table.seat] = list(table.dealt)
    pool = [
        variant.deck.copies_of(card) - sum(hand[i] for hand in hands) - table.out[i]
        for i, card in enumerate(CARDS)
    ]
    for other in table.others:
        if sum(hands[other]) > size:
            raise HandError(
                f"seat {other} has melded and played {sum(hands[other])} different cards: a"
                f" {variant.name} hand has {size}"
            )
        for card in range(NUM_CARDS):
            given = min(pool[card], size - sum(hands[other]))
            hands[other][card] += given
            pool[card] -= given
    return hands


def _solvable(variant: Variant) -> bool:
    return _plays_exactly(variant) and solver_available()


def _plays_exactly(variant: Variant) -> bool:
    """Whether the solver takes the variant's rules (it may still not be built)."""
    try:
        rules_of(variant)
    except UnsupportedError:
        return False
    return True


def _points_left(variant: Variant, cards: list[int]) -> int:
    """Trick points still to take: the deal's less those of the tricks completed."""
    done = len(cards) - len(cards) % variant.players
    return variant.trick_total - sum(counter_of(variant, card) for card in cards[:done])


def _on_table(cards: list[int], seat: int, players: int) -> tuple[tuple[int, str], ...]:
    trick = cards[len(cards) - len(cards) % players :]
    first = (seat - len(trick)) % players
    return tuple(((first + i) % players, CARD_NAMES[card]) for i, card in enumerate(trick))


def _ranked(
    options: np.ndarray, values: np.ndarray, weighing: Weighing | None = None
) -> tuple[CardValue, ...]:
    """Each card's mean and standard error, and its distance behind the best on the same
    layouts; best first, and of equal means the one the reference plays first (the last
    of its options: the lowest rank). Layouts drawn by their weights repeat some: their
    standard errors are those of the effective sample, not of the layouts valued."""
    means = values.mean(axis=1)
    order = sorted(range(len(options)), key=lambda i: (-means[i], -i))
    best = values[order[0]]
    widen = 1.0
    if weighing is not None and weighing.effective:
        widen = float(np.sqrt(values.shape[1] / min(values.shape[1], weighing.effective)))
    return tuple(
        CardValue(
            CARD_NAMES[options[i]],
            float(means[i]),
            _se(values[i]) * widen,
            float(means[order[0]] - means[i]),
            _se(best - values[i]) * widen,
        )
        for i in order
    )


def _se(sample: np.ndarray) -> float:
    return float(np.std(sample, ddof=1) / np.sqrt(len(sample))) if len(sample) > 1 else 0.0
