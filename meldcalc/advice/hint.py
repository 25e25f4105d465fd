"""A seat's view during play: the reference player's decision, from what the seat has seen.

At a real table a player sees one hand, the meld laid down and the cards played. `hint`
takes just that: the seat's hand as dealt, the cards played in order from the first lead,
who led, and the cards each seat melded. It checks the history as it goes (the seat's own
cards against its hand and the trick rules; another seat's against what it is known to
hold, what its earlier cards showed it lacks and the copies the deck has), replays it into
a `meldcalc.engines.simulate.Game`, so that what the play shows (voids, no higher card) is inferred
as in the simulation, and asks `meldcalc.engines.reference.Reference` for the value of each legal
card in layouts of the unseen cards drawn uniformly among those that fit all of it.

A value is the trick points the seat's side takes from the current trick on (its cards on
the table included), the mean over the layouts with its standard error; cards are also
compared with the best one on the same layouts (a paired difference, far less noisy).

One position a line, the hand then settings, as `meldcalc review` writes a deal::

    HAND | trump S | leader 0 | played AC 9C KC JC 10H | seat 1 | known 2:JD QS

Seats are numbered in playing order from 0, as everywhere; in ``known`` they may also be
named from the seat's place: ``left`` (the next to play), ``partner``, ``right``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from meldcalc.advice.replay import played_card
from meldcalc.dealing.unseen import sample_layouts
from meldcalc.engines.reference import EXACT_FROM, Reference, seen_by
from meldcalc.engines.simulate import Game, Table
from meldcalc.engines.solve import counter_of, rules_of, seat_sides, solver_available
from meldcalc.errors import HandError, KnowledgeError, NotationError, UnsupportedError, quote
from meldcalc.rules.bits import BIT_OF, planes_from_counts
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

#: Layouts drawn by default. In single deck 1,000 take 0.2-0.3 s on a whole deal (the
#: median of ten seeded deals, bench/hint.py: each of 12 cards played out in every layout)
#: and give standard errors under a point, about half a point on the gap between two
#: cards; at 6 tricks left, where values become exact, about 1 s (up to 4 s), then less.
LAYOUTS = 1000
MAX_LAYOUTS = 100_000

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

    def text(self) -> str:
        """The line `parse_query` reads back."""
        line = f"{self.hand.notation(self.trump)} | trump {self.trump.letter}"
        line += f" | leader {self.leader} | played {' '.join(self.played)}"
        line += "" if self.seat is None else f" | seat {self.seat}"
        return line + "".join(f" | known {known}" for known in self.known)


def parse_query(
    text: str,
    variant: Variant,
    trump: Suit | None = None,
    leader: int | str = 0,
    played: str = "",
    seat: int | str | None = None,
    known: Sequence[str] = (),
) -> Query:
    """A position of the notation above; a setting in the text overrides its argument
    (``known`` settings add to the ``known`` given). Seats are named as every command
    names them (`rules.seats`): the leader and the known cards' seats also from yours,
    where the seat asking is given."""
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
        else:
            raise NotationError(
                f"{quote(setting.strip())}: expected '| trump S', '| leader N', '| played"
                " AC 9C ...', '| seat N' or '| known SEAT:CARDS'"
            )
    if trump is None:
        raise NotationError("no trump: give --trump, or '| trump S' after the hand")
    if not hand_text.strip():
        raise NotationError("no hand: give the seat's hand as dealt, e.g. 'AS 10S KS ...'")
    tokens = tuple(played.replace(",", " ").split())
    seat = None if seat is None else _seat_number(seat, variant, "seat", None)
    leader = _seat_number(leader, variant, "leader", seat)
    return Query(Hand.parse(hand_text), trump, leader, tokens, seat, tuple(known))


def _seat_number(value: int | str, variant: Variant, what: str, me: int | None) -> int:
    """A seat given as a number or (``me`` known) named from ``me``'s place."""
    if isinstance(value, int):
        return value
    if me is None and not is_whole_number(value.strip()):
        raise NotationError(
            f"{what} {quote(value)}: a seat from 0 to {variant.players - 1} (a seat named from"
            " yours needs your seat: give '| seat N' or --seat)"
        )
    return Seating(variant, me or 0).parse(value, what)


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

    @property
    def best(self) -> CardValue:
        return self.cards[0]

    @property
    def method(self) -> str:
        return "exact" if self.exact else "roll-out"


def side_seats(variant: Variant, seat: int, bidder: int = 0) -> list[int]:
    sides = seat_sides(variant, bidder)
    return [other for other, side in enumerate(sides) if side == sides[seat]]


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

    def need(self, other: int, card: int) -> int:
        """Copies of ``card`` seat ``other`` was dealt at least: melded or played."""
        return max(self.melded[other][card], self.played[other][card])

    def still_shown(self, other: int) -> list[int]:
        return [max(0, m - p) for m, p in zip(self.melded[other], self.played[other])]

    def dealt_copies(self, card: int) -> int:
        """Copies of ``card`` the history says were dealt: the seat's, and the others'."""
        return self.dealt[card] + sum(self.need(other, card) for other in self.others)

    def accounted(self, card: int) -> str:
        """Where the copies of ``card`` are: ``your hand 1, seat 2 played 1``."""
        where = [f"seat {self.seat}'s hand {self.dealt[card]}"] if self.dealt[card] else []
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
    _check_variant(variant)
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


