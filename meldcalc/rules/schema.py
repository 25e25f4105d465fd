"""The shape of a variant file, checked like a linter checks code.

The file is read into a tree of `Node`s (`meldcalc.rules.yamlfile`) that remember the file,
line, column and key path they came from, so every problem reads ``house.yaml:14:5:
melds[3].points: expected an integer, got 'forty'``. The same declarative spec checks a file
and prints `variants/schema.json`, so the loader, ``meldcalc check`` and editors agree on
what a valid file is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from meldcalc.errors import quote
from meldcalc.rules.cards import CARD_NAMES, RANK_TOKENS
from meldcalc.rules.yamlfile import Node

# --- the spec --------------------------------------------------------------------------


def describe(value: Any) -> str:
    """How an unexpected value is quoted in a message (cut to a readable length)."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return quote(value)


def control_character(text: str, allowed: str = "") -> str | None:
    """The first control or format character of ``text`` (bidi overrides, escapes, NUL),
    which would be printed raw to a terminal, or None."""
    import unicodedata

    for character in text:
        if character not in allowed and unicodedata.category(character) in ("Cc", "Cf"):
            return character
    return None


class Spec:
    """One kind of value a variant file may hold."""

    doc = ""

    def check(self, node: Node, problems: list[str]) -> None:
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        raise NotImplementedError


#: The largest integer a field takes unless it says otherwise: far above any real table,
#: low enough that no sum meldcalc makes can overflow.
MAX_INTEGER = 10**9


@dataclass
class Integer(Spec):
    minimum: int = 0
    doc: str = ""
    maximum: int = MAX_INTEGER

    def check(self, node: Node, problems: list[str]) -> None:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(node.problem(f"expected an integer, got {describe(value)}"))
        elif value < self.minimum:
            problems.append(node.problem(f"expected an integer >= {self.minimum}, got {value}"))
        elif value > self.maximum:
            problems.append(
                node.problem(f"expected an integer <= {self.maximum}, got {describe(value)}")
            )

    def json_schema(self) -> dict[str, Any]:
        schema = {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}
        return _with_doc(schema, self.doc)


@dataclass
class Boolean(Spec):
    doc: str = ""

    def check(self, node: Node, problems: list[str]) -> None:
        if not isinstance(node.value, bool):
            problems.append(node.problem(f"expected true or false, got {describe(node.value)}"))

    def json_schema(self) -> dict[str, Any]:
        return _with_doc({"type": "boolean"}, self.doc)


@dataclass
class Text(Spec):
    """A string, optionally one of fixed choices (shown in the message when wrong)."""

    choices: tuple[str, ...] = ()
    what: str = "a string"
    doc: str = ""
    accept: Callable[[Any], bool] | None = None
    json: dict[str, Any] | None = None
    max_length: int = 100
    #: paragraphs may hold line breaks and tabs; other control characters never
    multiline: bool = False

    def check(self, node: Node, problems: list[str]) -> None:
        value = node.value
        if self.accept is not None:
            if not self.accept(value):
                problems.append(node.problem(f"expected {self.what}, got {describe(value)}"))
        elif not isinstance(value, str) or not value.strip():
            problems.append(node.problem(f"expected {self.what}, got {describe(value)}"))
        elif self.choices and value not in self.choices:
            choices = ", ".join(self.choices)
            problems.append(node.problem(f"expected one of {choices}, got {describe(value)}"))
        elif len(value) > self.max_length:
            problems.append(
                node.problem(f"expected at most {self.max_length} characters, got {len(value)}")
            )
        elif (bad := control_character(value, "\n\t" if self.multiline else "")) is not None:
            problems.append(
                node.problem(f"control character {bad!r} in {describe(value)}: expected text")
            )

    def json_schema(self) -> dict[str, Any]:
        if self.choices:
            return _with_doc({"enum": list(self.choices)}, self.doc)
        if self.json is not None:
            return _with_doc(dict(self.json), self.doc)
        schema = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        return _with_doc(schema, self.doc)


