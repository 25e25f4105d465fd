"""Values from Python checked as the command line checks its options and input.

The command line's values pass its parsers (the options' bounds, `read_hand`, the loader)
before any work is done. A script calling the Python face (`meldcalc.best_meld`,
`meldcalc.estimate_bid`, `meldcalc.solve` ...) hands Python values straight in, so the
face checks them here first, with the same bounds and the same words: a value of the
wrong type is a `TypeError`; a value of the right type that the command line would refuse
is a `MeldcalcError` (a `HandError` for a hand no deal gives, a `VariantError` for rules
that do not hold); what the command line warns of is a `MeldcalcWarning`.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any

from meldcalc.errors import HandError, MeldcalcError, MeldcalcWarning, quote
from meldcalc.rules.cards import Hand, Rank, Suit
from meldcalc.rules.variant import Bidding, Deck, HouseRules, MeldRule, Passing, ThrownIn, Variant

#: A seed is a whole number in this range; the same seed always gives the same numbers.
MAX_SEED = 2**63 - 1
#: Simulated deals per trump: a million take about a minute; more is never worth it.
MAX_DEALS = 1_000_000
#: Below this many deals a standard error means little (a bid says so).
FEW_DEALS = 30
#: The most deals a bid's strong check plays twice: each costs the look-ahead player's time
#: (2,000: about a minute in single deck).
MAX_STRONG = 2_000


def of_type(value: Any, kind: type | tuple[type, ...], what: str, expected: str) -> None:
    """Raise `TypeError` unless ``value`` is a ``kind`` (a bool is no number here)."""
    numeric = kind in (int, float) or kind == (int, float)
    if not isinstance(value, kind) or (numeric and isinstance(value, bool)):
        raise TypeError(f"{what}: expected {expected}, got {type(value).__name__} {quote(value)}")


def whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (None: any above), as an option with those
    bounds takes it."""
    of_type(value, int, what, "a whole number")
    if high is None and value < low:
        raise MeldcalcError(f"{what} {value}: expected a whole number of at least {low}")
    if high is not None and not low <= value <= high:
        raise MeldcalcError(f"{what} {value}: expected a whole number from {low} to {high:,}")
    return value


def number(value: Any, what: str, low: float, high: float) -> float:
    """A number from ``low`` to ``high`` (not nan, not infinite)."""
    of_type(value, (int, float), what, "a number")
    if not (math.isfinite(value) and low <= value <= high):
        raise MeldcalcError(f"{what} {value!r}: expected a number from {low:g} to {high:g}")
    return float(value)


def seed(value: Any) -> int | None:
    """A seed as ``--seed`` takes it: a whole number from 0 to 2^63-1; None draws one."""
    return None if value is None else whole(value, "seed", 0, MAX_SEED)


def suit(value: Any, what: str = "trump") -> Suit:
    of_type(value, Suit, what, "a Suit (meldcalc.Suit.SPADES ...)")
    return value


def variant(value: Any) -> Variant:
    """The rules, checked as the loader checks a file: as they are when the loader made
    them, else rebuilt from their fields (a variant changed with `dataclasses.replace`, or
    made by hand), so that rules the loader would refuse are refused here too."""
    of_type(value, Variant, "variant", "a Variant (meldcalc.load_variant(NAME))")
    return value if value.checked else recheck(value)


def hand(value: Any, rules: Variant, full: bool = False, what: str = "hand") -> list[str]:
    """Check a hand against the rules as `meldcalc meld` and `meldcalc bid` do: cards the
    deck holds, no more copies than it has (`HandError`); a size other than a deal's is
    refused where play is simulated from it (``full``), else returned as a warning."""
    of_type(value, Hand, what, "a Hand (meldcalc.Hand.parse('AS 10S ...'))")
    rules.check_hand(value)
    said = rules.hand_warnings(value)
    if full and said:
        raise HandError(f"{said[0]}: play is simulated from a full hand")
    return said


def warn(said: list[str]) -> None:
    """Tell a script what the command line would print as a warning, at the line of the
    script that called the face (which calls this)."""
    for text in said:
        warnings.warn(text, MeldcalcWarning, stacklevel=3)


# --- a variant not made by the loader, checked as a file is -----------------------------------


