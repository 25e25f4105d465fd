"""Rule variants: the scoring tables and game facts of a variant, as the code uses them.

Every number a variant uses lives in its YAML file; `meldcalc.rules.loading` reads, merges
(``extends``), checks and turns a file into the `Variant` modelled here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from meldcalc.errors import HandError
from meldcalc.rules.cards import CARDS, SUITS, Card, Hand, Rank, Suit, cards_text


@dataclass(frozen=True)
class MeldRule:
    """One meld of a scoring table, its cards given relative to trump where they depend on it.

    ``kind`` says how ``ranks``/``cards`` become cards: ``trump`` (ranks of the trump suit),
    ``non_trump`` (ranks of each other suit, a meld per suit), ``cards`` (fixed cards) or
    ``around`` (the ranks in every suit).
    """

    name: str
    classes: tuple[str, ...]
    kind: str
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...]
    points: tuple[int, ...]
    checks: tuple[int, ...] = ()
    reuses: tuple[str, ...] = ()
    reuse_from: int = 0
    #: When reusing, at least this many copies must be made of cards no reused meld holds:
    #: Toby Thomas counts the runs' K-Q as marriages only beside an *extra* royal marriage.
    reuse_beside: int = 1

    def value(self, copies: int) -> int:
        """Points for ``copies`` copies: by the table, past its end the last entry plus the rest."""
        return multiplicity_value(self.points, copies)

    def check_value(self, copies: int) -> int:
        return multiplicity_value(self.checks, copies) if self.checks else 0

    def instances(self, trump: Suit) -> list[tuple[int, ...]]:
        """The card indices of each concrete meld this rule makes under ``trump``."""
        if self.kind == "trump":
            return [tuple(Card(rank, trump).index for rank in self.ranks)]
        if self.kind == "non_trump":
            others = [suit for suit in SUITS if suit is not trump]
            return [tuple(Card(rank, suit).index for rank in self.ranks) for suit in others]
        if self.kind == "around":
            return [tuple(Card(rank, suit).index for rank in self.ranks for suit in SUITS)]
        return [tuple(card.index for card in self.cards)]


def checks_text(count: int) -> str:
    """``'1 check'``, ``'2 checks'``: side scores as a player counts them."""
    return f"{count} check{'' if count == 1 else 's'}"


def multiplicity_value(table: tuple[int, ...], copies: int) -> int:
    """k copies past the table's end score as its last entry plus the value of the rest."""
    total = 0
    while copies > len(table):
        total += table[-1]
        copies -= len(table)
    return total + (table[copies - 1] if copies else 0)


@dataclass(frozen=True)
class Deck:
    ranks: tuple[Rank, ...]
    copies: int

    @property
    def size(self) -> int:
        return len(SUITS) * len(self.ranks) * self.copies

    def copies_of(self, card: Card) -> int:
        return self.copies if card.rank in self.ranks else 0

    def cards(self) -> list[Card]:
        """Every card of the deck, copies repeated."""
        return [card for card in CARDS for _ in range(self.copies_of(card))]


@dataclass(frozen=True)
class Increment:
    start: int
    by: int


