"""meldcalc's two-handed player: what to meld, to lead and to follow (`meldcalc.rules.twohanded`
holds the rules it asks).

**While the stock lasts** a clear rule-based policy, which sees only what its seat sees
(its hand, both tables, the turn-up, the cards played):

- *A card's keep cost* is what losing it costs: the meld the seat's cards could still make
  (the exact best meld of hand and table, `meldcalc.rules.meld`) without it, the trick
  points it carries (an ace or ten lost to the other seat is its points to them), and a
  trump's worth for the last twelve tricks (`TRUMP_WORTH`, more for a high one).
- *Leading*: the card of least keep cost.
- *Following*: each card is valued as the trick would end. Winning takes the trick's
  points and the right to meld (the best meld the seat could lay now); losing gives the
  trick's points away and lets the other seat meld (`THEIR_MELD`, what a meld is worth to
  them on average). The card's keep cost is paid either way; the best value is played.
- *After a trick won*: a dix is always exchanged for the turn-up where that may be done,
  else shown. Of the melds that may be laid, the first of the best sequence of up to
  `PLAN_DEPTH` melds, as many as the stock leaves chances for, is laid: a royal marriage
  before the run it grows into, a pinochle before the double pinochle. The stock is never
  closed.

**Once the stock is gone** every card is known to a seat that remembers (its own, those
played and, so, the other's), and the last twelve tricks are played exactly: the
double-dummy solver (`meldcalc.engines.solve`) values each legal card, and the seat plays
the best for itself (of equals, the lowest). Without the solver built, the following rule
above plays them.
"""

from __future__ import annotations

from dataclasses import dataclass

from meldcalc.dealing.deal import Deal
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import RANKS, Hand
from meldcalc.rules.meld import best_meld
from meldcalc.rules.tricks import beats, suit_of
from meldcalc.rules.twohanded import DRAWN, STOCK, WON, MeldOption, StockHand
from meldcalc.rules.variant import Variant

#: What a trump held is worth for the last twelve tricks, before its rank's own worth.
TRUMP_WORTH = 8
#: A meld the other seat may lay after winning a trick, on average.
THEIR_MELD = 15
#: The most melds ahead the meld plan looks.
PLAN_DEPTH = 3


@dataclass(frozen=True)
class Choice:
    """A card with its value to the seat as the policy sees it (higher is better), and why."""

    card: int
    value: float
    why: str


@dataclass(frozen=True)
class MeldAdvice:
    """What to lay after a trick won: ``option`` (None: nothing may be laid), the plan it
    starts and its points, and the dix to score first (None: none)."""

    option: MeldOption | None
    plan: tuple[MeldOption, ...]
    plan_points: int
    dix: str | None


def counter(variant: Variant, card: int) -> int:
    return variant.counters.get(RANKS[card % len(RANKS)], 0)


def keep_cost(state: StockHand, seat: int, card: int) -> float:
    """What playing ``card`` costs ``seat`` besides the trick: meld its cards could no
    longer make, the card's trick points, a trump's worth."""
    return sum(cost_parts(state, seat, card))


def cost_parts(state: StockHand, seat: int, card: int) -> tuple[int, int, int]:
    """`keep_cost`'s parts: the meld lost, the trick points, the trump's worth."""
    held = state.held(seat)
    without = list(held)
    without[card] -= 1
    meld_lost = 0
    if state.stage == STOCK:
        meld_lost = _potential(held, state) - _potential(without, state)
    trump = suit_of(card) == state.trump.index
    rank_worth = len(RANKS) - card % len(RANKS)
    return meld_lost, counter(state.variant, card), TRUMP_WORTH + rank_worth if trump else 0


def _cost_words(state: StockHand, seat: int, card: int) -> str:
    words = [
        f"{value} {what}"
        for value, what in zip(cost_parts(state, seat, card), ("meld", "in tricks", "as trump"))
        if value
    ]
    return "costs " + (", ".join(words) if words else "nothing")


def _potential(counts: list[int], state: StockHand) -> int:
    return best_meld(Hand(counts), state.variant, state.trump).total


def lead_choices(state: StockHand) -> list[Choice]:
    """The leader's cards while the stock lasts, best first: the cheapest to lose."""
    seat = state.to_play
    choices = [
        Choice(card, -keep_cost(state, seat, card), _cost_words(state, seat, card))
        for card in state.legal_cards()
    ]
    return _ranked(choices)


