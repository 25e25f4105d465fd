"""A deal as it was really played: the hands, the trump, who led and the cards in order,
replayed under the trick rules, every card checked, into a `PlayedDeal` to review.

The notation is the solver's position with one more setting, the cards as played::

    AS 10S ... / KS QS ... / ... / ... | trump S | leader 0 | played AC 9C KC JC 10H ...

A deal may stop part way: what was played is what is reviewed. ``play --deal ... -f json``
writes a played deal that `played_line` turns back into this notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meldcalc.advice.played import PlayedDeal, Trick
from meldcalc.engines.solve import parse_position
from meldcalc.errors import HandError, NotationError, quote
from meldcalc.rules.cards import CARD_NAMES, CARDS, NUM_CARDS, Hand, Suit, parse_card
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Variant


def parse_played(
    text: str, variant: Variant, trump: Suit | None = None, leader: int = 0
) -> PlayedDeal:
    """The deal of one line of the notation above, replayed card by card."""
    settings = text.split("|")
    played = [part for part in settings if part.strip().lower().startswith("played")]
    if len(played) > 1:
        raise NotationError("'| played' is given twice: give the cards played once")
    if any(part.strip().lower().startswith("trick") for part in settings[1:]):
        # before the position is read: solve's checks of a trick would advise the other way
        raise NotationError("'| trick' is for solve: give every card played with '| played'")
    rest = "|".join(part for part in settings if part not in played)
    said = "'| trump S', '| leader N' or '| played AS KS QS JS ...'"
    position = parse_position(rest, variant, trump, leader, settings_said=said)
    cards = played[0].strip()[len("played") :].replace(",", " ").split() if played else []
    return replay(position.hands, variant, position.trump, position.leader, cards)


def replay(
    hands: Sequence[Hand], variant: Variant, trump: Suit, leader: int, cards: Sequence[str]
) -> PlayedDeal:
    """Play ``cards`` (names, in the order played) from ``hands``, ``leader`` leading the
    first trick; each must be a card its seat holds and may play. Raises `HandError`
    naming the trick, the seat and the card, and what that seat had to play instead."""
    players = variant.players
    held = [list(hand.counts) for hand in hands]
    if len({len(hand) for hand in hands}) != 1:
        raise HandError("a deal begins with hands of equal size: give each seat's whole hand")
    tricks: list[Trick] = []
    on_table: list[tuple[int, int]] = []
    for token in cards:
        number = len(tricks) + 1
        seat = (leader + len(on_table)) % players
        card = played_card(token, number)
        if not any(held[seat]):
            raise HandError(f"trick {number}: {quote(token)}: every card has been played")
        table = [card for _, card in on_table]
        allowed = legal_cards(held[seat], table, trump, variant.head, variant.overtrump)
        if card not in allowed:
            raise HandError(_illegal(number, seat, card, held[seat], allowed))
        held[seat][card] -= 1
        on_table.append((seat, card))
        if len(on_table) == players:
            tricks.append(_trick(on_table, trump, variant, last=not any(held[0])))
            leader, on_table = tricks[-1].winner, []
    if on_table:  # a deal stopped part way through a trick: no one has won it yet
        tricks.append(Trick(on_table[0][0], _named(on_table), -1, 0))
    return _deal(hands, variant, trump, tricks)


def played_card(token: str, trick: int) -> int:
    """The card index of a played ``token``; a bad one is named with its trick."""
    try:
        return parse_card(token).index
    except NotationError as error:
        raise NotationError(f"trick {trick}: {error}") from None


def _illegal(trick: int, seat: int, card: int, held: Sequence[int], allowed: list[int]) -> str:
    name = CARD_NAMES[card]
    if not held[card]:
        hand = Hand(held).notation()
        return f"trick {trick}: seat {seat} plays {name}, which it does not hold (it holds {hand})"
    options = " ".join(CARD_NAMES[option] for option in allowed)
    return (
        f"trick {trick}: seat {seat} may not play {name}: the rules of the trick leave it {options}"
    )


def _named(plays: list[tuple[int, int]]) -> tuple[tuple[int, str], ...]:
    return tuple((seat, CARD_NAMES[card]) for seat, card in plays)


def _trick(plays: list[tuple[int, int]], trump: Suit, variant: Variant, last: bool) -> Trick:
    cards = [card for _, card in plays]
    winner = plays[winning_position(cards, trump)][0]
    points = sum(variant.counters.get(CARDS[card].rank, 0) for card in cards)
    return Trick(plays[0][0], _named(plays), winner, points + (variant.last_trick if last else 0))


def _deal(hands: Sequence[Hand], variant: Variant, trump: Suit, tricks: list[Trick]) -> PlayedDeal:
    from meldcalc.engines.solve import seat_sides

    sides = seat_sides(variant)
    ours = sum(trick.points for trick in tricks if trick.winner >= 0 and sides[trick.winner] == 0)
    theirs = sum(trick.points for trick in tricks if trick.winner >= 0) - ours
    empty = Hand([0] * NUM_CARDS)
    return PlayedDeal(trump, tuple(hands), empty, empty, tuple(tricks), (ours, theirs))


def played_line(record: dict[str, Any]) -> str:
    """The review notation of a deal as ``play -f json`` writes it (``seats``, ``trump``,
    ``tricks``), to review what was played, or to replay it with other cards. A record of
    another shape (two-handed's, with its stock) is a `NotationError` saying so."""
    if not all(key in record for key in ("seats", "trump", "tricks")):
        raise NotationError(
            "played_line reads 'play -f json' records with seats, trump and tricks (not"
            " two-handed's: its deal draws from a stock, which a review cannot replay)"
        )
    hands = " / ".join(" ".join(seat["hand"]) for seat in record["seats"])
    cards = " ".join(play["card"] for trick in record["tricks"] for play in trick["cards"])
    leader = record["tricks"][0]["leader"] if record["tricks"] else 0
    return f"{hands} | trump {record['trump']} | leader {leader} | played {cards}"
