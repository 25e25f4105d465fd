"""Questions on the table's rules: the auction, made or set, a throw-in.

Every answer is the rules' own: the legal bids and the flow of the auction from
`rules.auction` (the one place the flow is kept: a forced dealer's pass is its opening
bid there, and the quiz asks it so), each side's score from
`rules.scoring.score_hand`. A wrong answer is diagnosed by scoring the hand again with one rule
taken away (a meld minimum, a save-meld rule, a set penalty) or one typical slip made, and
naming the one that gives the player's numbers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from meldcalc.dealing.deal import deal
from meldcalc.learning.kinds import THEMES
from meldcalc.learning.question import (
    Question,
    read_number,
    read_numbers,
    read_word,
)
from meldcalc.rules.auction import Auction
from meldcalc.rules.cards import SUITS, Suit
from meldcalc.rules.meld import best_meld
from meldcalc.rules.scoring import (
    HandPlay,
    HandScore,
    meld_of_hands,
    score_hand,
    side_count,
    side_name,
    side_of,
)
from meldcalc.rules.variant import Variant, may_name_trump

TRIES = 200


def table_themes(variant: Variant, kind: str) -> list[str]:
    """The themes ``kind`` can ask in ``variant``: none where the variant lacks the rule."""
    bidding = variant.bidding
    if kind == "bid":
        return list(THEMES["bid"]) if bidding else []
    if kind == "score":
        house = variant.house
        switched = variant.meld_minimum or house.set_penalty != 1 or house.save_meld is not None
        return ([] if bidding is None else ["made", "set"]) + (
            ["house"] if bidding and switched else []
        )
    if kind == "throwin":
        return ["throw-in"] if bidding and bidding.concede else []
    if kind == "widow":
        return list(THEMES["widow"]) if variant.widow and bidding else []
    if kind == "pass":
        passing = variant.passing
        if passing is None:
            return []
        return ["pass-meld", "exchange"] if passing.kind == "exchange" else ["pass-meld"]
    return []


def _seat(seat: int) -> str:
    return f"seat {seat}"


# --- the auction ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BidQuestion(Question):
    variant: Variant | None = None
    auction: Auction | None = None

    def read(self, text: str) -> Any:
        if self.theme == "end":
            seat = text.strip().lower().removeprefix("seat").strip()
            return read_word(seat, {"over": "over", "ended": "over"}, "a seat number or 'over'")
        if self.theme == "dealer":
            return read_word(text, {"pass": "pass"}, "a bid such as 250, or 'pass'")
        return read_number(text, str(self.variant.bidding.opening))

    @property
    def answer(self) -> Any:
        auction = self.auction
        if self.theme == "end":
            return "over" if auction.over else auction.to_speak
        if self.theme == "dealer":
            return _forced_bid(auction) or "pass"
        return auction.lowest

    def is_right(self, answer: Any) -> bool:
        return answer == self.answer

    def right_answer(self) -> str:
        answer = self.answer
        return f"seat {answer}" if self.theme == "end" and answer != "over" else str(answer)

    def why(self, answer: Any) -> str | None:
        if self.is_right(answer):
            return None
        return _bid_mistake(self.variant, self.auction, self.theme, answer) + "."

    def explanation(self) -> list[str]:
        return [_auction_state(self.variant, self.auction) + "."]


def _steps_words(variant: Variant, bid: int) -> str:
    """``from 60 bids go up in 5s``: the step in force at ``bid``."""
    bidding = variant.bidding
    start = max(
        (inc.start for inc in bidding.increments if inc.start <= bid),
        default=bidding.opening,
    )
    return f"from {start} bids go up in steps of {bidding.step_at(bid)}"


def _bid_mistake(variant: Variant, auction: Auction, theme: str, answer: Any) -> str:
    bidding, high = variant.bidding, auction.high
    if theme == "dealer":
        if answer == "pass":
            return (
                f"in {variant.name} the dealer may not pass when every other seat has: it must"
                f" bid {bidding.opening}"
            )
        if _forced_bid(auction):
            return f"the dealer must open, at the opening bid: {bidding.opening}"
        return f"in {variant.name} the dealer need not bid: a deal every seat passes is dealt again"
    if theme == "end":
        return _end_mistake(auction, answer)
    lowest = auction.lowest
    if high is None and answer < bidding.opening:
        return f"the opening bid is at least {bidding.opening}"
    if high is not None and answer <= high[0]:
        return f"a bid must be higher than the {high[0]} standing: the lowest is {lowest}"
    if bidding.first_at_least(answer) != answer:
        return (
            f"{answer} is not a bid in {variant.name} ({_steps_words(variant, answer)}): the"
            f" lowest is {lowest}"
        )
    return (
        f"{answer} may be bid, but it is not the lowest: {lowest} ({_steps_words(variant, lowest)})"
    )


def _end_mistake(auction: Auction, answer: Any) -> str:
    if auction.over:
        return f"the auction is over; {_auction_state(None, auction)}"
    speaker = auction.to_speak
    if answer == "over":
        return f"{_seat(speaker)} has not passed and may still speak: it is next"
    if answer in auction.passed:
        return f"a pass is final: {_seat(answer)} passed and speaks no more"
    rounds = auction.bidding.rounds
    if rounds and auction.spoken(answer) >= rounds:
        return f"{_seat(answer)} has spoken {rounds} time(s), as many as the rounds allow"
    return f"the bidding goes round to the left, passed seats left out: {_seat(speaker)} is next"


def _auction_state(variant: Variant | None, auction: Auction) -> str:
    high = auction.high
    if auction.over:
        if high is None:
            return "every seat passed: the deal is dealt again"
        why = (
            _rounds_over(auction.bidding.rounds)
            if len(auction.passed) < auction.players - 1
            else "every other seat has passed"
        )
        return f"{_seat(high[1])} won the auction at {high[0]}: {why}"
    speaker, lowest = auction.to_speak, auction.lowest
    if _forced_bid(auction):
        return f"every other seat passed, so the dealer ({_seat(speaker)}) must bid {lowest}"
    stands = "no bid yet" if high is None else f"{high[0]} stands ({_seat(high[1])})"
    return f"{stands}; {_seat(speaker)} speaks next, and may bid {lowest} or more, or pass"


def _forced_bid(auction: Auction) -> int | None:
    """The bid the seat to speak makes if it passes: the opening, where the rules make a
    forced dealer's pass its bid; None where a pass is a pass."""
    if auction.to_speak is None:
        return None
    return auction.say(None).bids[-1][1]


