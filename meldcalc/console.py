"""The command line's side of the operating system: standard streams, signals, exit codes.

Part of the CLI layer (only `cli` uses it). Its job is that nothing the shell or the OS can
do ends in a traceback or in lost input:

- stdin is read as bytes, a line at a time, and each line decoded on its own, so one bad
  byte is one bad line (``line N: ...``) whatever the locale, and a huge line is refused
  without reading it into memory;
- writes to stdout that fail become `OutputError`: a closed pipe (``| head -1``) ends the
  run quietly with 141, as other Unix tools do; a full disk or a closed stdout is one line
  on stderr and exit code 1;
- SIGTERM and Ctrl-C end the run, and its worker processes, with 143 and 130;
- on a terminal that cannot show suit symbols or bar charts (ASCII, Latin-1), they are
  written in plain characters (``S``, ``#``) rather than as escapes.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, TextIO

from meldcalc.errors import MeldcalcError, NotationError

#: Set while a progress line (`cli.base.progress_line`) stands on stderr unfinished: a
#: run ended by a signal ends that line first.
LINE_SHOWN = threading.Event()

EXIT_OK = 0
EXIT_FAILURE = 1  # the run could not finish: output not writable, or a bug of ours
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # Ctrl-C
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: the reader went away
EXIT_TERMINATED = 143  # 128 + SIGTERM

#: A line of stdin longer than this is an error, not a reason to fill the memory.
MAX_LINE_BYTES = 64 * 1024


class OutputError(Exception):
    """Writing the results failed (closed pipe, full disk, closed stdout).

    Deliberately not an `OSError`: the layers between a command and `main` (Typer) treat
    those in ways of their own."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.errno = error.errno

    @property
    def closed_pipe(self) -> bool:
        return self.errno == errno.EPIPE


class GuardedStream:
    """A text stream whose failed writes raise `OutputError`; everything else passes through."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as error:
            raise OutputError(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputError(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


#: What the output's own non-ASCII characters become where the terminal cannot show them.
PLAIN = str.maketrans(
    {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "\ufe0f": "", "…": "...", "±": "+-"}
    | {"▲": "^", "←": "<-", "▁": ".", "▂": ",", "▃": ":", "▄": "-", "▅": "=", "▆": "+"}
    | {"▇": "*", "█": "#"}
)


def _plainly(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: our symbols in plain characters, anything else (a user's text
    echoed back) as a backslash escape."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end].translate(PLAIN)
    return text.encode("ascii", "backslashreplace").decode("ascii"), error.end


codecs.register_error("meldcalc-plain", _plainly)


def prepare_streams() -> str | None:
    """Make stdout safe to write to; what is wrong with it if it cannot be used at all."""
    if sys.stdout is None:
        return "standard output is closed: there is nowhere to write the output"
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:  # a suit symbol on a Latin-1 terminal is not fatal
            reconfigure(errors="meldcalc-plain")
    sys.stdout = GuardedStream(sys.stdout)  # type: ignore[assignment]
    return None


def to_stderr(text: str) -> None:
    """A message on stderr. Where stderr cannot take it (closed, a full disk) the run goes
    on without its messages: the results on stdout matter more."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (nothing more to say, nor to flush)


