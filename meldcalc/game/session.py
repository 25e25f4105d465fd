"""A hand at the table, followed step by step (`meldcalc game`).

The player types what happens as it happens, one step a line::

    seat 1                  which seat is yours (seats from 0, the first to bid after the
                            dealer; 'me', 'left', 'partner', 'right' name seats from yours,
                            and a player's name the game keeps names that player's seat)
    hand AS 10S KS ...      your hand as dealt: the meld under each trump, a bid to go to
    300 | bid 300 | pass    the auction, each seat in turn from the dealer's left
    trump S                 the bidder names trump
    meld partner 120        a seat's meld laid down: a total, or its cards
    meld left KD QD
    AS | play AS            the cards as they fall, each seat in turn
    hint                    the reference player's value of each of your cards
    show                    your hand, the trick on the table, the points so far
    tricks 160              trick points at once, when the play is not followed
    undo                    take back the last step
    review                  once a hand is played out: each of your cards priced
    quit                    end the session: the hand stays in its journal, to resume

Each step is checked against what the table has seen: a bid below the last, a card not in
your hand or against the trick rules, a card whose copies are all played or of a suit its
seat has shown it lacks. The state is a fold of the steps (`replay`), so a journal of the
steps (`meldcalc.game.journal`) resumes a hand exactly where it was, and ``undo`` is one
step less. The hand ends scored as `meldcalc score` would score it (`Table.outcome`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from meldcalc.errors import HandError, MeldcalcError, NotationError, quote
from meldcalc.rules.cards import CARD_NAMES, CARDS, Hand, Suit, cards_text, parse_card, parse_suit
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.seats import Seating, place_offsets
from meldcalc.rules.variant import Variant

PHASES = ("hand", "auction", "trump", "meld", "play", "over")


@dataclass(frozen=True)
class Table:
    """What the session knows of the hand so far."""

    variant: Variant
    dealer: int
    me: int = 0
    names: tuple[str, ...] = ()  #: the game's names of its sides, side 0 first
    hand: Hand | None = None
    bids: tuple[tuple[int, int | None], ...] = ()  #: (seat, bid), None for a pass
    trump: Suit | None = None
    melds: tuple[tuple[int, int, Hand | None], ...] = ()  #: (seat, total, cards if given)
    played: tuple[int, ...] = ()
    tricks_given: tuple[int, ...] | None = None
    #: your bid's odds (a `bidding.BidReport`), where they were worked out: not part of what
    #: the table knows, so a replay without advice equals the table with it
    odds: Any = field(default=None, compare=False, repr=False)

    # --- where the hand stands ------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def phase(self) -> str:
        if self.hand is None:
            return "hand"
        if self.tricks_given is not None or len(self.played) == self.deal_size:
            return "over"
        if len(self.passed) == self.players:
            return "over"  # every seat passed: no hand to play
        if self.bidder is None:
            return "auction"
        if self.trump is None:
            return "trump"
        return "play" if self.played else "meld"

    @property
    def deal_size(self) -> int:
        return self.players * self.variant.hand_size

    @property
    def passed(self) -> set[int]:
        return {seat for seat, bid in self.bids if bid is None}

    @property
    def high_bid(self) -> tuple[int, int] | None:
        """The highest bid so far and its seat."""
        bids = [(bid, seat) for seat, bid in self.bids if bid is not None]
        return max(bids) if bids else None

    @property
    def bidder(self) -> int | None:
        """The auction's winner, once it is over: the last seat not to pass."""
        high = self.high_bid
        if high is None or len(self.passed) < self.players - 1:
            return None
        return high[1]

    @property
    def contract(self) -> int | None:
        return None if self.bidder is None else self.high_bid[0]

    @property
    def to_bid(self) -> int:
        """The seat to speak next in the auction: from the dealer's left, passed seats out."""
        seat = (self.dealer + 1 + len(self.bids)) % self.players if not self.bids else None
        if seat is not None:
            return seat
        last = self.bids[-1][0]
        for step in range(1, self.players + 1):
            seat = (last + step) % self.players
            if seat not in self.passed:
                return seat
        return last

    @property
    def to_play(self) -> int:
        from meldcalc.advice.hint import turns

        _, seat = turns(self.played, self.bidder, self.trump, self.players)
        return seat

    @property
    def seating(self) -> Seating:
        return Seating(self.variant, self.me, self.names)

    def seat(self, text: str) -> int:
        """A seat as every command names it (`rules.seats`): by number, from yours (``me``,
        ``left``, ``partner``, ``right``), or by a player's name the game keeps."""
        return self.seating.parse(text, "seat")

    def seat_label(self, seat: int) -> str:
        return "you" if seat == self.me else self.seating.label(seat)

    # --- the hand's figures ---------------------------------------------------------------

    def held(self) -> Hand:
        """Your cards still in hand."""
        counts = list(self.hand.counts)
        from meldcalc.advice.hint import turns

        seats, _ = turns(self.played, self.bidder, self.trump, self.players)
        for card, seat in zip(self.played, seats):
            if seat == self.me:
                counts[card] -= 1
        return Hand(counts)

    def tricks(self) -> list[tuple[int, tuple[tuple[int, int], ...], int, int]]:
        """The tricks played: (leader, (seat, card) in order, winner, points); the last may
        be under way (winner -1)."""
        from meldcalc.rules.tricks import winning_position

        tricks, leader, trick = [], self.bidder, []
        for card in self.played:
            trick.append(card)
            if len(trick) == self.players:
                winner = (leader + winning_position(trick, self.trump)) % self.players
                seats = [(leader + i) % self.players for i in range(self.players)]
                points = sum(self.variant.counters.get(CARDS[c].rank, 0) for c in trick)
                if len(tricks) == self.variant.hand_size - 1:
                    points += self.variant.last_trick
                tricks.append((leader, tuple(zip(seats, trick)), winner, points))
                leader, trick = winner, []
        if trick:
            seats = [(leader + i) % self.players for i in range(len(trick))]
            tricks.append((leader, tuple(zip(seats, trick)), -1, 0))
        return tricks

    def trick_points(self) -> tuple[int, ...]:
        """Each side's trick points so far (or as typed)."""
        from meldcalc.rules.scoring import side_count, side_of

        if self.tricks_given is not None:
            return self.tricks_given
        points = [0] * side_count(self.variant)
        for _, _, winner, won in self.tricks():
            if winner >= 0:
                points[side_of(self.variant, winner)] += won
        return tuple(points)

    def side_melds(self) -> tuple[int, ...]:
        from meldcalc.rules.scoring import side_count, side_of

        meld = [0] * side_count(self.variant)
        for seat, total, _ in self.melds:
            meld[side_of(self.variant, seat)] += total
        return tuple(meld)

    def outcome(self) -> Any:
        """The hand scored as `meldcalc score` scores it (a `scoring.HandScore`); None when
        every seat passed and it was not played."""
        from meldcalc.rules.scoring import HandPlay, score_hand

        if self.contract is None:
            return None
        play = HandPlay(self.contract, self.bidder, self.side_melds(), self.trick_points())
        return score_hand(self.variant, play)

    def as_played(self) -> Any:
        """The hand played out as a `bidding.PlayedDeal`, every seat's hand as dealt: each
        held the cards it played."""
        from meldcalc.advice.hint import turns
        from meldcalc.advice.replay import replay as replay_deal

        seats, _ = turns(self.played, self.bidder, self.trump, self.players)
        hands = [[0] * len(CARD_NAMES) for _ in range(self.players)]
        for card, seat in zip(self.played, seats):
            hands[seat][card] += 1
        names = [CARD_NAMES[c] for c in self.played]
        return replay_deal([Hand(h) for h in hands], self.variant, self.trump, self.bidder, names)

    def known(self) -> tuple[str, ...]:
        """The cards other seats laid down, as `hint`'s ``known`` takes them."""
        return tuple(
            f"{seat}:{cards.notation()}"
            for seat, _, cards in self.melds
            if cards is not None and seat != self.me and len(cards)
        )


