"""The command line: thin Typer wrappers over the pure functions below it.

This is the one place that reads stdin, prints and exits. Errors of the user's making
(`MeldcalcError`) become one clear line on stderr and exit code 2; anything else is our bug
and keeps its traceback (exit code 1).
"""

from __future__ import annotations

import contextlib
import enum
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from meldcalc import __version__
from meldcalc.cards import Hand, Suit
from meldcalc.errors import HandError, MeldcalcError, VariantError
from meldcalc.output import Format
from meldcalc.variant import DEFAULT_VARIANT, Variant

if TYPE_CHECKING:
    from meldcalc.output import ReportWriter

app = typer.Typer(
    help="Pinochle meld and bid calculator: count meld exactly, estimate bids.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)

EXIT_BAD_INPUT = 2


class TrumpChoice(str, enum.Enum):
    S = "S"
    H = "H"
    D = "D"
    C = "C"

    @property
    def suit(self) -> Suit:
        return Suit(self.value)


def _complete_variant(incomplete: str) -> list[str]:
    from meldcalc.variant import shipped_names

    return [name for name in shipped_names() if name.startswith(incomplete)]


HandArgument = Annotated[
    Optional[list[str]],
    typer.Argument(
        help="The hand, e.g. 'AS 10S KS QS JS JD' or 'S: A 10 K Q J D: J' (quotes optional)."
        " '-' or a pipe on stdin: one hand per line.",
        show_default=False,
    ),
]
TrumpOption = Annotated[
    Optional[TrumpChoice],
    typer.Option("--trump", "-t", case_sensitive=False, help="Trump suit; default: all four."),
]
VariantOption = Annotated[
    str,
    typer.Option(
        "--variant",
        "-V",
        help="A shipped variant's name or a path to a YAML rules file.",
        autocompletion=_complete_variant,
    ),
]
FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
]
StrictOption = Annotated[
    bool, typer.Option("--strict", help="A hand of the wrong size is an error, not a warning.")
]
ExplainOption = Annotated[
    bool,
    typer.Option("--explain", help="Say in words why the total is what it is, and near misses."),
]
SeedOption = Annotated[
    Optional[int], typer.Option("--seed", "-s", help="Random seed: the same seed, the same cards.")
]


class ListFormat(str, enum.Enum):
    table = "table"
    json = "json"


class TableFormat(str, enum.Enum):
    table = "table"
    markdown = "markdown"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"meldcalc {__version__}")
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
        typer.echo(f"meldcalc: error: {line}", err=True)


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


def _input_lines(hand: list[str] | None) -> Iterator[tuple[int, str]] | None:
    """Numbered hand lines for batch mode, or None when the hand is on the command line."""
    if hand == ["-"] or (not hand and not sys.stdin.isatty()):
        return (
            (number, line.strip())
            for number, line in enumerate(sys.stdin, start=1)
            if line.strip() and not line.lstrip().startswith("#")
        )
    if not hand:
        raise MeldcalcError("no hand given: pass one, e.g. 'AS 10S KS', or '-' to read stdin")
    return None


@app.command()
def meld(
    hand: HandArgument = None,
    trump: TrumpOption = None,
    variant: VariantOption = DEFAULT_VARIANT,
    fmt: FormatOption = Format.table,
    strict: StrictOption = False,
    explain: ExplainOption = False,
) -> None:
    """Count the best meld of a hand, under one trump or under each (best named first).

    Example: meldcalc meld "AS 10S KS QS JS JD" --trump S
    """
    from meldcalc.meld import meld_report
    from meldcalc.output import MeldWriter

    with _user_errors():
        rules = _load(variant)
    chosen = trump.suit if trump else None
    _report_each(
        hand,
        lambda text: meld_report(text, rules, chosen, strict),
        lambda batch: MeldWriter(fmt, sys.stdout, batch, explain=explain),
    )


