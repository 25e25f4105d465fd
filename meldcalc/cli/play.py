"""Playing the cards: `play` (a simulated deal, reviewed) and `solve` (exact values)."""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Optional

import typer

from meldcalc.cli.base import (
    DEFAULT_POLICY,
    REVIEW_TIME_LIMIT,
    SOLVE_TIME_LIMIT,
    HandArgument,
    Policy,
    RecordStream,
    SeedOption,
    VariantOption,
    all_best_option,
    app,
    bid_option,
    file_hint,
    format_option,
    full_hand,
    input_lines,
    jobs_option,
    load,
    no_limit_if_zero,
    policy_option,
    progress_line,
    say,
    time_limit_option,
    trump_option,
    user_errors,
)
from meldcalc.cli.report import RecordFormat, tabulate
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import CARD_NAMES, Suit
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.variant import Variant


class PlayFormat(str, enum.Enum):
    table = "table"
    json = "json"


@app.command(short_help="Play one simulated deal of the hand, trick by trick.")
def play(
    trump: Annotated[Optional[Suit], trump_option(" (two-handed: the turn-up names it)")] = None,
    hand: HandArgument = None,
    variant: VariantOption = DEFAULT_VARIANT,
    seed: SeedOption = None,
    deal: Annotated[
        Optional[str],
        typer.Option(
            "--deal",
            metavar="HANDS",
            help="Play this deal instead: every seat's hand, separated by '/'.",
        ),
    ] = None,
    review: Annotated[
        bool,
        typer.Option("--review", help="Price every card with the exact solver."),
    ] = False,
    bid: Annotated[
        Optional[int], bid_option("Seat 0's bid: the hand is scored, made or set, as score would.")
    ] = None,
    fmt: Annotated[PlayFormat, format_option(PlayFormat)] = PlayFormat.table,
    time_limit: Annotated[
        float,
        time_limit_option(
            f"Stop the --review after this many seconds in all, with an error; 0: no limit."
            f" Default: {REVIEW_TIME_LIMIT:g}."
        ),
    ] = REVIEW_TIME_LIMIT,
    policy: Annotated[Policy, policy_option("the deal")] = DEFAULT_POLICY,
    all_best: Annotated[bool, all_best_option("seat 0's cards")] = False,
) -> None:
    """Play one deal with meldcalc's player (seat 0 leads) and show it trick by trick,
    with each side's meld and trick points (and, with --bid, whether the bid was made).

    HAND is seat 0's whole hand (none: a random one); the other seats get the unseen cards
    at random (--seed repeats a deal). --deal plays a given deal instead. --review solves
    the position before every card and marks each card with what it cost its side against
    the best one, the points lost per seat, and the deal's exact value beside what was
    taken.

    Two-handed (-V two-handed): a whole hand with its stock, meldcalc's player in both seats,
    each trick with the meld and the draws after it; the turn-up names trump (no --trump).

    Example: meldcalc play "AS 10S KS QS JS JD 9S AH AD AC KH QH" -t S --seed 3 --review
    """
    import secrets

    from meldcalc.advice.played import play_deal, play_one

    chosen = None  # the seed of a random deal
    with user_errors():
        if all_best and not review:
            raise MeldcalcError("--all-best: it names the best cards of a review; add --review")
        rules = load(variant)
        if rules.turns_up_trump:
            return _play_two_handed(rules, trump, hand, seed, deal, review, bid, fmt)
        if trump is None:
            _missing_trump()
        if deal is not None:
            if hand:
                raise MeldcalcError("give either HAND or --deal, not both")
            from meldcalc.rules.cards import parse_hand

            hands = tuple(parse_hand(part) for part in deal.split("/"))
            played = play_deal(hands, rules, trump, policy.value)
        else:
            chosen = secrets.randbelow(2**31) if seed is None else seed
            if hand:
                held = full_hand(" ".join(hand), rules)
            else:  # a whole random deal: seat 0's hand from the seed too
                from meldcalc.dealing.deal import deals

                held = next(deals(rules, 1, chosen)).hands[0]
            played = play_one(held, rules, trump, chosen, policy.value)
        result = hand_result(played, rules, bid)
        checked = None
        if review:
            from meldcalc.advice.review import review as review_deal
            from meldcalc.engines.solve import check_solver

            check_solver(rules)
            with progress_line("reviewing trick {}", after=0) as progress:
                limit = no_limit_if_zero(time_limit)
                compared = None if all_best else (0,)
                checked = review_deal(played, rules, progress, limit, compared=compared)
    if fmt is PlayFormat.json:
        record = {**played_json(played, checked, chosen, policy.value), **result.json(rules)}
        say(json.dumps(record, indent=2, ensure_ascii=False))
    else:
        say(played_table(played, checked, chosen, result.lines(rules), rules))