def silence_stdout() -> None:
    """After a closed pipe: nothing more can be written, so stop Python trying at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
    except (OSError, ValueError):
        pass


def end_on_signals() -> None:
    """SIGTERM, Ctrl-C and Ctrl-\\ end the run at once (143, 130, 131), worker processes
    first, with no core dump; a file-size limit (``ulimit -f``) is a write that fails, not
    a kill in mid-line.

    At once: unwinding through a process pool is not safe here (its terminate() waits on a
    lock an idle worker holds while it waits for work), and there is nothing to save; but
    the terminal is left as the run found it (`_terminal_restorer`)."""
    restore_terminal = _terminal_restorer()
    # A signal is handled by Python in the main thread, but the kernel gives it to any
    # thread: to one of OpenBLAS's idle threads (numpy starts them at import), the main
    # thread, waiting in readline's select() at `game`'s prompt, never woke and Ctrl-C was
    # lost. One BLAS thread starts none; meldcalc's matrices are small (no time lost).
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    def handler(signum: int, frame: object) -> None:
        for _ in range(5):  # a pool's thread may start a worker meanwhile: look again
            children = _children()
            if not children:
                break
            for pid in children:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)  # reaped here: not every init reaps orphans
        restore_terminal()
        # a progress line, or a key pressed at a terminal (a prompt's line, the ^C echoed):
        # end the line, or the shell's prompt follows it there (as a shell does for a run a
        # signal killed, which this one, ending itself, is not)
        keyed = signum != signal.SIGTERM and os.isatty(2)
        if LINE_SHOWN.is_set() or keyed:
            with contextlib.suppress(OSError):
                os.write(2, b"\n")
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    if hasattr(signal, "SIGQUIT"):  # Ctrl-\: as Ctrl-C (131), the terminal restored too
        signal.signal(signal.SIGQUIT, handler)
    if hasattr(signal, "SIGXFSZ"):  # ignored, a write past the limit fails with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _terminal_restorer() -> Callable[[], None]:
    """What puts a terminal on stdin back as the run found it, if the run changed it, and
    ends the line typed: the prompt's line editing (readline) turns echo off while it
    reads, and `os._exit` skips its restore (a Ctrl-C at `game`'s prompt left the shell
    typing blind)."""
    try:
        fd = sys.stdin.fileno()  # no stdin (None), or one closed or replaced
        if not os.isatty(fd):
            return lambda: None
        import termios  # Unix alone: imported only at a terminal
    except (AttributeError, OSError, ValueError, ImportError):
        return lambda: None
    try:
        found = termios.tcgetattr(fd)
    except termios.error:
        return lambda: None

    def restore() -> None:
        with contextlib.suppress(OSError, termios.error):
            # as found, and from the foreground only: a job in the background setting the
            # terminal would be stopped (SIGTTOU), not ended
            if termios.tcgetattr(fd) == found or os.tcgetpgrp(fd) != os.getpgrp():
                return
            termios.tcsetattr(fd, termios.TCSANOW, found)
            if os.isatty(2):
                os.write(2, b"\n")  # the line typed ends: the shell's prompt starts a new one

    return restore


def _children() -> set[int]:
    """This process's children: those multiprocessing started, and on Linux any other
    (one still being started is not on multiprocessing's list yet)."""
    processes = sys.modules.get("multiprocessing")
    found = {child.pid for child in processes.active_children()} if processes else set()
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as listing:
                found.update(int(pid) for pid in listing.read().split())
    found.discard(None)
    return found


def stdin_is_piped() -> bool:
    return sys.stdin is not None and not sys.stdin.isatty()


def stdin_bytes(expected: str = "hands, one per line") -> BinaryIO:
    """Standard input as bytes; a `MeldcalcError` naming what was ``expected`` when it is
    closed."""
    if sys.stdin is None:
        raise MeldcalcError(f"standard input is closed: expected {expected}")
    return getattr(sys.stdin, "buffer", None) or _Encoded(sys.stdin)


class _Encoded:
    """A text stream read as UTF-8 bytes (tests hand a StringIO as stdin)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> bytes:
        return self._stream.read(size).encode()


#: Bytes asked of stdin at a time (a pipe holds at most this much).
CHUNK_BYTES = 64 * 1024


def read_lines(
    stream: BinaryIO, before_waiting: Callable[[], None] | None = None
) -> Iterator[tuple[int, str | MeldcalcError]]:
    """Every line of ``stream`` with its number: its text (without the line break), or the
    error that makes it unreadable. Read a chunk at a time, so memory stays flat however
    long the input; before each read that may wait for more, ``before_waiting`` runs (the
    CLI writes out its results there, so a program that sends a line and waits for the
    answer gets it). A byte-order mark at the very start is dropped."""
    read = getattr(stream, "read1", stream.read)
    number, partial, skipping = 0, b"", False
    while True:
        if before_waiting is not None:
            before_waiting()
        chunk = read(CHUNK_BYTES)
        if not chunk:
            break
        *complete, partial = (partial + chunk).split(b"\n")
        for raw in complete:
            if skipping:  # the end of a line already reported as too long
                skipping = False
                continue
            number += 1
            yield number, _line(raw, number)
        if skipping:
            partial = b""
        elif len(partial) > MAX_LINE_BYTES:
            number += 1
            yield number, _too_long()
            partial, skipping = b"", True
    if partial and not skipping:
        yield number + 1, _line(partial, number + 1)


def _line(raw: bytes, number: int) -> str | MeldcalcError:
    if len(raw) > MAX_LINE_BYTES:
        return _too_long()
    text = decode_line(raw)
    if number == 1 and isinstance(text, str):
        return text.removeprefix("\ufeff")  # a byte-order mark (Windows editors write one)
    return text


def _too_long() -> NotationError:
    return NotationError(f"the line is longer than {MAX_LINE_BYTES} bytes")


def decode_line(raw: bytes) -> str | MeldcalcError:
    """The text of one line of input, which must be UTF-8."""
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as error:
        column = len(raw[: error.start].decode("utf-8", "replace")) + 1
        return NotationError(
            f"byte 0x{raw[error.start]:02x} at column {column} is not UTF-8: expected text"
        )
