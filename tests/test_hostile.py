"""meldcalc as an attacker and an unlucky user meet it: every way in, one clear line out.

Each test names a class of hostile input or broken environment, and asserts the exit
code, that stderr holds a message and no traceback, and that no wrong total is printed.
Tests that need a real process (closed streams, signals, environment) run
``python -m meldcalc``; the rest use the CLI runner.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.engines import minimax, solve
from meldcalc.errors import VariantError
from meldcalc.rules import cache
from meldcalc.rules.loading import load_variant, read_source

runner = CliRunner()
HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
SHIPPED = Path(__file__).resolve().parent.parent / "variants"
LINUX = sys.platform.startswith("linux")


def run(*args: str, input: str | bytes | None = None):
    return runner.invoke(app, list(args), input=input)


def meldcalc(
    *args: str, input: bytes | None = None, timeout: float = 60, **options: object
) -> subprocess.CompletedProcess:
    """The real program in a process of its own, with a private cache."""
    env = options.pop("env", None) or os.environ.copy()
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", *args],
        input=input,
        capture_output=options.pop("capture_output", True),
        timeout=timeout,
        env=env,
        **options,
    )


def one_clean_error(stderr: str | bytes, code: int, expected: int = 2) -> str:
    """The single error line of a run that failed as it should."""
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    assert code == expected, text
    assert "Traceback" not in text
    errors = [line for line in text.splitlines() if line.startswith("meldcalc: error:")]
    assert len(errors) == 1, text
    return errors[0]


def house(folder: Path, body: str, name: str = "house.yaml") -> Path:
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return path


def dix_points(path: Path | str) -> int:
    return {m.name: m for m in load_variant(str(path)).melds}["dix"].points[0]


PARENT = (SHIPPED / "single-deck.yaml").read_text()


def parent_with_dix(points: int) -> str:
    """single-deck with the dix at ``points`` (two digits: the same size as the original)."""
    return PARENT.replace("    trump: [9]\n    points: 10", f"    trump: [9]\n    points: {points}")


# --- the variant cache never serves stale data --------------------------------------------


def test_repointed_symlinked_parent_is_seen(tmp_path: Path) -> None:
    (tmp_path / "p1.yaml").write_text(parent_with_dix(11))
    (tmp_path / "p2.yaml").write_text(parent_with_dix(22))
    (tmp_path / "parent.yaml").symlink_to("p1.yaml")
    child = house(tmp_path, "name: h\nextends: ./parent.yaml\ntitle: t\nsource: s\n")
    assert dix_points(child) == 11
    (tmp_path / "parent.yaml").unlink()
    (tmp_path / "parent.yaml").symlink_to("p2.yaml")
    assert dix_points(child) == 22


def test_one_house_file_linked_into_two_folders_takes_each_folders_parent(
    tmp_path: Path,
) -> None:
    real = house(tmp_path, "name: h\nextends: ./parent.yaml\ntitle: t\nsource: s\n")
    for folder, points in (("a", 11), ("b", 22)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "parent.yaml").write_text(parent_with_dix(points))
        (tmp_path / folder / "house.yaml").symlink_to(real)
    assert dix_points(tmp_path / "a" / "house.yaml") == 11
    assert dix_points(tmp_path / "b" / "house.yaml") == 22
    assert dix_points(tmp_path / "a" / "house.yaml") == 11


def test_an_edit_that_keeps_size_and_mtime_is_seen(tmp_path: Path) -> None:
    parent = tmp_path / "parent.yaml"
    parent.write_text(parent_with_dix(11))
    child = house(tmp_path, "name: h\nextends: ./parent.yaml\ntitle: t\nsource: s\n")
    assert dix_points(child) == 11
    status = parent.stat()
    parent.write_text(parent_with_dix(22))  # what `cp -p` or `touch -r` leave behind
    os.utime(parent, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert parent.stat().st_size == status.st_size
    assert dix_points(child) == 22


def test_a_file_changed_while_being_read_is_not_cached_under_its_new_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from meldcalc.rules import loading

    path = tmp_path / "house.yaml"
    path.write_text(parent_with_dix(11))
    old = path.read_bytes()
    path.write_text(parent_with_dix(22))  # the file changes after the bytes were read
    real_read = loading.read_source
    monkeypatch.setattr(loading, "read_source", lambda p: old if p == path else real_read(p))
    assert dix_points(path) == 11  # what was read is what was parsed
    monkeypatch.setattr(loading, "read_source", real_read)
    assert dix_points(path) == 22  # ... and the cache knows it was the old bytes


def _entry_of(path: Path) -> Path:
    entries = [
        entry
        for entry in Path(os.environ["MELDCALC_CACHE_DIR"]).glob("variant-*.json")
        if cache.key_path(path) in entry.read_text()
    ]
    assert len(entries) == 1
    return entries[0]


def _reseal(entry: Path, record: object) -> None:
    """Seal an edited entry as meldcalc would, with the cache's own key."""
    text = json.dumps(record).encode()
    key = (entry.parent / "key").read_bytes()
    entry.write_bytes(cache.seal(key, text) + b"\n" + text)


