"""A seat's question and its history, checked card by card (for `meldcalc.advice.hint`).

What a seat has seen is a `Query`: its hand as dealt, the trump, who led the first trick,
the cards played in order, the seat asking, the cards seats melded and, with a widow, the
cards it buried or the widow as turned up; `parse_query` reads one from a line of
`hint`'s notation. `hint_table` checks the history as it goes: the seat's own cards against
its hand and the trick rules; another seat's against what it is known to hold, what its
earlier cards showed it lacks and the copies the deck has; and gathers what the table
shows (`History`). A bad token is a `MeldcalcError` naming it, its trick and its seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldcalc.advice.replay import played_card
from meldcalc.errors import HandError, KnowledgeError, NotationError, UnsupportedError, quote
from meldcalc.rules.cards import (
    CARD_NAMES,
    CARDS,
    NUM_CARDS,
    RANKS,
    SUITS,
    Hand,
    Suit,
    parse_suit,
)
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.seats import Seating
from meldcalc.rules.tricks import beats, legal_cards, suit_of, winning_position
from meldcalc.rules.variant import Variant

_PER_SUIT = len(RANKS)


# --- the question ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    """What the seat has seen: its hand as dealt, the trump, who led the first trick, the
    cards played in order (as typed), the seat asking (None: the seat to play) and the
    cards seats melded (``SEAT:CARDS``, as typed: seat names depend on the seat asking)."""

    hand: Hand
    trump: Suit
    leader: int = 0
    played: tuple[str, ...] = ()
    seat: int | None = None
    known: tuple[str, ...] = ()
    #: with a widow: the cards you buried, when you bid (your hand is then the one you
    #: play, the widow taken and these left out); the widow as turned up, when another
    #: seat bid (None: not seen)
    buried: Hand | None = None
    widow: Hand | None = None
    #: the auction, (seat, bid or None for a pass) in the order spoken, if told
    auction: tuple[tuple[int, int | None], ...] = ()

    def text(self) -> str:
        """The line `parse_query` reads back."""
        line = f"{self.hand.notation(self.trump)} | trump {self.trump.letter}"
        line += f" | leader {self.leader} | played {' '.join(self.played)}"
        line += "" if self.seat is None else f" | seat {self.seat}"
        line += "".join(f" | known {known}" for known in self.known)
        for name, cards in (("buried", self.buried), ("widow", self.widow)):
            line += "" if cards is None else f" | {name} {cards.notation(self.trump)}"
        if self.auction:
            line += f" | auction {auction_text(self.auction)}"
        return line


def auction_text(auction: Sequence[tuple[int, int | None]]) -> str:
    """An auction as `parse_query` reads it: ``SEAT:BID`` (or ``SEAT:pass``) in order."""
    return " ".join(f"{seat}:{'pass' if bid is None else bid}" for seat, bid in auction)


def parse_query(
    text: str,
    variant: Variant,
    trump: Suit | None = None,
    leader: int | str = 0,
    played: str = "",
    seat: int | str | None = None,
    known: Sequence[str] = (),
    buried: str | None = None,
    widow: str | None = None,
    auction: str | None = None,
) -> Query:
    """A position of the notation above; a setting in the text overrides its argument
    (``known`` settings add to the ``known`` given). Seats are named as every command
    names them (`rules.seats`): the leader and the known cards' seats also from yours,
    where the seat asking is given. ``auction``: ``SEAT:BID`` or ``SEAT:pass`` in the
    order spoken (`parse_auction`)."""
    hand_text, *settings = text.split("|")
    given: dict[str, str] = {}
    known = list(known)
    for setting in settings:
        key, _, value = setting.strip().partition(" ")
        key, value = key.lower(), value.strip()
        if key == "known":
            known.append(value)
            continue
        if key in given:
            raise NotationError(f"{quote(setting.strip())}: {key} is given twice: give it once")
        given[key] = value
        if key == "trump":
            trump = parse_suit(value)
        elif key == "leader":
            leader = value
        elif key == "seat":
            seat = value
        elif key == "played":
            played = value
        elif key == "buried":
            buried = value
        elif key == "widow":
            widow = value
        elif key == "auction":
            auction = value
        else:
            raise NotationError(
                f"{quote(setting.strip())}: expected '| trump S', '| leader N', '| played"
                " AC 9C ...', '| seat N', '| known SEAT:CARDS', '| buried CARDS', '| widow"
                " CARDS' or '| auction SEAT:BID ...'"
            )
    if trump is None:
        raise NotationError("no trump: give --trump, or '| trump S' after the hand")
    if not hand_text.strip():
        raise NotationError("no hand: give the seat's hand as dealt, e.g. 'AS 10S KS ...'")
    tokens = tuple(played.replace(",", " ").split())
    seat = None if seat is None else _seat_number(seat, variant, "seat", None)
    leader = _seat_number(leader, variant, "leader", seat)
    piles = [None if text is None else Hand.parse(text) for text in (buried, widow)]
    bids = ()
    if auction and auction.strip():
        me = seat
        if me is None and _names_a_seat(auction):  # the seat asking: the one to play next
            cards = [played_card(token, i // variant.players + 1) for i, token in enumerate(tokens)]
            me = turns(cards, leader, trump, variant.players)[1]
        bids = parse_auction(auction, variant, leader, me)
    return Query(Hand.parse(hand_text), trump, leader, tokens, seat, tuple(known), *piles, bids)


#: The most bids an auction told to a hint may hold: every seat raising by the least step
#: from the opening to 1,000 in single deck would be 96; read, an auction is replayed once
#: a bid, so a longer one is refused rather than read in quadratic time.
MAX_AUCTION = 200


def _names_a_seat(auction: str) -> bool:
    """Whether an auction's text names a seat from yours (``left:250``), not by number."""
    return any(
        not is_whole_number(token.partition(":")[0]) for token in auction.replace(",", " ").split()
    )