@dataclass(frozen=True)
class Bidding:
    opening: int
    increments: tuple[Increment, ...]
    dealer_forced: bool = False
    marriage_in_trump: bool = False
    game: int | None = None
    concede: bool = True
    rounds: int | None = None
    both_reach: str = "higher"
    #: Advise throwing the hand in when the bidding side's meld is more than this below the
    #: bid (seed 001, double deck: 50, all the trick points); None: no such advice.
    throw_in_advice: int | None = None
    #: the bidding system the table plays (`rules.systems`): a shipped name or a file's path
    system: str | None = None

    def levels(self, up_to: int, start: int = 0) -> list[int]:
        """Every legal bid from ``start`` (the opening bid, if higher) to ``up_to``."""
        bids, bid = [], self.first_at_least(start)
        while bid <= up_to:
            bids.append(bid)
            bid = self.next_bid(bid)
        return bids

    def first_at_least(self, target: int) -> int:
        """The lowest legal bid of at least ``target``, in a few steps however far it is:
        inside an increment's range the legal bids are the multiples of its step."""
        bid = self.opening
        while bid < target:
            boundary = min((inc.start for inc in self.increments if inc.start > bid), default=None)
            goal = target if boundary is None else min(target, boundary)
            by = self.step_at(bid)
            bid = max(bid, (goal - 1) // by * by)  # the last multiple short of the goal
            bid = self.next_bid(bid)
        return bid

    def last_at_most(self, value: int) -> int | None:
        """The highest legal bid of at most ``value``; None below the opening bid. Legal
        bids are never further apart than the widest step, so it is found near ``value``."""
        if value < self.opening:
            return None
        widest = max(inc.by for inc in self.increments)
        bid = self.first_at_least(value - widest + 1)
        while (following := self.next_bid(bid)) <= value:
            bid = following
        return bid

    def step_at(self, bid: int) -> int:
        """The step in force at ``bid`` (below the first ``from``, the first step)."""
        step = next((inc for inc in reversed(self.increments) if inc.start <= bid), None)
        return (step or self.increments[0]).by

    def next_bid(self, bid: int) -> int:
        """The lowest legal bid above ``bid``: the next multiple of the step in force there
        (below the first ``from``, the first step)."""
        by = self.step_at(bid)
        return (bid // by + 1) * by


@dataclass(frozen=True)
class ThrownIn:
    """What the others score when the bidding side throws the hand in before play."""

    meld: bool = True
    meld_minimum: int = 0
    cards: int = 0


@dataclass(frozen=True)
class HouseRules:
    """The scoring switches of ``house:`` (meld_minimum lives on `Variant` itself).

    ``save_meld``: None, ``"trick"``, ``"counter"`` or a number of trick points a side must
    take to score its meld. The rest of seed 001's "minimum 20 to score":
    ``forfeit_under_minimum``: a bidding side melding under the meld minimum loses its bid
    without play (the others score as when a hand is thrown in); ``trick_minimum``: a side
    taking fewer trick points scores nothing for the hand, and a bidding side so is set."""

    save_meld: str | int | None = None
    set_penalty: int = 1
    thrown_in: ThrownIn = ThrownIn()
    forfeit_under_minimum: bool = False
    trick_minimum: int = 0


@dataclass(frozen=True)
class Passing:
    """Cards passed between the bidder and the partner before play (`meldcalc.dealing.passing`).

    ``kind``: ``exchange`` (the bidder names a suit before trump and the partner sends
    cards of it, seed 001's Toby Thomas game) or ``plain`` (after trump is named, the
    partner sends any cards); the bidder then returns as many. ``simultaneous`` (plain only):
    both pass at once, so the bidder chooses before seeing what it gets."""

    kind: str
    cards: int
    simultaneous: bool = False


@dataclass(frozen=True)
class StockPlay:
    """The two-handed game's switches (``stock_play:``), where the texts are silent.

    The texts say only that two play with a stock and a turned-up trump, "the drawing as in
    Bezique"; meldcalc plays the common rules (RULES.md, two-handed), and these switch the
    points the books differ on: ``melds_per_trick`` (one combination after each trick won),
    ``meld_before_draw`` (the winner melds before it draws, as most books have it, or
    after), ``closing`` (whether the trick's winner may close the stock instead of drawing),
    ``round_tricks`` (count a player's trick points to the ten, "7, 8 or 9 as 10") and the
    ``game`` target."""

    game: int = 1000
    melds_per_trick: int = 1
    meld_before_draw: bool = True
    closing: bool = False
    round_tricks: bool = False


@dataclass(frozen=True)
class Variant:
    """A rule variant: deck, deal, scoring table, trick counters, bidding and play rules."""

    name: str
    title: str
    source: str
    description: str
    path: Path
    deck: Deck
    players: int
    partnerships: bool
    hand_size: int
    widow: int
    stock: int
    melds: tuple[MeldRule, ...]
    counters: dict[Rank, int]
    last_trick: int
    bidding: Bidding | None
    head: str = "always"
    overtrump: bool = True
    #: The way dealing and play go round the table: ``clockwise`` (the next to play sits on
    #: your left) or ``counterclockwise`` (on your right: seed 003).
    direction: str = "clockwise"
    #: Hands each player holds: 2 where two players each hold both hands of a side (seed
    #: 003's double deck for two); seats are hands, ``players`` counts them.
    hands_each: int = 1
    meld_minimum: int = 0
    house: HouseRules = HouseRules()
    passing: Passing | None = None
    #: The key paths of the numbers that are meldcalc's own, no source giving them
    #: (`meldcalc.rules.sources`).
    house_defaults: tuple[str, ...] = ()
    #: The stock game's switches: set where trump is turned up (two-handed), else None.
    stock_play: StockPlay | None = None
    #: The checked fields it was built from, merged: what a game's ledger keeps of its rules.
    data: dict = field(default_factory=dict, compare=False, repr=False)
    #: Made by the loader from checked fields (`meldcalc.rules.loading`); a copy changed with
    #: `dataclasses.replace`, or a variant made by hand, is not, until checked again.
    checked: bool = field(default=False, init=False, compare=False, repr=False)

    def is_house_default(self, *paths: str) -> bool:
        """Whether any of ``paths`` (or a copy count's value of one) is a house default."""
        return any(
            mark == path or mark.startswith(f"{path}[")
            for mark in self.house_defaults
            for path in paths
        )

    @cached_property
    def classes(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for meld in self.melds:
            seen.update(dict.fromkeys(meld.classes))
        return tuple(seen)

    @property
    def turns_up_trump(self) -> bool:
        """Trump is named by a card turned up from the stock, not by a bidder: a stock and
        no auction (two-handed)."""
        return self.stock > 0 and self.bidding is None

    @property
    def paired(self) -> bool:
        """Partners sit opposite: the sides are the even and the odd seats, whoever bid.
        Otherwise each plays for himself, the bidder alone against the rest."""
        return self.partnerships and self.players % 2 == 0

    @property
    def game_target(self) -> int | None:
        """The points that win the game: the auction's ``game``, or the stock game's."""
        if self.bidding is not None:
            return self.bidding.game
        return self.stock_play.game if self.stock_play else None

    @property
    def trick_total(self) -> int:
        """All trick points of one deal: the counters of every card plus the last trick."""
        counted = sum(self.counters.get(card.rank, 0) for card in self.deck.cards())
        return counted + self.last_trick

    @property
    def trick_step(self) -> int:
        """What every side's trick points are a multiple of: the greatest common divisor
        of the counters and the last trick (5 in single deck)."""
        return math.gcd(*self.counters.values(), self.last_trick) or 1

    @cached_property
    def meld_step(self) -> int:
        """What every side's meld is a multiple of: the greatest common divisor of every
        meld's points at every number of copies the deck allows (10 in single deck)."""
        values = [
            rule.value(copies) for rule in self.melds for copies in range(1, self.deck.copies + 1)
        ]
        return math.gcd(*values) or 1

    @cached_property
    def _absent(self) -> tuple[int, ...]:
        return tuple(card.index for card in CARDS if not self.deck.copies_of(card))

    def check_hand(self, hand: Hand) -> None:
        """Raise `HandError` when the deck cannot hold this hand."""
        counts = hand.counts
        if max(counts) <= self.deck.copies and not any(counts[i] for i in self._absent):
            return
        for card in CARDS:
            held, exist = hand.count(card), self.deck.copies_of(card)
            if held > exist and exist == 0:
                raise HandError(f"{str(card)!r} is not in the {self.name} deck")
            if held > exist:
                raise HandError(
                    f"{held} copies of {str(card)!r}: the {self.name} deck holds {exist}"
                )

    def check_together(
        self,
        holdings: list[tuple[str, Hand]],
        too_many: str = "{count} copies of {card} in the hands given",
    ) -> None:
        """Raise `HandError` when ``holdings`` (whose cards, and the cards) hold between
        them more copies of a card than the deck; ``too_many`` words the count."""
        for card in CARDS:
            held = [(who, cards.count(card)) for who, cards in holdings if cards.count(card)]
            count, exist = sum(n for _, n in held), self.deck.copies_of(card)
            if count > exist:
                where = ", ".join(f"{who} {n}" for who, n in held)
                said = too_many.format(count=count, card=repr(str(card)))
                raise HandError(f"{said} ({where}): the {self.name} deck holds {exist}")

    def hand_warnings(self, hand: Hand) -> list[str]:
        """Things worth saying about a legal hand: a size other than a full deal."""
        if len(hand) != self.hand_size:
            return [f"the hand has {cards_text(len(hand))}; {self.name} deals {self.hand_size}"]
        return []


def may_name_trump(hand: Hand, variant: Variant, trump: Suit) -> bool:
    """Whether the bidder holding ``hand`` may name ``trump``: in variants whose bidding
    says ``marriage_in_trump`` (double deck) only with a marriage (K and Q) in that suit."""
    if variant.bidding is None or not variant.bidding.marriage_in_trump:
        return True
    return hand.count(Card(Rank.KING, trump)) > 0 and hand.count(Card(Rank.QUEEN, trump)) > 0