def test_an_entry_edited_and_sealed_again_without_the_key_is_a_miss(tmp_path: Path) -> None:
    path = house(tmp_path, parent_with_dix(11))
    assert dix_points(path) == 11
    entry = _entry_of(path)
    text = entry.read_bytes().split(b"\n", 1)[1].replace(b'"points": 11', b'"points": -99')
    entry.write_bytes(hashlib.sha256(text).hexdigest().encode() + b"\n" + text)
    assert dix_points(path) == 11  # never the edited points
    assert oct((entry.parent / "key").stat().st_mode & 0o777) == "0o600"


def test_a_damaged_or_hollow_cache_entry_is_a_miss(tmp_path: Path) -> None:
    path = house(tmp_path, parent_with_dix(11))
    assert dix_points(path) == 11
    entry = _entry_of(path)
    record = json.loads(entry.read_bytes().split(b"\n", 1)[1])
    # points edited in the entry without its seal: ignored
    entry.write_text(entry.read_text().replace('"points": 11', '"points": 99'))
    assert dix_points(path) == 11
    # a resealed entry that watches no file ("stamps": [] of old): ignored
    _reseal(_entry_of(path), {**record, "chain": []})
    assert dix_points(path) == 11
    # an entry nested 100,000 deep: ignored, no RecursionError
    _reseal(_entry_of(path), {"chain": [[cache.key_path(path), "x"]], "data": "[" * 100_000})
    _entry_of(path).write_bytes(b"0" * 64 + b"\n" + b"[" * 100_000)
    assert dix_points(path) == 11
    if hasattr(os, "mkfifo"):  # an entry that is a FIFO: a miss, not a wait for a writer
        entry = _entry_of(path)
        entry.unlink()
        os.mkfifo(entry)
        assert dix_points(path) == 11


def test_check_reads_the_files_never_the_cache(tmp_path: Path) -> None:
    path = house(tmp_path, parent_with_dix(11))
    load_variant(str(path))
    entry = _entry_of(path)
    record = json.loads(entry.read_bytes().split(b"\n", 1)[1])
    record["data"]["title"] = "a title only the cache has"
    _reseal(entry, record)
    result = run("check", str(path))
    assert result.exit_code == 0
    assert "a title only the cache has" not in result.stdout
    assert "Single-deck partnership pinochle" in result.stdout


