"""Two-handed pinochle through `play` and `hint` (`meldcalc.rules.twohanded` holds the rules,
`meldcalc.engines.twohanded` the player): what they print, as tables and as JSON."""

from __future__ import annotations

import json
from typing import Any

from meldcalc.cli.base import say
from meldcalc.cli.report import tabulate
from meldcalc.rules.cards import CARD_NAMES, Card, Hand
from meldcalc.rules.twohanded import (
    EXCHANGE,
    SHOW,
    TURNED_UP,
    Closed,
    DixScored,
    Drew,
    Melded,
    StockHand,
    TrickDone,
    card_names,
)
from meldcalc.rules.variant import Variant

DIX_WORDS = {EXCHANGE: "exchanged", SHOW: "shown", TURNED_UP: "turned up"}


def play_two_handed(rules: Variant, held: Hand | None, seed: int, as_json: bool) -> None:
    """`meldcalc play -V two-handed`: a whole deal played by meldcalc's player in both seats."""
    import random

    from meldcalc.dealing.deal import deal_holding, deals
    from meldcalc.engines.twohanded import from_deal, play_out

    if held is None:
        dealt = next(deals(rules, 1, seed))
    else:
        dealt = deal_holding(rules, random.Random(seed), held)
    first = from_deal(rules, dealt)
    state = play_out(first.copy())
    if as_json:
        say(json.dumps(played_json(first, state, seed), indent=2, ensure_ascii=False))
    else:
        say(played_text(first, state, seed))


def turn_up_text(card: int) -> str:
    suit = Card.from_index(card).suit
    return f"{CARD_NAMES[card]} (trump {suit.letter} {suit.symbol})"


def played_text(first: StockHand, state: StockHand, seed: int) -> str:
    """The deal, each trick with what followed it (meld, dix, draws), and the score."""
    assert first.turn_up is not None
    lines = [
        f"{state.variant.name}, seed {seed}: seat {first.leader} leads, seat {first.dealer}"
        f" deals; turn-up {turn_up_text(first.turn_up)}",
        *[f"seat {seat}: {Hand(first.hands[seat]).notation()}" for seat in (0, 1)],
        *_turned_up_dix(state),
        "",
        tricks_table(state),
        "",
        *score_lines(state),
    ]
    return "\n".join(lines)


def _turned_up_dix(state: StockHand) -> list[str]:
    return [
        f"seat {event.seat} deals the dix face up: {event.points}"
        for event in state.events
        if isinstance(event, DixScored) and event.how == TURNED_UP
    ]


def trick_rows(state: StockHand) -> list[dict[str, Any]]:
    """Each trick and what its winner did after it: the dix, the meld, the draws."""
    rows: list[dict[str, Any]] = []
    for event in state.events:
        if isinstance(event, TrickDone):
            rows.append({"trick": event, "melds": [], "dix": [], "draws": [], "closed": False})
        elif rows and isinstance(event, Melded):
            rows[-1]["melds"].append(event.laid)
        elif rows and isinstance(event, DixScored):
            rows[-1]["dix"].append(event)
        elif rows and isinstance(event, Drew):
            rows[-1]["draws"].append(event)
        elif rows and isinstance(event, Closed):
            rows[-1]["closed"] = True
    return rows


def tricks_table(state: StockHand) -> str:
    """A row a trick: the cards by seat, who won, its points, then the meld and the draws
    (the winner's card first); a rule where the stock runs out."""
    rows = []
    for row in trick_rows(state):
        trick: TrickDone = row["trick"]
        cards = {(trick.leader + i) % 2: CARD_NAMES[card] for i, card in enumerate(trick.cards)}
        mark = {trick.leader: "*"}
        after = [f"dix {DIX_WORDS[dix.how]} {dix.points}" for dix in row["dix"]]
        after += [f"{laid.text} {laid.points}" for laid in row["melds"]]
        after += ["closes the stock"] if row["closed"] else []
        draws = " / ".join(CARD_NAMES[draw.card] for draw in row["draws"])
        rows.append(
            [
                trick.number,
                cards[0] + mark.get(0, ""),
                cards[1] + mark.get(1, ""),
                f"seat {trick.winner}",
                trick.points,
                "; ".join(after),
                draws,
            ]
        )
    headers = ["trick", "seat 0", "seat 1", "won by", "points", "melds", "draws"]
    align = ("right", "left", "left", "left", "right", "left", "left")
    return tabulate(rows, headers, colalign=align) + "\n(* led; draws: the winner's card first)"


