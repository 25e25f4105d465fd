"""The command line: thin Typer wrappers over the pure functions below it.

This is the one place that reads stdin, prints and exits (with `console` for what the
operating system does to the streams). Errors of the user's making (`MeldcalcError`)
become one clear line on stderr and exit code 2; anything else is our bug and keeps its
traceback (exit code 1).
"""

from __future__ import annotations

import contextlib
import enum
import functools
import itertools
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from meldcalc import __version__, console
from meldcalc.cards import Hand, Suit
from meldcalc.console import EXIT_BAD_INPUT, EXIT_FAILURE, OutputError
from meldcalc.errors import HandError, MeldcalcError, VariantError, quote, shown_path
from meldcalc.notation import is_whole_number
from meldcalc.output import Format
from meldcalc.variant import DEFAULT_VARIANT, Variant

if TYPE_CHECKING:
    from meldcalc.output import ReportWriter

app = typer.Typer(
    help="Pinochle meld and bid calculator: count meld exactly, estimate bids.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: A seed is a whole number in this range; the same seed always gives the same numbers.
MAX_SEED = 2**63 - 1
#: Simulated deals per trump: a million take about a minute; more is never worth it.
MAX_DEALS = 1_000_000
MAX_BID = 10_000_000  # schema.MAX_BID, not imported: schema costs start-up time
#: Below this many deals a standard error means little.
FEW_DEALS = 30


def _suit(text: str) -> Suit:
    """A suit option as hands write suits: S, ♠ (also ♠️), spades; any case."""
    from meldcalc.notation import parse_suit

    try:
        return parse_suit(text)
    except MeldcalcError as error:
        raise typer.BadParameter(str(error)) from None


def _probability(value: float) -> float:
    if not 0.01 <= value <= 0.99:  # also refuses nan
        raise typer.BadParameter(f"expected a probability from 0.01 to 0.99, got {value}")
    return value


def _complete_variant(incomplete: str) -> list[str]:
    from meldcalc.variant import shipped_names

    return [name for name in shipped_names() if name.startswith(incomplete)]


#: Arguments are described in each command's docstring ("HAND is ..."): Typer's help
#: would print their Python type beside them.
HandArgument = Annotated[
    Optional[list[str]],
    typer.Argument(show_default=False, metavar="HAND", hidden=True),
]


def _trump_option(more: str = "") -> Any:
    """``--trump/-t``; ``more`` ends its help with what this command does without it."""
    help = f"Trump suit: S H D C (or ♠ ♥ ♦ ♣, spades ...){more}."
    return typer.Option("--trump", "-t", parser=_suit, metavar="SUIT", help=help)


TrumpOption = Annotated[Optional[Suit], _trump_option("; default: all four")]


def _variant_option(help: str = "A shipped variant's name or a path to a YAML rules file.") -> Any:
    return typer.Option(
        "--variant", "-V", metavar="NAME|FILE", help=help, autocompletion=_complete_variant
    )


VariantOption = Annotated[str, _variant_option()]
FormatOption = Annotated[
    Format,
    typer.Option("--format", "-f", help="Output format.", case_sensitive=False, metavar="FORMAT"),
]
StrictOption = Annotated[
    bool, typer.Option("--strict", help="A hand of the wrong size is an error, not a warning.")
]
ExplainOption = Annotated[
    bool,
    typer.Option("--explain", help="Say in words why the total is what it is, and near misses."),
]
SeedOption = Annotated[
    Optional[int],
    typer.Option(
        "--seed",
        "-s",
        min=0,
        max=MAX_SEED,
        metavar="SEED",
        help="Random seed, a whole number from 0 to 2^63-1: the same seed, the same numbers.",
    ),
]


class ListFormat(str, enum.Enum):
    table = "table"
    json = "json"


class TableFormat(str, enum.Enum):
    table = "table"
    markdown = "markdown"
    json = "json"


class DealFormat(str, enum.Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


def _print(text: str = "", end: str = "\n") -> None:
    """A line of results on stdout (failures there become `OutputError`)."""
    sys.stdout.write(text + end)


def _version(value: bool) -> None:
    if value:
        _print(f"meldcalc {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Pinochle meld and bid calculator: count meld exactly, estimate bids."""


def _fail(message: str) -> None:
    for line in message.splitlines():
        console.to_stderr(f"meldcalc: error: {line}\n")


def _warn(warnings: list[str], prefix: str = "") -> None:
    for warning in warnings:
        console.to_stderr(f"meldcalc: warning: {prefix}{warning}\n")


@contextlib.contextmanager
def _user_errors() -> Iterator[None]:
    """The error boundary: a user's mistake is a message and exit code 2, not a traceback."""
    try:
        yield
    except MeldcalcError as error:
        _fail(str(error))
        raise typer.Exit(EXIT_BAD_INPUT) from None


def _load(variant: str) -> Variant:
    from meldcalc.variant import load_variant

    return load_variant(variant)


def _input_lines(
    hand: list[str] | None,
    expected: str = "hands, one per line",
    before_waiting: Callable[[], None] = lambda: sys.stdout.flush(),
    missing: str = "no hand given{}: pass one, e.g. 'AS 10S KS', or '-' to read stdin",
) -> Iterator[tuple[int, str | MeldcalcError]] | None:
    """Numbered input lines for batch mode (blank and ``#`` lines skipped), each its text or
    what makes it unreadable; None when the hand is on the command line. Before waiting
    for more input, ``before_waiting`` writes out the results so far. With no hand and
    nothing piped in, the error is ``missing`` ({} says when stdin is closed)."""
    if hand == ["-"] or (not hand and console.stdin_is_piped()):
        lines = console.read_lines(console.stdin_bytes(expected), before_waiting)
        return (
            (number, text)
            for number, text in lines
            if not isinstance(text, str) or (text.strip() and not text.lstrip().startswith("#"))
        )
    if not hand:
        raise MeldcalcError(
            missing.format(" (standard input is closed)" if sys.stdin is None else "")
        )
    return None


def _report_each(
    hand: list[str] | None,
    compute: Callable[[str, str | None], Any],
    writer_for: Callable[[bool], ReportWriter],
) -> None:
    """Run ``compute`` on the hand, or on every hand line of stdin, and write each report
    (``compute`` gets the text and the line's label, such as ``seat 1`` or ``widow``).

    Every input line gives one record or one error naming its line (on stderr, and in the
    output where the format keeps a record per line); the rest go on, and the exit code
    is then 2.
    """
    from meldcalc.notation import split_label

    with _user_errors():
        # the writer exists before the first line is read (the lines are read lazily)
        lines = _input_lines(hand, before_waiting=lambda: writer.flush())
        writer = writer_for(lines is not None)
        if lines is None:
            report = compute(" ".join(hand or []), None)
            writer.write(report, 1)
            writer.close()
            _warn(report.warnings)  # after the result: the last line on the screen
            return
    failed = False
    for number, text in lines:
        label, body = split_label(text) if isinstance(text, str) else (None, "")
        try:
            if isinstance(text, MeldcalcError):
                raise text
            report = compute(body, label)
        except MeldcalcError as error:
            failed = True
            _fail(f"line {number}: {error}")
            writer.write_error(number, str(error), label)
            continue
        _warn(report.warnings, f"line {number}: ")
        writer.write(report, number, label)
    writer.close()
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command(short_help="Count the best meld of a hand, under one trump or each.")
def meld(
    hand: HandArgument = None,
    trump: TrumpOption = None,
    variant: VariantOption = DEFAULT_VARIANT,
    fmt: FormatOption = Format.table,
    strict: StrictOption = False,
    explain: ExplainOption = False,
) -> None:
    """Count the best meld of a hand, under one trump or under each (best named first).

    HAND is a hand such as 'AS 10S KS QS JS JD' or 'S: A 10 K Q J D: J' (quotes
    optional); '-' or a pipe on stdin gives one hand per line.

    Example: meldcalc meld "AS 10S KS QS JS JD" --trump S
    """
    from meldcalc.meld import meld_report
    from meldcalc.notation import PILES
    from meldcalc.output import MeldWriter

    with _user_errors():
        if explain and fmt in (Format.csv, Format.tsv, Format.total):
            raise MeldcalcError(
                f"--explain: the {fmt.value} format has no room for it: use table, json or jsonl"
            )
        rules = _load(variant)
    _report_each(
        hand,
        lambda text, label: meld_report(text, rules, trump, strict, dealt=label not in PILES),
        lambda batch: MeldWriter(fmt, sys.stdout, batch, explain=explain),
    )


@app.command(short_help="List the shipped rule variants.")
def variants(
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", metavar="FORMAT", help="table or json.")
    ] = ListFormat.table,
) -> None:
    """List the shipped rule variants.

    Example: meldcalc variants
    """
    from meldcalc.output import variants_table
    from meldcalc.tables import shipped_summaries

    with _user_errors():
        rows = shipped_summaries()
    if fmt is ListFormat.json:
        _print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        _print(variants_table(rows))


@app.command(short_help="Show a variant's whole scoring table.")
def table(
    name: Annotated[
        Optional[str],
        typer.Argument(autocompletion=_complete_variant, metavar="VARIANT", hidden=True),
    ] = None,
    variant: Annotated[
        Optional[str], _variant_option("The same as VARIANT, as the other commands spell it.")
    ] = None,
    fmt: Annotated[
        TableFormat,
        typer.Option("--format", "-f", metavar="FORMAT", help="table, markdown or json."),
    ] = TableFormat.table,
) -> None:
    """Show a variant's whole scoring table: melds by class, tricks, bidding, play.

    VARIANT is a shipped variant's name (default: single-deck) or a YAML file, given
    alone or as -V VARIANT.

    Example: meldcalc table double-deck --format markdown
    """
    from meldcalc.output import scoring_text
    from meldcalc.tables import scoring_table

    with _user_errors():
        if name is not None and variant is not None and name != variant:
            raise MeldcalcError(f"two variants given: {quote(name)} and -V {quote(variant)}")
        data = scoring_table(_load(name or variant or DEFAULT_VARIANT))
    if fmt is TableFormat.json:
        _print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _print(scoring_text(data, markdown=fmt is TableFormat.markdown))


@app.command(short_help="Validate house-rules files, every problem linter-style.")
def check(
    files: Annotated[
        Optional[list[str]], typer.Argument(metavar="FILE", hidden=True, show_default=False)
    ] = None,
) -> None:
    """Validate house-rules files; every problem as file:line:column: key: message.

    FILE is a variant file, or a folder standing for every .yaml file in it (and its
    subfolders). Each file is read afresh, never from the cache.

    Example: meldcalc check house.yaml
    """
    from meldcalc.variant import load_variant_file, variant_files

    if not files:
        _fail("no file given: name the variant files to check, e.g. house.yaml")
        raise typer.Exit(EXIT_BAD_INPUT)
    checked = bad = 0
    for file in files:
        try:
            paths = variant_files(Path(file))
        except VariantError as error:
            checked, bad = checked + 1, bad + 1
            _print(error.problems[0])
            continue
        for path in paths:
            checked += 1
            try:
                variant = load_variant_file(path)
            except VariantError as error:
                bad += 1
                for problem in _in_file_order(error.problems):
                    _print(problem)
            else:
                _print(f"{path}: ok ({variant.name}: {variant.title})")
    files_checked = f"{checked} file{'' if checked == 1 else 's'} checked"
    console.to_stderr(f"{files_checked}, {bad} with problems\n")
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)


_PLACE = re.compile(r"(.*?):(\d+):(\d+): ")


def _in_file_order(problems: list[str]) -> list[str]:
    """Problems as a linter lists them: by file (in the order met), then line and column;
    the loader finds them phase by phase (shape, then meaning)."""
    files: dict[str, int] = {}

    def place(problem: str) -> tuple[int, int, int]:
        match = _PLACE.match(problem)
        if match is None:
            return (len(problems), 0, 0)
        file = files.setdefault(match.group(1), len(files))
        return (file, int(match.group(2)), int(match.group(3)))

    return sorted(problems, key=place)


@app.command(short_help="Deal random hands in the notation meld reads.")
def deal(
    variant: VariantOption = DEFAULT_VARIANT,
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, metavar="N", help="How many deals.")
    ] = 1,
    seed: SeedOption = None,
    players: Annotated[
        bool, typer.Option("--players", help="Show every seat of each deal (and the widow).")
    ] = False,
    fmt: Annotated[
        DealFormat,
        typer.Option("--format", "-f", metavar="FORMAT", help="text, json or jsonl."),
    ] = DealFormat.text,
) -> None:
    """Deal random hands, one per line, in the notation meld reads.

    With --players every seat is a line 'seat N: ...' (seats numbered from 0, as play and
    solve number them), then 'widow: ...' where there is one; meld reads those lines too.

    Example: meldcalc deal -n 1000 --seed 7 | meldcalc meld -f jsonl
    """
    from meldcalc.deal import deals
    from meldcalc.output import deal_json, deal_lines

    with _user_errors():
        rules = _load(variant)
    dealt = enumerate(deals(rules, count, seed), start=1)
    if fmt is DealFormat.json:
        records = [deal_json(one, number) for number, one in dealt]
        _print(json.dumps(records if count > 1 else records[0], indent=2))
        return
    for number, one in dealt:
        if fmt is DealFormat.jsonl:
            _print(json.dumps(deal_json(one, number)))
        else:
            _print("\n".join(deal_lines(one, number if count > 1 else None, players)))


