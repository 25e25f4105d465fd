"""The errors meldcalc raises for bad input. Anything else is a bug of ours."""

from __future__ import annotations

from collections.abc import Iterable

#: Quoted input is cut to this many characters: a message must stay readable whatever was typed.
QUOTE_LIMIT = 40


class MeldcalcError(ValueError):
    """Bad input from the user: the CLI prints the message and exits with code 2."""

    exit_code = 2


class MeldcalcWarning(UserWarning):
    """What the command line prints as a warning (a hand of another size than a deal's),
    said to a script through `warnings`."""


class NotationError(MeldcalcError):
    """Text that is not a hand: names the token, where it stands and what was expected."""


class HandError(MeldcalcError):
    """A hand that parses but cannot exist in the variant (three A♠ in a single deck)."""


class VariantError(MeldcalcError):
    """A bad variant file. Carries every problem found, each as a linter-style line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class WriteFailure(MeldcalcError):
    """Not a mistake in the input: a file meldcalc must add to could not be written (the
    disk full, a quota, a file-size limit). The CLI prints the message and exits with code 1."""

    exit_code = 1


class KnowledgeError(MeldcalcError):
    """What the table is told that no deal can match: a contradiction with the hand or the
    deck, or layouts too rare to sample."""


class UnsupportedError(MeldcalcError):
    """A request the chosen variant's rules do not allow (a bid in a game without auction)."""


class TimeLimitError(MeldcalcError):
    """An exact search that reached its time limit and stopped: nothing it had not finished
    is reported. ``limit`` is the limit in seconds; ``done`` says what was finished, if
    anything worth saying ("3 of 12 tricks reviewed")."""

    def __init__(self, limit: float, done: str = "") -> None:
        finished = f" ({done})" if done else ""
        super().__init__(
            f"the exact search stopped at its time limit of {limit:g} s{finished}: allow it"
            " more time, or give it fewer tricks to solve"
        )
        self.limit, self.done = limit, done

    def __reduce__(self) -> tuple:  # through a worker process's pipe with its fields
        return TimeLimitError, (self.limit, self.done)


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to a readable length: ``'AAAA…' (10000000 characters)``."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else f"{text[:limit]}… ({len(text)} characters)"


def shown_path(path: object) -> str:
    """A file name as the start of a message: as written when it is plain, else quoted."""
    text = str(path)
    return text if text.isprintable() and len(text) <= 200 else quote(text, 200)


def did_you_mean(text: str, names: Iterable[str]) -> str:
    """``; did you mean 'single-deck'?`` when ``text`` is a near miss of one of ``names``
    (in any case), to end a message with; else nothing."""
    near = nearest(text, names)
    return f"; did you mean {near!r}?" if near is not None else ""


def nearest(text: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` that ``text`` is a near miss of (in any case), or None."""
    import difflib

    by_key = {name.casefold(): name for name in names}
    typed = text.strip().casefold()
    for digit, word in (("2", "two"), ("3", "three"), ("4", "four")):  # '3handed'
        typed = typed.replace(digit, word)
    # close only: a looser match sends '3-handed' to 'two-handed', 'house' to 'firehouse'
    close = difflib.get_close_matches(typed, by_key, n=1, cutoff=0.8)
    return by_key[close[0]] if close else None