def _missing_trump() -> None:
    """--trump is required outside the games whose turn-up names trump (two-handed): said
    as every missing option is said."""
    raise MeldcalcError(
        "missing option '--trump' / '-t'. Choose from: S, H, D, C (see 'meldcalc play --help')"
    )


def _play_two_handed(
    rules: Variant,
    trump: Suit | None,
    hand: Sequence[str] | None,
    seed: int | None,
    deal: str | None,
    review: bool,
    bid: int | None,
    fmt: PlayFormat,
) -> None:
    """A whole two-handed deal: the turn-up names trump, and there is no bid."""
    import secrets

    from meldcalc.cli.twohanded import play_two_handed

    refused = [
        option
        for option, given in (("--trump", trump), ("--deal", deal), ("--review", review or None))
        if given is not None
    ] + (["--bid"] if bid is not None else [])
    if refused:
        raise MeldcalcError(
            f"{', '.join(refused)}: {rules.name} deals its own stock and turns up trump, with no"
            " bid: give HAND (seat 0's, the non-dealer's) or none, and --seed"
        )
    held = full_hand(" ".join(hand), rules) if hand else None
    chosen = secrets.randbelow(2**31) if seed is None else seed
    play_two_handed(rules, held, chosen, fmt is PlayFormat.json)


@app.command(short_help="Solve a position exactly: each card's value, the best line.")
def solve(
    hands: Annotated[Optional[list[str]], typer.Argument(metavar="HAND", hidden=True)] = None,
    trump: Annotated[
        Optional[Suit], trump_option("; or '| trump S' after a batch line's hands")
    ] = None,
    leader: Annotated[
        int,
        typer.Option(
            "--leader",
            "-l",
            min=0,
            max=5,
            metavar="SEAT",
            help="Who leads (seats from 0); with --seed S --tricks K, who led the deal's first"
            " trick.",
        ),
    ] = 0,
    trick: Annotated[
        str,
        typer.Option(
            "--trick",
            metavar="CARDS",
            help="Cards already played to the current trick, the leader's first.",
        ),
    ] = "",
    seed: SeedOption = None,
    tricks: Annotated[
        Optional[int],
        typer.Option(
            "--tricks",
            "-k",
            min=1,
            metavar="K",
            help="With --seed: deal, then play random legal cards until K tricks are left.",
        ),
    ] = None,
    variant: VariantOption = DEFAULT_VARIANT,
    line: Annotated[
        bool, typer.Option("--line/--no-line", help="Show an optimal line of play.")
    ] = True,
    fmt: Annotated[RecordFormat, format_option(RecordFormat)] = RecordFormat.table,
    jobs: Annotated[int, jobs_option("Processes for batch input.")] = 1,
    time_limit: Annotated[
        float,
        time_limit_option(
            f"Stop the search of a position after this many seconds, with an error; 0: no"
            f" limit. Default: {SOLVE_TIME_LIMIT:g}."
        ),
    ] = SOLVE_TIME_LIMIT,
) -> None:
    """Solve a position exactly (double dummy): every hand seen, best play by both sides.

    HAND is each seat's hand in playing order (quoted, or all in one separated by '/'),
    hands of equal size once the current trick is complete, so endgames are positions
    too; or --seed S for a random deal, and --seed S --tricks K for a random K-trick
    endgame of any variant (whole deals of double deck or three players are beyond the
    solver's reach). Values are the trick points seat 0's side takes
    from the position on. '-' or a pipe on stdin gives one position per line: 'HAND /
    HAND / HAND / HAND', optionally followed by '| trump S', '| leader 1', '| trick AS'.

    Example: meldcalc solve --seed 1 --trump S
    """
    from meldcalc.engines.solve import check_solver

    with user_errors():
        rules = load(variant)
        check_solver(rules)
        lines = None
        if seed is None:
            lines = input_lines(
                hands,
                "positions, one per line",
                missing="no position given{}: pass a hand per seat, --seed S for a random"
                " deal, or '-' to read positions from stdin",
            )
        if tricks is not None and seed is None:
            raise MeldcalcError("--tricks K deals a random endgame: give --seed S with it")
        limit = no_limit_if_zero(time_limit)
        if lines is None:
            text = _position_text(hands, seed, rules, trump, tricks, leader)
            with file_hint(hands, "solve", "positions"):
                shown = _solved(text, rules, trump, leader, trick, line, fmt, limit)
            say(shown)
            return
    _solve_lines(lines, rules, trump, leader, trick, line, fmt, jobs, limit)


