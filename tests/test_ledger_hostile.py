"""A game's ledger against what a card table meets: a full disk, a crash in mid-write, a
house file edited during the game, files and links that are not what they seem.

Each test names a class of trouble and asserts the exit code, one line on stderr and no
traceback, and what is left on disk, byte for byte. The full disk is real: a process whose
file-size limit stops the append part way (`RLIMIT_FSIZE`), not a mock.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.game import ledger
from meldcalc.rules.loading import load_variant

runner = CliRunner()
FIRST = ("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50")
SECOND = ("--bid", "250", "--bidder", "1", "-m", "60,140", "--tricks", "90,120")
resource = pytest.importorskip("resource")  # the file-size limit: not on Windows


def score(game: Path, *args: str):
    return runner.invoke(app, ["score", "-g", str(game), *args])


def one_line(result, code: int, kind: str = "error") -> str:
    """The single stderr line of a run that ended as it should."""
    assert result.exit_code == code, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"meldcalc: {kind}: " if kind else "meldcalc: ")
    return result.stderr


def two_hands(game: Path) -> bytes:
    assert score(game, *FIRST).exit_code == 0
    assert score(game, *SECOND).exit_code == 0
    return game.read_bytes()


def totals(game: Path) -> list[int]:
    shown = score(game, "--show", "-f", "json")
    assert shown.exit_code == 0, shown.stderr
    return json.loads(shown.stdout)["totals"]


# --- a full disk: the append is whole or not at all ---------------------------------------


def limited(room: int, ignore_sigxfsz: bool):
    """A child process that may write files only up to ``room`` bytes (``ulimit -f``)."""

    def limit() -> None:
        if ignore_sigxfsz:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, resource.RLIM_INFINITY))

    return limit


def meldcalc_limited(game: Path, room: int, *args: str, ignore_sigxfsz: bool = True):
    command = [sys.executable, "-m", "meldcalc", "score", "-g", str(game), *args]
    return subprocess.run(
        command, preexec_fn=limited(room, ignore_sigxfsz), capture_output=True, timeout=60
    )


@pytest.mark.parametrize("ignore_sigxfsz", [True, False], ids=["EFBIG", "SIGXFSZ"])
@pytest.mark.parametrize("args", [SECOND, ("--undo",)], ids=["hand", "undo"])
def test_a_full_disk_leaves_the_ledger_byte_for_byte_as_it_was(
    tmp_path: Path, args: tuple[str, ...], ignore_sigxfsz: bool
) -> None:
    game = tmp_path / "g.jsonl"
    before = two_hands(game)
    result = meldcalc_limited(game, len(before) + 10, *args, ignore_sigxfsz=ignore_sigxfsz)
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr  # the README: a full disk is exit code 1
    assert stderr == f"meldcalc: error: {game}: cannot write: File too large; nothing was added\n"
    assert result.stdout == b""  # no score reported for a hand not kept
    assert game.read_bytes() == before
    assert totals(game) == [460, 390]
    assert score(game, *SECOND).exit_code == 0  # and the game goes on


def test_a_full_disk_at_a_games_first_hand_leaves_no_file(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    result = meldcalc_limited(game, 10, *FIRST)
    assert result.returncode == 1 and result.stderr.count(b"\n") == 1, result.stderr
    assert not game.exists()  # made by that command, for a game that never began


def test_repair_on_a_full_disk_drops_nothing(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    game.write_bytes(two_hands(game) + b'{"hand": 3, "bid": 25')
    before = game.read_bytes()
    result = meldcalc_limited(game, 10, "--repair")  # no room for the copy of the torn line
    assert result.returncode == 1 and result.stderr.count(b"\n") == 1, result.stderr
    assert b"the torn line is not dropped" in result.stderr
    assert game.read_bytes() == before and not Path(f"{game}.torn").exists()


# --- a torn last line: named, left out, repaired on request --------------------------------


@pytest.mark.parametrize(
    "tail",
    [b'{"hand": 3, "bid": 250, "bidder": 1, "tr', b"\0" * 37, b'{"undo": 2'],
    ids=["cut-short", "zero-filled", "undo-cut-short"],
)
def test_a_torn_last_line_is_shown_around_refused_after_and_repaired(
    tmp_path: Path, tail: bytes
) -> None:
    game = tmp_path / "g.jsonl"
    before = two_hands(game)
    game.write_bytes(before + tail)
    where = f"{game}:4: a torn last line ({len(tail)} bytes, no line break)"
    shown = score(game, "--show")
    assert where in one_line(shown, 0, "warning") and "--repair` drops it" in shown.stderr
    assert ["total", "460", "390"] in [line.split() for line in shown.stdout.splitlines()]
    for args in (SECOND, ("--undo",)):
        refused = score(game, *args)
        assert where in one_line(refused, 2) and "nothing is added after it" in refused.stderr
        assert game.read_bytes() == before + tail
    repaired = score(game, "--repair")
    assert one_line(repaired, 0, "") == (
        f"meldcalc: {game}:4: dropped a torn last line of {len(tail)} bytes (kept in {game}.torn)\n"
    )
    assert game.read_bytes() == before and Path(f"{game}.torn").read_bytes() == tail + b"\n"
    again = score(game, "--repair")
    assert (
        one_line(again, 0, "") == f"meldcalc: {game}: nothing to repair: its last line is whole\n"
    )
    assert score(game, *SECOND).exit_code == 0 and totals(game) == [610, 650]


@pytest.mark.parametrize("cut", [1, 12, 41])  # a crash may cut the header anywhere
def test_a_torn_first_line_is_a_game_that_never_began(tmp_path: Path, cut: int) -> None:
    game = tmp_path / "g.jsonl"
    game.write_bytes(b'{"ledger": "meldcalc", "format": 1, "vari'[:cut])
    assert f"{game}:1: a torn last line ({cut} byte" in one_line(score(game, "--show"), 2)
    assert "no hand before it" in score(game, "--show").stderr
    assert score(game, "--repair").exit_code == 0 and game.read_bytes() == b""
    assert score(game, *FIRST).exit_code == 0 and totals(game) == [310, 130]


#: A hand followed at the table with `meldcalc game`, to its score (370 to 80).
STEPS = ["hand AS 10S KS QS JS 9S AH 10H KH QH JH 9H", "250", "pass", "pass", "pass",
         "trump S", "meld left KD QD", "meld partner 40", "meld right 0", "tricks 150"]  # fmt: skip


@pytest.mark.parametrize("content", [b"", b"\n  \n", b'{"ledger": "meldc'], ids=str)
def test_an_empty_ledger_is_a_game_not_begun_to_every_command(
    tmp_path: Path, content: bytes
) -> None:
    """`score -g` starts a game in an empty file; `game` and `bid -g` refused it as no
    ledger, so the way out of a torn header (--repair, which leaves the file empty) ended
    at `game`. Every command now reads it as a game not begun, as a missing file is."""
    game = tmp_path / "g.jsonl"
    game.write_bytes(content)
    if content.startswith(b"{"):
        assert score(game, "--repair").exit_code == 0 and game.read_bytes() == b""
        content = b""
    not_begun = f"meldcalc: error: {game}: no such game yet: score a hand to start it\n"
    assert one_line(score(game, "--show"), 2) == not_begun
    assert one_line(score(game, "--undo"), 2) == not_begun
    bid = runner.invoke(app, ["bid", "-g", str(game), STEPS[0][5:], "-n", "20"])
    assert one_line(bid, 2) == f"meldcalc: error: --game {game}: no such game yet\n"
    assert game.read_bytes() == content
    played = followed(game, STEPS)
    assert played.returncode == 0 and played.stderr == "", played.stderr
    assert totals(game) == [370, 80]


def followed(game: Path, steps: list[str]) -> subprocess.CompletedProcess:
    """`meldcalc game` run on ``game``, the steps piped in, from seat 0."""
    return subprocess.run(
        [sys.executable, "-m", "meldcalc", "game", str(game), "--seat", "0", "--policy", "rules"],
        input="\n".join(steps) + "\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip


BOM = b"\xef\xbb\xbf"


def test_a_ledger_saved_with_a_byte_order_mark_is_read_past_it(tmp_path: Path) -> None:
    """An editor (Notepad) may save the ledger with a UTF-8 byte-order mark in front, as
    it may a variant file: the header check took it, then every command refused line 1
    ('Unexpected UTF-8 BOM'). The mark is read past and kept; none is written."""
    game = tmp_path / "g.jsonl"
    marked = BOM + two_hands(game)
    game.write_bytes(marked)
    assert score(game, "--show").stderr == "" and totals(game) == [460, 390]
    assert "nothing to repair" in one_line(score(game, "--repair"), 0, "")
    assert score(game, "--undo").exit_code == 0 and totals(game) == [310, 130]
    assert score(game, *SECOND).exit_code == 0 and totals(game) == [460, 390]
    kept = game.read_bytes()
    assert kept.startswith(marked) and kept.count(BOM) == 1
    game.write_bytes(kept + b'{"hand": 3, "bi')
    assert score(game, "--repair").exit_code == 0 and game.read_bytes() == kept
    assert Path(f"{game}.torn").read_bytes() == b'{"hand": 3, "bi\n'
    shown = followed(game, ["show"])
    assert shown.returncode == 0 and shown.stderr == "" and "hand 3: " in shown.stdout
    marked_only = tmp_path / "m.jsonl"  # an editor's "empty" file: a game not begun
    marked_only.write_bytes(BOM)
    assert "no such game yet" in one_line(score(marked_only, "--show"), 2)
    assert score(marked_only, *FIRST).exit_code == 0 and totals(marked_only) == [310, 130]
    assert marked_only.read_bytes().startswith(BOM + b'{"ledger": ')


def test_a_whole_last_line_without_its_line_break_is_no_tear(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    game.write_bytes(two_hands(game)[:-1])  # as an editor may save it
    assert score(game, "--show").stderr == ""
    assert score(game, *SECOND).exit_code == 0 and totals(game) == [610, 650]
    assert len(game.read_text().splitlines()) == 4


def test_a_damaged_line_before_the_last_is_not_repaired_away(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    lines = two_hands(game).split(b"\n")
    game.write_bytes(b"\n".join([lines[0], lines[1][:30], lines[2]]) + b"\n")
    before = game.read_bytes()
    assert f"{game}:2: not a JSON object" in one_line(score(game, "--repair"), 2)
    assert game.read_bytes() == before


def test_a_damaged_line_before_a_torn_one_is_told_first(tmp_path: Path) -> None:
    """--undo (or a hand) once named only the torn last line, advising --repair, which
    then failed on the damaged line before it: the advice led nowhere."""
    game = tmp_path / "g.jsonl"
    lines = two_hands(game).split(b"\n")
    game.write_bytes(b"\n".join([lines[0], lines[1][:30], b'{"hand": 3, "bi']))
    before = game.read_bytes()
    for args in (("--undo",), SECOND, ("--show",), ("--repair",)):
        assert f"{game}:2: not a JSON object" in one_line(score(game, *args), 2)
    assert game.read_bytes() == before


# --- a house file edited during the game: the game keeps the rules it began with ---------


HOUSE = "name: house\nextends: single-deck\ntitle: t\nsource: s\nhouse: {meld_minimum: 0}\n"
UNDER_50 = ("--bid", "250", "--bidder", "1", "-m", "40,140", "--tricks", "90,120")


def house_game(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two hands under ./house.yaml, side 0 scoring a 40 meld in the second."""
    monkeypatch.chdir(folder)
    house, game = folder / "house.yaml", Path("g.jsonl")
    house.write_text(HOUSE)
    assert (
        runner.invoke(app, ["score", "-V", "./house.yaml", "-g", "g.jsonl", *FIRST]).exit_code == 0
    )
    assert score(game, *UNDER_50).exit_code == 0
    return house, game