@dataclass
class Answer:
    """What a step says: lines for a player, and the same for a script (``data``)."""

    table: Table
    lines: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def review_mine(table: Table, seed: int = 0, jobs: int = 1) -> list[Any]:
    """Each card you played in a hand played out, priced as you saw it and exactly
    (`advice.seen`: a `CardPriced` each), on ``jobs`` cores."""
    from meldcalc.advice.seen import price_as_seen

    if len(table.played) != table.deal_size:
        raise MeldcalcError("review: the hand was not played card by card to its end")
    return price_as_seen(table.as_played(), table.variant, table.me, table.known(), seed, jobs)


# --- the steps ------------------------------------------------------------------------------


def start(variant: Variant, dealer: int, names: Sequence[str] = ()) -> Table:
    from meldcalc.advice.hint import _check_variant

    _check_variant(variant)
    if variant.bidding is None:
        raise MeldcalcError(f"{variant.name} has no auction: a game follows bid hands")
    if variant.passing is not None:
        raise MeldcalcError(
            f"{variant.name} passes cards before play: the session does not follow a pass yet"
        )
    return Table(variant, dealer, names=tuple(names))


def replay(table: Table, steps: Sequence[str]) -> Table:
    """The table after ``steps`` (each accepted once), quietly: no advice is worked out."""
    for text in steps:
        table = apply(table, text, advise=False).table
    return table