def _position_text(
    hands: list[str] | None,
    seed: int | None,
    rules: Variant,
    trump: Suit | None = None,
    tricks: int | None = None,
    leader: int = 0,
) -> str:
    """The hands of one position as a line: given, or dealt from ``seed`` (and played
    down to ``tricks`` tricks by random legal cards from ``leader``'s first lead)."""
    if seed is not None:
        if hands:
            raise MeldcalcError("give either the hands or --seed, not both")
        if tricks is not None:
            return _random_endgame(rules, seed, trump, tricks, leader)
        from meldcalc.dealing.deal import deals

        dealt = next(deals(rules, 1, seed))
        return " / ".join(hand.notation() for hand in dealt.hands)
    if len(hands or []) == rules.players and not any("/" in hand for hand in hands or []):
        return " / ".join(hands or [])
    return " ".join(hands or [])


def _random_endgame(rules: Variant, seed: int, trump: Suit | None, tricks: int, leader: int) -> str:
    import random

    from meldcalc.engines.endgames import random_endgame
    from meldcalc.engines.solve import position_text

    if trump is None:
        raise MeldcalcError("no trump: give --trump, under which the cards are played down")
    if tricks > rules.hand_size:
        raise MeldcalcError(
            f"--tricks {tricks}: a hand of {rules.name} has {rules.hand_size} tricks"
        )
    if leader >= rules.players:
        raise MeldcalcError(
            f"--leader {leader}: {rules.name} seats {rules.players} players, from 0 to"
            f" {rules.players - 1}"
        )
    dealt = random_endgame(rules, tricks, random.Random(seed), leader=leader, trump=trump)
    return position_text(dealt)


def _solved(
    text: str,
    rules: Variant,
    trump: Suit | None,
    leader: int,
    trick: str,
    line: bool,
    fmt: Any,
    time_limit: float | None,
) -> str:
    from meldcalc.engines.solve import check_reach, parse_position, solve

    position = parse_position(text, rules, trump, leader, trick)
    check_reach(position.tricks)
    solution = solve(position, rules, line=line, time_limit=time_limit)
    if fmt is RecordFormat.table:
        return solution_table(position, solution, rules)
    return json.dumps(
        solution_json(position, solution, rules), indent=_indent(fmt), ensure_ascii=False
    )


def _solve_lines(
    lines: Iterator[tuple[int, str | MeldcalcError]],
    rules: Variant,
    trump: Suit | None,
    leader: int,
    trick: str,
    line: bool,
    fmt: RecordFormat,
    jobs: int,
    time_limit: float | None,
) -> None:
    """Batch: one position per input line, one record per line out, in input order and
    streaming (one job answers each line as it comes; N jobs take windows of 8N lines), so
    a million lines run in flat memory and can be sharded by splitting the input. ``-f
    json`` writes one JSON array of the records, errors included as in jsonl."""
    from meldcalc.workers import streamed_map

    task = functools.partial(
        _solve_line,
        rules=rules,
        trump=trump,
        leader=leader,
        trick=trick,
        line=line,
        fmt=fmt,
        time_limit=time_limit,
    )
    stream = RecordStream(fmt, "position")
    for number, result in streamed_map(jobs, task, lines):
        if isinstance(result, MeldcalcError):
            stream.failed(number, result)
        else:
            stream.write(number, result)
    stream.close()


