"""A two-handed hand at the table, followed step by step (`meldcalc game` on a variant whose
turn-up names trump; `meldcalc.game.session` follows the games with an auction).

The player types what it sees, one step a line::

    seat 0                  your seat: 0 leads the first hand, 1 deals it (the deal
                            alternates); 'me', 'other' and the game's names name seats too
    hand AS 10S KS ...      your twelve cards as dealt
    turn-up 9S              the card turned up under the stock: trump
    AS | play AS            a card played, by the seat to play (yours or the other's)
    meld KS QS              a meld laid by the trick's winner, its cards as laid
    dix | dix show          the winner's dix: exchanged for the turn-up, or shown
    draw 10H                the card you draw; on the last draw, the last face-down card
                            (yours, or the other's, shown), the turn-up going to the loser
    close                   the winner closes the stock (where the house switch allows)
    hint                    the card to play, or after a trick you won what to meld now
    show                    your hand and table, the other's table, the trick, the points
    help                    the steps

The hand is `meldcalc.rules.twohanded`'s, asked at every step: a card the seat may not
play, a meld the reuse rule refuses, a draw out of turn are refused with the reason. What
the player cannot see (the other's hidden cards, the stock) is held as stand-in cards that
it never reads: a card the other plays, melds or draws is taken from what the player has
not seen, and refused once every copy of it has been seen. The state is a fold of the steps
(`replay`), so the journal resumes a hand and ``undo`` is one step less; the hand ends
scored as `meldcalc score` scores it (`TwoTable.outcome`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from meldcalc.errors import HandError, MeldcalcError, NotationError, quote
from meldcalc.game.words import not_a_misspelt_step
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS, Card, Hand, parse_card, parse_hand
from meldcalc.rules.twohanded import (
    DRAWN,
    OVER,
    STOCK,
    WON,
    Closed,
    DixScored,
    Drew,
    Melded,
    StockHand,
    TrickDone,
    card_names,
    switches,
)
from meldcalc.rules.variant import Variant

#: The first words of the steps (for completion); a card alone is a step too.
STEP_WORDS = (
    "seat",
    "hand",
    "turn-up",
    "play",
    "meld",
    "dix",
    "draw",
    "close",
    "hint",
    "show",
    "help",
)
#: Steps whose words are cards.
CARD_STEPS = ("hand", "turn-up", "play", "meld", "draw")
HELP = (
    "steps: seat N | hand CARDS | turn-up CARD | CARD (or play CARD) | meld CARDS | dix"
    " [show] | draw CARD | close | hint | show | undo | quit"
)


@dataclass
class Answer:
    """What a step says: lines for a player, and the same for a script (``data``)."""

    table: TwoTable
    lines: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lines = [line for line in self.lines if line]


@dataclass(frozen=True)
class TwoTable:
    """One two-handed hand as the player has seen it; ``state`` once hand and turn-up are
    known (the other's cards and the stock in it are stand-ins, see the module)."""

    variant: Variant
    dealer: int
    names: tuple[str, ...] = ()
    me: int | None = None
    hand: Hand | None = None
    state: StockHand | None = None
    turn_up: int | None = None

    @property
    def phase(self) -> str:
        if self.me is None:
            return "seat"
        if self.state is None:
            return "deal"
        if self.state.over:
            return "over"
        return "won" if self.state.phase in (WON, DRAWN) else "play"

    @property
    def other(self) -> int:
        assert self.me is not None
        return 1 - self.me

    def seat(self, text: str) -> int:
        """The seat ``text`` names: 0 or 1, me or other, or a name the game keeps."""
        key = text.strip().lower()
        named = {name.lower(): seat for seat, name in enumerate(self.names)}
        if key in ("0", "1"):
            return int(key)
        if key in named:
            return named[key]
        if self.me is not None and key in ("me", "you", "other", "left", "right"):
            return self.me if key in ("me", "you") else self.other
        names = f", or {', '.join(self.names)}" if self.names else ""
        raise NotationError(f"seat {quote(text)}: expected 0 or 1, me or other{names}")

    def seat_label(self, seat: int) -> str:
        if seat == self.me:
            return "you"
        return self.names[seat] if self.names else f"seat {seat}"

    @property
    def prompt(self) -> str:
        """Where the hand stands and whose turn it is: ``[stock 20: you to lead] > ``."""
        if self.state is None:
            return "[seat] > " if self.me is None else "[deal: hand, turn-up] > "
        state = self.state
        where = f"stock {state.stock_left}" if state.stage == STOCK else "last tricks"
        who = self.seat_label(state.to_play)
        if state.phase == WON and switches(self.variant).meld_before_draw:
            return f"[{where}: {who} won: meld, dix, draw] > "
        if state.phase == WON:
            return f"[{where}: {who} won: draw] > "
        if state.phase == DRAWN:
            return f"[{where}: {who} drew: meld, dix, or lead] > "
        doing = "to follow" if state.trick else "to lead"
        return f"[{where}: {who} {doing}] > "

    def outcome(self) -> Any:
        """The hand scored as `meldcalc score` scores it (None until it is over)."""
        from meldcalc.rules.scoring import HandPlay, score_hand

        if self.state is None or not self.state.over:
            return None
        state = self.state
        play = HandPlay(0, 0, tuple(state.meld_points), tuple(state.trick_points))
        return score_hand(self.variant, play, self.names or None)

    @property
    def trump(self) -> Any:
        return None if self.state is None else self.state.trump


def start(
    variant: Variant,
    dealer: int,
    names: Sequence[str] = (),
    score: Any = None,
    policy: str = "",
) -> TwoTable:
    """A new hand: ``dealer`` deals (the other seat leads)."""
    switches(variant)
    return TwoTable(variant, dealer, tuple(names))


def replay(table: TwoTable, steps: Sequence[str]) -> TwoTable:
    for text in steps:
        table = apply(table, text, advise=False).table
    return table


def review_mine(
    table: TwoTable, seed: int = 0, jobs: int = 1, time_limit: Any = None, progress: Any = None
) -> list[Any]:
    raise MeldcalcError("review: not for two-handed hands yet (hint works at every step)")


def apply(table: TwoTable, text: str, advise: bool = True, seed: int = 0) -> Answer:
    """One step typed at the table; raises `MeldcalcError` (the table unchanged) when the
    step cannot be so."""
    words = text.split(maxsplit=1)
    if not words:
        raise NotationError("an empty step: type a card, 'meld', 'draw', 'hint' or 'help'")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "").strip()
    step = _STEPS.get(verb)
    if step is None:
        not_a_misspelt_step(words[0], _STEPS)
        if table.phase in ("play", "won") and len(words) == 1:
            return _play(table, text.strip(), advise)
        raise NotationError(f"{quote(text.strip())}: not a step here: {HELP}")
    return step(table, rest, advise)


