"""Docs that cannot drift: help, README examples, completions, the README's set-up lines."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from meldcalc.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(command.name for command in typer.main.get_command(app).commands.values())


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_and_a_readme_example(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.stdout
    assert re.search(rf"^\$? ?meldcalc {command}\b", README, re.MULTILINE)


def test_readme_first_screen_gives_exactly_two_setup_commands() -> None:
    first_screen = README.split("---", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", first_screen, re.DOTALL)
    commands = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    assert "pip install ." in commands[0] and "meldcalc meld" in commands[0]
    assert "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pytest" in ci and "ruff check" in ci


def test_completions_match_what_the_app_generates() -> None:
    spec = importlib.util.spec_from_file_location("generate", ROOT / "completions" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    for shell, name in generate.FILES.items():
        assert (ROOT / "completions" / name).read_text() == generate.completion_script(shell)
