"""Bidding by a system: the bid a hand makes now, what the others' bids told, what to pass.

The system is the table's (`rules.systems`, named by the variant's ``bidding.system``);
this module asks it and decides nothing of what a bid means.

- **The bid to make now** (`system_bid`): of the legal bids from the auction's level up to
  the hand's ceiling (the highest bid `bid` finds it makes at the confidence asked), those
  whose message the hand fits (`Meaning.fits`: the meld it shows, the cards it holds, the
  cards it asks for raise its meld, it can name trump), the one that tells most: a card
  asked for (the one that raises the meld most in the suit the hand would name trump, where
  the pass gives it first, weighed by the chance the partner holds it: at least the
  smallest meld, else it is not worth asking), then meld shown, cards held or trump
  wanted, then a bid that says only that it bids; of equals the one that asks for fewer
  cards, then one that shuts the others out, then the lowest. A bid whose message the
  hand does not fit is never made (so a skip bid never shows meld the hand lacks); where
  none fits, the lowest bid the system reads as a bare number, else a pass. The ceiling
  is the odds' own: the system never raises it.
- **What the others said** (`heard`, `auction_knowledge`): each bid of the auction read by
  the system, for the deals a bid simulates (`dealing.knowledge.TableKnowledge`) and for
  the pass (`asked_by`).
- **What to pass** (`pass_advice`): the cards the policy of `dealing.passing` gives, with
  what the other's bids asked for first, and whether the passer could spare it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from meldcalc.errors import MeldcalcError, quote
from meldcalc.rules.cards import SUITS, Card, Hand, Suit
from meldcalc.rules.systemfile import heard, system_for
from meldcalc.rules.systems import (
    Ask,
    Meaning,
    System,
    ask_gain,
    auction_said,
    meaning,
)
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np

    from meldcalc.dealing.knowledge import TableKnowledge
    from meldcalc.rules.auction import Auction


@dataclass(frozen=True)
class SystemBid:
    """The bid a system's player makes now: ``bid`` (None: pass) at the auction's
    ``level``, what it says, and why it fits the hand (``fit``)."""

    system: str
    level: int
    ceiling: int | None
    bid: int | None
    meaning: Meaning | None
    opening: bool
    fit: str

    def sentence(self) -> str:
        """``Open 53 (skip-meld): shows 30 meld (your meld is 34); your hand can go to 64.``"""
        if self.bid is None:
            return f"Now ({self.system}): pass: {self.fit}."
        verb = "open" if self.opening else "bid"
        said = self.meaning.says if not self.meaning.bare else "a bare number"
        why = f" ({self.fit})" if self.fit else ""
        return (
            f"Now ({self.system}): {verb} {self.bid}: {said}{why}; your hand can go to"
            f" {self.ceiling}."
        )

    def short(self) -> str:
        """``skip-meld: bid 54 (wants to name trump)``, for the session's prompt."""
        if self.bid is None:
            return f"{self.system}: pass"
        return f"{self.system}: bid {self.bid} ({self.meaning.says})"

    def json(self) -> dict[str, object]:
        return {
            "system": self.system,
            "level": self.level,
            "ceiling": self.ceiling,
            "bid": self.bid,
            "meaning": None if self.meaning is None else self.meaning.json(),
            "fit": self.fit,
        }


def system_bid(
    hand: Hand,
    variant: Variant,
    system: System,
    auction: Sequence[int | None],
    ceiling: int | None,
    trump: Suit | None = None,
) -> SystemBid:
    """The bid to make now (module docstring), after ``auction`` (the bids before, in the
    order spoken, None for a pass), for a hand that goes up to ``ceiling`` and would name
    ``trump``: a card asked for is judged in that suit, where a pass gives it first."""
    import numpy as np

    bidding = variant.bidding
    made = [said for said in auction if said is not None]
    level = bidding.opening if not made else bidding.next_bid(max(made))
    opening = not made
    if ceiling is None or ceiling < level:
        reach = "your hand makes no bid" if ceiling is None else f"your hand goes to {ceiling}"
        return SystemBid(system.name, level, ceiling, None, None, opening, f"{reach}, not {level}")
    counts = np.array([hand.counts])
    judged: dict[tuple, tuple[bool, float]] = {}

    def judge(said: Meaning) -> tuple[bool, float]:
        key = said.reading
        if key not in judged:
            fits = bool(said.fits(counts, variant)[0])
            worth = expected_gain(said.asks, counts, variant, trump)[0] if said.asks else 0.0
            judged[key] = (fits and (said.asks is None or worth >= least_meld(variant)), worth)
        return judged[key]

    said = choose((meaning(system, auction, bid), judge) for bid in bidding.levels(ceiling, level))
    if said is None:
        fit = f"no bid of {system.name} from {level} to {ceiling} fits your hand"
        return SystemBid(system.name, level, ceiling, None, None, opening, fit)
    fit = _fit_words(said, hand, variant, trump)
    return SystemBid(system.name, level, ceiling, said.bid, said, opening, fit)


