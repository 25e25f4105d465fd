"""Questions on the play: which cards may be played to a trick and why, and the trick
points of a trick or of a side's tricks.

Positions come from a deal played out at random by the trick rules themselves
(`rules.tricks.legal_cards` for every card, `winning_position` for every lead), so every
trick shown could have happened. Which cards may be played is always the rules' answer;
*why* a card may not is found by asking them again with one duty lifted (heading,
over-trumping), never by deciding legality here.

Themes: ``heading`` (you hold the led suit: follow, and beat the winning card unless the
trick is trumped), ``void`` (you hold none: trump, over-trump), ``counters`` (the points of
one trick), ``last-trick`` (the points of a side's tricks, with or without the last).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from meldcalc.dealing.deal import deal
from meldcalc.errors import HandError
from meldcalc.learning.question import (
    NumberQuestion,
    Question,
    plural,
    pretty,
    pretty_cards,
    read_cards,
)
from meldcalc.rules.cards import CARDS, RANKS, SUITS, Hand, Rank, Suit
from meldcalc.rules.tricks import beats, legal_cards, suit_of, winning_position
from meldcalc.rules.variant import Variant

#: Positions dealt before a theme is given up for this question.
TRIES = 400
#: The most distinct cards a right answer lists: more is typing, not learning.
MOST_LISTED = 6


@dataclass(frozen=True)
class Position:
    """A trick under way: the seats' hands, the trick so far, whose turn it is."""

    hands: tuple[list[int], ...]
    trick: tuple[int, ...]
    leader: int
    trump: Suit

    @property
    def seat(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def held(self) -> list[int]:
        return self.hands[self.seat]


def _legal(variant: Variant, position: Position, **lifted: object) -> list[int]:
    """The rules' answer; ``lifted`` changes one duty (``head="never"``,
    ``overtrump=False``) to learn which duty rules a card out."""
    head = lifted.get("head", variant.head)
    overtrump = lifted.get("overtrump", variant.overtrump)
    return legal_cards(position.held, position.trick, position.trump, head, overtrump)


def positions(variant: Variant, rng: random.Random) -> Iterator[Position]:
    """Tricks under way in deals played at random by the rules: a deal, some whole tricks
    played, then part of a trick (each card chosen among the legal ones)."""
    while True:
        dealt = deal(variant, rng)
        hands = tuple(list(hand.counts) for hand in dealt.hands)
        trump = rng.choice(SUITS) if dealt.turn_up is None else dealt.turn_up.suit
        leader = rng.randrange(variant.players)
        for _ in range(rng.randrange(max(variant.hand_size - 2, 1))):
            trick = _play(variant, hands, leader, trump, variant.players, rng)
            leader = (leader + winning_position(trick, trump)) % variant.players
        trick = _play(variant, hands, leader, trump, rng.randrange(1, variant.players), rng)
        yield Position(hands, tuple(trick), leader, trump)


def _play(
    variant: Variant,
    hands: tuple[list[int], ...],
    leader: int,
    trump: Suit,
    cards: int,
    rng: random.Random,
) -> list[int]:
    trick: list[int] = []
    for step in range(cards):
        held = hands[(leader + step) % len(hands)]
        card = rng.choice(legal_cards(held, trick, trump, variant.head, variant.overtrump))
        held[card] -= 1
        trick.append(card)
    return trick


def _words(cards: Sequence[int]) -> str:
    return pretty_cards([CARDS[card] for card in sorted(set(cards))])


def _suit_cards(held: Sequence[int], suit: int) -> list[int]:
    return [card for card, count in enumerate(held) if count and suit_of(card) == suit]


# --- which cards may be played ----------------------------------------------------------------


@dataclass(frozen=True)
class PlayQuestion(Question):
    variant: Variant | None = None
    position: Position | None = None
    legal: frozenset[int] = frozenset()

    def read(self, text: str) -> frozenset[int]:
        cards = read_cards(text)
        held = self.position.held
        missing = [CARDS[card] for card, n in enumerate(cards.counts) if n and not held[card]]
        if missing:
            raise HandError(f"{pretty_cards(missing)}: not in your hand")
        return frozenset(card for card, n in enumerate(cards.counts) if n)

    def is_right(self, answer: frozenset[int]) -> bool:
        return answer == self.legal

    def right_answer(self) -> str:
        return _words(self.legal)

    def why(self, answer: frozenset[int]) -> str | None:
        extra = sorted(answer - self.legal)
        if extra:
            return _not_allowed(self.variant, self.position, extra[0]) + "."
        missing = sorted(self.legal - answer)
        if missing:
            return f"{pretty(CARDS[missing[0]])} may be played too: {self.rule()}."
        return None

    def rule(self) -> str:
        return play_rule(self.variant, self.position)

    def explanation(self) -> list[str]:
        trick, trump = self.position.trick, self.position.trump
        winner = CARDS[trick[winning_position(trick, trump)]]
        return [f"{pretty(winner)} wins the trick so far; {self.rule()}."]


def _winner(position: Position) -> int:
    return position.trick[winning_position(position.trick, position.trump)]


def _beaters(legal: Sequence[int], winner: int) -> str:
    cards = _words(legal)
    verb = "beats" if len(set(legal)) == 1 else "beat"
    return f"{cards} {verb} {pretty(CARDS[winner])}"


def _not_allowed(variant: Variant, position: Position, card: int) -> str:
    """Why ``card`` may not be played: the duty that rules it out."""
    legal, winner = _legal(variant, position), _winner(position)
    shown = pretty(CARDS[card])
    if card in _legal(variant, position, head="never"):
        return f"you must head the trick: {_beaters(legal, winner)}; {shown} does not"
    if card in _legal(variant, position, overtrump=False):
        return f"you must over-trump: {_beaters(legal, winner)}; {shown} does not"
    led = suit_of(position.trick[0])
    following = _suit_cards(position.held, led)
    suit = SUITS[led].symbol
    if following:
        return f"you must follow suit: {suit} was led and you hold {_words(following)}"
    trumps = _suit_cards(position.held, position.trump.index)
    return f"you have no {suit}: you must play a trump ({_words(trumps)})"


def play_rule(variant: Variant, position: Position) -> str:
    """The duty that decides this turn, in words, as the rules applied it."""
    legal, winner = _legal(variant, position), _winner(position)
    led, trump = suit_of(position.trick[0]), position.trump
    suit, won = SUITS[led].symbol, pretty(CARDS[winner])
    beating = [card for card in legal if beats(card, winner, trump.index)]
    if _suit_cards(position.held, led):
        if legal != _legal(variant, position, head="never"):
            return f"{suit} was led: follow suit and head the trick ({_beaters(beating, winner)})"
        if suit_of(winner) == trump.index and led != trump.index:
            return f"{suit} was led and {won} trumped it: follow suit, any {suit} will do"
        if variant.head == "never" or (variant.head == "trump-led" and led != trump.index):
            return f"{suit} was led: follow suit; this variant asks no heading here"
        if beating:
            return f"{suit} was led: follow suit; every {suit} of yours beats {won}"
        return f"{suit} was led: follow suit; none of yours beats {won}, so any {suit}"
    if not _suit_cards(position.held, trump.index):
        return f"you have neither {suit} nor trump: any card"
    if suit_of(winner) == trump.index and beating and variant.overtrump:
        return f"you have no {suit}: play a trump and over-trump ({_beaters(beating, winner)})"
    if suit_of(winner) == trump.index and variant.overtrump:
        return f"you have no {suit}: play a trump; none of yours beats {won}, so any trump"
    return f"you have no {suit}: play a trump"


def _fits(variant: Variant, position: Position, theme: str) -> bool:
    """A position that teaches ``theme``: some card held may not be played, and the duty
    the theme names decides which."""
    held = [card for card, n in enumerate(position.held) if n]
    legal = _legal(variant, position)
    if not 1 <= len(legal) <= MOST_LISTED or len(legal) == len(held):
        return False
    led = _suit_cards(position.held, suit_of(position.trick[0]))
    if theme == "heading":
        trumped = suit_of(_winner(position)) == position.trump.index
        headed = legal != _legal(variant, position, head="never")
        return len(led) > 1 and (headed or trumped)
    return not led and bool(_suit_cards(position.held, position.trump.index))


def play_question(variant: Variant, theme: str, rng: random.Random) -> PlayQuestion | None:
    found = _first(positions(variant, rng), lambda p: _fits(variant, p, theme))
    if found is None:
        return None
    legal = frozenset(_legal(variant, found))
    lifted = len({*_legal(variant, found, head="never"), *_legal(variant, found, overtrump=False)})
    rating = 900 + 120 * (lifted > len(legal)) + 40 * len(legal) + 20 * len(found.trick)
    seats = len(found.hands)
    played = ", ".join(
        f"{pretty(CARDS[card])} (seat {(found.leader + i) % seats})"
        for i, card in enumerate(found.trick)
    )
    held = Hand(found.held).notation(found.trump)
    lines = (
        f"trump {found.trump.letter} {found.trump.symbol}; you are seat {found.seat}",
        f"  the trick so far: {played}",
        f"  your hand: {held}",
    )
    return PlayQuestion(
        "play", theme, rating, lines, "which cards may you play? ", variant, found, legal
    )


def _first(candidates: Iterator[Position], test: object) -> Position | None:
    for _, position in zip(range(TRIES), candidates):
        if test(position):  # type: ignore[operator]
            return position
    return None


# --- trick points ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TricksQuestion(NumberQuestion):
    variant: Variant | None = None
    cards: tuple[int, ...] = ()
    last: bool = False

    example = "25"

    @property
    def number(self) -> int:
        """The trick points of the cards (and the last trick's)."""
        counted = sum(self.variant.counters.get(CARDS[card].rank, 0) for card in self.cards)
        return counted + (self.variant.last_trick if self.last else 0)

    def why(self, answer: int) -> str | None:
        return trick_mistake(self.variant, self.cards, self.last, answer - self.number)

    def explanation(self) -> list[str]:
        parts = []
        for rank in RANKS:
            cards = [card for card in self.cards if CARDS[card].rank is rank]
            value = self.variant.counters.get(rank, 0)
            if cards and value:
                parts.append(f"{plural(len(cards), rank.value)} × {value} = {len(cards) * value}")
        if self.last:
            parts.append(f"last trick {self.variant.last_trick}")
        counters = ", ".join(
            f"{rank.value} {points}" for rank, points in self.variant.counters.items() if points
        )
        said = "; ".join(parts) or "no counter"
        return [f"{said}: {self.number} (counters here: {counters}; the rest count nothing)."]


@cache
def other_values() -> dict[Rank, tuple[int, ...]]:
    """The values the shipped variants give each rank in tricks: what a player used to
    another table may count (a king 10, 5, 4 or 1; a queen 3)."""
    from meldcalc.rules.loading import load_variant, shipped_names

    found: dict[Rank, set[int]] = {}
    for name in shipped_names():
        for rank, points in load_variant(name).counters.items():
            found.setdefault(rank, set()).add(points)
    return {rank: tuple(sorted(values, reverse=True)) for rank, values in found.items()}


def trick_mistake(variant: Variant, cards: Sequence[int], last: bool, off: int) -> str | None:
    """The slip behind trick points ``off`` from the right count: a rank counted at
    another table's value, the last trick left out or added; or two of these."""
    if off == 0:
        return None
    slips = list(_trick_slips(variant, cards, last))
    for delta, sentence in slips:
        if delta == off:
            return sentence[:1].upper() + sentence[1:] + "."
    for i, (a, first) in enumerate(slips):
        for b, second in slips[i + 1 :]:
            if a + b == off and first.split(":")[0] != second.split(":")[0]:
                return f"{first[:1].upper()}{first[1:]}; and {second}."
    more = "more" if off > 0 else "less"
    return f"No single slip gives that: it is {abs(off)} {more} than the count below."


def _trick_slips(variant: Variant, cards: Sequence[int], last: bool) -> Iterator[tuple[int, str]]:
    if last:
        yield -variant.last_trick, f"you left out the last trick's {variant.last_trick}"
    else:
        yield (
            variant.last_trick,
            f"only the last trick adds {variant.last_trick}, and this is not the last trick",
        )
    for rank in variant.deck.ranks:
        held = [card for card in cards if CARDS[card].rank is rank]
        value = variant.counters.get(rank, 0)
        for other in other_values().get(rank, ()):
            if held and other != value:
                worth = f"{value} each" if value else "nothing"
                shown = (
                    _words(held)
                    if len(set(held)) < len(held)
                    else pretty_cards([CARDS[card] for card in held])
                )
                yield (
                    len(held) * (other - value),
                    f"{_rank_name(rank)} count {worth} here, not {other}: {shown}",
                )


def _rank_name(rank: Rank) -> str:
    return {
        Rank.ACE: "aces",
        Rank.TEN: "tens",
        Rank.KING: "kings",
        Rank.QUEEN: "queens",
        Rank.JACK: "jacks",
        Rank.NINE: "nines",
    }[rank]


def tricks_question(variant: Variant, theme: str, rng: random.Random) -> TricksQuestion | None:
    if theme == "counters":
        position = next(positions(variant, rng))
        trick = list(position.trick)
        rest = variant.players - len(trick)
        trick += _play(variant, position.hands, position.seat, position.trump, rest, rng)
        last = rng.random() < 0.3
        lines = (
            f"the trick: {pretty_cards([CARDS[card] for card in trick])}"
            + (" (the last trick of the hand)" if last else ""),
        )
        prompt = "trick points in it? "
        cards = tuple(trick)
    else:
        pool = [card.index for card in variant.deck.cards()]
        tricks = rng.randint(2, 4)
        cards = tuple(sorted(rng.sample(pool, tricks * variant.players)))
        last = rng.random() < 0.5
        took = "and the last trick" if last else "but not the last trick"
        lines = (
            f"your side took {plural(tricks, 'trick')}, {took}:",
            f"  {pretty_cards([CARDS[card] for card in cards])}",
        )
        prompt = "your side's trick points? "
    counters = sum(1 for card in cards if variant.counters.get(CARDS[card].rank))
    rating = 800 + 25 * counters + 60 * last + 40 * len({CARDS[c].rank for c in cards})
    return TricksQuestion("tricks", theme, rating, lines, prompt, variant, cards, last)