def reads_auction(variant: Variant) -> bool:
    """Whether a hint reads the auction: the hands are played as they were bid (no widow
    taken, no card passed after it)."""
    return variant.bidding is not None and not variant.widow and variant.passing is None


def parse_auction(
    text: str, variant: Variant, bidder: int, me: int | None
) -> tuple[tuple[int, int | None], ...]:
    """The auction as ``SEAT:BID`` or ``SEAT:pass`` in the order spoken (seats named as
    everywhere: by number, or from the seat asking), checked by the variant's auction
    rules (`rules.auction`): the first seat to speak sits left of the dealer; each seat
    speaks in its turn with a legal bid; the auction is over and ``bidder`` (who led the
    first trick) won it. Only games whose hands are played as they were bid (no widow, no
    card pass) read it: elsewhere the hands changed after the auction."""
    from meldcalc.rules.auction import Auction, AuctionError

    if variant.bidding is None:
        raise NotationError(f"auction: {variant.name} has no auction")
    if not reads_auction(variant):
        changed = "a widow" if variant.widow else "a card pass"
        raise NotationError(
            f"auction: {variant.name} changes the hands after the auction ({changed}), so"
            " the bids say nothing sure of the hands played: give the play without it"
        )
    tokens = text.replace(",", " ").split()
    if len(tokens) > MAX_AUCTION:
        raise NotationError(
            f"auction: {len(tokens):,} bids: an auction of more than {MAX_AUCTION} is not one"
            " a table bid"
        )
    pairs = []
    for token in tokens:
        seat_text, colon, bid_text = token.partition(":")
        if not colon or not seat_text or not bid_text:
            raise NotationError(
                f"auction: {quote(token)}: expected SEAT:BID or SEAT:pass, e.g. 1:250 2:pass"
            )
        pairs.append((_seat_number(seat_text, variant, "auction seat", me), bid_text))
    if not pairs:
        raise NotationError("auction: no bid given: expected SEAT:BID ..., e.g. 1:250 2:pass")
    players = variant.players
    auction = Auction(variant.bidding, players, (pairs[0][0] - 1) % players)
    for number, (seat, bid_text) in enumerate(pairs, 1):
        if auction.to_speak is None:
            raise NotationError(f"auction: bid {number} ({seat}:{bid_text}): the auction was over")
        if seat != auction.to_speak:
            raise NotationError(
                f"auction: bid {number} ({seat}:{bid_text}): seat {auction.to_speak} speaks"
                f" there, not seat {seat}"
            )
        try:
            auction = auction.say(auction.read(bid_text))
        except (AuctionError, NotationError) as error:
            raise NotationError(f"auction: bid {number} ({seat}:{bid_text}): {error}") from None
    if auction.winner != bidder:
        won = "no one won it" if auction.winner is None else f"seat {auction.winner} won it"
        state = "it is not over" if not auction.over else won
        raise NotationError(
            f"auction: {state}; the bidder, seat {bidder}, leads the first trick: give every"
            " bid to the last pass"
        )
    return auction.bids