def expected_gain(
    ask: Ask, counts: np.ndarray, variant: Variant, trump: Suit | None = None
) -> np.ndarray:
    """(N,) what the cards ``ask`` asks for would add to each hand's meld (`ask_gain`, in
    ``trump`` where it is given), weighed by the chance its partner holds them to pass:
    each card at least once among the partner's hand, dealt from the cards the hand does
    not hold (the best choice of suit)."""
    import numpy as np

    suits = [None] if ask.every_suit else ([trump] if trump is not None else list(SUITS))
    best = np.full(len(counts), -np.inf)
    for suit in suits:
        chance = np.ones(len(counts))
        for card in ask.options(suit)[0]:
            chance = chance * partner_holds(counts, variant, card)
        gain = ask_gain(ask, counts, variant, suit)
        worth = np.nan_to_num(gain, neginf=0.0) * chance
        best = np.maximum(best, np.where(np.isfinite(gain), worth, -np.inf))
    return best


def partner_holds(counts: np.ndarray, variant: Variant, card: Card) -> np.ndarray:
    """(N,) the chance a partner holds at least one copy of ``card`` that each hand (a
    whole hand of the deal) does not: its hand is dealt from the cards unseen."""
    import numpy as np

    unseen = variant.deck.size - variant.hand_size
    size = variant.hand_size
    missing = np.clip(variant.deck.copies_of(card) - counts[:, card.index], 0, None)
    none = [
        math.exp(_log_choose(unseen - m, size) - _log_choose(unseen, size))
        for m in range(variant.deck.copies + 1)
    ]
    return 1.0 - np.array(none)[missing]


def _log_choose(n: int, k: int) -> float:
    if k < 0 or k > n:
        return -math.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def least_meld(variant: Variant) -> int:
    """The smallest meld the variant scores: what a card asked for must be expected to
    add, for a bid to ask for it (a jump for less is not worth its risk)."""
    return min((rule.value(1) for rule in variant.melds if rule.value(1) > 0), default=1)


def choose(candidates: Iterable[tuple[Meaning, object]]) -> Meaning | None:
    """Of ``candidates`` (a meaning and a judge giving whether the hand fits it and what
    its ask would add), the bid that tells most (module docstring); None: none fits."""
    best, best_key = None, None
    for said, judge in candidates:
        if said.bare:
            key = (0, 0.0, 0, False, -said.bid)
        else:
            fits, gain = judge(said)
            if not fits:
                continue
            asked = len(said.asks.options()[0]) if said.asks else 0
            key = (_tells(said), gain, -asked, said.shuts_out, -said.bid)
        if best_key is None or key > best_key:
            best, best_key = said, key
    return best


def _tells(said: Meaning) -> int:
    """How much a fitting meaning tells: cards asked for 4, meld 3, cards held or trump
    wanted 2, only that it bids 1."""
    if said.asks is not None:
        return 4
    if said.meld is not None:
        return 3
    return 2 if said.tells else 1


def _fit_words(said: Meaning, hand: Hand, variant: Variant, trump: Suit | None) -> str:
    """Why the hand fits the bid's message, in words."""
    import numpy as np

    from meldcalc.rules.systems import best_melds

    counts = np.array([hand.counts])
    if said.bare:
        return "no bid of the system up to here says what your hand holds"
    if said.asks is not None:
        suit = None if said.asks.every_suit else trump
        gain = float(ask_gain(said.asks, counts, variant, suit)[0])
        cards = said.asks.options(suit)[0] if suit is not None or said.asks.every_suit else ()
        where = f" ({' '.join(str(card) for card in cards)})" if cards else ""
        chance = 1.0
        for card in cards:
            chance *= float(partner_holds(counts, variant, card)[0])
        held = (
            f"; partner holds {'it' if len(cards) == 1 else 'them'} {chance:.0%} of the time"
            if cards
            else ""
        )
        return f"{said.asks.words()}{where} would add {gain:g} to your meld{held}"
    if said.meld is not None:
        meld = int(best_melds(np.array([hand.counts]), variant)[0])
        return f"your meld is {meld}"
    if said.holds is not None:
        return f"you hold {said.holds.words()}"
    if said.wants_trump:
        return "you can name trump"
    return ""