def _seat_step(table: TwoTable, rest: str, advise: bool) -> Answer:
    if table.me is not None:
        raise MeldcalcError(f"seat: you sit in seat {table.me} already")
    me = table.seat(rest)
    new = replace(table, me=me)
    role = "deal" if me == table.dealer else "lead the first trick"
    return Answer(new, [f"you are seat {me}: you {role}"], {"seat": me})


def _hand(table: TwoTable, rest: str, advise: bool) -> Answer:
    _phase(table, "deal", "hand")
    if table.hand is not None:
        raise MeldcalcError("hand: your hand is given already (undo to change it)")
    hand = parse_hand(rest)
    table.variant.check_hand(hand)
    if len(hand) != table.variant.hand_size:
        raise HandError(
            f"hand: {len(hand)} cards; {table.variant.name} deals {table.variant.hand_size}"
        )
    return _dealt(replace(table, hand=hand), [f"your hand: {hand.notation()}"])


def _turn_up(table: TwoTable, rest: str, advise: bool) -> Answer:
    _phase(table, "deal", "turn-up")
    card = parse_card(rest)
    return _dealt(replace(table, turn_up=card.index), [f"turn-up {card}: trump {card.suit.letter}"])


def _dealt(table: TwoTable, lines: list[str]) -> Answer:
    """Once hand and turn-up are both known the hand begins: the other's cards and the
    stock are stand-ins from the cards unseen."""
    if table.hand is None or table.turn_up is None:
        return Answer(table, lines)
    assert table.me is not None
    unseen = [c.index for c in table.variant.deck.cards()]
    for card in [*table.hand, Card.from_index(table.turn_up)]:
        if card.index not in unseen:
            raise HandError(f"{card}: the turn-up and your hand hold more than the deck has")
        unseen.remove(card.index)
    size = table.variant.hand_size
    theirs = Hand(_counts(unseen[:size]))
    hands = [table.hand, theirs] if table.me == 0 else [theirs, table.hand]
    stock = [Card.from_index(card) for card in unseen[size:]]
    state = StockHand.deal(
        table.variant, hands, stock, Card.from_index(table.turn_up), table.dealer
    )
    new = replace(table, state=state)
    lines += _events(new, 0)
    return Answer(new, [*lines, _whose_turn(new)], {"dealt": True})