def _seat_number(value: int | str, variant: Variant, what: str, me: int | None) -> int:
    """A seat given as a number or (``me`` known) named from ``me``'s place."""
    if isinstance(value, int):
        return value
    if me is None and not is_whole_number(value.strip()):
        if what == "seat":  # the seat asking is named by number
            raise NotationError(
                f"seat {quote(value)}: expected a seat from 0 to {variant.players - 1}"
            )
        raise NotationError(
            f"{what} {quote(value)}: a seat from 0 to {variant.players - 1} (a seat named from"
            " yours needs your seat: give --seat N, or '| seat N' on the line)"
        )
    return Seating(variant, me or 0).parse(value, what)


# --- the history, checked -------------------------------------------------------------------


@dataclass
class History:
    """What the history shows, card by card: the seat's own cards, each other seat's cards
    played and melded, the cards each is known to lack (and the trick that showed it)."""

    variant: Variant
    trump: Suit
    seat: int
    dealt: tuple[int, ...]
    mine: list[int]
    played: list[list[int]]
    melded: list[list[int]]
    lacks: list[dict[int, tuple[int, str]]]  # card: the trick that showed it, why
    #: with a widow: the cards out of play the seat knows (its own burial, when it bid),
    #: how many it cannot see (another seat's burial), and the widow as turned up
    out: tuple[int, ...] = (0,) * NUM_CARDS
    hidden: int = 0
    widow: tuple[int, ...] = (0,) * NUM_CARDS
    bidder: int = 0

    def need(self, other: int, card: int) -> int:
        """Copies of ``card`` seat ``other`` was dealt at least: melded or played."""
        return max(self.melded[other][card], self.played[other][card])

    def still_shown(self, other: int) -> list[int]:
        return [max(0, m - p) for m, p in zip(self.melded[other], self.played[other])]

    def dealt_copies(self, card: int) -> int:
        """Copies of ``card`` the history says were dealt: the seat's (with its burial),
        and the others' (the bidder's with the widow turned up)."""
        copies = self.dealt[card] + self.out[card]
        for other in self.others:
            need = self.need(other, card)
            copies += max(need, self.widow[card]) if other == self.bidder else need
        return copies

    def accounted(self, card: int) -> str:
        """Where the copies of ``card`` are: ``your hand 1, seat 2 played 1``."""
        where = [f"seat {self.seat}'s hand {self.dealt[card]}"] if self.dealt[card] else []
        if self.out[card]:
            where.append(f"seat {self.seat} buried {self.out[card]}")
        if self.widow[card]:
            where.append(f"the widow {self.widow[card]}")
        for other in self.others:
            melded, played = self.melded[other][card], self.played[other][card]
            if played:
                where.append(f"seat {other} played {played}")
            if melded > played:
                where.append(f"seat {other} melded {melded}")
        return ", ".join(where)

    @property
    def others(self) -> list[int]:
        return [other for other in range(self.variant.players) if other != self.seat]