def _indent(fmt: RecordFormat) -> int | None:
    return 2 if fmt is RecordFormat.json else None


def _solve_line(item: tuple[int, str | MeldcalcError], **settings: Any) -> tuple[int, Any]:
    """One batch line solved (in a worker, when there are several): its text or its error."""
    number, text = item
    if isinstance(text, MeldcalcError):
        return number, text
    fmt = settings.pop("fmt")
    try:
        out = _solved(
            text,
            settings["rules"],
            settings["trump"],
            settings["leader"],
            settings["trick"],
            settings["line"],
            fmt,
            settings["time_limit"],
        )
    except MeldcalcError as error:
        return number, error
    if fmt is not RecordFormat.table:
        record = json.loads(out)
        out = json.dumps({"position": number, **record}, ensure_ascii=False, indent=_indent(fmt))
    return number, out


def played_json(
    deal: Any, review: Any = None, seed: int | None = None, policy: str | None = None
) -> dict[str, Any]:
    """A played deal (``seed``: the one it was dealt from, if dealt at random; ``policy``:
    the one that played it, if a policy did); with
    ``review``, each card's cost against the best card and the exact value of the deal
    (``"review": {"value", "taken", "side_of", "lost"}``: value and taken are the trick
    points of the side of seat ``side_of``)."""
    costs = _costs_by_play(deal, review)
    record: dict[str, Any] = {
        **({} if seed is None else {"seed": seed}),
        **({} if policy is None else {"policy": policy}),
        "trump": deal.trump.letter,
        "seats": [
            {"seat": seat, "hand": [str(c) for c in hand.cards(deal.trump)]}
            for seat, hand in enumerate(deal.hands)
        ],
        "tricks": [
            {
                "leader": t.leader,
                "cards": [{"seat": s, "card": c, **_cost_fields(next(costs))} for s, c in t.cards],
                "winner": t.winner if t.winner >= 0 else None,  # None: a trick under way
                "points": t.points,
            }
            for t in deal.tricks
        ],
        "points": list(deal.points),
    }
    if len(deal.widow):
        record["widow"] = [str(c) for c in deal.widow.cards(deal.trump)]
        record["buried"] = [str(c) for c in deal.buried.cards(deal.trump)]
    if deal.passed is not None:
        sent, back = deal.passed
        record["pass"] = {
            "to_bidder": [str(c) for c in sent.cards(deal.trump)],
            "to_partner": [str(c) for c in back.cards(deal.trump)],
        }
    if review is not None:
        record["review"] = {
            "from_trick": review.first_trick,
            "value": review.value,
            "taken": review.taken,
            "side_of": review.counted,
            "lost": review.lost_by_seat(len(deal.hands)),
        }
        if review.then_best is not None:
            record["review"]["then_best"] = review.then_best
    return record


def _costs_by_play(deal: Any, review: Any) -> Any:
    """The review of each card played, in order: None for cards not reviewed."""
    if review is None:
        return iter(lambda: None, 0)  # endless Nones
    unreviewed = (review.first_trick - 1) * len(deal.hands)
    return iter([None] * unreviewed + list(review.cards))


def _cost_fields(card: Any) -> dict[str, Any]:
    if card is None:
        return {}
    return {"cost": card.cost, "best": None if card.best is None else list(card.best)}


@dataclass(frozen=True)
class HandResult:
    """What a played deal scores: each side's meld and trick points (side 0 the bidder's)
    and, given the bid, the hand scored by the variant's rules."""

    meld: tuple[int, ...]
    tricks: tuple[int, ...]
    scored: Any = None  # a `scoring.HandScore`

    def json(self, rules: Variant) -> dict[str, Any]:
        record: dict[str, Any] = {"meld": list(self.meld), "tricks_by_side": list(self.tricks)}
        if self.scored is not None:
            from meldcalc.cli.scoring import score_json

            record["score"] = score_json(self.scored, rules)
        return record

    def lines(self, rules: Variant) -> list[str]:
        from meldcalc.rules.scoring import side_name

        melds = ", ".join(f"{side_name(rules, s)} {m}" for s, m in enumerate(self.meld))
        return [f"meld: {melds}", *(self.scored.explanation if self.scored else ())]


