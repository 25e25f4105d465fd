"""Exact (double-dummy) trick play: the points a side takes under best play, all hands seen.

The search itself is the C extension ``meldcalc.engines._solver``; this module is the only one that
imports it, lazily, so importing meldcalc never needs it. A position is every seat's hand,
the trump, the leader of the current trick and the cards already played to it. Values are
always the trick points (counters won plus the last-trick bonus) of seat 0's side from the
position to the end of the hand, the points of the cards already on the table included.

    >>> variant = load_variant("single-deck")
    >>> hands = ["AS 10S KH", "KS 9S AH", "QS JS 10H", "AD 9H 9C"]  # seat 0 first
    >>> solution = solve(Position.of(variant, hands, Suit.HEARTS), variant)  # seat 0 leads
    >>> solution.value, solution.cards  # card indices: AS 0, 10S 1, KH 8
    (45, {0: 20, 1: 20, 8: 45})
    >>> solution.line[0]
    Trick(leader=0, cards=(8, 6, 7, 11), winner=1, points=25)

For many positions at once (endgames of simulated deals, sampled layouts of a Monte Carlo
player) `solve_many` and `card_values_many` take numpy arrays of per-card counts and solve
them without Python in between; each thread has its own table and searches without the GIL.

Every search can be stopped: by a `Deadline` (`solve` has one of `DEFAULT_TIME_LIMIT`
seconds unless told otherwise), when it raises `TimeLimitError` and returns nothing it had
not finished; and in the main thread by a signal whose handler raises (Ctrl-C's
KeyboardInterrupt; the CLI's handlers end the process), seen within 20 ms.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meldcalc.errors import HandError, MeldcalcError, TimeLimitError, UnsupportedError
from meldcalc.rules.cards import CARD_NAMES, CARDS, NUM_CARDS, RANKS, Hand, Suit, cards_text
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    import numpy as np

HEAD_CODES = {"always": 0, "trump-led": 1, "never": 2}
COUNTER_LIMIT = 2**20  # the C search sums points in 32 bits
NOT_BUILT = (
    "the exact solver is not built in this install (it needs a C compiler at install time):"
    " reinstall with gcc and the Python headers available"
)


# --- rules ---------------------------------------------------------------------------------


def seat_sides(variant: Variant, bidder: int = 0) -> tuple[int, ...]:
    """0 for the seats on seat 0's side, 1 for the others: partners sit opposite in a
    partnership game, otherwise the ``bidder`` (seat 0, as the solver seats it) plays
    alone against the rest, and its side is 0."""
    paired = variant.paired
    if paired:
        return tuple(seat % 2 for seat in range(variant.players))
    return tuple(0 if seat == bidder else 1 for seat in range(variant.players))


def counter_of(variant: Variant, card: int) -> int:
    return variant.counters.get(RANKS[card % len(RANKS)], 0)


def rules_of(variant: Variant) -> tuple[Any, ...]:
    """The variant's trick rules as the C search takes them (every rule read here only)."""
    if not 2 <= variant.players <= 4:
        raise UnsupportedError(f"the exact solver plays 2 to 4 seats, not {variant.players}")
    counters = tuple(variant.counters.get(rank, 0) for rank in RANKS)
    if max(*counters, variant.last_trick) >= COUNTER_LIMIT:
        raise UnsupportedError(f"the exact solver takes trick counters below {COUNTER_LIMIT}")
    ranks = sum(1 << i for i, rank in enumerate(RANKS) if rank in variant.deck.ranks)
    return (
        variant.players,
        variant.deck.copies,
        HEAD_CODES[variant.head],
        variant.overtrump,
        variant.partnerships,
        variant.last_trick,
        ranks,
        counters,
    )


