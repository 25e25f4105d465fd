"""The rules audit, kept as code: every rule of the rule texts (../shared/RULES.md, in its
order) a row, and each row a call or a command whose answer is the rule's. A row fails
when meldcalc stops playing the rule as the texts give it.

Two-handed rows ask the stock game (`meldcalc.rules.twohanded`, and the session that
follows it); bidding-system rows ask the system tables (`meldcalc.rules.systems.meaning`,
each system as the variant that plays it names it). No row is skipped: a rule not
yet played would be a failing row, not a quiet gap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest
from test_twohanded_rules import HEARTS, arranged, card, won_by_seat_0
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.errors import MeldcalcError
from meldcalc.game import twohanded as two_table
from meldcalc.game.session import apply, replay, start
from meldcalc.rules.cards import CARD_NAMES, Hand, parse_card, parse_suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld
from meldcalc.rules.scoring import HandPlay, score_hand, standing
from meldcalc.rules.seats import place_offsets
from meldcalc.rules.systemfile import system_for
from meldcalc.rules.systems import meaning
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.twohanded import STOCK, WON, StockHand, TrickDone, card_names
from meldcalc.rules.variant import Passing, ThrownIn, may_name_trump

#: Firehouse's one round from the dealer's left: seat 0 holds a marriage in hearts and
#: bids, seat 1 passes, 2 overcalls, 3 bids under it (each seat's one word).
DOUBLE_HAND = [
    "seat 0",
    "hand KH QH AS AS 10S 10S JS JS AD AD 10D 10D JD JD AC 10C JC 10H JH 10H",
]
ONE_ROUND = ["seat 0", "hand KH QH AS AS 10S KS QS JS 9D 9D AC 10C", "200", "pass", "240", "250"]


@dataclass(frozen=True)
class Rule:
    """A rule of the texts, and the call whose answer must be ``want``."""

    section: str
    rule: str
    got: Callable[[], Any]
    want: Any


@cache
def rules(name: str) -> Any:
    return load_variant(name)


def total(name: str, trump: str, hand: str) -> int:
    """The best meld of ``hand`` under ``trump``, as `meldcalc meld` counts it."""
    return best_meld(Hand.parse(hand), rules(name), parse_suit(trump)).total


def copies(name: str, trump: str, cards: str, *counts: int) -> list[int]:
    """The best meld of ``cards`` held once, twice, ... (``counts``; default 1 to 4)."""
    return [total(name, trump, " ".join([cards] * k)) for k in counts or (1, 2, 3, 4)]


def checks(name: str, trump: str, hand: str) -> int:
    """The checks of the best meld of ``hand``."""
    return sum(
        meld.checks for meld in best_meld(Hand.parse(hand), rules(name), parse_suit(trump)).melds
    )


def scored(name: str, bid: int, bidder: int, meld: tuple, tricks: tuple | None = None, **kw):
    """(outcome, points) of a hand as `meldcalc score` scores it."""
    score = score_hand(rules(name), HandPlay(bid, bidder, meld, tricks, **kw))
    return score.outcome, score.points


def house(name: str, **switches: Any) -> Any:
    variant = rules(name)
    return replace(variant, house=replace(variant.house, **switches))


def cli(*argv: str) -> str:
    done = CliRunner().invoke(app, list(argv))
    assert done.exit_code == 0, done.output
    return done.stdout


def refused(*argv: str) -> str:
    done = CliRunner().invoke(app, list(argv))
    assert done.exit_code == 2, done.output
    return done.output


def at_once() -> Any:
    """The plain pass of examples/house-passing made simultaneous."""
    variant = rules("examples/house-passing")
    return replace(variant, passing=replace(variant.passing, simultaneous=True))


def legal(trump: str, trick: str, hand: str, name: str = "single-deck") -> list[str]:
    """The cards ``hand`` may play to ``trick`` (as typed) under the variant's duties."""
    variant = rules(name)
    cards = [parse_card(token).index for token in trick.split()]
    counts = Hand.parse(hand).counts
    found = legal_cards(counts, cards, parse_suit(trump), variant.head, variant.overtrump)
    return sorted(CARD_NAMES[card] for card in found)


def wins(trump: str, trick: str) -> int:
    """The position of the card that wins ``trick``."""
    cards = [parse_card(token).index for token in trick.split()]
    return winning_position(cards, parse_suit(trump))


def winner(name: str, hands: list[tuple[int, int, tuple, tuple]], target: int) -> Any:
    """The game's winner after ``hands`` (bid, bidder, meld, tricks), as `score -g` says."""
    scores = [score_hand(rules(name), HandPlay(*hand)) for hand in hands]
    done = standing(rules(name), scores, target)
    return done.winner, done.totals


def refused_step(name: str | Any, steps: list[str], step: str) -> str:
    """What the session says refusing ``step`` after ``steps`` (a variant, or its name)."""
    table = replay(start(rules(name) if isinstance(name, str) else name, dealer=3), steps)
    with pytest.raises(MeldcalcError) as error:
        apply(table, step, advise=False)
    return str(error.value)


# --- two-handed: the stock game, asked trick by trick -----------------------------------------

#: Seat 0's hand in the stock game's rows: a run in spades, two A♦ to win tricks with (seat
#: 1 holds HEARTS: it follows with a 9♥ and loses).
RUN_HAND = "AS 10S KS QS JS AD AD 9D 9D 9C 9C JC"


def refusal(step: Callable[[], object]) -> str:
    """What the rules say refusing ``step``; empty when they allow it."""
    try:
        step()
    except MeldcalcError as error:
        return str(error)
    return ""


def cards(names: str) -> list[int]:
    return [card(name) for name in names.split()]