def test_an_edited_house_file_does_not_lock_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    house, game = house_game(tmp_path, monkeypatch)
    assert totals(game) == [440, 390]
    house.write_text(HOUSE.replace("meld_minimum: 0", "meld_minimum: 50"))
    note = (
        f"meldcalc: warning: g.jsonl: {house} has changed since the game began: the game"
        " keeps the rules it began with\n"
    )
    shown = score(game, "--show")
    assert one_line(shown, 0, "warning") == note and "440              390" in shown.stdout
    third = score(game, *UNDER_50, "-f", "json")  # the 40 meld still counts, as it began
    assert one_line(third, 0, "warning") == note
    assert json.loads(third.stdout)["sides"][0]["points"] == 130
    undone = score(game, "--undo")
    assert undone.exit_code == 0 and undone.stderr == note + "meldcalc: hand 3 taken back\n"
    house.unlink()
    gone = score(game, "--show")
    assert "its variant cannot be read now" in one_line(gone, 0, "warning")
    assert "440              390" in gone.stdout


def test_every_command_that_reads_a_game_says_its_house_file_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`score --show` says so, and so do `bid --game` and `game`, which read the same
    ledger: each keeps the rules the game began with."""
    from sessions import run_game

    house, game = house_game(tmp_path, monkeypatch)
    house.write_text(HOUSE.replace("meld_minimum: 0", "meld_minimum: 50"))
    said = f"g.jsonl: {house} has changed since the game began: the game keeps the rules"
    assert said in score(game, "--show").stderr
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    bid = runner.invoke(app, ["bid", hand, "-n", "50", "--seed", "1", "--game", "g.jsonl"])
    assert bid.exit_code == 0 and said in bid.stderr, bid.stderr
    played = run_game(tmp_path / "g.jsonl", ["quit"])
    assert (
        played.returncode == 0 and f"{tmp_path / 'g.jsonl'}: {house} has changed" in played.stderr
    )


def test_a_games_own_variant_wins_over_a_variant_option_that_disagrees(tmp_path: Path) -> None:
    """A double-deck game, and `-V single-deck` (the default's name, given): `score`, `bid
    --game` and `game` refuse it alike, rather than run single deck on its scores."""
    game = tmp_path / "dd.jsonl"
    scored = score(game, "-V", "double-deck", "--bid", "50", "--bidder", "0", "-m", "20,10",
                   "--tricks", "30,20")  # fmt: skip
    assert scored.exit_code == 0, scored.output
    said = f"{game} is a game of 'double-deck': leave out -V, or start a new game\n"
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    bid = runner.invoke(app, ["bid", hand, "-V", "single-deck", "--game", str(game)])
    assert one_line(bid, 2).endswith(said)
    assert one_line(score(game, "-V", "single-deck", "--show"), 2).endswith(said)
    from sessions import run_game

    played = run_game(game, ["quit"], "-V", "single-deck")
    assert played.returncode == 2 and played.stderr.endswith(said)


def test_a_game_begun_before_rules_were_kept_blames_both_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    house, game = house_game(tmp_path, monkeypatch)
    lines = game.read_text().splitlines()
    header = json.loads(lines[0])
    del header["rules"]  # as meldcalc wrote it before
    game.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    house.write_text(HOUSE.replace("meld_minimum: 0", "meld_minimum: 50"))
    message = one_line(score(game, "--show"), 2)
    assert "g.jsonl:3: the points [130, 260] do not follow" in message
    assert f"was the file edited, or did {house} change since the game began?" in message


def test_the_rules_a_ledger_keeps_are_checked_as_a_variant_file_is(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    two_hands(game)
    lines = game.read_text().splitlines()
    header = json.loads(lines[0])
    header["rules"]["melds"][0]["points"] = "lots"
    game.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert f"{game}:1:1: rules.melds[0].points: expected" in one_line(score(game, "--show"), 2)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ([], "rules: expected a mapping of variant fields, got a list"),
        ({"melds": list(range(30_000))}, "rules.melds[19998]: more than 20000 values"),
    ],
)
def test_rules_that_could_never_be_a_variant_are_refused_quickly(
    tmp_path: Path, rules: object, message: str
) -> None:
    game = tmp_path / "g.jsonl"
    two_hands(game)
    lines = game.read_text().splitlines()
    game.write_text("\n".join([json.dumps({**json.loads(lines[0]), "rules": rules}), *lines[1:]]))
    assert f"{game}:1:1: {message}" in one_line(score(game, "--show"), 2)


def test_a_new_game_keeps_the_rules_it_began_with(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    two_hands(game)
    kept = json.loads(game.read_text().splitlines()[0])["rules"]
    assert kept == load_variant("single-deck").data
    assert ledger.read(game).notes == ()


# --- files and links that are not what they seem ---------------------------------------


def test_a_refused_hand_keeps_an_empty_file_it_did_not_make(tmp_path: Path) -> None:
    game = tmp_path / "mine.jsonl"
    game.write_bytes(b"")
    refused = score(game, "--bid", "305", "--bidder", "0", "-m", "0,0", "--tricks", "160,50")
    assert "305 is not a legal bid" in one_line(refused, 2)
    assert game.exists() and game.read_bytes() == b""
    assert score(game, *FIRST).exit_code == 0  # and a game can start in it


def test_a_dangling_symlink_is_named_and_its_target_never_made(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    game.symlink_to("elsewhere.jsonl")
    missing = f"{game}: a symbolic link to 'elsewhere.jsonl', which does not exist"
    assert one_line(score(game, "--show"), 2) == f"meldcalc: error: {missing}\n"
    started = one_line(score(game, *FIRST), 2)
    assert missing in started and "a game is not started through a link" in started
    assert not (tmp_path / "elsewhere.jsonl").exists() and game.is_symlink()
    assert missing in one_line(score(game, "--undo"), 2)


def test_a_symlink_to_a_ledger_is_that_ledger(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    two_hands(real)
    (tmp_path / "g.jsonl").symlink_to("real.jsonl")
    assert totals(tmp_path / "g.jsonl") == [460, 390]


@pytest.mark.parametrize(
    "content",
    [b"password=hunter2\n", b'"hunter2"\n', b'{"hunter2": 1}\n', b"\xffhunter2\n", b"hunter2"],
    ids=["text", "json-string", "json-object", "not-utf8", "no-line-break"],
)
def test_a_link_planted_where_a_ledger_is_shown_is_not_a_ledger(
    tmp_path: Path, content: bytes
) -> None:
    """Named as what it is, without a word of what it points at."""
    (tmp_path / "secret.txt").write_bytes(content)
    game = tmp_path / "g.jsonl"
    game.symlink_to("secret.txt")
    assert one_line(score(game, "--show"), 2) == (
        f"meldcalc: error: {game} (a symbolic link to 'secret.txt'): not a meldcalc ledger (its"
        " first line is no ledger's header): name the file 'meldcalc score -g' keeps the game in\n"
    )


def test_a_file_that_is_no_ledger_is_never_repaired_away(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes, no line break")
    assert "notes.txt: not a meldcalc ledger" in one_line(score(notes, "--repair"), 2)
    assert notes.read_bytes() == b"my notes, no line break"
    assert not (tmp_path / "notes.txt.torn").exists()


def test_a_game_in_a_missing_folder_is_named(tmp_path: Path) -> None:
    game = tmp_path / "nowhere" / "g.jsonl"
    message = one_line(score(game, *FIRST), 2)
    assert f"{game}: cannot start a game: no folder {game.parent}" in message


def test_a_line_nested_past_pythons_depth_is_said_so_in_words(tmp_path: Path) -> None:
    """Not Python's own 'maximum recursion depth exceeded while decoding a JSON array'."""
    game = tmp_path / "g.jsonl"
    lines = two_hands(game).split(b"\n")
    game.write_bytes(b"\n".join([lines[0], b"[" * 100_000 + b"]" * 100_000, lines[2]]) + b"\n")
    said = one_line(score(game, "--show"), 2)
    assert said.rstrip().endswith(f"{game}:2: not a JSON object: nested too deep"), said