@dataclass
class ListOf(Spec):
    item: Spec
    min_items: int = 1
    doc: str = ""
    max_items: int = 24

    def check(self, node: Node, problems: list[str]) -> None:
        if not isinstance(node.value, list):
            problems.append(node.problem(f"expected a list, got {describe(node.value)}"))
            return
        if len(node.value) < self.min_items:
            wanted = f"{self.min_items} item{'s' if self.min_items > 1 else ''}"
            problems.append(node.problem(f"expected at least {wanted}, got {len(node.value)}"))
        if len(node.value) > self.max_items:
            problems.append(
                node.problem(f"expected at most {self.max_items} items, got {len(node.value)}")
            )
            return
        for child in node.value:
            self.item.check(child, problems)

    def json_schema(self) -> dict[str, Any]:
        schema = {
            "type": "array",
            "items": self.item.json_schema(),
            "minItems": self.min_items,
            "maxItems": self.max_items,
        }
        return _with_doc(schema, self.doc)


@dataclass
class OneOf(Spec):
    """Either of two shapes; the message names both."""

    options: tuple[Spec, ...]
    what: str
    doc: str = ""

    def check(self, node: Node, problems: list[str]) -> None:
        for option in self.options:
            attempt: list[str] = []
            option.check(node, attempt)
            if not attempt:
                return
        shape = self._shape_of(node.value)
        if shape is not None:
            shape.check(node, problems)
        else:
            problems.append(node.problem(f"expected {self.what}, got {describe(node.value)}"))

    def _shape_of(self, value: Any) -> Spec | None:
        """The option a value was meant as, to report its inner problem, if clear."""
        for option in self.options:
            if isinstance(value, list) and isinstance(option, ListOf):
                return option
            if isinstance(value, dict) and isinstance(option, (Record, MapOf)):
                return option
            is_integer = isinstance(value, int) and not isinstance(value, bool)
            if is_integer and isinstance(option, Integer):
                return option
        return None

    def json_schema(self) -> dict[str, Any]:
        return _with_doc({"oneOf": [o.json_schema() for o in self.options]}, self.doc)


@dataclass
class MapOf(Spec):
    """A mapping with free keys (checked by `key`) and values of one kind."""

    key: Text
    value: Spec
    doc: str = ""

    def check(self, node: Node, problems: list[str]) -> None:
        if not isinstance(node.value, dict):
            problems.append(node.problem(f"expected a mapping, got {describe(node.value)}"))
            return
        for key, child in node.value.items():
            if not self.key.accept or not self.key.accept(key):
                problems.append(
                    child.key_problem(f"expected {self.key.what} as key, got {quote(key)}")
                )
            self.value.check(child, problems)

    def json_schema(self) -> dict[str, Any]:
        schema = {"type": "object", "additionalProperties": self.value.json_schema()}
        schema["propertyNames"] = self.key.json_schema()
        return _with_doc(schema, self.doc)


@dataclass
class Field:
    spec: Spec
    required: bool = False


@dataclass
class Record(Spec):
    """A mapping with named fields; unknown keys and missing required fields are errors."""

    fields: dict[str, Field]
    exactly_one_of: tuple[str, ...] = ()
    doc: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self, node: Node, problems: list[str]) -> None:
        if not isinstance(node.value, dict):
            problems.append(node.problem(f"expected a mapping, got {describe(node.value)}"))
            return
        items: dict[str, Node] = node.value
        for key, child in items.items():
            if key in self.fields:
                self.fields[key].spec.check(child, problems)
            else:
                known = ", ".join(self.fields)
                problems.append(
                    child.key_problem(f"unknown key {quote(key)} (known keys: {known})")
                )
        for name, spec in self.fields.items():
            if spec.required and name not in items:
                problems.append(node.problem(f"missing field {name!r}"))
        if self.exactly_one_of:
            present = [key for key in self.exactly_one_of if key in items]
            if len(present) != 1:
                wanted = ", ".join(self.exactly_one_of)
                got = ", ".join(present) or "none"
                problems.append(node.problem(f"expected exactly one of {wanted}; got {got}"))

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {name: f.spec.json_schema() for name, f in self.fields.items()},
        }
        required = [name for name, f in self.fields.items() if f.required]
        if required:
            schema["required"] = required
        if self.exactly_one_of:
            schema["oneOf"] = [{"required": [key]} for key in self.exactly_one_of]
        return _with_doc(schema, self.doc)


