"""The two-handed game with a stock (RULES.md, "two-handed"): one hand, card by card.

Two seats, twelve cards each; the other 24 lie face down with the turn-up under them, the
card that names trump. Seat numbers follow meldcalc's: the dealer is the last seat, so the
non-dealer, seat ``1 - dealer``, leads the first trick. While the stock lasts:

- any card may be played, from the hand or from the cards one has melded (they lie face
  up on the table); a card held in both places is played from the table, which keeps the
  hand's copy hidden and free to meld in any class;
- the trick's winner may lay down one meld (``stock_play.melds_per_trick``) and score it,
  show or exchange the dix, then draws the top card of the stock and the loser the next
  (the last face-down card to the winner, the turn-up to the loser);
- each meld takes at least one card from the hand, and a card on the table melds again
  only in another class, or in a higher meld of its class (the royal marriage, then the
  run with A 10 J added; never the reverse): `meld_options` says what may be laid.

Once the stock is gone the melds go back into the hands and the last twelve tricks are
played by the follow-and-beat rules of `meldcalc.rules.tricks`. With the ``closing``
switch the trick's winner may close the stock instead of drawing: the rest of the hand is
played so, and the stock's cards count for no one.

`StockHand` holds the hand and refuses what the rules refuse (a `MeldcalcError` saying
why); the policy that chooses (`meldcalc.engines.twohanded`), the commands and the session
only ask it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS, RANKS, Card, Hand, Rank, Suit
from meldcalc.rules.meld import Item, meld_items
from meldcalc.rules.scoring import counted_tricks
from meldcalc.rules.tricks import legal_cards as follow_rules
from meldcalc.rules.tricks import winning_position
from meldcalc.rules.variant import StockPlay, Variant

STOCK, LAST, CLOSED, OVER = "stock", "last", "closed", "over"  # the stages of a hand
TRICK, WON = "trick", "won"  # a trick to play to; a trick won, its winner to meld and draw
DRAWN = "drawn"  # meld after the draw (stock_play.meld_before_draw off): drawn, to meld
EXCHANGE, SHOW, TURNED_UP = "exchange", "show", "turned up"  # how a dix is scored


@dataclass(frozen=True)
class Laid:
    """A meld laid on the table: ``ids`` are the table's cards it used (a card may be in
    several melds, one of each class, or a lower one of its class and a higher one)."""

    name: str
    classes: tuple[str, ...]
    points: int
    cards: tuple[int, ...]
    ids: tuple[int, ...]

    @property
    def text(self) -> str:
        return f"{self.name} {card_names(self.cards)}"


@dataclass(frozen=True)
class MeldOption:
    """A meld that may be laid now: the hand's cards it takes and the table's it reuses."""

    name: str
    classes: tuple[str, ...]
    copies: int
    points: int
    cards: tuple[int, ...]
    from_hand: tuple[int, ...]
    reused: tuple[int, ...]

    @property
    def text(self) -> str:
        return f"{self.name} {card_names(self.cards)}"


@dataclass(frozen=True)
class TrickDone:
    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class Melded:
    seat: int
    laid: Laid


@dataclass(frozen=True)
class DixScored:
    seat: int
    how: str
    points: int


@dataclass(frozen=True)
class Drew:
    """A card drawn; ``shown``: the opponent sees it too (the last face-down card, shown by
    the rules, and the turn-up)."""

    seat: int
    card: int
    shown: bool


@dataclass(frozen=True)
class Closed:
    seat: int


Event = TrickDone | Melded | DixScored | Drew | Closed


def card_names(cards: Sequence[int]) -> str:
    """The cards' names in the deck's order: ``KS QS``."""
    return " ".join(CARD_NAMES[card] for card in sorted(cards))


def switches(variant: Variant) -> StockPlay:
    """The stock game's switches; refuses a variant without a stock and a turn-up."""
    if not variant.turns_up_trump or variant.players != 2 or variant.stock_play is None:
        raise MeldcalcError(
            f"{variant.name} is not a two-handed game with a stock: expected two players, a"
            " stock and 'bidding: none'"
        )
    return variant.stock_play


def dix_points(variant: Variant) -> int:
    """What showing or exchanging a dix scores: the variant's meld of the 9 of trump alone
    (0 where its table has none)."""
    for rule in variant.melds:
        if rule.kind == "trump" and rule.ranks == (Rank.NINE,):
            return rule.value(1)
    return 0


def _is_dix(item: Item) -> bool:
    return item.rule.kind == "trump" and item.rule.ranks == (Rank.NINE,)


