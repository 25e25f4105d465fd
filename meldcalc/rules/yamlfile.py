"""A variant file's YAML read into a tree of `Node`s that remember the file, line, column and
key path they came from, so that every problem can say where it is.

Only plain values are read (the safe loader, no tags, no merge keys), integers as a player
writes them, and aliases only up to `MAX_VALUES`: a YAML surprise is a positioned problem in
meldcalc's words, never an exception or another library's message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldcalc.errors import VariantError, quote, shown_path


@dataclass
class Node:
    """A YAML value with the place it was written: a dict or list of Nodes, or a scalar;
    a mapping's value also remembers where its key was written (``key_at``: line, column)."""

    value: Any
    file: str
    line: int
    column: int
    path: str = ""
    key_at: tuple[int, int] | None = None

    def where(self, path: str | None = None, at: tuple[int, int] | None = None) -> str:
        """``file:line:column: path: `` (the path of keys cut to a readable length), at the
        value, or at ``at``; ``file: path: `` for values read from no file's line (line 0:
        a variant's fields in Python)."""
        path = self.path if path is None else path
        line, column = at or (self.line, self.column)
        place = f"{self.file}:{line}:{column}" if line else self.file
        return f"{place}: {shown_path(path) + ': ' if path else ''}"

    def problem(self, message: str, path: str | None = None) -> str:
        return self.where(path) + message

    def key_problem(self, message: str) -> str:
        """A problem with the key this value is under (unknown, badly spelt), placed at
        the key; at the value where the key's place is not known."""
        return self.where(at=self.key_at) + message

    def plain(self) -> Any:
        """The value with every Node unwrapped."""
        if isinstance(self.value, dict):
            return {key: node.plain() for key, node in self.value.items()}
        if isinstance(self.value, list):
            return [node.plain() for node in self.value]
        return self.value


#: Values a file may expand to through aliases: a real variant has a few hundred, and a
#: "billion laughs" file of nested aliases must be refused before it eats the memory.
MAX_VALUES = 20_000
_CORE_TAG = "tag:yaml.org,2002:"


