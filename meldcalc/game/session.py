"""A hand at the table, followed step by step (`meldcalc game`).

The player types what happens as it happens, one step a line::

    seat 1                  which seat is yours (seats from 0, the first to bid after the
                            dealer; 'me', 'left', 'partner', 'right' name seats from yours,
                            and a player's name the game keeps names that player's seat)
    hand AS 10S KS ...      your hand as dealt: its meld under each trump, how high to bid
    300 | bid 300 | pass    the auction, each seat in turn from the dealer's left
    widow AS KS QH          the widow as turned up (yours to take, when you bid)
    bury 10D JC JC          the cards you bury from your hand and the widow, when you bid
    ask H                   card exchange: the suit the bidder asks its partner for
    give 10H KH QH          the cards you pass to your partner (or the bidder)
    get AH AH JD            the cards passed to you
    trump S                 the bidder names trump
    meld partner 120        a seat's meld laid down: a total, or its cards
    meld left KD QD
    AS | play AS | AS 9S    the cards as they fall, each seat in turn (several a line)
    hint                    the reference player's value of each of your cards
    show                    your hand, the trick on the table, the points so far
    tricks 160              trick points at once, when the play is not followed
    throw in | concede      the bidding side gives the hand up before play
    no marriage             double deck: the bidder holds no marriage in trump
    counters 16,8           the counters each side took, when a save-meld rule asks
    taken 12,0              the tricks each side took, when a save-meld rule asks
    checks 2,0              each side's checks, when meld was typed as totals
    undo                    take back the last step
    review                  once a hand is played out: each of your cards priced
    quit                    end the session: the hand stays in its journal, to resume

Each step is checked against what the table has seen: a bid below the last, a card not in
your hand or against the trick rules, a card whose copies are all played or of a suit its
seat has shown it lacks. The state is a fold of the steps (`replay`), so a journal of the
steps (`meldcalc.game.journal`) resumes a hand exactly where it was, and ``undo`` is one
step less. The hand ends scored as `meldcalc score` would score it (`Table.outcome`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from meldcalc.errors import HandError, MeldcalcError, NotationError, UnsupportedError, quote
from meldcalc.game import ending, possible
from meldcalc.game.answer import Answer, closing, in_phase, scored_lines
from meldcalc.game.houserules import (
    hands_typed,
    meld_shows,
    not_received,
    other_meld,
    refuse_short_of_meld,
)
from meldcalc.game.ledger import MAX_POINTS
from meldcalc.game.odds import auction_prompt, bid_report, odds_heard, with_game
from meldcalc.game.table import Table
from meldcalc.game.words import not_a_misspelt_step
from meldcalc.rules.cards import CARD_NAMES, CARDS, Hand, Suit, cards_text, parse_card, parse_suit
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.seats import place_offsets
from meldcalc.rules.variant import Variant


def review_mine(
    table: Table,
    seed: int = 0,
    jobs: int = 1,
    time_limit: float | None = None,
    progress: Any = None,
) -> list[Any]:
    """Each card you played in a hand played out, priced as you saw it and exactly
    (`advice.seen`: a `CardPriced` each), on ``jobs`` cores; the exact review stops after
    ``time_limit`` seconds, as `meldcalc review`'s does; ``progress(done, total)``."""
    from meldcalc.advice.seen import price_as_seen

    if len(table.played) != table.deal_size:
        raise MeldcalcError("review: the hand was not played card by card to its end")
    widow = None if table.takes_widow else table.widow
    return price_as_seen(
        table.as_played(), table.variant, table.me, table.known(), seed, jobs, widow,
        time_limit, progress, table.query(()).auction,
    )  # fmt: skip


# --- the steps ------------------------------------------------------------------------------


def start(
    variant: Variant,
    dealer: int,
    names: Sequence[str] = (),
    score: tuple[tuple[int, ...], int] | None = None,
    policy: str = "learned",
) -> Table:
    """A new hand's table; refuses, naming the key, a variant whose rules the session
    cannot keep (`NOT_KEPT`), before a step is typed."""
    for key, why in NOT_KEPT.items():
        if why[0](variant):
            raise UnsupportedError(f"{variant.name}: {key}: {why[1]}")
    return Table(variant, dealer, names=tuple(names), game_score=score, policy=policy)