def follow_choices(state: StockHand) -> list[Choice]:
    """The follower's cards, best first: each valued as the trick would end."""
    seat, led = state.to_play, state.trick[0]
    variant = state.variant
    options = state.meld_options(seat)
    choices = []
    for card in state.legal_cards():
        points = counter(variant, led) + counter(variant, card)
        meld_lost, _, trump = cost_parts(state, seat, card)
        if beats(card, led, state.trump.index):
            meld_now = _meld_after(state, seat, card, options)
            value = points + meld_now - meld_lost - trump
            why = f"wins {points}" + (f", then melds {meld_now}" if meld_now else "")
        else:
            value = -points - THEIR_MELD - meld_lost - trump - counter(variant, card)
            why = f"loses {points}" if points else "loses the trick"
        words = [f"{v} {w}" for v, w in ((meld_lost, "meld"), (trump, "as trump")) if v]
        choices.append(Choice(card, value, why + (f"; costs {', '.join(words)}" if words else "")))
    return _ranked(choices)


def _meld_after(state: StockHand, seat: int, card: int, options: list[MeldOption]) -> int:
    """The biggest of ``options`` still whole once ``card`` is played."""
    held = state.held(seat)
    held[card] -= 1
    fits = [o.points for o in options if all(o.cards.count(c) <= held[c] for c in set(o.cards))]
    return max(fits, default=0)


def _ranked(choices: list[Choice]) -> list[Choice]:
    """Best first; of equal values the lower card (the higher index) first."""
    return sorted(choices, key=lambda choice: (-choice.value, -choice.card))


def card_choices(state: StockHand) -> list[Choice]:
    """The seat to play's cards, best first, by the stage's policy."""
    if state.stage != STOCK:
        exact = _exact_choices(state)
        if exact is not None:
            return exact
    return follow_choices(state) if state.trick else lead_choices(state)


def choose_card(state: StockHand) -> int:
    return card_choices(state)[0].card


def _exact_choices(state: StockHand) -> list[Choice] | None:
    """The last tricks solved exactly; None when the solver is not built."""
    from meldcalc.engines.solve import Position, solve, solver_available

    if not solver_available():
        return None
    hands = tuple(Hand(state.hands[seat]) for seat in (0, 1))
    position = Position(hands, state.trump, state.leader, tuple(state.trick))
    solution = solve(position, state.variant, line=False, time_limit=None)
    seat, left = state.to_play, position.points_left(state.variant)
    legal = set(state.legal_cards())
    choices = []
    for card, value in solution.cards.items():
        taken = value if seat == 0 else left - value  # the solver counts seat 0's points
        if card in legal:
            choices.append(Choice(card, taken, f"takes {taken} of the {left} left, exactly"))
    return _ranked(choices)


def meld_advice(state: StockHand) -> MeldAdvice:
    """What the trick's winner lays now: the dix first, then the first meld of the best
    plan (see the module's words)."""
    trial = state.planning()
    dix = trial.dix_actions()[0] if trial.dix_actions() else None
    if dix:
        trial.dix(dix)
    chances = max(1, min(PLAN_DEPTH, (state.stock_left + 1) // 2))
    points, plan = _best_plan(trial, chances)
    return MeldAdvice(plan[0] if plan else None, plan, points, dix)


def _best_plan(state: StockHand, depth: int) -> tuple[int, tuple[MeldOption, ...]]:
    """The best sequence of at most ``depth`` melds from here, one a trick won."""
    best: tuple[int, tuple[MeldOption, ...]] = (0, ())
    for option in state.meld_options():
        after = state.copy()
        after.lay(option)
        after.melds_now = 0  # the next trick won (in a copy: nothing is drawn)
        later = _best_plan(after, depth - 1) if depth > 1 else (0, ())
        total = option.points + later[0]
        if total > best[0] or (total == best[0] and best[1] and option.points > best[1][0].points):
            best = (total, (option, *later[1]))
    return best


def after_trick(state: StockHand) -> None:
    """The trick's winner acts as the policy says: dix, meld, then draws (where the
    variant melds after the draw: draws, then dix and meld)."""
    if not state.melding:
        state.draw()
    advice = meld_advice(state)
    if advice.dix:
        state.dix(advice.dix)
    if advice.option is not None:
        state.lay(advice.option)
    if state.phase == WON:
        state.draw()
    else:
        state.end_melding()


def play_out(state: StockHand) -> StockHand:
    """Both seats play the hand to its end by the policy."""
    while not state.over:
        if state.phase in (WON, DRAWN):
            after_trick(state)
        else:
            state.play(choose_card(state))
    return state


def from_deal(variant: Variant, dealt: Deal, dealer: int = 1) -> StockHand:
    """The two-handed hand of a deal (`meldcalc.dealing.deal`): seat 0 the non-dealer."""
    if dealt.turn_up is None:
        raise MeldcalcError(f"{variant.name} turns no card up: not a game with a stock")
    return StockHand.deal(variant, dealt.hands, dealt.drawn, dealt.turn_up, dealer)
