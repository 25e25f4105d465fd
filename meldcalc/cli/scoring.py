"""`meldcalc score`: a hand scored by the variant's rules, and a game's ledger."""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from meldcalc import console
from meldcalc.cli.base import (
    MAX_BID,
    app,
    bid_option,
    format_option,
    game_option,
    load,
    say,
    trump_option,
    user_errors,
    variant_option,
    warn,
)
from meldcalc.cli.report import tabulate
from meldcalc.console import OutputError
from meldcalc.errors import MeldcalcError, UnsupportedError, quote, shown_path
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.notation import is_whole_number
from meldcalc.rules.seats import Seating
from meldcalc.rules.variant import Variant, checks_text


class ScoreFormat(str, enum.Enum):
    table = "table"
    json = "json"


def _per_side(text: str | None) -> tuple[int, ...] | None:
    """``'150,80'`` -> (150, 80): one whole number per side, up to `MAX_BID`."""
    from meldcalc.errors import quote

    if text is None:
        return None
    values = []
    for token in text.split(","):
        token = token.strip()
        if not is_whole_number(token) or len(token) > 12 or int(token) > MAX_BID:
            raise typer.BadParameter(
                f"{quote(token)}: expected whole numbers from 0 to {MAX_BID} separated by"
                " commas, e.g. 150,80"
            )
        values.append(int(token))
    return tuple(values)