def two_handed_deal() -> tuple:
    """A hand as the session deals it from seat 0's view (the dealer seat 1): the cards
    each holds, the stock with its turn-up, trump, who leads; and whether `bid` says the
    game has no auction."""
    steps = ["seat 0", f"hand {RUN_HAND}", "turn-up KD"]
    state = two_table.replay(two_table.start(rules("two-handed"), dealer=1), steps).state
    no_auction = "two-handed has no auction" in refused("bid", "-V", "two-handed", RUN_HAND)
    held = [sum(state.held(seat)) for seat in (0, 1)]
    return held, state.stock_left, state.trump.letter, state.to_play, no_auction


def play_on(state: StockHand, until: Callable[[StockHand], bool]) -> None:
    """Play the first card allowed (from the hand, where it may: melds stay on the table)
    and draw, laying no meld, until ``until`` holds."""
    while not until(state):
        if state.phase == WON:
            state.draw()
            continue
        laid = state.table_cards(state.to_play)
        allowed = state.legal_cards()
        state.play(next((c for c in allowed if c not in laid), allowed[0]))


def new_cards(state: StockHand, step: Callable[[], object]) -> list[str]:
    """The cards each seat gains by ``step`` (in its hand or on its table)."""
    before = [state.held(seat) for seat in (0, 1)]
    step()
    return [
        card_names([c for c, (n, m) in enumerate(zip(state.held(seat), was)) for _ in range(n - m)])
        for seat, was in enumerate(before)
    ]


def bezique_draw() -> tuple:
    """After a trick won: who acts, one meld and a second refused, what each seat draws;
    and at the last draw, whether the winner takes the face-down card, what the loser
    takes, and whether both are shown."""
    state = arranged(RUN_HAND, HEARTS, "AS", top="KC QC")
    won_by_seat_0(state, "AD", "9H")
    acts = state.to_play
    state.meld(cards("KS QS"))
    second = refusal(lambda: state.copy().meld(cards("AS 10S KS QS JS")))
    drawn = new_cards(state, state.draw)
    play_on(state, lambda s: s.stock_left == 2 and s.phase == WON)
    face_down, winner = state.stock[0], state.winner
    taken = new_cards(state, state.draw)
    shown = [event.shown for event in state.events[-2:]]
    last = taken[winner] == CARD_NAMES[face_down], taken[1 - winner], shown
    return acts, second, drawn, last


def follows_in_the_stock() -> tuple[str, str]:
    """The cards seat 1 may play to A♠ while the stock lasts, and whether 9♥ is refused
    (it holds 9♠)."""
    state = arranged("AS AS 10S KS QS JS 9D 9D 9C 9C JC JC", HEARTS.replace("9H 9H", "9H 9S"), "AD")
    state.play(card("AS"))
    return card_names(state.legal_cards()), refusal(lambda: state.copy().play(card("9H")))


def all_from_the_table() -> str:
    """Kings around, then queens around: K♥ Q♥ are then both on the table, in no meld of
    the marriage's class: what the rules say of a marriage laid from them alone."""
    seat_1 = "10H 10H JH JH 9H 9H 9D 9D 9C 9C JC JC"
    state = arranged("KS KH KD KC QS QH QD QC AD AD AC AC", seat_1, "AS", top="10C 10C 10D 10D")
    for lead, follow, around in (("AD", "9H", "KS KH KD KC"), ("AD", "9H", "QS QH QD QC")):
        won_by_seat_0(state, lead, follow)
        state.meld(cards(around))
        state.draw()
    won_by_seat_0(state, "AC", "9C")
    return refusal(lambda: state.meld(cards("KH QH")))


def played_from_the_table() -> tuple:
    """A royal marriage laid, then its K♠ led: the table before and after, the hand's K♠,
    the meld still scored."""
    state = arranged("KS QS AD AD 10D 9D 9D 9C 9C JC JC 10C", HEARTS, "AS")
    won_by_seat_0(state, "AD", "9H")
    state.meld(cards("KS QS"))
    state.draw()
    laid = card_names(state.table_cards(0))
    won_by_seat_0(state, "KS", "9H")
    return laid, card_names(state.table_cards(0)), state.hands[0][card("KS")], state.meld_points[0]


def melds_again() -> tuple:
    """A royal marriage's K♠ in kings around (another class); the run after the royal
    marriage (higher, its class); the royal marriage after the run (refused)."""

    def after(hand: str, first: str, other: str = HEARTS) -> StockHand:
        state = arranged(hand, other, "AS")
        won_by_seat_0(state, "AD", "9H")
        state.meld(cards(first))
        state.draw()
        won_by_seat_0(state, "AD", "9H")
        return state

    one_king = HEARTS.replace("KH ", "", 1) + " 9S"
    kings = after("KS QS KH KD KC AD AD 9D 9C 9C JC JC", "KS QS", one_king)
    around = kings.meld(cards("KS KH KD KC"))
    run = after(RUN_HAND, "KS QS").meld(cards("AS 10S KS QS JS"))
    reverse = after(RUN_HAND, "AS 10S KS QS JS")
    return (
        (around.points, card_names(around.from_hand)),
        (run.points, card_names(run.from_hand)),
        refusal(lambda: reverse.meld(cards("KS QS"))),
    )


def dix_rules() -> tuple:
    """A 9♠ turned up (the dealer's 10; the other 9♠ then only shown), and a 9♠ exchanged
    for the turned-up A♠ after a trick won."""
    hand = "9S KS AD AD 10D 9D 9D 9C 9C JC JC 10C"
    turned = arranged(hand, HEARTS, "9S")
    dealer = list(turned.meld_points)
    won_by_seat_0(turned, "AD", "9H")
    exchanged = arranged(hand, HEARTS, "AS")
    won_by_seat_0(exchanged, "AD", "9H")
    how = exchanged.dix()
    return (
        dealer,
        turned.dix_actions(),
        (how, CARD_NAMES[exchanged.turn_up], exchanged.hands[0][card("AS")]),
        exchanged.meld_points[0],
    )


