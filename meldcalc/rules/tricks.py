"""The trick rules of RULES.md "Trick play", card by card (the reference implementation).

Cards are indices 0..23 (suit-major, ranks high to low), hands are per-card counts. A trick
is the list of cards played so far, the leader's first. The variant decides two duties:
``head`` (``always``, ``trump-led``, ``never``: when a follower must beat the winning card)
and ``overtrump`` (whether a void player must beat the highest trump so far).
"""

from __future__ import annotations

from collections.abc import Sequence

from meldcalc.rules.cards import RANKS, Suit

_PER_SUIT = len(RANKS)


def suit_of(card: int) -> int:
    return card // _PER_SUIT


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` played after ``best`` takes the lead of the trick from it."""
    if suit_of(card) == suit_of(best):
        return card < best  # lower index = higher rank; an identical card does not beat
    return suit_of(card) == trump


def winning_position(trick: Sequence[int], trump: Suit) -> int:
    """The position in ``trick`` of the card winning it: highest trump, else highest of the
    led suit; of identical cards the first played."""
    best = 0
    for position in range(1, len(trick)):
        if beats(trick[position], trick[best], trump.index):
            best = position
    return best


def legal_cards(
    counts: Sequence[int],
    trick: Sequence[int],
    trump: Suit,
    head: str = "always",
    overtrump: bool = True,
) -> list[int]:
    """The distinct cards the player holding ``counts`` may play to ``trick``."""
    held = [card for card, count in enumerate(counts) if count]
    if not trick:
        return held
    trump_suit, led = trump.index, suit_of(trick[0])
    winner = trick[winning_position(trick, trump)]
    trumped = suit_of(winner) == trump_suit and led != trump_suit
    following = [card for card in held if suit_of(card) == led]
    if following:
        must_head = head == "always" or (head == "trump-led" and led == trump_suit)
        if must_head and not trumped:
            return [card for card in following if card < winner] or following
        return following
    trumps = [card for card in held if suit_of(card) == trump_suit]
    if not trumps:
        return held
    if overtrump and suit_of(winner) == trump_suit:
        return [card for card in trumps if card < winner] or trumps
    return trumps
