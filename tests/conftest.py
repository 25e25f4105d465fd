from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def single_deck() -> Variant:
    return load_variant("single-deck")


@pytest.fixture(scope="session")
def double_deck() -> Variant:
    return load_variant("double-deck")


@pytest.fixture(autouse=True, scope="session")
def _private_variant_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch the user's cache folder."""
    os.environ["MELDCALC_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(autouse=True, scope="session")
def _study_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Tests never touch the user's data folder: the quiz's study files go here."""
    yield tmp_path_factory.mktemp("data")


_STUDIES = itertools.count()


@pytest.fixture(autouse=True)
def _private_study_file(_study_files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own study folder (made only if the test quizzes), so what one test
    answers never changes what another is asked."""
    monkeypatch.setenv("MELDCALC_DATA_DIR", str(_study_files / f"{next(_STUDIES):05d}"))


@pytest.fixture(autouse=True, scope="session")
def _one_click_command_per_app() -> Iterator[None]:
    """``CliRunner.invoke`` turns the Typer app into a click command on every call (Typer
    reads every command's signature and type hints again): about 35 ms, more than half of
    a quick command's run, over a thousand times a suite. The command is built once, and
    again only if what it is built from changes (the app, its callback, commands and
    groups, the one setting Typer reads while building); each call still parses its own
    arguments in its own context, as before. (``_get_command`` is Typer's private name:
    should it go, nothing is kept and the tests only run slower.)"""
    import typer.testing

    build = getattr(typer.testing, "_get_command", None)
    if build is None:  # a Typer whose runner builds otherwise: the tests run as they were
        yield
        return
    built: dict[int, tuple] = {}

    def once(app: typer.Typer) -> object:
        shape = (
            app.registered_callback,
            *app.registered_commands,
            *app.registered_groups,
            os.environ.get("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"),
        )
        kept = built.get(id(app))
        if kept is None or kept[0] is not app or kept[1] != shape:
            kept = built[id(app)] = (app, shape, build(app))
        return kept[2]

    patch = pytest.MonkeyPatch()
    patch.setattr(typer.testing, "_get_command", once)
    yield
    patch.undo()
