"""Rule variants: the scoring tables and game facts read from variants/*.yaml.

Every number a variant uses lives in its YAML file; this module only reads, merges
(``extends``), checks and models them. `load_variant` takes a shipped name or a path.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from meldcalc.cards import CARDS, RANK_TOKENS, SUITS, Card, Hand, Rank, Suit, cards_text
from meldcalc.errors import HandError, VariantError, quote, shown_path
from meldcalc.files import FileProblem, read_bounded

if TYPE_CHECKING:  # the schema (and YAML) are imported only when a file is loaded
    from meldcalc.schema import Node

DEFAULT_VARIANT = "single-deck"


def shipped_dir() -> Path:
    """The folder of shipped variant files: inside the installed package, or the checkout's."""
    installed = Path(__file__).parent / "variants"
    return installed if installed.is_dir() else Path(__file__).parent.parent / "variants"


def shipped_names() -> list[str]:
    return sorted(path.stem for path in shipped_dir().glob("*.yaml"))


# --- the model ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MeldRule:
    """One meld of a scoring table, its cards given relative to trump where they depend on it.

    ``kind`` says how ``ranks``/``cards`` become cards: ``trump`` (ranks of the trump suit),
    ``non_trump`` (ranks of each other suit, a meld per suit), ``cards`` (fixed cards) or
    ``around`` (the ranks in every suit).
    """

    name: str
    classes: tuple[str, ...]
    kind: str
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...]
    points: tuple[int, ...]
    checks: tuple[int, ...] = ()
    reuses: tuple[str, ...] = ()
    reuse_from: int = 0

    def value(self, copies: int) -> int:
        """Points for ``copies`` copies: by the table, past its end the last entry plus the rest."""
        return multiplicity_value(self.points, copies)

    def check_value(self, copies: int) -> int:
        return multiplicity_value(self.checks, copies) if self.checks else 0

    def instances(self, trump: Suit) -> list[tuple[int, ...]]:
        """The card indices of each concrete meld this rule makes under ``trump``."""
        if self.kind == "trump":
            return [tuple(Card(rank, trump).index for rank in self.ranks)]
        if self.kind == "non_trump":
            others = [suit for suit in SUITS if suit is not trump]
            return [tuple(Card(rank, suit).index for rank in self.ranks) for suit in others]
        if self.kind == "around":
            return [tuple(Card(rank, suit).index for rank in self.ranks for suit in SUITS)]
        return [tuple(card.index for card in self.cards)]


def multiplicity_value(table: tuple[int, ...], copies: int) -> int:
    """k copies past the table's end score as its last entry plus the value of the rest."""
    total = 0
    while copies > len(table):
        total += table[-1]
        copies -= len(table)
    return total + (table[copies - 1] if copies else 0)


@dataclass(frozen=True)
class Deck:
    ranks: tuple[Rank, ...]
    copies: int

    @property
    def size(self) -> int:
        return len(SUITS) * len(self.ranks) * self.copies

    def copies_of(self, card: Card) -> int:
        return self.copies if card.rank in self.ranks else 0

    def cards(self) -> list[Card]:
        """Every card of the deck, copies repeated."""
        return [card for card in CARDS for _ in range(self.copies_of(card))]


@dataclass(frozen=True)
class Increment:
    start: int
    by: int


