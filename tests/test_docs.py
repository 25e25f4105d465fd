"""Docs that cannot drift: help, README examples, completions, the README's set-up lines."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

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
    first_screen = README.split("\n---\n", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", first_screen, re.DOTALL)
    commands = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    assert "pip install ." in commands[0] and "meldcalc meld" in commands[0]
    assert "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pytest" in ci and "ruff check" in ci


def test_the_first_command_prints_what_the_readme_shows_under_it() -> None:
    first_screen = README.split("\n---\n", 1)[0]
    command = re.findall(r"```sh\n(.*?)```", first_screen, re.DOTALL)[0]
    meld = command[command.index("meldcalc meld") :].strip()
    shown = re.findall(r"```text\n(.*?)```", first_screen, re.DOTALL)[0]
    import shlex

    result = CliRunner().invoke(app, shlex.split(meld)[1:])
    assert result.exit_code == 0 and result.stdout == shown


def _anchor(heading: str) -> str:
    """A heading's link target as GitHub makes it: lower case, punctuation dropped,
    spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_within_the_readme_finds_its_heading() -> None:
    """The contents list and the cross-references lead somewhere (a renamed heading broke
    the contents' link to the learning section)."""
    headings = {_anchor(h) for h in re.findall(r"^#+ (.+)$", README, re.MULTILINE)}
    links = set(re.findall(r"\]\(#([^)]+)\)", README))
    assert links and links <= headings, sorted(links - headings)
    contents = README.split("## Contents", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"\]\(#([^)]+)\)", contents))
    top = {_anchor(h) for h in re.findall(r"^## (.+)$", README, re.MULTILINE)} - {"contents"}
    assert top <= listed, sorted(top - listed)  # every section in the contents