@app.command(short_help="Practise counting meld: your total, the answer explained.")
def quiz(
    variant: VariantOption = DEFAULT_VARIANT,
    rounds: Annotated[
        int, typer.Option("--rounds", "-n", min=1, metavar="N", help="Questions to ask.")
    ] = 5,
    seed: SeedOption = None,
) -> None:
    """Practise counting meld: a hand and a trump, your total, the right answer explained.

    Answers are read from stdin (typed, or piped one per line).

    Example: meldcalc quiz --rounds 3 --seed 1
    """
    from meldcalc.explain import explain
    from meldcalc.quiz import Score, questions, read_answer

    with _user_errors():
        rules = _load(variant)
        answers = console.read_lines(console.stdin_bytes("your answers, one per line"))
    score = Score()
    for question in questions(rules, rounds, seed):
        sys.stdout.write(question.prompt())
        sys.stdout.flush()
        answer = _ask(answers, read_answer)
        if answer is None:
            _print("\n(no more answers: the quiz ends here)")
            break
        correct = answer == question.answer.total
        score.record(correct)
        _print(f"{'right' if correct else f'wrong: it is {question.answer.total}'}.")
        for line in explain(question.hand, rules, question.answer):
            _print(f"  {line}")
        _print()
    _print(score.summary())


