"""The shape of the code: the package is cut by layer, every import points down or across,
nothing imports in a circle, and no module outgrows a reader."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "meldcalc"
#: A module longer than this is two concepts, or one that wants a module of its own.
MAX_LINES = 720  # "about 700"

#: The layers, lowest first. A module may import its own layer and the layers before it.
#: The infrastructure (errors, files, console, workers) is the top-level modules.
LAYERS = [
    "meldcalc",  # infrastructure: errors, files, console, workers
    "meldcalc.rules",
    "meldcalc.dealing",
    "meldcalc.engines",
    "meldcalc.advice",
    "meldcalc.learning",
    "meldcalc.game",
    "meldcalc.cli",
    "meldcalc.__main__",
]
#: The Python face (meldcalc/__init__.py) stands above every layer: it loads them lazily.
FACE = "meldcalc"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The meldcalc modules ``path`` imports, at the top or inside a function. A name taken
    from the face (``from meldcalc import Hand``) imports the face, but a module of the
    package (``from meldcalc import console``) and ``__version__`` do not."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update(names)
            if node.module != FACE or names - modules - {f"{FACE}.__version__"}:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found & modules


def _import_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: _imports(path, modules) - {name} for name, path in paths.items()}


def layer_of(module: str) -> int:
    """The index in LAYERS of the layer ``module`` belongs to; the face is above them all."""
    if module == FACE:
        return len(LAYERS)
    parts = module.split(".")
    for depth in range(len(parts), 1, -1):
        if (prefix := ".".join(parts[:depth])) in LAYERS:
            return LAYERS.index(prefix)
    return 0  # a top-level module: the infrastructure


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} -> {used}"
        for module, uses in graph.items()
        for used in uses
        if layer_of(used) > layer_of(module)
    )


def _cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        module, path = stack.pop()
        for used in sorted(graph.get(module, ())):
            if used == start:
                return [*path, start]
            if used not in seen:
                seen.add(used)
                stack.append((used, [*path, used]))
    return None


def test_every_import_points_to_the_same_layer_or_a_lower_one() -> None:
    assert upward_imports(_import_graph()) == []


def test_the_layer_check_sees_an_import_that_climbs() -> None:
    graph = _import_graph()
    graph["meldcalc.rules.meld"] = graph["meldcalc.rules.meld"] | {"meldcalc.engines.simulate"}
    graph["meldcalc.files"] = graph["meldcalc.files"] | {"meldcalc.rules.cards"}
    assert upward_imports(graph) == [
        "meldcalc.files -> meldcalc.rules.cards",
        "meldcalc.rules.meld -> meldcalc.engines.simulate",
    ]


def test_every_module_lives_in_a_layer_the_order_names() -> None:
    top_level = {"errors", "files", "console", "workers", "__main__", "__init__"}
    strays = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if (path.parent == PACKAGE and path.stem not in top_level)
        or (path.parent != PACKAGE and f"meldcalc.{path.parent.name}" not in LAYERS)
    ]
    assert strays == []


def test_every_layer_says_what_it_holds_and_what_it_may_import() -> None:
    undocumented = [
        layer
        for layer in LAYERS[1:-1]
        if not ast.get_docstring(
            ast.parse((PACKAGE / layer.split(".")[1] / "__init__.py").read_text())
        )
    ]
    assert undocumented == []


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


#: The design card's top level: these files and folders, nothing else in the repository.
TOP_LEVEL = {
    "pyproject.toml", "README.md", "meldcalc", "tests", "variants", "completions", ".ci",
    "bench", ".gitignore",
}  # fmt: skip


def test_the_repository_holds_only_the_design_cards_top_level() -> None:
    root = PACKAGE.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout (an installed copy): nothing to list")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    assert {path.split("/")[0] for path in listed.splitlines()} <= TOP_LEVEL