def _with_doc(schema: dict[str, Any], doc: str) -> dict[str, Any]:
    if doc:
        schema["description"] = doc
    return schema


def _is_rank(value: Any) -> bool:
    return str(value).upper() in RANK_TOKENS and not isinstance(value, bool)


def _is_card(value: Any) -> bool:
    from meldcalc.rules.cards import CARD_TOKENS

    return isinstance(value, str) and value.upper() in CARD_TOKENS


_RANK_PATTERN = "([AaKkQqJjTt9]|10)"
RANK = Text(
    what="a rank (A 10 K Q J 9)",
    accept=_is_rank,
    json={"anyOf": [{"type": "string", "pattern": f"^{_RANK_PATTERN}$"}, {"enum": [9, 10]}]},
)
CARD = Text(
    what=f"a card such as {CARD_NAMES[0]} or JD",
    accept=_is_card,
    json={"type": "string", "pattern": f"^{_RANK_PATTERN}[SsHhDdCc♠♥♦♣♤♡♢♧]$"},
)
#: Bounds that keep every sum far from overflow and every search small; real tables are far
#: inside them (the biggest meld shipped is 3000, the biggest counter 11).
MAX_POINTS = 1_000_000
MAX_COUNTER = 10_000
MAX_COPIES = 4
MAX_MELDS = 64
MAX_BID = 10_000_000

POINTS = OneOf(
    (Integer(maximum=MAX_POINTS), ListOf(Integer(maximum=MAX_POINTS), max_items=8)),
    what="an integer or a list of integers (single, double, triple, quadruple)",
    doc="Points for one copy, or a list by multiplicity: [single, double, triple, quadruple]."
    " k copies past the list score as the last listed multiple plus the rest.",
)
NAME = Text(max_length=64)
NAMES = OneOf((NAME, ListOf(NAME)), what="a name or a list of names")

MELD = Record(
    {
        "name": Field(
            Text(max_length=64, doc="Shown in results; unique in the variant."), required=True
        ),
        "class": Field(
            OneOf(
                (NAME, ListOf(NAME, min_items=0, max_items=8)),
                what="a class name or a list of class names",
                doc="Reuse class(es): a card serves at most one meld of each class. An empty"
                " list makes a bonus that uses no cards (it never competes).",
            )
        ),
        "trump": Field(ListOf(RANK, doc="Ranks of the trump suit, e.g. [K, Q].")),
        "non_trump": Field(ListOf(RANK, doc="Ranks of one non-trump suit: a meld per suit.")),
        "cards": Field(ListOf(CARD, doc="Fixed cards, e.g. [JD, QS].")),
        "around": Field(
            OneOf(
                (RANK, ListOf(RANK)),
                what="a rank or a list of ranks",
                doc="A rank (or ranks) in every suit.",
            )
        ),
        "points": Field(POINTS),
        "checks": Field(POINTS),
        "reuse": Field(
            Record(
                {
                    "melds": Field(NAMES, required=True),
                    "from_copies": Field(Integer(minimum=1, maximum=MAX_COPIES), required=True),
                    "beside": Field(
                        Integer(
                            minimum=0,
                            maximum=MAX_COPIES,
                            doc="When reusing, at least this many copies must be of cards no"
                            " named meld holds (default 1: Toby Thomas's extra royal marriage).",
                        )
                    ),
                },
                doc="From this many copies up, this meld may use cards that the named melds"
                " of its class already use, when `beside` copies of its own lie beside them.",
            )
        ),
    },
    doc="One meld. With `extends`, an entry whose name the parent has changes only the fields"
    " it gives.",
)
MELD_FULL = Record(
    {
        **MELD.fields,
        "class": Field(MELD.fields["class"].spec, required=True),
        "points": Field(POINTS, required=True),
    },
    exactly_one_of=("trump", "non_trump", "cards", "around"),
    doc=MELD.doc,
)

INCREMENT = Record(
    {
        "from": Field(Integer(maximum=MAX_BID), required=True),
        "by": Field(Integer(minimum=1, maximum=MAX_BID), required=True),
    }
)

