"""What the table knows: the auction, the meld laid down, the widow, the cards passed.

Before play every player has seen everyone's meld, and the auction says things about the
partner's hand. `TableKnowledge` holds what the bidder tells `meldcalc bid`: cards a seat
is known to hold, suits a seat is void in, the range of the partner's meld and of the
opponents' meld (under the trump being simulated), the widow once seen, and the cards the
partner passed. `read_knowledge` reads it from the command line's words (a bad word is a
`NotationError` naming it); `TableKnowledge.check` finds contradictions with the hand
before any dealing; `meldcalc.dealing.layouts` then deals only layouts consistent with it.

Seats are given as every command names them (`meldcalc.rules.seats`: numbers from 0 in
playing order, you in seat 0 unless ``--seat`` says; ``left``, ``partner``, ``right`` from
yours) and kept here from the bidder's place, yours: ``left`` plays after you (1),
``partner`` sits opposite (2, four-handed partnership games), ``right`` plays before you
(3; 2 with three players). Six players in partnerships have two partners each (yours are
2 and 4 from you): they have no name, so they are told by number, and the partners' meld
is theirs together.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meldcalc.errors import HandError, KnowledgeError, NotationError, quote
from meldcalc.rules.cards import CARDS, NUM_CARDS, RANKS, SUITS, Card, Hand, Suit
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.seats import Seating, place_offsets
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np


# --- seats -------------------------------------------------------------------------------


def partner_seats(variant: Variant) -> tuple[int, ...]:
    """The bidder's partners: the other even seats of a partnership game (seat 2 of four,
    seats 2 and 4 of six); none with two players or each playing for himself."""
    if variant.paired:
        return tuple(range(2, variant.players, 2))
    return ()


def partner_seat(variant: Variant) -> int | None:
    """The bidder's one partner (seat 2, four-handed partnership games), the seat that
    ``partner`` names and a card pass is with; None with no partner or with two."""
    seats = partner_seats(variant)
    return seats[0] if len(seats) == 1 else None


def partners_word(variant: Variant) -> str:
    """``partner's`` with one partner, ``partners'`` (their meld together) with two."""
    return "partners'" if len(partner_seats(variant)) > 1 else "partner's"


def opponent_seats(variant: Variant) -> tuple[int, ...]:
    """The seats playing against the bidder's side (the odd seats of a partnership game)."""
    if variant.paired:
        return tuple(range(1, variant.players, 2))
    return tuple(range(1, variant.players))


def seat_name(variant: Variant, seat: int) -> str:
    """``partner``, ``left``, ``right`` (from the bidder), or ``seat N`` for a seat with no
    name."""
    named = {offset: name for name, offset in place_offsets(variant).items()}
    return named.get(seat, f"seat {seat}")


def parse_seat(text: str, variant: Variant, me: int = 0) -> int:
    """A seat named as every command names it (`rules.seats`), you sitting in ``me``; as
    this module counts seats, from yours (1: the seat after yours)."""
    seat = Seating(variant, me).parse(text, "seat")
    if seat == me:
        raise NotationError(f"seat {quote(text)} is you: your cards are the hand")
    return (seat - me) % variant.players


# --- meld ranges -------------------------------------------------------------------------


@dataclass(frozen=True)
class MeldRange:
    """A meld total from ``low`` to ``high`` (either end open): ``40:``, ``:60``, ``40:60``,
    or ``40`` for exactly 40 (the meld was laid on the table)."""

    low: int | None = None
    high: int | None = None

    @classmethod
    def parse(cls, text: str) -> MeldRange:
        low_text, colon, high_text = text.strip().partition(":")
        if not colon:
            low_text = high_text = low_text
        low, high = _meld_bound(low_text, text), _meld_bound(high_text, text)
        if low is None and high is None:
            raise NotationError(f"{quote(text)}: expected a meld range such as 40: or :60")
        if low is not None and high is not None and low > high:
            raise NotationError(f"{quote(text)}: the lower end {low} is above the upper {high}")
        return cls(low, high)

    def text(self) -> str:
        """The form `parse` reads back."""
        if self.low == self.high:
            return str(self.low)
        return f"{'' if self.low is None else self.low}:{'' if self.high is None else self.high}"

    def words(self) -> str:
        if self.low == self.high:
            return f"exactly {self.low}"
        if self.high is None:
            return f"at least {self.low}"
        if self.low is None:
            return f"at most {self.high}"
        return f"from {self.low} to {self.high}"

    def holds(self, totals: np.ndarray) -> np.ndarray:
        import numpy as np

        inside = np.ones(len(totals), dtype=bool)
        if self.low is not None:
            inside &= totals >= self.low
        if self.high is not None:
            inside &= totals <= self.high
        return inside

    def json(self) -> dict[str, int | None]:
        return {"min": self.low, "max": self.high}