def test_cache_folder_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("MELDCALC_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("MELDCALC_NO_CACHE", "0")  # "0" means the cache stays on
    assert cache.cache_dir() == tmp_path / ".cache" / "meldcalc"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/folder")  # the XDG spec: ignore it
    assert cache.cache_dir() == tmp_path / ".cache" / "meldcalc"
    monkeypatch.setenv("HOME", str(tmp_path / "gone"))  # a home that is not there is not made
    assert cache.cache_dir() is None
    monkeypatch.setenv("HOME", "")
    assert cache.cache_dir() is None
    monkeypatch.setenv("MELDCALC_CACHE_DIR", "relative/cache")  # as XDG's: ignored
    assert cache.cache_dir() is None
    monkeypatch.setenv("MELDCALC_CACHE_DIR", "/somewhere/cache")
    assert cache.cache_dir() == Path("/somewhere/cache")
    monkeypatch.delenv("MELDCALC_CACHE_DIR")
    monkeypatch.setenv("MELDCALC_NO_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert cache.cache_dir() is None


NO_PASSWD_ENTRY = """
import pwd, sys
def unknown(uid):
    raise KeyError(f"getpwuid(): uid not found: {uid}")
pwd.getpwuid = unknown
sys.argv = ["meldcalc", *sys.argv[1:]]
from meldcalc.cli import main
main()
"""


@pytest.mark.parametrize("home", [None, ""])
def test_no_home_and_no_passwd_entry_runs_without_a_cache(home: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "MELDCALC_CACHE_DIR")}
    if home is not None:
        env["HOME"] = home
    args = ["meld", HAND, "-t", "S", "-f", "total"]
    for argv in ([sys.executable, "-m", "meldcalc"], [sys.executable, "-c", NO_PASSWD_ENTRY]):
        result = subprocess.run([*argv, *args], capture_output=True, env=env, timeout=60)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"320\n", b"")


def test_a_byte_that_is_not_utf8_on_the_command_line_is_named_as_one() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "meldcalc", "meld", b"AS \xff KS"], capture_output=True, timeout=60
    )
    assert one_clean_error(result.stderr, result.returncode) == (
        "meldcalc: error: '\\udcff' at column 4: byte 0xff is not UTF-8: expected cards such as"
        " AS, 10H or Q♠"
    )


def test_suit_symbols_on_the_command_line_of_a_locale_without_utf8_are_suits() -> None:
    env = {**os.environ, "LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    hand = HAND.replace("S", "♠")  # every spade a symbol: the same meld
    result = meldcalc("meld", hand, "-t", "♠", "-f", "total", env=env)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"320\n", b"")


# --- lost data: one bad line is one bad line ----------------------------------------------


@pytest.mark.parametrize("encoding", ["", "utf-8:strict", "ascii"])
def test_an_invalid_utf8_byte_spoils_only_its_line(encoding: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "LC_ALL": "C"}
    lines = [HAND.encode()] * 3 + [b"AS \xff KS"] + [HAND.encode()] * 3
    result = meldcalc("meld", "-f", "total", "-t", "S", input=b"\n".join(lines) + b"\n", env=env)
    assert result.stdout == b"320\n320\n320\nerror\n320\n320\n320\n"
    assert one_clean_error(result.stderr, result.returncode) == (
        "meldcalc: error: line 4: byte 0xff at column 4 is not UTF-8: expected text"
    )


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_without_suit_symbols_gets_plain_letters(encoding: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    result = meldcalc("bid", HAND, "-n", "40", "-s", "1", input=b"", env=env)
    text = result.stdout.decode(encoding)
    assert result.returncode == 0 and "\\u" not in text and "\\x" not in text
    assert "with S (S) as trump" in text and "\nS S " in text  # symbols as letters
    assert "#" in text  # the bars of the P(make) chart


def test_bid_batch_and_quiz_survive_bad_bytes_too() -> None:
    result = run("bid", "-", "-n", "50", "-s", "1", "-f", "total", input=b"\xfe\n" + HAND.encode())
    assert result.exit_code == 2 and result.stdout.splitlines()[0] == "error"
    assert "line 1: byte 0xfe at column 1 is not UTF-8" in result.stderr
    quiz = run("quiz", "-n", "1", "-s", "1", input=b"\xff\n5\n")
    assert quiz.exit_code == 0 and "is not UTF-8: expected text; try again" in quiz.stdout


def test_a_line_too_long_is_refused_and_the_next_is_answered() -> None:
    result = run("meld", "-f", "total", "-t", "S", input="AS " * 30_000 + "\n" + HAND + "\n")
    assert result.stdout == "error\n320\n"
    assert "line 1: the line is longer than 65536 bytes" in result.stderr


COMMANDS = [
    ("meld", HAND),
    ("bid", HAND, "-n", "50", "-s", "1"),
    ("deal",),
    ("table",),
    ("variants",),
    ("check", str(SHIPPED / "single-deck.yaml")),
    ("play", HAND, "-t", "S", "-s", "1"),
    ("--version",),
]


@pytest.mark.skipif(not LINUX, reason="closing a child's stdout uses a Linux idiom")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[0])
def test_closed_or_full_stdout_is_an_error_not_silence(args: tuple[str, ...]) -> None:
    closed = meldcalc(*args, capture_output=False, stderr=subprocess.PIPE, stdout=None,
                      preexec_fn=lambda: os.close(1))  # fmt: skip
    assert "standard output is closed" in one_clean_error(closed.stderr, closed.returncode, 1)
    with open("/dev/full", "w") as full:
        result = meldcalc(*args, capture_output=False, stdout=full, stderr=subprocess.PIPE)
    assert "No space left on device" in one_clean_error(result.stderr, result.returncode, 1)


