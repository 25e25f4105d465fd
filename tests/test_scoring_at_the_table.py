"""Scoring as the table reports it: one side's count, the sides' names, a played deal's score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app

runner = CliRunner()
HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def run(*args: str):
    return runner.invoke(app, list(args))


def sides(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["sides"]


def test_one_sides_trick_points_give_the_others_by_the_hands_total() -> None:
    one = run(
        "score", "-b", "300", "--bidder", "0", "-m", "150,80", "--tricks", "140", "-f", "json"
    )
    assert [side["tricks"] for side in sides(one)] == [140, 70]
    three = run(
        "score",
        "-V",
        "three-handed",
        "-b",
        "300",
        "--bidder",
        "1",
        "-m",
        "60,150,20",
        "--tricks",
        "40,170",
        "-f",
        "json",
    )
    assert [side["tricks"] for side in sides(three)] == [40, 170, 40]


def test_one_sides_count_over_the_hands_total_is_refused() -> None:
    result = run("score", "-b", "300", "--bidder", "0", "-m", "150,80", "--tricks", "230")
    assert result.exit_code == 2
    assert result.stderr == (
        "meldcalc: error: --tricks 230: 230 trick points, more than the 210 a hand has\n"
    )


def test_one_sides_tricks_taken_give_the_others_by_the_hands_tricks(tmp_path: Path) -> None:
    house = tmp_path / "save.yaml"
    house.write_text(
        "extends: single-deck\nname: save\ntitle: t\nsource: s\ndescription: d\n"
        "house:\n  save_meld: trick\n"
    )
    result = run(
        "score",
        "-V",
        str(house),
        "-b",
        "300",
        "--bidder",
        "0",
        "-m",
        "150,80",
        "--tricks",
        "210",
        "--tricks-taken",
        "11",
        "-f",
        "json",
    )
    # 11 of 12 tricks: seats 1 and 3 took one (worth nothing), so their meld counts
    assert [side["counted_meld"] for side in sides(result)] == [150, 80]


def test_a_game_keeps_its_sides_names_in_every_table_and_sentence(tmp_path: Path) -> None:
    game = str(tmp_path / "g.jsonl")
    names = ("--names", "Ann & Bob,Cy & Di")
    first = run(
        "score", "-g", game, *names, "-b", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160"
    )
    assert first.exit_code == 0, first.output
    assert "Ann & Bob bid 300 and made it: 150 meld + 160 in tricks = 310." in first.stdout
    assert "Cy & Di: 80 meld + 50 in tricks = 130." in first.stdout
    second = run(
        "score", "-g", game, "-b", "250", "--bidder", "1", "-m", "60,140", "--tricks", "120"
    )
    assert "Cy & Di bid 250 and made it" in second.stdout
    assert "--tricks 120: the bidding side's (Cy & Di); the other side 90" in second.stderr
    shown = run("score", "-g", game, "--show")
    assert shown.stdout.splitlines()[2].endswith("Ann & Bob    Cy & Di")  # the column heads
    assert shown.stdout.splitlines()[-1] == (
        "No winner yet after 2 hands. Still needed to reach 1000: Ann & Bob 540; Cy & Di 610."
    )
    data = json.loads(run("score", "-g", game, "--show", "-f", "json").stdout)
    assert data["names"] == ["Ann & Bob", "Cy & Di"]
    assert data["sides"] == ["seats 0 and 2", "seats 1 and 3"]  # the seats stay as they were
    header = json.loads(Path(game).read_text().splitlines()[0])
    assert header["names"] == ["Ann & Bob", "Cy & Di"]


def test_names_may_be_given_a_seat_each() -> None:
    result = run(
        "score",
        "--names",
        "Ann,Cy,Bob,Di",
        "-b",
        "300",
        "--bidder",
        "1",
        "-m",
        "150,80",
        "--tricks",
        "140",
    )
    assert result.exit_code == 0, result.output
    assert "Cy and Di bid 300 and went set" in result.stdout
    assert result.stdout.splitlines()[2].startswith("Ann and Bob")


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ("Ann", "--names 'Ann': expected 2 names separated by commas (one a side), or 4"),
        ("Ann,,Bob", "'': expected a name of 1 to 40 printable characters"),
        ("Ann,Ann", "a name is given twice"),
        ("Ann,Cy,Ann,Di", "a name is given twice"),
        ("A\x1bB,C", "expected a name of 1 to 40 printable characters"),
    ],
)
def test_names_that_cannot_name_the_sides_are_refused(names: str, message: str) -> None:
    result = run(
        "score", "--names", names, "-b", "300", "--bidder", "0", "-m", "150,80", "--tricks", "140"
    )
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert message in result.stderr


def test_a_game_keeps_the_names_it_began_with(tmp_path: Path) -> None:
    game = str(tmp_path / "g.jsonl")
    hand = ("-b", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160")
    run("score", "-g", game, "--names", "Us,Them", *hand)
    again = run(
        "score",
        "-g",
        game,
        "--names",
        "Us,Them",
        "-b",
        "250",
        "--bidder",
        "1",
        "-m",
        "0,0",
        "--tricks",
        "90",
    )
    assert again.exit_code == 0  # the same names: nothing to refuse
    other = run("score", "-g", game, "--names", "We,They", *hand)
    assert other.exit_code == 2
    assert other.stderr == (
        f"meldcalc: error: --names: {game} is a game already of 'Us', 'Them'; --names only"
        " names a new game's sides\n"
    )


def test_play_shows_each_sides_meld_and_with_a_bid_whether_it_was_made() -> None:
    shown = run("play", HAND, "-t", "S", "--seed", "3")
    assert shown.exit_code == 0, shown.output
    assert "meld: seats 0 and 2 360, seats 1 and 3 30" in shown.stdout
    made = run("play", HAND, "-t", "S", "--seed", "3", "--bid", "350")
    assert "Seats 0 and 2 bid 350 and made it: 360 meld + 165 in tricks = 525." in made.stdout
    data = json.loads(
        run("play", HAND, "-t", "S", "--seed", "3", "--bid", "540", "-f", "json").stdout
    )
    assert (data["meld"], data["tricks_by_side"]) == ([360, 30], [165, 45])
    assert data["score"]["outcome"] == "set"
    assert sum(data["tricks_by_side"]) == 210


def test_play_scores_a_widow_game_with_the_buried_cards_to_the_bidder() -> None:
    data = json.loads(
        run(
            "play", "-t", "S", "--seed", "3", "--bid", "300", "-V", "three-handed", "-f", "json"
        ).stdout
    )
    assert sum(data["tricks_by_side"]) == 250
    assert data["tricks_by_side"][0] == data["points"][0]


def test_play_refuses_a_bid_the_variant_cannot_take() -> None:
    result = run("play", HAND, "-t", "S", "--seed", "3", "--bid", "251")
    assert result.exit_code == 2
    assert "251 is not a legal bid in single-deck" in result.stderr
