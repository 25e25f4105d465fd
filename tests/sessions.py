"""`meldcalc game` run as a player runs it, for the tests of the game and of its journal."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

#: Where subprocesses run: away from the checkout, so `python -m meldcalc` imports the
#: installed package (with its built solver), not the source tree.
AWAY = Path(__file__).resolve().parent


def run_game(ledger: Path, steps: list[str], *options: str) -> subprocess.CompletedProcess:
    """`meldcalc game LEDGER --seat 0`, the steps piped in one a line."""
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", "game", str(ledger), "--seat", "0", *options],
        input="\n".join(steps) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=AWAY,
    )


def read_until(fd: int, wanted: str, seconds: float = 30) -> str:
    """What a pseudo-terminal shows until ``wanted`` appears (or ``seconds`` pass)."""
    import select

    seen, deadline = "", time.monotonic() + seconds
    while wanted not in seen and (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            break
        try:
            seen += os.read(fd, 4096).decode(errors="replace")
        except OSError:
            break
    return seen


def waiting_for_input(pid: int, seconds: float = 10) -> None:
    """Until process ``pid`` sleeps waiting for input (Linux: in select or poll), as a
    player's key comes long after the prompt. Python's readline draws the prompt, then
    waits in select(); a Ctrl-C in the microseconds between is noted but not acted on
    until the next line (CPython checks signals only when select is interrupted), so a
    test that answers the prompt at machine speed would wait on a signal already spent."""
    deadline = time.monotonic() + seconds
    wchan = f"/proc/{pid}/wchan"
    while time.monotonic() < deadline:
        try:
            with open(wchan) as channel:
                if any(word in channel.read() for word in ("select", "poll")):
                    return
        except OSError:
            return  # no /proc, or the process is gone: nothing to wait for
        time.sleep(0.01)


def typed_at_prompt(pid: int, fd: int, prompt: str, keys: bytes, seconds: float = 30) -> str:
    """``keys`` typed at a pseudo-terminal once the run shows ``prompt`` and waits for a
    key; what it shows after them, to its end (or ``seconds``)."""
    read_until(fd, prompt, 60)
    waiting_for_input(pid)
    os.write(fd, keys)
    return read_until(fd, "\0 a text no run shows: read to the end", seconds)