def _rounds_over(rounds: int | None) -> str:
    return "the one round of bidding is over" if rounds == 1 else f"the {rounds} rounds are over"


def _calls_text(auction: Auction) -> str:
    said = [f"{_seat(seat)} {'pass' if bid is None else bid}" for seat, bid in auction.bids]
    return ", ".join(said) or "nothing yet"


def random_auction(variant: Variant, rng: random.Random, calls: int, pass_rate: float) -> Auction:
    """A legal auction of up to ``calls`` calls (fewer if it ends): each seat passes at
    ``pass_rate`` (a forced dealer never does), else bids the lowest bid or a few steps
    more."""
    players = variant.players
    auction = Auction(variant.bidding, players, dealer=players - 1)
    for _ in range(calls):
        if auction.over:
            break
        if rng.random() < pass_rate and not _forced_bid(auction):
            auction = auction.say(None)
        else:
            bid = auction.lowest
            for _ in range(rng.choice([0, 0, 1, 2, 3])):
                bid = variant.bidding.next_bid(bid)
            auction = auction.say(bid)
    return auction


def _near_step(variant: Variant, rng: random.Random) -> Auction | None:
    """An auction whose standing bid is at or just below a change of step (59, 60, 65 in
    double deck), or anywhere when the steps never change."""
    bidding = variant.bidding
    starts = [inc.start for inc in bidding.increments[1:]]
    if starts:
        boundary = rng.choice(starts)
        low = bidding.last_at_most(boundary - 1)
        near = [bid for bid in (low, boundary, bidding.next_bid(boundary)) if bid is not None]
        target = rng.choice([bid for bid in near if bid >= bidding.opening] or [bidding.opening])
    else:
        target = bidding.first_at_least(
            bidding.opening + rng.randrange(0, 12) * bidding.step_at(bidding.opening)
        )
    auction = Auction(bidding, variant.players, dealer=variant.players - 1)
    first = rng.randrange(variant.players - 1)
    for _ in range(first):
        auction = auction.say(None if rng.random() < 0.5 else auction.lowest)
        if auction.high is not None and auction.high[0] >= target:
            break
    if auction.over or (auction.high is not None and auction.high[0] > target):
        return None
    if auction.high is None or auction.high[0] < target:
        auction = auction.say(target)
    return None if auction.over else auction