def recheck(variant: Variant) -> Variant:
    """``variant`` checked as the loader checks a file, from its fields as they are (one
    changed with `dataclasses.replace`, or made by hand): the same variant, marked
    checked, or the loader's problems (`VariantError`, naming the key); a field of a kind
    no file can hold is a `TypeError`."""
    from meldcalc.rules.loading import variant_from_data

    data = variant_data(variant)
    rebuilt = variant_from_data(data, f"variant {quote(variant.name)}, as changed", line=0)
    again = dataclasses.replace(rebuilt, path=variant.path)
    object.__setattr__(again, "checked", True)
    return again


def variant_data(variant: Variant) -> dict[str, Any]:
    """The fields of a variant file that make ``variant`` (what `_modelled` reads): the
    loader's inverse, so ``variant_from_data(variant_data(v))`` equals ``v``."""
    data: dict[str, Any] = {
        key: _field(variant, key, str, "text") for key in ("name", "title", "source")
    }
    description = _field(variant, "description", str, "text")
    if description:
        data["description"] = description
    deck = _field(variant, "deck", Deck, "a Deck")
    data["deck"] = {"ranks": _ranks(deck.ranks, "deck.ranks"), "copies": deck.copies}
    for key in ("players", "partnerships", "hand_size", "widow", "stock"):
        data[key] = getattr(variant, key)
    melds = _field(variant, "melds", tuple, "a tuple of MeldRule")
    data["melds"] = [_meld_data(rule, f"melds[{i}]") for i, rule in enumerate(melds)]
    counters = _field(variant, "counters", dict, "a mapping of Rank to points")
    data["tricks"] = {
        "counters": {_rank_token(rank, "counters"): points for rank, points in counters.items()},
        "last_trick": variant.last_trick,
    }
    data["bidding"] = _bidding_data(variant.bidding)
    data["play"] = {"head": variant.head, "overtrump": variant.overtrump}
    if variant.passing is not None:
        passing = _field(variant, "passing", Passing, "a Passing or None")
        data["passing"] = dataclasses.asdict(passing)
    house = _field(variant, "house", HouseRules, "a HouseRules")
    thrown = house.thrown_in
    if not isinstance(thrown, ThrownIn):
        raise TypeError(f"variant.house.thrown_in: expected a ThrownIn, got {quote(thrown)}")
    data["house"] = {
        "meld_minimum": variant.meld_minimum,
        "set_penalty": house.set_penalty,
        "thrown_in": dataclasses.asdict(thrown),
        **({} if house.save_meld is None else {"save_meld": house.save_meld}),
    }
    return data


def _field(variant: Variant, name: str, kind: type, expected: str) -> Any:
    value = getattr(variant, name)
    if not isinstance(value, kind):
        raise TypeError(f"variant.{name}: expected {expected}, got {quote(value)}")
    return value


def _rank_token(rank: object, where: str) -> str:
    if not isinstance(rank, Rank):
        raise TypeError(f"variant.{where}: expected a Rank, got {quote(rank)}")
    return rank.value


def _ranks(ranks: object, where: str) -> list[str]:
    if not isinstance(ranks, tuple):
        raise TypeError(f"variant.{where}: expected a tuple of Rank, got {quote(ranks)}")
    return [_rank_token(rank, where) for rank in ranks]


def _meld_data(rule: object, where: str) -> dict[str, Any]:
    """A meld's fields as a file gives them."""
    if not isinstance(rule, MeldRule):
        raise TypeError(f"variant.{where}: expected a MeldRule, got {quote(rule)}")
    data: dict[str, Any] = {"name": rule.name, "class": list(rule.classes)}
    if rule.kind == "cards":
        data["cards"] = [str(card) for card in rule.cards]
    elif rule.kind in ("trump", "non_trump", "around"):
        data[rule.kind] = _ranks(rule.ranks, f"{where}.ranks")
    else:
        raise TypeError(f"variant.{where}.kind: expected trump, non_trump, cards or around")
    data["points"] = list(rule.points)
    if rule.checks:
        data["checks"] = list(rule.checks)
    if rule.reuses:
        data["reuse"] = {
            "melds": list(rule.reuses),
            "from_copies": rule.reuse_from,
            "beside": rule.reuse_beside,
        }
    return data


def _bidding_data(bidding: object) -> dict[str, Any] | str:
    if bidding is None:
        return "none"
    if not isinstance(bidding, Bidding):
        raise TypeError(f"variant.bidding: expected a Bidding or None, got {quote(bidding)}")
    data = dataclasses.asdict(bidding)
    data["increments"] = [{"from": inc["start"], "by": inc["by"]} for inc in data["increments"]]
    return {key: value for key, value in data.items() if value is not None}
