"""What the table has seen that a seat may hold, so that a meld typed for it that cannot be
is refused when typed: cards the deck does not have that many copies of among your hand
and every seat's meld, a seat shown more cards than it holds, a total above what the cards
it may hold can meld (`rules.holdings.most_meld`), never a typo scored."""

from __future__ import annotations

from meldcalc.errors import HandError, MeldcalcError
from meldcalc.game.table import Table
from meldcalc.rules.cards import CARDS, Hand


def mine(table: Table) -> Hand:
    """Your cards at the meld: your hand with the widow (you bid), or as you play it; and
    your other hand as dealt, where each player holds two."""
    counted = table.meld_counted()
    return counted if table.other is None else counted + table.other


def shown(table: Table, seat: int) -> Hand:
    """The least ``seat`` (not yours) holds at the meld, as the table saw it: its meld's
    cards, what you passed it (less what it passed back), and the widow where it bid and the
    widow was turned up (card by card the most of these: one card may be all three)."""
    counts = [0] * len(CARDS)
    for other, _, cards in table.melds:
        if other == seat and cards is not None:
            counts = [max(a, b) for a, b in zip(counts, cards.counts)]
    for text in table.known():
        other, _, cards = text.partition(":")
        if int(other) == seat:
            counts = [max(a, b) for a, b in zip(counts, Hand.parse(cards).counts)]
    if seat == table.bidder and table.widow is not None and not table.takes_widow:
        counts = [max(a, b) for a, b in zip(counts, table.widow.counts)]
    return Hand(counts)


def most_cards(table: Table, seat: int) -> int:
    """The most cards ``seat`` melds from: its deal, and the widow where it bid."""
    widow = table.variant.widow if seat == table.bidder else 0
    return table.variant.hand_size + widow


def check_seen(table: Table) -> None:
    """Refuses a table whose melds cannot be: more copies of a card among your hand and
    the seats' melds than the deck holds, or a seat shown more cards than it holds."""
    holdings = [("your hand", mine(table))]
    for seat in _others(table):
        cards = shown(table, seat)
        if len(cards) > most_cards(table, seat):
            raise HandError(
                f"{table.seat_label(seat)} is shown {len(cards)} cards ({cards.notation()}),"
                f" but it holds {most_cards(table, seat)}"
            )
        if len(cards):
            holdings.append((table.seat_label(seat), cards))
    table.variant.check_together(holdings, "{count} copies of {card} among your hand and the melds")


def most_meld_of(table: Table, seat: int) -> int:
    """The most ``seat`` can meld under trump: the best meld of at most its hand's size of
    the cards it may hold (the deck less yours and what the other seats are shown to
    hold)."""
    from meldcalc.rules.holdings import most_meld

    left = [table.variant.deck.copies_of(card) for card in CARDS]
    # (a widow turned up for another bidder is among what that bidder is shown to hold)
    away = [mine(table), *(shown(table, other) for other in _others(table) if other != seat)]
    for cards in away:
        left = [max(a - b, 0) for a, b in zip(left, cards.counts)]
    return most_meld(table.variant, table.trump, Hand(left), most_cards(table, seat))


def check_total(table: Table, seat: int, total: int) -> None:
    """Refuses a meld total the seat's cards cannot make, saying the most they can."""
    most = most_meld_of(table, seat)
    if total > most:
        raise MeldcalcError(
            f"meld {total}: the most {table.seat_label(seat)} can meld from the cards it may"
            f" hold ({most_cards(table, seat)} of those you have not seen) is {most:,}: a typo?"
        )


def _others(table: Table) -> list[int]:
    return [seat for seat in range(table.players) if not table.yours(seat)]