def bid_question(variant: Variant, theme: str, rng: random.Random) -> BidQuestion | None:
    if variant.bidding is None:
        return None
    players = variant.players
    if theme == "dealer":
        auction = Auction(variant.bidding, players, dealer=players - 1)
        for _ in range(players - 1):
            auction = auction.say(None)
        prompt = "the least the dealer may do (a bid, or pass)? "
        rating = 900
    elif theme == "end":
        auction = random_auction(variant, rng, rng.randint(2, 3 * players), 0.45)
        prompt = "who speaks next (a seat, or over)? "
        rating = 1000 + 30 * len(auction.bids)
    else:
        auction = next(filter(None, (_near_step(variant, rng) for _ in range(TRIES))), None)
        if auction is None:
            return None
        prompt = f"the lowest bid {_seat(auction.to_speak)} may make? "
        rating = 950 + 150 * (len(variant.bidding.increments) > 1)
    lines = (
        f"{_seat(auction.dealer)} dealt; {_seat((auction.dealer + 1) % players)} speaks first",
        f"  the bids: {_calls_text(auction)}",
    )
    return BidQuestion("bid", theme, rating, lines, prompt, variant, auction)


# --- made or set, and a throw-in ------------------------------------------------------------


@dataclass(frozen=True)
class ScoreQuestion(Question):
    variant: Variant | None = None
    play: HandPlay | None = None

    @property
    def score(self) -> HandScore:
        return score_hand(self.variant, self.play)

    def read(self, text: str) -> tuple[int, ...]:
        example = ", ".join(str(points) for points in _example(self.variant))
        return read_numbers(text, side_count(self.variant), example)

    def is_right(self, answer: tuple[int, ...]) -> bool:
        return answer == self.score.points

    def right_answer(self) -> str:
        return ", ".join(str(points) for points in self.score.points)

    def why(self, answer: tuple[int, ...]) -> str | None:
        if self.is_right(answer):
            return None
        for points, sentence in _score_slips(self.variant, self.play, self.score):
            if points == answer:
                return sentence[:1].upper() + sentence[1:] + "."
        wrong = next(side for side, (a, b) in enumerate(zip(answer, self.score.points)) if a != b)
        name = side_name(self.variant, wrong)
        return (
            f"No typical slip gives {answer[wrong]} for {name}: it scores"
            f" {self.score.points[wrong]}, as said below."
        )

    def explanation(self) -> list[str]:
        return list(self.score.explanation)


def _example(variant: Variant) -> list[int]:
    return [-250, 180, 60][: side_count(variant)]


def _score_slips(
    variant: Variant, play: HandPlay, score: HandScore
) -> Iterator[tuple[tuple[int, ...], str]]:
    """(the points a slip gives, the slip in words)."""
    bidder, points = score.bidding_side, score.points
    house = variant.house
    name = side_name(variant, bidder)
    if variant.meld_minimum:
        lifted = score_hand(
            replace(
                variant,
                meld_minimum=0,
                house=replace(house, thrown_in=replace(house.thrown_in, meld_minimum=0)),
            ),
            play,
        ).points
        yield lifted, f"a side's meld under {variant.meld_minimum} counts nothing in {variant.name}"
    if house.save_meld is not None:
        lifted = score_hand(replace(variant, house=replace(house, save_meld=None)), play).points
        yield (
            lifted,
            f"in {variant.name} a side must {_save_words(house.save_meld)} to keep its meld",
        )
    if house.set_penalty != 1:
        lifted = score_hand(replace(variant, house=replace(house, set_penalty=1)), play).points
        yield (
            lifted,
            f"in {variant.name} a side set (or throwing in) loses {house.set_penalty} times"
            " its bid",
        )
    if play.thrown_in:
        yield from _thrown_slips(variant, play, score)
        return
    total = score.counted_meld[bidder] + play.tricks[bidder]
    if score.outcome == "set":
        kept = _with(points, bidder, total)
        yield (
            kept,
            f"{name} went set ({total} is short of {play.bid}): it scores minus the bid, not"
            " its meld and tricks",
        )
        yield (
            _with(points, bidder, total - play.bid),
            f"a side that is set keeps nothing, its meld neither: it scores minus {play.bid}",
        )
        yield _with(points, bidder, 0), f"a side that is set loses its bid: minus {play.bid}, not 0"
    else:
        yield (
            _with(points, bidder, play.bid),
            f"a side that makes its bid scores its meld and tricks ({total}), not the bid",
        )
        yield (
            _with(points, bidder, total - play.bid),
            f"a side that makes its bid scores all of its {total}: nothing is taken off",
        )
    for side in range(len(points)):
        if side != bidder:
            others = side_name(variant, side)
            yield (
                _with(points, side, play.tricks[side]),
                f"{others} score their meld as well as their tricks",
            )
            yield (
                _with(points, side, score.counted_meld[side]),
                f"{others} score their tricks as well as their meld",
            )
            yield (
                _with(points, side, 0),
                "the other side scores its meld and tricks whether or not the bid is made",
            )