def hand_result(played: Any, rules: Variant, bid: int | None) -> HandResult:
    """Each side's meld (the hands as dealt, seat 0's after the widow) and trick points;
    with ``bid``, the hand scored as seat 0's side bid it."""
    from meldcalc.rules.cards import Card
    from meldcalc.rules.scoring import HandPlay, meld_of_hands, score_hand, side_count, side_of

    meld, checks, not_played = meld_of_hands(rules, dict(enumerate(played.hands)), played.trump, 0)
    points, taken = [0] * side_count(rules), [0] * side_count(rules)
    counters = [0] * side_count(rules)
    for trick in played.tricks:
        side = side_of(rules, trick.winner)
        points[side] += trick.points
        taken[side] += 1
        counters[side] += sum(_counts(rules, Card.parse(card)) for _, card in trick.cards)
    points[0] = played.points[0]  # the bidder's side has the counters it buried too
    counters[0] += sum(_counts(rules, card) for card in played.buried.cards())
    if bid is None:
        return HandResult(meld, tuple(points))
    if rules.bidding is None:
        raise MeldcalcError(f"--bid: {rules.name} has no auction")
    tricks = None if not_played else tuple(points)
    play = HandPlay(bid, 0, meld, tricks, checks, False, not_played, tuple(taken), tuple(counters))
    return HandResult(meld, tuple(points), score_hand(rules, play))


def _counts(rules: Variant, card: Any) -> int:
    """1 for a counter (a card that scores in tricks), else 0."""
    return int(rules.counters.get(card.rank, 0) > 0)


def played_table(
    deal: Any,
    review: Any = None,
    seed: int | None = None,
    result: Sequence[str] = (),
    rules: Variant | None = None,
    bidder: int = 0,
) -> str:
    """The deal trick by trick; with ``review`` every costly card marked with its cost;
    ``result``: the lines on the meld and the score, after the trick points. The sides are
    named by their seats (with ``rules``), the ``bidder``'s said to be the bidding side."""
    data = played_json(deal, review)
    dealt = "" if seed is None else f", seed {seed}"
    lines = [f"trump {deal.trump.letter} {deal.trump.symbol}{dealt}"]
    lines += [f"seat {seat}: {hand.notation(deal.trump)}" for seat, hand in enumerate(deal.hands)]
    if len(deal.widow):
        lines.append(
            f"widow: {deal.widow.notation(deal.trump)}  (buried by seat 0: "
            f"{deal.buried.notation(deal.trump)})"
        )
    if deal.passed is not None:
        sent, back = (cards.notation(deal.trump) for cards in deal.passed)
        lines.append(f"the pass (the hands above are after it): seat 2 to seat 0 {sent};")
        lines.append(f"  seat 0 to seat 2 {back}")
    lines += ["", _tricks_table(data["tricks"])]
    ours, bidding = _first_side(rules, bidder, len(deal.hands))
    lines += ["", f"points: {ours}{bidding} {deal.points[0]}, the others {deal.points[1]}", *result]
    if review is not None:
        lines += ["", *review_lines(data["review"], deal, rules, bidder)]
    return "\n".join(lines)


def _first_side(rules: Variant | None, bidder: int, players: int, seat: int = 0) -> tuple[str, str]:
    """The side of ``seat`` (seat 0's unless said) by its seats, and whether it is the
    bidding side (``bidder``'s)."""
    from meldcalc.rules.scoring import side_name, side_of

    if rules is None:
        return f"seat {seat}'s side", " (the bidding side)" if bidder == seat else ""
    bids = side_of(rules, bidder) == side_of(rules, seat)
    return side_name(rules, side_of(rules, seat)), (
        " (the bidding side)" if bids else " (the defenders)"
    )


def review_lines(
    summary: dict[str, Any], deal: Any, rules: Variant | None = None, bidder: int = 0
) -> list[str]:
    lost = summary["lost"]
    per_seat = ", ".join(f"seat {seat} {points}" for seat, points in enumerate(lost))
    start = summary["from_trick"]
    since = "the start" if start == 1 else f"trick {start} (the solver's reach)"
    ours, bidding = _first_side(rules, bidder, len(deal.hands), summary.get("side_of", 0))
    many = ours.startswith("seats")
    return [
        "review (cards marked with the points they cost their side against the best card):",
        f"points lost by each seat: {per_seat}",
        f"under best play from {since} {ours}{bidding} take{'' if many else 's'}"
        f" {summary['value']} in tricks;"
        + (
            f" {'they' if many else 'it'} took {summary['taken']}."
            if "then_best" not in summary
            else f" as played, then best play from where the deal stops, {summary['then_best']}."
        ),
    ]