def marriage_laid() -> StockHand:
    """Seat 0 wins the first trick and lays its royal marriage K♠ Q♠ (trump ♠)."""
    state = arranged(RUN_HAND, HEARTS, "AS")
    won_by_seat_0(state, "AD", "9H")
    state.meld(cards("KS QS"))
    return state


def last_twelve() -> tuple:
    """Once the stock is gone: the stage, the tricks left, the tables and hands; then each
    card allowed is what the follow rules allow (`rules.tricks`), which bites at least once,
    and a card they refuse is refused."""
    variant = rules("two-handed")
    state = marriage_laid()
    play_on(state, lambda s: s.stage != STOCK)
    gone = state.stage, 24 - state.tricks_done, state.table, [sum(h) for h in state.hands]
    same, refused_once = True, ""
    while not state.over:
        held, allowed = state.held(state.to_play), state.legal_cards()
        duties = variant.head, variant.overtrump
        same &= allowed == legal_cards(held, state.trick, state.trump, *duties)
        outside = next((c for c, n in enumerate(held) if n and c not in allowed), None)
        if outside is not None and not refused_once:
            refused_once = refusal(lambda card=outside: state.copy().play(card))
        state.play(allowed[0])
    return gone, same, "once the stock is gone the follow rules hold" in refused_once


def two_handed_points() -> tuple:
    """The counters and last trick against single deck's; a whole hand's trick points;
    the game's target, and the game won past it."""
    two, single = rules("two-handed"), rules("single-deck")
    state = marriage_laid()
    play_on(state, lambda s: s.over)
    tricks = [e for e in state.events if isinstance(e, TrickDone)]
    hands = [(0, 0, (240, 80), (130, 80)), (0, 0, (500, 20), (150, 60))]
    return (
        two.counters == single.counters,
        two.last_trick,
        (len(tricks), sum(state.trick_points)),
        two.game_target,
        winner("two-handed", hands, two.game_target),
    )


# --- bidding systems: the table of what a bid says ----------------------------------------


def said(name: str, auction: list[int], bid: int) -> str:
    """What ``bid`` after ``auction`` tells, as the system ``name`` plays reads it: the
    meld shown, cards held, cards asked for, trump wanted, the others shut out; ``bids``
    for a bid that tells nothing more, ``bare`` for a number the system does not read."""
    told = meaning(system_for(rules(name)), auction, bid)
    if told.bare:
        return "bare"
    parts = [] if told.meld is None else [f"meld {told.meld_words()}"]
    parts += [] if told.holds is None else [told.holds.words()]
    parts += [] if told.asks is None else [f"asks {told.asks.words()}"]
    parts += ["wants trump"] * told.wants_trump + ["shuts out"] * told.shuts_out
    return ", ".join(parts) or "bids"


DD_87 = "AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS"
EXAMPLE_HOUSE = "examples/house-minimum-20"