def _save_words(rule: Any) -> str:
    if rule == "trick":
        return "take a trick"
    if rule == "counter":
        return "take a counter"
    return f"take {rule} or more in tricks"


def _thrown_slips(
    variant: Variant, play: HandPlay, score: HandScore
) -> Iterator[tuple[tuple[int, ...], str]]:
    bidder, points = score.bidding_side, score.points
    yield (
        _with(points, bidder, play.meld[bidder] - play.bid),
        "a side that throws in keeps no meld: it scores minus the bid",
    )
    yield _with(points, bidder, 0), f"a side that throws in still loses its bid: minus {play.bid}"
    for side in range(len(points)):
        if side != bidder:
            if points[side]:
                yield (
                    _with(points, side, 0),
                    f"{side_name(variant, side)} score their meld when the hand is thrown in",
                )
            yield _with(points, side, play.meld[side]), _thrown_in_words(variant)


def _thrown_in_words(variant: Variant) -> str:
    rule = variant.house.thrown_in
    if not rule.meld:
        return f"in {variant.name} the others score nothing for a hand thrown in"
    least = max(rule.meld_minimum, variant.meld_minimum)
    if least:
        return f"in {variant.name} the others score their meld only when it is {least} or more"
    return f"in {variant.name} the others score their meld + {rule.cards} for the cards"


def _with(points: tuple[int, ...], side: int, value: int) -> tuple[int, ...]:
    return tuple(value if i == side else p for i, p in enumerate(points))


def _dealt_melds(
    variant: Variant, rng: random.Random, bidder: int
) -> tuple[Suit, tuple[int, ...]] | None:
    """A real deal's meld per side under a trump the bidder may name."""
    dealt = deal(variant, rng)
    hand = dealt.hands[bidder]
    trumps = [suit for suit in SUITS if may_name_trump(hand, variant, suit)]
    if not trumps:
        return None
    trump = max(trumps, key=lambda suit: best_meld(hand, variant, suit).total)
    hands = dict(enumerate(dealt.hands))
    meld, _, _ = meld_of_hands(variant, hands, trump, bidder)
    return trump, meld


def _deals(variant: Variant, rng: random.Random) -> Iterator[tuple[int, Suit, tuple[int, ...]]]:
    """Deals to ask about: the bidder's seat, a trump it may name, each side's meld."""
    for _ in range(TRIES):
        seat = rng.randrange(variant.players)
        made = _dealt_melds(variant, rng, seat)
        if made is not None:
            yield seat, *made


