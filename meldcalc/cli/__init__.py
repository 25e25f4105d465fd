"""The command line: the `meldcalc` app, one module per family of commands.

counting (`meld`), bidding (`bid`), play (`play`, `solve`), review (`review`), hint
(`hint`), scoring (`score`), learning (`table`, `check`, `variants`, `deal`), quiz; what
they share (options, input, the error boundary) is in `base`, the writers of reports in
`report`. This module joins them and runs
the app inside what the shell and the operating system may do to it.

The CLI is the one place that reads stdin, prints and exits (with `console` for what the
operating system does to the streams). Errors of the user's making (`MeldcalcError`)
become one clear line on stderr and exit code 2; anything else is our bug and keeps its
traceback (exit code 1).
"""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer

from meldcalc import __version__, console
from meldcalc.cli.base import app, fail, say
from meldcalc.console import EXIT_FAILURE, OutputError

# isort: off
# Each family registers its commands on `app` as it is imported: this is the order in
# which `meldcalc --help` lists them.
from meldcalc.cli import counting, learning, quiz, bidding, play, review, hint, scoring, game  # noqa: F401
# isort: on

__all__ = ["app", "main"]


def _version(value: bool) -> None:
    """The version, and whether this install has the exact solver: an install without a C
    compiler goes ahead without it, and pip says so only in output it hides."""
    if value:
        from importlib.util import find_spec

        built = find_spec("meldcalc.engines._solver") is not None
        solver = "built" if built else "not built (solve, review, --endgame and --strong need it)"
        say(f"meldcalc {__version__}\nexact solver: {solver}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Pinochle meld and bid calculator: count meld exactly, estimate bids."""


def _register_only(first: list[str]) -> None:
    """Build only the command being run: Typer turns every command's signature into a
    parser on each start, a cost paid on every hand of a shell loop. Help, the version
    and shell completion still see every command."""
    import os

    names = {command.callback.__name__: command for command in app.registered_commands}
    if first and first[0] in names and "_MELDCALC_COMPLETE" not in os.environ:
        app.registered_commands[:] = [names[first[0]]]


#: A dash then a blank or a slash: no option is spelt so, a position whose first seat has
#: played out is (``- / KS / QS / JS``).
_DASH_HAND = re.compile(r"-[\s/]")


def _not_options(args: list[str]) -> list[str]:
    """The arguments, with those that only look like options (``- / KS ...``) kept as
    arguments: the parser would refuse them as unknown options."""
    return [f" {arg}" if _DASH_HAND.match(arg) else arg for arg in args]


def usage_line(error: typer.TyperException) -> str:
    """A usage error in meldcalc's words: what was wrong, and where to read how (the
    command's help), in the one-line style of every other error."""
    message = " ".join(error.format_message().split()).rstrip(".")
    message = message[:1].lower() + message[1:]
    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else "meldcalc"
    return f"{message} (see '{command} --help')"


def main() -> None:
    """Console-script entry point: the app, inside what the shell and the OS may do to it."""
    sys.exit(_run())


def _run() -> int:
    problem = console.prepare_streams()
    if problem is not None:
        fail(problem)
        return EXIT_FAILURE
    console.end_on_signals()
    _register_only(sys.argv[1:2])
    try:
        code = app(_not_options(sys.argv[1:]), prog_name="meldcalc", standalone_mode=False)
        sys.stdout.flush()
    except OutputError as error:
        console.silence_stdout()
        if error.closed_pipe:
            return console.EXIT_CLOSED_PIPE
        fail(f"cannot write to standard output: {error}")
        return EXIT_FAILURE
    except typer.TyperException as error:  # a usage error: one line, as every other error
        if type(error).__name__ == "NoArgsIsHelpError":  # bare `meldcalc`: the help, whole
            console.to_stderr(error.format_message() + "\n")  # (Typer's private class)
        else:
            fail(usage_line(error))
        return error.exit_code
    except (typer.Abort, KeyboardInterrupt):
        return console.EXIT_INTERRUPTED
    return code if isinstance(code, int) else 0