def _meld_bound(text: str, whole: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not is_whole_number(text) or len(text) > 9:
        raise NotationError(
            f"{quote(whole)}: {quote(text)} is not a meld total: expected a range of whole"
            " numbers such as 40: (at least 40), :60 (at most 60), 40:60 or 40"
        )
    return int(text)


# --- what the table knows -------------------------------------------------------------


@dataclass(frozen=True)
class TableKnowledge:
    """What the bidder has been told, in seat numbers. Empty, it changes nothing.

    ``known``: cards each seat holds (at least) before any pass; ``voids``: suits a seat
    holds none of; ``partner_meld``, ``opponents_meld``: ranges of the partner's meld and
    of the opponents' meld together, under the trump simulated; ``widow``: the widow or
    kitty once seen; ``received``: the cards the partner passed; ``ask``: the suit asked
    for in a card exchange; ``after_pass``: the pass is over (or not played), so the hand
    and all the rest describe the cards as they will be played and no pass is simulated.
    """

    known: tuple[tuple[int, Hand], ...] = ()
    voids: tuple[tuple[int, tuple[Suit, ...]], ...] = ()
    partner_meld: MeldRange | None = None
    opponents_meld: MeldRange | None = None
    widow: Hand | None = None
    received: Hand | None = None
    ask: Suit | None = None
    after_pass: bool = False
    #: what the auction said: (seat, its highest bid or None, the bid it passed rather
    #: than make or None), each read through the fast bid model (`dealing.bidmodel`)
    bids: tuple[tuple[int, int | None, int | None], ...] = ()
    #: what each bid said by the table's bidding system (`rules.systems`): (seat, its
    #: `Meaning`), in the order spoken; the hands dealt agree with every one that tells
    meanings: tuple[tuple[int, Any], ...] = ()

    @property
    def told(self) -> bool:
        """Whether anything at all was told (the report then says what)."""
        return self != TableKnowledge()

    @property
    def shapes_deal(self) -> bool:
        """Whether any layout could be refused: anything told but the suit asked for."""
        return bool(
            self.known
            or self.voids
            or self.meld_ranges
            or self.widow is not None
            or self.received is not None
            or bool(self.bids)
            or any(said.tells for _, said in self.meanings)
        )

    @property
    def meld_ranges(self) -> list[tuple[str, MeldRange]]:
        """``("partner", range)``, ``("opponents", range)``, as told."""
        ranges = [("partner", self.partner_meld), ("opponents", self.opponents_meld)]
        return [(who, told) for who, told in ranges if told is not None]

    def asked_by(self, seat: int) -> Any:
        """What ``seat``'s last bid that asked for cards asked for (an `Ask`), or None."""
        from meldcalc.rules.systems import last_ask

        said = last_ask(self.meanings, seat)
        return None if said is None else said.asks

    def simulates_pass(self, variant: Variant) -> bool:
        return variant.passing is not None and not self.after_pass

    def placed(self, variant: Variant) -> dict[int, Hand]:
        """The cards dealt to each seat before the others are shuffled: the known cards,
        and the partner's pass (the partner held at least those cards)."""
        placed = dict(self.known)
        if self.received is not None:
            partner = partner_seat(variant)
            held = placed.get(partner, Hand([0] * NUM_CARDS))
            placed[partner] = Hand(max(a, b) for a, b in zip(held.counts, self.received.counts))
        return placed

    def dealt_voids(self, variant: Variant) -> dict[Suit, set[int]]:
        """For each suit, the seats that get none of it among the shuffled cards: the voids
        told, and under the exchange a partner that passed fewer of the asked suit than the
        pass holds (it had to pass them all)."""
        voids: dict[Suit, set[int]] = {}
        for seat, suits in self.voids:
            for suit in suits:
                voids.setdefault(suit, set()).add(seat)
        if self._passed_all_of_ask(variant):
            voids.setdefault(self.ask, set()).add(partner_seat(variant))
        return voids

    def _passed_all_of_ask(self, variant: Variant) -> bool:
        passing = variant.passing
        if self.received is None or self.ask is None or passing is None:
            return False
        asked = sum(self.received.count(Card(rank, self.ask)) for rank in RANKS)
        return passing.kind == "exchange" and asked < passing.cards

    def describe(self, variant: Variant, trumps: Iterable[Suit] = SUITS) -> list[str]:
        """What was told, in sentences for the report."""
        trumps = list(trumps)
        under = "under each trump" if len(trumps) == len(SUITS) else f"under {trumps[0].symbol}"
        lines = [
            f"{seat_name(variant, seat)} holds {cards.notation()}" for seat, cards in self.known
        ]
        for seat, suits in self.voids:
            names = " or ".join(suit.symbol for suit in suits)
            lines.append(f"{seat_name(variant, seat)} has no {names}")
        if self.partner_meld is not None:
            lines.append(f"{partners_word(variant)} meld {self.partner_meld.words()} {under}")
        if self.opponents_meld is not None:
            lines.append(f"the opponents' meld {self.opponents_meld.words()} {under}")
        for seat, high, passed in self.bids:
            said = [f"bid {high}"] if high is not None else []
            said += [f"passed at {passed}"] if passed is not None else []
            lines.append(f"{seat_name(variant, seat)} {' and '.join(said)} (read by the bid model)")
        for seat, said in self.meanings:
            who = "you" if seat == 0 else seat_name(variant, seat)
            lines.append(f"{who} bid {said.bid}: {said.says} ({said.system})")
        if self.widow is not None:
            lines.append(f"widow seen: {self.widow.notation()}")
        if self.ask is not None and self.received is None:
            lines.append(f"you ask partner for {self.ask.symbol}")
        if self.after_pass:
            lines.append("the pass is over: the hands are as they will be played")
        if self.received is not None:
            line = f"received from partner: {self.received.notation()}"
            if self.ask is not None:
                line += f", asked for {self.ask.symbol}"
            if self._passed_all_of_ask(variant):
                line += f" (fewer than {variant.passing.cards} {self.ask.symbol}: it has no more)"
            lines.append(line)
        return lines

    def json(self, variant: Variant) -> dict[str, object]:
        """The documented ``knowledge`` object of `meldcalc bid -f json`."""

        def cards(hand: Hand | None) -> list[str] | None:
            return None if hand is None else [str(card) for card in hand.cards()]

        return {
            "known": [{"seat": seat, "cards": cards(hand)} for seat, hand in self.known],
            "voids": [
                {"seat": seat, "suits": [suit.letter for suit in suits]}
                for seat, suits in self.voids
            ],
            "partner_meld": None if self.partner_meld is None else self.partner_meld.json(),
            "opponents_meld": None if self.opponents_meld is None else self.opponents_meld.json(),
            "widow": cards(self.widow),
            "received": cards(self.received),
            "ask": None if self.ask is None else self.ask.letter,
            "after_pass": self.after_pass,
            "bids": [
                {"seat": seat, "bid": high, "passed_at": passed} for seat, high, passed in self.bids
            ],
            "system": [{"seat": seat, **said.json()} for seat, said in self.meanings],
            "description": self.describe(variant),
        }

    def check(self, hand: Hand, variant: Variant) -> None:
        """Raise `KnowledgeError` for what no deal can satisfy, before any dealing."""
        self._check_options(variant)
        self._check_copies(hand, variant)
        self._check_seats(variant)
        self._check_voids(hand, variant)

    def _check_options(self, variant: Variant) -> None:
        if self.widow is not None:
            if not variant.widow:
                raise KnowledgeError(f"--widow: {variant.name} has no widow")
            if len(self.widow) != variant.widow:
                raise KnowledgeError(
                    f"--widow {quote(self.widow.notation())}: {variant.name} has a widow of"
                    f" {variant.widow} cards, got {len(self.widow)}"
                )
        if self.partner_meld is not None and not partner_seats(variant):
            raise KnowledgeError(f"--partner-meld: {variant.name} has no partner")
        passing = variant.passing
        if self.after_pass and passing is None:
            raise KnowledgeError(f"--no-passing: {variant.name} has no card pass to leave out")
        if self.ask is not None and (passing is None or passing.kind != "exchange"):
            raise KnowledgeError(
                f"--ask: {variant.name} has no card exchange, so no suit is asked for"
            )
        if self.ask is not None and self.after_pass and self.received is None:
            raise KnowledgeError("--ask: with --no-passing the exchange is over: nothing to ask")
        if self.received is None:
            return
        if passing is None:
            raise KnowledgeError(f"--received: {variant.name} has no card pass")
        if self.after_pass:
            raise KnowledgeError(
                "--received and --no-passing: the pass cannot be both under way and over"
            )
        if len(self.received) != passing.cards:
            raise KnowledgeError(
                f"--received {quote(self.received.notation())}: {variant.name} passes"
                f" {passing.cards} cards, got {len(self.received)}"
            )
        if passing.kind == "exchange" and self.ask is None:
            raise KnowledgeError(
                "--received under the card exchange needs --ask SUIT: the suit you asked for"
            )

    def _check_copies(self, hand: Hand, variant: Variant) -> None:
        """No card more often than the deck has it: hand, widow and every seat's cards."""
        told = [("your hand", hand)]
        told += [("the widow", self.widow)] if self.widow is not None else []
        told += [(seat_name(variant, s), cards) for s, cards in self.placed(variant).items()]
        for who, cards in told:
            try:
                variant.check_hand(cards)
            except HandError as error:
                raise KnowledgeError(f"{who}: {error}") from None
        try:
            variant.check_together(told, "{card} is told {count} times")
        except HandError as error:
            raise KnowledgeError(str(error)) from None

    def _check_seats(self, variant: Variant) -> None:
        for seat, cards in self.placed(variant).items():
            if len(cards) > variant.hand_size:
                raise KnowledgeError(
                    f"{seat_name(variant, seat)} is told to hold {len(cards)} cards: a"
                    f" {variant.name} hand has {variant.hand_size}"
                )
        self._check_told_voids(variant)
        known = dict(self.known)
        if self._passed_all_of_ask(variant):
            partner = partner_seat(variant)
            extra = [
                card
                for card in known.get(partner, Hand([0] * NUM_CARDS)).cards()
                if card.suit is self.ask and known[partner].count(card) > self.received.count(card)
            ]
            if extra:
                raise KnowledgeError(
                    f"partner passed fewer than {variant.passing.cards} {self.ask.symbol}, so"
                    f" it holds no more, but is known to hold {str(extra[0])!r}"
                )

    def _check_told_voids(self, variant: Variant) -> None:
        """No seat is void in a suit it is known to hold, or (the partner) passed: the
        voids are of the hands as dealt, which held the cards passed."""
        told = [(seat, "is known to hold", cards) for seat, cards in self.known]
        if self.received is not None:
            told.append((partner_seat(variant), "passed you", self.received))
        voids = dict(self.voids)
        for seat, did, cards in told:
            for card in cards.cards():
                if card.suit in voids.get(seat, ()):
                    raise KnowledgeError(
                        f"{seat_name(variant, seat)} has no {card.suit.symbol} but {did}"
                        f" {str(card)!r}"
                    )

    def _check_voids(self, hand: Hand, variant: Variant) -> None:
        """Every group of void suits fits in the places of the seats that may hold it."""
        voids = self.dealt_voids(variant)
        if not voids:
            return
        free, pool = free_places(hand, variant, self), unseen_pool(hand, variant, self)
        suits = list(voids)
        for mask in range(1, 1 << len(suits)):
            group = [suit for i, suit in enumerate(suits) if mask >> i & 1]
            cards = sum(pool[Card(rank, suit).index] for suit in group for rank in RANKS)
            barred = set.intersection(*(voids[suit] for suit in group))
            room = sum(n for seat, n in enumerate(free) if seat not in barred)
            if cards > room:
                names = " and ".join(suit.symbol for suit in group)
                raise KnowledgeError(
                    f"no layout fits the voids: {cards} unseen {names} but {room} places in"
                    " the hands that may hold them"
                )


def free_places(hand: Hand, variant: Variant, knowledge: TableKnowledge) -> list[int]:
    """Places left in each row (0: the bidder, then the seats, then the widow)."""
    free = [0] + [variant.hand_size] * (variant.players - 1)
    free.append(0 if knowledge.widow is not None else variant.widow)
    for seat, cards in knowledge.placed(variant).items():
        free[seat] -= len(cards)
    return free


def unseen_pool(hand: Hand, variant: Variant, knowledge: TableKnowledge) -> list[int]:
    """The copies of each card still to be dealt."""
    pool = [variant.deck.copies_of(card) - hand.count(card) for card in CARDS]
    told = list(knowledge.placed(variant).values())
    told += [knowledge.widow] if knowledge.widow is not None else []
    for cards in told:
        pool = [n - held for n, held in zip(pool, cards.counts)]
    return pool


# --- reading the command line ------------------------------------------------------------


#: An option said at most once: its text, or each time it was given (the command line's
#: repeats, which must agree).
Once = str | Sequence[str] | None


def read_knowledge(
    variant: Variant,
    known: Iterable[str] = (),
    voids: Iterable[str] = (),
    partner_meld: Once = None,
    opponents_meld: Once = None,
    widow: Once = None,
    received: Once = None,
    ask: Once = None,
    after_pass: bool = False,
    me: int = 0,
) -> TableKnowledge:
    """The knowledge the options of `meldcalc bid` give, each value checked as it is read:
    a bad one is a `NotationError` quoting the option and the value, and so is an option
    of one value given again with another. Seats are named as every command names them,
    you sitting in seat ``me``; the knowledge counts them from yours."""
    return TableKnowledge(
        known=_by_seat(_option("--known", text, _seat_cards, variant, me) for text in known),
        voids=_by_seat(_option("--void", text, _seat_suits, variant, me) for text in voids),
        partner_meld=_once("--partner-meld", partner_meld, _range),
        opponents_meld=_once("--opponents-meld", opponents_meld, _range),
        widow=_once("--widow", widow, _cards),
        received=_once("--received", received, _cards),
        ask=_once("--ask", ask, _suit),
        after_pass=after_pass,
    )


def _once(name: str, texts: Once, parse: object) -> object:
    """The one value an option gives, however often it was repeated: repeats must say the
    same (``'40:'`` and ``' 40: '``, ``'AS KS'`` and ``'KS AS'``), else a `NotationError`."""
    if texts is None or isinstance(texts, str):
        return _option(name, texts, parse)
    values = [_option(name, text, parse) for text in texts]
    for text, value in zip(texts[1:], values[1:]):
        if value != values[0]:
            raise NotationError(
                f"{name} given twice: {quote(texts[0])} and {quote(text)}: give it once"
            )
    return values[0] if values else None


def _option(name: str, text: str | None, parse: object, *args: object) -> object:
    """``parse(text, *args)``, its error prefixed by the option; None stays None."""
    if text is None:
        return None
    try:
        return parse(text, *args)
    except NotationError as error:
        raise NotationError(f"{name}: {error}") from None


def _range(text: str) -> MeldRange:
    return MeldRange.parse(text)


def _cards(text: str) -> Hand:
    return Hand.parse(text)


def _suit(text: str) -> Suit:
    from meldcalc.rules.cards import parse_suit

    return parse_suit(text)


def _split_seat(text: str, example: str) -> tuple[str, str]:
    seat, colon, rest = text.partition(":")
    if not colon or not rest.strip():
        raise NotationError(f"{quote(text)}: expected SEAT:{example}")
    return seat, rest


def _seat_cards(text: str, variant: Variant, me: int) -> tuple[int, Hand]:
    seat, cards = _split_seat(text, "CARDS, e.g. partner:'JD QS'")
    return parse_seat(seat, variant, me), Hand.parse(cards)


def _seat_suits(text: str, variant: Variant, me: int) -> tuple[int, tuple[Suit, ...]]:
    seat, suits = _split_seat(text, "SUIT, e.g. left:S")
    parsed = [_suit(token) for token in suits.replace(",", " ").split()]
    return parse_seat(seat, variant, me), tuple(dict.fromkeys(parsed))


def _by_seat(items: Iterable[tuple[int, object]]) -> tuple[tuple[int, object], ...]:
    """One entry a seat, in seat order: cards told twice add up, suits are joined."""
    joined: dict[int, object] = {}
    for seat, value in items:
        if seat not in joined:
            joined[seat] = value
        elif isinstance(value, Hand):
            joined[seat] = joined[seat] + value
        else:
            joined[seat] = tuple(dict.fromkeys((*joined[seat], *value)))
    return tuple(sorted(joined.items(), key=lambda item: item[0]))
