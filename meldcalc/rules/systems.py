"""Bidding systems: what a bid says, by the table of bids a partnership plays.

Real double-deck tables do not bid bare numbers: a bid shows meld, asks the partner for a
card to pass, wants to name trump or shuts the others out (RULES.md "Bidding systems").
A system is one YAML file (`variants/systems/`, read and checked by
`meldcalc.rules.systemfile`): a list of entries, each saying which bids it reads (a level or
range, a last digit, an opening or a later bid, a raise over the bid before, a jump) and what
they mean. The first entry that matches a bid reads it; a bid none matches is a bare number.

`meaning(system, auction, bid)` is the one reading every command asks: `meldcalc table`
lists the entries, `bid` bids the system and reads the others' bids, the session reads
every seat's bids, the quiz asks what a bid means. `Meaning.fits` says which hands (as
per-card counts, many at once) agree with what a bid says, for the deals a bid simulates
and for the bid a hand makes.

Readings where the texts give no figure are meldcalc's, written in the system file (Jim
Davis's "some meld" is 20 or more); every reading of a hand is a test on its cards:
- meld shown: the hand's best meld (under the trump that melds most) lies in the range;
- cards held: at least so many of the cards (or of a rank);
- cards asked for: the asked cards are worth more in the asker's hand than alone, that is
  they raise its best meld by more than they would meld by themselves (one card of the
  rank in some suit; one of each suit; or one of each rank in one suit);
- wants trump: in a game whose bidder needs a marriage in trump, the hand holds one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import SUITS, Card, Rank, Suit
from meldcalc.rules.variant import Bidding, Variant

if TYPE_CHECKING:
    import numpy as np

#: What a bid that no entry reads says.
BARE = "a bare number: the system gives it no message"


@dataclass(frozen=True)
class Ask:
    """Cards a bid asks the partner to pass: one card of ``ranks[0]`` (in any suit; under
    the card exchange, in the suit named), one of each suit (``every_suit``), or one of
    each of several ranks in one suit (Toby Thomas's standard set: K, Q, A)."""

    ranks: tuple[Rank, ...]
    every_suit: bool = False

    def options(self, suit: Suit | None = None) -> list[tuple[Card, ...]]:
        """Each way to give what is asked: the cards of one choice of suit (only ``suit``,
        where it is given)."""
        if self.every_suit:
            return [tuple(Card(self.ranks[0], each) for each in SUITS)]
        suits = SUITS if suit is None else (suit,)
        return [tuple(Card(rank, each) for rank in self.ranks) for each in suits]

    def words(self) -> str:
        """``a jack``, ``jacks in every suit``, ``a king, a queen and an ace of one suit``."""
        if self.every_suit:
            return f"{_RANK_WORDS[self.ranks[0]][1]} in every suit"
        names = [_RANK_WORDS[rank][0] for rank in self.ranks]
        if len(names) == 1:
            return names[0]
        return f"{', '.join(names[:-1])} and {names[-1]} of one suit"

    def json(self) -> dict[str, object]:
        return {"ranks": [rank.value for rank in self.ranks], "every_suit": self.every_suit}


_RANK_WORDS = {
    Rank.ACE: ("an ace", "aces"),
    Rank.TEN: ("a ten", "tens"),
    Rank.KING: ("a king", "kings"),
    Rank.QUEEN: ("a queen", "queens"),
    Rank.JACK: ("a jack", "jacks"),
    Rank.NINE: ("a nine", "nines"),
}


@dataclass(frozen=True)
class Holds:
    """At least ``at_least`` of ``cards`` (every copy counts), or of ``rank`` in any suit."""

    at_least: int
    cards: tuple[Card, ...] = ()
    rank: Rank | None = None

    def indices(self) -> list[int]:
        if self.rank is not None:
            return [Card(self.rank, suit).index for suit in SUITS]
        return [card.index for card in self.cards]

    def words(self) -> str:
        """``at least 2 aces``, ``at least 3 of J♦ Q♠``."""
        if self.rank is not None:
            return f"at least {self.at_least} {_RANK_WORDS[self.rank][1]}"
        cards = " ".join(f"{card.rank.value}{card.suit.symbol}" for card in self.cards)
        return f"at least {self.at_least} of {cards}"

    def json(self) -> dict[str, object]:
        return {
            "at_least": self.at_least,
            "cards": [str(card) for card in self.cards],
            "rank": None if self.rank is None else self.rank.value,
        }


@dataclass(frozen=True)
class MeldRule:
    """How an entry's bid shows meld: ``per_point`` meld for each point of the bid above
    ``above`` (a number, or ``"high"``: the bid before it), the range reaching up to the
    next figure; or a fixed range ``low`` to ``high`` (either end open)."""

    per_point: int | None = None
    above: int | str | None = None
    low: int | None = None
    high: int | None = None

    def shown(self, bid: int, before: int | None, top: bool) -> tuple[int, int | None]:
        """The range of meld a bid shows; ``top``: the system's highest bid, which shows
        its figure or more."""
        if self.per_point is None:
            return (self.low or 0, self.high)
        base = before if self.above == "high" else self.above
        low = self.per_point * (bid - base)
        return (low, None if top else low + self.per_point - 1)


@dataclass(frozen=True)
class Entry:
    """One row of a system's table: which bids it reads, and what they say."""

    says: str
    levels: tuple[tuple[int, int | None], ...] = ()  #: bids (from, to); to None: open
    ending: int | None = None
    when: str | None = None  #: "opening" (no bid before it) or "later"
    raises: tuple[int, int | None] | None = None  #: the bid less the bid before it
    jump: bool = False
    meld: MeldRule | None = None
    holds: Holds | None = None
    asks: Ask | None = None
    wants_trump: bool = False
    shuts_out: bool = False

    def reads(self, bid: int, before: int | None, steps: Bidding | None, floor: int = 0) -> bool:
        """Whether this entry reads ``bid`` made over ``before`` (None: an opening)."""
        if self.levels and not any(_within(bid, span) for span in self.levels):
            return False
        if self.ending is not None and bid % 10 != self.ending:
            return False
        if self.when == "opening" and before is not None:
            return False
        if self.when == "later" and before is None:
            return False
        if self.raises is not None and (before is None or not _within(bid - before, self.raises)):
            return False
        return not self.jump or is_jump(bid, before, steps, floor)

    def bids_text(self) -> str:
        """Which bids the entry reads, in words: ``opening 52 or more``, ``a raise of 1``."""
        parts = [] if self.when is None else [self.when]
        if self.levels:
            parts.append(" or ".join(_span_text(span) for span in self.levels))
        if self.jump:
            parts.insert(0, "a jump to")
        if self.ending is not None:
            parts.append(f"{'ending' if self.levels else 'a bid ending'} in {self.ending}")
        if self.raises is not None:
            parts.append(f"a raise of {_span_text(self.raises)}")
        return " ".join(parts)


def _within(value: int, span: tuple[int, int | None]) -> bool:
    low, high = span
    return value >= low and (high is None or value <= high)


def _span_text(span: tuple[int, int | None]) -> str:
    low, high = span
    if high == low:
        return str(low)
    return f"{low} or more" if high is None else f"{low} to {high}"


def is_jump(bid: int, before: int | None, steps: Bidding | None, floor: int = 0) -> bool:
    """Whether ``bid`` passes over a legal bid of the same last digit that could be made
    now (Jim Davis: from 70, 80 is the next bid ending in 0, 88 a jump over 78). Without
    the game's ``steps`` every whole number from ``floor`` is a bid."""
    if steps is None:
        lowest = floor if before is None else before + 1
    else:
        lowest = steps.opening if before is None else steps.next_bid(before)
    lower = bid - 10
    while lower >= lowest:
        if steps is None or steps.first_at_least(lower) == lower:
            return True
        lower -= 10
    return False


@dataclass(frozen=True)
class System:
    """A bidding system: its entries in the order they are tried. ``steps``: the bids of
    the game it is played in (for jumps; None: every whole number is a bid)."""

    name: str
    title: str
    source: str
    description: str
    entries: tuple[Entry, ...]
    up_to: int | None = None
    path: Path | None = field(default=None, compare=False)
    steps: Bidding | None = field(default=None, compare=False)

    def for_game(self, bidding: Bidding | None) -> System:
        return replace(self, steps=bidding)

    @property
    def floor(self) -> int:
        """The lowest bid the entries name: the opening, where no game says it."""
        return min((low for entry in self.entries for low, _ in entry.levels), default=0)


@dataclass(frozen=True)
class Meaning:
    """What one bid says, read by a system: its words, and what they tell of the hand."""

    bid: int
    says: str
    system: str
    entry: int | None = None  #: the entry of the table that read it (None: a bare number)
    meld: tuple[int, int | None] | None = None
    holds: Holds | None = None
    asks: Ask | None = None
    wants_trump: bool = False
    shuts_out: bool = False

    @property
    def bare(self) -> bool:
        return self.entry is None

    @property
    def reading(self) -> tuple:
        """What the meaning says of the hand, whatever the bid: equal readings fit the same
        hands."""
        return (self.system, self.entry, self.meld, self.holds, self.asks, self.wants_trump)

    @property
    def tells(self) -> bool:
        """Whether the meaning says anything of the hand (a test `fits` can make)."""
        return bool(self.meld or self.holds or self.asks or self.wants_trump)

    def tells_words(self) -> str:
        """What the bid tells of the bidder's hand, as the deals read it."""
        meld = [] if self.meld is None else [f"its best meld is {self.meld_words()}"]
        return "; ".join([*meld, *told_words(self.holds, self.asks, self.wants_trump)])

    def meld_words(self) -> str:
        """The meld shown: ``30 to 39``, ``100 or more``."""
        low, high = self.meld
        if high is None:
            return f"{low} or more"
        return str(low) if low == high else f"{low} to {high}"

    def json(self) -> dict[str, object]:
        return {
            "bid": self.bid,
            "says": self.says,
            "system": self.system,
            "bare": self.bare,
            "meld": None if self.meld is None else {"min": self.meld[0], "max": self.meld[1]},
            "holds": None if self.holds is None else self.holds.json(),
            "asks": None if self.asks is None else self.asks.json(),
            "wants_trump": self.wants_trump,
            "shuts_out": self.shuts_out,
        }

    def fits(self, counts: np.ndarray, variant: Variant) -> np.ndarray:
        """(N,) which of (N, 24) hands agree with what the bid says (module docstring)."""
        import numpy as np

        agree = np.ones(len(counts), dtype=bool)
        if self.meld is not None:
            best = best_melds(counts, variant)
            low, high = self.meld
            agree &= best >= low
            if high is not None:
                agree &= best <= high
        if self.holds is not None:
            agree &= counts[:, self.holds.indices()].sum(axis=1) >= self.holds.at_least
        if self.asks is not None:
            agree &= ask_gain(self.asks, counts, variant) > 0
        if self.wants_trump and variant.bidding is not None and variant.bidding.marriage_in_trump:
            agree &= has_marriage(counts)
        return agree


def told_words(holds: Holds | None, asks: Ask | None, wants_trump: bool) -> list[str]:
    """What cards held, cards asked for and trump wanted tell of a hand, in words."""
    told = [] if holds is None else [f"it holds {holds.words()}"]
    told += [] if asks is None else [f"{asks.words()} would add to its meld"]
    return told + (["it holds a marriage to name trump"] if wants_trump else [])


def meaning(system: System, auction: Sequence[int | None], bid: int) -> Meaning:
    """What ``bid`` says after ``auction`` (the bids before it in the order spoken, None
    for a pass), read by ``system``: its first entry that reads it, else a bare number.
    A bid not above the highest before it is a `MeldcalcError`."""
    made = [said for said in auction if said is not None]
    before = max(made) if made else None
    if before is not None and bid <= before:
        raise MeldcalcError(f"bid {bid} after {before}: a bid must be higher than the one before")
    if system.up_to is None or bid <= system.up_to:
        for index, entry in enumerate(system.entries):
            if entry.reads(bid, before, system.steps, system.floor):
                return _read(system, index, entry, bid, before)
    return Meaning(bid, BARE, system.name)


def _read(system: System, index: int, entry: Entry, bid: int, before: int | None) -> Meaning:
    shown = None
    if entry.meld is not None:
        shown = entry.meld.shown(bid, before, bid == system.up_to)
    says = entry.says.replace("{meld}", str(shown[0])) if shown else entry.says
    return Meaning(
        bid,
        says,
        system.name,
        index,
        shown,
        entry.holds,
        entry.asks,
        entry.wants_trump,
        entry.shuts_out,
    )


def read_auction(system: System, bids: Sequence[int | None]) -> list[Meaning | None]:
    """Each bid of an auction read in turn (None for a pass)."""
    return [None if bid is None else meaning(system, bids[:i], bid) for i, bid in enumerate(bids)]


def last_ask(meanings: Sequence[tuple[int, Meaning]], seat: int) -> Meaning | None:
    """Of (seat, meaning) read in turn, the last bid of ``seat`` that asked for cards."""
    asked = [said for who, said in meanings if who == seat and said.asks is not None]
    return asked[-1] if asked else None


# --- hands, many at once ---------------------------------------------------------------


def best_melds(counts: np.ndarray, variant: Variant) -> np.ndarray:
    """(N,) each hand's best meld, under the trump that melds most."""
    import numpy as np

    from meldcalc.rules.meld import engine_for

    totals = engine_for(variant).totals(counts)
    return np.max(np.stack([totals[suit] for suit in SUITS]), axis=0)


def has_marriage(counts: np.ndarray) -> np.ndarray:
    """(N,) whether each hand holds a K and a Q of one suit."""
    import numpy as np

    found = np.zeros(len(counts), dtype=bool)
    for suit in SUITS:
        king, queen = Card(Rank.KING, suit).index, Card(Rank.QUEEN, suit).index
        found |= (counts[:, king] > 0) & (counts[:, queen] > 0)
    return found


def ask_gain(
    ask: Ask, counts: np.ndarray, variant: Variant, suit: Suit | None = None
) -> np.ndarray:
    """(N,) how much more the asked cards meld in each hand than alone, for the best
    choice of suit (or in ``suit``): its best meld with them, less without them, less
    their own meld (a choice the deck cannot give, a card of which the hand holds every
    copy, is left out)."""
    import numpy as np

    base = best_melds(counts, variant)
    gain = np.full(len(counts), -np.inf)
    for cards in ask.options(suit):
        if any(not variant.deck.copies_of(card) for card in cards):
            continue
        added = np.zeros(counts.shape[1], dtype=counts.dtype)
        for card in cards:
            added[card.index] += 1
        alone = best_melds(added[None], variant)[0]
        more = counts + added
        possible = (more <= variant.deck.copies).all(axis=1)
        worth = best_melds(more, variant) - base - alone
        gain = np.where(possible, np.maximum(gain, worth), gain)
    return gain


def auction_said(
    bidding: Bidding, players: int, bids: Sequence[tuple[int, int | None]], me: int
) -> tuple[tuple[int, int | None, int | None], ...]:
    """What each other seat's bids say to the bid model, counted from seat ``me``: (seat,
    its highest bid, the bid it passed rather than make) (`dealing.knowledge.TableKnowledge`
    ``bids``)."""
    said: dict[int, tuple[int | None, int | None]] = {}
    high: int | None = None
    for seat, bid in bids:
        top, passed = said.get(seat, (None, None))
        if bid is None:
            passed = bidding.opening if high is None else bidding.next_bid(high)
        else:
            top, high = bid, bid
        said[seat] = (top, passed)
    return tuple(
        ((seat - me) % players, top, passed)
        for seat, (top, passed) in sorted(said.items())
        if seat != me
    )
