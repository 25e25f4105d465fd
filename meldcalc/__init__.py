"""meldcalc: the pinochle meld and bid calculator.

The few names a script or a notebook needs, over the layers below (README "Using meldcalc
from Python")::

    >>> import meldcalc
    >>> hand = meldcalc.Hand.parse("AS 10S KS QS JS JD 9S 9S AH AD AC KH")
    >>> meldcalc.best_meld(hand, meldcalc.load_variant("single-deck"), meldcalc.Suit.SPADES).total
    310

Each name is imported on first use, so `import meldcalc` costs nothing at start-up (the
command line imports only what its command needs). The layers, lowest first: `rules`,
`dealing`, `engines`, `advice`, `learning`, `game`, then `cli`; tests/test_structure.py
keeps every import pointing down.

The functions of the face check their arguments as the command line checks its input
(`meldcalc.rules.arguments`): a value of the wrong type is a `TypeError`; a value the
command line would refuse, a `MeldcalcError` with its words; what it would warn of, a
`MeldcalcWarning` (a bid's report keeps its warnings, as the command prints them). Most
are the functions of their layer, which check their own arguments; `best_meld` is checked
here, as the layers below call theirs with hands of any size, many times a bid.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.3.0"

#: Each name of the face and the module it comes from.
_FACE = {
    "Card": "meldcalc.rules.cards",
    "Hand": "meldcalc.rules.cards",
    "Suit": "meldcalc.rules.cards",
    "Variant": "meldcalc.rules.variant",
    "load_variant": "meldcalc.rules.loading",
    "MeldResult": "meldcalc.rules.meld",
    "BidReport": "meldcalc.advice.bidding",
    "estimate_bid": "meldcalc.advice.bidding",
    "Position": "meldcalc.engines.solve",
    "Solution": "meldcalc.engines.solve",
    "parse_position": "meldcalc.engines.solve",
    "solve": "meldcalc.engines.solve",
    "MeldcalcError": "meldcalc.errors",
    "NotationError": "meldcalc.errors",
    "HandError": "meldcalc.errors",
    "VariantError": "meldcalc.errors",
    "UnsupportedError": "meldcalc.errors",
    "KnowledgeError": "meldcalc.errors",
    "TimeLimitError": "meldcalc.errors",
    "MeldcalcWarning": "meldcalc.errors",
}
#: Face names that differ from the name in their module.
_RENAMED = {"estimate_bid": "estimate"}

__all__ = [  # noqa: RUF022 (in the order of _FACE)
    "__version__",
    "Card",
    "Hand",
    "Suit",
    "Variant",
    "load_variant",
    "MeldResult",
    "best_meld",
    "best_meld_all_trumps",
    "BidReport",
    "estimate_bid",
    "Position",
    "Solution",
    "parse_position",
    "solve",
    "MeldcalcError",
    "NotationError",
    "HandError",
    "VariantError",
    "UnsupportedError",
    "KnowledgeError",
    "TimeLimitError",
    "MeldcalcWarning",
]

if TYPE_CHECKING:
    from meldcalc.advice.bidding import BidReport
    from meldcalc.advice.bidding import estimate as estimate_bid
    from meldcalc.engines.solve import Position, Solution, parse_position, solve
    from meldcalc.errors import (
        HandError,
        KnowledgeError,
        MeldcalcError,
        MeldcalcWarning,
        NotationError,
        TimeLimitError,
        UnsupportedError,
        VariantError,
    )
    from meldcalc.rules.cards import Card, Hand, Suit
    from meldcalc.rules.loading import load_variant
    from meldcalc.rules.meld import MeldResult
    from meldcalc.rules.variant import Variant


def best_meld(hand: Hand, variant: Variant, trump: Suit) -> MeldResult:
    """The best meld of ``hand`` under ``trump`` by ``variant``'s table, the hand checked as
    `meldcalc meld` checks it: cards the deck holds, no more copies than it has
    (`HandError`); a size other than a deal's is a `MeldcalcWarning`."""
    from meldcalc.rules import arguments, meld

    rules = arguments.variant(variant)
    arguments.warn(arguments.hand(hand, rules))
    return meld.best_meld(hand, rules, arguments.suit(trump))


def best_meld_all_trumps(hand: Hand, variant: Variant) -> list[MeldResult]:
    """`best_meld` under each of the four trumps, best first (ties in suit order S H D C)."""
    from meldcalc.rules import arguments, meld

    rules = arguments.variant(variant)
    arguments.warn(arguments.hand(hand, rules))
    return meld.best_meld_all_trumps(hand, rules)


def __getattr__(name: str) -> object:
    if name not in _FACE:
        raise AttributeError(f"module 'meldcalc' has no attribute {name!r}")
    value = getattr(import_module(_FACE[name]), _RENAMED.get(name, name))
    globals()[name] = value  # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FACE))
