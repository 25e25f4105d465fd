"""A two-handed position as a player describes it, and meldcalc's advice in it: which card
to lead or follow, and after a trick won, what to meld now and what to keep for later.

A player says what it sees: every card it may play from (hand and table together), the
turn-up, the cards played from the first trick in order (and who led it), the melds each
seat has laid (as laid, in order), and whether it has just won a trick. From that the rules
rebuild the hand (`meldcalc.rules.twohanded`): who played each card and won each trick, how
many cards the stock still holds (two a trick while it lasts), which of the seat's cards
lie on its table and in which melds (its melds laid again in order; a melded card no longer
held was played from the table, as the rules play it). What the seat has not seen (the
other's hidden cards and the stock) is filled in with unseen cards: the player's policy
(`meldcalc.engines.twohanded`) never looks at them while the stock lasts, and once it is
gone they are known: every card not held or played is the other's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldcalc.engines.twohanded import Choice, MeldAdvice, card_choices, meld_advice
from meldcalc.errors import HandError, MeldcalcError
from meldcalc.rules.cards import CARD_NAMES, NUM_CARDS, Card, Hand
from meldcalc.rules.tricks import winning_position
from meldcalc.rules.twohanded import (
    DRAWN,
    EXCHANGE,
    LAST,
    SHOW,
    WON,
    MeldOption,
    StockHand,
    card_names,
    switches,
)
from meldcalc.rules.variant import Variant

ME, OTHER = 0, 1


@dataclass(frozen=True)
class Seen:
    """A position as the seat (seat 0 here, ``me``) describes it: ``hand``, every card it
    may play from, its hand and its table together."""

    hand: Hand
    turn_up: Card
    played: tuple[int, ...] = ()
    first_leader: int = ME
    melds: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (seat, cards as laid), in order
    won: bool = False


@dataclass(frozen=True)
class TwoHandedHint:
    """The hand and the advice to ``seat``: ``cards`` best first when a card is to be
    played; ``meld`` after a trick won; ``could_meld``, what the seat could lay were it to
    win; ``turn_up``, the card turned up at the deal."""

    state: StockHand
    seat: int
    turn_up: int
    cards: tuple[Choice, ...]
    meld: MeldAdvice | None
    could_meld: tuple[MeldOption, ...]


def advise(variant: Variant, seen: Seen) -> TwoHandedHint:
    """The hint in the position a player describes."""
    state = rebuilt(variant, seen)
    if state.to_play != ME:
        raise MeldcalcError(
            "the other seat is to play: give its card in --played (or --won if you took"
            " the last trick)"
        )
    return hint_in(state, ME, seen.turn_up.index)


def hint_in(state: StockHand, seat: int, turn_up: int) -> TwoHandedHint:
    """The hint to ``seat``, the seat to act in ``state`` (the player's policy looks only
    at what the seat has seen)."""
    could = tuple(state.meld_options(seat))
    if state.phase in (WON, DRAWN):
        return TwoHandedHint(state, seat, turn_up, (), meld_advice(state), could)
    return TwoHandedHint(state, seat, turn_up, tuple(card_choices(state)), None, could)


def rebuilt(variant: Variant, seen: Seen) -> StockHand:
    """The hand as the seat's description says it stands (see the module's words)."""
    variant.check_hand(seen.hand)
    winners = _winners(seen)
    done = len(seen.played) // 2
    if seen.won and (len(seen.played) % 2 or not winners or winners[-1] != ME):
        raise MeldcalcError("--won: the last trick in --played was not yours to win")
    before = switches(variant).meld_before_draw  # with --won: drawn yet or not
    draws = min(done - (seen.won and before), variant.stock // 2)
    if seen.won and done > variant.stock // 2:  # melds follow the stock's tricks only
        raise MeldcalcError("--won: the stock is gone, and with it the meld after a trick")
    state = StockHand(variant, seen.turn_up.suit, 1 - seen.first_leader, [[], []], [], None)
    state.hands = [list(seen.hand.counts), [0] * NUM_CARDS]
    if 2 * draws < variant.stock or seen.won:  # the melds still on the table
        _lay_again(state, seen)
    _fill_unseen(state, seen, draws)
    whole = len(seen.played) // 2 * 2
    state.trick, state.tricks_done = list(seen.played[whole:]), len(winners)
    state.leader = winners[-1] if winners else seen.first_leader
    if seen.won:
        state.phase, state.winner = (WON if before else DRAWN), ME
    elif 2 * draws >= variant.stock:
        state.stage = LAST
    return state


def _winners(seen: Seen) -> list[int]:
    """Who won each whole trick of ``played``, from who led the first."""
    leader, winners = seen.first_leader, []
    for start in range(0, len(seen.played) - 1, 2):
        trick = seen.played[start : start + 2]
        leader = (leader + winning_position(trick, seen.turn_up.suit)) % 2
        winners.append(leader)
    return winners


def _lay_again(state: StockHand, seen: Seen) -> None:
    """The seat's melds laid again in order by the rules, then the melded cards it no
    longer holds taken off its table (played from it)."""
    held = list(seen.hand.counts)
    state.hands[ME] = [0] * NUM_CARDS
    for seat, cards in seen.melds:
        if seat != ME:
            continue
        for card in cards:
            state.hands[ME][card] += 1
        melding = WON if switches(state.variant).meld_before_draw else DRAWN
        state.phase, state.winner, state.melds_now = melding, ME, 0
        try:
            state.meld(cards)
        except MeldcalcError as error:
            raise MeldcalcError(f"--known me:{card_names(cards)}: {error}") from None
    for card in range(NUM_CARDS):
        keys = sorted(key for key, on in state.table[ME].items() if on == card)
        for key in keys[held[card] :]:
            del state.table[ME][key]
    on_table = _counts(list(state.table[ME].values()))
    state.hands[ME] = [count - laid for count, laid in zip(held, on_table)]
    state.phase, state.winner, state.melds_now = "trick", None, 0


def _fill_unseen(state: StockHand, seen: Seen, draws: int) -> None:
    """The cards the seat has not seen: the other's hand (exact once the stock is gone)
    and the stock, the turn-up under it while it lies there."""
    variant = state.variant
    unseen = [variant.deck.copies_of(Card.from_index(card)) for card in range(NUM_CARDS)]
    shown = [card for seat, cards in seen.melds if seat == OTHER for card in cards]
    for card in [*seen.hand, *map(Card.from_index, seen.played)]:
        unseen[card.index] -= 1
    if 2 * draws < variant.stock:
        unseen[seen.turn_up.index] -= 1
        state.turn_up = seen.turn_up.index
    if min(unseen) < 0:
        short = [CARD_NAMES[card] for card, count in enumerate(unseen) if count < 0]
        raise HandError(f"{' '.join(short)}: more copies held and played than the deck has")
    theirs = sum(seen.hand.counts) - len(seen.played) % 2
    pool, theirs_for_sure = [card for card, count in enumerate(unseen) for _ in range(count)], []
    for card in shown:  # the other's melds are its own while they lie
        if card in pool:
            pool.remove(card)
            theirs_for_sure.append(card)
    pool = theirs_for_sure + pool
    if 2 * draws >= variant.stock and len(pool) != theirs:
        raise HandError(
            f"{len(pool)} cards unseen, but the other seat holds {theirs}: check the hand and"
            " --played"
        )
    state.hands[OTHER] = _counts(pool[:theirs])
    state.stock = pool[theirs : theirs + max(0, variant.stock - 1 - 2 * draws)]


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * NUM_CARDS
    for card in cards:
        counts[card] += 1
    return counts


def _cards_of(counts: Sequence[int]) -> list[int]:
    return [card for card, count in enumerate(counts) for _ in range(count)]


# --- the hint in words and as data ----------------------------------------------------------


def hint_record(found: TwoHandedHint) -> dict[str, Any]:
    """``{"variant", "trump", "turn_up", "stock", "stage", "to_play", "trick", "cards":
    [{"card", "value", "why"}], "meld": {...} or null, "could_meld": [...]}``."""
    state = found.state
    advice = found.meld
    return {
        "variant": state.variant.name,
        "trump": state.trump.letter,
        "turn_up": CARD_NAMES[found.turn_up],
        "stock": state.stock_left,
        "stage": state.stage,
        "trick": [CARD_NAMES[card] for card in state.trick],
        "hand": card_names(_cards_of(state.hands[found.seat])).split(),
        "table": card_names(state.table_cards(found.seat)).split(),
        "cards": [
            {"card": CARD_NAMES[c.card], "value": round(c.value, 1), "why": c.why}
            for c in found.cards
        ],
        "meld": None
        if advice is None
        else {
            "dix": advice.dix,
            "draw_first": not state.melding and state.phase == WON,
            "now": _option_json(advice.option),
            "plan": [_option_json(option) for option in advice.plan],
            "plan_points": advice.plan_points,
        },
        "could_meld": [_option_json(option) for option in found.could_meld],
    }


def _option_json(option: Any) -> dict[str, Any] | None:
    if option is None:
        return None
    return {"name": option.name, "cards": card_names(option.cards).split(), "points": option.points}


def hint_text(record: dict[str, Any]) -> str:
    """What a player reads: where the hand stands, then the advice and its reasons."""
    stock = f"{record['stock']} cards in the stock" if record["stock"] else "the stock is gone"
    lines = [f"{record['variant']}, trump {record['trump']} (turn-up {record['turn_up']}), {stock}"]
    if record["hand"]:
        lines.append(f"your hand: {' '.join(record['hand'])}")
    if record["table"]:
        lines.append(f"your table: {' '.join(record['table'])}")
    if record["meld"] is not None:
        return "\n".join([*lines, "", *_meld_lines(record)])
    trick = record["trick"]
    lines.append(f"you follow {trick[0]}" if trick else "you lead")
    best = record["cards"][0]
    lines += ["", f"Play {best['card']}: {best['why']}.", ""]
    lines += [f"{c['card']:<4} {c['value']:>7.1f}  {c['why']}" for c in record["cards"]]
    if record["stage"] == "stock":
        lines.append("(values: the player's rule while the stock lasts; higher is better)")
    could = record["could_meld"]
    if could and record["stage"] == "stock":
        lines.append("after a trick won you could meld: " + "; ".join(map(_option_text, could)))
    return "\n".join(lines)


def _option_text(option: dict[str, Any]) -> str:
    return f"{option['name']} {' '.join(option['cards'])} {option['points']}"


def _meld_lines(record: dict[str, Any]) -> list[str]:
    """After a trick won: the dix, the meld to lay now, what to keep for later."""
    meld = record["meld"]
    steps = {EXCHANGE: ["exchange the dix for the turn-up"], SHOW: ["show the dix"]}.get(
        meld["dix"], []
    )
    steps = ["draw", *steps] if meld["draw_first"] else steps
    now, plan = meld["now"], meld["plan"]
    if now is None:
        steps.append("nothing to meld: draw")
    else:
        steps.append(f"meld {_option_text(now)}")
    lines = [f"You won the trick: {', then '.join(steps)}."]
    biggest = max((option["points"] for option in record["could_meld"]), default=0)
    if len(plan) > 1 and now is not None and now["points"] < biggest:
        later = ", then ".join(_option_text(option) for option in plan[1:])
        lines.append(
            f"Keep the rest for the next tricks won: {later} ({meld['plan_points']} in all,"
            " more than the biggest meld first)."
        )
    if record["could_meld"]:
        lines.append("melds you may lay now: " + "; ".join(map(_option_text, record["could_meld"])))
    return lines
