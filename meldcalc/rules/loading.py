"""Variant files: found (a shipped name or a path), read, merged (``extends``), checked
and modelled as a `Variant`. `load_variant` takes a shipped name or a path.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meldcalc.errors import VariantError, did_you_mean, quote, shown_path
from meldcalc.rules.cards import RANK_TOKENS, RANKS, SUITS, Card, Rank
from meldcalc.rules.rulefile import decode_source, display_name, read_source, shipped_dir
from meldcalc.rules.semantics import blame, table_problems
from meldcalc.rules.sources import KEY as DEFAULTS_KEY
from meldcalc.rules.sources import carried, mark_problems, put_back
from meldcalc.rules.variant import (
    Bidding,
    Deck,
    HouseRules,
    Increment,
    MeldRule,
    Passing,
    StockPlay,
    ThrownIn,
    Variant,
)

if TYPE_CHECKING:  # the schema (and YAML) are imported only when a file is loaded
    from meldcalc.rules.yamlfile import Node

DEFAULT_VARIANT = "single-deck"


def shipped_names() -> list[str]:
    return sorted(path.stem for path in shipped_dir().glob("*.yaml"))


def example_names() -> list[str]:
    """The house files shipped as examples to copy, by the name ``-V`` takes for them:
    ``examples/house-roundhouse``."""
    return sorted(f"examples/{path.stem}" for path in (shipped_dir() / "examples").glob("*.yaml"))


def is_shipped(name: str) -> bool:
    """Whether ``name`` is a shipped variant's or example's name (not a path)."""
    return name in shipped_names() or name in example_names()


#: How many files an ``extends`` chain may hold (the shipped variants use at most three).
MAX_CHAIN = 16


def load_variant(spec: str | Path) -> Variant:
    """A variant by shipped name (``double-deck``) or by path (``./house.yaml``)."""
    if not isinstance(spec, (str, os.PathLike)):
        got = f"{type(spec).__name__} {quote(spec)}"
        raise TypeError(f"expected a variant's name or a path (str or Path), got {got}")
    return _load_checked(resolve(spec))


def load_variant_file(path: Path) -> Variant:
    """A variant from this very file (never a shipped name), read and checked afresh, as
    ``meldcalc check`` must: it never takes the cache's word for a file."""
    return _load_checked(path, use_cache=False)


def variant_from_data(data: object, file: str, line: int = 1, path: str = "") -> Variant:
    """A variant from fields kept in another file (a game's ledger keeps the rules it began
    with), checked as a variant file is: a problem names ``file``, ``line`` and the key
    ``path``."""
    from meldcalc.rules.schema import describe

    if not isinstance(data, dict):
        where = f"{file}:{line}:1: {path + ': ' if path else ''}"
        raise VariantError([f"{where}expected a mapping of variant fields, got {describe(data)}"])
    return build_variant(_plain_tree(data, file, line, path))