def _play(table: TwoTable, rest: str, advise: bool) -> Answer:
    _phase(table, ("play", "won"), "a card")
    card = parse_card(rest).index
    state = _copy(table)
    if state.to_play == table.other:
        _bring(table, state, [card], from_table=True)
    before = len(state.events)
    state.play(card)
    new = replace(table, state=state)
    who = table.seat_label(table.state.to_play)  # type: ignore[union-attr]
    lines = [f"{who}: {CARD_NAMES[card]}", *_events(new, before)]
    return Answer(new, [*lines, _whose_turn(new)], {"card": CARD_NAMES[card]})


def _meld(table: TwoTable, rest: str, advise: bool) -> Answer:
    _phase(table, ("won",), "meld")
    cards = [card.index for card in parse_hand(rest)]
    state = _copy(table)
    if state.to_play == table.other:
        _bring(table, state, cards, from_table=True)
    before = len(state.events)
    state.meld(cards)
    new = replace(table, state=state)
    return Answer(new, [*_events(new, before), _whose_turn(new)], {"meld": card_names(cards)})


def _dix(table: TwoTable, rest: str, advise: bool) -> Answer:
    _phase(table, ("won",), "dix")
    how = rest.lower() or None
    if how not in (None, "exchange", "show"):
        raise NotationError(f"dix {quote(rest)}: expected 'dix', 'dix exchange' or 'dix show'")
    state = _copy(table)
    if state.to_play == table.other:
        nine = Card.parse(f"9{state.trump.letter}").index
        _bring(table, state, [nine] * (state.dix_shown[table.other] + 1), from_table=False)
    before = len(state.events)
    state.dix(how)
    new = replace(table, state=state)
    return Answer(new, [*_events(new, before), _whose_turn(new)], {"dix": how})


def _draw(table: TwoTable, rest: str, advise: bool) -> Answer:
    """The card the player sees drawn: its own, or on the last draw the last face-down
    card (the winner's, shown)."""
    _phase(table, ("won",), "draw")
    if not rest:
        raise NotationError("draw: expected the card drawn, e.g. 'draw 10H'")
    card = parse_card(rest).index
    state = _copy(table)
    assert state.winner is not None
    last = len(state.stock) == 1
    place = 0 if last or state.winner == table.me else 1
    _into_stock(table, state, card, place)
    before = len(state.events)
    state.draw()
    new = replace(table, state=state)
    return Answer(new, [*_events(new, before), _whose_turn(new)], {"draw": CARD_NAMES[card]})


def _close(table: TwoTable, rest: str, advise: bool) -> Answer:
    _phase(table, ("won",), "close")
    state = _copy(table)
    before = len(state.events)
    state.close()
    new = replace(table, state=state)
    return Answer(new, [*_events(new, before), _whose_turn(new)], {"closed": True})


def _hint(table: TwoTable, rest: str, advise: bool) -> Answer:
    from meldcalc.advice.twohanded import hint_in, hint_record, hint_text

    _phase(table, ("play", "won"), "hint")
    assert table.state is not None and table.turn_up is not None
    if table.state.to_play != table.me:
        raise MeldcalcError(f"it is {table.seat_label(table.state.to_play)}'s turn, not yours")
    if not advise:
        return Answer(table)
    found = hint_in(table.state.copy(), table.state.to_play, table.turn_up)
    record = hint_record(found)
    return Answer(table, hint_text(record).splitlines(), {"hint": record})


def _show(table: TwoTable, rest: str, advise: bool) -> Answer:
    if table.state is None:
        return Answer(table, [table.prompt.strip("[] >")])
    state, me = table.state, table.me
    assert me is not None
    lines = [
        f"your hand: {Hand(state.hands[me]).notation()}",
        f"your table: {_table_text(state, me)}",
        f"{table.seat_label(table.other)}'s table: {_table_text(state, table.other)}",
        f"trick: {' '.join(CARD_NAMES[c] for c in state.trick) or '-'}",
        *_points_lines(table),
    ]
    return Answer(
        table, lines, {"meld": list(state.meld_points), "tricks": list(state.trick_points)}
    )


def _help(table: TwoTable, rest: str, advise: bool) -> Answer:
    return Answer(table, [HELP])


_STEPS = {
    "seat": _seat_step,
    "hand": _hand,
    "turn-up": _turn_up,
    "turnup": _turn_up,
    "play": _play,
    "meld": _meld,
    "dix": _dix,
    "draw": _draw,
    "close": _close,
    "hint": _hint,
    "show": _show,
    "help": _help,
}


# --- what the player cannot see ----------------------------------------------------------


def _copy(table: TwoTable) -> StockHand:
    assert table.state is not None
    return table.state.copy()