@dataclass
class StockHand:
    """One two-handed hand from the deal to the last trick (see the module's words)."""

    variant: Variant
    trump: Suit
    dealer: int
    hands: list[list[int]]
    stock: list[int]
    turn_up: int | None
    stage: str = STOCK
    phase: str = TRICK
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    winner: int | None = None
    table: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])
    laid: list[list[Laid]] = field(default_factory=lambda: [[], []])
    meld_points: list[int] = field(default_factory=lambda: [0, 0])
    trick_points: list[int] = field(default_factory=lambda: [0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    dead_points: int = 0
    events: list[Event] = field(default_factory=list)
    melds_now: int = 0
    dix_shown: list[int] = field(default_factory=lambda: [0, 0])
    tricks_done: int = 0
    _next_id: int = 0

    @classmethod
    def deal(
        cls,
        variant: Variant,
        hands: Sequence[Hand],
        stock: Sequence[Card],
        turn_up: Card,
        dealer: int = 1,
    ) -> StockHand:
        """The hand as dealt: ``stock`` face down in the order it is drawn, top first, the
        ``turn_up`` under it naming trump (a turned-up dix scores the dealer)."""
        switches(variant)
        if dealer not in (0, 1):
            raise MeldcalcError(f"dealer {dealer}: expected seat 0 or 1")
        state = cls(
            variant,
            turn_up.suit,
            dealer,
            [list(hand.counts) for hand in hands],
            [card.index for card in stock],
            turn_up.index,
            leader=1 - dealer,
        )
        state._check_deal()
        if turn_up.rank is Rank.NINE and dix_points(variant):
            state._score_dix(dealer, TURNED_UP)
        return state

    def _check_deal(self) -> None:
        size = self.variant.hand_size
        for seat, hand in enumerate(self.hands):
            if sum(hand) != size:
                raise MeldcalcError(f"seat {seat} holds {sum(hand)} cards; a hand has {size}")
        if len(self.stock) + 1 != self.variant.stock:
            raise MeldcalcError(
                f"a stock of {len(self.stock) + 1} cards with the turn-up; expected"
                f" {self.variant.stock}"
            )
        held = [*self.hands, _counts(self.stock), _counts([self.turn_up])]
        together = [sum(counts[card] for counts in held) for card in range(NUM_CARDS)]
        for card, count in enumerate(together):
            if count != self.variant.deck.copies_of(Card.from_index(card)):
                raise MeldcalcError(
                    f"{CARD_NAMES[card]} is dealt {count} times: a deal holds each card of the"
                    f" {self.variant.name} deck once"
                )

    def copy(self) -> StockHand:
        """An independent copy to try moves on (the variant shared, not copied)."""
        other = copy.copy(self)
        other.hands = [list(hand) for hand in self.hands]
        other.table = [dict(table) for table in self.table]
        other.laid = [list(laid) for laid in self.laid]
        for name in ("stock", "trick", "meld_points", "trick_points", "tricks_won"):
            setattr(other, name, list(getattr(self, name)))
        other.events, other.dix_shown = list(self.events), list(self.dix_shown)
        return other

    def planning(self) -> StockHand:
        """A copy in which the trick's winner may meld now, drawn or not: what a plan of
        melds is tried on (nothing is drawn: the stock is not the planner's to see)."""
        other = self.copy()
        if other.phase == WON and not switches(self.variant).meld_before_draw:
            other.phase = DRAWN
        return other

    def played(self) -> list[int]:
        """Every card played to a trick so far, the current trick's too: what both seats
        have seen go."""
        done = [c for event in self.events if isinstance(event, TrickDone) for c in event.cards]
        return done + self.trick

    # --- whose turn, and what may be played ------------------------------------------------

    @property
    def to_play(self) -> int:
        """The seat that acts now: the one to play to the trick, or the trick's winner."""
        if self.phase in (WON, DRAWN):
            assert self.winner is not None
            return self.winner
        return (self.leader + len(self.trick)) % 2

    @property
    def melding(self) -> bool:
        """Whether the trick's winner may meld and score a dix now: before its draw, or
        after it where ``stock_play.meld_before_draw`` is off."""
        before = switches(self.variant).meld_before_draw
        return self.stage == STOCK and self.phase == (WON if before else DRAWN)

    @property
    def over(self) -> bool:
        return self.stage == OVER

    @property
    def stock_left(self) -> int:
        """Cards still to draw, the turn-up included."""
        return len(self.stock) + (self.turn_up is not None)

    def held(self, seat: int) -> list[int]:
        """Every card ``seat`` may play from: its hand and its table."""
        counts = list(self.hands[seat])
        for card in self.table[seat].values():
            counts[card] += 1
        return counts

    def table_cards(self, seat: int) -> list[int]:
        return sorted(self.table[seat].values())

    def legal_cards(self) -> list[int]:
        """The distinct cards the seat to play may play: any it holds while the stock
        lasts; then as the follow-and-beat rules say."""
        if self.phase not in (TRICK, DRAWN):
            return []
        counts = self.held(self.to_play)
        if self.stage == STOCK:
            return [card for card, count in enumerate(counts) if count]
        rules = self.variant
        return follow_rules(counts, self.trick, self.trump, rules.head, rules.overtrump)

    def play(self, card: int) -> None:
        """The seat to play plays ``card`` (from its table where it lies there)."""
        if self.phase == DRAWN:
            self.end_melding()
        if self.phase != TRICK:
            raise MeldcalcError(self._not_now("play a card"))
        seat = self.to_play
        if card not in self.legal_cards():
            raise MeldcalcError(self._why_not_legal(seat, card))
        on_table = [key for key, held in self.table[seat].items() if held == card]
        if on_table:
            del self.table[seat][min(on_table)]
        else:
            self.hands[seat][card] -= 1
        self.trick.append(card)
        if len(self.trick) == 2:
            self._trick_done()

    def _why_not_legal(self, seat: int, card: int) -> str:
        name = CARD_NAMES[card]
        if not self.held(seat)[card]:
            where = "hand or table" if self.stage == STOCK else "hand"
            return f"{name}: seat {seat} holds no {name} in its {where}"
        allowed = card_names(self.legal_cards())
        return (
            f"{name}: once the stock is gone the follow rules hold (follow suit and beat the"
            f" card led, else trump): expected one of {allowed}"
        )

    def _trick_done(self) -> None:
        winner = (self.leader + winning_position(self.trick, self.trump)) % 2
        points = sum(_counter(self.variant, card) for card in self.trick)
        self.tricks_done += 1
        last = self.stage != STOCK and not any(self.held(0)) and not any(self.held(1))
        points += self.variant.last_trick if last else 0
        self.trick_points[winner] += points
        self.tricks_won[winner] += 1
        number = self.tricks_done
        self.events.append(TrickDone(number, self.leader, tuple(self.trick), winner, points))
        self.trick, self.winner, self.leader = [], winner, winner
        if last:
            self.stage, self.phase = OVER, TRICK
        elif self.stage == STOCK:
            self.phase, self.melds_now = WON, 0
        else:
            self.phase = TRICK

    def _not_now(self, what: str) -> str:
        if self.stage == OVER:
            return f"the hand is over: no one can {what}"
        if self.phase == WON and not switches(self.variant).meld_before_draw:
            return f"seat {self.winner} won the trick: it draws before it may {what}"
        if self.phase == WON:
            return f"seat {self.winner} won the trick and draws next: it may not {what} now"
        if self.phase == DRAWN:
            return f"seat {self.winner} has drawn: it melds or leads; no one may {what} now"
        if self.stage != STOCK:
            return f"the stock is gone: no one can {what}; seat {self.to_play} plays a card"
        return f"seat {self.to_play} is to play a card: no one can {what} now"

    # --- after a trick won: meld, dix, close, draw ------------------------------------------

    def meld_options(self, seat: int | None = None) -> list[MeldOption]:
        """What ``seat`` (the trick's winner, about to draw) may lay down now, best first.
        For another seat, or at another moment, what it could lay down after winning a
        trick with the cards it holds (a hint's question)."""
        seat = self.to_play if seat is None else seat
        if self.stage != STOCK:
            return []
        melded = self.melds_now >= switches(self.variant).melds_per_trick
        if seat == self.winner and self.melding and melded:
            return []
        found = []
        for item in meld_items(self.variant, self.trump):
            if _is_dix(item) or not item.rule.classes:
                continue
            for copies in range(1, self.variant.deck.copies + 1):
                option = self._assigned(seat, item, copies)
                if isinstance(option, MeldOption) and option.points > 0:
                    found.append(option)
        return sorted(found, key=lambda option: -option.points)

    def _assigned(self, seat: int, item: Item, copies: int) -> MeldOption | str:
        """The meld ``item`` x ``copies`` laid by ``seat``, its cards taken from the table
        where the reuse rule lets them be (the hand's copies stay hidden), else from the
        hand, at least one from the hand; or why it may not be laid."""
        rule = item.rule
        points = rule.value(copies)
        taken, reused = [], []
        for card, need in item.needs:
            want = need * copies
            usable = self._reusable(seat, card, rule.classes, points)
            from_table = usable[:want]
            from_hand = want - len(from_table)
            if from_hand > self.hands[seat][card]:
                return self._shortage(seat, card, want, rule.classes)
            reused += from_table
            taken += [card] * from_hand
        if not taken:
            swap = next((i for i in reused if self.hands[seat][self.table[seat][i]]), None)
            if swap is None:
                return "a meld takes at least one card from the hand: these are all on the table"
            reused.remove(swap)
            taken.append(self.table[seat][swap])
        cards = tuple(sorted([*taken, *(self.table[seat][i] for i in reused)]))
        return MeldOption(
            rule.name, rule.classes, copies, points, cards, tuple(sorted(taken)), tuple(reused)
        )

    def _reusable(self, seat: int, card: int, classes: tuple[str, ...], points: int) -> list[int]:
        """The table copies of ``card`` a new meld of ``classes`` worth ``points`` may use:
        in no meld of those classes, or only in lower ones; the freer first."""
        usable = []
        for key, held in self.table[seat].items():
            if held != card:
                continue
            rivals = [laid for laid in self.laid[seat] if key in laid.ids]
            rivals = [laid for laid in rivals if set(laid.classes) & set(classes)]
            if all(laid.points < points for laid in rivals):
                usable.append((len(rivals), key))
        return [key for _, key in sorted(usable)]

    def _shortage(self, seat: int, card: int, want: int, classes: tuple[str, ...]) -> str:
        name = CARD_NAMES[card]
        held = self.hands[seat][card] + sum(1 for c in self.table[seat].values() if c == card)
        if held < want:
            return f"it needs {want} {name}, and seat {seat} holds {held}"
        serving = [
            laid
            for laid in self.laid[seat]
            if set(laid.classes) & set(classes)
            and any(self.table[seat].get(key) == card for key in laid.ids)
        ]
        laid = max(serving, key=lambda laid: laid.points)
        return (
            f"{name} already serves the {laid.name} ({laid.points}) of its class: a melded"
            " card melds again only in another class or in a higher meld of its class"
        )

    def meld(self, cards: Sequence[int]) -> MeldOption:
        """The trick's winner lays down the meld of exactly ``cards`` (the cards it shows,
        from its hand and table together); the highest such meld when several are."""
        if not self.melding:
            raise MeldcalcError(self._not_now("meld"))
        seat = self.to_play
        wanted = tuple(sorted(cards))
        if self.melds_now >= switches(self.variant).melds_per_trick:
            most = switches(self.variant).melds_per_trick
            raise MeldcalcError(
                f"{card_names(wanted)}: one meld a trick won ({most} in this variant): draw,"
                " and meld after the next trick won"
            )
        options = [o for o in self.meld_options(seat) if o.cards == wanted]
        if not options:
            raise MeldcalcError(f"{card_names(wanted)}: {self._why_not_meld(seat, wanted)}")
        self.lay(options[0])
        return options[0]

    def lay(self, option: MeldOption) -> None:
        """Lay down one of `meld_options`' options (the seat to act's)."""
        if not self.melding:
            raise MeldcalcError(self._not_now("meld"))
        seat = self.to_play
        ids = list(option.reused)
        for card in option.from_hand:
            self.hands[seat][card] -= 1
            self.table[seat][self._next_id] = card
            ids.append(self._next_id)
            self._next_id += 1
        laid = Laid(option.name, option.classes, option.points, option.cards, tuple(ids))
        self.laid[seat].append(laid)
        self.meld_points[seat] += option.points
        self.melds_now += 1
        self.events.append(Melded(seat, laid))

    def _why_not_meld(self, seat: int, cards: tuple[int, ...]) -> str:
        for item in meld_items(self.variant, self.trump):
            for copies in range(1, self.variant.deck.copies + 1):
                needed = tuple(sorted(c for c, n in item.needs for _ in range(n * copies)))
                if needed != cards:
                    continue
                if _is_dix(item):
                    return "the dix is shown or exchanged, not melded: say dix"
                why = self._assigned(seat, item, copies)
                return why if isinstance(why, str) else "not a meld now"
        return f"no meld of {self.variant.name} is made of exactly these cards"

    def dix_actions(self) -> list[str]:
        """What the trick's winner may do with a dix now: exchange it for the turn-up (while
        it lies under the stock and is no 9 itself), or show it; each 9 scores once."""
        if not self.melding or not dix_points(self.variant):
            return []
        seat, nine = self.to_play, Card(Rank.NINE, self.trump).index
        if self.hands[seat][nine] <= self.dix_shown[seat]:
            return []
        nine_up = self.turn_up == nine
        return [SHOW] if self.turn_up is None or nine_up else [EXCHANGE, SHOW]

    def dix(self, how: str | None = None) -> str:
        """Score a dix: exchanged for the turn-up where that may be done (``how`` None: the
        exchange when possible), else shown."""
        actions = self.dix_actions()
        if not actions:
            raise MeldcalcError(self._why_no_dix())
        how = how or actions[0]
        if how not in actions:
            raise MeldcalcError(f"the dix can only be {' or '.join(actions)}ed now, not {how}ed")
        seat, nine = self.to_play, Card(Rank.NINE, self.trump).index
        if how == EXCHANGE:
            assert self.turn_up is not None
            self.hands[seat][nine] -= 1
            self.hands[seat][self.turn_up] += 1
            self.turn_up = nine
        else:
            self.dix_shown[seat] += 1
        self._score_dix(seat, how)
        return how

    def _why_no_dix(self) -> str:
        if not self.melding:
            return self._not_now("show a dix")
        nine = Card(Rank.NINE, self.trump)
        if not dix_points(self.variant):
            return f"{self.variant.name} scores no dix"
        return f"seat {self.to_play} holds no {nine} it has not scored"

    def _score_dix(self, seat: int, how: str) -> None:
        points = dix_points(self.variant)
        self.meld_points[seat] += points
        self.events.append(DixScored(seat, how, points))

    def close(self) -> None:
        """The trick's winner closes the stock (the ``closing`` switch): no more drawing or
        melding; the melds go back into the hands and the follow rules hold."""
        if not switches(self.variant).closing:
            raise MeldcalcError(
                f"{self.variant.name} does not close the stock (the house switch"
                " stock_play.closing is off): draw"
            )
        if self.phase != WON or self.stage != STOCK:
            raise MeldcalcError(self._not_now("close the stock"))
        seat = self.to_play
        left = self.stock + ([self.turn_up] if self.turn_up is not None else [])
        self.dead_points = sum(_counter(self.variant, card) for card in left)
        self.events.append(Closed(seat))
        self._to_hands()
        self.stage, self.phase = CLOSED, TRICK

    def draw(self) -> tuple[int, int]:
        """The trick's winner draws the top card, the loser the next (the last face-down
        card to the winner, the turn-up to the loser); the last draw ends the stock."""
        if self.phase != WON or self.stage != STOCK:
            raise MeldcalcError(self._not_now("draw"))
        assert self.winner is not None
        winner, loser = self.winner, 1 - self.winner
        first = self.stock.pop(0)
        last = not self.stock
        if last:
            assert self.turn_up is not None
            second, self.turn_up = self.turn_up, None
        else:
            second = self.stock.pop(0)
        self.hands[winner][first] += 1
        self.hands[loser][second] += 1
        self.events += [Drew(winner, first, last), Drew(loser, second, last)]
        if switches(self.variant).meld_before_draw:
            self.phase = DRAWN
            self.end_melding()
        else:
            self.phase, self.melds_now = DRAWN, 0
        return first, second

    def end_melding(self) -> None:
        """The winner's turn after its draw ends (it leads): the stock gone, the melds go
        back into the hands."""
        if self.phase != DRAWN:
            raise MeldcalcError(self._not_now("end its melding"))
        self.phase = TRICK
        if not self.stock and self.turn_up is None:
            self._to_hands()
            self.stage = LAST

    def _to_hands(self) -> None:
        for seat in (0, 1):
            for card in self.table[seat].values():
                self.hands[seat][card] += 1
            self.table[seat] = {}

    # --- the score ---------------------------------------------------------------------

    def scores(self) -> tuple[int, int]:
        """Each seat's points for the hand: meld, and trick points as they count."""
        return tuple(  # type: ignore[return-value]
            self.meld_points[seat] + counted_tricks(self.variant, self.trick_points[seat])
            for seat in (0, 1)
        )


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * NUM_CARDS
    for card in cards:
        counts[card] += 1
    return counts


def _counter(variant: Variant, card: int) -> int:
    return variant.counters.get(RANKS[card % len(RANKS)], 0)