def _report_each(
    hand: list[str] | None,
    compute: Callable[[str], Any],
    writer_for: Callable[[bool], ReportWriter],
) -> None:
    """Run ``compute`` on the hand, or on every hand line of stdin, and write each report.

    A bad line is reported with its number on stderr and the rest go on; the exit code is
    then 2.
    """
    with _user_errors():
        lines = _input_lines(hand)
        writer = writer_for(lines is not None)
        if lines is None:
            report = compute(" ".join(hand or []))
            _warn(report.warnings)
            writer.write(report, 1)
            writer.close()
            return
    failed = False
    for number, text in lines:
        try:
            report = compute(text)
        except MeldcalcError as error:
            failed = True
            _fail(f"line {number}: {error}")
            continue
        _warn(report.warnings, f"line {number}: ")
        writer.write(report, number)
    writer.close()
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)


def _warn(warnings: list[str], prefix: str = "") -> None:
    for warning in warnings:
        typer.echo(f"meldcalc: warning: {prefix}{warning}", err=True)


@app.command()
def variants(fmt: Annotated[ListFormat, typer.Option("--format", "-f")] = ListFormat.table) -> None:
    """List the shipped rule variants.

    Example: meldcalc variants
    """
    from meldcalc.output import variants_table
    from meldcalc.tables import shipped_summaries

    with _user_errors():
        rows = shipped_summaries()
    if fmt is ListFormat.json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        typer.echo(variants_table(rows))


@app.command()
def table(
    variant: Annotated[
        str,
        typer.Argument(
            help="A shipped variant's name or a path.", autocompletion=_complete_variant
        ),
    ] = DEFAULT_VARIANT,
    fmt: Annotated[TableFormat, typer.Option("--format", "-f")] = TableFormat.table,
) -> None:
    """Show a variant's whole scoring table: melds by class, tricks, bidding, play.

    Example: meldcalc table double-deck --format markdown
    """
    from meldcalc.output import scoring_text
    from meldcalc.tables import scoring_table

    with _user_errors():
        data = scoring_table(_load(variant))
    if fmt is TableFormat.json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        typer.echo(scoring_text(data, markdown=fmt is TableFormat.markdown))


@app.command()
def check(
    files: Annotated[list[str], typer.Argument(help="Variant files to validate.")],
) -> None:
    """Validate house-rules files; every problem as file:line:column: key: message.

    Example: meldcalc check house.yaml
    """
    from meldcalc.variant import load_variant_file

    bad = 0
    for file in files:
        try:
            variant = load_variant_file(Path(file))
        except VariantError as error:
            bad += 1
            for problem in error.problems:
                typer.echo(problem)
        else:
            typer.echo(f"{file}: ok ({variant.name}: {variant.title})")
    typer.echo(f"{len(files)} file(s) checked, {bad} with problems", err=True)
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command()
def deal(
    variant: VariantOption = DEFAULT_VARIANT,
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many.")] = 1,
    seed: SeedOption = None,
    players: Annotated[
        bool, typer.Option("--players", help="Show every seat of each deal (and the widow).")
    ] = False,
) -> None:
    """Deal random hands, one per line, in the notation meld reads.

    Example: meldcalc deal -n 1000 --seed 7 | meldcalc meld -f jsonl
    """
    from meldcalc.deal import deals

    with _user_errors():
        rules = _load(variant)
    for number, dealt in enumerate(deals(rules, count, seed), start=1):
        if not players:
            typer.echo(dealt.hands[0].notation())
            continue
        if count > 1:
            typer.echo(f"deal {number}")
        for seat, hand in enumerate(dealt.hands, start=1):
            typer.echo(f"seat {seat}: {hand.notation()}")
        if len(dealt.widow):
            typer.echo(f"widow: {dealt.widow.notation()}")
        if len(dealt.stock):
            typer.echo(f"stock: {dealt.stock.notation()}")


@app.command()
def quiz(
    variant: VariantOption = DEFAULT_VARIANT,
    rounds: Annotated[int, typer.Option("--rounds", "-n", min=1, help="Questions to ask.")] = 5,
    seed: SeedOption = None,
) -> None:
    """Practise counting meld: a hand and a trump, your total, the right answer explained.

    Example: meldcalc quiz --rounds 3 --seed 1
    """
    from meldcalc.explain import explain
    from meldcalc.quiz import Score, questions, read_answer

    with _user_errors():
        rules = _load(variant)
    score = Score()
    for question in questions(rules, rounds, seed):
        typer.echo(question.prompt(), nl=False)
        answer = _ask(read_answer)
        if answer is None:
            typer.echo("\n(no more answers: the quiz ends here)")
            break
        correct = answer == question.answer.total
        score.record(correct)
        verdict = "right" if correct else f"wrong: it is {question.answer.total}"
        typer.echo(f"{verdict}.")
        for line in explain(question.hand, rules, question.answer):
            typer.echo(f"  {line}")
        typer.echo("")
    typer.echo(score.summary())