def _bring(table: TwoTable, state: StockHand, cards: Sequence[int], from_table: bool) -> None:
    """Make the other's stand-in hand hold ``cards`` (beyond what lies on its table, when
    it may play or meld from there), each swapped in from the stock's stand-ins; refused
    when every copy of a card has been seen."""
    other = table.other
    for card in set(cards):
        wanted = list(cards).count(card)
        if from_table:
            wanted -= sum(1 for held in state.table[other].values() if held == card)
        while state.hands[other][card] < wanted:
            if card not in state.stock:
                raise MeldcalcError(
                    f"{CARD_NAMES[card]}: {table.seat_label(other)} cannot hold it: every copy"
                    " is in your hand, on a table, played or turned up"
                )
            spare = _spare(state.hands[other], cards)
            state.stock[state.stock.index(card)] = spare
            state.hands[other][spare] -= 1
            state.hands[other][card] += 1


def _spare(counts: list[int], keep: Sequence[int]) -> int:
    """A stand-in card of the other's hand not among ``keep``."""
    for card, count in enumerate(counts):
        if count > list(keep).count(card):
            return card
    raise MeldcalcError("no stand-in card to swap: the hand is inconsistent")


def _into_stock(table: TwoTable, state: StockHand, card: int, place: int) -> None:
    """Put ``card`` (unseen: in the stock or the other's stand-ins) at ``place`` of the
    stock, where the draw will take it."""
    other = table.other
    if card in state.stock:
        where = state.stock.index(card)
        state.stock[where], state.stock[place] = state.stock[place], state.stock[where]
    elif state.hands[other][card]:
        state.hands[other][card] -= 1
        state.hands[other][state.stock[place]] += 1
        state.stock[place] = card
    else:
        raise MeldcalcError(
            f"draw {CARD_NAMES[card]}: every copy of it is in your hand, on a table, played"
            " or turned up"
        )


# --- what is said ------------------------------------------------------------------------


def _events(table: TwoTable, since: int) -> list[str]:
    """The events since ``since`` in words, the other's draws unseen unless shown."""
    assert table.state is not None
    lines = []
    for event in table.state.events[since:]:
        who = table.seat_label(event.seat) if not isinstance(event, TrickDone) else ""
        if isinstance(event, TrickDone):
            winner = table.seat_label(event.winner)
            lines.append(
                f"trick {event.number}: {winner} win{'' if winner == 'you' else 's'} {event.points}"
            )
        elif isinstance(event, Melded):
            lines.append(
                f"{who} meld{'' if who == 'you' else 's'} {event.laid.text}: {event.laid.points}"
            )
        elif isinstance(event, DixScored):
            lines.append(f"{who}: dix {_DIX_WORDS[event.how]}: {event.points}")
        elif isinstance(event, Drew) and (event.seat == table.me or event.shown):
            lines.append(f"{who} draw{'' if who == 'you' else 's'} {CARD_NAMES[event.card]}")
        elif isinstance(event, Drew):
            lines.append(f"{who} draws")
        elif isinstance(event, Closed):
            lines.append(f"{who} closed the stock")
    if (
        table.state.stage != STOCK
        and table.state.stage != OVER
        and any(isinstance(e, Drew) and e.shown for e in table.state.events[since:])
    ):
        lines.append("the stock is gone: the melds go back into the hands, the follow rules hold")
    if table.state.over:
        lines += _points_lines(table)
    return lines


_DIX_WORDS = {
    "exchange": "exchanged for the turn-up",
    "show": "shown",
    "turned up": "turned up, the dealer's",
}


def _points_lines(table: TwoTable) -> list[str]:
    scored = table.outcome()
    if scored is not None:
        return list(scored.explanation)
    state = table.state
    assert state is not None
    points = zip(state.meld_points, state.trick_points)
    return [
        f"{table.seat_label(seat)}: {meld} meld, {tricks} in tricks so far"
        for seat, (meld, tricks) in enumerate(points)
    ]


def _table_text(state: StockHand, seat: int) -> str:
    return card_names(state.table_cards(seat)) or "-"


def _whose_turn(table: TwoTable) -> str:
    """``stock 20, you to lead``; once the hand is over, nothing."""
    assert table.state is not None
    if table.state.over or table.state.phase == WON:  # the trick's line says who won
        return ""
    return table.prompt.strip("[] >").replace(": ", ", ", 1)


def _phase(table: TwoTable, phases: str | tuple[str, ...], step: str) -> None:
    if isinstance(phases, str):
        phases = (phases,)
    if table.phase not in phases:
        if table.me is None:  # nothing but the seat can come first
            raise MeldcalcError(f"{step}: not yet: say your seat first (seat 0 or seat 1)")
        raise MeldcalcError(f"{step}: not now ({table.prompt.strip('[] >')})")


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * NUM_CARDS
    for card in cards:
        counts[card] += 1
    return counts