# --- what the others said ----------------------------------------------------------------


def auction_knowledge(
    variant: Variant,
    bids: Sequence[tuple[int, int | None]],
    me: int,
    knowledge: TableKnowledge,
) -> TableKnowledge:
    """``knowledge`` with what the auction said: each seat's bids to the bid model, and
    read by the table's system."""
    said = auction_said(variant.bidding, variant.players, bids, me)
    return replace(knowledge, bids=said, meanings=heard(variant, bids, me))


def read_auction(text: str, variant: Variant, seat: int | None = None) -> Auction:
    """The bids so far, as typed (``52 pass 55``: in turn from the dealer's left, the first
    bidder seat 0), followed by the auction's rules; a bad token or an illegal bid is a
    `MeldcalcError` naming it, and so is a ``seat`` (yours, where it was said) that is not
    the one to bid next."""
    from meldcalc.rules.auction import Auction

    auction = Auction(variant.bidding, variant.players, variant.players - 1)
    for number, token in enumerate(text.replace(",", " ").split(), start=1):
        try:
            auction = auction.say(auction.read(token))
        except MeldcalcError as error:
            raise type(error)(f"--auction: bid {number} ({quote(token)}): {error}") from None
    if auction.to_speak is None:
        raise MeldcalcError(f"--auction {quote(text)}: the auction is over: no bid is left to make")
    if seat is not None and seat != auction.to_speak:
        raise MeldcalcError(
            f"--auction: after {quote(text.strip())} seat {auction.to_speak} bids next, but"
            f" --seat says you are seat {seat}"
        )
    return auction


# --- what to pass --------------------------------------------------------------------------


@dataclass(frozen=True)
class PassAdvice:
    """The cards to pass, what the other's bid asked for, and whether they include it."""

    cards: Hand
    asked: Meaning | None
    gives: bool

    def sentence(self, trump: Suit | None) -> str:
        """``asked for a queen (bid 56): give QH AH 10S``, after the other's name."""
        cards = self.cards.notation(trump)
        if self.asked is None:
            return f"asked for nothing: the passing policy gives {cards}"
        asked = f"{self.asked.asks.words()} (bid {self.asked.bid})"
        if self.gives:
            return f"asked for {asked}: give {cards}"
        return f"asked for {asked}, but you hold none outside your meld: give {cards}"


def pass_advice(
    hand: Hand,
    variant: Variant,
    trump: Suit | None,
    asked: Meaning | None,
    bidder: bool,
    ask: Suit | None = None,
) -> PassAdvice:
    """The cards the passing policy (`dealing.passing`) gives from ``hand``: the
    bidder's return (``bidder``) or the partner's send, what the other's bid ``asked`` for
    first where it can be spared."""
    import numpy as np

    from meldcalc.dealing.passing import bidder_returns, partner_sends

    counts = np.array([hand.counts])
    wanted = None if asked is None else asked.asks
    if bidder:
        given = bidder_returns(counts, variant, trump, wanted)[0]
    else:
        given = partner_sends(counts, variant, trump or ask, ask, wanted)[0]
    cards = Hand(given.tolist())
    return PassAdvice(cards, asked, asked is not None and _gives(cards, asked))


def _gives(cards: Hand, asked: Meaning) -> bool:
    return all(any(cards.count(card) for card in option) for option in _asked_slots(asked.asks))


def _asked_slots(ask: object) -> list[list]:
    """Each card asked for, as the cards that would give it (any suit of the rank)."""
    from meldcalc.rules.cards import SUITS, Card

    if ask.every_suit:
        return [[card] for card in ask.options()[0]]
    return [[Card(rank, suit) for suit in SUITS] for rank in ask.ranks]


# --- in a bid's report ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReportSystem:
    """What the table's system adds to `meldcalc bid`: the bid to make now, and what the
    partner's bids asked you to pass."""

    #: None once the auction is over (the pass under way or made)
    now: SystemBid | None
    partner_asked: Meaning | None = None
    #: ``--explain``: how the system read the auction and each bid the hand could make
    explanation: tuple[str, ...] = ()
    name: str = ""

    def lines(self, report: object) -> list[str]:
        lines = [] if self.now is None else [self.now.sentence()]
        if self.partner_asked is not None and report.variant.passing is not None:
            lines.append(self._pass_line(report))
        return lines

    def _pass_line(self, report: object) -> str:
        """Whether the pass gives the partner what it asked for."""
        asked, best = self.partner_asked, report.best
        what = f"Partner asked for {asked.asks.words()} (bid {asked.bid})"
        if best.returns is not None:
            shown = best.returns.notation(best.trump)
            if _gives(best.returns, asked):
                return f"{what}: the pass back {shown} gives it."
            if _gives(report.pass_backs[best.trump][0].returns, asked):
                return (
                    f"{what}: the pass back that gives it did worse on the same deals than {shown}."
                )
            return f"{what}: you hold none outside your meld to pass back."
        advice = pass_advice(report.hand, report.variant, best.trump, asked, bidder=True)
        if advice.gives:
            return f"{what}: you can spare it, and every deal simulated passes it back."
        return f"{what}: you hold none outside your meld under {best.trump.symbol} to pass back."

    def json(self) -> dict[str, object]:
        asked = self.partner_asked
        over = dict.fromkeys(("level", "ceiling", "bid", "meaning", "fit"))
        return {
            **({"system": self.name, **over} if self.now is None else self.now.json()),
            "partner_asked": None if asked is None else asked.json(),
            "explanation": list(self.explanation),
        }


