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
    thrown_in: bool = False  #: the bidding side threw the hand in before play
    no_marriage: bool = False  #: double deck: the bidder held no marriage in trump
    #: what the score needs besides the trick points typed (`counts_wanted`): counters and
    #: tricks each side took, and each side's checks where meld was typed as totals
    counters_given: tuple[int, ...] | None = None
    taken_given: tuple[int, ...] | None = None
    checks_given: tuple[int, ...] | None = None
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
        if self.no_marriage:
            return "over"
        if self.thrown_in:
            return "counts" if self.counts_wanted() else "over"
        if self.tricks_given is not None or len(self.played) == self.deal_size:
            return "counts" if self.counts_wanted() else "over"
        if self.auction.all_passed:
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
        from meldcalc.advice.history import Query, reads_auction

        names = tuple(CARD_NAMES[c] for c in played)
        widow = None if self.takes_widow else self.widow
        bids = self.auction.bids if reads_auction(self.variant) else ()
        return Query(
            self.playing,
            self.trump,
            self.bidder,
            names,
            self.me,
            self.known(),
            self.buried,
            widow,
            bids,
        )

    @property
    def deal_size(self) -> int:
        return self.players * self.variant.hand_size

    @property
    def auction(self) -> Any:
        """The auction as the variant's rules run it (`rules.auction.Auction`)."""
        from meldcalc.rules.auction import Auction

        return Auction(self.variant.bidding, self.players, self.dealer, self.bids)

    @property
    def passed(self) -> frozenset[int]:
        return self.auction.passed

    @property
    def high_bid(self) -> tuple[int, int] | None:
        """The highest bid so far and its seat."""
        return self.auction.high

    @property
    def bidder(self) -> int | None:
        """The auction's winner, once it is over."""
        return self.auction.winner

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
        """The seat to speak next in the auction (the last to speak, once it is over)."""
        seat = self.auction.to_speak
        return self.bids[-1][0] if seat is None else seat

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
            points[side_of(self.variant, self.bidder)] += self.buried_points()
        return tuple(points)

    def buried_points(self) -> int:
        """The counters' points buried: yours, or (the hand played out) every card not
        played."""
        buried = self._buried()
        return 0 if buried is None else sum(self._counter_points(buried))

    def _buried(self) -> Hand | None:
        if len(self.played) == self.deal_size:
            left = [self.variant.deck.copies_of(card) for card in CARDS]
            for card in self.played:
                left[card] -= 1
            return Hand(left)
        return self.buried

    def _counter_points(self, cards: Hand) -> list[int]:
        """The points of each counter among ``cards`` (the cards that score none left out)."""
        counters = self.variant.counters
        return [counters[card.rank] for card in cards.cards() if counters.get(card.rank)]

    def taken(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The hand played out: the tricks and the counters each side took (the burial's
        counters the bidder's, as its points are)."""
        from meldcalc.rules.scoring import side_count, side_of

        tricks, counters = [0] * side_count(self.variant), [0] * side_count(self.variant)
        for _, cards, winner, _ in self.tricks():
            side = side_of(self.variant, winner)
            tricks[side] += 1
            counters[side] += len(self._counter_points(Hand.from_cards(CARDS[c] for _, c in cards)))
        buried = self._buried()
        if self.variant.widow and buried is not None:
            counters[side_of(self.variant, self.bidder)] += len(self._counter_points(buried))
        return tuple(tricks), tuple(counters)

    def unmelded(self) -> list[int]:
        """The seats no meld was typed for: counted as none once play begins."""
        laid = {seat for seat, _, _ in self.melds}
        return [seat for seat in range(self.players) if seat not in laid]

    def side_melds(self) -> tuple[int, ...]:
        from meldcalc.rules.scoring import side_count, side_of

        meld = [0] * side_count(self.variant)
        for seat, total, _ in self.melds:
            meld[side_of(self.variant, seat)] += total
        return tuple(meld)

    def side_checks(self) -> tuple[int, ...]:
        """Each side's checks (check pinochle): as a `checks` step gave them, else counted
        from each seat's meld cards (a meld typed as a total carries none known)."""
        from meldcalc.rules.meld import best_meld
        from meldcalc.rules.scoring import side_count, side_of

        if self.checks_given is not None:
            return self.checks_given
        checks = [0] * side_count(self.variant)
        if not self.keeps_checks:
            return tuple(checks)
        for seat, _, cards in self.melds:
            counted = self.meld_counted() if seat == self.me else cards
            if counted is not None:
                found = best_meld(counted, self.variant, self.trump).melds
                checks[side_of(self.variant, seat)] += sum(meld.checks for meld in found)
        return tuple(checks)

    @property
    def keeps_checks(self) -> bool:
        return any(rule.checks for rule in self.variant.melds)

    def meld_counted(self) -> Hand:
        """The cards your meld is counted from: your hand with the widow, when you take it,
        else the hand you play."""
        return self.hand + self.widow if self.takes_widow else self.playing

    def hand_play(self) -> Any:
        """The hand as `meldcalc score` takes it (a `scoring.HandPlay`); None when every
        seat passed and it was not played."""
        from meldcalc.rules.scoring import HandPlay

        if self.contract is None:
            return None
        meld = self.side_melds()
        checks = self.side_checks() if self.keeps_checks else ()
        if self.forfeited:  # the 20-point minimum: not played (scoring says how it ends)
            return HandPlay(self.contract, self.bidder, meld, None, checks)
        if self.thrown_in or self.no_marriage:
            return HandPlay(
                self.contract, self.bidder, meld, None, checks, self.thrown_in, self.no_marriage
            )
        taken, counters = self.taken_given, self.counters_given
        if len(self.played) == self.deal_size:
            taken, counters = self.taken()
        tricks = self.trick_points()
        return HandPlay(
            self.contract, self.bidder, meld, tricks, checks, False, False, taken, counters
        )

    def outcome(self) -> Any:
        """The hand scored as `meldcalc score` scores it (a `scoring.HandScore`); None when
        every seat passed and it was not played."""
        from meldcalc.rules.scoring import score_hand

        play = self.hand_play()
        return None if play is None else score_hand(self.variant, play)

    def counts_wanted(self) -> str | None:
        """What the hand's score still needs, its play over: ``checks`` (a meld typed as a
        total in a game of checks), ``counters_taken`` or ``tricks_taken`` (a save-meld
        rule the trick points do not settle); None when it can be scored. Refuses what the
        score refuses (trick points that cannot be)."""
        from meldcalc.rules.scoring import CountNeeded

        try:
            self.outcome()
        except CountNeeded as needed:
            return needed.count
        totals = any(cards is None and total for seat, total, cards in self.melds)
        if self.keeps_checks and self.checks_given is None and totals and not self.no_marriage:
            return "checks"
        return None

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
            for seat, _, cards in self.melds:  # what its meld shows is counted there already
                if seat == self.pass_partner and cards is not None:
                    sent = tuple(max(a - b, 0) for a, b in zip(sent, cards.counts))
            if any(sent):
                known.append(f"{self.pass_partner}:{Hand(sent).notation()}")
        if self.other is not None:  # your other hand, whole
            known.append(f"{self.other_seat}:{self.other.notation()}")
        return tuple(known)