def read_yaml(text: str, file: str) -> Node:
    """Parse one YAML document (safe loader only) into Nodes.

    Duplicate keys, explicit tags (``!!int``, ``!!python/object``: a variant file holds plain
    values only), values that cannot be converted, and alias expansion past `MAX_VALUES`
    are problems reported at their place, never exceptions.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        root = loader.get_single_node()
        if root is None:
            raise VariantError([f"{file}:1:1: empty file: expected a mapping of variant fields"])
        reader = _NodeReader(loader, file)
        tree = reader.node(root, "")
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{file}:{mark.line + 1}:{mark.column + 1}" if mark else f"{file}:1:1"
        what = ", ".join(part for part in (error.context, error.problem) if part)
        raise VariantError([f"{where}: syntax error: {what}"]) from None
    except yaml.reader.ReaderError as error:
        line, column = _line_column(text, error.position)
        character = error.character
        shown = repr(chr(character) if isinstance(character, int) else character)
        what = f"character {shown} is not allowed in a YAML file"
        raise VariantError([f"{file}:{line}:{column}: {what}"]) from None
    except (yaml.YAMLError, RecursionError) as error:
        deep = isinstance(error, RecursionError)
        why = "nested too deep, or an alias inside itself" if deep else quote(str(error), 80)
        raise VariantError([f"{file}:1:1: cannot read the YAML: {why}"]) from None
    finally:
        loader.dispose()
    if reader.problems:
        raise VariantError(reader.problems)
    return tree


#: More digits than any bound of a variant file, short of Python's own limit (4,300), whose
#: message would name Python's internals; below it the field's bound says what is expected.
MAX_DIGITS = 4000


def _integer_problem(text: str) -> str | None:
    """What is wrong with an integer as YAML 1.1 reads it, where it would not read as a
    player means it: ``0250`` is octal 168, ``0x1F`` hexadecimal, ``1_000`` and ``1:30``
    (base 60) other spellings; a number too long to be any bound of a variant."""
    digits = text.lstrip("+-")
    if not digits.isdigit():
        return f"{quote(text)}: expected a whole number written in digits, such as 250"
    if len(digits) > 1 and digits.startswith("0"):
        return (
            f"{quote(text)}: a number with a leading zero (YAML reads it as octal,"
            f" {int(digits, 8) if set(digits) <= set('01234567') else 'not as written'}):"
            f" write {int(digits)}"
        )
    if len(digits) > MAX_DIGITS:
        return f"a number of {len(digits)} digits, far beyond any bound of a variant file"
    return None


def _line_column(text: str, position: int) -> tuple[int, int]:
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


class _NodeReader:
    """Turns composed YAML nodes into `Node`s, collecting problems as it goes."""

    def __init__(self, loader: Any, file: str) -> None:
        self.loader, self.file = loader, file
        self.problems: list[str] = []
        self.values = 0

    def node(self, node: Any, path: str) -> Node:
        import yaml

        self.values += 1
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        if self.values > MAX_VALUES:
            raise VariantError(
                [
                    f"{self.file}:{line}:{column}: {path + ': ' if path else ''}more than"
                    f" {MAX_VALUES} values, counting what aliases repeat: a variant file"
                    " needs a few hundred"
                ]
            )
        tag = self._unexpected_tag(node)
        if tag is not None:
            where = Node(None, self.file, line, column, path)
            self.problems.append(
                where.problem(f"unexpected YAML tag {tag!r}: a variant file holds plain values")
            )
            return where
        if isinstance(node, yaml.MappingNode):
            return Node(self._mapping(node, path), self.file, line, column, path)
        if isinstance(node, yaml.SequenceNode):
            values = [self.node(item, f"{path}[{i}]") for i, item in enumerate(node.value)]
            return Node(values, self.file, line, column, path)
        return Node(self._scalar(node, line, column, path), self.file, line, column, path)

    def _mapping(self, node: Any, path: str) -> dict[str, Node]:
        items: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key_line, key_column = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            if key_node.tag == f"{_CORE_TAG}merge":
                self.problems.append(
                    f"{self.file}:{key_line}:{key_column}: {path + ': ' if path else ''}a YAML"
                    " merge key ('<<'): not read in a variant file; write the fields out, or"
                    " start from another variant with 'extends'"
                )
                continue
            key = str(self._scalar(key_node, key_line, key_column, path))
            child = f"{path}.{key}" if path else key
            if key in items:
                self.problems.append(
                    f"{self.file}:{key_line}:{key_column}: {child}: duplicate key {quote(key)}"
                )
            items[key] = self.node(value_node, child)
            items[key].key_at = (key_line, key_column)
        return items

    def _scalar(self, node: Any, line: int, column: int, path: str) -> Any:
        """The value of a scalar; one that cannot be converted is a problem, kept as text."""
        import yaml

        if not isinstance(node, yaml.ScalarNode):
            self.problems.append(
                f"{self.file}:{line}:{column}: {path + ': ' if path else ''}expected a plain key"
            )
            return "?"
        where = f"{self.file}:{line}:{column}: {path + ': ' if path else ''}"
        if node.tag == f"{_CORE_TAG}int" and (problem := _integer_problem(node.value)):
            self.problems.append(f"{where}{problem}")
            return node.value
        try:
            return self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as error:
            where = f"{self.file}:{line}:{column}: {path + ': ' if path else ''}"
            self.problems.append(f"{where}cannot read {quote(node.value)}: {quote(str(error), 80)}")
            return node.value

    def _unexpected_tag(self, node: Any) -> str | None:
        """The tag written on ``node``, if it differs from what its plain form would be."""
        import yaml

        if isinstance(node, yaml.ScalarNode):
            plain = node.style in (None, "")
            implied = (
                self.loader.resolve(yaml.ScalarNode, node.value, (True, False))
                if plain
                else f"{_CORE_TAG}str"
            )
        elif isinstance(node, yaml.MappingNode):
            implied = f"{_CORE_TAG}map"
        else:
            implied = f"{_CORE_TAG}seq"
        if node.tag == implied:
            return None
        return node.tag.replace(_CORE_TAG, "!!")