def report_system(
    report: object,
    auction: Sequence[tuple[int, int | None]] = (),
    me: int = 0,
    explain: bool = False,
) -> ReportSystem | None:
    """The system's part of a bid's report (`ReportSystem`), or None without a system;
    ``explain``: with the sentences of `explain_bids`."""
    from meldcalc.dealing.knowledge import partner_seat
    from meldcalc.rules.systems import last_ask

    variant = report.variant
    system = system_for(variant)
    if system is None:
        return None
    spoken = [bid for _, bid in auction]
    partner = partner_seat(variant)
    asked = None if partner is None else last_ask(heard(variant, auction, me), partner)
    known = report.knowledge
    if known.received is not None or known.after_pass:  # the auction is over
        return ReportSystem(None, asked, name=system.name)
    best = report.best
    now = system_bid(report.hand, variant, system, spoken, report.suggested_bid, best.trump)
    explained = explain_bids(report, system, auction, me, now) if explain else ()
    return ReportSystem(now, asked, tuple(explained), system.name)


def explain_bids(
    report: object,
    system: System,
    auction: Sequence[tuple[int, int | None]],
    me: int,
    now: SystemBid,
) -> list[str]:
    """``bid --explain``: each bid of the auction as the system reads it (and what the
    deals then hold), then each bid the hand could make now, whether it fits and why."""
    import numpy as np

    from meldcalc.dealing.knowledge import seat_name

    variant, hand = report.variant, report.hand
    lines = []
    for seat, said in heard(variant, auction, me):
        who = "you" if seat == 0 else seat_name(variant, seat)
        told = f": the deals give {who} a hand where {said.tells_words()}" if said.tells else ""
        lines.append(f"{who} bid {said.bid} ({system.name}: {said.says}){told}.")
    if now.ceiling is None or now.ceiling < now.level:
        return [*lines, f"{system.name}: no bid from {now.level}: {now.fit}."]
    counts = np.array([hand.counts])
    spoken = [bid for _, bid in auction]
    lines.append(f"the bids from {now.level} to {now.ceiling}, as {system.name} reads them:")
    bare: list[int] = []
    for bid in [*variant.bidding.levels(now.ceiling, now.level), None]:
        said = None if bid is None else meaning(system, spoken, bid)
        if said is not None and said.bare and bid != now.bid:
            bare.append(bid)
            continue
        if bare:  # a run of bare numbers, one line
            bids = str(bare[0]) if len(bare) == 1 else f"{bare[0]} to {bare[-1]}"
            lines.append(f"  {bids}: bare numbers: they say nothing of the hand")
            bare = []
        if said is not None:
            verdict = _verdict(said, counts, variant, report.best.trump)
            chosen = "  <- the bid to make" if bid == now.bid else ""
            lines.append(f"  {bid}: {said.says}: {verdict}{chosen}")
    return lines


def _verdict(said: Meaning, counts: np.ndarray, variant: Variant, trump: Suit) -> str:
    """Whether the hand fits a bid's message, and why not."""
    from meldcalc.rules.systems import best_melds

    if said.bare:
        return "says nothing of the hand"
    if not said.fits(counts, variant)[0]:
        if said.meld is not None:
            meld = int(best_melds(counts, variant)[0])
            return f"no: your meld is {meld}, not {said.meld_words()}"
        return f"no: not so ({said.tells_words()})"
    if said.asks is not None:
        worth = float(expected_gain(said.asks, counts, variant, trump)[0])
        least = least_meld(variant)
        if worth < least:
            return f"no: worth {worth:.1f} meld as partner may pass it, less than {least}"
        return f"fits: worth {worth:.1f} meld as partner may pass it"
    return "fits" if said.tells else "fits (it tells nothing more)"