@app.command(short_help="Score a hand, and keep a game's running score.")
def score(
    bid: Annotated[Optional[int], bid_option("The winning bid.")] = None,
    bidder_seat: Annotated[
        Optional[str],
        typer.Option(
            "--bidder",
            metavar="SEAT",
            help="The bidder's seat: a number from 0 in playing order (side 0: seats 0 and 2),"
            " or a name the game keeps (a side's name: its first seat).",
        ),
    ] = None,
    meld: Annotated[
        Optional[str],
        typer.Option(
            "--meld",
            "-m",
            callback=_per_side,
            metavar="N,N",
            help="Each side's meld, in order of sides (side 0: seats 0 and 2).",
        ),
    ] = None,
    hands: Annotated[
        Optional[list[str]],
        typer.Option(
            "--hand",
            metavar="SEAT:CARDS",
            help="A seat's hand, to count its meld under --trump (repeat for each seat;"
            " SEAT: a number from 0 in playing order, or a name the game keeps).",
        ),
    ] = None,
    tricks: Annotated[
        Optional[str],
        typer.Option(
            "--tricks",
            callback=_per_side,
            metavar="N,N",
            help="Each side's trick points, adding up to the variant's total; one number is"
            " the bidding side's (the other side's is worked out).",
        ),
    ] = None,
    trump: Annotated[
        Optional[Suit], trump_option(": the trump named, to count --hand meld under")
    ] = None,
    thrown_in: Annotated[
        bool, typer.Option("--thrown-in", help="The bidding side threw the hand in before play.")
    ] = False,
    no_marriage: Annotated[
        bool,
        typer.Option("--no-marriage", help="Double deck: no marriage in trump, not played."),
    ] = False,
    checks: Annotated[
        Optional[str],
        typer.Option(
            "--checks", callback=_per_side, metavar="N,N", help="Each side's checks (check)."
        ),
    ] = None,
    tricks_taken: Annotated[
        Optional[str],
        typer.Option(
            "--tricks-taken",
            callback=_per_side,
            metavar="N,N",
            help="Tricks each side took (only for a save-meld-with-a-trick house rule); one"
            " number is the bidding side's.",
        ),
    ] = None,
    counters_taken: Annotated[
        Optional[str],
        typer.Option(
            "--counters-taken",
            callback=_per_side,
            metavar="N,N",
            help="Counters each side took (only for a save-meld-with-a-counter house rule,"
            " when a side's points may be the last trick's alone); one number is the bidding"
            " side's.",
        ),
    ] = None,
    variant: Annotated[
        Optional[str],
        variant_option("A shipped variant's name or a YAML file (a game keeps its own)."),
    ] = None,
    game: Annotated[
        Optional[Path],
        game_option("A game's ledger: add the hand to it (JSON lines)."),
    ] = None,
    show: Annotated[bool, typer.Option("--show", help="Show the game's hands and totals.")] = False,
    detail: Annotated[
        bool,
        typer.Option("--detail", help="With --show: each side's meld and tricks in every hand."),
    ] = False,
    undo: Annotated[
        bool,
        typer.Option("--undo", help="Take back the game's last hand, then show the game."),
    ] = False,
    repair: Annotated[
        bool,
        typer.Option(
            "--repair",
            help="Drop the game's torn last line, left by an interrupted write (kept in"
            " FILE.torn; with --show: then show the game).",
        ),
    ] = False,
    names: Annotated[
        Optional[str],
        typer.Option(
            "--names",
            metavar="NAMES",
            help="A new game's (or hand's) side names, e.g. 'Ann & Bob,Cy & Di', or one a"
            " seat; the game keeps them.",
        ),
    ] = None,
    target: Annotated[
        Optional[int],
        typer.Option(
            "--to",
            min=1,
            max=MAX_BID,
            metavar="POINTS",
            help="A new game's target (default: the variant's).",
        ),
    ] = None,
    fmt: Annotated[ScoreFormat, format_option(ScoreFormat)] = ScoreFormat.table,
) -> None:
    """Score a hand by the variant's rules: made or set, each side's points, read aloud.

    Meld is given per side (--meld 150,80) or as each seat's hand (--hand 0:"AS 10S ...",
    counted under --trump). With --game FILE the hand is added to a game's ledger, and
    --show prints the running totals and the winner; --undo takes the last hand back;
    --repair drops a last line torn by a crash or a power cut.

    Example: meldcalc score --bid 300 --bidder 0 --meld 150,80 --tricks 140,70

    \b
    A game's ledger, a hand at a time, then the standing:
      meldcalc score -g friday.jsonl --bid 300 --bidder 0 --meld 150,80 --tricks 160,50
      meldcalc score -g friday.jsonl --show
    """
    from meldcalc.rules.scoring import HandPlay, counter_cards, score_hand, tricks_in_hand

    writes = not show or undo or repair
    create = writes and not (undo or repair)
    with user_errors(), _held_game(game, writes, create, repair) as held:
        book = held and held.book
        warn(list(book.notes if repair else book.warnings) if book else [])
        spec = _game_variant(book, variant)
        rules = book.rules if book else load(spec)
        given = (bid, bidder_seat, meld, hands, tricks)
        reported = any(v is not None for v in given) or thrown_in
        named = _side_names(names, rules) if names is not None else None
        if book is not None and named is not None and named != book.names:
            raise MeldcalcError(
                f"--names: {shown_path(book.path)} is a game already"
                + (f" of {', '.join(map(quote, book.names))}" if book.names else "")
                + "; --names only names a new game's sides"
            )
        side_names = book.names if book else named
        bidder = None
        if bidder_seat is not None:
            bidder = Seating(rules, names=side_names or ()).parse(bidder_seat, "--bidder", True)
        if game is None and (show or undo or repair):
            raise MeldcalcError("--show, --undo and --repair need a game: --game FILE")
        if repair:
            if reported or undo:
                raise MeldcalcError("--repair takes no hand and no --undo: repair first")
            book = _repaired(held, game)
            if not show:
                return
        if show or undo:
            if reported:
                raise MeldcalcError("--show and --undo take no hand: leave out the hand options")
            if book is None:
                raise MeldcalcError(
                    f"{shown_path(game)}: no such game yet: score a hand to start it"
                )
            if target is not None:
                raise MeldcalcError(
                    f"--to {target}: {shown_path(game)} is a game to {book.target} already;"
                    " --to only sets a new game's target"
                )
            if undo:
                book = held.undo_last()
                console.to_stderr(f"meldcalc: hand {len(book.hands) + 1} taken back\n")
            _show_standing(book, rules, fmt, detail)
            return
        missing = [
            option
            for option, given in (
                ("--bid", bid is not None),
                ("--bidder", bidder_seat is not None),
                ("--meld or --hand", meld is not None or hands is not None),
            )
            if not given
        ]
        if rules.bidding is None:
            bid, bidder = _without_auction(rules, bid, bidder_seat, meld, hands)
        elif missing:
            raise MeldcalcError(
                f"a hand needs {', '.join(missing[:-1]) + ' and ' if len(missing) > 1 else ''}"
                f"{missing[-1]} too: e.g. --bid 300 --bidder 0 --meld 150,80 --tricks 140"
            )
        if checks is not None and not any(rule.checks for rule in rules.melds):
            raise MeldcalcError(f"--checks: {rules.name} keeps no checks")
        side_meld, side_checks, no_marriage = _meld_of_sides(
            rules, meld, hands, trump, bidder, checks, no_marriage, side_names or ()
        )
        if meld is not None and bidder is not None:
            _meld_possible(rules, side_meld, bidder, side_names)
        play = HandPlay(
            bid,
            bidder,
            side_meld,
            _every_side(
                tricks, rules, bidder, rules.trick_total, "--tricks", "trick points", side_names
            ),
            side_checks,
            thrown_in,
            no_marriage,
            _every_side(
                tricks_taken, rules, bidder, tricks_in_hand(rules), "--tricks-taken", "tricks"
            ),
            _every_side(
                counters_taken, rules, bidder, counter_cards(rules), "--counters-taken", "counters"
            ),
        )
        scored = score_hand(rules, play, side_names)
        if held is not None:
            book = held.add_hand(rules, spec, target, scored, trump and trump.letter, named)
            _set_aside_hand_under_way(game, len(book.hands) + book.passed)
    try:
        _report_hand(scored, rules, side_names, book if game is not None else None, fmt)
    except OutputError:
        if game is not None:  # the hand is in the ledger: scoring it again would count it twice
            console.to_stderr(
                f"meldcalc: hand {len(book.hands)} is recorded in {shown_path(game)}, but its"
                " score could not be shown: do not score it again ('--show' shows the game,"
                " '--undo' takes the hand back)\n"
            )
        raise


