"""The errors meldcalc raises for bad input. Anything else is a bug of ours."""


class MeldcalcError(ValueError):
    """Bad input from the user: the CLI prints the message and exits with code 2."""


class NotationError(MeldcalcError):
    """Text that is not a hand: names the token, where it stands and what was expected."""


class HandError(MeldcalcError):
    """A hand that parses but cannot exist in the variant (three A♠ in a single deck)."""


class VariantError(MeldcalcError):
    """A bad variant file. Carries every problem found, each as a linter-style line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class UnsupportedError(MeldcalcError):
    """A request the chosen variant's rules do not allow (a bid in a game without auction)."""
