"""Playing many deals at once: numpy lock-step play-outs with the seat policy.

Every deal advances one card at a time together with all the others. A hand is a few int32
bitmasks ("planes"): plane k holds the cards the seat has at least k+1 copies of. Bits are
laid out rank-major (bit = rank * 4 + suit), so the lowest set bit of a mask is its highest
card and the highest set bit its lowest card; the trick rules and the policy are then a
handful of bitwise operations over arrays of deals.

The policy (`choose`) plays every seat, using only what that seat may know: its own hand,
the cards played, and what the others have shown (`Game`): a card another seat "may hold"
is one not yet played nor in the seat's own hand that the other has not shown it lacks.

As leader:
  0. a bidder without a partner (three-handed, cutthroat) draws trump first, as in 3.,
     before anything else: alone against two it cannot count on a partner's ruff, and its
     bosses are safe only once the trumps are out (measured in duplicate against the
     policy, the bidder gains 2.6 trick points a deal three-handed, 5.3 cutthroat, 1.2 in
     double-deck three-handed; against the reference three-handed, the reference's edge
     falls from 26.7 to 24.3. With a partner it loses 0.1-0.5, so four-handed play is as
     it was);
  1. cash a boss: a plain card no opponent may beat (none may hold a higher card of its
     suit) in a suit no opponent may trump (known void in it, and it may hold a trump); a
     singleton boss first, to make a void;
  2. else lead to a partner's ruff: the lowest plain card (worth no points if it can) of a
     suit the partner is known void in, while it may hold a trump and no opponent may trump;
  3. else, the bidder (seat 0) only, draw trump while an opponent may hold one and it
     holds the top trump or at least two and half of those unseen: the top trump if it is
     a boss, else the lowest (the others must head it and spend their high trumps); its
     partner and the defenders keep their trumps to ruff with;
  4. else lead low: the lowest plain card worth no points, preferring a suit where the
     partner melded a card no opponent may beat (to its shown strength), then suits no
     opponent may trump nor has melded a card above all of the seat's (not into a known
     void or a known boss); else the lowest plain card.
Following (the "later opponents" are those still to play to the trick):
  1. when a partner is winning the trick and no later opponent may beat its card (a higher
     card of its suit, or a trump from one known void in the led suit), feed it counters:
     a ten, else a king, else an ace, outside trump; before last seat never a card that
     would win a trick of its own (no unseen card outranks it);
  2. when a partner is winning but a later opponent may beat its card, take the trick over
     with the cheapest card no later opponent may beat, if it holds one;
  3. else, an opponent winning and able to win: with the cheapest card no later opponent
     may beat, or failing one the cheapest card that wins now (second to a trump lead,
     always the cheapest: the top trumps keep for later);
  4. else throw the lowest card, keeping counters off the opponents' trick.
Legality is never the policy's business: it only ever picks among the legal cards, and
void of the led suit the rules make it trump (and over-trump) where it must.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from meldcalc.rules.bits import (
    ABOVE,
    BIT_OF,
    BITS,
    CARD_OF,
    MASK,
    ONE,
    SUIT_MASK,
    counts_from_planes,
    highest_bit_index,
    lowest_bit_index,
    of_suits,
    outranked,
    planes_from_counts,
    prefer,
    singletons,
    suits_of,
)
from meldcalc.rules.cards import RANKS, Suit
from meldcalc.rules.variant import Variant


def _take_one(planes: np.ndarray, mask: np.ndarray, at: np.ndarray | slice) -> None:
    """Remove one copy of each ``mask`` card from ``planes[:, at]``: from the top plane that
    holds it, so the planes stay nested (plane k: at least k+1 copies)."""
    taken = np.zeros(len(mask), dtype=bool)
    for plane in planes[::-1]:
        values = plane[at]
        has = (values & mask) != 0
        plane[at] = values & ~(mask * (has & ~taken))
        taken |= has


@dataclass
class Table:
    """The rules a batch of deals is played under, as masks and arrays.

    ``trump`` is one suit index per deal, so one batch can hold the same deals under every
    trump (the lock-step costs per operation, not per deal: bigger batches run faster).
    """

    players: int
    trump: np.ndarray
    points: np.ndarray  # trick points of each bit
    last_trick: int
    head: str
    overtrump: bool
    team: np.ndarray  # team of each seat: 0 is the bidder's side (the bidder is seat 0)

    @classmethod
    def of(cls, variant: Variant, trump: Suit | np.ndarray) -> Table:
        points = np.array([variant.counters.get(RANKS[b // 4], 0) for b in range(BITS)])
        if variant.paired:
            team = np.array([seat % 2 for seat in range(variant.players)])
        else:
            team = np.array([0] + [1] * (variant.players - 1))
        trumps = np.asarray(trump.index if isinstance(trump, Suit) else trump, dtype=np.int64)
        return cls(
            variant.players,
            trumps,
            points,
            variant.last_trick,
            variant.head,
            variant.overtrump,
            team,
        )


@dataclass
class PlayOut:
    """The result of a batch: points per team and per seat, and (when recorded) every card
    played."""

    team_points: np.ndarray  # (N, 2)
    cards: np.ndarray | None = None  # (N, plays) canonical card indices
    seats: np.ndarray | None = None  # (N, plays)
    seat_points: np.ndarray | None = None  # (N, players): where each plays for himself
    #: (N, players) the tricks each seat took, and the counters in them (a save-meld rule
    #: asks whether a side took a trick, or a counter)
    seat_tricks: np.ndarray | None = None
    seat_counters: np.ndarray | None = None


@dataclass(frozen=True)
class Past:
    """What a game kept of its deals from their first lead (`Game.keep_past`): who led,
    the cards each seat had melded then ((copies, N * players) planes, or None), and each
    card played since with the seat that played it ((N, plays) bits and seats)."""

    leader: np.ndarray
    shown: np.ndarray | None
    bits: np.ndarray
    seats: np.ndarray


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
        plain_ok = np.where(may_ruff, 0, in_led & ~outranked(self.follows))
        return plain_ok | (trumps & ~outranked(self.ruffs))


class Game:
    """A batch of deals in progress, all at the same point of play.

    `play` runs them to the end with the policy. Step by step, `legal`, `policy_cards` and
    `advance` let another player (the exact reference of `meldcalc.engines.reference`) choose the
    cards of some seats. Besides the hands, a game keeps what the table has seen, which
    every seat may use: the cards played (``remaining``), the cards each seat melded and
    still holds (``shown``) and the cards each seat has shown it does not hold (``lacks``).
    """

    def __init__(
        self,
        table: Table,
        hands: np.ndarray,
        remaining: np.ndarray,
        leader: np.ndarray | int = 0,
        random_seats: tuple[int, ...] = (),
        rng: np.random.Generator | None = None,
        shown: np.ndarray | None = None,
        trick: np.ndarray | None = None,
    ) -> None:
        """``hands``: (copies, N, players) planes of every seat's hand; ``remaining``:
        (copies, N) planes of every card still to be played (the union of the hands).
        ``shown``: (copies, N, players) planes of the cards each seat melded (laid on the
        table, so known to all), or None. ``trick``: (N, k) canonical cards already played
        to the current trick by ``leader`` and the next seats (``hands`` without them)."""
        self.hands = hands.copy()
        copies, self.n, players = hands.shape
        # every card not yet played: what a seat cannot see is this less its own hand
        self.remaining = remaining.copy()
        self.t = table = replace(table, trump=np.broadcast_to(table.trump, (self.n,)))
        self.trump_mask = SUIT_MASK[table.trump]
        self.valued = MASK(sum(1 << bit for bit in range(BITS) if table.points[bit]))
        self.bidder_alone = int((table.team == 0).sum()) == 1  # no partner: first rule 0
        self.trumps_left = np.bitwise_count(remaining & self.trump_mask).sum(axis=0, dtype=np.int32)
        self.rows = np.arange(self.n)
        # (copies, N * players): a seat's hand in deal d sits at d * players + seat
        self.flat = self.hands.reshape(copies, -1)
        self.shown = None if shown is None else shown.reshape(copies, -1).copy()
        self.lacks = np.zeros(self.n * players, dtype=MASK)
        self.leader = np.broadcast_to(np.asarray(leader, dtype=np.int64), (self.n,)).copy()
        self.random_seats = np.isin(np.arange(players), random_seats)
        self.rng = rng or np.random.default_rng(0)
        self.team_points = np.zeros((self.n, 2), dtype=np.int64)
        self.seat_points = np.zeros((self.n, players), dtype=np.int64)
        self.seat_tricks = np.zeros((self.n, players), dtype=np.int64)
        self.seat_counters = np.zeros((self.n, players), dtype=np.int64)
        self.cards_left = int(np.bitwise_count(hands).sum(axis=(0, 2)).max())
        self.on_table = np.zeros((self.n, players), dtype=np.int64)  # bits, by position
        self.position = 0
        self.best = self.best_pos = np.zeros(self.n, dtype=np.int64)
        self._log: tuple[list, list] | None = None
        self._past: tuple[np.ndarray, np.ndarray | None, list, list] | None = None
        self._seat_up()
        for column in () if trick is None else np.asarray(trick).T:
            self._place(BIT_OF[column])

    @classmethod
    def from_counts(cls, table: Table, counts: np.ndarray, copies: int, **options: object) -> Game:
        """A game from (N, players, 24) canonical per-card counts of every seat's hand."""
        hands = planes_from_counts(counts, copies)
        return cls(table, hands, planes_from_counts(counts.sum(axis=1), copies), **options)

    def play(self, record: bool = False, leave: int = 0) -> PlayOut:
        """Play every deal to the end, or until ``leave`` tricks are left (for an exact
        endgame: `held` then gives the hands, ``self.leader`` who leads). The points are
        those taken since the game began; ``record`` lists the cards played by this call."""
        if record:
            self.record()
        for _ in range(self.cards_left - leave * self.t.players):
            if self.cards_left <= self.t.players:  # the last trick: nothing to choose
                self.advance(lowest_bit_index(self.flat[0, self.at]))
            else:
                self.advance(self.policy_cards())
        taken = {
            "seat_points": self.seat_points.copy(),
            "seat_tricks": self.seat_tricks.copy(),
            "seat_counters": self.seat_counters.copy(),
        }
        if not record:
            return PlayOut(self.team_points.copy(), **taken)
        return PlayOut(self.team_points.copy(), *self.recorded(), **taken)

    def side_taken(self, team: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """The tricks and the counters ``team`` (0: the bidder's side) took so far."""
        seats = self.t.team == team
        return self.seat_tricks[:, seats].sum(axis=1), self.seat_counters[:, seats].sum(axis=1)

    def record(self) -> None:
        """Keep every card played from now on, for `recorded`."""
        self._log = ([], [])

    def recorded(self) -> tuple[np.ndarray, np.ndarray]:
        """(N, plays) canonical cards played since `record`, and the seats that played them."""
        assert self._log is not None, "record() first"
        cards, seats = self._log
        self._log = None
        if not cards:
            return np.zeros((self.n, 0), dtype=np.int64), np.zeros((self.n, 0), dtype=np.int64)
        return CARD_OF[np.stack(cards, axis=1)], np.stack(seats, axis=1)

    def keep_past(self) -> None:
        """Keep every card played from now on, a trick's first lead, for `past`: the
        inference of `meldcalc.engines.inference` plays the deal again in other layouts."""
        assert self.position == 0, "the past is kept from a trick's first lead"
        shown = None if self.shown is None else self.shown.copy()
        self._past = (self.leader.copy(), shown, [], [])

    @property
    def past(self) -> Past:
        """What was played since `keep_past`, as a `Past`."""
        assert self._past is not None, "keep_past() first"
        leader, shown, bits, seats = self._past
        if not bits:
            empty = np.zeros((self.n, 0), dtype=np.int64)
            return Past(leader, shown, empty, empty)
        return Past(leader, shown, np.stack(bits, axis=1), np.stack(seats, axis=1))

    def held(self) -> np.ndarray:
        """(N, players, 24) per-card counts of the cards each seat still holds."""
        return counts_from_planes(self.hands)

    # --- step by step ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.cards_left == 0

    def legal(self) -> np.ndarray:
        """The cards (bits) the seat to play may play, per deal."""
        held = self.flat[0, self.at]
        return held if self.position == 0 else self._legal(held, self.on_table[:, 0], self.best)

    def policy_cards(self) -> np.ndarray:
        """The card (bit) the policy plays for the seat to play, per deal."""
        held = self.flat[0, self.at]
        return self._choose(self.seat, held, self.legal())

    def advance(self, bit: np.ndarray) -> None:
        """Play one card (bit) in every deal, from the hand of the seat to play."""
        self._remove(bit)
        self._place(bit)

    def fork(self, rows: np.ndarray, hands: np.ndarray, policy: type[Game] | None = None) -> Game:
        """Deals ``rows`` of this game as they stand, with ``hands`` ((copies, len(rows),
        players) planes of the same cards, dealt otherwise) in place of the real ones: the
        layouts a Monte Carlo player plays out from here, by ``policy`` (a `Game` class
        whose `_choose` plays the seats; by default this game's)."""
        players = self.t.players
        shown = None if self.shown is None else self.shown.reshape(self.hands.shape)[:, rows]
        t = replace(self.t, trump=self.t.trump[rows])
        policy = policy or type(self)
        game = policy(
            t, hands, self.remaining[:, rows], self.leader[rows], rng=self.rng, shown=shown
        )
        game.lacks = self.lacks.reshape(-1, players)[rows].ravel()
        game.on_table = self.on_table[rows]
        game.position, game.best, game.best_pos = (
            self.position,
            self.best[rows],
            self.best_pos[rows],
        )
        game.cards_left = self.cards_left
        game._seat_up()
        return game

    # --- the table --------------------------------------------------------------------------

    def _seat_up(self) -> None:
        """The seat to play in each deal, and where its hand sits in ``flat``."""
        self.seat = (self.leader + self.position) % self.t.players
        self.at = self.rows * self.t.players + self.seat

    def _place(self, bit: np.ndarray) -> None:
        """Put one card (bit) per deal on the table for the seat to play; close the trick
        once every seat has played to it."""
        t = self.t
        if self._log is not None:
            self._log[0].append(bit)
            self._log[1].append(self.seat)
        if self._past is not None:
            self._past[2].append(np.array(bit, dtype=np.int64))
            self._past[3].append(self.seat)
        if self.position == 0:
            self.best, self.best_pos = bit, np.zeros(self.n, dtype=np.int64)
        else:
            self._learn(bit)
            wins = self._beats(bit, self.best)
            self.best = np.where(wins, bit, self.best)
            self.best_pos = np.where(wins, self.position, self.best_pos)
        self.on_table[:, self.position] = bit
        self.position += 1
        if self.position == t.players:
            self._close_trick()
        self._seat_up()

    def _close_trick(self) -> None:
        t = self.t
        won_by = (self.leader + self.best_pos) % t.players
        cards = t.points[self.on_table]
        value = cards.sum(axis=1) + (t.last_trick if self.over else 0)
        self.team_points[self.rows, t.team[won_by]] += value
        self.seat_points[self.rows, won_by] += value
        self.seat_tricks[self.rows, won_by] += 1
        self.seat_counters[self.rows, won_by] += (cards > 0).sum(axis=1)
        self.leader, self.position = won_by, 0

    def _learn(self, bit: np.ndarray) -> None:
        """What a follower's card tells the table about its hand (RULES.md "Trick play"):
        off the led suit it has none of it, and no trump unless it trumped; under the duty
        to head or to over-trump, a card that does not beat the trick means no card that
        would."""
        t, best = self.t, self.best
        led_suit, best_suit, suit = self.on_table[:, 0] & 3, best & 3, bit & 3
        off = suit != led_suit
        lacks = np.where(off, SUIT_MASK[led_suit], 0)
        lacks |= np.where(off & (suit != t.trump), self.trump_mask, 0)
        higher = ABOVE[best] & SUIT_MASK[best_suit]
        if t.overtrump:
            under = off & (suit == t.trump) & (best_suit == t.trump) & (bit >= best)
            lacks |= np.where(under, higher, 0)
        below = (
            ~off & (best_suit == led_suit) & (bit >= best) & self._must_head(led_suit, best_suit)
        )
        lacks |= np.where(below, higher, 0)
        self.lacks[self.at] |= lacks.astype(MASK)

    def _must_head(self, led_suit: np.ndarray, best_suit: np.ndarray) -> np.ndarray | bool:
        """Whether a follower of the led suit must beat the winning card, if it can."""
        t = self.t
        if t.head == "always":
            return (best_suit != t.trump) | (led_suit == t.trump)  # not once trumped
        if t.head == "trump-led":
            return led_suit == t.trump
        return False

    def _beats(self, bit: np.ndarray, best: np.ndarray) -> np.ndarray:
        suit, best_suit = (bit & 3), (best & 3)
        return ((suit == best_suit) & (bit < best)) | (
            (suit == self.t.trump) & (best_suit != self.t.trump)
        )

    def _legal(self, held: np.ndarray, led: np.ndarray, best: np.ndarray) -> np.ndarray:
        """RULES.md "Trick play": follow and head, else trump and over-trump, else anything."""
        t = self.t
        led_suit, best_suit = (led & 3), (best & 3)
        follow = held & SUIT_MASK[led_suit]
        higher = np.where(best_suit == led_suit, follow & ABOVE[best], 0)
        must_head = self._must_head(led_suit, best_suit)
        following = np.where(must_head & (higher != 0), higher, follow)
        trumps = held & self.trump_mask
        over = np.where(best_suit == t.trump, trumps & ABOVE[best], 0)
        if t.overtrump:
            trumps = np.where(over != 0, over, trumps)
        return np.where(follow != 0, following, np.where(trumps != 0, trumps, held))

    def _remove(self, bit: np.ndarray) -> None:
        """Take one copy of each played card out of its seat's hand (the top plane first).
        A copy of a card the seat melded is no longer known to be in its hand: the table
        cannot tell the melded copy from another, so one known copy goes."""
        at, mask = self.at, ONE << bit
        _take_one(self.flat, mask, at)
        _take_one(self.remaining, mask, slice(None))
        if self.shown is not None:
            _take_one(self.shown, mask, at)
        self.trumps_left -= (bit & 3) == self.t.trump
        self.cards_left -= 1

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
        """The leads of the module docstring, the first that applies: a bidder alone draws
        trump, cash a boss, lead to a partner's ruff, draw trump (the bidder), lead low."""
        trump_mask = self.trump_mask
        foes, ruffed, partner_ruffs = self._ruffs(seat, self._unseen)
        plain = held & ~trump_mask
        bosses = plain & ~outranked(held) & ~outranked(foes) & ~ruffed
        cash = prefer(bosses, singletons(held) & bosses)
        to_ruff = plain & partner_ruffs & ~ruffed
        to_ruff = prefer(to_ruff, to_ruff & ~self.valued)
        draw, trump = self._trump_lead(held & trump_mask, foes & trump_mask)
        draw &= seat == 0  # the bidder's; the others keep their trumps to ruff with
        choice = np.where(draw, trump, self._low_lead(seat, held, foes, ruffed))
        choice = np.where(to_ruff != 0, highest_bit_index(to_ruff), choice)
        choice = np.where(bosses != 0, lowest_bit_index(cash), choice)
        return np.where(draw & self.bidder_alone, trump, choice)

    def _trump_lead(
        self, mine: np.ndarray, foe_trumps: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Whether to draw trump, and with which: while an opponent may hold one and the
        seat holds the top trump or is long in trump; the top trump if it is a boss, else
        the lowest (the opponents must head it and spend their high trumps)."""
        my_trumps, unseen_trumps = self._trump_counts()
        top = lowest_bit_index(mine)
        boss = (mine & (ONE << top) & ~outranked(foe_trumps)) != 0
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
        foe_tops = of_suits(suits_of(foe_shown & ~outranked(held)))
        friend_tops = of_suits(suits_of(friend_shown & ~outranked(foes) & ~self.trump_mask))
        safe = blank & ~ruffed
        for better in (plain, blank, safe, safe & ~foe_tops, safe & friend_tops):
            held = prefer(held, better)
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
        self, seat: np.ndarray, unseen: np.ndarray, rows: np.ndarray | slice = slice(None)
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cards some opponent may hold; the plain suits (as masks) an opponent may
        trump (it is known void in them and may hold a trump); those a partner may trump.
        ``seat`` and ``unseen`` are those of deals ``rows`` (by default every deal)."""
        t, players = self.t, self.t.players
        trump_mask = self.trump_mask[rows]
        foes = np.zeros(len(seat), dtype=MASK)
        ruffed = np.zeros(len(seat), dtype=MASK)
        partner_ruffs = np.zeros(len(seat), dtype=MASK)
        for k in range(1, players):
            other = (seat + k) % players
            foe = t.team[other] != t.team[seat]
            may = unseen & ~self.lacks[self.rows[rows] * players + other]
            foes |= np.where(foe, may, 0)
            void = of_suits(~suits_of(may)) & ~trump_mask
            ruffs = np.where((may & trump_mask) != 0, void, 0)
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
            plain &= outranked(self._unseen)
        counters = plain & 0xF  # aces (rank-major nibbles)
        for nibble in (0xF00, 0xF0):  # kings, then tens, each preferred over the last
            of_rank = plain & nibble
            counters = np.where(of_rank != 0, of_rank, counters)
        return np.where(counters != 0, highest_bit_index(counters), low)

    def _later_foes(
        self,
        seat: np.ndarray,
        position: int,
        led_suit: np.ndarray,
        rows: np.ndarray | slice = slice(None),
    ) -> Threat:
        """What the opponents still to play to this trick may hold: cards of the led suit,
        and (those known void in it) trumps. ``seat`` and ``led_suit`` are those of deals
        ``rows`` (by default every deal)."""
        t, players = self.t, self.t.players
        unseen = self._unseen[rows]
        led_mask = SUIT_MASK[led_suit]
        trump_mask = self.trump_mask[rows]
        follows = np.zeros(len(seat), dtype=MASK)
        ruffs = np.zeros(len(seat), dtype=MASK)
        for k in range(1, players - position):
            other = (seat + k) % players
            foe = t.team[other] != t.team[seat]
            may = unseen & ~self.lacks[self.rows[rows] * players + other]
            void = (may & led_mask) == 0
            follows |= np.where(foe, may & led_mask, 0)
            ruffs |= np.where(foe & void, may & trump_mask, 0)
        return Threat(follows, ruffs)

    def _random(self, legal: np.ndarray) -> np.ndarray:
        """A uniformly random legal card (for measuring the policy against chance)."""
        bits = (legal[:, None] >> np.arange(BITS)) & 1
        keys = np.where(bits == 1, self.rng.random((self.n, BITS)), 2.0)
        return keys.argmin(axis=1)
