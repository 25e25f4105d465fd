"""What the variant's rules beyond the plain game say at the table, step by step
(`meldcalc.game.session` asks): a bid lost on the meld laid down (seed 001's "minimum 20
to score"), the rules' advice to throw the hand in, a simultaneous pass chosen from the
hand held before it, and two hands each (seed 003: you hold your seat's and the one
opposite).

Each asks `meldcalc.rules.scoring` (or the variant) what the rule is; here it is only
said where the table stands.
"""

from __future__ import annotations

from dataclasses import replace

from meldcalc.errors import HandError, MeldcalcError, NotationError
from meldcalc.game.table import Table
from meldcalc.rules.cards import CARDS, Hand, cards_text


def meld_shows(table: Table) -> list[str]:
    """What the meld laid down shows once the bidding side's is all down: the bid lost on
    it, or the rules' advice to throw in; nothing before."""
    from meldcalc.rules.scoring import side_of, throw_in_advice

    side = side_of(table.variant, table.bidder)
    seats = {seat for seat, _, _ in table.melds}
    if any(side_of(table.variant, s) == side and s not in seats for s in range(table.players)):
        return []
    if table.short_of_meld:
        return [f"{_short_of_meld(table)}; lay down the others' meld (0 where none) to score it"]
    advice = throw_in_advice(table.variant, table.contract, table.side_melds()[side])
    return [f"advice: {advice}"] if advice else []


def _short_of_meld(table: Table) -> str:
    from meldcalc.rules.scoring import side_of

    meld = table.side_melds()[side_of(table.variant, table.bidder)]
    return (
        f"the bidding side melds {meld}, under the minimum of {table.variant.meld_minimum},"
        " and loses the bid without play"
    )


def refuse_short_of_meld(table: Table, step: str) -> None:
    """No card (nor trick points) where the meld laid down loses the bid unplayed."""
    if table.short_of_meld:
        raise MeldcalcError(
            f"{step}: {_short_of_meld(table)} (lay down the rest of its meld if it has more,"
            " and the others' meld, 0 where none)"
        )


def not_received(cards: Hand, table: Table) -> None:
    """A simultaneous pass is chosen from the hand held before it (RULES.md "Card
    exchange"): a card passed to you cannot be passed on."""
    if not table.variant.passing.simultaneous or table.got is None:
        return
    before = [held - got for held, got in zip(table.playing.counts, table.got.counts)]
    received = [card for card, n in zip(CARDS, cards.counts) if n > before[card.index]]
    if received:
        held = " and ".join(f"{before[card.index] or 'no'} {card}" for card in received)
        raise MeldcalcError(
            f"give {' '.join(map(str, received))}: passed to you: both pass at once, each"
            " choosing before seeing the cards passed to it, so a card received cannot be"
            f" passed on (before the pass you held {held})"
        )


def hands_typed(table: Table, text: str) -> tuple[Hand, Hand | None]:
    """Your hand as dealt, and where you hold two hands the other one, typed after a
    slash (``hand CARDS / CARDS``): each a full hand, the two within the deck. A card's
    problem is told at its column in the line as typed."""
    variant = table.variant
    two = variant.hands_each > 1
    if two != ("/" in text):
        expected = (
            f"your two hands, yours then your other hand's (seat {table.other_seat}):"
            " hand CARDS / CARDS"
            if two
            else "one hand: hand CARDS"
        )
        raise NotationError(f"hand: {variant.name} deals you {expected}")
    cut = text.find("/")
    parts = [text] if cut < 0 else [text[:cut], " " * (cut + 1) + text[cut + 1 :]]
    hands = [Hand.parse(part) for part in parts]
    for hand in hands:
        variant.check_hand(hand)
        if len(hand) != variant.hand_size:
            raise HandError(
                f"{cards_text(len(hand))}: a {variant.name} hand has {variant.hand_size}"
            )
    if two:
        variant.check_together([("your hand", hands[0]), ("your other hand", hands[1])])
    return hands[0], (hands[1] if two else None)


def other_meld(table: Table) -> tuple[Table, list[str]]:
    """Your other hand's meld, counted from it as yours is (its cards are known already),
    where you hold two hands; the table unchanged where you hold one."""
    from meldcalc.rules.meld import best_meld

    if table.other is None:
        return table, []
    total = best_meld(table.other, table.variant, table.trump).total
    melds = (*table.melds, (table.other_seat, total, None))
    return replace(table, melds=melds), [f"your other hand's meld: {total}"]