#: The keys of a variant file whose rules the session does not keep, each with when a
#: variant's value is one it cannot follow and why; `start` refuses such a variant.
#: Every other key that changes a score is kept (tests/test_game_rules.py walks them).
NOT_KEPT = {
    "bidding": (
        lambda variant: variant.bidding is None,
        "none: the variant has no auction: a game follows bid hands",
    ),
    "stock": (
        lambda variant: variant.stock > 0,
        "cards drawn from a stock during play are not followed by the session",
    ),
}


def replay(table: Table, steps: Sequence[str]) -> Table:
    """The table after ``steps`` (each accepted once), quietly: no advice is worked out."""
    for text in steps:
        table = apply(table, text, advise=False).table
    return table


def apply(table: Table, text: str, advise: bool = True, seed: int = 0) -> Answer:
    """One step typed at the table; raises `MeldcalcError` (the table unchanged) when the
    step cannot be so. ``advise``: work out the advice it prompts (a bid, a hint)."""
    words = text.split(maxsplit=1)
    if not words:
        raise NotationError("an empty step: type a card, a bid, 'hint', 'show' or 'help'")
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "").strip()
    if verb in CARD_STEPS:  # the verb blanked: the cards keep their place in the line
        rest = text.replace(words[0], " " * len(words[0]), 1).rstrip()
    step = _STEPS.get(verb)
    if step is None:
        not_a_misspelt_step(words[0], _STEPS)
    answer = _bare(table, text, advise) if step is None else step(table, rest, advise, seed)
    _keepable(answer.table, text.strip())
    return answer


def _keepable(table: Table, text: str) -> None:
    """Refuses a step that would leave a side's meld above what a game's ledger keeps
    (`MAX_POINTS`), whichever step melds (a seat's meld typed, yours counted from a house
    file's melds): refused now, not once the whole hand has been typed. A bid is bounded
    where it is read."""
    from meldcalc.rules.scoring import side_of

    melds = table.side_melds()
    if max(melds, default=0) <= MAX_POINTS:
        return
    side = melds.index(max(melds))
    seat = [s for s, _, _ in table.melds if side_of(table.variant, s) == side][-1]
    whose = "your side" if seat == table.me else f"{table.seat_label(seat)}'s side"
    raise MeldcalcError(
        f"{text}: {whose} would meld {max(melds):,}, more than a game keeps ({MAX_POINTS:,})"
    )


def _bare(table: Table, text: str, advise: bool) -> Answer:
    """A step without a verb: a bid in the auction, cards in the play (several in a line
    are played in turn, as one step)."""
    token = text.strip()
    if table.phase == "auction" and (is_whole_number(token) or token.lower() == "pass"):
        return _bid(table, token, advise, 0)
    if table.phase in ("meld", "play"):
        return _plays(table, token, advise)
    raise NotationError(
        f"{quote(token)}: not a step here ({table.phase}): type 'help' for the steps"
    )


def _plays(table: Table, token: str, advise: bool) -> Answer:
    """Each card of the line played in turn; the first refused refuses the line (none of
    it is taken)."""
    answer = Answer(table)
    for card in token.replace(",", " ").split():
        played = _play(answer.table, card, advise, 0)
        answer = Answer(played.table, [*answer.lines, *played.lines], played.data)
    return answer