def _without_auction(
    rules: Variant, bid: int | None, bidder: str | None, meld: Any, hands: Any
) -> tuple[int, int]:
    """A game without an auction (two-handed) scores meld and tricks: no bid, no bidder
    (one --tricks number is then seat 0's)."""
    if rules.stock_play is None:
        raise UnsupportedError(f"{rules.name} has no auction: there is no bid to score")
    given = [
        option for option, value in (("--bid", bid), ("--bidder", bidder)) if value is not None
    ]
    if given:
        raise MeldcalcError(
            f"{' and '.join(given)}: {rules.name} has no auction (the turn-up names trump):"
            " give each player's --meld and --tricks"
        )
    if meld is None and hands is None:
        raise MeldcalcError(
            "a hand needs --meld (or --hand) too: e.g. --meld 240,80 --tricks 130,80"
        )
    return 0, 0


def _report_hand(scored: Any, rules: Variant, side_names: Any, book: Any, fmt: ScoreFormat) -> None:
    """The hand's score, and with a game its standing after the hand."""
    if fmt is ScoreFormat.json:
        record = score_json(scored, rules, side_names)
        if book is not None:
            record["game"] = standing_json(book, book.standing(), rules)
        say(json.dumps(record, indent=2, ensure_ascii=False))
        return
    say(score_table(scored, rules, side_names))
    if book is not None:
        say()
        say(standing_table(book, book.standing(), rules))


def _side_names(text: str, rules: Variant) -> tuple[str, ...]:
    """``'Ann & Bob,Cy & Di'``: a name a side, or a name a seat (then a side is its seats'
    names joined: ``Ann and Bob``)."""
    from meldcalc.game.ledger import MAX_NAME, is_name
    from meldcalc.rules.scoring import side_count, side_of

    names = [name.strip() for name in text.split(",")]
    for name in names:
        if not is_name(name):
            raise MeldcalcError(
                f"--names {quote(text)}: {quote(name)}: expected a name of 1 to {MAX_NAME}"
                " printable characters"
            )
    from meldcalc.rules.notation import is_whole_number
    from meldcalc.rules.seats import PLACE_WORDS

    for name in names:
        if name.lower() in PLACE_WORDS or is_whole_number(name):
            raise MeldcalcError(
                f"--names {quote(text)}: {quote(name)} names a seat already (a number, or"
                f" {', '.join(PLACE_WORDS)}): give another name"
            )
    sides, seats = side_count(rules), rules.players
    if len({name.lower() for name in names}) != len(names):
        raise MeldcalcError(f"--names {quote(text)}: a name is given twice")
    if len(names) == seats != sides:
        names = [
            " and ".join(n for seat, n in enumerate(names) if side_of(rules, seat) == side)
            for side in range(sides)
        ]
        for name in names:  # checked as the side the game keeps, not only seat by seat
            if not is_name(name):
                raise MeldcalcError(
                    f"--names {quote(text)}: the side {quote(name, 60)} would be"
                    f" {len(name)} characters: a side's name has at most {MAX_NAME}; give"
                    " shorter names, or one a side"
                )
    elif len(names) != sides:
        per_seat = f", or {seats} (one a seat)" if seats != sides else ""
        raise MeldcalcError(
            f"--names {quote(text)}: expected {sides} names separated by commas (one a"
            f" side){per_seat}, got {len(names)}"
        )
    return tuple(names)


