"""The command line: thin Typer wrappers over the pure functions below it.

This is the one place that reads stdin, prints and exits. Errors of the user's making
(`MeldcalcError`) become one clear line on stderr and exit code 2; anything else is our bug
and keeps its traceback (exit code 1).
"""

from __future__ import annotations

import contextlib
import enum
import sys
from collections.abc import Iterator
from typing import Annotated, Optional

import typer

from meldcalc import __version__
from meldcalc.cards import Suit
from meldcalc.errors import MeldcalcError
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
        writer = MeldWriter(fmt, sys.stdout, batch=lines is not None)
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


def main() -> None:
    """Console-script entry point."""
    app(prog_name="meldcalc")