def _tricks_split(
    variant: Variant, rng: random.Random, sides: int, bidder: int, share: float
) -> tuple[int, ...]:
    step, total = variant.trick_step, variant.trick_total
    bid_side = round(total * share / step) * step
    rest = total - bid_side
    others = [0] * sides
    for _ in range(rest // step):
        others[rng.choice([s for s in range(sides) if s != bidder])] += step
    others[bidder] = bid_side
    return tuple(others)


def score_question(variant: Variant, theme: str, rng: random.Random) -> ScoreQuestion | None:
    bidding = variant.bidding
    if bidding is None:
        return None
    sides = side_count(variant)
    for seat, trump, meld in _deals(variant, rng):
        bidder = side_of(variant, seat)
        tricks = _tricks_split(variant, rng, sides, bidder, rng.uniform(0.25, 0.8))
        if theme == "house" and variant.house.save_meld is not None:
            tricks = _with(tricks, bidder, 0) if rng.random() < 0.5 else tricks
            tricks = _with(
                tricks,
                (bidder + 1) % sides,
                variant.trick_total - sum(tricks) + tricks[(bidder + 1) % sides],
            )
        total = meld[bidder] + tricks[bidder]
        want_set = theme == "set" or (theme == "house" and rng.random() < 0.5)
        bid = _bid_for(variant, total, want_set, rng)
        if bid is None:
            continue
        taken = _tricks_taken(variant, tricks)
        play = HandPlay(
            bid,
            seat,
            meld,
            tricks,
            tricks_taken=taken,
            counters_taken=_counters_taken(variant, tricks),
        )
        try:
            score = score_hand(variant, play)
        except Exception:
            continue
        if theme == "house" and score.points == score_hand(_plain_house(variant), play).points:
            continue
        return _score_question(variant, theme, play, score, trump)
    return None


def _plain_house(variant: Variant) -> Variant:
    house = variant.house
    return replace(variant, meld_minimum=0, house=replace(house, save_meld=None, set_penalty=1))


def _tricks_taken(variant: Variant, tricks: tuple[int, ...]) -> tuple[int, ...] | None:
    """How many tricks each side took, where a save-meld rule needs it to tell."""
    from meldcalc.rules.scoring import tricks_in_hand

    return _taken(tricks, tricks_in_hand(variant)) if variant.house.save_meld == "trick" else None


def _counters_taken(variant: Variant, tricks: tuple[int, ...]) -> tuple[int, ...] | None:
    """How many counters each side took, where a save-meld rule needs it to tell."""
    from meldcalc.rules.scoring import counter_cards

    return _taken(tricks, counter_cards(variant)) if variant.house.save_meld == "counter" else None


def _taken(points: tuple[int, ...], total: int) -> tuple[int, ...]:
    """``total`` things shared as ``points`` say: one to each side that scored, the rest to
    the side that scored most."""
    taken = [1 if side else 0 for side in points]
    taken[points.index(max(points))] += total - sum(taken)
    return tuple(taken)


def _bid_for(variant: Variant, total: int, set_: bool, rng: random.Random) -> int | None:
    bidding = variant.bidding
    if set_:
        bid = bidding.first_at_least(total + 1)
        for _ in range(rng.randrange(3)):
            bid = bidding.next_bid(bid)
        return bid
    top = bidding.last_at_most(total)
    if top is None:
        return None
    levels = bidding.levels(top)
    return rng.choice(levels[-3:])


def _score_question(
    variant: Variant, theme: str, play: HandPlay, score: HandScore, trump: Suit
) -> ScoreQuestion:
    sides = range(len(play.meld))
    meld = ", ".join(f"{side_name(variant, s)} {play.meld[s]}" for s in sides)
    lines = [
        f"{side_name(variant, side_of(variant, play.bidder))} bid {play.bid} (seat"
        f" {play.bidder}); trump {trump.symbol}",
        f"  meld: {meld}",
    ]
    if play.tricks is not None:
        tricks = ", ".join(f"{side_name(variant, s)} {play.tricks[s]}" for s in sides)
        lines.append(f"  tricks: {tricks}")
    else:
        lines.append("  the bidding side throws the hand in before play")
    first = side_name(variant, 0)
    kind = "throwin" if play.thrown_in else "score"
    prompt = f"each side's score for the hand ({first} first)? "
    rating = 950 + 150 * (score.outcome != "made") + 200 * (theme == "house")
    return ScoreQuestion(kind, theme, rating, tuple(lines), prompt, variant, play)


def throwin_question(variant: Variant, theme: str, rng: random.Random) -> ScoreQuestion | None:
    bidding = variant.bidding
    if bidding is None or not bidding.concede:
        return None
    for seat, trump, meld in _deals(variant, rng):
        bid = bidding.first_at_least(meld[side_of(variant, seat)] + variant.trick_total // 2)
        play = HandPlay(bid, seat, meld, thrown_in=True)
        return _score_question(variant, theme, play, score_hand(variant, play), trump)
    return None