# --- positions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """Every seat's hand (in playing order), the trump, the seat that leads the current trick
    and the cards already played to it (by the leader, the next seat, ...). Seats that have
    played to the trick hold one card fewer than the others."""

    hands: tuple[Hand, ...]
    trump: Suit
    leader: int = 0
    trick: tuple[int, ...] = ()

    @classmethod
    def of(
        cls,
        variant: Variant,
        hands: Sequence[Hand | str],
        trump: Suit,
        leader: int = 0,
        trick: Sequence[int | str] = (),
    ) -> Position:
        """A checked position; hands and trick cards may be given as text (``"AS 10S"``)."""
        parsed = tuple(hand if isinstance(hand, Hand) else Hand.parse(hand) for hand in hands)
        cards = tuple(
            card if isinstance(card, int) else CARD_NAMES.index(_card_name(card)) for card in trick
        )
        position = cls(parsed, trump, leader, cards)
        position.check(variant)
        return position

    @property
    def tricks(self) -> int:
        """Tricks to go, the one on the table included."""
        return max(len(hand) for hand in self.hands)

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    def points_left(self, variant: Variant) -> int:
        """The trick points still to play for: the counters in the hands and on the table,
        and the last trick's (for a whole deal, the variant's trick total)."""
        cards = [card.index for hand in self.hands for card in hand] + list(self.trick)
        return sum(counter_of(variant, card) for card in cards) + variant.last_trick

    def check(self, variant: Variant) -> None:
        """Raise `HandError` unless this position can arise in a hand of ``variant``."""
        _check_seats(self, variant)
        for hand in self.hands:
            variant.check_hand(hand)
        _check_copies(self, variant)
        _check_sizes(self)
        _check_trick(self, variant)


def _card_name(text: str) -> str:
    from meldcalc.rules.cards import parse_card

    return str(parse_card(text))


def _check_seats(position: Position, variant: Variant) -> None:
    players = variant.players
    if len(position.hands) != players:
        raise HandError(f"expected {players} hands for {variant.name}, got {len(position.hands)}")
    if not 0 <= position.leader < players:
        raise HandError(f"expected a leader seat 0..{players - 1}, got {position.leader!r}")
    if len(position.trick) >= players:
        raise HandError(
            f"expected at most {players - 1} cards on the table, got {len(position.trick)}"
        )
    for card in position.trick:
        if not 0 <= card < NUM_CARDS:
            raise HandError(f"expected card indices 0..{NUM_CARDS - 1} in the trick, got {card!r}")


def _check_copies(position: Position, variant: Variant) -> None:
    total = sum(position.hands, Hand([0] * NUM_CARDS)).counts
    for card in position.trick:
        total = (*total[:card], total[card] + 1, *total[card + 1 :])
    for card, count in enumerate(total):
        if count > variant.deck.copies_of(CARDS[card]):
            raise HandError(
                f"{count} copies of {CARD_NAMES[card]!r} in the hands and on the table:"
                f" the {variant.name} deck holds {variant.deck.copies_of(CARDS[card])}"
            )


def _check_sizes(position: Position) -> None:
    """Once the trick is complete every seat must hold as many cards as the others."""
    played = {(position.leader + i) % len(position.hands) for i in range(len(position.trick))}
    sizes = [len(hand) + (seat in played) for seat, hand in enumerate(position.hands)]
    if len(set(sizes)) > 1:
        shown = ", ".join(f"seat {seat}: {len(hand)}" for seat, hand in enumerate(position.hands))
        if position.trick and len({len(hand) for hand in position.hands}) == 1:
            seats = " and ".join(f"seat {seat}" for seat in sorted(played))
            raise HandError(
                f"the trick holds {cards_text(len(position.trick))}, played by {seats}, so"
                f" {'that seat holds' if len(played) == 1 else 'those seats hold'} one card"
                f" fewer than the seats still to play; but every hand has"
                f" {cards_text(len(position.hands[0]))}: take the trick's cards out of the"
                " hands that played them"
            )
        raise HandError(
            f"expected hands of equal size (one card fewer for seats that played to the"
            f" trick), got {shown}"
        )


def _check_trick(position: Position, variant: Variant) -> None:
    """Each card on the table must have been a legal play from the hand that played it."""
    for i, card in enumerate(position.trick):
        seat = (position.leader + i) % len(position.hands)
        before = list(position.hands[seat].counts)
        before[card] += 1
        earlier = list(position.trick[:i])
        if card not in legal_cards(
            before, earlier, position.trump, variant.head, variant.overtrump
        ):
            raise HandError(
                f"seat {seat} may not play {CARD_NAMES[card]!r} to the trick"
                f" {[CARD_NAMES[c] for c in earlier]!r} under {variant.name}'s rules"
            )


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """One trick of a line of play: who led, the cards in order, who won, its points (the
    counters plus the last-trick bonus)."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class Solution:
    """``value``: the points seat 0's side takes from the position on under best play.
    ``cards``: each legal card of the seat to play (identical copies once) and the value
    after it. ``line``: an optimal play to the end, trick by trick."""

    value: int
    cards: dict[int, int]
    line: tuple[Trick, ...]

    @property
    def best_cards(self) -> list[int]:
        return [card for card, value in self.cards.items() if value == self.value]