AUDIT: list[Rule] = [
    # --- The reuse rule (all variants) ------------------------------------------------------
    Rule(
        "reuse",
        "a card serves melds of different classes at once (Q♠: marriage, pinochle, queens around)",
        lambda: total("single-deck", "H", "KS QS JD QH QD QC"),
        120,
    ),
    Rule(
        "reuse",
        "one K-Q pair is not both the run's and a royal marriage",
        lambda: total("single-deck", "S", "AS 10S KS QS JS"),
        150,
    ),
    Rule(
        "reuse", "K K Q is one marriage, not two", lambda: total("single-deck", "S", "KD KD QD"), 20
    ),
    Rule(
        "reuse",
        "a run outside trump is worth only its marriage",
        lambda: total("single-deck", "S", "AH 10H KH QH JH"),
        20,
    ),
    Rule(
        "reuse",
        "the best meld is an optimisation, not the run first (Toby Thomas: run and an"
        " extra K-Q = 15 + 30)",
        lambda: total("double-deck-toby-thomas", "H", "AH 10H KH KH QH QH JH"),
        45,
    ),
    # --- single-deck --------------------------------------------------------------------------
    Rule(
        "single-deck",
        "48 cards, A 10 K Q J 9 twice; 4 players in partnerships; 12 each; no widow",
        lambda: (
            rules("single-deck").deck.size,
            rules("single-deck").players,
            rules("single-deck").partnerships,
            rules("single-deck").hand_size,
            rules("single-deck").widow,
        ),
        (48, 4, True, 12, 0),
    ),
    Rule(
        "single-deck",
        "run 150, double run 1500",
        lambda: (
            total("single-deck", "S", "AS 10S KS QS JS"),
            total("single-deck", "S", "AS AS 10S 10S KS KS QS QS JS JS"),
        ),
        (150, 1500),
    ),
    Rule(
        "single-deck",
        "royal marriage 40 each",
        lambda: total("single-deck", "S", "KS KS QS QS"),
        80,
    ),
    Rule("single-deck", "marriage 20 each", lambda: total("single-deck", "S", "KH QH KD QD"), 40),
    Rule(
        "single-deck",
        "pinochle 40, double pinochle 300",
        lambda: (total("single-deck", "H", "JD QS"), total("single-deck", "H", "JD JD QS QS")),
        (40, 300),
    ),
    Rule(
        "single-deck",
        "aces around 100, double 1000",
        lambda: copies("single-deck", "H", "AS AH AD AC", 1, 2),
        [100, 1000],
    ),
    Rule(
        "single-deck",
        "kings around 80 (double 800), queens 60 (600), jacks 40 (400)",
        lambda: [
            n for r in "KQJ" for n in copies("single-deck", "H", f"{r}S {r}H {r}D {r}C", 1, 2)
        ],
        [80, 800, 60, 600, 40, 400],
    ),
    Rule("single-deck", "dix 10 each", lambda: total("single-deck", "S", "9S 9S"), 20),
    Rule(
        "single-deck",
        "a roundhouse is the sum of its parts: 240 with a royal marriage",
        lambda: total("single-deck", "S", "KS QS KH QH KD QD KC QC"),
        240,
    ),
    Rule(
        "single-deck",
        "counters A 10, 10 10, K 5; last trick 10: 210 in all (not the 240 of seed 000's sentence)",
        lambda: rules("single-deck").trick_total,
        210,
    ),
    Rule(
        "single-deck",
        "traditional scale 11/10/4/3/2, last trick 10: 250",
        lambda: rules("single-deck-classic").trick_total,
        250,
    ),
    Rule(
        "single-deck",
        "opening at least 250, steps of 10",
        lambda: rules("single-deck").bidding.levels(290),
        [250, 260, 270, 280, 290],
    ),
    Rule(
        "single-deck",
        "a pass is final: the auction goes round without the seat",
        lambda: (
            replay(
                start(rules("single-deck"), dealer=3),
                [
                    "seat 1",
                    "hand AS 10S KS QS JS JD 9S AH AD AC KH QH",
                    "pass",
                    "250",
                    "260",
                    "270",
                ],
            ).to_bid
        ),
        1,
    ),
    Rule(
        "single-deck",
        "four passes: the deal is not played (redeal)",
        lambda: (
            replay(
                start(rules("single-deck"), dealer=3),
                [
                    "seat 0",
                    "hand AS 10S KS QS JS JD 9S AH AD AC KH QH",
                    "pass",
                    "pass",
                    "pass",
                    "pass",
                ],
            ).phase
        ),
        "over",
    ),
    Rule(
        "single-deck",
        "made: the bidding side's meld and tricks reach the bid; both add theirs",
        lambda: scored("single-deck", 300, 0, (150, 80), (160, 50)),
        ("made", (310, 130)),
    ),
    Rule(
        "single-deck",
        "set: minus the bid",
        lambda: scored("single-deck", 300, 0, (150, 80), (140, 70)),
        ("set", (-300, 150)),
    ),
    Rule(
        "single-deck",
        "game 1000 (500 the short game, score --to)",
        lambda: rules("single-deck").bidding.game,
        1000,
    ),
    # --- double-deck ---------------------------------------------------------------------------
    Rule(
        "double-deck",
        "80 cards (A 10 K Q J, four of each), 4 players, 20 each",
        lambda: (rules("double-deck").deck.size, rules("double-deck").hand_size),
        (80, 20),
    ),
    Rule(
        "double-deck",
        "run 15/150/225/300",
        lambda: copies("double-deck", "H", "AH 10H KH QH JH"),
        [15, 150, 225, 300],
    ),
    Rule(
        "double-deck",
        "royal marriage 4/8/12/16",
        lambda: copies("double-deck", "H", "KH QH"),
        [4, 8, 12, 16],
    ),
    Rule(
        "double-deck",
        "marriage per non-trump suit 2/4/6/8",
        lambda: copies("double-deck", "H", "KS QS"),
        [2, 4, 6, 8],
    ),
    Rule(
        "double-deck",
        "pinochle 4/30/60/90",
        lambda: copies("double-deck", "H", "JD QS"),
        [4, 30, 60, 90],
    ),
    Rule(
        "double-deck",
        "aces around 10/100/150/200",
        lambda: copies("double-deck", "H", "AS AH AD AC"),
        [10, 100, 150, 200],
    ),
    Rule(
        "double-deck",
        "kings 8/80/120/160, queens 6/60/90/120, jacks 4/40/60/80 around",
        lambda: [n for r in "KQJ" for n in copies("double-deck", "H", f"{r}S {r}H {r}D {r}C")],
        [8, 80, 120, 160, 6, 60, 90, 120, 4, 40, 60, 80],
    ),
    Rule(
        "double-deck",
        "tens around score nothing",
        lambda: total("double-deck", "H", "10S 10H 10D 10C"),
        0,
    ),
    Rule(
        "double-deck",
        "tricks: A, 10, K one point each, last trick 2: 50",
        lambda: rules("double-deck").trick_total,
        50,
    ),
    Rule(
        "double-deck",
        "opening at least 50, steps of 1 up to 60, then multiples of 5",
        lambda: rules("double-deck").bidding.levels(70),
        [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70],
    ),
    Rule(
        "double-deck",
        "the first three pass: the dealer must bid 50",
        lambda: (
            replay(
                start(rules("double-deck"), dealer=3),
                ["seat 0", f"hand {DD_87}", "pass", "pass", "pass", "pass"],
            ).contract
        ),
        50,
    ),
    Rule(
        "double-deck",
        "the bidder must hold a marriage in the suit named trump",
        lambda: may_name_trump(Hand.parse(DD_87), rules("double-deck"), parse_suit("D")),
        False,
    ),
    Rule(
        "double-deck",
        "no marriage: not played, the bidding side loses the bid, no one counts meld",
        lambda: scored("double-deck", 55, 0, (30, 20), no_marriage=True),
        ("not played", (-55, 0)),
    ),
    Rule(
        "double-deck",
        "game 500; both reach it on one hand: the bidding side wins",
        lambda: winner(
            "double-deck", [(50, 1, (20, 20), (20, 30)), (60, 1, (480, 460), (20, 30))], 500
        ),
        (1, (540, 540)),
    ),
    Rule(
        "double-deck",
        "double-deck-book: runs without bonus 15/30/45/60, pinochle 4/30/45/300",
        lambda: (
            copies("double-deck-book", "H", "AH 10H KH QH JH", 2, 4)
            + copies("double-deck-book", "H", "JD QS", 3, 4)
        ),
        [30, 60, 45, 300],
    ),
    Rule(
        "double-deck",
        "double-deck-pinochle-14: single pinochle 14, doubles unchanged",
        lambda: copies("double-deck-pinochle-14", "H", "JD QS", 1, 2),
        [14, 30],
    ),
    Rule(
        "double-deck",
        "double-deck-npa: run 25, single pinochle 15",
        lambda: (
            total("double-deck-npa", "H", "AH 10H KH QH JH"),
            total("double-deck-npa", "H", "JD QS"),
        ),
        (25, 15),
    ),
    Rule(
        "double-deck",
        "double-deck-100-aces: every meld and trick value times 10",
        lambda: (
            total("double-deck-100-aces", "H", "AS AH AD AC"),
            rules("double-deck-100-aces").trick_total,
        ),
        (100, 500),
    ),
    Rule(
        "double-deck",
        "Toby Thomas: run 15/150/500, royal marriage 4/30/60/240, pinochle"
        " 4/30/90/360, aces 10/100/500",
        lambda: [
            copies("double-deck-toby-thomas", "H", "AH 10H KH QH JH", 3)[0],
            copies("double-deck-toby-thomas", "H", "KH QH", 4)[0],
            copies("double-deck-toby-thomas", "H", "JD QS", 4)[0],
            copies("double-deck-toby-thomas", "H", "AS AH AD AC", 3)[0],
        ],
        [500, 240, 360, 500],
    ),
    Rule(
        "double-deck",
        "Toby Thomas: a double run alone is 150, a triple run alone 500",
        lambda: (
            total("double-deck-toby-thomas", "S", "AS AS 10S 10S KS KS QS QS JS JS"),
            copies("double-deck-toby-thomas", "S", "AS 10S KS QS JS", 3)[0],
        ),
        (150, 500),
    ),
    Rule(
        "double-deck",
        "Toby Thomas: A 10 K K K Q Q Q J = 75; A A 10 10 10 K K K Q Q Q J J = 210",
        lambda: (
            total("double-deck-toby-thomas", "H", "AH 10H KH KH KH QH QH QH JH"),
            total("double-deck-toby-thomas", "H", "AH AH 10H 10H 10H KH KH KH QH QH QH JH JH"),
        ),
        (75, 210),
    ),
    Rule(
        "double-deck",
        "Toby Thomas: opening 25, steps of 1 up to 50, then multiples of 5",
        lambda: rules("double-deck-toby-thomas").bidding.levels(60, start=48),
        [48, 49, 50, 55, 60],
    ),
    Rule(
        "double-deck",
        "roundhouse bonus: a house rule a file can switch on (32)",
        lambda: total("examples/house-roundhouse", "S", "KS QS KH QH KD QD KC QC"),
        32,
    ),
    Rule(
        "double-deck",
        "minimum 20: a side whose meld is under 20 scores none",
        lambda: scored(EXAMPLE_HOUSE, 60, 0, (50, 18), (30, 20)),
        ("made", (80, 20)),
    ),
    Rule(
        "double-deck",
        "minimum 20: a bidding side under 20 meld loses the bid without play;"
        " the others score their meld if at least 20, no trick test",
        lambda: scored(EXAMPLE_HOUSE, 60, 0, (18, 30)),
        ("short of meld", (-60, 30)),
    ),
    Rule(
        "double-deck",
        "minimum 20: a side under 20 in tricks scores nothing (meld ignored)",
        lambda: scored(EXAMPLE_HOUSE, 60, 0, (50, 30), (35, 15)),
        ("made", (85, 0)),
    ),
    Rule(
        "double-deck",
        "minimum 20: a bidding side under 20 in tricks is set whatever its meld",
        lambda: scored(EXAMPLE_HOUSE, 60, 0, (90, 30), (15, 35)),
        ("set", (-60, 65)),
    ),
    Rule(
        "double-deck",
        "minimum 20: in the session the hand ends on the meld, unplayed",
        lambda: (
            replay(
                start(rules(EXAMPLE_HOUSE), dealer=3),
                [
                    "seat 0",
                    "hand KH QH AS AS 10S 10S JS JS AD AD 10D 10D JD JD AC 10C JC 10H JH 10H",
                    "50",
                    "pass",
                    "pass",
                    "pass",
                    "trump H",
                    "meld partner 6",
                    "meld left 30",
                    "meld right 0",
                ],
            )
            .outcome()
            .points
        ),
        (-50, 30),
    ),
    Rule(
        "double-deck",
        "bidding goes round once (firehouse: each player speaks once): the high bid"
        " then wins, though two seats have not passed",
        lambda: (
            (table := replay(start(rules("firehouse"), dealer=3), ONE_ROUND)).bidder,
            table.contract,
            table.phase,
        ),
        (3, 250, "trump"),
    ),
    Rule(
        "double-deck",
        "a player who passed may not bid again in a later round: the auction skips"
        " the seat (seat 1 passed; after seat 0's 530 seat 2 speaks)",
        lambda: (
            replay(
                start(rules("double-deck"), dealer=3),
                [*DOUBLE_HAND, "500", "pass", "510", "520", "530"],
            ).to_bid
        ),
        2,
    ),
    Rule(
        "double-deck",
        "firehouse: once each seat has spoken the auction is over, a bid refused",
        lambda: refused_step("firehouse", ONE_ROUND, "260"),
        "'260': not a step here (trump): type 'help' for the steps",
    ),
    Rule(
        "double-deck",
        "past the table's multiples: the last listed plus the rest (Toby Thomas: 4"
        " runs = 500 + 15; the best count of the cards lays 3 runs and 4 royal marriages)",
        lambda: (
            next(m for m in rules("double-deck-toby-thomas").melds if m.name == "run").value(4),
            copies("double-deck-toby-thomas", "H", "AH 10H KH QH JH", 4)[0],
        ),
        (515, 500 + 240),
    ),
    Rule(
        "double-deck",
        "worked example: run 15, royal marriage 4, double marriage in spades 4,"
        " pinochle 4, double queens around 60 = 87",
        lambda: total("double-deck", "H", DD_87),
        87,
    ),
    Rule(
        "double-deck",
        "worked example, seed 001's 21-card version with a third K♠: also 87",
        lambda: total("double-deck", "H", DD_87 + " KS"),
        87,
    ),
    # --- other variants -------------------------------------------------------------------
    Rule(
        "three-handed",
        "3 players each for himself, 15 each + a widow of 3; opening 300 in"
        " tens; counters 11/10/4/3/2 + 10",
        lambda: (
            rules("three-handed").players,
            rules("three-handed").hand_size,
            rules("three-handed").widow,
            rules("three-handed").bidding.opening,
            rules("three-handed").bidding.next_bid(300),
            rules("three-handed").trick_total,
        ),
        (3, 15, 3, 300, 310, 250),
    ),
    Rule(
        "three-handed",
        "the bidder takes the widow and buries 3: the burial counts for it",
        lambda: replay(
            start(rules("three-handed"), dealer=2),
            [
                "seat 0",
                "hand AS 10S KS QS JS JD 9S AH AD AC KH QH 10D 9C 9C",
                "300",
                "pass",
                "pass",
                "widow 10C JC QC",
                "trump S",
                "bury 10D 9C 9C",
            ],
        ).trick_points(),
        (10, 0, 0),
    ),
    Rule(
        "cutthroat",
        "3 players, 16 cards each, no widow; the bidder plays alone",
        lambda: (
            rules("cutthroat").players,
            rules("cutthroat").hand_size,
            rules("cutthroat").widow,
            rules("cutthroat").partnerships,
        ),
        (3, 16, 0, False),
    ),
    Rule(
        "two-handed",
        "two players, 12 each; the other 24 a stock with a card turned up for trump; the"
        " non-dealer leads; no auction",
        two_handed_deal,
        ([12, 12], 24, "D", 0, True),
    ),
    Rule(
        "two-handed",
        "the drawing as in Bezique: the trick's winner melds once, then draws first, the loser"
        " next; the last face-down card to the winner, shown, the turn-up to the loser",
        bezique_draw,
        (
            0,
            "AS 10S KS QS JS: one meld a trick won (1 in this variant): draw, and meld after"
            " the next trick won",
            ["KC", "QC"],
            (True, "AS", [True, True]),
        ),
    ),
    Rule(
        "two-handed",
        "while the stock lasts no duty to follow or beat",
        follows_in_the_stock,
        ("9S AH 10H KH QH JH 9H", ""),
    ),
    Rule(
        "two-handed",
        "each meld takes at least one card from the hand",
        all_from_the_table,
        "KH QH: a meld takes at least one card from the hand: these are all on the table",
    ),
    Rule(
        "two-handed",
        "melded cards stay face up and may be played from",
        played_from_the_table,
        ("KS QS", "QS", 0, 40),
    ),
    Rule(
        "two-handed",
        "a melded card melds again in another class, or in a higher meld of its class (a"
        " royal marriage, later the run with A 10 J added; not the reverse)",
        melds_again,
        (
            (80, "KH KD KC"),
            (150, "AS 10S JS"),
            "KS QS: KS already serves the run (150) of its class: a melded card melds again"
            " only in another class or in a higher meld of its class",
        ),
    ),
    Rule(
        "two-handed",
        "a turned-up 9 of trump scores the dealer 10; the holder of a trump 9, after winning"
        " a trick, may exchange it for the turn-up (10); the second 9 is only shown",
        dix_rules,
        ([0, 10], ["show"], ("exchange", "9S", 1), 10),
    ),
    Rule(
        "two-handed",
        "once the stock is gone, melds go back into hand and the last 12 tricks are played"
        " under follow-and-beat",
        last_twelve,
        (("last", 12, [{}, {}], [12, 12]), True, True),
    ),
    Rule(
        "two-handed",
        "counters as single deck, last trick 10; game to 1,000",
        two_handed_points,
        (True, 10, (24, 210), 1000, (0, (1020, 240))),
    ),
    Rule(
        "seed 003",
        "a two-player double deck, each player holding two hands",
        lambda: (
            rules("double-deck-two-hands").hands_each,
            rules("double-deck-two-hands").deck.size,
        ),
        (2, 80),
    ),
    Rule(
        "seed 003",
        "dealing and play counter-clockwise: the next to play sits on your right",
        lambda: place_offsets(rules("double-deck-two-hands")),
        {"left": 3, "right": 1, "partner": 2},
    ),
    Rule(
        "firehouse",
        "one bidding round, opening 200, no conceding (its cited rule book)",
        lambda: (
            rules("firehouse").bidding.rounds,
            rules("firehouse").bidding.opening,
            rules("firehouse").bidding.concede,
        ),
        (1, 200, False),
    ),
    Rule(
        "check",
        "checks: roundhouse 5, run 2, aces around 2, double pinochle 2, the other"
        " arounds 1; opening 200 (Bicycle)",
        lambda: (
            checks("check", "S", "AS 10S KS QS JS KH QH KD QD KC QC"),
            checks("check", "S", "AS AH AD AC JD JD QS QS"),
            rules("check").bidding.opening,
        ),
        (2 + 5 + 1 + 1, 2 + 2 + 0, 200),
    ),
    Rule(
        "double-deck-three-handed",
        "3 players, 25 cards each + a 5-card kitty",
        lambda: (
            rules("double-deck-three-handed").hand_size,
            rules("double-deck-three-handed").widow,
        ),
        (25, 5),
    ),
    Rule(
        "seed 003 errors",
        "J♦ + Q♥ is no pinochle (seed 003's '150' is an error of that page)",
        lambda: total("double-deck", "S", "JD QH"),
        0,
    ),
    # --- trick play ---------------------------------------------------------------------------
    Rule(
        "trick play",
        "the bidder leads the first trick; the trick's winner leads the next",
        lambda: (
            replay(
                start(rules("single-deck"), dealer=3),
                [
                    "seat 1",
                    "hand AS 10S KS QS JS JD 9S AH AD AC KH QH",
                    "250",
                    "pass",
                    "pass",
                    "pass",
                    "trump S",
                    "9H",
                    "AH",
                    "KH",
                    "10H",
                ],
            ).to_play
        ),
        1,
    ),
    Rule("trick play", "follow suit", lambda: legal("S", "KH", "AH 9D AS"), ["AH"]),
    Rule(
        "trick play",
        "head the trick: beat the winning card if you can",
        lambda: legal("S", "KH", "AH 9H AS"),
        ["AH"],
    ),
    Rule(
        "trick play",
        "unable to beat it, any card of the suit",
        lambda: legal("S", "AH", "QH 9H"),
        ["9H", "QH"],
    ),
    Rule(
        "trick play",
        "a trick already trumped: any card of the led suit",
        lambda: legal("S", "KH 9S", "AH 9H"),
        ["9H", "AH"],
    ),
    Rule(
        "trick play",
        "void in the led suit: trump, over-trumping the highest trump if you can",
        lambda: legal("S", "KH QS", "KS 9S AD"),
        ["KS"],
    ),
    Rule(
        "trick play",
        "unable to over-trump, still a trump",
        lambda: legal("S", "KH AS", "9S AD"),
        ["9S"],
    ),
    Rule("trick play", "void in both: any card", lambda: legal("S", "KH", "AD 9C"), ["9C", "AD"]),
    Rule(
        "trick play",
        "highest trump wins, else the highest card of the led suit",
        lambda: (wins("S", "AH 9S 10H AD"), wins("S", "KH AH 10H AD")),
        (1, 1),
    ),
    Rule(
        "trick play",
        "of two identical cards the first played wins",
        lambda: wins("S", "KH AH AH 9H"),
        1,
    ),
    # --- scoring the hand and the game ----------------------------------------------------
    Rule(
        "scoring",
        "made: both sides add their meld and trick points (seed 001)",
        lambda: scored("double-deck", 60, 1, (20, 40), (20, 30)),
        ("made", (40, 70)),
    ),
    Rule(
        "scoring",
        "set: nothing for meld or tricks and minus the bid; the others keep theirs",
        lambda: scored("double-deck", 60, 1, (20, 20), (20, 30)),
        ("set", (40, -60)),
    ),
    Rule(
        "scoring",
        "thrown in: the bidding side loses the bid; the others add their meld, no trick points",
        lambda: scored("double-deck", 60, 0, (20, 30), thrown_in=True),
        ("thrown in", (-60, 30)),
    ),
    Rule(
        "scoring",
        "thrown in, house variations: nothing; meld from 20; 25 or 50 for the cards"
        " plus meld from 20",
        lambda: [
            score_hand(
                house("double-deck", thrown_in=rule), HandPlay(60, 0, (20, meld), thrown_in=True)
            ).points[1]
            for meld in (24, 14)
            for rule in (
                ThrownIn(meld=False),
                ThrownIn(meld_minimum=20),
                ThrownIn(meld_minimum=20, cards=25),
                ThrownIn(meld_minimum=20, cards=50),
            )
        ],
        [0, 24, 49, 74, 0, 0, 25, 50],
    ),
    Rule(
        "scoring",
        "firehouse cannot concede",
        lambda: (
            "does not allow a side to throw the hand in"
            in refused(
                "score",
                "-V",
                "firehouse",
                "--bid",
                "250",
                "--bidder",
                "0",
                "--meld",
                "40,20",
                "--thrown-in",
            )
        ),
        True,
    ),
    Rule(
        "scoring",
        "meld more than 50 below the bid: the texts' reason to throw in (advice)",
        lambda: bool(score_hand(rules("double-deck"), HandPlay(75, 0, (20, 10), (30, 20))).advice),
        True,
    ),
    Rule(
        "scoring",
        "double deck, no marriage in the suit named: not played, bid lost, no meld",
        lambda: (
            "no one counts meld"
            in cli(
                "score",
                "-V",
                "double-deck",
                "--bid",
                "55",
                "--bidder",
                "0",
                "--meld",
                "30,20",
                "--no-marriage",
            )
        ),
        True,
    ),
    Rule(
        "scoring",
        "game: first to the target at the end of a hand",
        lambda: winner("single-deck", [(300, 0, (300, 0), (210, 0))], 500),
        (0, (510, 0)),
    ),
    Rule(
        "scoring",
        "single deck, both over on one hand: the higher total wins; equal play on",
        lambda: (
            winner("single-deck", [(250, 0, (400, 420), (110, 100))], 500)[0],
            winner("single-deck", [(250, 0, (400, 410), (110, 100))], 500)[0],
        ),
        (1, None),
    ),
    Rule(
        "scoring",
        "three-handed: each player scores alone, the same made/set rule",
        lambda: scored("three-handed", 300, 1, (60, 150, 40), (40, 170, 40)),
        ("made", (100, 320, 80)),
    ),
    Rule(
        "scoring",
        "save meld (a common house rule, not the texts'): a trick, a counter or N points",
        lambda: [
            score_hand(
                house("single-deck", save_meld=rule),
                HandPlay(250, 0, (300, 80), (200, 10), tricks_taken=(11, 1)),
            ).points
            for rule in ("trick", 20)
        ],
        [(500, 90), (500, 10)],
    ),
    Rule(
        "scoring",
        "minimum 20 and save meld are switches, off by default",
        lambda: (
            rules("double-deck").meld_minimum,
            rules("double-deck").house.trick_minimum,
            rules("double-deck").house.save_meld,
        ),
        (0, 0, None),
    ),
    # --- card exchange ------------------------------------------------------------------------
    Rule(
        "card exchange",
        "the bidder names a suit; the partner passes 3 of it where it has them",
        lambda: (
            "♥ was asked for and you hold"
            in refused_step(
                "double-deck-toby-thomas",
                [
                    "seat 2",
                    "hand AH AH KH QS JS AS 10S KS QS JS AD 10D KD QD JD AC 10C KC QC JC",
                    "30",
                    "pass",
                    "pass",
                    "pass",
                    "ask H",
                ],
                "give AS AD AC",
            )
        ),
        True,
    ),
    Rule(
        "card exchange",
        "simultaneous pass: a card received cannot be passed on",
        lambda: (
            "a card received cannot be passed on"
            in refused_step(
                at_once(),
                [
                    "seat 0",
                    "hand AS 10S KS QS JS JD 9S AH AD AC KH QH",
                    "300",
                    "pass",
                    "pass",
                    "pass",
                    "trump S",
                    "get 9C 9C 9D",
                ],
                "give 9C AD AC",
            )
        ),
        True,
    ),
    Rule(
        "card exchange",
        "trump need not be the suit asked for",
        lambda: (
            replay(
                start(rules("double-deck-toby-thomas"), dealer=3),
                [
                    "seat 0",
                    "hand AH AH KH QH KS QS AS 10S JS AD 10D KD QD JD AC 10C KC QC JC JS",
                    "30",
                    "pass",
                    "pass",
                    "pass",
                    "ask S",
                    "get 10S 10S JS",
                    "trump H",
                ],
            ).trump.letter
        ),
        "H",
    ),
    Rule(
        "card exchange",
        "a plain pass of 3 or 4 each way (house, not the seeds)",
        lambda: rules("examples/house-passing").passing,
        Passing("plain", 3),
    ),
    Rule(
        "bidding systems",
        "skip bids: opening 50 wants trump, 51 aces, 52+ meld 10 a point; a later raise of 1"
        " wants trump, of 2 or more 10 meld a point of the raise (52 then 55: 30); up to 60",
        lambda: (
            [
                said("examples/house-skip-meld", auction, bid)
                for auction, bid in (([], 50), ([], 51), ([], 52), ([], 53), ([52], 53), ([52], 55))
            ]
            + [said("examples/house-skip-meld", [50], 65)]
        ),
        [
            "wants trump",
            "at least 2 aces",
            "meld 20 to 29",
            "meld 30 to 39",
            "wants trump",
            "meld 30 to 39",
            "bare",
        ],
    ),
    Rule(
        "bidding systems",
        "Jim Davis: 50 opens, 51 not ready to pass, 52 some meld, 53 pinochle parts, 55"
        " jacks of every suit; endings 4 J, 6 Q, 8 K, 9 10, 0 A; jumps to 66, 80 or 88, 100"
        " ask for every suit; from 70, 80 asks an ace and 88 every king",
        lambda: (
            [said("examples/house-jim-davis", [], bid) for bid in (50, 51, 52, 53, 55)]
            + [said("examples/house-jim-davis", [50], bid) for bid in (54, 56, 58, 59, 60)]
            + [said("examples/house-jim-davis", [50], bid) for bid in (66, 80, 100)]
            + [said("examples/house-jim-davis", [70], bid) for bid in (80, 88)]
        ),
        [
            "bids",
            "bids",
            "meld 20 or more",
            "at least 3 of J♦ Q♠",
            "asks jacks in every suit",
            "asks a jack",
            "asks a queen",
            "asks a king",
            "asks a ten",
            "asks an ace",
            "asks queens in every suit",
            "asks kings in every suit",
            "asks aces in every suit",
            "asks an ace",
            "asks kings in every suit",
        ],
    ),
    Rule(
        "bidding systems",
        "Toby Thomas's signals: bids 25-49 ending in 6 queens, 8 kings, 0"
        " tens, 1 aces, others the standard set; 50 shuts the others out",
        lambda: [
            said("double-deck-toby-thomas", auction, bid)
            for auction, bid in (([], 26), ([], 38), ([], 40), ([], 41), ([], 27), ([], 50))
        ],
        [
            "asks a queen",
            "asks a king",
            "asks a ten",
            "asks an ace",
            "asks a king, a queen and an ace of one suit",
            "asks a king, a queen and an ace of one suit, shuts out",
        ],
    ),
]


@pytest.mark.parametrize(
    "row", AUDIT, ids=[f"{i:02d} {row.section}: {row.rule[:40]}" for i, row in enumerate(AUDIT)]
)
def test_the_rule_texts(row: Rule) -> None:
    assert row.got() == row.want, f"{row.section}: {row.rule}"