def apply(table: Table, text: str, advise: bool = True, seed: int = 0) -> Answer:
    """One step typed at the table; raises `MeldcalcError` (the table unchanged) when the
    step cannot be so. ``advise``: work out the advice it prompts (a bid, a hint)."""
    words = text.split(maxsplit=1)
    if not words:
        raise NotationError("an empty step: type a card, a bid, 'hint', 'show' or 'help'")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "").strip()
    step = _STEPS.get(verb)
    if step is None:
        return _bare(table, text, advise)
    return step(table, rest, advise, seed)


def _bare(table: Table, text: str, advise: bool) -> Answer:
    """A step without a verb: a bid in the auction, a card in the play."""
    token = text.strip()
    if table.phase == "auction" and (is_whole_number(token) or token.lower() == "pass"):
        return _bid(table, token, advise, 0)
    if table.phase in ("meld", "play"):
        return _play(table, token, advise, 0)
    raise NotationError(
        f"{quote(token)}: not a step here ({table.phase}): type 'help' for the steps"
    )


def _seat_step(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    _in(table, "hand", "seat")
    seat = table.seat(rest)
    return Answer(replace(table, me=seat), [f"you sit in seat {seat}"], {"me": seat})


def _hand(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.meld import best_meld_all_trumps

    _in(table, "hand", "hand")
    hand = Hand.parse(rest)
    table.variant.check_hand(hand)
    if len(hand) != table.variant.hand_size:
        raise HandError(
            f"{cards_text(len(hand))}: a {table.variant.name} hand has {table.variant.hand_size}"
        )
    new = replace(table, hand=hand)
    melds = {r.trump.letter: r.total for r in best_meld_all_trumps(hand, table.variant)}
    lines = [
        f"your hand: {hand.notation()}",
        "meld under each trump: " + ", ".join(f"{t} {m}" for t, m in melds.items()),
    ]
    data: dict[str, Any] = {"hand": hand.notation(), "meld": melds}
    if advise:
        report = _bid_report(hand, table.variant, seed)
        best = report.best
        data["suggested_bid"], data["trump"] = report.suggested_bid, best.trump.letter
        lines.append(report.advice()[0])
        new = replace(new, odds=report)
    lines.append(_auction_prompt(new))
    return Answer(new, lines, data)


def _bid_report(hand: Hand, variant: Variant, seed: int) -> Any:
    from meldcalc.advice.bidding import estimate

    return estimate(hand, variant, deals=1000, seed=seed)


def _bid(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    _in(table, "auction", "bid")
    bidding, seat = table.variant.bidding, table.to_bid
    token = rest.strip().lower()
    if token == "pass":
        bid = None
    elif is_whole_number(token) and len(token) < 9:
        bid = int(token)
        high = table.high_bid
        floor = bidding.opening if high is None else bidding.next_bid(high[0])
        if bid < floor or bidding.first_at_least(bid) != bid:
            raise MeldcalcError(
                f"bid {bid}: the next legal bid is {bidding.first_at_least(floor)} (or pass)"
            )
    else:
        raise NotationError(f"{quote(rest)}: expected a bid such as {bidding.opening}, or pass")
    new = replace(table, bids=(*table.bids, (seat, bid)))
    said = f"{table.seat_label(seat)}: {'pass' if bid is None else bid}"
    if len(new.passed) == new.players:
        return _all_passed(table, new, said)
    if new.bidder is not None:
        lines = [said, f"{new.seat_label(new.bidder)} won the auction at {new.contract}"]
        lines.append(
            "name trump: trump S"
            if new.bidder == new.me
            else f"{new.seat_label(new.bidder)} names trump: trump S"
        )
        return Answer(new, lines, {"seat": seat, "bid": bid, "bidder": new.bidder})
    return Answer(new, [said, _auction_prompt(new)], {"seat": seat, "bid": bid})


def _all_passed(table: Table, new: Table, said: str) -> Answer:
    """Every seat passed: the dealer takes the opening bid where the variant forces it,
    else the hand is not played (the next deal starts)."""
    bidding = table.variant.bidding
    if not bidding.dealer_forced:
        lines = [said, "every seat passed: the hand is not played; deal the next one"]
        return Answer(new, lines, {"seat": new.bids[-1][0], "bid": None, "all_passed": True})
    dealer, opening = table.dealer, bidding.opening
    bids = (*(entry for entry in new.bids if entry[0] != dealer), (dealer, opening))
    forced = replace(new, bids=bids)
    lines = [said, f"every seat passed: the dealer ({table.seat_label(dealer)}) must bid {opening}"]
    return Answer(forced, lines, {"bidder": dealer, "bid": opening})


def _auction_prompt(table: Table) -> str:
    high = table.high_bid
    stands = "no bid yet" if high is None else f"the bid is {high[0]} ({table.seat_label(high[1])})"
    said = f"{stands}; {table.seat_label(table.to_bid)} to bid"
    if table.to_bid == table.me and table.odds is not None:
        said += f": {_odds_at(table, high)}"
    return said


def _odds_at(table: Table, high: tuple[int, int] | None) -> str:
    """Your odds at the level the auction has reached: the next legal bid, how often the
    simulation made it under your best trump, and the bid your confidence goes to."""
    from meldcalc.advice.odds import how_often

    bidding, best = table.variant.bidding, table.odds.best
    level = bidding.opening if high is None else bidding.next_bid(high[0])
    made = dict(best.make).get(level)
    if made is None:  # a level the odds table leaves out: the share of totals that reach it
        made = float((best.totals >= level).mean())
    limit = best.max_bid
    chance = f"{level} is {how_often(made, len(best.totals))} with {best.trump.letter}"
    go = "pass" if limit is None or limit < level else f"go on up to {limit}"
    return f"{chance}; {go}"


def _trump(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.meld import best_meld
    from meldcalc.rules.variant import may_name_trump

    _in(table, "trump", "trump")
    trump = parse_suit(rest)
    if table.bidder == table.me and not may_name_trump(table.hand, table.variant, trump):
        raise MeldcalcError(
            f"trump {trump.letter}: {table.variant.name} needs a marriage in trump, and your"
            " hand has none in it"
        )
    new = replace(table, trump=trump)
    mine = best_meld(table.hand, table.variant, trump)
    mine_cards = Hand.from_cards(card for meld in mine.melds for card in meld.cards)
    mine_cards = Hand([min(a, b) for a, b in zip(mine_cards.counts, table.hand.counts)])
    new = replace(new, melds=((table.me, mine.total, mine_cards),))
    lines = [f"trump {trump.letter} {trump.symbol}", f"your meld: {mine.total}"]
    example = "partner" if "partner" in place_offsets(table.variant) else "left"
    lines.append(f"lay down each seat's meld (meld {example} 120), then the cards as they fall")
    return Answer(new, lines, {"trump": trump.letter, "your_meld": mine.total})


def _meld(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.meld import best_meld

    _in(table, "meld", "meld")
    who, _, what = rest.partition(" ")
    seat = table.seat(who)
    if seat == table.me:
        raise MeldcalcError("your meld is counted from your hand: give the other seats'")
    what = what.strip()
    if is_whole_number(what) and len(what) < 9:
        total, cards = int(what), None
        step = table.variant.meld_step
        if total % step:
            raise MeldcalcError(f"meld {total}: every meld is a multiple of {step}")
    else:
        cards = Hand.parse(what)
        table.variant.check_hand(cards)
        table.variant.check_together([("your hand", table.hand), (f"seat {seat}", cards)])
        total = best_meld(cards, table.variant, table.trump).total
    melds = (*(m for m in table.melds if m[0] != seat), (seat, total, cards))
    new = replace(table, melds=melds)
    return Answer(new, [f"{table.seat_label(seat)} melds {total}"], {"seat": seat, "meld": total})


def _play(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.advice.hint import Query, hint_table

    _in(table, ("meld", "play"), "play")
    card = parse_card(rest).index
    seat = table.to_play
    played = [CARD_NAMES[c] for c in (*table.played, card)]
    query = Query(table.hand, table.trump, table.bidder, tuple(played), table.me, table.known())
    hint_table(query, table.variant, viewer=table.me)  # refuses what cannot be
    new = replace(table, played=(*table.played, card))
    lines = [f"{table.seat_label(seat)}: {CARD_NAMES[card]}"]
    tricks = new.tricks()
    if tricks and tricks[-1][2] >= 0 and len(new.played) % new.players == 0:
        _, _, winner, points = tricks[-1]
        lines.append(f"trick {len(tricks)} to {new.seat_label(winner)} ({points} points)")
    if new.phase == "over":
        lines += _scored_lines(new)
    elif new.to_play == new.me:
        lines.append("your turn")
    return Answer(new, lines, {"seat": seat, "card": CARD_NAMES[card]})


def _hint(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.advice.hint import Query, hint

    _in(table, ("meld", "play"), "hint")
    if table.to_play != table.me:
        raise MeldcalcError(f"it is {table.seat_label(table.to_play)}'s turn, not yours")
    if not advise:
        return Answer(table)
    played = tuple(CARD_NAMES[c] for c in table.played)
    query = Query(table.hand, table.trump, table.bidder, played, table.me, table.known())
    found = hint(query, table.variant, seed=seed)
    lines = [
        f"{value.card}: {value.points:.1f} points"
        + ("" if i == 0 else f" ({value.behind:.1f} behind)")
        for i, value in enumerate(found.cards)
    ]
    data = {
        "best": found.best.card,
        "cards": [{"card": v.card, "points": round(v.points, 2)} for v in found.cards],
    }
    return Answer(table, [f"best: {found.best.card} ({found.method})", *lines], data)


def _tricks(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.scoring import complete_sides

    _in(table, ("meld", "play"), "tricks")
    values = [v.strip() for v in rest.split(",")]
    if not all(is_whole_number(v) and len(v) < 9 for v in values):
        raise NotationError(f"{quote(rest)}: expected trick points, e.g. 160 (the bidding side's)")
    given = [int(v) for v in values]
    numbers = list(complete_sides(given, table.variant, table.bidder, table.variant.trick_total))
    new = replace(table, tricks_given=tuple(numbers))
    new.outcome()  # refuses points that cannot be
    return Answer(new, _scored_lines(new), {"tricks": numbers})


def _show(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    lines = [f"phase: {table.phase}"]
    if table.hand is not None:
        lines.append(
            f"your hand: {table.held().notation(table.trump)}"
            if table.trump
            else f"your hand: {table.hand.notation()}"
        )
    if table.bids:
        lines.append(
            "auction: " + ", ".join(f"{s}:{'pass' if b is None else b}" for s, b in table.bids)
        )
    if table.trump is not None:
        lines.append(
            f"trump {table.trump.letter}; bid {table.contract} by {table.seat_label(table.bidder)}"
        )
        lines.append("meld by side: " + ", ".join(map(str, table.side_melds())))
    if table.played:
        _, cards, _, _ = table.tricks()[-1]
        shown = " ".join(f"{s}:{CARD_NAMES[c]}" for s, c in cards)
        lines.append(f"trick {len(table.tricks())}: {shown}")
        lines.append("trick points by side: " + ", ".join(map(str, table.trick_points())))
    return Answer(table, lines, {"phase": table.phase})


def _help(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """The steps, as the module's docstring lists them."""
    block = __doc__.split("::", 1)[1].strip("\n").split("\n\n", 1)[0]
    return Answer(table, [line.removeprefix("    ") for line in block.splitlines()])


def _scored_lines(table: Table) -> list[str]:
    scored = table.outcome()
    return ["the hand is over", *scored.explanation]


def _in(table: Table, phases: str | tuple[str, ...], step: str) -> None:
    allowed = (phases,) if isinstance(phases, str) else phases
    if table.phase not in allowed:
        raise MeldcalcError(
            f"{step}: not now: the hand is at its {table.phase}"
            + (f" ({_auction_prompt(table)})" if table.phase == "auction" else "")
        )


_STEPS = {
    "seat": _seat_step,
    "hand": _hand,
    "bid": _bid,
    "pass": lambda table, rest, advise, seed: _bid(table, "pass", advise, seed),
    "trump": _trump,
    "meld": _meld,
    "play": _play,
    "hint": _hint,
    "tricks": _tricks,
    "show": _show,
    "help": _help,
}