@pytest.mark.skipif(not LINUX, reason="/dev/full is Linux's")
@pytest.mark.parametrize("args", [("--help",), ("meld", "-h"), ("meld", HAND)])
def test_a_full_stdout_is_named_as_such_whatever_was_being_written(args: tuple[str, ...]) -> None:
    """Help is not results: the message names where the writing failed, not what."""
    with open("/dev/full", "w") as full:
        result = meldcalc(*args, capture_output=False, stdout=full, stderr=subprocess.PIPE)
    assert one_clean_error(result.stderr, result.returncode, 1) == (
        "meldcalc: error: cannot write to standard output: No space left on device"
    )


@pytest.mark.skipif(not LINUX, reason="closing a child's stderr uses a Linux idiom")
@pytest.mark.parametrize(
    "args",
    [
        *COMMANDS,
        ("review", "AS 10S / KS QS / AH 9S / KH 9H | trump S | played AS KS"),
        ("play", "AS 10S KS QS JS JD 9S 9S AH AD AC KH", "-t", "S", "-s", "1", "--review"),
    ],
    ids=lambda args: " ".join(args[:1] + args[-1:])[:20],
)
def test_closed_stderr_still_gives_the_results(args: tuple[str, ...], tmp_path: Path) -> None:
    """Progress and warnings go to stderr; with it closed the results on stdout matter more.
    (Run away from the checkout: there `python -m` would import the sources, whose solver
    a plain `pip install .` builds only into the environment.)"""
    result = meldcalc(*args, preexec_fn=lambda: os.close(2), cwd=tmp_path)
    assert result.returncode == 0 and result.stdout


@pytest.mark.skipif(not LINUX, reason="closing a child's stdin uses a Linux idiom")
@pytest.mark.parametrize("args", [("meld",), ("meld", "-"), ("quiz", "-n", "1")])
def test_closed_stdin_is_a_message(args: tuple[str, ...]) -> None:
    result = meldcalc(*args, preexec_fn=lambda: os.close(0))
    assert "standard input is closed" in one_clean_error(result.stderr, result.returncode)


def test_a_closed_pipe_ends_quietly_with_141() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "meldcalc", "deal", "-n", "1000000", "-s", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout.readline()  # `| head -1`
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_to_bid_ends_its_workers_too(signum: int, code: int) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "meldcalc", "bid", HAND, "-n", "1000000", "-j", "300", "-s", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    children: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline:
            time.sleep(0.1)
            threads = Path(f"/proc/{process.pid}/task").glob("*/children")
            children = [int(pid) for path in threads for pid in path.read_text().split()]
        assert 1 <= len(children) <= (os.cpu_count() or 1)  # -j 300 capped at the CPUs
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=30)  # no worker may hold stderr open
        assert process.returncode == code
        time.sleep(0.5)
        assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]
        assert b"Traceback" not in stderr
    finally:  # a failed test must not leave a million-deal bid running
        for pid in [process.pid, *children]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()