def _ask(
    answers: Iterator[tuple[int, str | MeldcalcError]], parse: Callable[[str], int]
) -> int | None:
    """Read answers until one parses; None at the end of input."""
    for _, line in answers:
        if not sys.stdin.isatty():  # show piped answers, so the transcript reads well
            _print(line.strip() if isinstance(line, str) else "?")
        try:
            if isinstance(line, MeldcalcError):
                raise line
            return parse(line)
        except MeldcalcError as error:
            sys.stdout.write(f"{error}; try again: ")
            sys.stdout.flush()
    return None


def _told(name: str, metavar: str, text: str) -> Any:
    """An option of what the table knows: read as text, checked by `read_knowledge`, so a
    bad value is one line naming it."""
    return typer.Option(name, metavar=metavar, help=text, show_default=False)


class PlayFormat(str, enum.Enum):
    table = "table"
    json = "json"


@app.command(short_help="Simulate the unseen cards and suggest a bid, with its odds.")
def bid(
    hand: HandArgument = None,
    variant: VariantOption = DEFAULT_VARIANT,
    trump: TrumpOption = None,
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            "-n",
            min=1,
            max=MAX_DEALS,
            metavar="N",
            help=f"Simulated deals per trump (1 to {MAX_DEALS:,}).",
        ),
    ] = 2000,
    seed: SeedOption = None,
    confidence: Annotated[
        float,
        typer.Option(
            "--confidence",
            "-c",
            callback=_probability,
            metavar="P",
            help="P(make) a bid must reach, from 0.01 to 0.99.",
        ),
    ] = 0.7,
    fmt: FormatOption = Format.table,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help="Processes to use (at most the CPUs, and the 2,000-deal chunks).",
        ),
    ] = 1,
    known: Annotated[
        Optional[list[str]],
        _told(
            "--known",
            "SEAT:CARDS",
            "Cards a seat holds, e.g. partner:'JD QS' (seats: partner, left, right or a"
            " number; repeat for more).",
        ),
    ] = None,
    void: Annotated[
        Optional[list[str]],
        _told("--void", "SEAT:SUIT", "A seat holds none of a suit, e.g. left:S."),
    ] = None,
    partner_meld: Annotated[
        Optional[str],
        _told(
            "--partner-meld",
            "RANGE",
            "Partner's meld under the trump: 40: (at least), :60 (at most), 40:60, 40.",
        ),
    ] = None,
    opponents_meld: Annotated[
        Optional[str], _told("--opponents-meld", "RANGE", "The opponents' meld together.")
    ] = None,
    widow: Annotated[
        Optional[str],
        _told("--widow", "CARDS", "The widow (kitty) you took: the trump, what to bury, the odds."),
    ] = None,
    received: Annotated[
        Optional[str], _told("--received", "CARDS", "The cards your partner passed you.")
    ] = None,
    ask: Annotated[
        Optional[str],
        _told("--ask", "SUIT", "Card exchange: the suit you ask for (default: each is tried)."),
    ] = None,
    no_passing: Annotated[
        bool,
        typer.Option(
            "--no-passing",
            help="The card pass is over or not played: HAND is as it will be played.",
        ),
    ] = False,
    endgame: Annotated[
        int,
        typer.Option(
            "--endgame",
            min=0,
            metavar="K",
            help="Play the last K tricks of every deal exactly (1 to 8; slower).",
        ),
    ] = 0,
) -> None:
    """Estimate trick points by simulating the unseen cards, and suggest a bid with its odds.

    HAND is the bidder's whole hand, e.g. 'AS 10S KS QS JS JD 9S AH AD AC KH QH'; '-' or
    a pipe on stdin gives one hand per line. What the table knows (the meld shown, the
    auction, the widow, the pass) narrows the deals to those consistent with it.

    Example: meldcalc bid "AS 10S KS QS JS JD 9S AH AD AC KH QH" --seed 7
    """
    from meldcalc.bidding import check_biddable_variant, check_endgame, estimate
    from meldcalc.knowledge import read_knowledge
    from meldcalc.output import BidWriter

    with _user_errors():
        rules = _load(variant)
        check_biddable_variant(rules)
        check_endgame(rules, endgame)
        knowledge = read_knowledge(
            rules,
            known or [],
            void or [],
            partner_meld,
            opponents_meld,
            widow,
            received,
            ask,
            no_passing,
        )
    trumps = [trump] if trump else None
    warnings = (
        [f"{deals} deals are too few for the odds to mean much; use at least {FEW_DEALS}"]
        if deals < FEW_DEALS
        else []
    )

    def compute(text: str, label: str | None) -> object:
        with _progress() as progress:
            return estimate(
                _full_hand(text, rules),
                rules,
                deals,
                seed,
                trumps,
                confidence,
                jobs,
                progress,
                list(warnings),
                knowledge,
                endgame,
            )

    _report_each(hand, compute, lambda batch: BidWriter(fmt, sys.stdout, batch, flush_each=True))