def _check_variant(variant: Variant) -> None:
    if variant.widow or variant.stock:
        pile = "widow" if variant.widow else "stock"
        raise UnsupportedError(
            f"hint plays from the hands as dealt: {variant.name}'s {pile} (cards no seat"
            " plays from the start) is not supported"
        )
    if variant.deck.size != variant.players * variant.hand_size:
        raise UnsupportedError(f"hint needs every card of the {variant.name} deck dealt")


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
        other, cards = _known_cards(text, variant, seat)
        melded[other] = [a + b for a, b in zip(melded[other], cards.counts)]
    holdings = [("your hand", query.hand)]
    for other, counts in enumerate(melded):
        if not any(counts):
            continue
        hand = Hand(counts)
        if len(hand) > variant.hand_size:
            raise KnowledgeError(
                f"--known: seat {other} is told to hold {len(hand)} cards: a {variant.name}"
                f" hand has {variant.hand_size}"
            )
        holdings.append((f"seat {other}", hand))
    try:
        variant.check_together(holdings, "--known: {card} is held {count} times")
    except HandError as error:
        raise KnowledgeError(str(error)) from None
    return melded


def _known_cards(text: str, variant: Variant, seat: int) -> tuple[int, Hand]:
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


# --- the decision ---------------------------------------------------------------------------


def hint(query: Query, variant: Variant, layouts: int = LAYOUTS, seed: int = 0) -> Hint:
    """The reference player's values of each legal card of the seat to play, over
    ``layouts`` layouts of the unseen cards that fit what it has seen (seeded)."""
    table, cards, seat = hint_table(query, variant)
    if query.leader and not _paired(variant):
        return _rotated_hint(query, variant, seat, layouts, seed)
    game = replayed_game(table, cards, query)
    assert int(game.seat[0]) == seat, "the game and the history disagree on the seat to play"
    try:
        sample_layouts(seen_by(game, 0), 1, np.random.default_rng(0))
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
    player = Reference(variant, layouts, exact_from, seed)
    [(options, values)] = player.layout_values(game, np.array([0]))
    points_left = _points_left(variant, cards)
    if seat_sides(variant)[seat] != 0:
        values = points_left - values
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
        shown=_shown(table),
        lacks=_lacks(table),
        cards=_ranked(options, values),
        not_exact=not_exact,
    )


def _paired(variant: Variant) -> bool:
    """Whether partners sit opposite: the sides are the even and the odd seats, whoever bid."""
    return variant.partnerships and variant.players % 2 == 0


def _rotated_hint(query: Query, variant: Variant, seat: int, layouts: int, seed: int) -> Hint:
    """Where each plays for himself, the bidder (who led trick 1) plays alone against the
    rest: the engines seat the bidder in seat 0, so the position is turned to put it there,
    hinted, and its seats turned back."""
    players, shift = variant.players, query.leader
    known = []
    for text in query.known:
        other, cards = _known_cards(text, variant, seat)
        known.append(f"{(other - shift) % players}:{cards.notation()}")
    turned = Query(query.hand, query.trump, 0, query.played, (seat - shift) % players, tuple(known))
    found = hint(turned, variant, layouts, seed)

    def back(other: int) -> int:
        return (other + shift) % players

    return replace(
        found,
        bidder=shift,
        seat=back(found.seat),
        on_table=tuple((back(s), card) for s, card in found.on_table),
        shown=tuple((back(s), cards) for s, cards in found.shown),
        lacks=tuple((back(s), cards) for s, cards in found.lacks),
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


def replayed_game(table: History, cards: list[int], query: Query) -> Game:
    """A one-deal `Game` of a deal that fits the history (the seat's hand, each other
    seat's melded and played cards, the rest anywhere: the reference reads of the others'
    hands only what the table shows), with the history played into it."""
    variant = table.variant
    counts = np.array(_a_deal(table), dtype=np.int64)[None]
    shown = planes_from_counts(np.array(table.melded, dtype=np.int64)[None], variant.deck.copies)
    rules = Table.of(variant, query.trump)
    game = Game.from_counts(rules, counts, variant.deck.copies, leader=query.leader, shown=shown)
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
        variant.deck.copies_of(card) - sum(hand[i] for hand in hands)
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


def _ranked(options: np.ndarray, values: np.ndarray) -> tuple[CardValue, ...]:
    """Each card's mean and standard error, and its distance behind the best on the same
    layouts; best first, and of equal means the one the reference plays first (the last
    of its options: the lowest rank)."""
    means = values.mean(axis=1)
    order = sorted(range(len(options)), key=lambda i: (-means[i], -i))
    best = values[order[0]]
    return tuple(
        CardValue(
            CARD_NAMES[options[i]],
            float(means[i]),
            _se(values[i]),
            float(means[order[0]] - means[i]),
            _se(best - values[i]),
        )
        for i in order
    )


def _se(sample: np.ndarray) -> float:
    return float(np.std(sample, ddof=1) / np.sqrt(len(sample))) if len(sample) > 1 else 0.0