def _ask(parse: Callable[[str], int]) -> int | None:
    """Read answers from stdin until one parses; None at the end of input."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        if not sys.stdin.isatty():  # show piped answers, so the transcript reads well
            typer.echo(line.strip())
        try:
            return parse(line)
        except MeldcalcError as error:
            typer.echo(f"{error}; try again: ", nl=False)


class PlayFormat(str, enum.Enum):
    table = "table"
    json = "json"


@app.command()
def bid(
    hand: HandArgument = None,
    variant: VariantOption = DEFAULT_VARIANT,
    trump: TrumpOption = None,
    deals: Annotated[
        int, typer.Option("--deals", "-n", min=1, help="Simulated deals per trump.")
    ] = 2000,
    seed: SeedOption = None,
    confidence: Annotated[
        float,
        typer.Option("--confidence", "-c", min=0.01, max=0.99, help="P(make) a bid must reach."),
    ] = 0.7,
    fmt: FormatOption = Format.table,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Processes to use.")] = 1,
) -> None:
    """Estimate trick points by simulating the unseen cards, and suggest a bid with its odds.

    Example: meldcalc bid "AS 10S KS QS JS JD 9S AH AD AC KH QH" --seed 7
    """
    from meldcalc.bidding import check_biddable_variant, estimate
    from meldcalc.output import BidWriter

    with _user_errors():
        rules = _load(variant)
        check_biddable_variant(rules)
    trumps = [trump.suit] if trump else None

    def compute(text: str) -> object:
        return estimate(
            _full_hand(text, rules), rules, deals, seed, trumps, confidence, jobs, _progress()
        )

    _report_each(hand, compute, lambda batch: BidWriter(fmt, sys.stdout, batch))


def _full_hand(text: str, rules: Variant) -> Hand:
    """A hand to simulate from: it must be a whole deal's hand."""
    from meldcalc.meld import read_hand

    held, warnings = read_hand(text, rules)
    if warnings:
        raise HandError(f"{warnings[0]}: play is simulated from a full hand")
    return held


def _progress() -> Callable[[int, int], None] | None:
    """A progress line on stderr, on a terminal, once a run has taken over a second."""
    if not sys.stderr.isatty():
        return None
    import time

    start = time.monotonic()

    def show(done: int, total: int) -> None:
        if time.monotonic() - start > 1:
            end = "\n" if done >= total else ""
            sys.stderr.write(f"\rsimulated {done}/{total} deals{end}")
            sys.stderr.flush()

    return show


@app.command()
def play(
    trump: Annotated[
        TrumpChoice, typer.Option("--trump", "-t", case_sensitive=False, help="Trump suit.")
    ],
    hand: HandArgument = None,
    variant: VariantOption = DEFAULT_VARIANT,
    seed: SeedOption = None,
    fmt: Annotated[PlayFormat, typer.Option("--format", "-f")] = PlayFormat.table,
) -> None:
    """Play one simulated deal of the hand (seat 0, leading) and show it trick by trick.

    Example: meldcalc play "AS 10S KS QS JS JD 9S AH AD AC KH QH" -t S --seed 3
    """
    import secrets

    from meldcalc.bidding import play_one
    from meldcalc.output import played_json, played_table

    with _user_errors():
        rules = _load(variant)
        held = _full_hand(" ".join(hand or []), rules)
        deal = play_one(held, rules, trump.suit, secrets.randbelow(2**31) if seed is None else seed)
    if fmt is PlayFormat.json:
        typer.echo(json.dumps(played_json(deal), indent=2, ensure_ascii=False))
    else:
        typer.echo(played_table(deal))


def main() -> None:
    """Console-script entry point."""
    app(prog_name="meldcalc")
