"""Scoring a hand and a game by the variant's rules (seeds' "scoring" sections).

A *side* is a partnership (seats 0 and 2 against 1 and 3) or, in three-handed games, a
player alone. For one hand:

- **made**: the bidding side's meld and trick points reach the bid; every side adds its
  meld and trick points;
- **set**: the bidding side scores nothing and loses the bid (times the house
  ``set_penalty``); the others keep their meld and trick points;
- **thrown in** before play: the bidding side loses the bid; the others score what the
  house ``thrown_in`` switch says (their meld by default), never the trick points;
- **not played** (double deck, no marriage in the suit named trump): the bidding side
  loses the bid and no one counts meld;
- **short of meld** (house ``forfeit_under_minimum``): the bidding side melds under the
  meld minimum and loses the bid without play; the others score as when it is thrown in.

House switches change what meld counts: ``meld_minimum`` (a side's meld below it counts
nothing) and ``save_meld`` (a side must take a trick, a counter, or N trick points for
its meld to count); ``trick_minimum`` (seed 001's "minimum 20 to score") takes the whole
hand from a side short of it: it scores nothing, and a bidding side so is set. Checks
(side scores of the ``check`` variant) follow the meld: a side scores its meld's checks
when its meld counts.

A played hand is settled by the clauses of `meldcalc.rules.settle`, the same for one hand
(`score_hand`) as for thousands of simulated ones (`settle.score_hands`).

A game is the hands in order: the first side to the variant's ``game`` target at the end
of a hand wins; when several reach it on the same hand, the higher total wins (equal
totals play on) or, where ``both_reach: bidder``, the bidding side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from meldcalc.errors import HandError, MeldcalcError, UnsupportedError
from meldcalc.rules.cards import SUITS, Card, Hand, Rank, Suit
from meldcalc.rules.settle import (
    counts_needed,
    meld_lost_clauses,
    settle,
    short_of_meld,
    thrown_in_meld,
    under_trick_minimum,
)
from meldcalc.rules.variant import Variant, checks_text, may_name_trump

MADE, SET, THROWN_IN, NOT_PLAYED = "made", "set", "thrown in", "not played"
SHORT_OF_MELD = "short of meld"
PLAYED = "played"  # a hand without an auction (two-handed): each side scores what it took


class CountNeeded(MeldcalcError):
    """A save-meld rule cannot tell from the trick points whether a side saved its meld:
    ``count`` names what the hand needs besides (``counters_taken`` or ``tricks_taken``),
    for a caller that asks for it in its own words (the session's steps)."""

    def __init__(self, message: str, count: str) -> None:
        super().__init__(message)
        self.count = count


def side_count(variant: Variant) -> int:
    return 2 if variant.partnerships else variant.players


def side_of(variant: Variant, seat: int) -> int:
    return seat % 2 if variant.partnerships else seat


def tricks_in_hand(variant: Variant) -> int:
    """How many tricks a hand has: what the sides' tricks taken add up to (a stock's cards
    are drawn and played too)."""
    return (variant.deck.size - variant.widow) // variant.players


def complete_sides(
    values: Sequence[int], variant: Variant, bidder: int, total: int
) -> tuple[int, ...]:
    """Every side's count from what a player gave, in order of sides: all of them; all but
    the last, which is what is left of ``total``; or, with two sides, one number, the
    bidding side's (``bidder``'s), the other side having the rest."""
    sides = side_count(variant)
    if len(values) != sides - 1:
        return tuple(values)
    rest = total - sum(values)
    if sides != 2:
        return (*values, rest)
    return (values[0], rest) if side_of(variant, bidder) == 0 else (rest, values[0])


def counter_cards(variant: Variant) -> int:
    """How many cards of the deck are counters: what the sides' counters taken add up to."""
    return sum(1 for card in variant.deck.cards() if variant.counters.get(card.rank))


def side_name(variant: Variant, side: int, names: Sequence[str] | None = None) -> str:
    """The side's name as the game gave it (``names``, one a side), else its seats:
    ``seats 0 and 2`` for a partnership, ``seat 1`` for a player alone."""
    if names:
        return names[side]
    seats = [seat for seat in range(variant.players) if side_of(variant, seat) == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


@dataclass(frozen=True)
class HandPlay:
    """What happened in one hand, as a player reports it; every list is one value per side.

    ``tricks``: trick points (None when the hand was not played); ``tricks_taken``: how many
    tricks each side took, needed only when a ``save_meld: trick`` rule cannot tell from
    the points."""

    bid: int
    bidder: int
    meld: tuple[int, ...]
    tricks: tuple[int, ...] | None = None
    checks: tuple[int, ...] = ()
    thrown_in: bool = False
    no_marriage: bool = False
    tricks_taken: tuple[int, ...] | None = None
    #: counters each side took, needed only when a ``save_meld: counter`` rule cannot tell
    #: from the points (a side whose points are the last trick's alone)
    counters_taken: tuple[int, ...] | None = None


@dataclass(frozen=True)
class HandScore:
    """The outcome of a hand: per side, the meld that counted and the points scored."""

    play: HandPlay
    bidding_side: int
    outcome: str
    counted_meld: tuple[int, ...]
    points: tuple[int, ...]
    checks: tuple[int, ...]
    explanation: tuple[str, ...] = field(default=())
    #: what the rules advise of the hand as it was (`throw_in_advice`): not part of its score
    advice: tuple[str, ...] = field(default=(), compare=False)


def check_hand(variant: Variant, play: HandPlay) -> None:
    """Refuse a hand that cannot have happened under the variant's rules."""
    bidding = variant.bidding
    if bidding is None:
        return _check_without_auction(variant, play)
    sides = side_count(variant)
    if not 0 <= play.bidder < variant.players:
        last = variant.players - 1
        raise MeldcalcError(f"bidder {play.bidder}: expected a seat from 0 to {last}")
    if bidding.first_at_least(play.bid) != play.bid:
        following = bidding.first_at_least(play.bid)
        raise MeldcalcError(
            f"{play.bid} is not a legal bid in {variant.name}: bids start at"
            f" {bidding.opening}; the next legal bid is {following}"
        )
    _check_per_side("meld", play.meld, sides)
    step = variant.meld_step
    if any(points % step for points in play.meld):
        raise MeldcalcError(
            f"meld {', '.join(map(str, play.meld))}: in {variant.name} every meld is worth a"
            f" multiple of {step}, so a side's meld is too: a typo?"
        )
    if play.checks:
        _check_per_side("checks", play.checks, sides)
        _check_checks_fit_meld(variant, play)
    if play.thrown_in and play.no_marriage:
        raise MeldcalcError("a hand is either thrown in or not played for want of a marriage")
    if play.thrown_in and not bidding.concede:
        raise UnsupportedError(f"{variant.name} does not allow a side to throw the hand in")
    if play.no_marriage and not bidding.marriage_in_trump:
        raise UnsupportedError(f"{variant.name} does not require a marriage in trump")
    unplayed = _unplayed_why(variant, play)
    if unplayed is not None:
        if play.tricks is not None:
            raise MeldcalcError(
                f"a hand {unplayed} is not played, so it has no trick points: leave out the tricks"
            )
        return
    if play.tricks is None:
        raise MeldcalcError("the trick points of each side are needed for a played hand")
    _check_per_side("tricks", play.tricks, sides)
    if sum(play.tricks) != variant.trick_total:
        shown = " + ".join(map(str, play.tricks))
        raise MeldcalcError(
            f"tricks {shown} = {sum(play.tricks)}, but every hand of {variant.name} has"
            f" {variant.trick_total} trick points (counters and last trick): a typo?"
        )
    step = variant.trick_step
    if any(points % step for points in play.tricks):
        raise MeldcalcError(
            f"tricks {', '.join(map(str, play.tricks))}: in {variant.name} every counter and"
            f" the last trick are multiples of {step}, so trick points are too: a typo?"
        )
    if play.tricks_taken is not None:
        bidding_side = side_of(variant, play.bidder)
        _check_tricks_taken(variant, play.tricks, play.tricks_taken, bidding_side)
    if play.counters_taken is not None:
        _check_counters_taken(variant, play.tricks, play.counters_taken)


def _unplayed_why(variant: Variant, play: HandPlay) -> str | None:
    """Why the hand was not played, in words; None for a played hand."""
    if play.thrown_in:
        return "thrown in"
    if play.no_marriage:
        return "without a marriage in trump (the bidder's)"
    if short_of_meld(variant, play.meld, side_of(variant, play.bidder)):
        return f"whose bidding side melds under the minimum of {variant.meld_minimum}"
    return None


def throw_in_advice(variant: Variant, bid: int, meld: int) -> str | None:
    """The rules' advice to throw the hand in, when the bidding side's ``meld`` is more
    than the variant's ``throw_in_advice`` below the ``bid`` (seed 001: "more than 50 below
    their bid", double deck, where the tricks hold 50 in all); None where it is not."""
    bidding = variant.bidding
    margin = bidding.throw_in_advice if bidding is not None else None
    if margin is None or not bidding.concede or bid - meld <= margin:
        return None
    hopeless = (
        f" (the tricks hold {variant.trick_total} in all: it cannot be made)"
        if margin >= variant.trick_total
        else ""
    )
    return (
        f"the bidding side's meld of {meld} is more than {margin} below its bid of {bid}"
        f"{hopeless}: the rules' reason to throw the hand in before play, so that the others"
        " do not take the trick points"
    )


def _check_without_auction(variant: Variant, play: HandPlay) -> None:
    """A hand of a game without an auction (two-handed): meld and tricks, nothing else."""
    if variant.stock_play is None:
        raise UnsupportedError(f"{variant.name} has no auction: there is no bid to score")
    if play.thrown_in or play.no_marriage:
        raise MeldcalcError(f"{variant.name} has no bid: a hand is neither thrown in nor unplayed")
    sides = side_count(variant)
    _check_per_side("meld", play.meld, sides)
    if play.tricks is None:
        raise MeldcalcError("the trick points of each player are needed: --tricks N,N")
    _check_per_side("tricks", play.tricks, sides)
    closing = variant.stock_play.closing
    total = variant.trick_total
    if sum(play.tricks) > total or (sum(play.tricks) != total and not closing):
        shown = " + ".join(map(str, play.tricks))
        more = " (less only when the stock was closed)" if closing else ""
        raise MeldcalcError(
            f"tricks {shown} = {sum(play.tricks)}, but every hand of {variant.name} has"
            f" {total} trick points{more} (counters and last trick): a typo?"
        )


def _check_tricks_taken(
    variant: Variant, points: Sequence[int], taken: Sequence[int], bidding: int
) -> None:
    """The tricks each side took agree with the hand and with its trick points (the
    bidding side's with the widow's burial too)."""
    _check_per_side("tricks taken", taken, len(points))
    tricks = tricks_in_hand(variant)
    if sum(taken) != tricks:
        raise MeldcalcError(f"tricks taken add up to {sum(taken)}; a hand has {tricks} tricks")
    for side, (count, won) in enumerate(zip(taken, points)):
        buried = variant.widow if side == bidding else 0  # the bidder's burial counts, trick or not
        if won and not count and not buried:
            raise MeldcalcError(
                f"{side_name(variant, side)} took no trick but {won} trick points:"
                " check --tricks and --tricks-taken"
            )
        most = most_in_tricks(variant, count, buried)
        if won > most:
            raise MeldcalcError(
                f"{side_name(variant, side)} took {won} trick points in {count}"
                f" trick{'' if count == 1 else 's'}, but {count} can hold at most {most}"
                " (the richest cards and the last trick): check --tricks and --tricks-taken"
            )


def most_in_tricks(variant: Variant, count: int, buried: int = 0) -> int:
    """The most trick points ``count`` tricks (and ``buried`` cards of a widow) can hold:
    the richest cards of the deck, as many as they hold, and the last trick's bonus."""
    values = sorted(
        (variant.counters.get(card.rank, 0) for card in variant.deck.cards()), reverse=True
    )
    return sum(values[: count * variant.players + buried]) + (variant.last_trick if count else 0)


def _check_counters_taken(variant: Variant, points: Sequence[int], taken: Sequence[int]) -> None:
    """The counters each side took agree with the deck and with its trick points: a side
    with none took the last trick's points at most."""
    _check_per_side("counters taken", taken, len(points))
    counters = counter_cards(variant)
    if sum(taken) != counters:
        raise MeldcalcError(
            f"counters taken add up to {sum(taken)}; the {variant.name} deck has {counters}"
        )
    for side, (count, won) in enumerate(zip(taken, points)):
        if not count and won not in (0, variant.last_trick):
            raise MeldcalcError(
                f"{side_name(variant, side)} took no counter but {won} trick points:"
                " check --tricks and --counters-taken"
            )
        if count and not won:
            raise MeldcalcError(
                f"{side_name(variant, side)} took {count} counters but no trick points:"
                " check --tricks and --counters-taken"
            )


def _check_per_side(what: str, values: Sequence[int], sides: int) -> None:
    if len(values) != sides:
        raise MeldcalcError(f"{what}: expected {sides} numbers, one per side, got {len(values)}")
    if any(value < 0 for value in values):
        raise MeldcalcError(f"{what}: expected numbers of at least 0, got {list(values)}")


def _check_checks_fit_meld(variant: Variant, play: HandPlay) -> None:
    for side, (meld, checks) in enumerate(zip(play.meld, play.checks)):
        most = most_checks(variant, meld)
        if checks > most:
            raise MeldcalcError(
                f"checks {', '.join(map(str, play.checks))}: side {side}'s meld of {meld}"
                f" carries at most {checks_text(most)} in {variant.name}, not {checks}: a typo?"
            )


def most_checks(variant: Variant, meld: int) -> int:
    """The most checks a side's meld of ``meld`` points can carry: a knapsack over the melds
    each of its seats could hold (every copy count of every meld's every suit), whose points
    add up to ``meld``. A meld counts only where ``meld`` reaches the least a hand holding
    it melds in all (a roundhouse, worth no points itself, comes with 240 of marriages and
    arounds). Loose, never tight: a count a real deal gives is never refused."""
    import numpy as np

    step = variant.meld_step
    if meld % step or not any(rule.checks for rule in variant.melds):
        return 0
    size = meld // step + 1
    best = np.full(size, -1, dtype=np.int64)  # the most checks at each total; -1: unreachable
    best[0] = 0
    seats = variant.players // side_count(variant)
    for instances, options in _check_items(variant, meld):
        for _ in range(instances * seats):
            grown = best.copy()
            for points, checks in options:
                shift = points // step
                reachable = best[: size - shift] >= 0
                moved = np.where(reachable, best[: size - shift] + checks, -1)
                grown[shift:] = np.maximum(grown[shift:], moved)
            best = grown
    return max(int(best[-1]), 0)


def _check_items(variant: Variant, meld: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Each meld with its number of instances (suits) and the (points, checks) of each copy
    count a hand of ``meld`` points could hold."""
    from meldcalc.rules.meld import best_meld

    items = []
    for rule in variant.melds:
        options = []
        for copies in range(1, variant.deck.copies + 1):
            least = min(
                best_meld(_copies_of(rule.instances(trump)[0], copies), variant, trump).total
                for trump in SUITS
            )
            if least <= meld:
                options.append((rule.value(copies), rule.check_value(copies)))
        if options:
            items.append((len(rule.instances(SUITS[0])), options))
    return items


def _copies_of(cards: Sequence[int], copies: int) -> Hand:
    return Hand.from_cards(Card.from_index(card) for card in cards for _ in range(copies))


def score_hand(variant: Variant, play: HandPlay, names: Sequence[str] | None = None) -> HandScore:
    """The points (and checks) every side scores for ``play``; ``names`` name the sides in
    the sentences that explain it."""
    check_hand(variant, play)
    if variant.bidding is None:
        return _played(variant, play, names)
    bidder = side_of(variant, play.bidder)
    checks = play.checks or (0,) * side_count(variant)
    if play.no_marriage:
        return _not_played(variant, play, bidder, names)
    if short_of_meld(variant, play.meld, bidder):
        return _thrown_in(variant, play, bidder, checks, names, SHORT_OF_MELD)
    if play.thrown_in:
        return _thrown_in(variant, play, bidder, checks, names)
    taken = [_taken(variant, play, side) for side in range(len(play.meld))]
    counted, made, points = settle(
        variant,
        play.bid,
        bidder,
        play.meld,
        play.tricks,
        [tricks for tricks, _ in taken],
        [counters for _, counters in taken],
    )
    scored_checks = [c if meld else 0 for c, meld in zip(checks, counted)]
    if not made:
        scored_checks[bidder] = 0
    outcome = MADE if made else SET
    score = HandScore(play, bidder, outcome, tuple(counted), tuple(points), tuple(scored_checks))
    advice = throw_in_advice(variant, play.bid, play.meld[bidder])
    return replace(_explained(variant, score, names), advice=(advice,) if advice else ())


def _played(variant: Variant, play: HandPlay, names: Sequence[str] | None) -> HandScore:
    """No auction: every side scores its meld and its trick points as they count."""
    assert play.tricks is not None
    tricks = [counted_tricks(variant, points) for points in play.tricks]
    points = tuple(meld + taken for meld, taken in zip(play.meld, tricks))
    checks = (0,) * len(play.meld)
    return _explained(variant, HandScore(play, 0, PLAYED, play.meld, points, checks), names)


def counted_tricks(variant: Variant, points: int) -> int:
    """Trick points as they score: as taken, or where the stock game's ``round_tricks``
    switch says so to the ten, 7, 8 or 9 counted as 10."""
    if variant.stock_play is None or not variant.stock_play.round_tricks:
        return points
    return (points + 3) // 10 * 10


def _taken(variant: Variant, play: HandPlay, side: int) -> tuple[int, int]:
    """The tricks and counters a side took, as far as the rules in force ask: as told, or
    plain from its trick points; where they cannot tell, the player is asked."""
    needed, meld = counts_needed(variant), play.meld[side]
    lost = meld < variant.meld_minimum or play.tricks[side] < variant.house.trick_minimum
    if needed is None or not meld or lost:  # counts or lost: not asked
        return 0, 0
    if needed == "tricks":
        return int(_took_a_trick(play, side)), 0
    return 0, int(_took_a_counter(variant, play, side))


def _meld_lost(variant: Variant, play: HandPlay, side: int) -> str | None:
    """Why a side's meld of a played hand does not count, in words; None when it counts."""
    taken = _taken(variant, play, side)
    clauses = meld_lost_clauses(variant, play.meld[side], play.tricks[side], *taken)
    return next((why for holds, why in clauses if holds), None)


def _took_a_counter(variant: Variant, play: HandPlay, side: int) -> bool:
    """Whether the side took a counter: told, or plain from its points unless they are the
    last trick's alone, which no counter or a counter of the same worth may have made."""
    points = play.tricks[side]
    if play.counters_taken is not None:
        return play.counters_taken[side] > 0
    if points != variant.last_trick or points == 0:
        return points > 0
    raise CountNeeded(
        f"{side_name(variant, side)} took {points} trick points, which may be the last trick"
        " alone: under this variant's rule a side must take a counter to save its meld, so"
        " say how many counters each side took (--counters-taken)",
        "counters_taken",
    )


def _took_a_trick(play: HandPlay, side: int) -> bool:
    if play.tricks[side] > 0:
        return True
    if play.tricks_taken is None:
        raise CountNeeded(
            "a side took no trick points: under this variant's rule a side must take a trick"
            " to save its meld, so say how many tricks each side took (--tricks-taken)",
            "tricks_taken",
        )
    return play.tricks_taken[side] > 0


def _thrown_in(
    variant: Variant,
    play: HandPlay,
    bidder: int,
    checks: tuple[int, ...],
    names: Sequence[str] | None,
    outcome: str = THROWN_IN,
) -> HandScore:
    """The bidding side loses the bid unplayed, thrown in (or, ``outcome`` says, short of
    meld); the others score what the house ``thrown_in`` switch says."""
    rule = variant.house.thrown_in
    counted, points, scored_checks = [], [], []
    for side, meld in enumerate(play.meld):
        if side == bidder:
            counted.append(0)
            points.append(-play.bid * variant.house.set_penalty)
            scored_checks.append(0)
            continue
        counted.append(thrown_in_meld(variant, meld))
        points.append(counted[-1] + rule.cards)
        scored_checks.append(checks[side] if counted[-1] == meld else 0)
    score = HandScore(play, bidder, outcome, tuple(counted), tuple(points), tuple(scored_checks))
    return _explained(variant, score, names)


def _not_played(
    variant: Variant, play: HandPlay, bidder: int, names: Sequence[str] | None
) -> HandScore:
    sides = len(play.meld)
    lost = -play.bid * variant.house.set_penalty
    points = tuple(lost if side == bidder else 0 for side in range(sides))
    score = HandScore(play, bidder, NOT_PLAYED, (0,) * sides, points, (0,) * sides)
    return _explained(variant, score, names)


def _explained(variant: Variant, score: HandScore, names: Sequence[str] | None) -> HandScore:
    return replace(score, explanation=tuple(explain_hand(variant, score, names)))


def _capital(name: str) -> str:
    """A name to start a sentence: ``seats 0 and 2`` -> ``Seats 0 and 2``, ``ann`` as given."""
    return name[:1].upper() + name[1:] if name.startswith("seat") else name


def explain_hand(
    variant: Variant, score: HandScore, names: Sequence[str] | None = None
) -> list[str]:
    """Sentences a player can read aloud at the table."""
    play, bidder = score.play, score.bidding_side
    if score.outcome == PLAYED:
        return [_played_line(variant, score, side, names) for side in range(len(play.meld))]
    name = _capital(side_name(variant, bidder, names))
    lost = -score.points[bidder]
    if score.outcome == NOT_PLAYED:
        return [
            f"{name} bid {play.bid} without a marriage in trump: the hand is not played,"
            f" minus {lost}, and no one counts meld."
        ]
    if score.outcome == THROWN_IN:
        lines = [f"{name} bid {play.bid} and threw the hand in: minus {lost}."]
    elif score.outcome == SHORT_OF_MELD:
        lines = [
            f"{name} bid {play.bid} with {play.meld[bidder]} meld, under the minimum of"
            f" {variant.meld_minimum}: the bid is lost without play, minus {lost}."
        ]
    elif score.outcome == SET and under_trick_minimum(variant, play.tricks, bidder):
        lines = [_short_of_tricks_line(variant, score, name)]
    else:
        total = score.counted_meld[bidder] + play.tricks[bidder]
        parts = f"{_meld_words(variant, play, bidder)} + {play.tricks[bidder]} in tricks = {total}"
        if score.outcome == MADE:
            lines = [f"{name} bid {play.bid} and made it: {parts}."]
        else:
            short = play.bid - total
            lines = [f"{name} bid {play.bid} and went set: {parts}, {short} short: minus {lost}."]
    others = [side for side in range(len(play.meld)) if side != bidder]
    return lines + [_others_line(variant, score, side, names) for side in others]


def _short_of_tricks_line(variant: Variant, score: HandScore, name: str) -> str:
    """A bidding side set for taking under the trick minimum, whatever its meld."""
    play, bidder = score.play, score.bidding_side
    return (
        f"{name} bid {play.bid} and went set: {play.tricks[bidder]} in tricks, under the"
        f" minimum of {variant.house.trick_minimum}, so set whatever its meld"
        f" ({play.meld[bidder]}): minus {-score.points[bidder]}."
    )


def _played_line(variant: Variant, score: HandScore, side: int, names: Sequence[str] | None) -> str:
    assert score.play.tricks is not None
    taken = score.play.tricks[side]
    counted = counted_tricks(variant, taken)
    tricks = f"{taken} in tricks" + (f" (counted {counted})" if counted != taken else "")
    name = _capital(side_name(variant, side, names))
    return f"{name}: {score.play.meld[side]} meld + {tricks} = {score.points[side]}."


def _meld_words(variant: Variant, play: HandPlay, side: int) -> str:
    reason = _meld_lost(variant, play, side)
    if reason is None:
        return f"{play.meld[side]} meld"
    return f"{play.meld[side]} meld that does not count ({reason}), so 0"


def _others_line(variant: Variant, score: HandScore, side: int, names: Sequence[str] | None) -> str:
    play, name = score.play, _capital(side_name(variant, side, names))
    if score.outcome in (THROWN_IN, SHORT_OF_MELD):
        rule, meld = variant.house.thrown_in, play.meld[side]
        words = f"{meld} meld" if score.counted_meld[side] == meld else f"{meld} meld, not scored"
        cards = f" + {rule.cards} for the cards" if rule.cards else ""
        return f"{name}: {words}{cards} = {score.points[side]}."
    tricks = play.tricks[side]
    if under_trick_minimum(variant, play.tricks, side):
        return (
            f"{name}: {tricks} in tricks, under the minimum of {variant.house.trick_minimum}:"
            f" nothing for the hand ({play.meld[side]} meld ignored) = 0."
        )
    return (
        f"{name}: {_meld_words(variant, play, side)} + {tricks} in tricks = {score.points[side]}."
    )


def meld_of_hands(
    variant: Variant, hands: dict[int, Hand], trump: Suit, bidder: int, no_marriage: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Each side's meld and checks from the seats' hands under ``trump`` (seats not given
    meld nothing), and whether the hand is not played for want of a marriage in trump
    (double deck: the bidder must hold one): as ``no_marriage`` says, or as the bidder's
    hand shows; a bidder's hand holding the marriage refutes ``no_marriage``."""
    from meldcalc.rules.meld import best_meld

    meld, checks = [0] * side_count(variant), [0] * side_count(variant)
    for seat, hand in hands.items():
        if not 0 <= seat < variant.players:
            raise MeldcalcError(f"seat {seat}: expected a seat from 0 to {variant.players - 1}")
        variant.check_hand(hand)
        _check_hand_size(variant, seat, hand, bidder)
        result = best_meld(hand, variant, trump)
        meld[side_of(variant, seat)] += result.total
        checks[side_of(variant, seat)] += sum(found.checks for found in result.melds)
    variant.check_together([(f"seat {seat}", hand) for seat, hand in hands.items()])
    bidder_hand = hands.get(bidder)
    if bidder_hand is None:
        return tuple(meld), tuple(checks), no_marriage
    lacking = not may_name_trump(bidder_hand, variant, trump)
    if no_marriage and not lacking and variant.bidding and variant.bidding.marriage_in_trump:
        king, queen = Card(Rank.KING, trump), Card(Rank.QUEEN, trump)
        raise MeldcalcError(
            f"--no-marriage, but the bidder's hand (seat {bidder}) holds {king} and {queen},"
            " a marriage in trump: leave out --no-marriage"
        )
    return tuple(meld), tuple(checks), no_marriage or lacking


def most_cards_held(variant: Variant, seat: int, bidder: int) -> int:
    """The most cards ``seat`` melds from: its deal, and for the bidder the widow too."""
    return variant.hand_size + (variant.widow if seat == bidder else 0)


def _check_hand_size(variant: Variant, seat: int, hand: Hand, bidder: int) -> None:
    most = most_cards_held(variant, seat, bidder)
    if len(hand) > most:
        held = f"{variant.hand_size} cards" + (
            f" and the widow's {variant.widow}" if most > variant.hand_size else ""
        )
        role = "the bidder" if seat == bidder else "a seat"
        raise HandError(
            f"seat {seat}: {len(hand)} cards, but in {variant.name} {role} holds {held}:"
            f" at most {most}"
        )


# --- the game --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """The game after some hands: totals per side, and the winner once there is one."""

    totals: tuple[int, ...]
    checks: tuple[int, ...]
    hands: int
    winner: int | None = None
    reason: str = ""


def standing(variant: Variant, scores: Sequence[HandScore], target: int) -> Standing:
    """Add up ``scores`` in order; the game ends at the first hand that decides it."""
    sides = side_count(variant)
    totals, checks = [0] * sides, [0] * sides
    for number, score in enumerate(scores, start=1):
        totals = [t + p for t, p in zip(totals, score.points)]
        checks = [t + c for t, c in zip(checks, score.checks)]
        winner, reason = _decided(variant, totals, score, target, number)
        if winner is not None:
            return Standing(tuple(totals), tuple(checks), number, winner, reason)
    return Standing(tuple(totals), tuple(checks), len(scores))


def _decided(
    variant: Variant, totals: list[int], score: HandScore, target: int, number: int
) -> tuple[int | None, str]:
    out = [side for side, total in enumerate(totals) if total >= target]
    if not out:
        return None, ""
    if len(out) == 1:
        return out[0], f"first to {target}, after hand {number}"
    both_reach = variant.bidding.both_reach if variant.bidding else "higher"
    if both_reach == "bidder" and score.bidding_side in out:
        return score.bidding_side, (
            f"{len(out)} sides reached {target} on hand {number}; the bidding side wins"
        )
    best = max(totals[side] for side in out)
    leaders = [side for side in out if totals[side] == best]
    if len(leaders) > 1:
        return None, ""  # equal totals over the target: another hand is played
    return leaders[0], (
        f"{len(out)} sides reached {target} on hand {number}; the higher total wins"
    )