def test_workers_are_capped_by_tasks_and_cpus() -> None:
    from meldcalc.workers import worker_count

    assert worker_count(300, 3) <= 3
    assert worker_count(300, 10_000) == (os.cpu_count() or 1)
    assert worker_count(1, 10_000) == 1


# --- tracebacks where a message belongs ---------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("bid", HAND, "--seed", "-5"),
        ("play", HAND, "-t", "S", "--seed", "-5"),
        ("deal", "--seed", "-1"),
        ("deal", "--seed", str(2**63)),
        ("bid", HAND, "-n", "1000000000000"),
        ("bid", HAND, "-c", "nan"),
        ("meld", HAND, "-t", "X"),
    ],
)
def test_bad_options_are_usage_errors(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Invalid value" in result.stderr and "Traceback" not in result.stderr


def test_confidence_message_says_the_range() -> None:
    assert (
        "expected a probability from 0.01 to 0.99 (or 1 to 99, or 1% to 99%), got 'nan'"
        in run("bid", HAND, "-c", "nan").stderr
    )


def check_lines(tmp_path: Path, body: str | bytes) -> list[str]:
    """What ``check`` prints for a file holding ``body``, asserting it failed cleanly."""
    path = tmp_path / "bad.yaml"
    path.write_bytes(body if isinstance(body, bytes) else body.encode())
    result = run("check", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.output
    return [line.replace(str(path), "bad.yaml") for line in result.stdout.splitlines()]


HEAD = "name: h\nextends: single-deck\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (HEAD + "players: !!int abc\n", "bad.yaml:3:10: players: unexpected YAML tag '!!int'"),
        (HEAD + "players: !!float a\n", "bad.yaml:3:10: players: unexpected YAML tag '!!float'"),
        (HEAD + "title: 2001-13-45\n", "bad.yaml:3:8: title: cannot read '2001-13-45'"),
        (HEAD + "players: " + "9" * 5000 + "\n", "bad.yaml:3:10: players: a number of 5000 digits"),
        (HEAD + "title: a\x00b\n", "bad.yaml:3:9: character '\\x00' is not allowed"),
        (HEAD + "title: a\x1bb\n", "bad.yaml:3:9: character '\\x1b' is not allowed"),
        (
            HEAD + "deck: !!python/object:os.system {ranks: [A]}\n",
            "bad.yaml:3:7: deck: unexpected YAML tag '!!python/object:os.system'",
        ),
        (HEAD + "melds: !!set {a}\n", "bad.yaml:3:8: melds: unexpected YAML tag '!!set'"),
        (HEAD + "title: !!str 5\n", "bad.yaml:3:8: title: unexpected YAML tag '!!str'"),
        (HEAD + 'title: "a\\u202eb"\n', "bad.yaml:3:8: title: control character '\\u202e'"),
        (
            b"name: h\nextends: single-deck\ntitle: caf\xe9\n",
            "bad.yaml:3:11: byte 0xe9 is not UTF-8",
        ),
        ("a: &a [*a]\n", "bad.yaml:1:1: cannot read the YAML: nested too deep, or an alias"),
        ("a: " + "[" * 5000 + "]" * 5000 + "\n", "bad.yaml:1:1003: syntax error: while incr"),
    ],
)
def test_yaml_that_cannot_be_read_is_a_positioned_problem(
    tmp_path: Path, body: str | bytes, expected: str
) -> None:
    lines = check_lines(tmp_path, body)
    assert len(lines) == 1 and lines[0].startswith(expected), lines


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    laughs = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    laughs += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    path = house(tmp_path, "name: h\n" + "\n".join(laughs) + "\n")
    start = time.monotonic()
    result = meldcalc("check", str(path), timeout=30)
    assert time.monotonic() - start < 20
    assert result.returncode == 2
    assert b"more than 20000 values" in result.stdout


