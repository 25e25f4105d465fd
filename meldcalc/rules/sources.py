"""Where a variant's numbers come from: the ones no source gives are marked house defaults.

A variant file cites its sources in ``source``; a number that is meldcalc's own reading
(no rule book or page gives it) is listed by its key path in ``house_defaults``, and
`meldcalc table` marks it. A path is keys joined by dots; ``[NAME]`` picks a named list's
entry, ``[N]`` a points or checks list's value for N copies::

    house_defaults: [bidding.opening, bidding.increments, melds[run].checks[2]]

A mark follows the value down an ``extends`` chain, and a file that sets the value itself
drops it: the number is then the file's own.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from meldcalc.errors import quote

if TYPE_CHECKING:
    from meldcalc.rules.yamlfile import Node

KEY = "house_defaults"
_STEP = re.compile(r"([a-z_]+)(?:\[([^\]]+)\])?")
EXAMPLE = "a key path such as bidding.opening, tricks.last_trick or melds[run].checks[2]"


def find(tree: Node, path: str) -> Node | None:
    """The value ``path`` names in ``tree``; None where it names none."""
    node = tree
    for part in path.split("."):
        step = _STEP.fullmatch(part)
        if step is None or not isinstance(node.value, dict) or step[1] not in node.value:
            return None
        node = node.value[step[1]]
        if step[2] is not None:
            node = _item(node, step[2])
            if node is None:
                return None
    return node


def _item(node: Node, key: str) -> Node | None:
    """A list's entry: by name, or (a number) the value for that many copies."""
    if not isinstance(node.value, list):
        return None
    if key.isdigit():
        copies = int(key)
        return node.value[copies - 1] if 1 <= copies <= len(node.value) else None
    named = (item for item in node.value if isinstance(item.value, dict))
    return next((item for item in named if _name(item) == key), None)


def _name(item: Node) -> object:
    name = item.value.get("name")
    return None if name is None else name.value


def _whole(path: str) -> str:
    """The path without its last ``[N]``: the list a copy count's value is in."""
    return re.sub(r"\[\d+\]$", "", path)


def carried(trees: list[Node]) -> list[Node]:
    """The marks of a chain of files (the file first, then what it extends), each taken
    out of its file: a parent's mark is dropped where a file below it sets the value."""
    marks: list[Node] = []
    for tree in reversed(trees):
        own = tree.value.pop(KEY, None)
        marks = [mark for mark in marks if not _sets(tree, mark.value)]
        if own is not None and isinstance(own.value, list):
            marks += own.value
    return marks


def _sets(tree: Node, path: object) -> bool:
    if not isinstance(path, str):
        return False
    return find(tree, path) is not None or find(tree, _whole(path)) is not None


def put_back(merged: Node, marks: list[Node]) -> Node:
    """The merged tree with the marks that survived its chain, where there are any."""
    if not marks:
        return merged
    node = dataclasses.replace(marks[0], value=marks, path=KEY)
    return dataclasses.replace(merged, value={**merged.value, KEY: node})


def mark_problems(tree: Node) -> list[str]:
    """Each mark must name a value the variant has."""
    node = tree.value.get(KEY)
    if node is None or not isinstance(node.value, list):
        return []
    return [
        mark.problem(f"{quote(mark.value)} names no value of the variant: expected {EXAMPLE}")
        for mark in node.value
        if isinstance(mark.value, str) and find(tree, mark.value) is None
    ]