# --- the extension -------------------------------------------------------------------------


#: The longest positions `meldcalc solve` and `play --review` take on: a whole single-deck
#: deal solves in about 0.4 s (seconds at worst), but 13 tricks and more of double deck or
#: three-handed play can take minutes to hours (bench/solve.py).
REACH = 12

#: In `card_values_many`'s values after each card: a legal card not compared with the card
#: played (``compare`` False, and the card played as good as the best).
NOT_COMPARED = -2


def check_reach(tricks: int) -> None:
    """Refuse, in one line, a position too long to solve in reasonable time."""
    if tricks > REACH:
        raise UnsupportedError(
            f"this position has {tricks} tricks to go: the exact solver takes at most {REACH}"
            " (a whole single-deck deal; longer ones can take hours): give an endgame"
        )


def check_solver(variant: Variant) -> None:
    """Raise `UnsupportedError` (one line) when positions of ``variant`` cannot be solved
    here: the extension is not built, or the game has no trick play the solver knows."""
    if not solver_available():
        raise UnsupportedError(NOT_BUILT)
    rules_of(variant)


def solver_available() -> bool:
    try:
        import meldcalc.engines._solver  # noqa: F401
    except ImportError:
        return False
    return True


_local = threading.local()


def _solver() -> Any:
    """This thread's Solver: each owns a table (2**22 entries of 32 bytes, paged in as used)
    and searches without the GIL, so threads may solve side by side."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = _new_solver()
    return solver


def _new_solver(**table: int) -> Any:
    """A Solver (of ``table_bits``, if given); one line where the system will not give its
    table the memory (a `ulimit -v`)."""
    try:
        from meldcalc.engines._solver import Solver
    except ImportError:
        raise UnsupportedError(NOT_BUILT) from None
    try:
        return Solver(**table)
    except MemoryError:
        if table:
            raise  # a bigger table than the usual: bigger_table does without it
        raise MeldcalcError(
            "the exact solver could not be given the memory for its table (128 MB): is the"
            " process's memory limited (ulimit -v)?"
        ) from None


@contextmanager
def bigger_table(bits: int) -> Iterator[None]:
    """This thread solves with a table of 2**``bits`` entries within the block (a usual
    one, if made, kept aside and back after it; the bigger one's memory returned). Where
    the system will not give that much memory, the usual table serves."""
    kept = getattr(_local, "solver", None)
    try:
        _local.solver = _new_solver(table_bits=bits)
    except MemoryError:
        yield
        return
    try:
        yield
    finally:
        _local.retired_nodes = getattr(_local, "retired_nodes", 0) + _local.solver.nodes
        _local.solver = kept


def solver_nodes() -> int:
    """Positions searched so far by this thread's solvers (for benchmarks)."""
    return _solver().nodes + getattr(_local, "retired_nodes", 0)


# --- time limits ---------------------------------------------------------------------------

#: Seconds an exact search of one position may take by default before it stops with
#: `TimeLimitError`. A whole single-deck deal solves in about 0.35 s (8.4 s the worst of
#: 200, bench/solve.py); house rules (no heading, no over-trumping, four copies) can take
#: minutes where the standard rules take seconds. Of 32 whole deals of the shipped example
#: house-easy-play (seeds 0-15, trumps S and H, beside other work) 28 took under 23 s, then
#: 37, 56 and 95 s, and seed 9 under S over 130 s (74 s alone): the default leaves room.
DEFAULT_TIME_LIMIT = 300.0
MAX_TIME_LIMIT = 1e9  # seconds (the C search takes no more)


@dataclass(frozen=True)
class Deadline:
    """When exact searches must stop: ``limit`` seconds after they began, at ``at`` on the
    monotonic clock. One deadline spans every search of a task (a review's positions, a
    bid's chunks in worker processes: the monotonic clock is the system's)."""

    limit: float
    at: float

    @classmethod
    def after(cls, limit: float | None) -> Deadline | None:
        """The deadline ``limit`` seconds from now; None for no limit."""
        if limit is None:
            return None
        if not (isinstance(limit, (int, float)) and 0 < limit <= MAX_TIME_LIMIT):
            raise MeldcalcError(
                f"time limit {limit!r}: expected seconds above 0 and up to {MAX_TIME_LIMIT:g}"
            )
        return cls(float(limit), time.monotonic() + limit)

    def remaining(self) -> float:
        """Seconds left (0 once past)."""
        return max(0.0, self.at - time.monotonic())


def _remaining(deadline: Deadline | None) -> float | None:
    return None if deadline is None else deadline.remaining()


def _search(
    deadline: Deadline | None, count: int, call: Any, *args: Any, compare: Any = None
) -> Any:
    """``call(*args, seconds left[, compare])`` on the C solver, its TimeLimit raised as
    `TimeLimitError` (saying how many of ``count`` positions were solved when several)."""
    from meldcalc.engines._solver import TimeLimit

    after = () if compare is None else (compare,)
    try:
        return call(*args, _remaining(deadline), *after)
    except TimeLimit as stop:
        assert deadline is not None
        solved = stop.args[1]
        done = f"{solved} of {count} positions solved" if count > 1 else ""
        raise TimeLimitError(deadline.limit, done) from None


# --- one position --------------------------------------------------------------------------


def solve(
    position: Position,
    variant: Variant,
    line: bool = True,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Solution:
    """The value of a position, the value after each legal card, an optimal line. Raises
    `TimeLimitError` after ``time_limit`` seconds (None: no limit). The arguments are
    checked as `meldcalc solve` checks its input: the position against the rules
    (`HandError`), the rules as the loader would (`meldcalc.rules.arguments`)."""
    import numpy as np

    from meldcalc.rules import arguments

    arguments.of_type(position, Position, "position", "a Position (parse_position)")
    variant = arguments.variant(variant)
    position.check(variant)
    check_solver(variant)
    arguments.of_type(line, bool, "line", "True or False")
    if time_limit is not None:
        time_limit = arguments.number(time_limit, "time_limit", 0, MAX_TIME_LIMIT) or None
    rules = rules_of(variant)
    deadline = Deadline.after(time_limit)
    hands = np.array([hand.counts for hand in position.hands], dtype=np.int64)[None]
    trick = _padded_trick(position.trick, variant.players)[None]
    values, cards = card_values_many(
        hands, position.trump.index, position.leader, variant, trick, deadline=deadline
    )
    per_card = {card: int(cards[0, card]) for card in range(NUM_CARDS) if cards[0, card] >= 0}
    plays: list[tuple[int, int]] = []
    if line:
        args = (rules, hands[0], position.trump.index, position.leader, trick[0])
        value, plays = _search(deadline, 1, _solver().line, *args)
        assert value == values[0], "the line's value differs from the position's"
    return Solution(int(values[0]), per_card, _tricks(position, variant, plays))


def _padded_trick(trick: Sequence[int], players: int) -> np.ndarray:
    import numpy as np

    return np.array([*trick, *[-1] * (players - 1 - len(trick))], dtype=np.int64)


def _tricks(
    position: Position, variant: Variant, plays: list[tuple[int, int]]
) -> tuple[Trick, ...]:
    """Group (seat, card) plays into tricks, the first one completing the trick on the table."""
    tricks, leader, cards = [], position.leader, list(position.trick)
    for number, (_, card) in enumerate(plays):
        cards.append(card)
        if len(cards) < variant.players:
            continue
        winner = (leader + winning_position(cards, position.trump)) % variant.players
        points = sum(counter_of(variant, c) for c in cards)
        points += variant.last_trick if number == len(plays) - 1 else 0
        tricks.append(Trick(leader, tuple(cards), winner, points))
        leader, cards = winner, []
    return tuple(tricks)


# --- many positions ------------------------------------------------------------------------


def solve_many(
    hands: np.ndarray,
    trumps: np.ndarray | int,
    leaders: np.ndarray | int,
    variant: Variant,
    tricks: np.ndarray | None = None,
    deadline: Deadline | None = None,
) -> np.ndarray:
    """Values of N positions: ``hands`` (N, players, 24) counts, ``trumps`` and ``leaders``
    (N,) or one for all; ``tricks`` (N, players - 1) cards on the table padded with -1, or
    None at trick boundaries. Returns (N,) int64. Bad positions raise ValueError; past the
    ``deadline`` (None: none) the search stops with `TimeLimitError`."""
    values, _ = _run(hands, trumps, leaders, variant, tricks, per_card=False, deadline=deadline)
    return values


def card_values_many(
    hands: np.ndarray,
    trumps: np.ndarray | int,
    leaders: np.ndarray | int,
    variant: Variant,
    tricks: np.ndarray | None = None,
    played: np.ndarray | None = None,
    deadline: Deadline | None = None,
    compare: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """As `solve_many`, and also (N, 24) values after each legal card of the seat to play
    (-1 for cards it may not play): one decision's sampled layouts in one call. With
    ``played`` ((N,) a card per position), only that card's value is exact: any other card
    has the position's value if it is as good as the best, else a bound beyond it (a
    review's need, and much cheaper). With ``compare`` too ((N,) bools), a position where
    it is False and the card played is as good as the best leaves the other cards
    `NOT_COMPARED` (proving them as good takes most of a review's time)."""
    values, cards = _run(hands, trumps, leaders, variant, tricks, True, played, deadline, compare)
    assert cards is not None
    return values, cards


def _run(
    hands: np.ndarray,
    trumps: np.ndarray | int,
    leaders: np.ndarray | int,
    variant: Variant,
    tricks: np.ndarray | None,
    per_card: bool,
    played: np.ndarray | None = None,
    deadline: Deadline | None = None,
    compare: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    import numpy as np

    rules = rules_of(variant)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    count = len(hands)
    trumps = np.ascontiguousarray(np.broadcast_to(trumps, (count,)), dtype=np.int64)
    leaders = np.ascontiguousarray(np.broadcast_to(leaders, (count,)), dtype=np.int64)
    if tricks is not None:
        tricks = np.ascontiguousarray(tricks, dtype=np.int64)
    values = np.zeros(count, dtype=np.int64)
    cards = np.zeros((count, NUM_CARDS), dtype=np.int64) if per_card else None
    if played is not None:
        played = np.ascontiguousarray(played, dtype=np.int64)
    if compare is not None:
        compare = np.ascontiguousarray(compare, dtype=np.int64)
    args = (rules, hands, trumps, leaders, tricks, values, cards, played)
    _search(deadline, count, _solver().solve, *args, compare=compare)
    return values, cards


# --- positions as text ---------------------------------------------------------------------


def parse_position(
    text: str,
    variant: Variant,
    trump: Suit | None = None,
    leader: int = 0,
    trick: str = "",
    settings_said: str = "'| trump S', '| leader N' or '| trick AS KS'",
) -> Position:
    """A position written as text: every seat's hand separated by ``/``, then optional
    settings that override the arguments, each after a ``|``::

        AS 10S ... / KS QS ... / ... / ... | trump S | leader 1 | trick AS KS

    ``settings_said``: the settings an unknown one is told its caller takes. The arguments
    are checked as `meldcalc solve` checks its options (`meldcalc.rules.arguments`)."""
    from meldcalc.errors import NotationError, quote
    from meldcalc.rules import arguments
    from meldcalc.rules.cards import parse_suit
    from meldcalc.rules.notation import is_whole_number

    arguments.of_type(text, str, "text", "a position as text")
    variant = arguments.variant(variant)
    if trump is not None:
        arguments.suit(trump)
    arguments.whole(leader, "leader", 0, variant.players - 1)
    arguments.of_type(trick, str, "trick", "the cards on the table as text")
    hands_text, *settings = text.split("|")
    given: dict[str, str] = {}
    for setting in settings:
        key, _, value = setting.strip().partition(" ")
        key, value = key.lower(), value.strip()
        if key in given and given[key].upper() != value.upper():
            raise NotationError(
                f"{quote(setting.strip())}: {key} is given twice ({quote(given[key])}, then"
                f" {quote(value)}): give it once"
            )
        given[key] = value
        if key == "trump":
            trump = parse_suit(value)
        elif key == "leader":
            if not (is_whole_number(value) and int(value) < variant.players):
                raise NotationError(
                    f"{quote(setting.strip())}: the leader is a seat from 0 to"
                    f" {variant.players - 1}"
                )
            leader = int(value)
        elif key == "trick":
            if not value:
                raise NotationError(
                    "'| trick' without cards: name the cards on the table, e.g. '| trick AS KS',"
                    " or leave the setting out"
                )
            trick = value
        else:
            raise NotationError(f"{quote(setting.strip())}: expected {settings_said}")
    hands = [part.strip() for part in hands_text.split("/")]
    if len(hands) != variant.players:
        raise HandError(
            f"expected {variant.players} hands separated by '/' for {variant.name},"
            f" got {len(hands)}"
        )
    parsed = [_seat_hand(hand, seat) for seat, hand in enumerate(hands)]
    if trump is None:
        raise NotationError("no trump: give --trump, or '| trump S' after the hands")
    return Position.of(variant, parsed, trump, leader, _in_order(trick))


def _seat_hand(text: str, seat: int) -> Hand:
    """A seat's hand in a position; empty (or ``-``) once it has played its last card."""
    from meldcalc.errors import NotationError

    if text in ("", "-"):
        return Hand([0] * NUM_CARDS)
    try:
        return Hand.parse(text)
    except NotationError as error:
        raise NotationError(f"seat {seat}: {error}") from None


def position_text(position: Position) -> str:
    """The text `parse_position` reads back: hands by ``/``, then trump, leader and trick."""
    hands = " / ".join(hand.notation() or "-" for hand in position.hands)
    text = f"{hands} | trump {position.trump.letter} | leader {position.leader}"
    if position.trick:
        text += " | trick " + " ".join(CARD_NAMES[card] for card in position.trick)
    return text


def _in_order(trick: str) -> list[int]:
    """The cards of a trick in the order written (a Hand would sort them)."""
    from meldcalc.rules.cards import parse_card

    return [parse_card(token).index for token in trick.replace(",", " ").split()]