def _plain_tree(value: Any, file: str, line: int = 1, path: str = "") -> Node:
    """Nodes for plain data kept in another file than YAML (a game's ledger keeps its rules
    as JSON on one line), each placed at ``line`` of ``file``: a problem names that line and
    the key path under ``path``. At most `MAX_VALUES` values, as in a YAML file."""
    from meldcalc.rules.yamlfile import MAX_VALUES, Node

    count = 0

    def node(value: Any, path: str) -> Node:
        nonlocal count
        count += 1
        if count > MAX_VALUES:
            raise VariantError([f"{file}:{line}:1: {path}: more than {MAX_VALUES} values"])
        if isinstance(value, dict):
            items = {str(k): node(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
            return Node(items, file, line, 1, path)
        if isinstance(value, list):
            values = [node(v, f"{path}[{i}]") for i, v in enumerate(value)]
            return Node(values, file, line, 1, path)
        return Node(value, file, line, 1, path)

    try:
        return node(value, path)
    except RecursionError:
        raise VariantError([f"{file}:{line}:1: {path}: nested too deep for a variant"]) from None


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
    from meldcalc.rules import cache

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


def resolve(spec: str | Path, base: Path | None = None) -> Path:
    """The file a variant name or path stands for; a path is taken relative to ``base``."""
    text = str(spec)
    if not text.strip():
        raise VariantError([f"expected a variant name or a YAML file, got {quote(text)}"])
    if is_shipped(text):
        return shipped_dir() / f"{text}.yaml"
    looks_like_path = "/" in text or text.endswith((".yaml", ".yml")) or "\\" in text
    path = (base / text) if base is not None and not Path(text).is_absolute() else Path(text)
    if looks_like_path and not os.path.lexists(path):
        stem = Path(text).stem  # 'single-deck.yaml' for the shipped 'single-deck'
        shipped = f"; did you mean {stem!r}?" if "/" not in text and is_shipped(stem) else ""
        hint = shipped or did_you_mean(text, example_names())
        raise VariantError([f"{shown_path(text)}: no such variant file{hint}"])
    if looks_like_path or os.path.exists(path):  # False for a name too long, not an error
        return path
    names = shipped_names()
    raise VariantError(
        [
            f"unknown variant {quote(text)}: expected one of {', '.join(names)}, or a path to"
            f" a YAML file{did_you_mean(text, names)}"
        ]
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
    given: Node | None = None
    while True:
        content = first if first is not None and not trees else _read_parent(path, extends)
        if sources is not None:
            sources.append((path, content))
        tree = _parse_file(path, content, extends)
        trees.append(tree)
        seen.append(path.resolve())
        extends = tree.value.pop("extends", None)
        if extends is None:
            break
        given = given or extends  # the file given's own: a chain too long is told there
        path = _parent_of(extends, path, seen, given)
    marks = carried(trees)  # the house defaults, each file's dropped where set below
    merged = trees.pop()
    while trees:
        merged.value.pop("description", None)  # a file's own words: never inherited, as a
        merged = merge(merged, trees.pop())  # parent's would describe other numbers
    return put_back(merged, marks)


def _read_parent(path: Path, extends: Node | None) -> bytes:
    """Read a file; problems with a parent are reported at the ``extends`` that names it."""
    try:
        return read_source(path)
    except VariantError as error:
        if extends is None:
            raise
        raise VariantError([extends.problem(error.problems[0])]) from None


def _parse_file(path: Path, content: bytes, extends: Node | None = None) -> Node:
    """The file's Node tree. A parent that is no variant file at all (``extends:
    /etc/passwd``) is told at the ``extends`` that names it, without quoting its text: a
    house file from elsewhere must not make meldcalc show what another file holds."""
    from meldcalc.rules.schema import describe
    from meldcalc.rules.yamlfile import read_yaml

    name = display_name(path)
    try:
        tree = read_yaml(decode_source(content, name), name)
    except VariantError as error:  # a parent that is no YAML: told at its extends too
        if extends is None:
            raise
        raise VariantError([extends.problem(problem) for problem in error.problems]) from None
    if not isinstance(tree.value, dict):
        got = describe(tree.plain()) if extends is None else _kind(tree.value)
        problem = f"expected a mapping of variant fields, got {got}"
    elif "name" not in tree.value:
        problem = "missing field 'name': every variant file names itself"
    else:
        return tree
    if extends is None:
        raise VariantError([tree.problem(problem)])
    raise VariantError([extends.problem(f"{name}: not a variant file ({problem})")])


def _kind(value: object) -> str:
    """What a parent file holds, named and never quoted: a list, text, a number."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return "nothing" if value is None else "a date"


def _parent_of(extends: Node, path: Path, seen: list[Path], given: Node) -> Path:
    """The file ``extends`` names, resolved from the folder of ``path`` as the user named it;
    a chain longer than `MAX_CHAIN` is told at ``given``, the ``extends`` of the file the
    user gave (where it can be cut short), naming the file where it passed the bound."""
    from meldcalc.rules.schema import describe

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
        last = f"the {MAX_CHAIN}th, {display_name(path)}, extends {describe(extends.value)}"
        raise VariantError(
            [given.problem(f"more than {MAX_CHAIN} files in the extends chain ({last})")]
        )
    return parent


def merge(base: Node, override: Node) -> Node:
    """``override`` on top of ``base``: mappings merge by key, named lists by name."""
    if isinstance(base.value, dict) and isinstance(override.value, dict):
        merged = dict(base.value)
        for key, node in override.value.items():
            if node.value is None and key in base.value:  # ``K: null``: drop what is inherited
                del merged[key]
                continue
            merged[key] = merge(base.value[key], node) if key in base.value else node
        return dataclasses.replace(override, value=merged)
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
    items = {item.value["name"].value: item for item in base.value}
    seen: set[object] = set()
    for item in override.value:
        name_node = item.value["name"]
        name = name_node.value
        if name in seen:
            raise VariantError([name_node.problem(f"a second meld named {name!r}")])
        seen.add(name)
        if _dropped(item, name in items):
            del items[name]
            continue
        items[name] = merge(items[name], item) if name in items else item
    return dataclasses.replace(override, value=list(items.values()))


def _dropped(item: Node, inherited: bool) -> bool:
    """Whether a named entry says ``drop: true``: it removes the inherited entry of that
    name (and only an inherited one: there is nothing else to drop)."""
    drop = item.value.get("drop")
    if drop is None:
        return False
    name = item.value["name"].value
    if drop.value is not True or len(item.value) != 2:
        raise VariantError(
            [drop.problem(f"expected 'drop: true' and the name alone, to drop {name!r}")]
        )
    if not inherited:
        raise VariantError([drop.problem(f"no inherited meld named {name!r} to drop")])
    return True


def build_variant(tree: Node) -> Variant:
    """Check a merged tree against the spec and the game's arithmetic, then model it."""
    from meldcalc.rules.schema import variant_spec

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
    from meldcalc.rules.meld import MAX_COMBINATIONS, hardest_component

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
        *_meld_problems(
            fields["melds"],
            deck_ranks,
            fields["deck"].value["copies"].value,
            tree.file if ranks.file == tree.file else None,
        ),
        *_inherited_rank_problems(tree, ranks, deck_ranks),
        *_increment_problems(fields["bidding"]),
        *table_problems(tree),
        *mark_problems(tree),
        *_stock_play_problems(tree),
        *_system_problems(tree),
    ]
    for key, node in fields["tricks"].value["counters"].value.items():
        if _rank(key) not in deck_ranks and node.file == tree.file:
            problems.append(node.problem(f"rank {quote(key)} is not in the deck"))
    return problems


def _inherited_rank_problems(tree: Node, ranks: Node, deck_ranks: set[Rank]) -> list[str]:
    """A deck this file made smaller than its parent's, whose inherited melds or counters
    name the ranks it left out: said at this file's deck, with the way to drop them."""
    if ranks.file != tree.file:
        return []
    problems = []
    for meld in tree.value["melds"].value:
        needs = _meld_ranks(meld) - deck_ranks
        if needs and meld.file != tree.file:
            name = meld.value["name"].value
            problems.append(
                ranks.problem(
                    f"the deck leaves out {_ranks_text(needs)}, which the inherited meld"
                    f" {name!r} needs: drop it with '- {{name: {name}, drop: true}}' under melds"
                )
            )
    counters = tree.value["tricks"].value["counters"]
    for key, node in counters.value.items():
        if _rank(key) not in deck_ranks and node.file != tree.file:
            problems.append(
                ranks.problem(
                    f"the deck leaves out {key}, which the inherited trick counters count:"
                    f" drop it with 'counters: {{{key}: null}}' under tricks"
                )
            )
    return problems


def _meld_ranks(meld: Node) -> set[Rank]:
    """The ranks a meld's cards are of."""
    fields = meld.value
    nodes = [
        node
        for key in ("trump", "non_trump", "around")
        if key in fields
        for node in _as_list(fields[key])
    ]
    cards = fields["cards"].value if "cards" in fields else []
    return {_rank(node.value) for node in nodes} | {_rank(node.value[:-1]) for node in cards}


def _ranks_text(ranks: set[Rank]) -> str:
    return " and ".join(rank.value for rank in RANKS if rank in ranks)


def _rank_problems(ranks: Node) -> list[str]:
    """Each rank once, high to low as pinochle ranks them (A 10 K Q J 9): the trick rules
    of every engine rank cards so, and a deck that listed them otherwise would be played
    by rules it does not state."""
    seen: list[Rank] = []
    problems = []
    for node in ranks.value:
        rank = _rank(node.value)
        if rank in seen:
            problems.append(node.problem(f"rank {quote(node.value)} is listed twice"))
        elif seen and RANKS.index(rank) < RANKS.index(seen[-1]):
            order = " ".join(r.value for r in RANKS)
            problems.append(
                node.problem(
                    f"rank {quote(node.value)} is listed after {seen[-1].value}: ranks go"
                    f" high to low, in pinochle's order {order} (leave out the ranks the"
                    " deck lacks; meldcalc plays no other order)"
                )
            )
        seen.append(rank)
    return problems


def _deal_problems(tree: Node, ranks: int) -> list[str]:
    fields = tree.value
    deck = fields["deck"].value
    size = len(SUITS) * ranks * deck["copies"].value
    players, hand = fields["players"], fields["hand_size"]
    widow, stock = fields.get("widow"), fields.get("stock")
    problems = []
    if fields["partnerships"].value and (players.value % 2 or players.value < 4):
        where = blame(tree, fields["partnerships"], players)
        problems.append(  # two players are two sides, not a partnership
            where.problem(
                f"partnerships need an even number of players, 4 or more, got {players.value}"
            )
        )
    dealt = players.value * hand.value + (widow.value if widow else 0)
    dealt += stock.value if stock else 0
    if dealt != size:
        involved = [hand, players, *(n for n in (widow, stock) if n), deck["copies"]]
        problems.append(
            blame(tree, *involved).problem(
                f"{players.value} players x {hand.value} cards + widow"
                f" {widow.value if widow else 0} + stock {stock.value if stock else 0}"
                f" = {dealt} cards, but the deck holds {size}"
            )
        )
    return problems


def _meld_problems(
    melds: Node, deck_ranks: set[Rank], copies: int, deck_file: str | None
) -> list[str]:
    """``deck_file``: the file that set the deck's ranks, when it is the user's own; an
    inherited meld of a rank it left out is then said at its deck, not at the parent's meld
    (`_inherited_rank_problems`)."""
    problems: list[str] = []
    names = [meld.value["name"].value for meld in melds.value]
    for meld in melds.value:
        inherited = deck_file is not None and meld.file != deck_file
        problems += _meld_card_problems(meld, set(RANKS) if inherited else deck_ranks, copies)
        fields = meld.value
        problems += [*_falling_problems(fields, "points"), *_falling_problems(fields, "checks")]
        if "reuse" in fields:
            for node in _as_list(fields["reuse"].value["melds"]):
                if node.value not in names:
                    problems.append(node.problem(f"no meld named {quote(node.value)}"))
    for i, name in enumerate(names):
        if name in names[:i]:
            node = melds.value[i].value["name"]
            problems.append(node.problem(f"a second meld named {quote(name)}"))
    return problems


def _falling_problems(fields: dict, key: str) -> list[str]:
    """A points (or checks) list gives one, two, ... copies: it may not go down. Were a
    double worth less than a single, a hand's total would hang on which other melds share
    its cards (two singles where a meld shares one, the double where none does)."""
    node = fields.get(key)
    if node is None or not isinstance(node.value, list):
        return []
    values = [item.value for item in node.value]
    for i in range(1, len(values)):
        if values[i] < values[i - 1]:
            return [
                node.value[i].problem(
                    f"{values[i]} for {i + 1} copies is less than {values[i - 1]} for {i}:"
                    f" a {key} list gives each number of copies its worth, and more copies are"
                    " never worth less"
                )
            ]
    return []


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


def _stock_play_problems(tree: Node) -> list[str]:
    """The stock game's switches (two-handed) need a stock and no auction."""
    fields = tree.value
    switches, stock = fields.get("stock_play"), fields.get("stock")
    if switches is None or (stock and stock.value and fields["bidding"].value == "none"):
        return []
    why = "stock_play switches the two-handed game: expected a stock and 'bidding: none'"
    return [switches.problem(why)]


def _system_problems(tree: Node) -> list[str]:
    from meldcalc.rules.systemfile import system_problems

    return system_problems(tree)


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
        reuse_beside=reuse.get("beside", 1),
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
        throw_in_advice=data.get("throw_in_advice"),
        system=data.get("system"),
    )


def _passing(data: dict | str | None) -> Passing | None:
    if not isinstance(data, dict):  # absent, or 'none' in a file that turns it off
        return None
    return Passing(data["kind"], data["cards"], data.get("simultaneous", False))


def _stock_play(data: dict) -> StockPlay | None:
    """The stock game's switches where trump is turned up (a stock, no auction)."""
    if not data.get("stock") or data["bidding"] != "none":
        return None
    return StockPlay(**data.get("stock_play", {}))


def _model(data: dict, file: str) -> Variant:
    """The variant of checked fields (merged, as `build_variant` checked them)."""
    variant = _modelled(data, file)
    object.__setattr__(variant, "checked", True)  # (frozen: the loader's mark, set once)
    return variant


def _modelled(data: dict, file: str) -> Variant:
    play, house = data.get("play", {}), data.get("house", {})
    return Variant(
        name=data["name"],
        title=data["title"],
        source=data["source"],
        description=" ".join(data.get("description", "").split()),
        house_defaults=tuple(data.get(DEFAULTS_KEY, ())),
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
        direction=play.get("direction", "clockwise"),
        hands_each=data.get("hands_each", 1),
        meld_minimum=house.get("meld_minimum", 0),
        house=HouseRules(
            save_meld=house.get("save_meld"),
            set_penalty=house.get("set_penalty", 1),
            thrown_in=ThrownIn(**house.get("thrown_in", {})),
            forfeit_under_minimum=house.get("forfeit_under_minimum", False),
            trick_minimum=house.get("trick_minimum", 0),
        ),
        passing=_passing(data.get("passing")),
        stock_play=_stock_play(data),
        data=data,
    )