def _seat_step(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    in_phase(table, "hand", "seat")
    seat = table.seat(rest)
    return Answer(replace(table, me=seat), [f"you sit in seat {seat}"], {"me": seat})


def _hand(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.meld import best_meld_all_trumps

    in_phase(table, "hand", "hand")
    hand, other = hands_typed(table, rest)
    new = replace(table, hand=hand, other=other)
    melds = {r.trump.letter: r.total for r in best_meld_all_trumps(hand, table.variant)}
    lines = [
        f"your hand: {hand.notation()}",
        *([f"your other hand: {other.notation()}"] if other is not None else []),
        "meld under each trump: " + ", ".join(f"{t} {m}" for t, m in melds.items()),
    ]
    data: dict[str, Any] = {"hand": hand.notation(), "meld": melds}
    if advise:
        report = with_game(table, bid_report(new, hand, seed))
        best = report.best
        data["suggested_bid"], data["trump"] = report.suggested_bid, best.trump.letter
        lines.append(report.advice()[0])
        new = replace(new, odds=report)
    lines.append(auction_prompt(new))
    return Answer(new, lines, data)


def _bid(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """A bid or a pass, as the variant's auction takes it (`rules.auction`): its rounds,
    its forced dealer, its opening bid and steps."""
    in_phase(table, "auction", "bid")
    auction, seat = table.auction, table.to_bid
    bid = auction.read(rest)
    heard = auction.say(bid)
    new = replace(table, bids=heard.bids)
    said = f"{table.seat_label(seat)}: {'pass' if bid is None else bid}"
    if advise and new.bidder is None and new.to_bid == new.me and new.auction_said():
        new = odds_heard(new, seed)
    if heard.all_passed:
        lines = [said, "every seat passed: the hand is not played; deal the next one"]
        return Answer(new, lines, {"seat": seat, "bid": None, "all_passed": True})
    if bid is None and heard.bids[-1][1] is not None:  # a forced dealer's pass
        opening = heard.bids[-1][1]
        lines = [
            said,
            f"every seat passed: the dealer ({table.seat_label(seat)}) must bid {opening}",
        ]
        return _then(new, lines, {"bidder": seat, "bid": opening})
    if new.bidder is not None:
        lines = [said, f"{new.seat_label(new.bidder)} won the auction at {new.contract}"]
        if auction.bidding.rounds and len(new.passed) < new.players - 1:
            rounds = auction.bidding.rounds
            lines.insert(1, f"the bidding's {_rounds_text(rounds)} done")
        return _then(new, lines, {"seat": seat, "bid": bid, "bidder": new.bidder})
    return Answer(new, [said, auction_prompt(new)], {"seat": seat, "bid": bid})


def _rounds_text(rounds: int) -> str:
    return "one round is" if rounds == 1 else f"{rounds} rounds are"


def _pass(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """A pass: final, and carrying no number (``pass 400`` is a slip, not a pass)."""
    if rest.strip():
        raise NotationError(
            f"pass {quote(rest.strip())}: a pass carries no number: type 'pass', or the bid"
            f" alone ({rest.strip()})"
        )
    return _bid(table, "pass", advise, seed)


def _trump(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.variant import may_name_trump

    in_phase(table, "trump", "trump")
    trump = parse_suit(rest)
    mine = table.hand + table.widow if table.takes_widow else table.playing
    if table.bidder == table.me and not may_name_trump(mine, table.variant, trump):
        raise MeldcalcError(
            f"trump {trump.letter}: {table.variant.name} needs a marriage in trump, and your"
            " hand has none in it"
        )
    new = replace(table, trump=trump)
    return _then(new, [f"trump {trump.letter} {trump.symbol}"], {"trump": trump.letter})


def _then(table: Table, lines: list[str], data: dict[str, Any]) -> Answer:
    """After a step before play: what comes next, and once your hand is the one you play
    (the widow taken and buried, the pass made) your meld, counted from it."""
    from meldcalc.rules.meld import best_meld

    prompt = _prompt_before_play(table)
    if prompt is not None:
        return Answer(table, [*lines, prompt], data)
    if table.phase == "meld" and all(seat != table.me for seat, _, _ in table.melds):
        counted = table.meld_counted()
        mine = best_meld(counted, table.variant, table.trump)
        cards = Hand.from_cards(card for meld in mine.melds for card in meld.cards)
        cards = Hand([min(a, b) for a, b in zip(cards.counts, counted.counts)])
        table = replace(table, melds=(*table.melds, (table.me, mine.total, cards)))
        table, also = other_meld(table)
        partner = "partner" in place_offsets(table.variant) and table.other is None
        example = "partner" if partner else "left"
        lines = [
            *lines,
            f"your meld: {mine.total}",
            *also,
            f"lay down each seat's meld (meld {example} 120), then the cards as they fall",
            *_meld_shows(table),
        ]
        data = {**data, "your_meld": mine.total}
    return Answer(table, lines, data)


def _prompt_before_play(table: Table) -> str | None:
    """What the table waits for before play, if anything."""
    phase, bidder = table.phase, table.seat_label(table.bidder)
    mine = table.bidder == table.me
    if phase == "widow":
        return f"take the widow: widow CARDS (the {table.variant.widow} cards turned up)"
    if phase == "bury":
        return f"bury {table.variant.widow} cards from your hand and the widow: bury CARDS"
    if phase == "ask":
        return "ask your partner for a suit: ask S" if mine else f"{bidder} asks for a suit: ask S"
    if phase == "pass":
        return _pass_prompt(table)
    if phase == "trump":
        if mine:
            return _your_trump_prompt(table)
        seen = table.variant.widow and table.widow is None
        return f"{bidder} names trump: trump S" + (
            " (and the widow as turned up, if it was: widow CARDS)" if seen else ""
        )
    return None


def _your_trump_prompt(table: Table) -> str:
    """Trump to name, as a suit you may name: where a marriage in trump is needed and your
    hand holds none, the step that ends the hand instead."""
    from meldcalc.rules.cards import SUITS
    from meldcalc.rules.variant import may_name_trump

    mine = table.hand + table.widow if table.takes_widow else table.playing
    allowed = [suit for suit in SUITS if may_name_trump(mine, table.variant, suit)]
    if not allowed:
        return "your hand holds no marriage: 'no marriage' (the hand is not played)"
    return f"name trump: trump {allowed[0].letter}"


def _pass_prompt(table: Table) -> str:
    count = table.variant.passing.cards
    other = table.seat_label(table.pass_partner)
    if table.me == table.bidder:
        wanted = "get" if table.got is None else "give"
    else:
        wanted = "give" if table.given is None else "get"
    if wanted == "give":
        return f"pass {count} cards to {other}: give CARDS" + _give_advice(table)
    return f"the {count} cards {other} passes you: get CARDS"


def _give_advice(table: Table) -> str:
    """Where the table plays a bidding system, the cards the passing policy gives, with
    what the other's bids asked for first (`advice.systems.pass_advice`)."""
    from meldcalc.advice.systems import heard, pass_advice
    from meldcalc.rules.systemfile import system_for
    from meldcalc.rules.systems import last_ask

    if system_for(table.variant) is None:
        return ""
    asked = last_ask(heard(table.variant, table.bids, table.me), 2)
    bidder = table.me == table.bidder
    advice = pass_advice(table.playing, table.variant, table.trump, asked, bidder, table.ask)
    return f" ({table.seat_label(table.pass_partner)} {advice.sentence(table.trump)})"


def _widow(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    size = table.variant.widow
    if not size:
        raise MeldcalcError(f"widow: {table.variant.name} has no widow")
    if table.bidder is None or table.played or (table.widow is not None):
        raise MeldcalcError(
            "widow: not now: the widow is turned up once the auction is over, before play"
            + (" (it is given already)" if table.widow is not None else "")
        )
    cards = _cards(rest, size, "widow", table, [("your hand", table.hand)])
    new = replace(table, widow=cards)
    said = f"the widow: {cards.notation()}"
    if not new.takes_widow:
        return Answer(new, [f"{said} (to {new.seat_label(new.bidder)})"], {"widow": rest.strip()})
    return _then(new, [f"{said}; your hand is now {(table.hand + cards).notation()}"], {})


def _bury(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    if not table.variant.widow:
        raise MeldcalcError(f"bury: {table.variant.name} has no widow")
    if table.bidder is not None and table.bidder != table.me:
        raise MeldcalcError(
            f"bury: {table.seat_label(table.bidder)} bid: the burial is its own, unseen"
        )
    in_phase(table, "bury", "bury")
    cards = _cards(rest, table.variant.widow, "bury", table, [])
    _held(cards, table.hand + table.widow, "bury", "your hand and the widow", table)
    new = replace(table, buried=cards)
    return _then(new, [f"you bury {cards.notation(table.trump)}"], {"buried": rest.strip()})


def _ask(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    if table.passing_kind != "exchange":
        raise MeldcalcError(f"ask: {table.variant.name} has no card exchange: no suit is asked for")
    in_phase(table, "ask", "ask")
    suit = parse_suit(rest)
    return _then(replace(table, ask=suit), [f"asked for {suit.symbol}"], {"ask": suit.letter})


def _give(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    _passing(table, "give")
    in_phase(table, "pass", "give")
    if table.given is not None:
        raise MeldcalcError("give: you have passed your cards already")
    if table.me == table.bidder and table.got is None and table.passing_kind == "exchange":
        raise MeldcalcError("give: your partner passes first: get CARDS")
    count = table.variant.passing.cards
    cards = _cards(rest, count, "give", table, [])
    holding = table.playing
    not_received(cards, table)
    _held(cards, holding, "give", "your hand", table)
    if table.passing_kind == "exchange" and table.me != table.bidder:
        _check_ask(cards, holding, table.ask, count)
    new = replace(table, given=cards)
    return _then(new, [f"you pass {cards.notation()}"], {"given": rest.strip()})


def _held(cards: Hand, holding: Hand, step: str, where: str, table: Table) -> None:
    """Refuse cards not in ``holding``, saying how many of each it has."""
    short = [card for card, n in zip(CARDS, cards.counts) if n > holding.count(card)]
    if short:
        said = ", ".join(
            f"{card} (you hold {holding.count(card) or 'none'}, not {cards.count(card)})"
            if holding.count(card)
            else f"{card}"
            for card in short
        )
        raise HandError(f"{step} {said}: not in {where} ({holding.notation(table.trump)})")


def _check_ask(cards: Hand, holding: Hand, ask: Suit, count: int) -> None:
    """The exchange's rule: the partner sends cards of the suit asked for where it has
    them (RULES.md "Card exchange")."""
    from meldcalc.rules.cards import RANKS, Card

    held = sum(holding.count(Card(rank, ask)) for rank in RANKS)
    sent = sum(cards.count(Card(rank, ask)) for rank in RANKS)
    if sent < min(held, count):
        raise MeldcalcError(
            f"give: {ask.symbol} was asked for and you hold {held}: pass {min(held, count)} of them"
        )


def _get(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    _passing(table, "get")
    in_phase(table, "pass", "get")
    if table.got is not None:
        raise MeldcalcError("get: the cards passed to you are given already")
    if table.me != table.bidder and table.given is None and not table.variant.passing.simultaneous:
        raise MeldcalcError("get: you pass first: give CARDS")
    count = table.variant.passing.cards
    cards = _cards(rest, count, "get", table, [("your hand", table.playing)])
    new = replace(table, got=cards)
    return _then(new, [f"passed to you: {cards.notation()}"], {"got": rest.strip()})


def _passing(table: Table, step: str) -> None:
    """A step of the card pass, refused where there is none for you."""
    if table.variant.passing is None:
        raise MeldcalcError(f"{step}: {table.variant.name} has no card pass")
    if table.bidder is not None and not table.passes:
        raise MeldcalcError(
            f"{step}: the pass is between {table.seat_label(table.bidder)} and its partner:"
            " you see none of it"
        )


def _cards(
    text: str, count: int, step: str, table: Table, holdings: list[tuple[str, Hand]]
) -> Hand:
    """``count`` cards of a step, checked against the deck (with ``holdings``)."""
    cards = Hand.parse(text)
    table.variant.check_hand(cards)
    if len(cards) != count:
        raise HandError(f"{step}: {cards_text(len(cards))}, expected {count}")
    if holdings:
        table.variant.check_together([*holdings, (step, cards)])
    return cards


def _meld(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.rules.meld import best_meld

    in_phase(table, "meld", "meld")
    seat_word = re.match(r"\s*(\S*)\s*", rest)  # a seat's word, then its meld
    who, what = seat_word[1], rest[seat_word.end() :].strip()
    if not who:
        raise MeldcalcError("meld: give a seat and its meld: meld left 120, or meld left KD QD")
    seat = table.seat(who)
    if table.yours(seat):
        raise MeldcalcError("your meld is counted from your hand: give the other seats'")
    if not what:
        raise MeldcalcError(f"meld {who}: give its meld: a total (meld {who} 120), or its cards")
    placed = " " * seat_word.end() + rest[seat_word.end() :]  # the cards where they were typed
    number = is_whole_number(what) and len(what) < 9 and int(what) <= MAX_POINTS
    if re.fullmatch(r"[-+]?[0-9][0-9.,eE+_-]*", what) and not number:
        raise NotationError(
            f"meld {quote(what)}: expected the seat's meld as a whole number from 0 to"
            f" {MAX_POINTS:,}, or the cards it laid down"
        )
    if number:
        total, cards = int(what), None
        step = table.variant.meld_step
        if total % step:
            raise MeldcalcError(f"meld {total}: every meld is a multiple of {step}")
    else:
        cards = Hand.parse(placed)
        table.variant.check_hand(cards)
        total = best_meld(cards, table.variant, table.trump).total
    before = [m for m in table.melds if m[0] == seat]
    new = replace(table, melds=(*(m for m in table.melds if m[0] != seat), (seat, total, cards)))
    possible.check_seen(new)
    if cards is None:
        possible.check_total(new, seat, total)
    lines = [f"{table.seat_label(seat)} melds {total}", *_meld_shows(new)]
    if before:  # a correction: said, so that a slip of the seat's word is seen
        lines[0] += f" (in place of the {before[0][1]} typed before)"
    return Answer(new, lines, {"seat": seat, "meld": total})


def _meld_shows(table: Table) -> list[str]:
    """The hand scored where the meld laid down ended it, else what the meld shows."""
    return scored_lines(table) if table.phase == "over" else meld_shows(table)


def _play(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.advice.history import hint_table

    in_phase(table, ("meld", "play"), "play")
    card = parse_card(rest).index
    refuse_short_of_meld(table, CARD_NAMES[card])
    seat = table.to_play
    viewer = seat if table.yours(seat) else table.me  # a hand you hold: its cards checked
    try:
        hint_table(table.query_at(viewer, (*table.played, card)), table.variant, viewer=viewer)
    except MeldcalcError as error:  # told in the session's words, not hint's options
        said = str(error).replace("--known: ", "").replace("--played", "the cards played")
        raise HandError(said) from None
    new = replace(table, played=(*table.played, card))
    lines = [*ending.no_meld_typed(table), f"{table.seat_label(seat)}: {CARD_NAMES[card]}"]
    tricks = new.tricks()
    if tricks and tricks[-1][2] >= 0 and len(new.played) % new.players == 0:
        _, _, winner, points = tricks[-1]
        lines.append(f"trick {len(tricks)} to {new.seat_label(winner)} ({points} points)")
    data = {"seat": seat, "card": CARD_NAMES[card]}
    if new.phase in ("over", "counts"):
        return closing(new, lines, data)
    if new.yours(new.to_play):
        lines.append("your turn" if new.to_play == new.me else "your other hand's turn")
    return Answer(new, lines, data)


def _hint(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    from meldcalc.advice.hint import hint

    in_phase(table, ("meld", "play"), "hint")
    if not table.yours(table.to_play):
        raise MeldcalcError(f"it is {table.seat_label(table.to_play)}'s turn, not yours")
    if not advise:
        return Answer(table)
    query = table.query_at(table.to_play, table.played)
    found = hint(query, table.variant, seed=seed, policy=table.policy)
    lines = [
        f"{value.card}: {value.points:.1f} points"
        + ("" if i == 0 else f" ({value.behind:.1f} behind)")
        for i, value in enumerate(found.cards)
    ]
    data = {
        "best": found.best.card,
        "cards": [{"card": v.card, "points": round(v.points, 2)} for v in found.cards],
    }
    return Answer(table, [f"best: {found.best.card} ({found.method})", *lines], data)


def _show(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    lines = [f"phase: {table.phase}"]
    if table.hand is not None:
        lines.append(f"your hand: {table.held().notation(table.trump)}")
    if table.other is not None:
        other = table.held(table.other_seat).notation(table.trump)
        lines.append(f"your other hand (seat {table.other_seat}): {other}")
    if table.bids:
        lines.append(
            "auction: " + ", ".join(f"{s}:{'pass' if b is None else b}" for s, b in table.bids)
        )
    if table.trump is not None:
        lines.append(
            f"trump {table.trump.letter}; bid {table.contract} by {table.seat_label(table.bidder)}"
        )
        lines.append("meld by side: " + ", ".join(map(str, table.side_melds())))
    if table.played:
        _, cards, _, _ = table.tricks()[-1]
        shown = " ".join(f"{s}:{CARD_NAMES[c]}" for s, c in cards)
        lines.append(f"trick {len(table.tricks())}: {shown}")
        lines.append("trick points by side: " + ", ".join(map(str, table.trick_points())))
    return Answer(table, lines, {"phase": table.phase})


def _help(table: Table, rest: str, advise: bool, seed: int) -> Answer:
    """The steps, as the module's docstring lists them."""
    block = __doc__.split("::", 1)[1].strip("\n").split("\n\n", 1)[0]
    return Answer(table, [line.removeprefix("    ") for line in block.splitlines()])


#: Steps whose text is cards (`meld`'s after its seat): they are given the line as typed,
#: the verb blanked, so a problem in the cards is told at its column in the line (as
#: `split_label` keeps a label's place).
CARD_STEPS = frozenset({"hand", "widow", "bury", "give", "get", "meld"})

_STEPS = {
    "seat": _seat_step,
    "hand": _hand,
    "bid": _bid,
    "widow": _widow,
    "bury": _bury,
    "ask": _ask,
    "give": _give,
    "get": _get,
    "pass": _pass,
    "trump": _trump,
    "meld": _meld,
    "play": _play,
    "hint": _hint,
    "tricks": ending.tricks_step,
    "throw": ending.throw_in,
    "concede": ending.concede,
    "no": ending.no_marriage,
    "counters": ending.counters,
    "taken": ending.taken,
    "checks": ending.checks,
    "show": _show,
    "help": _help,
}

#: Every step's word, for a prompt's completion; the session's own words (``undo``,
#: ``review``, ``quit``) are the command's.
STEP_WORDS = tuple(_STEPS)