@dataclass(frozen=True)
class Bidding:
    opening: int
    increments: tuple[Increment, ...]
    dealer_forced: bool = False
    marriage_in_trump: bool = False
    game: int | None = None
    concede: bool = True
    rounds: int | None = None
    both_reach: str = "higher"

    def levels(self, up_to: int, start: int = 0) -> list[int]:
        """Every legal bid from ``start`` (the opening bid, if higher) to ``up_to``."""
        bids, bid = [], self.first_at_least(start)
        while bid <= up_to:
            bids.append(bid)
            bid = self.next_bid(bid)
        return bids

    def first_at_least(self, target: int) -> int:
        """The lowest legal bid of at least ``target``, in a few steps however far it is:
        inside an increment's range the legal bids are the multiples of its step."""
        bid = self.opening
        while bid < target:
            boundary = min((inc.start for inc in self.increments if inc.start > bid), default=None)
            goal = target if boundary is None else min(target, boundary)
            by = self.step_at(bid)
            bid = max(bid, (goal - 1) // by * by)  # the last multiple short of the goal
            bid = self.next_bid(bid)
        return bid

    def last_at_most(self, value: int) -> int | None:
        """The highest legal bid of at most ``value``; None below the opening bid. Legal
        bids are never further apart than the widest step, so it is found near ``value``."""
        if value < self.opening:
            return None
        widest = max(inc.by for inc in self.increments)
        bid = self.first_at_least(value - widest + 1)
        while (following := self.next_bid(bid)) <= value:
            bid = following
        return bid

    def step_at(self, bid: int) -> int:
        """The step in force at ``bid`` (below the first ``from``, the first step)."""
        step = next((inc for inc in reversed(self.increments) if inc.start <= bid), None)
        return (step or self.increments[0]).by

    def next_bid(self, bid: int) -> int:
        """The lowest legal bid above ``bid``: the next multiple of the step in force there
        (below the first ``from``, the first step)."""
        by = self.step_at(bid)
        return (bid // by + 1) * by


@dataclass(frozen=True)
class ThrownIn:
    """What the others score when the bidding side throws the hand in before play."""

    meld: bool = True
    meld_minimum: int = 0
    cards: int = 0


@dataclass(frozen=True)
class HouseRules:
    """The scoring switches of ``house:`` (meld_minimum lives on `Variant` itself).

    ``save_meld``: None, ``"trick"``, ``"counter"`` or a number of trick points a side must
    take to score its meld."""

    save_meld: str | int | None = None
    set_penalty: int = 1
    thrown_in: ThrownIn = ThrownIn()


@dataclass(frozen=True)
class Passing:
    """Cards passed between the bidder and the partner before play (`meldcalc.passing`).

    ``kind``: ``exchange`` (the bidder names a suit before trump and the partner sends
    cards of it, seed 001's Toby Thomas game) or ``plain`` (after trump is named, the
    partner sends any cards); the bidder then returns as many. ``simultaneous`` (plain only):
    both pass at once, so the bidder chooses before seeing what it gets."""

    kind: str
    cards: int
    simultaneous: bool = False


@dataclass(frozen=True)
class Variant:
    """A rule variant: deck, deal, scoring table, trick counters, bidding and play rules."""

    name: str
    title: str
    source: str
    description: str
    path: Path
    deck: Deck
    players: int
    partnerships: bool
    hand_size: int
    widow: int
    stock: int
    melds: tuple[MeldRule, ...]
    counters: dict[Rank, int]
    last_trick: int
    bidding: Bidding | None
    head: str = "always"
    overtrump: bool = True
    meld_minimum: int = 0
    house: HouseRules = HouseRules()
    passing: Passing | None = None
    #: The checked fields it was built from, merged: what a game's ledger keeps of its rules.
    data: dict = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def classes(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for meld in self.melds:
            seen.update(dict.fromkeys(meld.classes))
        return tuple(seen)

    @property
    def trick_total(self) -> int:
        """All trick points of one deal: the counters of every card plus the last trick."""
        counted = sum(self.counters.get(card.rank, 0) for card in self.deck.cards())
        return counted + self.last_trick

    @property
    def trick_step(self) -> int:
        """What every side's trick points are a multiple of: the greatest common divisor
        of the counters and the last trick (5 in single deck)."""
        return math.gcd(*self.counters.values(), self.last_trick) or 1

    @cached_property
    def _absent(self) -> tuple[int, ...]:
        return tuple(card.index for card in CARDS if not self.deck.copies_of(card))

    def check_hand(self, hand: Hand) -> None:
        """Raise `HandError` when the deck cannot hold this hand."""
        counts = hand.counts
        if max(counts) <= self.deck.copies and not any(counts[i] for i in self._absent):
            return
        for card in CARDS:
            held, exist = hand.count(card), self.deck.copies_of(card)
            if held > exist and exist == 0:
                raise HandError(f"{str(card)!r} is not in the {self.name} deck")
            if held > exist:
                raise HandError(
                    f"{held} copies of {str(card)!r}: the {self.name} deck holds {exist}"
                )

    def check_together(
        self,
        holdings: list[tuple[str, Hand]],
        too_many: str = "{count} copies of {card} in the hands given",
    ) -> None:
        """Raise `HandError` when ``holdings`` (whose cards, and the cards) hold between
        them more copies of a card than the deck; ``too_many`` words the count."""
        for card in CARDS:
            held = [(who, cards.count(card)) for who, cards in holdings if cards.count(card)]
            count, exist = sum(n for _, n in held), self.deck.copies_of(card)
            if count > exist:
                where = ", ".join(f"{who} {n}" for who, n in held)
                said = too_many.format(count=count, card=repr(str(card)))
                raise HandError(f"{said} ({where}): the {self.name} deck holds {exist}")

    def hand_warnings(self, hand: Hand) -> list[str]:
        """Things worth saying about a legal hand: a size other than a full deal."""
        if len(hand) != self.hand_size:
            return [f"the hand has {cards_text(len(hand))}; {self.name} deals {self.hand_size}"]
        return []


def may_name_trump(hand: Hand, variant: Variant, trump: Suit) -> bool:
    """Whether the bidder holding ``hand`` may name ``trump``: in variants whose bidding
    says ``marriage_in_trump`` (double deck) only with a marriage (K and Q) in that suit."""
    if variant.bidding is None or not variant.bidding.marriage_in_trump:
        return True
    return hand.count(Card(Rank.KING, trump)) > 0 and hand.count(Card(Rank.QUEEN, trump)) > 0


# --- loading -----------------------------------------------------------------------------


#: A variant file larger than this is not a variant file (the shipped ones are ~2 KB).
MAX_FILE_BYTES = 1024 * 1024
#: How many files an ``extends`` chain may hold (the shipped variants use at most three).
MAX_CHAIN = 16


def load_variant(spec: str | Path) -> Variant:
    """A variant by shipped name (``double-deck``) or by path (``./house.yaml``)."""
    return _load_checked(resolve(spec))


def load_variant_file(path: Path) -> Variant:
    """A variant from this very file (never a shipped name), read and checked afresh, as
    ``meldcalc check`` must: it never takes the cache's word for a file."""
    return _load_checked(path, use_cache=False)


def variant_from_data(data: object, file: str, line: int = 1, path: str = "") -> Variant:
    """A variant from fields kept in another file (a game's ledger keeps the rules it began
    with), checked as a variant file is: a problem names ``file``, ``line`` and the key
    ``path``."""
    from meldcalc.schema import describe, plain_tree

    if not isinstance(data, dict):
        where = f"{file}:{line}:1: {path + ': ' if path else ''}"
        raise VariantError([f"{where}expected a mapping of variant fields, got {describe(data)}"])
    return build_variant(plain_tree(data, file, line, path))


def variant_files(path: Path) -> list[Path]:
    """The files ``meldcalc check`` reads for ``path``: the file, or a folder's YAML files
    (subfolders included), in a stable order."""
    if not os.path.isdir(path):  # False too for a name the system refuses (too long)
        return [path]
    # not only regular files: a FIFO or a dangling link named .yaml is reported, not skipped
    found = [p for pattern in ("*.yaml", "*.yml") for p in path.rglob(pattern) if not p.is_dir()]
    if not found:
        raise VariantError([f"{shown_path(path)}: a folder with no .yaml files in it"])
    return sorted(found)


def _load_checked(path: Path, use_cache: bool = True) -> Variant:
    """Read, merge and check a file, or take what an earlier run checked (`cache`).

    The cache is keyed on the bytes of every file of the chain, so the file itself is
    always read; only the YAML parsing and the checks are saved.
    """
    from meldcalc import cache

    first = read_source(path)
    cached = cache.read(path, first, read_source) if use_cache else None
    if cached is not None:
        with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError, IndexError):
            return _model(cached["data"], cached["file"])
    sources: list[tuple[Path, bytes]] = []
    tree = load_tree(path, sources=sources, first=first)
    variant = build_variant(tree)
    if use_cache:
        cache.write(path, tree.plain(), tree.file, sources)
    return variant


def read_source(path: Path) -> bytes:
    """The bytes of a variant file: a regular file of at most `MAX_FILE_BYTES`."""
    try:
        return read_bounded(path, MAX_FILE_BYTES, "a variant file")
    except FileNotFoundError:
        raise VariantError([f"{shown_path(path)}: no such variant file"]) from None
    except FileProblem as problem:
        raise VariantError([str(problem)]) from None


def decode_source(content: bytes, name: str) -> str:
    """The text of a variant file, which must be UTF-8; a bad byte is named by its place."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = content[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        byte = content[error.start]
        raise VariantError(
            [f"{name}:{line}:{column}: byte 0x{byte:02x} is not UTF-8: expected UTF-8 text"]
        ) from None


def resolve(spec: str | Path, base: Path | None = None) -> Path:
    """The file a variant name or path stands for; a path is taken relative to ``base``."""
    text = str(spec)
    if not text.strip():
        raise VariantError([f"expected a variant name or a YAML file, got {quote(text)}"])
    if text in shipped_names():
        return shipped_dir() / f"{text}.yaml"
    looks_like_path = "/" in text or text.endswith((".yaml", ".yml")) or "\\" in text
    path = (base / text) if base is not None and not Path(text).is_absolute() else Path(text)
    if looks_like_path and not os.path.lexists(path):
        raise VariantError([f"{shown_path(text)}: no such variant file"])
    if looks_like_path or os.path.exists(path):  # False for a name too long, not an error
        return path
    names = ", ".join(shipped_names())
    raise VariantError(
        [f"unknown variant {quote(text)}: expected one of {names}, or a path to a YAML file"]
    )


def load_tree(
    path: Path, sources: list[tuple[Path, bytes]] | None = None, first: bytes | None = None
) -> Node:
    """The file's Node tree with everything it ``extends`` merged beneath it.

    ``sources`` collects every file read with the bytes that were parsed, for the cache;
    ``first``: the bytes of ``path`` when the caller has read them already.
    """
    trees: list[Node] = []
    seen: list[Path] = []
    extends: Node | None = None
    while True:
        content = first if first is not None and not trees else _read_parent(path, extends)
        if sources is not None:
            sources.append((path, content))
        tree = _parse_file(path, content)
        trees.append(tree)
        seen.append(path.resolve())
        extends = tree.value.pop("extends", None)
        if extends is None:
            break
        path = _parent_of(extends, path, seen)
    merged = trees.pop()
    while trees:
        merged.value.pop("description", None)  # a file's own words: never inherited, as a
        merged = merge(merged, trees.pop())  # parent's would describe other numbers
    return merged


def _read_parent(path: Path, extends: Node | None) -> bytes:
    """Read a file; problems with a parent are reported at the ``extends`` that names it."""
    try:
        return read_source(path)
    except VariantError as error:
        if extends is None:
            raise
        raise VariantError([extends.problem(error.problems[0])]) from None


def _parse_file(path: Path, content: bytes) -> Node:
    from meldcalc.schema import describe, read_yaml

    name = display_name(path)
    tree = read_yaml(decode_source(content, name), name)
    if not isinstance(tree.value, dict):
        got = describe(tree.plain())
        raise VariantError([tree.problem(f"expected a mapping of variant fields, got {got}")])
    if "name" not in tree.value:
        raise VariantError([tree.problem("missing field 'name': every variant file names itself")])
    return tree


def _parent_of(extends: Node, path: Path, seen: list[Path]) -> Path:
    """The file ``extends`` names, resolved from the folder of ``path`` as the user named it."""
    from meldcalc.schema import describe

    if not isinstance(extends.value, str):
        got = describe(extends.plain())
        raise VariantError([extends.problem(f"expected a variant name or path, got {got}")])
    try:
        parent = resolve(extends.value, base=path.parent)
    except VariantError as error:
        raise VariantError([extends.problem(error.problems[0])]) from None
    if parent.resolve() in seen:
        cycle = " -> ".join(p.name for p in (*seen, parent.resolve()))
        raise VariantError([extends.problem(f"extends cycle: {cycle}")])
    if len(seen) >= MAX_CHAIN:
        raise VariantError([extends.problem(f"more than {MAX_CHAIN} files in the extends chain")])
    return parent


def display_name(path: Path) -> str:
    """Shipped files are named by their file name, others as the user wrote the path."""
    try:
        return path.resolve().relative_to(shipped_dir().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return shown_path(path)


def merge(base: Node, override: Node) -> Node:
    """``override`` on top of ``base``: mappings merge by key, named lists by name."""
    from meldcalc.schema import Node

    if isinstance(base.value, dict) and isinstance(override.value, dict):
        merged = dict(base.value)
        for key, node in override.value.items():
            merged[key] = merge(base.value[key], node) if key in base.value else node
        return Node(merged, override.file, override.line, override.column, override.path)
    if _is_named_list(base) and _is_named_list(override):
        return _merge_by_name(base, override)
    return override


def _is_named_list(node: Node) -> bool:
    return isinstance(node.value, list) and all(_name_of(item) for item in node.value)


def _name_of(item: Node) -> str | None:
    """The name of a list entry such as a meld, if it is a mapping with a string name."""
    name = item.value.get("name") if isinstance(item.value, dict) else None
    return name.value if name is not None and isinstance(name.value, str) else None


def _merge_by_name(base: Node, override: Node) -> Node:
    from meldcalc.schema import Node

    items = {item.value["name"].value: item for item in base.value}
    seen: set[object] = set()
    for item in override.value:
        name_node = item.value["name"]
        name = name_node.value
        if name in seen:
            raise VariantError([name_node.problem(f"a second meld named {name!r}")])
        seen.add(name)
        items[name] = merge(items[name], item) if name in items else item
    return Node(list(items.values()), override.file, override.line, override.column, override.path)


def build_variant(tree: Node) -> Variant:
    """Check a merged tree against the spec and the game's arithmetic, then model it."""
    from meldcalc.schema import variant_spec

    problems: list[str] = []
    variant_spec(complete=True).check(tree, problems)
    if problems:
        raise VariantError(problems)
    problems.extend(_semantic_problems(tree))
    if problems:
        raise VariantError(problems)
    variant = _model(tree.plain(), tree.file)
    _check_search_size(variant, tree)
    return variant


def _check_search_size(variant: Variant, tree: Node) -> None:
    """Melds that compete for the same cards in too many ways would make counting slow."""
    from meldcalc.meld import MAX_COMBINATIONS, hardest_component

    combinations, names = hardest_component(variant)
    if combinations > MAX_COMBINATIONS:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise VariantError(
            [
                tree.value["melds"].problem(
                    f"{len(names)} melds of one class share cards ({shown}): more than"
                    f" {MAX_COMBINATIONS:,} ways to combine their copies to search"
                )
            ]
        )


def _semantic_problems(tree: Node) -> list[str]:
    """What the spec cannot see: cards the deck lacks, names, the size of the deal."""
    fields = tree.value
    ranks = fields["deck"].value["ranks"]
    deck_ranks = {_rank(node.value) for node in ranks.value}
    problems = [
        *_rank_problems(ranks),
        *_deal_problems(tree, len(deck_ranks)),
        *_meld_problems(fields["melds"], deck_ranks, fields["deck"].value["copies"].value),
        *_increment_problems(fields["bidding"]),
        *_passing_problems(tree),
    ]
    for key, node in fields["tricks"].value["counters"].value.items():
        if _rank(key) not in deck_ranks:
            problems.append(node.problem(f"rank {quote(key)} is not in the deck"))
    return problems


def _blame(tree: Node, *nodes: Node) -> Node:
    """Of the nodes a problem involves, the first the user's own file wrote.

    A house file that changes one value can make an inherited one wrong; the problem is
    reported where the house file made it, not in the shipped parent."""
    return next((node for node in nodes if node.file == tree.file), nodes[0])


def _rank_problems(ranks: Node) -> list[str]:
    seen: set[Rank] = set()
    problems = []
    for node in ranks.value:
        if _rank(node.value) in seen:
            problems.append(node.problem(f"rank {quote(node.value)} is listed twice"))
        seen.add(_rank(node.value))
    return problems


def _deal_problems(tree: Node, ranks: int) -> list[str]:
    fields = tree.value
    deck = fields["deck"].value
    size = len(SUITS) * ranks * deck["copies"].value
    players, hand = fields["players"], fields["hand_size"]
    widow, stock = fields.get("widow"), fields.get("stock")
    problems = []
    if fields["partnerships"].value and players.value % 2:
        where = _blame(tree, fields["partnerships"], players)
        problems.append(
            where.problem(f"partnerships need an even number of players, got {players.value}")
        )
    dealt = players.value * hand.value + (widow.value if widow else 0)
    dealt += stock.value if stock else 0
    if dealt != size:
        involved = [hand, players, *(n for n in (widow, stock) if n), deck["copies"]]
        problems.append(
            _blame(tree, *involved).problem(
                f"{players.value} players x {hand.value} cards + widow"
                f" {widow.value if widow else 0} + stock {stock.value if stock else 0}"
                f" = {dealt} cards, but the deck holds {size}"
            )
        )
    return problems


def _meld_problems(melds: Node, deck_ranks: set[Rank], copies: int) -> list[str]:
    problems: list[str] = []
    names = [meld.value["name"].value for meld in melds.value]
    for meld in melds.value:
        problems += _meld_card_problems(meld, deck_ranks, copies)
        fields = meld.value
        if "reuse" in fields:
            for node in _as_list(fields["reuse"].value["melds"]):
                if node.value not in names:
                    problems.append(node.problem(f"no meld named {quote(node.value)}"))
    for i, name in enumerate(names):
        if name in names[:i]:
            node = melds.value[i].value["name"]
            problems.append(node.problem(f"a second meld named {quote(name)}"))
    return problems


def _meld_card_problems(meld: Node, deck_ranks: set[Rank], copies: int) -> list[str]:
    """Cards the deck lacks, or a meld needing more copies of a card than the deck holds."""
    fields, problems = meld.value, []
    for key in ("trump", "non_trump", "around"):
        if key in fields:
            nodes = _as_list(fields[key])
            for node in nodes:
                if _rank(node.value) not in deck_ranks:
                    problems.append(node.problem(f"rank {quote(node.value)} is not in the deck"))
            needed = max(Counter(_rank(node.value) for node in nodes).values())
            if needed > copies:
                problems.append(
                    fields[key].problem(
                        f"needs {needed} copies of a card; the deck holds {copies} of each"
                    )
                )
    if "cards" in fields:
        for node in fields["cards"].value:
            if _rank(node.value[:-1]) not in deck_ranks:
                problems.append(node.problem(f"card {quote(node.value)} is not in the deck"))
        cards = Counter(Card.parse(node.value) for node in fields["cards"].value)
        card, needed = cards.most_common(1)[0]
        if needed > copies:
            problems.append(
                fields["cards"].problem(
                    f"needs {needed} copies of {card}; the deck holds {copies} of each"
                )
            )
    return problems


def _increment_problems(bidding: Node) -> list[str]:
    if not isinstance(bidding.value, dict):
        return []
    increments = bidding.value["increments"]
    starts = [inc.value["from"].value for inc in increments.value]
    if starts != sorted(set(starts)):
        return [increments.problem(f"expected increments in rising order of from; got {starts}")]
    return []


def _passing_problems(tree: Node) -> list[str]:
    """A pass goes between partners sitting opposite, of fewer cards than a hand."""
    fields = tree.value
    passing = fields.get("passing")
    if passing is None or not isinstance(passing.value, dict):
        return []
    players, partnerships = fields["players"], fields["partnerships"]
    problems = []
    if not partnerships.value or players.value != 4:
        where = _blame(tree, passing, players, partnerships)
        problems.append(
            where.problem("a card pass needs a partner: four players in two partnerships")
        )
    widow = fields.get("widow")
    if widow is not None and widow.value:
        problems.append(
            _blame(tree, passing, widow).problem(
                "a card pass and a widow in one game: expected one or the other"
            )
        )
    cards, hand = passing.value["cards"], fields["hand_size"]
    if cards.value >= hand.value:
        problems.append(
            _blame(tree, cards, hand).problem(
                f"passing {cards.value} cards from a hand of {hand.value}: expected fewer"
            )
        )
    simultaneous = passing.value.get("simultaneous")
    if simultaneous is not None and simultaneous.value and passing.value["kind"].value != "plain":
        problems.append(
            simultaneous.problem("only a plain pass can be simultaneous: the exchange asks first")
        )
    return problems


def _as_list(node: Node) -> list[Node]:
    return node.value if isinstance(node.value, list) else [node]


def _rank(value: object) -> Rank:
    return RANK_TOKENS[str(value).upper()]


def _points(value: int | list[int]) -> tuple[int, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


def _names(value: str | list[str]) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


def _meld(data: dict) -> MeldRule:
    kind = next(key for key in ("trump", "non_trump", "cards", "around") if key in data)
    reuse = data.get("reuse", {})
    return MeldRule(
        name=data["name"],
        classes=_names(data["class"]),
        kind=kind,
        ranks=tuple(_rank(r) for r in _names(data[kind])) if kind != "cards" else (),
        cards=tuple(Card.parse(c) for c in data["cards"]) if kind == "cards" else (),
        points=_points(data["points"]),
        checks=_points(data["checks"]) if "checks" in data else (),
        reuses=_names(reuse.get("melds", [])),
        reuse_from=reuse.get("from_copies", 0),
    )


def _bidding(data: dict | str) -> Bidding | None:
    if not isinstance(data, dict):
        return None
    return Bidding(
        opening=data["opening"],
        increments=tuple(Increment(inc["from"], inc["by"]) for inc in data["increments"]),
        dealer_forced=data.get("dealer_forced", False),
        marriage_in_trump=data.get("marriage_in_trump", False),
        game=data.get("game"),
        concede=data.get("concede", True),
        rounds=data.get("rounds"),
        both_reach=data.get("both_reach", "higher"),
    )


def _passing(data: dict | str | None) -> Passing | None:
    if not isinstance(data, dict):  # absent, or 'none' in a file that turns it off
        return None
    return Passing(data["kind"], data["cards"], data.get("simultaneous", False))


def _model(data: dict, file: str) -> Variant:
    play, house = data.get("play", {}), data.get("house", {})
    return Variant(
        name=data["name"],
        title=data["title"],
        source=data["source"],
        description=" ".join(data.get("description", "").split()),
        path=Path(file),
        deck=Deck(tuple(_rank(r) for r in data["deck"]["ranks"]), data["deck"]["copies"]),
        players=data["players"],
        partnerships=data["partnerships"],
        hand_size=data["hand_size"],
        widow=data.get("widow", 0),
        stock=data.get("stock", 0),
        melds=tuple(_meld(meld) for meld in data["melds"]),
        counters={_rank(k): v for k, v in data["tricks"]["counters"].items()},
        last_trick=data["tricks"]["last_trick"],
        bidding=_bidding(data["bidding"]),
        head=play.get("head", "always"),
        overtrump=play.get("overtrump", True),
        meld_minimum=house.get("meld_minimum", 0),
        house=HouseRules(
            save_meld=house.get("save_meld"),
            set_penalty=house.get("set_penalty", 1),
            thrown_in=ThrownIn(**house.get("thrown_in", {})),
        ),
        passing=_passing(data.get("passing")),
        data=data,
    )
