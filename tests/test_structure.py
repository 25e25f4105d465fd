"""The shape of the code: imports run one way, and no module outgrows a reader."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "meldcalc"
#: A module longer than this is two concepts, or one that wants a module of its own.
MAX_LINES = 720  # "about 700"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The meldcalc modules ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found & modules


def _import_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    modules = set(paths)
    # the package itself only names the version: every module may import it
    return {name: _imports(path, modules) - {name, "meldcalc"} for name, path in paths.items()}


def _cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        module, path = stack.pop()
        for used in sorted(graph[module]):
            if used == start:
                return [*path, start]
            if used not in seen:
                seen.add(used)
                stack.append((used, [*path, used]))
    return None


def test_every_module_stands_above_what_it_imports() -> None:
    graph = _import_graph()
    cycles = [cycle for name in graph if (cycle := _cycle_from(name, graph))]
    assert cycles == []


def test_the_import_check_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle_from("a", graph) == ["a", "b", "c", "a"]
    assert _cycle_from("d", graph) is None


def test_no_module_is_longer_than_a_reader_can_hold() -> None:
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}