def turns(cards: Sequence[int], leader: int, trump: Suit, players: int) -> tuple[list[int], int]:
    """The seat of each card played from ``leader``'s first lead, and the seat to play next."""
    seats, trick = [], []
    for card in cards:
        seats.append((leader + len(trick)) % players)
        trick.append(card)
        if len(trick) == players:
            leader, trick = (leader + winning_position(trick, trump)) % players, []
    return seats, (leader + len(trick)) % players


def hint_table(
    query: Query, variant: Variant, viewer: int | None = None
) -> tuple[History, list[int], int]:
    """The history of ``query`` checked: the table it shows, the cards played (indices) and
    the seat to play next. The hand is the seat asking's, which is the seat to play; with
    ``viewer`` it is that seat's whoever plays next, and the history may be the whole deal
    (a session checking each card as it falls). Raises a `MeldcalcError` naming the token,
    trick and seat at fault."""
    check_variant(variant)
    _check_hand(query.hand, variant)
    players = variant.players
    for option, number in (("--leader", query.leader), ("--seat", query.seat)):
        if number is not None and not 0 <= number < players:
            raise NotationError(f"{option} {number}: a seat from 0 to {players - 1}")
    total, count = players * variant.hand_size, len(query.played)
    if count > total or (count == total and viewer is None):
        raise HandError(
            f"--played holds {count} cards: a {variant.name} deal has {total}, so"
            f" {'it is over' if count == total else 'that is too many'}: nothing to hint"
        )
    cards = [played_card(token, i // players + 1) for i, token in enumerate(query.played)]
    seats, next_seat = turns(cards, query.leader, query.trump, players)
    if query.seat is not None and viewer is None and query.seat != next_seat:
        raise HandError(f"it is seat {next_seat}'s turn, not seat {query.seat}'s")
    owner = next_seat if viewer is None else viewer
    table = History(
        variant,
        query.trump,
        owner,
        query.hand.counts,
        list(query.hand.counts),
        [[0] * NUM_CARDS for _ in range(players)],
        _melded(query, variant, owner),
        [{} for _ in range(players)],
        *_widow_seen(query, variant, owner),
        bidder=query.leader,
    )
    trick: list[int] = []
    for index, (card, seat) in enumerate(zip(cards, seats)):
        number = index // players + 1
        if seat == owner:
            _check_own(table, card, trick, number, query)
        else:
            _check_other(table, seat, card, trick, number)
        if trick:
            for lacked, duty in _learned(card, trick, query.trump, variant).items():
                table.lacks[seat].setdefault(lacked, (number, duty))
        trick = [] if len(trick) == players - 1 else [*trick, card]
    return table, cards, next_seat


def check_variant(variant: Variant) -> None:
    if variant.stock:
        raise UnsupportedError(
            f"hint plays from the hands as dealt: {variant.name}'s stock (cards drawn"
            " during play) is not supported"
        )
    if variant.deck.size != variant.players * variant.hand_size + variant.widow:
        raise UnsupportedError(f"hint needs every card of the {variant.name} deck dealt")


def _widow_seen(
    query: Query, variant: Variant, seat: int
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """What the seat knows of the widow: the cards it buried (it bid), or how many cards
    another seat buried and the widow as turned up (if seen)."""
    none = (0,) * NUM_CARDS
    if not variant.widow:
        for name, cards in (("buried", query.buried), ("widow", query.widow)):
            if cards is not None:
                raise KnowledgeError(f"--{name}: {variant.name} has no widow")
        return none, 0, none
    size, holdings = variant.widow, [("your hand", query.hand)]
    if seat == query.leader:  # the seat bid, took the widow and buried
        if query.buried is None:
            raise KnowledgeError(
                f"you bid (you led trick 1): give the {size} cards you buried (--buried, or"
                " '| buried CARDS'), with your hand as you play it: the widow taken, those"
                " left out"
            )
        if query.widow is not None:
            raise KnowledgeError("--widow: you bid, so the widow is in your hand: leave it out")
        _check_pile("buried", query.buried, size, variant, [*holdings, ("buried", query.buried)])
        return query.buried.counts, 0, none
    if query.buried is not None:
        raise KnowledgeError(
            f"--buried: seat {query.leader} bid (it led trick 1), so its burial is not yours"
            " to give: give the widow as turned up (--widow), if it was"
        )
    if query.widow is None:
        return none, size, none
    _check_pile("widow", query.widow, size, variant, [*holdings, ("the widow", query.widow)])
    return none, size, query.widow.counts


def _check_pile(
    name: str, cards: Hand, size: int, variant: Variant, holdings: list[tuple[str, Hand]]
) -> None:
    if len(cards) != size:
        raise KnowledgeError(
            f"--{name} {quote(cards.notation())}: {variant.name}'s widow has {size} cards,"
            f" got {len(cards)}"
        )
    try:
        variant.check_together(holdings, f"--{name}: {{card}} is held {{count}} times")
    except HandError as error:
        raise KnowledgeError(str(error)) from None


def _check_hand(hand: Hand, variant: Variant) -> None:
    variant.check_hand(hand)
    if len(hand) != variant.hand_size:
        raise HandError(
            f"the hand has {len(hand)} card{'' if len(hand) == 1 else 's'}; {variant.name}"
            f" deals {variant.hand_size}: give"
            " the hand as it was dealt (the cards it has played are taken out)"
        )


def _melded(query: Query, variant: Variant, seat: int) -> list[list[int]]:
    """Per seat, the cards it melded (``known``), checked against the deck and the hand."""
    melded = [[0] * NUM_CARDS for _ in range(variant.players)]
    for text in query.known:
        other, cards = known_cards(text, variant, seat)
        melded[other] = [a + b for a, b in zip(melded[other], cards.counts)]
    holdings = [("your hand", query.hand)]
    for other, counts in enumerate(melded):
        if not any(counts):
            continue
        hand = Hand(counts)
        most = variant.hand_size + (variant.widow if other == query.leader else 0)
        if len(hand) > most:  # the bidder (who leads) melds from its hand and the widow
            raise KnowledgeError(
                f"--known: seat {other} is told to hold {len(hand)} cards: a {variant.name}"
                f" hand has {variant.hand_size}"
                + (f" (the bidder's, with the widow, {most})" if most > variant.hand_size else "")
            )
        holdings.append((f"seat {other}", hand))
    try:
        variant.check_together(holdings, "--known: {card} is held {count} times")
    except HandError as error:
        raise KnowledgeError(str(error)) from None
    return melded


def known_cards(text: str, variant: Variant, seat: int) -> tuple[int, Hand]:
    """``SEAT:CARDS`` of ``--known``: the seat by number, or named from ``seat``'s place."""
    name, colon, cards = text.partition(":")
    if not colon or not cards.strip():
        raise NotationError(f"--known {quote(text)}: expected SEAT:CARDS, e.g. 2:'JD QS'")
    other = Seating(variant, seat).parse(name, f"--known {quote(text)}: seat")
    if other == seat:
        raise KnowledgeError(
            f"--known {quote(text)}: seat {seat} is the seat asking: its cards are the hand"
        )
    try:
        hand = Hand.parse(cards)
        variant.check_hand(hand)
    except (NotationError, HandError) as error:
        raise type(error)(f"--known {quote(text)}: {error}") from None
    return other, hand


def _check_own(table: History, card: int, trick: list[int], number: int, query: Query) -> None:
    name, seat = CARD_NAMES[card], table.seat
    if not table.mine[card]:
        if not query.hand.counts[card]:
            raise HandError(
                f"trick {number}: seat {seat} plays {name}, which is not in its hand as dealt"
                f" ({query.hand.notation(table.trump)})"
                + (
                    f"; HAND is taken as seat {seat}'s, the seat to play next"
                    if query.seat is None
                    else ""
                )
            )
        left = Hand(table.mine).notation(table.trump) or "nothing"
        raise HandError(
            f"trick {number}: seat {seat} plays {name} again: it has played its"
            f" {query.hand.counts[card]} and holds {left}"
        )
    variant = table.variant
    allowed = legal_cards(table.mine, trick, table.trump, variant.head, variant.overtrump)
    if card not in allowed:
        raise HandError(_illegal(number, seat, card, trick, allowed, table.trump, ""))
    table.mine[card] -= 1


def _check_other(table: History, seat: int, card: int, trick: list[int], number: int) -> None:
    variant, name = table.variant, CARD_NAMES[card]
    if card in table.lacks[seat]:
        shown, duty = table.lacks[seat][card]
        raise HandError(
            f"trick {number}: seat {seat} plays {name}, but at trick {shown} it did not {duty}"
        )
    held = table.still_shown(seat)  # the least it may hold: its meld not yet played
    held[card] += 1
    allowed = legal_cards(held, trick, table.trump, variant.head, variant.overtrump)
    if card not in allowed:
        melded = Hand(table.still_shown(seat)).notation(table.trump)
        raise HandError(
            _illegal(number, seat, card, trick, allowed, table.trump, f" (it melded {melded})")
        )
    table.played[seat][card] += 1
    copies = variant.deck.copies_of(CARDS[card])
    if not copies:
        raise HandError(
            f"trick {number}: seat {seat} plays {name}, which the {variant.name} deck does not have"
        )
    if table.dealt_copies(card) > copies:
        raise HandError(
            f"trick {number}: seat {seat} plays {name}, but the {variant.name} deck's"
            f" {copies} {name} are all accounted for ({table.accounted(card)})"
        )


def _learned(card: int, trick: list[int], trump: Suit, variant: Variant) -> dict[int, str]:
    """What a follower's ``card`` shows it lacks, each card with the reason (as
    `meldcalc.engines.simulate.Game` learns it: RULES.md "Trick play")."""
    led, best = suit_of(trick[0]), trick[winning_position(trick, trump)]
    suit, best_suit, trumps = suit_of(card), suit_of(best), trump.index
    lacks: dict[int, str] = {}
    higher = [c for c in _suit_cards(best_suit) if c < best]
    above = f"beat {CARD_NAMES[best]} where the rules made it, so it held nothing above it"
    if suit != led:
        symbol = SUITS[led].symbol
        lacks.update(dict.fromkeys(_suit_cards(led), f"follow {symbol}, so it held no {symbol}"))
        if suit != trumps:
            lacks.update(dict.fromkeys(_suit_cards(trumps), "trump, so it held no trump"))
        elif variant.overtrump and best_suit == trumps and not beats(card, best, trumps):
            lacks.update(dict.fromkeys(higher, above))
    elif (
        best_suit == led
        and not beats(card, best, trumps)
        and _must_head(led, best_suit, trump, variant)
    ):
        lacks.update(dict.fromkeys(higher, above))
    return lacks


def _must_head(led: int, best_suit: int, trump: Suit, variant: Variant) -> bool:
    if variant.head == "always":
        return best_suit != trump.index or led == trump.index  # not once trumped
    return variant.head == "trump-led" and led == trump.index


def _suit_cards(suit: int) -> range:
    return range(suit * _PER_SUIT, (suit + 1) * _PER_SUIT)


def _illegal(
    number: int, seat: int, card: int, trick: list[int], allowed: list[int], trump: Suit, why: str
) -> str:
    led, winner = suit_of(trick[0]), trick[winning_position(trick, trump)]
    if all(suit_of(option) == led for option in allowed):
        symbol = SUITS[led].symbol
        duty = f"beat {CARD_NAMES[winner]}" if suit_of(card) == led else f"follow {symbol}"
    elif suit_of(card) == trump.index:
        duty = f"over-trump {CARD_NAMES[winner]}"
    else:
        duty = "trump"
    options = " ".join(CARD_NAMES[option] for option in allowed)
    name = CARD_NAMES[card]
    return f"trick {number}: seat {seat} may not play {name}{why}: it had to {duty}: {options}"
