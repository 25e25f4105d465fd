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
from typing import Annotated, Optional

import typer

from meldcalc import __version__
from meldcalc.cards import Suit
from meldcalc.errors import MeldcalcError, VariantError
from meldcalc.output import Format
from meldcalc.variant import DEFAULT_VARIANT, Variant

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
        lines = _input_lines(hand)
        writer = MeldWriter(fmt, sys.stdout, batch=lines is not None, explain=explain)
        if lines is None:
            report = meld_report(" ".join(hand or []), rules, chosen, strict)
            _warn(report.warnings)
            writer.write(report, 1)
            writer.close()
            return
    failed = False
    for number, text in lines:
        try:
            report = meld_report(text, rules, chosen, strict)
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


def main() -> None:
    """Console-script entry point."""
    app(prog_name="meldcalc")