def test_a_chain_of_2000_extends_is_refused_at_the_file_given(tmp_path: Path) -> None:
    """Told where the user can cut it short, naming the file where it passed the bound."""
    for i in range(2000):
        house(tmp_path, f"name: v{i}\nextends: ./v{i + 1}.yaml\n", f"v{i}.yaml")
    house(tmp_path, PARENT.replace("name: single-deck", "name: v2000"), "v2000.yaml")
    told = r"v0\.yaml:2:10: extends: more than 16 files in the extends chain \(the 16th, "
    with pytest.raises(VariantError, match=told + r".*v15\.yaml, extends './v16\.yaml'\)"):
        load_variant(str(tmp_path / "v0.yaml"))


def test_extends_of_a_proc_file_or_device_is_a_message(tmp_path: Path) -> None:
    if LINUX:
        lines = check_lines(tmp_path, "name: h\nextends: /proc/self/environ\n")
        assert lines[0].startswith("bad.yaml:2:10: extends: /proc/self/environ")
    lines = check_lines(tmp_path, "name: h\nextends: /dev/null\n")
    not_regular = "/dev/null: not a regular file (expected a variant file)"
    assert lines == [f"bad.yaml:2:10: extends: {not_regular}"]


@pytest.mark.parametrize(
    ("parent", "problem"),
    [
        (
            "root:x:0:0:secret-words\n",
            "not a variant file (expected a mapping of variant fields, got text)",
        ),
        (
            "- secret-words\n",
            "not a variant file (expected a mapping of variant fields, got a list)",
        ),
        ("title: secret-words\n", "not a variant file (missing field 'name': every variant file"),
        ("31415926\n", "not a variant file (expected a mapping of variant fields, got a number)"),
        ("name: [secret-words\n", "parent.yaml:2:1: syntax error: while parsing a flow sequence"),
    ],
)
def test_a_parent_that_is_no_variant_is_told_at_its_extends_unquoted(
    tmp_path: Path, parent: str, problem: str
) -> None:
    """A house file from elsewhere may name any file of the reader's; the error says where
    the house file went wrong, and never what the other file holds."""
    (tmp_path / "parent.yaml").write_text(parent)
    lines = check_lines(tmp_path, "name: h\nextends: ./parent.yaml\n")
    lines = [line.replace(f"{tmp_path}/", "") for line in lines]
    assert lines[0].startswith("bad.yaml:2:10: extends: parent.yaml"), lines
    assert problem in lines[0]
    assert "secret" not in "\n".join(lines) and "3141" not in "\n".join(lines)


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("/dev/null", "/dev/null: not a regular file (expected a variant file)"),
        (str(SHIPPED), "not a regular file (a folder)"),
        ("/etc/passwd", "expected a mapping of variant fields, got 'root"),
    ],
)
def test_variant_that_is_no_variant_file(variant: str, message: str) -> None:
    if not Path(variant).exists():
        pytest.skip(f"{variant} is not on this machine")
    result = run("meld", HAND, "-V", variant)
    error = one_clean_error(result.stderr, result.exit_code)
    assert message in error and len(error) < 200


def test_check_checks_every_file_even_after_a_broken_one(tmp_path: Path) -> None:
    good = house(tmp_path, PARENT, "a.yaml")
    bad = house(tmp_path, "name: h\nplayers: !!int abc\n\x00", "b.yaml")
    other = house(tmp_path, PARENT.replace("name: single-deck", "name: c"), "c.yaml")
    result = run("check", str(good), str(bad), str(tmp_path / "missing.yaml"), str(other))
    assert result.exit_code == 2
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        str(good),
        str(bad),
        str(tmp_path / "missing.yaml"),
        str(other),
    ]
    assert "4 files checked, 2 with problems" in result.stderr


