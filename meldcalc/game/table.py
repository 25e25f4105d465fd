"""What the session knows of a hand at the table (`Table`), and the figures it makes.

A `Table` is what a player has seen of one hand, as `meldcalc.game.session` folds the steps
typed into it: the seats, your hand as dealt, the auction, the widow and what you buried,
the pass, the trump, the meld laid down and the cards played. It says where the hand
stands (`Table.phase`: whose turn, what the table waits for), your hand as you play it,
what you have seen as `advice.hint` takes it (`Table.query`), the tricks and each side's
points, and the hand scored as `meldcalc score` scores it (`Table.outcome`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meldcalc.rules.cards import CARD_NAMES, CARDS, Hand, Suit
from meldcalc.rules.seats import Seating
from meldcalc.rules.variant import Variant

#: Where a hand stands, in order (`Table.phase`); a variant without a widow or a pass skips
#: those.
PHASES = ("hand", "auction", "widow", "ask", "pass", "trump", "bury", "meld", "play", "over")


@dataclass(frozen=True)
class Table:
    """What the session knows of the hand so far."""

    variant: Variant
    dealer: int
    me: int = 0
    names: tuple[str, ...] = ()  #: the game's names of its sides, side 0 first
    hand: Hand | None = None
    other: Hand | None = None  #: your other hand as dealt, where each player holds two
    bids: tuple[tuple[int, int | None], ...] = ()  #: (seat, bid), None for a pass
    trump: Suit | None = None
    widow: Hand | None = None  #: the widow as turned up (taken, when you bid)
    buried: Hand | None = None  #: the cards you buried, when you bid
    ask: Suit | None = None  #: card exchange: the suit asked for
    given: Hand | None = None  #: the cards you passed
    got: Hand | None = None  #: the cards passed to you
    melds: tuple[tuple[int, int, Hand | None], ...] = ()  #: (seat, total, cards if given)
    played: tuple[int, ...] = ()
    tricks_given: tuple[int, ...] | None = None
    #: your bid's odds (a `bidding.BidReport`), where they were worked out: not part of what
    #: the table knows, so a replay without advice equals the table with it
    odds: Any = field(default=None, compare=False, repr=False)
    #: the game's score before this hand (each side's total) and its target, where the
    #: session follows a game under way: the bid is then judged by the game too
    game_score: tuple[tuple[int, ...], int] | None = field(default=None, compare=False)
    #: who plays the simulated deals of your odds and hints (`meldcalc.engines.policies`):
    #: how the session advises, not what the table knows
    policy: str = field(default="learned", compare=False)

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
        if self.takes_widow and self.widow is None:
            return "widow"
        if self.passing_kind == "exchange" and self.passes and self.ask is None:
            return "ask"
        if self.passing_kind == "exchange" and self.passes and self._first_pass() is None:
            return "pass"
        if self.trump is None:
            return "trump"
        if self.takes_widow and self.buried is None:
            return "bury"
        if self.passes and (self.given is None or self.got is None):
            return "pass"
        if self.forfeited:
            return "over"
        return "play" if self.played else "meld"

    # --- two hands each -----------------------------------------------------------------

    @property
    def other_seat(self) -> int | None:
        """Your other hand's seat, where each player holds two hands (the variant's
        ``hands_each``): the seat opposite yours."""
        return (self.me + 2) % self.players if self.variant.hands_each > 1 else None

    def yours(self, seat: int) -> bool:
        """Whether you hold ``seat``'s hand: yours, or your other hand."""
        return seat in (self.me, self.other_seat)

    def query_at(self, seat: int, played: Sequence[int]) -> Any:
        """`query` from ``seat``, one you hold: at your other hand its cards are the hand,
        and yours are known to it."""
        query = self.query(played)
        if seat == self.me:
            return query
        from dataclasses import replace

        known = [k for k in query.known if not k.startswith(f"{seat}:")]
        known.append(f"{self.me}:{self.playing.notation()}")
        return replace(query, hand=self.other, seat=seat, known=tuple(known))

    # --- a bid lost on the meld -------------------------------------------------------------

    @property
    def short_of_meld(self) -> bool:
        """Whether the meld laid down so far leaves the bidding side under the meld minimum
        where the house forfeits the bid for it (`rules.settle.short_of_meld`): no card
        is played; the bid is lost unless more of its meld is laid down."""
        from meldcalc.rules.scoring import side_of
        from meldcalc.rules.settle import short_of_meld

        if self.trump is None or self.played or self.tricks_given is not None:
            return False
        return short_of_meld(self.variant, self.side_melds(), side_of(self.variant, self.bidder))

    @property
    def forfeited(self) -> bool:
        """The bidding side short of meld with every seat's meld laid down: the hand is
        over, unplayed."""
        return self.short_of_meld and len({seat for seat, _, _ in self.melds}) == self.players

    # --- the widow and the pass -------------------------------------------------------------

    @property
    def takes_widow(self) -> bool:
        """Whether you bid in a game with a widow: you take it, and bury as many."""
        return bool(self.variant.widow) and self.bidder == self.me

    @property
    def passing_kind(self) -> str | None:
        return None if self.variant.passing is None else self.variant.passing.kind

    @property
    def pass_partner(self) -> int | None:
        """Who you pass cards with: your partner when your side bid (you or it)."""
        if self.variant.passing is None or self.bidder is None:
            return None
        partner = (self.bidder + 2) % self.players
        if self.me == self.bidder:
            return partner
        return self.bidder if self.me == partner else None

    @property
    def passes(self) -> bool:
        return self.pass_partner is not None

    def _first_pass(self) -> Hand | None:
        """The first cards of the pass: the partner sends first (you, unless you bid)."""
        return self.got if self.me == self.bidder else self.given

    @property
    def playing(self) -> Hand:
        """Your hand as you play it: as dealt, with the widow taken and your burial left out,
        and the cards of the pass sent and received."""
        counts = list(self.hand.counts)
        for cards, sign in (
            (self.widow if self.takes_widow else None, 1),
            (self.buried, -1),
            (self.given, -1),
            (self.got, 1),
        ):
            if cards is not None:
                counts = [c + sign * n for c, n in zip(counts, cards.counts)]
        return Hand(counts)

    def query(self, played: Sequence[int]) -> Any:
        """What you have seen, as `advice.hint` takes it, with ``played`` the cards played."""
        from meldcalc.advice.history import Query

        names = tuple(CARD_NAMES[c] for c in played)
        widow = None if self.takes_widow else self.widow
        return Query(
            self.playing, self.trump, self.bidder, names, self.me, self.known(), self.buried, widow
        )

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

    def auction_said(self) -> tuple[tuple[int, int | None, int | None], ...]:
        """What each other seat's bids say, counted from your seat as the bid's knowledge
        counts seats: (seat, its highest bid, the bid it passed rather than make)."""
        from meldcalc.rules.systems import auction_said

        return auction_said(self.variant.bidding, self.players, self.bids, self.me)

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
        from meldcalc.advice.history import turns

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

    def held(self, seat: int | None = None) -> Hand:
        """Your cards still in hand (the hand you play, less the cards you played), or
        your other hand's (``seat``), where you hold two."""
        seat = self.me if seat is None else seat
        start = self.playing if seat == self.me else self.other
        if not self.played:
            return start
        from meldcalc.advice.history import turns

        counts = list(start.counts)
        seats, _ = turns(self.played, self.bidder, self.trump, self.players)
        for card, by in zip(self.played, seats):
            if by == seat:
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
        if self.variant.widow and self.bidder is not None:  # the burial counts for the bidder
            points[side_of(self.variant, self.bidder)] += self._buried_points()
        return tuple(points)

    def _buried_points(self) -> int:
        """The counters buried: yours, or (the hand played out) every card not played."""
        if len(self.played) == self.deal_size:
            left = [self.variant.deck.copies_of(card) for card in CARDS]
            for card in self.played:
                left[card] -= 1
            buried = Hand(left)
        elif self.buried is not None:
            buried = self.buried
        else:
            return 0
        return sum(self.variant.counters.get(card.rank, 0) for card in buried.cards())

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
        tricks = None if self.forfeited else self.trick_points()
        play = HandPlay(self.contract, self.bidder, self.side_melds(), tricks)
        return score_hand(self.variant, play)

    def as_played(self) -> Any:
        """The hand played out as a `bidding.PlayedDeal`, every seat's hand as dealt: each
        held the cards it played."""
        from meldcalc.advice.history import turns
        from meldcalc.advice.replay import replay as replay_deal

        seats, _ = turns(self.played, self.bidder, self.trump, self.players)
        hands = [[0] * len(CARD_NAMES) for _ in range(self.players)]
        for card, seat in zip(self.played, seats):
            hands[seat][card] += 1
        names = [CARD_NAMES[c] for c in self.played]
        return replay_deal([Hand(h) for h in hands], self.variant, self.trump, self.bidder, names)

    def known(self) -> tuple[str, ...]:
        """The cards other seats laid down, and those you passed your partner (less any it
        passed back), as `hint`'s ``known`` takes them."""
        known = [
            f"{seat}:{cards.notation()}"
            for seat, _, cards in self.melds
            if cards is not None and not self.yours(seat) and len(cards)
        ]
        if self.passes and self.given is not None:
            back = self.got if self.me != self.bidder and self.got is not None else None
            if self.variant.passing.simultaneous:  # chosen before seeing yours: it keeps them
                back = None
            sent = self.given.counts
            if back is not None:  # you sent first: it may have passed some of them back
                sent = tuple(max(a - b, 0) for a, b in zip(sent, back.counts))
            if any(sent):
                known.append(f"{self.pass_partner}:{Hand(sent).notation()}")
        if self.other is not None:  # your other hand, whole
            known.append(f"{self.other_seat}:{self.other.notation()}")
        return tuple(known)