def _every_side(
    values: tuple[int, ...] | None,
    rules: Variant,
    bidder: int,
    total: int,
    option: str,
    what: str,
    names: tuple[str, ...] | None = None,
) -> tuple[int, ...] | None:
    """Every side's count, in order of sides. One number is the bidding side's, the other
    side's worked out from the hand's ``total`` (``--tricks 140`` in single deck: the other
    side took 110); with more sides, all but the last side's, in order, give the last."""
    from meldcalc.rules.scoring import complete_sides, side_count, side_name, side_of

    sides = side_count(rules)
    if values is None or len(values) != sides - 1:
        return values
    if sum(values) > total:
        shown = ", ".join(map(str, values))
        raise MeldcalcError(
            f"{option} {shown}: {sum(values)} {what}, more than the {total} a hand has"
        )
    counts = complete_sides(values, rules, bidder, total)
    if sides == 2:
        bidding = side_of(rules, bidder)
        whose = "the bidding side's" if rules.bidding else "the first player's"
        console.to_stderr(
            f"meldcalc: {option} {values[0]}: {whose}"
            f" ({side_name(rules, bidding, names)}); the other side {total - values[0]}\n"
        )
    return counts


@contextmanager
def _held_game(game: Path | None, write: bool, create: bool, repair: bool) -> Iterator[Any]:
    """The game's ledger, locked for the whole command (`ledger.held`); None without one.
    A command that adds to the game takes the game's own lock first (`game.lock`), so it
    is refused at once while a `meldcalc game` session holds the game."""
    from meldcalc.game import ledger, lock

    if game is None:
        yield None
        return
    with ExitStack() as stack:
        if write:
            stack.enter_context(lock.holding(game, "meldcalc score", shared=True))
        yield stack.enter_context(ledger.held(game, write, create, repair))


def _set_aside_hand_under_way(game: Path, deal: int) -> None:
    """A hand `meldcalc game` left under way for the deal just scored here: its journal
    set aside (renamed, never deleted), and said, since the deal is now this hand."""
    from meldcalc.game import journal

    path = journal.journal_path(game)
    if journal.deal_of(path) not in (None, deal) or not journal.read_steps(path)[0]:
        return
    aside = journal.set_aside(path)
    if aside is not None:
        warn(
            [
                f"{shown_path(path)}: a hand was under way in `meldcalc game` for this deal"
                f" ({deal}): its steps are set aside as {shown_path(aside)}, not lost"
            ]
        )


def _repaired(held: Any, game: Path) -> Any:
    """The game once its torn last line is dropped (`Game.repair`), saying what was done."""
    if held.descriptor is None:
        raise MeldcalcError(f"{shown_path(game)}: no such game: nothing to repair")
    tear = held.repair()
    whole = f"{shown_path(game)}: nothing to repair: its last line is whole"
    done = tear.dropped if tear else whole
    console.to_stderr(f"meldcalc: {done}\n")
    return held.book


def _game_variant(book: Any, variant: str | None) -> str:
    """The variant of a game: the ledger's own; -V may only repeat it."""
    if book is None:
        return _ledger_spec(variant or DEFAULT_VARIANT)
    if variant is not None and _ledger_spec(variant) != book.variant:
        raise MeldcalcError(
            f"{shown_path(book.path)} is a game of {quote(book.variant, 200)}: leave out -V,"
            " or start a new game"
        )
    return book.variant


def _ledger_spec(variant: str) -> str:
    """How a ledger names its variant: a shipped name as it is, a file by its absolute
    path, so the game reads the same rules from any folder."""
    from meldcalc.rules.loading import is_shipped

    return variant if is_shipped(variant) else str(Path(variant).absolute())


