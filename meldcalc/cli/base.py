"""What every command shares: the app, options declared once, input lines, the error
boundary and the writes to stdout and stderr."""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from typer.core import TyperCommand

from meldcalc import console
from meldcalc.cli.report import Format, RecordFormat, fitted
from meldcalc.console import EXIT_BAD_INPUT
from meldcalc.errors import HandError, MeldcalcError, NotationError, did_you_mean, quote
from meldcalc.rules.arguments import MAX_SEED
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.variant import Variant

if TYPE_CHECKING:
    from meldcalc.cli.report import ReportWriter


class OnceEachCommand(TyperCommand):
    """A command that refuses an option of one value given twice (``-t S -t H``), which
    the parser would settle silently by keeping the last. Options that gather a list
    (``--void``), and flags, may be repeated."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        try:
            left = super().parse_args(ctx, list(args))
        except typer.TyperException as error:  # `-t` with no value is told with no command:
            if getattr(error, "ctx", ...) is None:  # its help is this command's
                error.ctx = ctx
            raise
        if not ctx.resilient_parsing:  # not while the shell completes a word
            order = _as_given(self, ctx, args)
            for param in order:
                if _takes_one_value(param) and order.count(param) > 1:
                    times = "twice" if order.count(param) == 2 else f"{order.count(param)} times"
                    raise typer.BadParameter(
                        f"given {times}: it takes one value, give it once", ctx, param
                    )
        return left


def _as_given(command: TyperCommand, ctx: typer.Context, args: list[str]) -> list[Any]:
    """Each option of ``args`` as given, repeats included: the order Click's parser records
    (its own, vendored in Typer, whose form a later Typer may change: then no check, never
    an error, and the test of the check fails)."""
    try:
        _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    except (AttributeError, TypeError, ValueError):
        return []
    return order if isinstance(order, list) else []


def _takes_one_value(param: Any) -> bool:
    return getattr(param, "param_type_name", None) == "option" and not any(
        getattr(param, kind, False) for kind in ("multiple", "count", "is_flag")
    )


class App(typer.Typer):
    """The app, whose commands refuse an option of one value given twice."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        return super().command(*args, **{"cls": OnceEachCommand, **kwargs})


