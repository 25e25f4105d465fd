"""Work spread over processes (``--jobs``), ended cleanly however the run ends.

`worker_map` yields an ordered ``map``: the plain one for a single job, else one over a
process pool, terminated if the run fails. Workers leave signals to the parent (the CLI
ends the run on SIGTERM and Ctrl-C by killing them first: `console.end_on_signals`), and
on Linux each asks to die with its parent should the parent be killed outright.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator


def worker_count(jobs: int, tasks: int) -> int:
    """Processes worth starting: never more than asked, than tasks, or than CPUs."""
    return max(1, min(jobs, tasks, os.cpu_count() or 1))


@contextlib.contextmanager
def worker_map(jobs: int, tasks: int) -> Iterator[Callable]:
    """``map``, or an ordered map over worker processes when more than one job is useful."""
    workers = worker_count(jobs, tasks)
    if workers <= 1:
        yield map
        return
    import multiprocessing

    parent = os.getpid()
    with multiprocessing.Pool(workers, initializer=_die_with_parent, initargs=(parent,)) as pool:
        yield pool.imap


def streamed_map(jobs: int, task: Callable, items: Iterable) -> Iterator:
    """``map(task, items)`` in input order over ``jobs`` processes, reading the input a
    window at a time (8 items a job; one job answers each item as it comes): a pool's
    ordered map reads its whole input ahead, which a million-line batch cannot afford."""
    items = iter(items)
    jobs = worker_count(jobs, jobs)
    window = 1 if jobs == 1 else 8 * jobs
    with worker_map(jobs, jobs) as run:
        while batch := list(itertools.islice(items, window)):
            yield from run(task, batch)


def _die_with_parent(parent: int) -> None:
    """In a worker: signals are the parent's business, and on Linux ask for SIGTERM when
    the parent dies (prctl PR_SET_PDEATHSIG). A worker started just as the parent was
    ending finds it gone (its parent is no longer ``parent``) and ends at once."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's exit handler
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)