def _meld_of_sides(
    rules: Variant,
    meld: tuple[int, ...] | None,
    hands: list[str] | None,
    trump: Suit | None,
    bidder: int,
    checks: tuple[int, ...] | None,
    no_marriage: bool,
    names: tuple[str, ...] = (),
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Each side's meld and checks: as given, or counted from the seats' hands (a seat by
    number, or by the name the game keeps for it)."""
    from meldcalc.rules.scoring import meld_of_hands

    if (meld is None) == (hands is None):
        raise MeldcalcError("give the meld either per side (--meld 150,80) or per seat (--hand)")
    if meld is not None:
        return meld, checks or (), no_marriage
    if checks is not None:
        raise MeldcalcError(
            "--checks with --hand: the checks are counted from the hands; give --checks with"
            " --meld, or leave it out"
        )
    if trump is None:
        raise MeldcalcError("--hand needs --trump: meld is counted under the trump named")
    seats: dict[int, Hand] = {}
    seating = Seating(rules, names=names)
    for text in hands or []:
        name, colon, cards = text.partition(":")
        if not colon:
            raise MeldcalcError(f"--hand {quote(text)}: expected SEAT:CARDS, e.g. 0:'AS 10S KS'")
        seat = seating.parse(name, f"--hand {quote(text)}: seat")
        if seat in seats:
            raise MeldcalcError(f"--hand: seat {seat} is given twice")
        seats[seat] = Hand.parse(cards)
    side_meld, side_checks, not_played = meld_of_hands(rules, seats, trump, bidder, no_marriage)
    if missing := [seat for seat in range(rules.players) if seat not in seats]:
        warn(
            [
                f"no --hand for {_seats_text(missing)}: {'its' if len(missing) == 1 else 'their'}"
                " meld counts 0"
            ]
        )
    return side_meld, side_checks, not_played


def _meld_possible(
    rules: Variant, meld: tuple[int, ...], bidder: int, names: tuple[str, ...] | None
) -> None:
    """Refuses a side's meld no hands of the variant can make (``--meld 5000,80``): above
    the most its seats' hands can meld (`rules.holdings.most_side_meld`)."""
    from meldcalc.rules.holdings import most_side_meld
    from meldcalc.rules.scoring import side_count, side_name

    if len(meld) != side_count(rules):
        return  # said by the score, one a side
    for side, total in enumerate(meld):
        most = most_side_meld(rules, bidder, side)
        if total > most:
            shown = ",".join(map(str, meld))
            raise MeldcalcError(
                f"--meld {shown}: {side_name(rules, side, names)} cannot meld {total:,} in"
                f" {rules.name}: the most its hands can meld is {most:,}: a typo?"
            )


def _seats_text(seats: list[int]) -> str:
    """``'seat 1'``, ``'seats 1 and 3'``, ``'seats 1, 2 and 3'``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def _show_standing(book: Any, rules: Variant, fmt: ScoreFormat, detail: bool = False) -> None:
    standing = book.standing()
    if fmt is ScoreFormat.json:
        say(json.dumps(standing_json(book, standing, rules), indent=2, ensure_ascii=False))
    else:
        say(standing_table(book, standing, rules, detail))


def score_json(score: Any, variant: Any, names: Any = None) -> dict[str, Any]:
    """One scored hand: ``{"outcome", "bid", "bidder", "sides": [...], "explanation",
    "advice"}``; each side has ``name`` too when the sides are named."""
    from meldcalc.rules.scoring import side_name

    play = score.play
    named = (lambda side: {"name": names[side]}) if names else (lambda side: {})
    auction = variant.bidding is not None  # without one (two-handed), no bid: null
    return {
        "variant": variant.name,
        "outcome": score.outcome,
        "bid": play.bid if auction else None,
        "bidder": play.bidder if auction else None,
        "bidding_side": score.bidding_side if auction else None,
        "sides": [
            {
                "side": side,
                "seats": side_name(variant, side),
                **named(side),
                "meld": play.meld[side],
                "counted_meld": score.counted_meld[side],
                "tricks": None if play.tricks is None else play.tricks[side],
                "points": score.points[side],
                "checks": score.checks[side],
            }
            for side in range(len(play.meld))
        ],
        "explanation": list(score.explanation),
        "advice": list(score.advice),
    }


def score_table(score: Any, variant: Any, names: Any = None) -> str:
    """A row per side (meld, tricks, points), then the hand explained in sentences."""
    data = score_json(score, variant, names)
    checks = any(rule.checks for rule in variant.melds)
    headers = ["", "meld", "tricks", "points"] + (["checks"] if checks else [])
    rows = []
    for side in data["sides"]:
        meld = side["meld"] if side["meld"] == side["counted_meld"] else f"({side['meld']}) 0"
        tricks = "-" if side["tricks"] is None else side["tricks"]
        row = [side.get("name", side["seats"]), meld, tricks, side["points"]]
        row += [side["checks"]] if checks else []
        rows.append(row)
    table = tabulate(rows, headers, colalign=("left",) + ("right",) * (len(headers) - 1))
    advice = [f"Advice: {line[:1].upper()}{line[1:]}." for line in data["advice"]]
    return "\n".join([table, "", *data["explanation"], *advice])


def _with_trumps(ledger: Any) -> Any:
    """Each hand of the game with its trump (None where it was not given)."""
    trumps = ledger.trumps or (None,) * len(ledger.hands)
    return zip(ledger.hands, trumps)


def standing_json(ledger: Any, standing: Any, variant: Any) -> dict[str, Any]:
    """A game so far: its hands, the totals, and the winner once decided."""
    from meldcalc.rules.scoring import side_name

    sides = range(len(standing.totals))
    return {
        "ledger": str(ledger.path),
        "variant": ledger.variant,
        "target": ledger.target,
        "sides": [side_name(variant, side) for side in sides],
        **({"names": list(ledger.names)} if ledger.names else {}),
        "hands": [
            {
                "hand": number,
                "bid": score.play.bid,
                "bidder": score.play.bidder,
                "trump": trump,
                "outcome": score.outcome,
                "meld": list(score.play.meld),
                "tricks": None if score.play.tricks is None else list(score.play.tricks),
                "points": list(score.points),
                "checks": list(score.checks),
            }
            for number, (score, trump) in enumerate(_with_trumps(ledger), start=1)
        ],
        "totals": list(standing.totals),
        "checks": list(standing.checks),
        "winner": standing.winner,
        "result": standing_sentence(standing, variant, ledger.target, ledger.names),
    }


def standing_sentence(standing: Any, variant: Any, target: int, names: Any = None) -> str:
    """Who won and why, or what each side still needs."""
    from meldcalc.rules.scoring import side_name as seats_name

    def side_name(variant: Any, side: int) -> str:
        return seats_name(variant, side, names)

    totals = standing.totals
    if standing.winner is not None:
        others = ", ".join(str(t) for side, t in enumerate(totals) if side != standing.winner)
        name = side_name(variant, standing.winner)
        name = name[:1].upper() + name[1:]
        return f"{name} won, {totals[standing.winner]} to {others}: {standing.reason}."
    if not standing.hands:
        return f"No hands yet; the game is to {target}."
    best = max(totals)
    tied = [side for side, total in enumerate(totals) if total == best]
    if best >= target and len(tied) > 1:  # equal totals over the target play on
        both = len(tied) == len(totals) == 2
        names = "both sides" if both else " and ".join(side_name(variant, s) for s in tied)
        return (
            f"{names[0].upper()}{names[1:]} reached {target} with {best} each:"
            " another hand is played."
        )
    needs = "; ".join(
        f"{side_name(variant, side)} {max(target - total, 0)}" for side, total in enumerate(totals)
    )
    hands = f"{standing.hands} hand{'s' if standing.hands != 1 else ''}"
    return f"No winner yet after {hands}. Still needed to reach {target}: {needs}."


def standing_table(ledger: Any, standing: Any, variant: Any, detail: bool = False) -> str:
    """The game's hands and totals; ``detail``: each side's meld and tricks beside its
    points."""
    from meldcalc.rules.scoring import side_of

    data = standing_json(ledger, standing, variant)
    checks = any(rule.checks for rule in variant.melds)
    headers = ["hand", "bid", "by", "trump", "outcome", *data.get("names", data["sides"])]
    names = ledger.names

    def bidder(hand: dict) -> str:
        if variant.bidding is None:
            return ""
        seat = f"seat {hand['bidder']}"
        return f"{names[side_of(variant, hand['bidder'])]} ({seat})" if names else seat

    def cell(hand: dict, side: int) -> str | int:
        points, check = hand["points"][side], hand["checks"][side]
        shown = f"{points} ({checks_text(check)})" if checks else points
        if not detail:
            return shown
        tricks = "" if hand["tricks"] is None else f" + {hand['tricks'][side]} tricks"
        return f"{shown}  [{hand['meld'][side]} meld{tricks}]"

    rows = [
        [hand["hand"], hand["bid"] or "", bidder(hand), hand["trump"] or "", hand["outcome"]]
        + [cell(hand, side) for side in range(len(data["sides"]))]
        for hand in data["hands"]
    ]
    totals = [
        f"{total} ({checks_text(check)})" if checks else total
        for total, check in zip(data["totals"], data["checks"])
    ]
    rows.append(["total", "", "", "", "", *totals])
    align = ("right", "right", "left", "left", "left") + ("right",) * len(data["sides"])
    title = f"{shown_path(ledger.path)}: {variant.name}, game to {ledger.target}"
    return "\n".join([title, "", tabulate(rows, headers, colalign=align), "", data["result"]])