def test_completions_match_what_the_app_generates() -> None:
    spec = importlib.util.spec_from_file_location("generate", ROOT / "completions" / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    for shell, name in generate.FILES.items():
        assert (ROOT / "completions" / name).read_text() == generate.completion_script(shell)


# --- every example in the docs runs ---------------------------------------------------------

SH_SKIP = ("pip ", "python", "source ", "cp ", ".ci/")


VARIANTS_README = (ROOT / "variants" / "README.md").read_text(encoding="utf-8")
#: The house file of variants/README.md's example, there as house.yaml for the examples.
FRIDAY = re.findall(r"```yaml\n(.*?)```", VARIANTS_README, re.DOTALL)[-1]
DOCS = {"README": README, "variants-README": VARIANTS_README}


def _console_examples() -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each ```console block of the READMEs: its commands, each with the lines it shows."""
    blocks = []
    found = [
        (f"{doc}-console-{number + 1}", block)
        for doc, text in DOCS.items()
        for number, block in enumerate(re.findall(r"```console\n(.*?)```", text, re.DOTALL))
    ]
    for name, block in found:
        commands: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line.rstrip())
        blocks.append((name, commands))
    return blocks


def _matches(shown: list[str], actual: list[str]) -> bool:
    """The shown lines appear in the output: runs of lines between ``...`` contiguous and
    in order, a run not after ``...`` at the very start; a line ending in ``...`` may go
    on."""
    at, anchored = 0, True
    runs: list[list[str]] = [[]]
    for line in shown:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    for index, run in enumerate(runs):
        anchored = index == 0
        found = next(
            (
                start
                for start in range(at, len(actual) - len(run) + 1)
                if all(_same(expected, got) for expected, got in zip(run, actual[start:]))
            ),
            None,
        )
        if found is None or (anchored and run and found != 0):
            return False
        at = found + len(run)
    return at == len(actual) or not runs[-1]


def _same(expected: str, got: str) -> bool:
    return got.rstrip() == expected or (expected.endswith("...") and got.startswith(expected[:-3]))


@pytest.mark.parametrize(("name", "commands"), _console_examples(), ids=lambda x: str(x)[:20])
def test_every_console_example_prints_what_the_readme_shows(
    name: str, commands: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text(FRIDAY)
    for command, shown in commands:
        argv = shlex.split(command)
        assert argv[0] == "meldcalc", command
        result = CliRunner().invoke(app, argv[1:])
        actual = [line.rstrip() for line in result.output.splitlines()]
        assert _matches(shown, actual), (
            f"{command}\n--- shown\n" + "\n".join(shown) + "\n--- actual\n" + "\n".join(actual)
        )


def test_the_quiz_transcripts_in_the_readme_are_what_the_quiz_says() -> None:
    """A ```quiz block: the command, then what the quiz prints, each answer after its
    prompt (a line that is not indented and holds "? "), as a terminal shows it. Each test
    has a study file of its own, so the quiz meets a new learner, as the README's does."""
    import shlex

    blocks = re.findall(r"```quiz\n(.*?)```", README, re.DOTALL)
    assert blocks, "the README shows a quiz"
    for block in blocks:
        command, *shown = block.rstrip("\n").splitlines()
        answers = [line.rsplit("? ", 1)[1] for line in shown if "? " in line and line[0] != " "]
        result = CliRunner().invoke(
            app, shlex.split(command.removeprefix("$ "))[1:], input="\n".join(answers) + "\n"
        )
        assert result.exit_code == 0 and result.stderr == ""
        assert result.stdout.splitlines() == shown


def _sh_examples() -> list[str]:
    body = README.split("\n---\n", 1)[1]  # the set-up commands are CI's to run
    lines = [
        line.split("  #")[0].strip()
        for block in re.findall(r"```sh\n(.*?)```", body + VARIANTS_README, re.DOTALL)
        for line in block.splitlines()
    ]
    return [line for line in lines if line and not line.startswith(SH_SKIP)]


@pytest.mark.parametrize("command", _sh_examples())
def test_every_shell_example_runs(command: str, tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess
    import sys

    if shutil.which("bash") is None:
        pytest.skip("no bash")
    (tmp_path / "variants").symlink_to(ROOT / "variants")
    (tmp_path / "house.yaml").write_text(FRIDAY)
    (tmp_path / "hands.txt").write_text("AS 10S KS QS JS JD\nAS AS KS KS\n")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, f"{command}\n{result.stderr}"
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "example", re.findall(r"```yaml\n(.*?)```", VARIANTS_README + README, re.DOTALL)
)
def test_every_variant_file_example_is_valid(example: str, tmp_path: Path) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(example)
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output


def test_the_readmes_bad_file_example_says_what_check_says(tmp_path: Path) -> None:
    house = re.findall(r"```yaml\n(.*?)```", README.split("A bad file is reported")[0], re.DOTALL)
    quoted = re.search(r"says:\n`(house\.yaml:.*?)`\.", README, re.DOTALL)
    assert house and quoted
    (tmp_path / "house.yaml").write_text(house[-1].replace("points: 20", "points: ten"))
    result = CliRunner().invoke(app, ["check", str(tmp_path / "house.yaml")])
    expected = (
        quoted.group(1).replace("\n", " ").replace("house.yaml", str(tmp_path / "house.yaml"))
    )
    assert result.exit_code == 2
    assert expected in result.stdout.splitlines()


def test_the_readmes_batch_position_example_solves() -> None:
    example = re.search(r"`(9H / - / - / - \|[^`]*)`", README)
    assert example is not None
    result = CliRunner().invoke(app, ["solve", "-", "--no-line"], input=example.group(1) + "\n")
    assert result.exit_code == 0, result.output


def test_the_python_face_in_the_readme_runs_as_shown() -> None:
    import doctest

    section = README.split("## Using meldcalc from Python", 1)[1].split("\n## ", 1)[0]
    examples = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert examples, "the README lost its Python examples"
    test = doctest.DocTestParser().get_doctest("\n".join(examples), {}, "README", "README", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_face_loads_nothing_until_a_name_is_used() -> None:
    import subprocess
    import sys

    code = (
        "import sys, meldcalc; loaded = [m for m in sys.modules if m.startswith('meldcalc.')];"
        " print(loaded); meldcalc.Hand; print('meldcalc.rules.cards' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "True"]


def test_the_faces_own_example_runs() -> None:
    import doctest

    import meldcalc

    assert doctest.testmod(meldcalc).failed == 0
    checked = {  # the face's own functions, which check their arguments and call below
        name
        for name, value in vars(meldcalc).items()
        if callable(value) and value.__module__ == "meldcalc" and not name.startswith("_")
    }
    assert checked == {"best_meld", "best_meld_all_trumps"}
    assert set(meldcalc.__all__) == {"__version__", *meldcalc._FACE, *checked}
    assert all(getattr(meldcalc, name) is not None for name in meldcalc.__all__)


def _session(argv: list[str], steps: list[str], cwd: Path) -> Any:
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "meldcalc", *argv],
        input="\n".join(steps) + "\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_the_session_transcripts_in_the_readme_are_what_the_session_says(tmp_path) -> None:
    import shlex

    whole, end, *more = re.findall(r"```session\n(.*?)```", README, re.DOTALL)
    for block in more:  # hands part played: the widow, names, the pass
        command, *shown = block.splitlines()
        steps = [line[2:] for line in shown if line.startswith("> ")]
        done = _session(shlex.split(command.removeprefix("$ "))[1:], steps, tmp_path)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.splitlines() == shown
    assert more, "the README shows a hand with a widow"
    for block, before in ((whole, []), (end, _double_deck_start())):
        command, *shown = block.splitlines()
        steps = [line[2:] for line in shown if line.startswith("> ")]
        argv = shlex.split(command.removeprefix("$ "))
        assert argv[:2] == ["meldcalc", "game"]
        if before:  # the hand's first steps, kept in its journal
            begun = _session([*argv[1:3], "-V", "double-deck", "--seat", "0"], before, tmp_path)
            assert begun.returncode == 0, begun.stderr
        done = _session(argv[1:], steps, tmp_path)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.splitlines() == shown
        assert "the hand is over" in shown and "> review" in shown
    assert len([line for line in whole.splitlines() if line.startswith("> ")]) > 50


def _double_deck_start() -> list[str]:
    """The double-deck hand of the README's second transcript, but its last 8 cards."""
    steps = (ROOT / "tests" / "data" / "double-deck-hand.txt").read_text().splitlines()
    return steps[:-8]


def _shown_in(shown: Any, actual: Any) -> bool:
    """Whether a README's shortened JSON is ``actual`` where it shows anything: "..." stands
    for any value, or at the end of a list for the items left out; an object shows some of
    its keys."""
    if shown == "...":
        return True
    if isinstance(shown, dict):
        return isinstance(actual, dict) and all(
            key in actual and _shown_in(value, actual[key]) for key, value in shown.items()
        )
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return False
        if shown and shown[-1] == "...":
            shown = shown[:-1]
            actual = actual[: len(shown)]
        return len(shown) == len(actual) and all(map(_shown_in, shown, actual))
    return shown == actual


def _json_examples() -> list[tuple[str, str]]:
    """Each JSON block of the README with the command the sentence before it names."""
    return re.findall(r"`meldcalc ([^`]*-f json)`[^`]*\n\n```json\n(.*?)```", README, re.DOTALL)


def test_the_readme_shows_what_each_json_example_prints() -> None:
    import json
    import shlex

    examples = _json_examples()
    assert len(examples) == README.count("```json"), "a JSON block that names no command"
    for command, block in examples:
        result = CliRunner().invoke(app, shlex.split(command))
        assert result.exit_code == 0, result.output
        assert _shown_in(json.loads(block), json.loads(result.stdout)), command