def _full_hand(text: str, rules: Variant) -> Hand:
    """A hand to simulate from: it must be a whole deal's hand."""
    from meldcalc.meld import read_hand

    held, warnings = read_hand(text, rules)
    if warnings:
        raise HandError(f"{warnings[0]}: play is simulated from a full hand")
    return held


@contextlib.contextmanager
def _progress(
    done_what: str = "simulated {} deals", after: float = 1.0
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress line on stderr, on a terminal, once a run has taken ``after`` seconds; it
    is cleared when the run ends. ``done_what`` words it, ``{}`` standing for done/total."""
    if not sys.stderr.isatty():
        yield None
        return
    import time

    start, shown = time.monotonic(), []

    def show(done: int, total: int) -> None:
        if time.monotonic() - start >= after:
            message = done_what.format(f"{done}/{total}")
            console.to_stderr(f"\r{message}")
            shown.append(len(message))

    try:
        yield show
    finally:
        if shown:  # blanks, not an escape code: a dumb terminal shows those as they are
            console.to_stderr("\r" + " " * max(shown) + "\r")
            sys.stderr.flush()


@app.command(short_help="Play one simulated deal of the hand, trick by trick.")
def play(
    trump: Annotated[Suit, _trump_option()],
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
    fmt: Annotated[
        PlayFormat, typer.Option("--format", "-f", metavar="FORMAT", help="table or json.")
    ] = PlayFormat.table,
) -> None:
    """Play one deal with meldcalc's player (seat 0 leads) and show it trick by trick.

    HAND is seat 0's whole hand (none: a random one); the other seats get the unseen cards
    at random (--seed repeats a deal). --deal plays a given deal instead. --review solves
    the position before every card and marks each card with what it cost its side against
    the best one, the points lost per seat, and the deal's exact value beside what was
    taken.

    Example: meldcalc play "AS 10S KS QS JS JD 9S AH AD AC KH QH" -t S --seed 3 --review
    """
    import secrets

    from meldcalc.bidding import play_deal, play_one
    from meldcalc.output import played_json, played_table

    chosen = None  # the seed of a random deal
    with _user_errors():
        rules = _load(variant)
        if deal is not None:
            if hand:
                raise MeldcalcError("give either HAND or --deal, not both")
            from meldcalc.notation import parse_hand

            hands = tuple(parse_hand(part) for part in deal.split("/"))
            played = play_deal(hands, rules, trump)
        else:
            chosen = secrets.randbelow(2**31) if seed is None else seed
            if hand:
                held = _full_hand(" ".join(hand), rules)
            else:  # a whole random deal: seat 0's hand from the seed too
                from meldcalc.deal import deals

                held = next(deals(rules, 1, chosen)).hands[0]
            played = play_one(held, rules, trump, chosen)
        checked = None
        if review:
            from meldcalc.review import review as review_deal
            from meldcalc.solve import check_solver

            check_solver(rules)
            with _progress("reviewing trick {}", after=0) as progress:
                checked = review_deal(played, rules, progress)
    if fmt is PlayFormat.json:
        _print(json.dumps(played_json(played, checked, chosen), indent=2, ensure_ascii=False))
    else:
        _print(played_table(played, checked, chosen))


class SolveFormat(str, enum.Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"


@app.command(short_help="Solve a position exactly: each card's value, the best line.")
def solve(
    hands: Annotated[Optional[list[str]], typer.Argument(metavar="HAND", hidden=True)] = None,
    trump: Annotated[
        Optional[Suit], _trump_option("; or '| trump S' after a batch line's hands")
    ] = None,
    leader: Annotated[
        int, typer.Option("--leader", "-l", min=0, max=5, metavar="SEAT", help="Who leads.")
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
    variant: VariantOption = DEFAULT_VARIANT,
    line: Annotated[
        bool, typer.Option("--line/--no-line", help="Show an optimal line of play.")
    ] = True,
    fmt: Annotated[
        SolveFormat, typer.Option("--format", "-f", metavar="FORMAT", help="table, json, jsonl.")
    ] = SolveFormat.table,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, metavar="N", help="Processes for batch input.")
    ] = 1,
) -> None:
    """Solve a position exactly (double dummy): every hand seen, best play by both sides.

    HAND is each seat's hand in playing order (quoted, or all in one separated by '/'),
    hands of equal size once the current trick is complete, so endgames are positions
    too; or --seed S for a random deal. Values are the trick points seat 0's side takes
    from the position on. '-' or a pipe on stdin gives one position per line: 'HAND /
    HAND / HAND / HAND', optionally followed by '| trump S', '| leader 1', '| trick AS'.

    Example: meldcalc solve --seed 1 --trump S
    """
    from meldcalc.solve import check_solver

    with _user_errors():
        rules = _load(variant)
        check_solver(rules)
        lines = None
        if seed is None:
            lines = _input_lines(
                hands,
                "positions, one per line",
                missing="no position given{}: pass a hand per seat, --seed S for a random"
                " deal, or '-' to read positions from stdin",
            )
        if lines is None:
            text = _position_text(hands, seed, rules)
            _print(_solved(text, rules, trump, leader, trick, line, fmt))
            return
    _solve_lines(lines, rules, trump, leader, trick, line, fmt, jobs)


def _position_text(hands: list[str] | None, seed: int | None, rules: Variant) -> str:
    """The hands of one position as a line: given, or dealt from ``seed``."""
    if seed is not None:
        if hands:
            raise MeldcalcError("give either the hands or --seed, not both")
        from meldcalc.deal import deals

        dealt = next(deals(rules, 1, seed))
        return " / ".join(hand.notation() for hand in dealt.hands)
    if len(hands or []) == rules.players and not any("/" in hand for hand in hands or []):
        return " / ".join(hands or [])
    return " ".join(hands or [])


def _solved(
    text: str, rules: Variant, trump: Suit | None, leader: int, trick: str, line: bool, fmt: Any
) -> str:
    from meldcalc.output import solution_json, solution_table
    from meldcalc.solve import check_reach, parse_position, solve

    position = parse_position(text, rules, trump, leader, trick)
    check_reach(position.tricks)
    solution = solve(position, rules, line=line)
    if fmt is SolveFormat.table:
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
    fmt: SolveFormat,
    jobs: int,
) -> None:
    """Batch: one position per input line, one record per line out, in input order and
    streaming (one job answers each line as it comes; N jobs take windows of 8N lines), so
    a million lines run in flat memory and can be sharded by splitting the input. ``-f
    json`` writes one JSON array of the records, errors included as in jsonl."""
    from meldcalc.workers import worker_map

    task = functools.partial(
        _solve_line, rules=rules, trump=trump, leader=leader, trick=trick, line=line, fmt=fmt
    )
    failed, records = False, 0
    if fmt is SolveFormat.json:
        _print("[", end="")
    with worker_map(jobs, jobs) as run:
        for number, result in _windowed(run, task, lines, window=1 if jobs == 1 else 8 * jobs):
            if isinstance(result, MeldcalcError):
                failed = True
                _fail(f"line {number}: {result}")
                if fmt is SolveFormat.table:
                    continue
                error = {"position": number, "error": str(result)}
                result = json.dumps(error, ensure_ascii=False, indent=_indent(fmt))
            if fmt is SolveFormat.table:
                _print(f"line {number}:\n{result}\n")
            elif fmt is SolveFormat.json:
                _print(("," if records else "") + "\n" + result, end="")
            else:
                _print(result)
            records += 1
            sys.stdout.flush()
    if fmt is SolveFormat.json:
        _print("\n]" if records else "]")
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)


def _indent(fmt: SolveFormat) -> int | None:
    return 2 if fmt is SolveFormat.json else None


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
        )
    except MeldcalcError as error:
        return number, error
    if fmt is not SolveFormat.table:
        record = json.loads(out)
        out = json.dumps({"position": number, **record}, ensure_ascii=False, indent=_indent(fmt))
    return number, out


def _windowed(run: Callable, task: Callable, items: Iterator, window: int) -> Iterator:
    """``run(task, items)`` a window at a time: an ordered pool map reads its whole input
    ahead, which a million-line batch cannot afford."""
    while batch := list(itertools.islice(items, window)):
        yield from run(task, batch)


class ScoreFormat(str, enum.Enum):
    table = "table"
    json = "json"


def _file_name(text: str) -> Path:
    """A file option as typed: an empty name is refused, not read as the folder '.'."""
    if not text:
        raise typer.BadParameter(f"expected a file name, got {quote(text)}")
    return Path(text)


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
    bid: Annotated[
        Optional[int],
        typer.Option("--bid", "-b", min=0, max=MAX_BID, metavar="POINTS", help="The winning bid."),
    ] = None,
    bidder: Annotated[
        Optional[int],
        typer.Option("--bidder", min=0, max=5, metavar="SEAT", help="The bidder's seat, from 0."),
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
            help="A seat's hand, to count its meld under --trump (repeat for each seat).",
        ),
    ] = None,
    tricks: Annotated[
        Optional[str],
        typer.Option(
            "--tricks",
            callback=_per_side,
            metavar="N,N",
            help="Each side's trick points; they must add up to the variant's total.",
        ),
    ] = None,
    trump: Annotated[
        Optional[Suit], _trump_option(": the trump named, to count --hand meld under")
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
            help="Tricks each side took (only for a save-meld-with-a-trick house rule).",
        ),
    ] = None,
    variant: Annotated[
        Optional[str],
        _variant_option("A shipped variant's name or a YAML file (a game keeps its own)."),
    ] = None,
    game: Annotated[
        Optional[Path],
        typer.Option(
            "--game",
            "-g",
            metavar="FILE",
            parser=_file_name,
            help="A game's ledger: add the hand to it (JSON lines).",
        ),
    ] = None,
    show: Annotated[bool, typer.Option("--show", help="Show the game's hands and totals.")] = False,
    undo: Annotated[
        bool,
        typer.Option(
            "--undo", help="Take back the game's last hand (with --show: then show the game)."
        ),
    ] = False,
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
    fmt: Annotated[
        ScoreFormat, typer.Option("--format", "-f", metavar="FORMAT", help="table or json.")
    ] = ScoreFormat.table,
) -> None:
    """Score a hand by the variant's rules: made or set, each side's points, read aloud.

    Meld is given per side (--meld 150,80) or as each seat's hand (--hand 0:"AS 10S ...",
    counted under --trump). With --game FILE the hand is added to a game's ledger, and
    --show prints the running totals and the winner; --undo takes the last hand back.

    Example: meldcalc score --bid 300 --bidder 0 --meld 150,80 --tricks 140,70
    """
    from meldcalc.output import score_json, score_table, standing_json, standing_table
    from meldcalc.scoring import HandPlay, score_hand

    writes = not show or undo
    with _user_errors(), _held_game(game, writes, create=writes and not undo) as held:
        book = held and held.book
        spec = _game_variant(book, variant)
        rules = book.rules if book else _load(spec)
        reported = any(v is not None for v in (bid, bidder, meld, hands, tricks)) or thrown_in
        if game is None and (show or undo):
            raise MeldcalcError("--show and --undo need a game: --game FILE")
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
            _show_standing(book, rules, fmt)
            return
        if bid is None or bidder is None:
            raise MeldcalcError("a hand needs --bid and --bidder (and meld and tricks)")
        if checks is not None and not any(rule.checks for rule in rules.melds):
            raise MeldcalcError(f"--checks: {rules.name} keeps no checks")
        side_meld, side_checks, no_marriage = _meld_of_sides(
            rules, meld, hands, trump, bidder, checks, no_marriage
        )
        play = HandPlay(
            bid, bidder, side_meld, tricks, side_checks, thrown_in, no_marriage, tricks_taken
        )
        scored = score_hand(rules, play)
        if held is not None:
            book = held.add_hand(rules, spec, target, scored, trump and trump.letter)
    if fmt is ScoreFormat.json:
        record = score_json(scored, rules)
        if game is not None:
            record["game"] = standing_json(book, book.standing(), rules)
        _print(json.dumps(record, indent=2, ensure_ascii=False))
        return
    _print(score_table(scored, rules))
    if game is not None:
        _print()
        _print(standing_table(book, book.standing(), rules))


def _held_game(game: Path | None, write: bool, create: bool) -> Any:
    """The game's ledger, locked for the whole command (`ledger.held`); None without one."""
    from contextlib import nullcontext

    from meldcalc import ledger

    return nullcontext() if game is None else ledger.held(game, write, create)


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
    from meldcalc.variant import shipped_names

    return variant if variant in shipped_names() else str(Path(variant).absolute())