def score_lines(state: StockHand) -> list[str]:
    """The hand's score as `meldcalc score` says it."""
    from meldcalc.rules.scoring import HandPlay, score_hand

    play = HandPlay(0, 0, tuple(state.meld_points), tuple(state.trick_points))
    if sum(state.trick_points) != state.variant.trick_total and not state.dead_points:
        return []  # not over
    return list(score_hand(state.variant, play).explanation)


def played_json(first: StockHand, state: StockHand, seed: int) -> dict[str, Any]:
    """``{"variant", "seed", "dealer", "turn_up", "hands", "stock", "tricks": [...],
    "meld", "trick_points", "points"}``; a trick: ``number``, ``leader``, ``cards`` (in
    playing order), ``winner``, ``points``, ``dix``, ``melds`` and ``draws`` after it."""
    assert first.turn_up is not None
    return {
        "variant": state.variant.name,
        "seed": seed,
        "dealer": first.dealer,
        "turn_up": CARD_NAMES[first.turn_up],
        "hands": [Hand(first.hands[seat]).notation().split() for seat in (0, 1)],
        "stock": [CARD_NAMES[card] for card in [*first.stock, first.turn_up]],
        "tricks": [_trick_json(row) for row in trick_rows(state)],
        "meld": list(state.meld_points),
        "trick_points": list(state.trick_points),
        "points": list(state.scores()),
    }


def _trick_json(row: dict[str, Any]) -> dict[str, Any]:
    trick: TrickDone = row["trick"]
    return {
        "number": trick.number,
        "leader": trick.leader,
        "cards": [CARD_NAMES[card] for card in trick.cards],
        "winner": trick.winner,
        "points": trick.points,
        "dix": [{"how": dix.how, "points": dix.points} for dix in row["dix"]],
        "melds": [
            {"name": laid.name, "cards": card_names(laid.cards).split(), "points": laid.points}
            for laid in row["melds"]
        ],
        "draws": [{"seat": draw.seat, "card": CARD_NAMES[draw.card]} for draw in row["draws"]],
        "closed": row["closed"],
    }


def hint_two_handed(
    rules: Variant,
    hand: str,
    turn_up: str | None,
    played: str,
    leader: str,
    known: list[str],
    won: bool,
    as_json: bool,
) -> None:
    """`meldcalc hint -V two-handed`: the card to play, or after a trick won the meld."""
    from meldcalc.advice.twohanded import Seen, advise, hint_record, hint_text
    from meldcalc.errors import MeldcalcError
    from meldcalc.rules.cards import parse_card, parse_hand
    from meldcalc.rules.seats import Seating

    if turn_up is None:
        raise MeldcalcError(f"--turn-up CARD: {rules.name}'s turned-up card names trump")
    seating = Seating(rules)
    melds = []
    for text in known:
        seat, _, cards = text.partition(":")
        melds.append((seating.parse(seat, "--known"), tuple(c.index for c in parse_hand(cards))))
    seen = Seen(
        parse_hand(hand),
        parse_card(turn_up),
        tuple(parse_card(token).index for token in played.replace(",", " ").split()),
        seating.parse(leader, "--leader"),
        tuple(melds),
        won,
    )
    found = advise(rules, seen)
    record = hint_record(found)
    say(json.dumps(record, indent=2, ensure_ascii=False) if as_json else hint_text(record))