VARIANT_FIELDS: dict[str, Field] = {
    "name": Field(
        Text(max_length=64, doc="The variant's name, as given to --variant."), required=True
    ),
    "title": Field(Text(max_length=200, doc="A one-line title."), required=True),
    "source": Field(
        Text(max_length=2000, multiline=True, doc="Where the numbers come from."), required=True
    ),
    "house_defaults": Field(
        ListOf(
            Text(max_length=200),
            max_items=64,
            doc="The keys whose numbers are meldcalc's own, no source giving them (e.g."
            " bidding.opening, melds[run].checks): `meldcalc table` marks them.",
        )
    ),
    "description": Field(Text(max_length=5000, multiline=True, doc="A paragraph for learners.")),
    "extends": Field(
        Text(max_length=1000, doc="A shipped variant's name or a path to start from.")
    ),
    "deck": Field(
        Record(
            {
                "ranks": Field(ListOf(RANK, max_items=6), required=True),
                "copies": Field(Integer(minimum=1, maximum=MAX_COPIES), required=True),
            },
            doc="Ranks in the deck, and how many copies of each card.",
        ),
        required=True,
    ),
    "players": Field(Integer(minimum=2, maximum=6), required=True),
    "partnerships": Field(Boolean(doc="True when partners sit opposite."), required=True),
    "hand_size": Field(Integer(minimum=1, maximum=96), required=True),
    "hands_each": Field(
        Integer(
            minimum=1,
            maximum=2,
            doc="Hands each player holds: 2 where two players each hold both hands of a"
            " side (four hands, `players: 4`).",
        )
    ),
    "widow": Field(Integer(maximum=96, doc="Cards set aside for the bidder (widow or kitty).")),
    "stock": Field(Integer(maximum=96, doc="Cards left to draw from (two-handed).")),
    "melds": Field(ListOf(MELD, max_items=MAX_MELDS), required=True),
    "tricks": Field(
        Record(
            {
                "counters": Field(MapOf(RANK, Integer(maximum=MAX_COUNTER)), required=True),
                "last_trick": Field(Integer(maximum=MAX_COUNTER), required=True),
            },
            doc="Points each rank scores in tricks won, and the last-trick bonus.",
        ),
        required=True,
    ),
    "bidding": Field(
        OneOf(
            (
                Record(
                    {
                        "opening": Field(Integer(maximum=MAX_BID), required=True),
                        "increments": Field(ListOf(INCREMENT, max_items=8), required=True),
                        "dealer_forced": Field(Boolean()),
                        "marriage_in_trump": Field(Boolean()),
                        "game": Field(Integer(minimum=1, maximum=MAX_BID)),
                        "concede": Field(Boolean()),
                        "rounds": Field(
                            Integer(minimum=1, maximum=100, doc="Bidding rounds (1: bid once).")
                        ),
                        "both_reach": Field(
                            Text(
                                choices=("higher", "bidder"),
                                doc="Both sides reach the game on one hand: the higher total"
                                " wins (equal totals play on), or the bidding side wins.",
                            )
                        ),
                        "throw_in_advice": Field(
                            Integer(
                                minimum=1,
                                maximum=MAX_BID,
                                doc="Advise throwing the hand in when the bidding side's meld"
                                " is more than this below the bid (double deck: 50).",
                            )
                        ),
                        "system": Field(
                            Text(
                                max_length=1000,
                                doc="The bidding system the table plays: skip-meld,"
                                " jim-davis, toby-thomas, or a path to a system file (from"
                                " this file's folder).",
                            )
                        ),
                    }
                ),
                Text(choices=("none",)),
            ),
            what="a bidding mapping, or 'none' for a game without auction",
        ),
        required=True,
    ),
    "play": Field(
        Record(
            {
                "head": Field(Text(choices=("always", "trump-led", "never"))),
                "overtrump": Field(Boolean()),
                "direction": Field(Text(choices=("clockwise", "counterclockwise"))),
            },
            doc="head: when a follower must beat the winning card; overtrump: whether a"
            " void player must over-trump; direction: the way dealing and play go round"
            " (counterclockwise: the next to play sits on your right).",
        )
    ),
    "passing": Field(
        OneOf(
            (
                Record(
                    {
                        "kind": Field(
                            Text(
                                choices=("exchange", "plain"),
                                doc="exchange: before naming trump the bidder names a suit and"
                                " the partner sends cards of it where it has them; plain: after"
                                " trump is named the partner sends any cards.",
                            ),
                            required=True,
                        ),
                        "cards": Field(
                            Integer(minimum=1, maximum=8, doc="Cards passed each way."),
                            required=True,
                        ),
                        "simultaneous": Field(
                            Boolean(
                                doc="plain only: both pass at once, the bidder before seeing"
                                " what it gets (default: the partner first)."
                            )
                        ),
                    }
                ),
                Text(choices=("none",)),
            ),
            what="a passing mapping, or 'none' for no card pass",
            doc="Cards passed between the bidder and the partner before play (absent: none).",
        )
    ),
    "stock_play": Field(
        Record(
            {
                "game": Field(Integer(minimum=1, maximum=MAX_BID, doc="Points to win the game.")),
                "melds_per_trick": Field(
                    Integer(
                        minimum=1,
                        maximum=12,
                        doc="Melds the trick's winner may lay down before drawing (1).",
                    )
                ),
                "meld_before_draw": Field(
                    Boolean(
                        doc="The trick's winner melds before it draws (true, most books) or"
                        " after it, before it leads (false)."
                    )
                ),
                "closing": Field(
                    Boolean(
                        doc="The trick's winner may close the stock instead of drawing: no"
                        " more drawing or melding, the rest played by the follow rules."
                    )
                ),
                "round_tricks": Field(
                    Boolean(
                        doc="A player's trick points count to the ten, 7, 8 or 9 as 10"
                        " (off: as taken)."
                    )
                ),
            },
            doc="The two-handed game's switches where the texts are silent (a stock and no"
            " auction only).",
        )
    ),
    "house": Field(
        Record(
            {
                "meld_minimum": Field(Integer(doc="A side's meld counts only from this total.")),
                "save_meld": Field(
                    OneOf(
                        (Text(choices=("trick", "counter")), Integer(minimum=1)),
                        what="trick, counter, or a number of trick points",
                        doc="A side scores its meld only if it takes a trick, a counter, or"
                        " at least this many trick points (off when absent).",
                    )
                ),
                "forfeit_under_minimum": Field(
                    Boolean(
                        doc="A bidding side whose meld is under meld_minimum loses its bid"
                        " without play; the others score as when the hand is thrown in."
                    )
                ),
                "trick_minimum": Field(
                    Integer(
                        doc="A side taking fewer trick points scores nothing for the hand"
                        " (its meld ignored); a bidding side so is set whatever its meld."
                    )
                ),
                "set_penalty": Field(
                    Integer(
                        minimum=1,
                        maximum=10,
                        doc="A side that is set loses its bid times this (1: the bid).",
                    )
                ),
                "thrown_in": Field(
                    Record(
                        {
                            "meld": Field(Boolean(doc="The others score their meld.")),
                            "meld_minimum": Field(
                                Integer(doc="... only when it reaches this total.")
                            ),
                            "cards": Field(
                                Integer(
                                    maximum=MAX_POINTS,
                                    doc="Points the others score for the cards not played.",
                                )
                            ),
                        },
                        doc="What the others score when the bidding side throws the hand in"
                        " before play (default: their meld). 'bidding: {concede: false}'"
                        " forbids throwing in.",
                    )
                ),
            },
            doc="Optional house-rule switches.",
        )
    ),
}


def variant_spec(complete: bool) -> Record:
    """The spec of a whole variant (complete) or of a file that `extends` another."""
    if complete:
        fields = dict(VARIANT_FIELDS)
        fields["melds"] = Field(ListOf(MELD_FULL, max_items=MAX_MELDS), required=True)
        return Record(fields)
    partial = {name: Field(f.spec) for name, f in VARIANT_FIELDS.items()}
    partial["name"] = VARIANT_FIELDS["name"]
    return Record(partial)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a variant file (a complete one, or one that extends another)."""
    complete = variant_spec(complete=True).json_schema()
    partial = variant_spec(complete=False).json_schema()
    partial["required"] = ["name", "extends"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "meldcalc variant",
        "oneOf": [complete, partial],
    }


def json_schema_text() -> str:
    import json

    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m meldcalc.rules.schema > variants/schema.json
    print(json_schema_text(), end="")