def _meld_of_sides(
    rules: Variant,
    meld: tuple[int, ...] | None,
    hands: list[str] | None,
    trump: Suit | None,
    bidder: int,
    checks: tuple[int, ...] | None,
    no_marriage: bool,
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Each side's meld and checks: as given, or counted from the seats' hands."""
    from meldcalc.scoring import meld_of_hands

    if (meld is None) == (hands is None):
        raise MeldcalcError("give the meld either per side (--meld 150,80) or per seat (--hand)")
    if meld is not None:
        return meld, checks or (), no_marriage
    if trump is None:
        raise MeldcalcError("--hand needs --trump: meld is counted under the trump named")
    seats: dict[int, Hand] = {}
    for text in hands or []:
        seat, colon, cards = text.partition(":")
        if not colon or not is_whole_number(seat.strip()) or len(seat) > 2:
            raise MeldcalcError(f"--hand {quote(text)}: expected SEAT:CARDS, e.g. 0:'AS 10S KS'")
        if int(seat) in seats:
            raise MeldcalcError(f"--hand: seat {int(seat)} is given twice")
        seats[int(seat)] = Hand.parse(cards)
    side_meld, side_checks, not_played = meld_of_hands(rules, seats, trump, bidder, no_marriage)
    return side_meld, checks or side_checks, not_played


def _show_standing(book: Any, rules: Variant, fmt: ScoreFormat) -> None:
    from meldcalc.output import standing_json, standing_table

    standing = book.standing()
    if fmt is ScoreFormat.json:
        _print(json.dumps(standing_json(book, standing, rules), indent=2, ensure_ascii=False))
    else:
        _print(standing_table(book, standing, rules))


def _register_only(first: list[str]) -> None:
    """Build only the command being run: Typer turns every command's signature into a
    parser on each start, a cost paid on every hand of a shell loop. Help, the version
    and shell completion still see every command."""
    import os

    names = {command.callback.__name__: command for command in app.registered_commands}
    if first and first[0] in names and "_MELDCALC_COMPLETE" not in os.environ:
        app.registered_commands[:] = [names[first[0]]]


def main() -> None:
    """Console-script entry point: the app, inside what the shell and the OS may do to it."""
    sys.exit(_run())


def _run() -> int:
    problem = console.prepare_streams()
    if problem is not None:
        _fail(problem)
        return EXIT_FAILURE
    console.end_on_signals()
    _register_only(sys.argv[1:2])
    try:
        code = app(prog_name="meldcalc", standalone_mode=False)
        sys.stdout.flush()
    except OutputError as error:
        console.silence_stdout()
        if error.closed_pipe:
            return console.EXIT_CLOSED_PIPE
        _fail(f"cannot write the results: {error}")
        return EXIT_FAILURE
    except typer.TyperException as error:  # a usage error: Typer says what and how to fix it
        show = getattr(error, "show", None)
        show() if show else _fail(error.format_message())
        return error.exit_code
    except (typer.Abort, KeyboardInterrupt):
        return console.EXIT_INTERRUPTED
    return code if isinstance(code, int) else 0