def _named_plays(leader: int, cards: Any, players: int) -> list[dict[str, Any]]:
    return [
        {"seat": (leader + i) % players, "card": CARD_NAMES[card]} for i, card in enumerate(cards)
    ]


def solution_json(position: Any, solution: Any, variant: Any) -> dict[str, Any]:
    """``{"trump", "leader", "hands", "trick", "to_play", "value", "cards", "line"}``:
    values are the trick points seat 0's side takes from the position on."""
    players = len(position.hands)
    return {
        "variant": variant.name,
        "trump": position.trump.letter,
        "leader": position.leader,
        "hands": [[str(card) for card in hand.cards(position.trump)] for hand in position.hands],
        "trick": [CARD_NAMES[card] for card in position.trick],
        "to_play": position.to_play,
        "value": solution.value,
        "cards": [
            {"card": CARD_NAMES[card], "value": value}
            for card, value in sorted(solution.cards.items(), key=lambda item: -item[1])
        ],
        "line": [
            {
                "leader": trick.leader,
                "cards": _named_plays(trick.leader, trick.cards, players),
                "winner": trick.winner,
                "points": trick.points,
            }
            for trick in solution.line
        ],
    }


def solution_table(position: Any, solution: Any, variant: Any) -> str:
    """The position, every legal card's value (a double-dummy table), the optimal line."""
    data = solution_json(position, solution, variant)
    trump, seat = position.trump, position.to_play
    side = "seat 0's side" if variant.players > 2 else "seat 0"
    lines = [
        f"trump {trump.letter} {trump.symbol}, {variant.name}",
        *(
            f"seat {n}: {position.hands[n].notation(trump) or '-'}"
            for n in range(len(position.hands))
        ),
    ]
    if position.trick:
        lines.append(
            "on the table: "
            + "  ".join(
                f"{p['seat']}:{p['card']}"
                for p in _named_plays(position.leader, position.trick, len(position.hands))
            )
        )
    if not solution.cards:  # every seat has played its last card
        return "\n".join([*lines, "", "every card has been played: nothing is left to take."])
    lines += [
        "",
        f"under best play {side} takes {solution.value} from here"
        f" (of the {position.points_left(variant)} points still to play).",
        "",
        f"seat {seat} to play; each card and what {side} takes after it:",
    ]
    sign = 1 if _on_side_of_seat_0(variant, seat) else -1  # what the seat to play wants
    target = sign * max(sign * value for value in solution.cards.values())
    cards = sorted(data["cards"], key=lambda card: -sign * card["value"])
    rows = [
        [
            card["card"],
            card["value"],
            "best" if card["value"] == target else f"{card['value'] - target:+d}",
        ]
        for card in cards
    ]
    lines.append(tabulate(rows, ["card", "value", ""], colalign=("left", "right", "left")))
    if data["line"]:
        lines += ["", "an optimal line of play:", _tricks_table(data["line"])]
    return "\n".join(lines)


def _on_side_of_seat_0(variant: Any, seat: int) -> bool:
    from meldcalc.engines.solve import seat_sides

    return seat_sides(variant)[seat] == 0


def _play_text(play: dict[str, Any]) -> str:
    """``1:9S``, or ``1:9S(-10)`` when a review priced it."""
    cost = play.get("cost")
    return f"{play['seat']}:{play['card']}" + (f"(-{cost})" if cost else "")


def _tricks_table(tricks: list[dict[str, Any]]) -> str:
    rows = [
        [
            number,
            trick["leader"],
            "  ".join(_play_text(play) for play in trick["cards"]),
            "-" if trick["winner"] is None else trick["winner"],
            trick["points"],
        ]
        for number, trick in enumerate(tricks, start=1)
    ]
    return tabulate(
        rows,
        ["trick", "led by", "cards (seat:card)", "won by", "points"],
        colalign=("right", "right", "left", "right", "right"),
    )