def test_check_of_a_folder_checks_its_files() -> None:
    result = run("check", str(SHIPPED))
    assert result.exit_code == 0
    assert result.stderr.startswith(f"{len(list(SHIPPED.rglob('*.yaml')))} files checked, 0")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (HEAD + "tricks: {counters: {A: 1000000000000000000000}, last_trick: 10}\n",
         "tricks.counters.A: expected an integer <= 10000, got 1000000000000000000000"),
        (HEAD + f"tricks: {{counters: {{A: {2**63 - 1}}}, last_trick: 10}}\n",
         "tricks.counters.A: expected an integer <= 10000"),
        (HEAD + "melds:\n  - {name: run, points: 1000000000000}\n",
         "melds[0].points: expected an integer <= 1000000, got 1000000000000"),
        (HEAD + "deck: {ranks: [A, 10, K, Q, J, 9], copies: 1000000}\n",
         "deck.copies: expected an integer <= 4, got 1000000"),
        (HEAD + "deck: {ranks: [A, A, K, Q, J, 9], copies: 2}\n",
         "deck.ranks[1]: rank 'A' is listed twice"),
        (HEAD + "melds:\n  - {name: x, class: c, cards: [AS, AS, AS], points: 1}\n",
         "melds[0].cards: needs 3 copies of AS; the deck holds 2 of each"),
        (HEAD + "players: 3\nhand_size: 16\n",
         "players: partnerships need an even number of players, 4 or more, got 3"),
        (HEAD + "players: 2\nhand_size: 24\n",
         "players: partnerships need an even number of players, 4 or more, got 2"),
        (HEAD + "title: \"bad\\e[31m\"\n", "title: control character '\\x1b'"),
        ("extends: single-deck\ntitle: t\n", "missing field 'name': every variant file names"),
    ],
)  # fmt: skip
def test_files_that_could_never_work_are_refused(tmp_path: Path, body: str, expected: str) -> None:
    lines = check_lines(tmp_path, body)
    assert any(expected in line for line in lines), lines


def test_five_thousand_melds_are_refused_not_searched(tmp_path: Path) -> None:
    melds = "".join(f"  - {{name: m{i}, class: x, cards: [AS], points: 1}}\n" for i in range(5000))
    start = time.monotonic()
    lines = check_lines(tmp_path, HEAD + "melds:\n" + melds)
    assert time.monotonic() - start < 10
    assert any("more than 20000 values" in line for line in lines)
    melds = "".join(f"  - {{name: m{i}, class: x, cards: [AS], points: 1}}\n" for i in range(70))
    lines = check_lines(tmp_path, HEAD + "melds:\n" + melds)
    assert any("melds: expected at most 64 items, got 79" in line for line in lines)


def test_melds_sharing_cards_in_too_many_ways_are_refused(tmp_path: Path) -> None:
    melds = "".join(f"  - {{name: m{i}, class: x, cards: [AS], points: 1}}\n" for i in range(40))
    lines = check_lines(tmp_path, HEAD + "melds:\n" + melds)
    assert any("40 melds of one class share cards" in line for line in lines)


def test_a_ten_megabyte_token_is_quoted_short() -> None:
    result = run("meld", "-", input="AS " + "K" * 10_000_000 + "\n")
    assert "the line is longer than 65536 bytes" in result.stderr
    result = run("meld", "AS", "K" * 60_000)
    error = one_clean_error(result.stderr, result.exit_code)
    assert len(error) < 200 and "(60000 characters)" in error


def test_read_source_refuses_what_is_not_a_small_regular_file(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (1024 * 1024 + 1))
    with pytest.raises(VariantError, match="larger than 1 MB: not a variant file"):
        read_source(big)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.yaml")
        with pytest.raises(VariantError, match="not a regular file"):
            read_source(tmp_path / "fifo.yaml")  # and does not hang waiting for a writer


# --- found by attacking 0.2.0 -------------------------------------------------------------