app = App(
    help="Pinochle meld and bid calculator: count meld exactly, estimate bids.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


MAX_BID = 10_000_000  # schema.MAX_BID, not imported: schema costs start-up time


def parse_suit_option(text: str) -> Suit:
    """A suit option as hands write suits: S, ♠ (also ♠️), spades; any case."""
    from meldcalc.rules.cards import parse_suit

    try:
        return parse_suit(text)
    except MeldcalcError as error:
        raise typer.BadParameter(str(error)) from None


def probability_option(text: str | float) -> float:
    """A probability as a player writes it: ``0.7``, ``70`` or ``70%`` (a number above 1
    is a percentage), from 1% to 99%."""
    written = str(text).strip()
    number = written.removesuffix("%").strip()
    try:
        value = float(number)
    except ValueError:
        value = float("nan")
    if written.endswith("%") or value > 1:
        value /= 100
    if not 0.01 <= value <= 0.99:  # also refuses nan
        raise typer.BadParameter(
            f"expected a probability from 0.01 to 0.99 (or 1 to 99, or 1% to 99%), got"
            f" {quote(written)}"
        )
    return value


#: The exact search's time limits, seconds (solve.DEFAULT_TIME_LIMIT, review.REVIEW_TIME_LIMIT
#: and solve.MAX_TIME_LIMIT, not imported: they cost start-up time; a test holds them equal).
SOLVE_TIME_LIMIT = 300.0
REVIEW_TIME_LIMIT = 300.0
MAX_TIME_LIMIT = 1e9


def time_limit_option(help: str) -> Any:
    """``--time-limit SECONDS`` for an exact search (0: no limit); ``help`` says its default."""
    return typer.Option(
        "--time-limit", metavar="SECONDS", callback=_seconds, show_default=False, help=help
    )


def _seconds(value: float) -> float:
    if not 0 <= value <= MAX_TIME_LIMIT:  # also refuses nan
        raise typer.BadParameter(f"expected seconds from 0 to {MAX_TIME_LIMIT:g}, got {value}")
    return value


def no_limit_if_zero(seconds: float) -> float | None:
    """A --time-limit as the solver's API takes it: 0 is None, no limit."""
    return seconds or None


def complete_variant(incomplete: str) -> list[str]:
    from meldcalc.rules.loading import example_names, shipped_names

    names = [*shipped_names(), *example_names()]
    return [name for name in names if name.startswith(incomplete)]


#: Arguments are described in each command's docstring ("HAND is ..."): Typer's help
#: would print their Python type beside them.
HandArgument = Annotated[
    Optional[list[str]],
    typer.Argument(show_default=False, metavar="HAND", hidden=True),
]


def trump_option(more: str = "") -> Any:
    """``--trump/-t``; ``more`` ends its help with what this command does without it."""
    help = f"Trump suit: S H D C (or ♠ ♥ ♦ ♣, spades ...){more}."
    return typer.Option("--trump", "-t", parser=parse_suit_option, metavar="SUIT", help=help)


TrumpOption = Annotated[Optional[Suit], trump_option("; default: all four")]


def variant_option(help: str = "A shipped variant's name or a path to a YAML rules file.") -> Any:
    return typer.Option(
        "--variant", "-V", metavar="NAME|FILE", help=help, autocompletion=complete_variant
    )


VariantOption = Annotated[str, variant_option()]


def file_name(text: str) -> Path:
    """A file option as typed: an empty name is refused, not read as the folder '.'."""
    if not text:
        raise typer.BadParameter(f"expected a file name, got {quote(text)}")
    return Path(text)


def seat_auction_option(what: str) -> Any:
    """``--auction SEAT:BID ...``: the auction as `hint` and `review --view` read it, each
    bid with its seat, in the order spoken; ``what`` says who reads it."""
    return typer.Option(
        "--auction",
        metavar="SEAT:BID ...",
        help="The auction, each bid as SEAT:BID or SEAT:pass in the order spoken, e.g."
        f" '1:250 2:pass 3:pass 0:260 1:pass': {what} (games with no widow and no card pass).",
        show_default=False,
    )


def all_best_option(yours: str) -> Any:
    """``--all-best``: a review names the cards as good as the one played for every card,
    not only for ``yours`` and the cards that lost points (`advice.review.review`)."""
    return typer.Option(
        "--all-best",
        help="Name the cards as good as the one played (JSON 'best') for every card, not only"
        f" for {yours} and for cards that lost points: up to twice the time.",
    )


#: ``bid``'s ``--jobs``, which spreads a big simulation over every CPU unless told.
AUTO_JOBS_HELP = (
    "Processes to use (at most the CPUs); default: every CPU where the simulation plays a"
    " million cards or more (a widow, an exchange, double deck), else one."
)


def jobs_option(help: str, **options: Any) -> Any:
    """``--jobs N`` (``-j``): processes to spread the work over, capped at the CPUs as it
    is read (so no count made from it can outgrow what the machine has)."""
    return typer.Option(
        "--jobs", "-j", min=1, metavar="N", help=help, callback=_at_most_cpus, **options
    )


def _at_most_cpus(jobs: int | None) -> int | None:
    from meldcalc.workers import worker_count

    return None if jobs is None else worker_count(jobs, jobs)


class Policy(str, enum.Enum):
    """The fast policies a play-out is played by (`meldcalc.engines.policies`)."""

    learned = "learned"
    rules = "rules"


#: `meldcalc.engines.policies.DEFAULT`, not imported (it brings numpy: start-up time); a test
#: holds them equal.
DEFAULT_POLICY = Policy.learned


def policy_option(what: str = "the simulated deals") -> Any:
    """``--policy rules|learned``: who plays ``what``."""
    return choice_option(
        "--policy",
        choices=Policy,
        metavar="POLICY",
        help=f"Who plays {what}: {{}} (learned: the rules corrected by a network learned"
        " from the look-ahead player, stronger; rules: the rules alone, 5 to 7 times the"
        ' play-outs a second; README "How the seats play").',
    )


def game_option(help: str) -> Any:
    """``--game FILE`` (``-g``): a game's ledger, as `score -g` keeps it."""
    return typer.Option("--game", "-g", metavar="FILE", parser=file_name, help=help)


def bid_option(help: str) -> Any:
    """``--bid/-b POINTS``, a bid of any variant's range."""
    return typer.Option("--bid", "-b", min=0, max=MAX_BID, metavar="POINTS", help=help)


def words(items: list[str], last: str = "or") -> str:
    """``a, b or c``: a list as a sentence says it."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def choice_parser(choices: type[enum.Enum]) -> Callable[[str], enum.Enum]:
    """A parser for an option with a fixed set of words (any case), refusing any other
    word in meldcalc's own terms: ``'xml': expected one of table, json or jsonl``."""
    by_word = {member.value.casefold(): member for member in choices}

    def parse(text: str) -> enum.Enum:
        if isinstance(text, choices):  # a default, already parsed
            return text
        try:
            return by_word[text.casefold()]
        except KeyError:
            values = [member.value for member in choices]
            hint = did_you_mean(text, values)
            raise typer.BadParameter(
                f"{quote(text)}: expected one of {words(values)}{hint}"
            ) from None

    return parse


def choice_option(*names: str, choices: type[enum.Enum], help: str, metavar: str) -> Any:
    """An option whose value is one of the words of ``choices``, the first the default:
    the help names them all; a word completes in the shell."""
    values = [member.value for member in choices]

    def complete(incomplete: str) -> list[str]:
        return [value for value in values if value.startswith(incomplete.casefold())]

    listed = words([f"{values[0]} (default)", *values[1:]])
    return typer.Option(
        *names,
        metavar=metavar,
        help=help.format(listed),
        show_default=False,
        parser=choice_parser(choices),
        autocompletion=complete,
    )


def format_option(choices: type[enum.Enum], more: str = "") -> Any:
    """``--format/-f``: ``more`` ends its help with what a format means."""
    return choice_option(
        "--format", "-f", choices=choices, help=f"Output format: {{}}{more}.", metavar="FORMAT"
    )


FormatOption = Annotated[Format, format_option(Format)]


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


def say(text: str = "", end: str = "\n") -> None:
    """A line of results on stdout (failures there become `OutputError`); on a terminal,
    sentences wider than it are wrapped (`report.fitted`)."""
    sys.stdout.write(fitted(text, sys.stdout) + end)


def fail(message: str) -> None:
    for line in message.splitlines():
        console.to_stderr(f"meldcalc: error: {line}\n")


def warn(warnings: list[str], prefix: str = "") -> None:
    for warning in warnings:
        console.to_stderr(f"meldcalc: warning: {prefix}{warning}\n")


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """The error boundary: a user's mistake is a message and exit code 2, not a traceback
    (a `WriteFailure`, such as a full disk, exit code 1)."""
    try:
        yield
    except MeldcalcError as error:
        fail(str(error))
        raise typer.Exit(error.exit_code) from None


@contextlib.contextmanager
def file_hint(given: list[str] | None, command: str, what: str = "hands") -> Iterator[None]:
    """Command-line arguments that do not parse, one of them a file's name: the error goes
    on to say how ``command`` reads a file's ``what``, one a line (README "Many hands at
    once"): ``meldcalc meld - < hands.txt``."""
    try:
        yield
    except (NotationError, HandError) as error:
        path = next((text for text in given or [] if _names_a_file(text)), None)
        if path is None:
            raise
        import shlex

        # a name with a control character or a byte that is no UTF-8 is not typed back
        shown = shlex.quote(path) if path.isprintable() else "FILE"
        raise type(error)(
            f"{error}; to read the {what} of a file, one a line, give '-' and redirect"
            f" the file: meldcalc {command} - < {shown}"
        ) from None


def _names_a_file(text: str) -> bool:
    """Whether an argument is a file's name and not cards (a file may be called ``AS``)."""
    from meldcalc.rules.cards import parse_hand

    if not os.path.isfile(text):
        return False
    try:
        parse_hand(text)
    except MeldcalcError:
        return True
    return False


def load(variant: str) -> Variant:
    from meldcalc.rules.loading import load_variant

    return load_variant(variant)


def input_lines(
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


def report_each(
    hand: list[str] | None,
    compute: Callable[[str, str | None], Any],
    writer_for: Callable[[bool], ReportWriter],
    command: str,
) -> None:
    """Run ``compute`` on the hand, or on every hand line of stdin, and write each report
    (``compute`` gets the text and the line's label, such as ``seat 1`` or ``widow``);
    ``command`` is the command's name, for a hint.

    Every input line gives one record or one error naming its line (on stderr, and in the
    output where the format keeps a record per line); the rest go on, and the exit code
    is then 2.
    """
    from meldcalc.rules.notation import misread_label, split_label

    with user_errors():
        # the writer exists before the first line is read (the lines are read lazily)
        lines = input_lines(hand, before_waiting=lambda: writer.flush())
        writer = writer_for(lines is not None)
        if lines is None:
            with file_hint(hand, command):
                report = compute(" ".join(hand or []), None)
            writer.write(report, 1)
            writer.close()
            warn(report.warnings)  # after the result: the last line on the screen
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
            if isinstance(error, NotationError):
                error = NotationError(f"{error}{misread_label(label)}")
            fail(f"line {number}: {error}")
            writer.write_error(number, str(error), label)
            continue
        warn(report.warnings, f"line {number}: ")
        writer.write(report, number, label)
    writer.close()
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)


def record_each(
    lines: Iterator[tuple[int, str | MeldcalcError]],
    key: str,
    compute: Callable[[str], dict[str, Any]],
    show: Callable[[dict[str, Any]], str],
    fmt: RecordFormat,
    jobs: int = 1,
) -> None:
    """The batch of a command whose records are not a hand's (`review`, `hint`): each
    line's record, ``{key: N, ...}``, written by ``show`` as soon as it is made (a table
    headed ``line N:``; ``json``, one array of them; ``jsonl``, one a line), in input order.
    With ``jobs`` over 1, ``compute`` (then a picklable function) runs in that many
    processes. A line that fails is one line on stderr naming it (and ``{key: N, "error":
    ...}`` in JSON); the rest go on, and the exit code is then 2."""
    from meldcalc.workers import streamed_map

    stream = RecordStream(fmt, key)
    for number, record in streamed_map(jobs, functools.partial(_computed, compute), lines):
        try:
            if isinstance(record, MeldcalcError):
                raise record
            stream.write(number, show({key: number, **record}))
        except MeldcalcError as error:
            stream.failed(number, error)
    stream.close()


def _computed(
    compute: Callable[[str], dict[str, Any]], item: tuple[int, str | MeldcalcError]
) -> tuple[int, dict[str, Any] | MeldcalcError]:
    """One batch line's record, or its error (in a worker, when there are several)."""
    number, text = item
    if isinstance(text, MeldcalcError):
        return number, text
    try:
        return number, compute(text)
    except MeldcalcError as error:
        return number, error


class RecordStream:
    """A batch's records as the format frames them, each written at once: a table headed
    ``line N:``, one JSON array, or one JSON object a line. A failed line is one line on
    stderr (and ``{key: N, "error": ...}`` in JSON); `close` exits 2 if any failed."""

    def __init__(self, fmt: RecordFormat, key: str) -> None:
        self.fmt, self.key, self.records, self.any_failed = fmt, key, 0, False
        if fmt is RecordFormat.json:
            say("[", end="")

    def write(self, number: int, shown: str) -> None:
        if self.fmt is RecordFormat.table:
            say(f"line {number}:\n{shown}\n")
        elif self.fmt is RecordFormat.json:
            say(("," if self.records else "") + "\n" + shown, end="")
        else:
            say(shown)
        self.records += 1
        sys.stdout.flush()

    def failed(self, number: int, error: MeldcalcError) -> None:
        import json

        self.any_failed = True
        fail(f"line {number}: {error}")
        if self.fmt is not RecordFormat.table:
            record = {self.key: number, "error": str(error)}
            indent = 2 if self.fmt is RecordFormat.json else None
            self.write(number, json.dumps(record, ensure_ascii=False, indent=indent))

    def close(self) -> None:
        if self.fmt is RecordFormat.json:
            say("\n]" if self.records else "]")
        if self.any_failed:
            raise typer.Exit(EXIT_BAD_INPUT)


def full_hand(text: str, rules: Variant) -> Hand:
    """A hand to simulate from: it must be a whole deal's hand."""
    from meldcalc.rules.meld import read_hand

    held, warnings = read_hand(text, rules)
    if warnings:
        raise HandError(f"{warnings[0]}: play is simulated from a full hand")
    return held


@contextlib.contextmanager
def progress_line(
    done_what: str = "simulated {} deals", after: float = 1.0, working: str = "working"
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress line on stderr, on a terminal, once a run has taken ``after`` seconds,
    cleared when the run ends. ``done_what`` words the count a run reports (``{}`` standing
    for done/total), ``working`` what it does before its first count. The seconds tick on
    the line while a long step (a whole chunk of deals, the burials judged) reports
    nothing: a run is never silent for more than a second."""
    if sys.stderr is None or not sys.stderr.isatty():  # None: closed (`2>&-`)
        yield None
        return
    line = _TickingLine(done_what, after, working)
    line.start()
    try:
        yield line.count
    finally:
        line.stop()


class _TickingLine:
    """`progress_line`'s line: written by a thread of its own every half second."""

    TICK = 0.5

    def __init__(self, done_what: str, after: float, working: str) -> None:
        import threading
        import time

        self.done_what, self.after, self.working = done_what, after, working
        self.start_time, self.counted, self.shown = time.monotonic(), "", ""
        self.widest = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        if self.after != float("inf"):
            self.thread.start()

    def count(self, done: int, total: int) -> None:
        self.counted = self.done_what.format(f"{done}/{total}")
        if self.after == 0:
            self._show()

    def stop(self) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join()
        if self.widest:  # blanks, not an escape code: a dumb terminal shows those as they are
            console.to_stderr("\r" + " " * self.widest + "\r")
        console.LINE_SHOWN.clear()

    def _run(self) -> None:
        if self.stopped.wait(self.after):
            return
        while True:
            self._show()
            if self.stopped.wait(self.TICK):
                return

    def _show(self) -> None:
        import time

        seconds = int(time.monotonic() - self.start_time)
        message = f"{self.counted or self.working}, {seconds} s" if seconds else self.counted
        if message == self.shown:
            return
        self.shown = message
        padding = " " * max(0, self.widest - len(message))
        self.widest = max(self.widest, len(message))
        console.to_stderr(f"\r{message}{padding}")
        console.LINE_SHOWN.set()
