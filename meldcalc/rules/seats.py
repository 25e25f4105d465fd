"""Seats, named one way in every command (`bid`, `hint`, `play`, `review`, `score`, `game`).

Seats are numbered from 0 in playing order. In a game seat 0 is the first to bid, after
the dealer (on the dealer's left where play goes clockwise), and the dealer is the last
seat; a deal given hand by hand lists the hands from seat 0. A seat is also named from
yours (the command's ``--seat``, seat 0 unless said): ``me`` or ``you``; ``left`` and
``right``, the seats beside you: where play goes clockwise (every text but seed 003)
``left`` is the seat after yours and ``right`` the seat before, and where it goes
counter-clockwise (the variant's ``play.direction``) the other way round; ``partner``,
opposite you in a four-handed partnership game (six players have two partners each: they
are named by number). In a game, the names it keeps name seats too:
where each plays for himself a player's name is the player's seat; where an option means
a side (`score --bidder`: the scoring needs only the side) a side's name is its first seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from meldcalc.errors import NotationError, quote
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.variant import Variant

#: The words that name a seat from yours.
PLACE_WORDS = ("me", "you", "left", "right", "partner")
#: How a seat is given, for every option's help text.
SEAT_WORDS = "a number from 0 in playing order, or me, left, partner, right from your seat"


def place_offsets(variant: Variant) -> dict[str, int]:
    """The places named from a seat, as steps after it in playing order: ``left`` 1 and
    ``right`` the last seat before it where play goes clockwise, the other way round where
    it goes counter-clockwise; ``partner`` opposite (four-handed partnerships)."""
    after, before = 1, variant.players - 1
    if variant.direction == "counterclockwise":  # the next to play sits on your right
        after, before = before, after
    offsets = {"left": after, "right": before}
    if variant.partnerships and variant.players == 4:
        offsets["partner"] = 2
    return offsets


@dataclass(frozen=True)
class Seating:
    """How seats are named at one table: ``me`` is your seat, ``names`` the game's names
    of its sides (side 0 first; empty outside a game)."""

    variant: Variant
    me: int = 0
    names: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return self.variant.players

    def _side_seats(self, side: int) -> list[int]:
        if not self.variant.partnerships:
            return [side]
        return [seat for seat in range(self.players) if seat % 2 == side]

    def parse(self, text: str, option: str = "seat", sides: bool = False) -> int:
        """The seat ``text`` names: a number, a place from yours, or a name of the game
        (with ``sides``, a side's name gives its first seat). ``option`` words the error."""
        key = text.strip().lower()
        places = {"me": 0, "you": 0, **place_offsets(self.variant)}
        if key in places:
            return (self.me + places[key]) % self.players
        if is_whole_number(key) and len(key) < 4 and int(key) < self.players:
            return int(key)
        for side, name in enumerate(self.names):
            seats = self._side_seats(side)
            if key == name.lower() and (sides or len(seats) == 1):
                return seats[0]
            players = [part.strip().lower() for part in name.split(" and ")]
            if len(players) == len(seats) > 1 and key in players:  # one name a seat, joined
                return seats[players.index(key)]
        raise NotationError(f"{option} {quote(text)}: {self._expected(key, sides)}")

    def _expected(self, key: str, sides: bool) -> str:
        expected = f"expected a seat from 0 to {self.players - 1}, or " + ", ".join(
            ["me", *sorted(place_offsets(self.variant))]
        )
        named = [
            name
            for side, name in enumerate(self.names)
            if sides or len(self._side_seats(side)) == 1
        ]
        if named:
            expected += ", or " + ", ".join(named)
        elif any(key == name.lower() for name in self.names):
            expected += " (a side's name stands for two seats here: give the seat)"
        if key == "partner" and "partner" not in place_offsets(self.variant):
            name = self.variant.name
            partners = [s for s in self._side_seats(self.me % 2) if s != self.me]
            expected += (
                f" ({name} has two partners, seats {partners[0]} and {partners[1]}: name each"
                " by its number)"
                if self.variant.partnerships and len(partners) > 1
                else f" ({name} has no partner: each plays for himself)"
            )
        return expected

    def label(self, seat: int) -> str:
        """How output names ``seat``: its game name where it has one to itself, else
        ``seat N``; ``(you)`` or its place from yours after it."""
        named = {s: n for side, n in enumerate(self.names) for s in self._side_seats(side)}
        alone = not self.variant.partnerships
        base = named[seat] if alone and seat in named else f"seat {seat}"
        if seat == self.me:
            return f"{base} (you)"
        places = {(self.me + o) % self.players: p for p, o in place_offsets(self.variant).items()}
        if self.variant.hands_each > 1 and "partner" in places.values():  # you hold both
            places = {s: "your other hand" if p == "partner" else p for s, p in places.items()}
        return f"{base} ({places[seat]})" if seat in places else base
