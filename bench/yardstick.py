"""The fixed yardstick: the fast policy of meldcalc 0.2.0, frozen.

The reference player (`meldcalc.engines.reference`) plays its layouts out with a policy; left to
its default, that is the policy under test, so every change to the policy would move the
yardstick that judges it. The benches seat this copy in the reference's play-outs instead
(``Reference(..., rollout=Yardstick)``), so every figure is against the same opponent.

Only the policy is frozen: the rules of play (legal cards, what a card shows of a hand)
are `meldcalc.engines.simulate.Game`'s, which are exact, and so are the bit operations it reads
its hands with (`meldcalc.rules.bits`, under the names 0.2.0 gave them). The decisions below are
meldcalc 0.2.0's (`git show e4e52a5:meldcalc/engines/simulate.py`), copied as they were: their
rules are in that module's docstring. Do not edit them; a new yardstick is a new file
(tests/test_yardstick.py fails if the cards it plays change).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meldcalc.engines.simulate import Game
from meldcalc.rules.bits import (
    ABOVE,
    BITS,
    MASK,
    ONE,
    SUIT_MASK,
    highest_bit_index,
    lowest_bit_index,
)
from meldcalc.rules.bits import of_suits as _of_suits
from meldcalc.rules.bits import outranked as _outranked
from meldcalc.rules.bits import prefer as _prefer
from meldcalc.rules.bits import singletons as _singletons
from meldcalc.rules.bits import suits_of as _suits


@dataclass(frozen=True)
class Threat:
    """What the opponents still to play to a trick may hold, per deal: ``follows``, cards of
    the led suit; ``ruffs``, trumps of those known to be void in the led suit."""

    follows: np.ndarray
    ruffs: np.ndarray

    def unbeaten(self, cards: np.ndarray, led_suit: np.ndarray, trump: np.ndarray) -> np.ndarray:
        """The cards of ``cards`` (each a candidate to win the trick) that no card the
        opponents may play could beat."""
        trump_led = led_suit == trump
        in_led = cards & SUIT_MASK[led_suit]
        trumps = np.where(trump_led, 0, cards & SUIT_MASK[trump])
        may_ruff = (self.ruffs != 0) & ~trump_led
        plain_ok = np.where(may_ruff, 0, in_led & ~_outranked(self.follows))
        return plain_ok | (trumps & ~_outranked(self.ruffs))


class Yardstick(Game):
    """A `Game` whose seats play the policy of meldcalc 0.2.0."""

    def _unseen_cards(self) -> np.ndarray:
        """For each deal: the cards the seat to play cannot see (a copy is in another hand).

        It follows from the seat's own hand and the cards played, so the policy uses nothing
        a player could not know."""
        mine = self.flat[:, self.at]
        unseen = self.remaining[0] & ~mine[0]
        for left, held in zip(self.remaining[1:], mine[1:]):
            unseen |= left & ~held
        return unseen

    def _trump_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """For each deal: the trumps the seat to play holds, and those the others hold (all
        trumps not yet played, less its own: what any player can work out)."""
        mine = np.bitwise_count(self.flat[:, self.at] & self.trump_mask).sum(axis=0)
        return mine, self.trumps_left - mine

    def _choose(self, seat: np.ndarray, held: np.ndarray, legal: np.ndarray) -> np.ndarray:
        self._unseen = self._unseen_cards()  # read by the rules below, once per decision
        if self.position == 0:
            choice = self._lead(seat, held)
        else:
            choice = self._follow(seat, legal, self.position, self.best, self.best_pos)
        if self.random_seats.any():
            randomly = self.random_seats[seat]
            choice = np.where(randomly, self._random(legal), choice)
        return choice

    def _lead(self, seat: np.ndarray, held: np.ndarray) -> np.ndarray:
        """The leads of the module docstring, the first that applies: cash a boss, lead to
        a partner's ruff, draw trump (the bidder), lead low."""
        trump_mask = self.trump_mask
        foes, ruffed, partner_ruffs = self._ruffs(seat, self._unseen)
        plain = held & ~trump_mask
        bosses = plain & ~_outranked(held) & ~_outranked(foes) & ~ruffed
        cash = _prefer(bosses, _singletons(held) & bosses)
        to_ruff = plain & partner_ruffs & ~ruffed
        to_ruff = _prefer(to_ruff, to_ruff & ~self.valued)
        draw, trump = self._trump_lead(held & trump_mask, foes & trump_mask)
        draw &= seat == 0  # the bidder's; the others keep their trumps to ruff with
        choice = np.where(draw, trump, self._low_lead(seat, held, foes, ruffed))
        choice = np.where(to_ruff != 0, highest_bit_index(to_ruff), choice)
        return np.where(bosses != 0, lowest_bit_index(cash), choice)

    def _trump_lead(
        self, mine: np.ndarray, foe_trumps: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Whether to draw trump, and with which: while an opponent may hold one and the
        seat holds the top trump or is long in trump; the top trump if it is a boss, else
        the lowest (the opponents must head it and spend their high trumps)."""
        my_trumps, unseen_trumps = self._trump_counts()
        top = lowest_bit_index(mine)
        boss = (mine & (ONE << top) & ~_outranked(foe_trumps)) != 0
        long = (my_trumps >= 2) & (2 * my_trumps >= unseen_trumps)
        draw = (mine != 0) & (foe_trumps != 0) & (boss | long)
        return draw, np.where(boss, top, highest_bit_index(mine))

    def _low_lead(
        self, seat: np.ndarray, held: np.ndarray, foes: np.ndarray, ruffed: np.ndarray
    ) -> np.ndarray:
        """The lowest plain card worth no points: first in a suit where the partner has
        melded a card no opponent may beat; else outside the suits where an opponent may
        trump or has melded a card above all of the seat's; else outside those it may
        trump; else anywhere. Failing those, the lowest plain card, else the lowest card."""
        plain = held & ~self.trump_mask
        blank = plain & ~self.valued
        foe_shown, friend_shown = self._shown_by_sides(seat)
        foe_tops = _of_suits(_suits(foe_shown & ~_outranked(held)))
        friend_tops = _of_suits(_suits(friend_shown & ~_outranked(foes) & ~self.trump_mask))
        safe = blank & ~ruffed
        for better in (plain, blank, safe, safe & ~foe_tops, safe & friend_tops):
            held = _prefer(held, better)
        return highest_bit_index(held)

    def _shown_by_sides(self, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The melded cards the opponents still hold, and those the partners still hold."""
        players = self.t.players
        foes = np.zeros(self.n, dtype=MASK)
        friends = np.zeros(self.n, dtype=MASK)
        if self.shown is None:
            return foes, friends
        for k in range(1, players):
            other = (seat + k) % players
            shown = self.shown[0, self.rows * players + other]
            foe = self.t.team[other] != self.t.team[seat]
            foes |= np.where(foe, shown, 0)
            friends |= np.where(foe, 0, shown)
        return foes, friends

    def _ruffs(
        self, seat: np.ndarray, unseen: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cards some opponent may hold; the plain suits (as masks) an opponent may
        trump (it is known void in them and may hold a trump); those a partner may trump."""
        t, players = self.t, self.t.players
        foes = np.zeros(self.n, dtype=MASK)
        ruffed = np.zeros(self.n, dtype=MASK)
        partner_ruffs = np.zeros(self.n, dtype=MASK)
        for k in range(1, players):
            other = (seat + k) % players
            foe = t.team[other] != t.team[seat]
            may = unseen & ~self.lacks[self.rows * players + other]
            foes |= np.where(foe, may, 0)
            void = _of_suits(~_suits(may)) & ~self.trump_mask
            ruffs = np.where((may & self.trump_mask) != 0, void, 0)
            ruffed |= np.where(foe, ruffs, 0)
            partner_ruffs |= np.where(foe, 0, ruffs)
        return foes, ruffed, partner_ruffs

    def _follow(
        self,
        seat: np.ndarray,
        legal: np.ndarray,
        position: int,
        best: np.ndarray,
        best_pos: np.ndarray,
    ) -> np.ndarray:
        """The follows of the module docstring: feed a safe partner, cover an unsafe one,
        else win as cheaply as is safe, else throw low."""
        t, trump_mask = self.t, self.trump_mask
        winner_seat = (self.leader + best_pos) % t.players
        partner_winning = t.team[winner_seat] == t.team[seat]
        led_suit, best_suit = self.on_table[:, 0] & 3, best & 3
        threat = self._later_foes(seat, position, led_suit)
        wins = legal & ABOVE[best] & SUIT_MASK[best_suit]
        wins |= np.where(best_suit != t.trump, legal & trump_mask, 0)
        safe_wins = threat.unbeaten(wins, led_suit, t.trump)
        if position == 1:  # second to a trump lead: head cheaply, keep the top trumps
            safe_wins = np.where(led_suit == t.trump, 0, safe_wins)
        holds = threat.unbeaten(ONE << best, led_suit, t.trump) != 0
        take = np.where(safe_wins != 0, highest_bit_index(safe_wins), highest_bit_index(wins))
        plain = legal & ~trump_mask
        low = np.where(plain != 0, highest_bit_index(plain), highest_bit_index(legal))
        feed = self._feed(plain, position, low)
        cover = partner_winning & ~holds & (safe_wins != 0)
        low = np.where(cover, highest_bit_index(safe_wins), low)
        safe = partner_winning & holds
        return np.where(safe, feed, np.where((wins != 0) & ~partner_winning, take, low))

    def _feed(self, plain: np.ndarray, position: int, low: np.ndarray) -> np.ndarray:
        """The counter to give a partner's safe trick: a ten, else a king, else an ace,
        outside trump; before last seat never a card that would win a trick of its own
        (no unseen card outranks it), else ``low``."""
        if position < self.t.players - 1:
            plain &= _outranked(self._unseen)
        counters = plain & 0xF  # aces (rank-major nibbles)
        for nibble in (0xF00, 0xF0):  # kings, then tens, each preferred over the last
            of_rank = plain & nibble
            counters = np.where(of_rank != 0, of_rank, counters)
        return np.where(counters != 0, highest_bit_index(counters), low)

    def _later_foes(self, seat: np.ndarray, position: int, led_suit: np.ndarray) -> Threat:
        """What the opponents still to play to this trick may hold: cards of the led suit,
        and (those known void in it) trumps."""
        t, players = self.t, self.t.players
        unseen = self._unseen
        led_mask = SUIT_MASK[led_suit]
        follows = np.zeros(self.n, dtype=MASK)
        ruffs = np.zeros(self.n, dtype=MASK)
        for k in range(1, players - position):
            other = (seat + k) % players
            foe = t.team[other] != t.team[seat]
            may = unseen & ~self.lacks[self.rows * players + other]
            void = (may & led_mask) == 0
            follows |= np.where(foe, may & led_mask, 0)
            ruffs |= np.where(foe & void, may & self.trump_mask, 0)
        return Threat(follows, ruffs)

    def _random(self, legal: np.ndarray) -> np.ndarray:
        """A uniformly random legal card (for measuring the policy against chance)."""
        bits = (legal[:, None] >> np.arange(BITS)) & 1
        keys = np.where(bits == 1, self.rng.random((self.n, BITS)), 2.0)
        return keys.argmin(axis=1)
