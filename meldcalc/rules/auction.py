"""The auction of one deal, as the variant's ``bidding`` says it goes (seeds 000-004): who
speaks next, which bids are legal, the rounds, the forced dealer, a pass that is final, and
who won. One place for the flow, as python-chess keeps its rules in `Board`: the session
asks it and never decides again.

Seats speak in turn from the dealer's left. A pass is final: a seat that passed is skipped
from then on. The auction ends when every seat but the high bidder has passed; where the
variant limits the rounds (``bidding.rounds``: firehouse bids once round), also when no
seat that has not passed may speak again, the high bid then winning. Every seat passing
ends the deal unplayed, unless the dealer is forced (``dealer_forced``: double deck), who
then takes the opening bid in place of its pass.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from meldcalc.errors import MeldcalcError, NotationError, quote
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.variant import Bidding

#: A bid larger than this is not one a game keeps (`meldcalc.game.ledger.MAX_POINTS`).
MAX_BID = 10_000_000


class AuctionError(MeldcalcError):
    """A bid or pass the auction does not allow where it stands."""


@dataclass(frozen=True)
class Auction:
    """The bids of one deal so far: (seat, bid), None for a pass, in the order spoken."""

    bidding: Bidding
    players: int
    dealer: int
    bids: tuple[tuple[int, int | None], ...] = ()

    @property
    def passed(self) -> frozenset[int]:
        return frozenset(seat for seat, bid in self.bids if bid is None)

    @property
    def high(self) -> tuple[int, int] | None:
        """The highest bid so far and its seat."""
        bids = [(bid, seat) for seat, bid in self.bids if bid is not None]
        return max(bids) if bids else None

    def spoken(self, seat: int) -> int:
        """How many times ``seat`` has spoken (its rounds used)."""
        return sum(1 for said, _ in self.bids if said == seat)

    def _may_speak(self, seat: int) -> bool:
        rounds = self.bidding.rounds
        return seat not in self.passed and (rounds is None or self.spoken(seat) < rounds)

    @property
    def to_speak(self) -> int | None:
        """The seat to speak next; None once the auction is over."""
        if self.over:
            return None
        last = self.bids[-1][0] if self.bids else self.dealer
        for step in range(1, self.players + 1):
            seat = (last + step) % self.players
            if self._may_speak(seat):
                return seat
        return None

    @property
    def over(self) -> bool:
        if len(self.passed) == self.players:
            return True
        if self.high is not None and len(self.passed) == self.players - 1:
            return True
        return not any(self._may_speak(seat) for seat in range(self.players))

    @property
    def winner(self) -> int | None:
        """The seat that won the auction, once it is over; None while it goes on, or when
        every seat passed."""
        high = self.high
        return high[1] if self.over and high is not None else None

    @property
    def all_passed(self) -> bool:
        return len(self.passed) == self.players

    @property
    def lowest(self) -> int:
        """The lowest legal bid now: the opening, or the next above the high bid."""
        high = self.high
        return self.bidding.opening if high is None else self.bidding.next_bid(high[0])

    def _dealer_must_bid(self, seat: int) -> bool:
        """Every other seat passed and nothing is bid: a forced dealer may not pass."""
        return (
            self.bidding.dealer_forced
            and seat == self.dealer
            and self.high is None
            and len(self.passed - {seat}) == self.players - 1
        )

    def say(self, bid: int | None) -> Auction:
        """The auction once the seat to speak bids ``bid`` (None: passes); `AuctionError`
        for a bid below the lowest legal one or off the variant's steps. A forced dealer's
        pass is its opening bid."""
        seat = self.to_speak
        if seat is None:
            raise AuctionError("the auction is over: no more bids")
        if bid is None and self._dealer_must_bid(seat):
            return replace(self, bids=(*self.bids, (seat, self.bidding.opening)))
        if bid is not None:
            floor = self.lowest
            if bid < floor:
                raise AuctionError(
                    f"bid {bid}: the next legal bid is {self.bidding.first_at_least(floor)}"
                    " (or pass)"
                )
            if self.bidding.first_at_least(bid) != bid:
                raise AuctionError(
                    f"bid {bid}: off the bidding's steps there: the nearest legal bid above it"
                    f" is {self.bidding.first_at_least(bid)} (or pass)"
                )
        return replace(self, bids=(*self.bids, (seat, bid)))

    def read(self, text: str) -> int | None:
        """A bid as typed: a whole number, or ``pass`` (None); `NotationError` else."""
        token = text.strip().lower()
        if token == "pass":
            return None
        if is_whole_number(token) and len(token) < 9 and int(token) <= MAX_BID:
            return int(token)
        raise NotationError(
            f"{quote(text.strip())}: expected a bid such as {self.bidding.opening} (at most"
            f" {MAX_BID:,}), or pass"
        )
