"""The auction as the quiz asks about it: the one place the learning layer reads its flow.

The legal bids are the variant's (`rules.variant.Bidding`: the opening, the steps,
`next_bid`). The flow (RULES.md "Bidding", seed 001's rounds) is kept here because rules/
has no auction of its own on main yet: bidding goes round to the left from the dealer's
left; a pass is final; the auction ends when every seat but one has passed after a bid, or
when every seat has spoken ``rounds`` times; a deal every seat passes is dealt again,
unless the dealer must then bid the opening (``dealer_forced``). When rules/ gains an
auction, this module asks it instead, and nothing else in learning/ changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from meldcalc.rules.variant import Bidding

Call = tuple[int, int | None]  #: (seat, bid); None for a pass


@dataclass(frozen=True)
class Auction:
    bidding: Bidding
    players: int
    dealer: int
    calls: tuple[Call, ...] = ()

    def said(self, bid: int | None) -> Auction:
        """The auction once the seat to speak has said ``bid`` (None: pass)."""
        seat = self.to_speak
        assert seat is not None, "the auction is over"
        return Auction(self.bidding, self.players, self.dealer, (*self.calls, (seat, bid)))

    @property
    def passed(self) -> set[int]:
        return {seat for seat, bid in self.calls if bid is None}

    @property
    def high(self) -> Call | None:
        """The highest bid so far and its seat (a higher bid is the only legal one)."""
        bids = [(seat, bid) for seat, bid in self.calls if bid is not None]
        return max(bids, key=lambda call: call[1]) if bids else None

    def lowest_bid(self) -> int:
        """The lowest bid the seat to speak may make: the opening, or the next legal bid
        above the one standing."""
        high = self.high
        return self.bidding.opening if high is None else self.bidding.next_bid(high[1])

    def spoken(self, seat: int) -> int:
        return sum(1 for who, _ in self.calls if who == seat)

    @property
    def over(self) -> bool:
        return self.to_speak is None

    @property
    def to_speak(self) -> int | None:
        """The next seat to call; None once the auction is over."""
        if len(self.passed) == self.players:
            return None
        if self.high is not None and len(self.passed) == self.players - 1:
            return None
        rounds = self.bidding.rounds
        start = self.calls[-1][0] + 1 if self.calls else self.dealer + 1
        for step in range(self.players):
            seat = (start + step) % self.players
            if seat not in self.passed and (rounds is None or self.spoken(seat) < rounds):
                return seat
        return None

    @property
    def winner(self) -> Call | None:
        """The seat that won and its bid, once the auction is over; None before, or when
        every seat passed."""
        return self.high if self.over else None

    @property
    def dealer_must_bid(self) -> bool:
        """Every seat but the dealer has passed, no bid stands, and the variant forces the
        dealer to open."""
        return (
            self.bidding.dealer_forced
            and self.high is None
            and self.to_speak == self.dealer
            and len(self.passed) == self.players - 1
        )

    def may_pass(self) -> bool:
        return not self.dealer_must_bid