ENDGAME = "AS 10S 9H 9D / KS QH QH JC / 9S AH 10D KC / JS KH AD AC"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("meld", "-", "-t", "S", "-f", "jsonl"), HAND),
        (("solve", "-", "-f", "jsonl", "--no-line"), f"{ENDGAME} | trump S"),
    ],
)
def test_a_batch_answers_each_line_before_the_next_arrives(args: tuple, line: str) -> None:
    """A program that writes a line and waits for its answer (a coprocess) gets it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "meldcalc", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).parent,  # the installed package (with its solver), not the source
    )
    watchdog = threading.Timer(30, process.kill)  # a regression fails, it does not hang
    watchdog.start()
    try:
        for number in (1, 2):
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())  # blocks if nothing was written
            assert answer.get("position", answer.get("line")) == number  # solve, meld
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    finally:
        watchdog.cancel()
        process.kill()


def test_a_full_stderr_loses_no_results() -> None:
    with open("/dev/full", "w") as full:
        lines = f"{HAND}\nKS QS\n{HAND}\n".encode()
        result = meldcalc(
            "meld",
            "-t",
            "S",
            "-f",
            "total",
            input=lines,
            capture_output=False,
            stdout=subprocess.PIPE,
            stderr=full,
        )
    assert result.stdout == b"320\n40\n320\n" and result.returncode == 0


def test_a_byte_order_mark_starting_the_input_is_no_card() -> None:
    result = run("meld", "-t", "S", "-f", "total", input=b"\xef\xbb\xbf" + HAND.encode() + b"\n")
    assert result.exit_code == 0 and result.stdout == "320\n"


def test_solve_json_batch_is_one_array_with_the_bad_lines_in_place() -> None:
    lines = f"{ENDGAME} | trump S\nnot a position\n{ENDGAME} | trump H\n"
    result = run("solve", "-", "-f", "json", "--no-line", input=lines)
    records = json.loads(result.stdout)
    assert [record["position"] for record in records] == [1, 2, 3]
    assert "error" in records[1] and records[2]["trump"] == "H"
    assert json.loads(run("solve", "-", "-f", "json", input="").stdout) == []


def test_names_the_system_refuses_are_errors_not_crashes(tmp_path: Path) -> None:
    long = "a" * 300
    for args in (("meld", "KS", "-V", long), ("check", f"{long}.yaml"), ("meld", "KS", "-V", "")):
        result = run(*args)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"name: h\nextends: {long}\n")
    assert "extends: unknown variant" in run("check", str(bad)).stdout


def test_check_lists_problems_by_line_and_reports_odd_files_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        "name: h\nextends: single-deck\ntitle: t\nsource: s\nmelds:\n  - name: run\n"
        "    points: abc\ntricks:\n  counters: {A: -5}\n  bogus: 1\n"
    )
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    result = run("check", str(tmp_path))
    lines = result.stdout.splitlines()
    places = [int(line.split(":")[1]) for line in lines if line.startswith(f"{tmp_path}/a.yaml")]
    assert places == sorted(places) and len(places) == 3
    assert f"{tmp_path}/gone.yaml: no such variant file" in lines
    assert result.stderr.startswith("2 files checked, 2 with problems")


# --- found by house decks ------------------------------------------------------------------

NO_QUEENS = """\
name: no-queens
title: Single deck without queens
source: a house deck
deck: {ranks: [A, 10, K, J, 9], copies: 2}
players: 4
partnerships: true
hand_size: 10
melds:
  - {name: aces around, class: around, around: A, points: [100, 1000]}
tricks: {counters: {A: 10, 10: 10, K: 5}, last_trick: 10}
bidding: {opening: 250, increments: [{from: 250, by: 10}]}
"""


@pytest.mark.skipif(not solve.solver_available(), reason="the solver is not built")
def test_a_deck_without_queens_is_solved_right(tmp_path: Path) -> None:
    """The solver once said 35 here, with 10H the only best card: its table key numbered
    the top card in play of the run of zero counters Q J 9 as the queen, which the deck
    lacks and the key had no digit for, so who held it dropped out of the key."""
    path = house(tmp_path, NO_QUEENS)
    assert run("check", str(path)).exit_code == 0
    position = "10S JS 9D 10C JC / AS 10S 10H 10H 9C / AS KS JS JD 9D / KS 9S KD KD JD"
    result = run("solve", "-V", str(path), f"{position} | trump H | leader 1", "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == 45
    assert {card["card"]: card["value"] for card in data["cards"]} == dict.fromkeys(
        ["AS", "10S", "10H", "9C"], 45
    )
    variant = load_variant(str(path))
    reference = minimax.best(
        solve.parse_position(f"{position} | trump H | leader 1", variant), variant
    )
    assert reference == (45, {0, 1, 7, 23})  # AS 10S 10H 9C
