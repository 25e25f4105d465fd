"""Scoring a hand and a game: every rule of the seeds' scoring sections, and the ledger."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.cli.base import MAX_BID
from meldcalc.cli.scoring import standing_sentence
from meldcalc.errors import MeldcalcError, UnsupportedError
from meldcalc.game import ledger
from meldcalc.rules import schema
from meldcalc.rules.loading import load_variant
from meldcalc.rules.scoring import (
    MADE,
    NOT_PLAYED,
    SET,
    THROWN_IN,
    HandPlay,
    Standing,
    score_hand,
    standing,
)
from meldcalc.rules.variant import HouseRules, ThrownIn, Variant

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def house(variant: Variant, **rules: object) -> Variant:
    return dataclasses.replace(variant, house=dataclasses.replace(variant.house, **rules))


@pytest.fixture
def single(single_deck: Variant) -> Variant:
    return single_deck


@pytest.fixture
def double(double_deck: Variant) -> Variant:
    return double_deck


def test_made_both_sides_add_meld_and_tricks(single: Variant) -> None:
    score = score_hand(single, HandPlay(300, 0, (150, 80), (160, 50)))
    assert (score.outcome, score.points) == (MADE, (310, 130))
    assert score.explanation[0] == (
        "Seats 0 and 2 bid 300 and made it: 150 meld + 160 in tricks = 310."
    )


def test_set_loses_the_bid_and_the_others_keep_theirs(single: Variant) -> None:
    score = score_hand(single, HandPlay(300, 2, (150, 80), (140, 70)))
    assert (score.outcome, score.points) == (SET, (-300, 150))
    assert "10 short: minus 300" in score.explanation[0]


def test_the_bidders_seat_decides_the_side(single: Variant) -> None:
    score = score_hand(single, HandPlay(250, 3, (150, 100), (60, 150)))
    assert (score.bidding_side, score.outcome, score.points) == (1, MADE, (210, 250))


def test_set_penalty_multiplies_the_bid_lost(single: Variant) -> None:
    score = score_hand(house(single, set_penalty=2), HandPlay(300, 0, (150, 80), (140, 70)))
    assert score.points == (-600, 150)


def test_thrown_in_others_score_their_meld_but_no_tricks(single: Variant) -> None:
    score = score_hand(single, HandPlay(300, 0, (150, 80), thrown_in=True))
    assert (score.outcome, score.points) == (THROWN_IN, (-300, 80))


@pytest.mark.parametrize(
    ("rule", "others"),
    [
        (ThrownIn(meld=False), (0, 0)),  # nothing
        (ThrownIn(meld_minimum=20), (0, 25)),  # their meld if at least 20
        (ThrownIn(meld_minimum=20, cards=25), (25, 50)),  # 25 for the cards + meld if >= 20
        (ThrownIn(meld_minimum=20, cards=50), (50, 75)),  # 50 for the cards + meld if >= 20
    ],
)
def test_the_thrown_in_house_switches_of_seed_001(
    double: Variant, rule: ThrownIn, others: tuple[int, int]
) -> None:
    variant = house(double, thrown_in=rule)
    three_handed = dataclasses.replace(variant, players=3, partnerships=False, hand_size=25)
    points = score_hand(three_handed, HandPlay(60, 0, (40, 12, 25), thrown_in=True)).points
    assert points == (-60, *others)


def test_firehouse_cannot_throw_in() -> None:
    with pytest.raises(UnsupportedError, match="does not allow a side to throw the hand in"):
        score_hand(load_variant("firehouse"), HandPlay(300, 0, (150, 80), thrown_in=True))


def test_double_deck_without_a_marriage_loses_the_bid_and_no_one_counts_meld(
    double: Variant,
) -> None:
    score = score_hand(double, HandPlay(55, 1, (12, 30), no_marriage=True))
    assert (score.outcome, score.points, score.counted_meld) == (NOT_PLAYED, (0, -55), (0, 0))


def test_no_marriage_found_from_the_bidders_hand(tmp_path: Path) -> None:
    result = run(
        "score", "-V", "double-deck", "--bid", "50", "--bidder", "0", "-t", "S",
        "--hand", "0:AS AS 10S KH QH KD QD", "--hand", "1:KS QS", "-f", "json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert (data["outcome"], [s["points"] for s in data["sides"]]) == ("not played", [-50, 0])


def test_meld_minimum_drops_a_small_meld(single: Variant) -> None:
    variant = dataclasses.replace(single, meld_minimum=100)
    score = score_hand(variant, HandPlay(250, 0, (150, 80), (140, 70)))
    assert score.points == (290, 70)
    assert "80 meld that does not count (below the minimum of 100), so 0" in score.explanation[1]


@pytest.mark.parametrize(
    ("rule", "tricks", "taken", "points"),
    [
        ("counter", (210, 0), None, (360, 0)),  # no counter: the meld is lost
        ("trick", (210, 0), (11, 1), (360, 80)),  # a trick without counters saves it
        ("trick", (210, 0), (12, 0), (360, 0)),
        (20, (195, 15), None, (345, 15)),  # a house save-meld of 20 points: the tricks kept
        (20, (190, 20), None, (340, 100)),
    ],
)
def test_save_meld_house_rule(
    single: Variant, rule: object, tricks: tuple, taken: tuple | None, points: tuple
) -> None:
    play = HandPlay(300, 0, (150, 80), tricks, tricks_taken=taken)
    assert score_hand(house(single, save_meld=rule), play).points == points


def test_save_meld_with_a_trick_asks_how_many_tricks_when_points_cannot_tell(
    single: Variant,
) -> None:
    with pytest.raises(MeldcalcError, match="--tricks-taken"):
        score_hand(house(single, save_meld="trick"), HandPlay(300, 0, (150, 80), (210, 0)))


def test_save_meld_can_set_the_bidder(single: Variant) -> None:
    score = score_hand(house(single, save_meld=20), HandPlay(250, 0, (300, 0), (10, 200)))
    assert (score.outcome, score.points) == (SET, (-250, 200))


def test_three_handed_scores_each_player_alone() -> None:
    variant = load_variant("three-handed")
    score = score_hand(variant, HandPlay(300, 1, (60, 220, 40), (50, 120, 80)))
    assert (score.outcome, score.points) == (MADE, (110, 340, 120))
    assert score.explanation[0].startswith("Seat 1 bid 300 and made it")
    score = score_hand(variant, HandPlay(350, 1, (60, 220, 40), (50, 120, 80)))
    assert score.points == (110, -350, 120)


def test_check_keeps_side_scores_in_checks() -> None:
    result = run(
        "score", "-V", "check", "--bid", "200", "--bidder", "0", "-t", "H",
        "--hand", "0:AH 10H KH QH JH AS AD AC", "--hand", "1:JD QS JD QS",
        "--tricks", "150,60", "-f", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    sides = json.loads(result.stdout)["sides"]
    # seat 0: run (2 checks) and aces around (2); seat 1: double pinochle (2)
    assert [(s["meld"], s["checks"]) for s in sides] == [(250, 4), (300, 2)]
    set_hand = run(
        "score", "-V", "check", "--bid", "500", "--bidder", "0", "--meld", "250,300",
        "--checks", "4,2", "--tricks", "150,60", "-f", "json",
    )  # fmt: skip
    assert [s["checks"] for s in json.loads(set_hand.stdout)["sides"]] == [0, 2]


def test_trick_points_must_add_up_to_the_variants_total(single: Variant) -> None:
    with pytest.raises(MeldcalcError, match=r"tricks 140 \+ 60 = 200, but every hand"):
        score_hand(single, HandPlay(300, 0, (150, 80), (140, 60)))


@pytest.mark.parametrize(
    ("play", "message"),
    [
        (HandPlay(305, 0, (150, 80), (140, 70)), "305 is not a legal bid"),
        (HandPlay(200, 0, (150, 80), (140, 70)), "200 is not a legal bid"),
        (HandPlay(300, 4, (150, 80), (140, 70)), "expected a seat from 0 to 3"),
        (HandPlay(300, 0, (150, 80, 9), (140, 70)), "meld: expected 2 numbers"),
        (HandPlay(300, 0, (150, 80)), "trick points of each side are needed"),
        (HandPlay(300, 0, (150, 80), (140, 70), thrown_in=True), "is not played, so it has no"),
    ],
)
def test_impossible_hands_are_refused(single: Variant, play: HandPlay, message: str) -> None:
    with pytest.raises(MeldcalcError, match=message):
        score_hand(single, play)


def _points(variant: Variant, *hands: tuple) -> list:
    return [score_hand(variant, HandPlay(*hand)) for hand in hands]


def test_game_first_to_the_target_wins(single: Variant) -> None:
    scores = _points(single, (300, 0, (150, 80), (160, 50)), (250, 1, (100, 200), (90, 120)))
    result = standing(single, scores, 500)
    assert (result.totals, result.winner) == ((500, 450), 0)
    assert result.reason == "first to 500, after hand 2"


def test_single_deck_both_over_the_higher_wins_and_a_tie_plays_on(single: Variant) -> None:
    # one hand, both sides over 200: seats 1 and 3 have the higher total
    higher = standing(single, _points(single, (250, 0, (150, 150), (100, 110))), 200)
    assert (higher.totals, higher.winner) == ((250, 260), 1)
    assert higher.reason == "2 sides reached 200 on hand 1; the higher total wins"
    # equal totals over the target: no winner, another hand is played
    tied = standing(single, _points(single, (250, 0, (150, 160), (110, 100))), 200)
    assert (tied.totals, tied.winner) == ((260, 260), None)
    more = _points(single, (250, 0, (150, 160), (110, 100)), (250, 1, (0, 100), (60, 150)))
    after = standing(single, more, 200)
    assert (after.totals, after.winner, after.hands) == ((320, 510), 1, 2)


def test_double_deck_both_over_the_bidding_side_wins(double: Variant) -> None:
    # seats 1 and 3 bid and make it; both sides pass 500, the bidders win with the lower total
    scores = _points(double, (60, 1, (490, 470), (20, 30)))
    result = standing(double, scores, 500)
    assert (result.totals, result.winner) == ((510, 500), 1)
    assert result.reason == "2 sides reached 500 on hand 1; the bidding side wins"


# --- the ledger ----------------------------------------------------------------------------


def score(*args: str, game: Path):
    return run("score", "-g", str(game), *args)


def test_single_deck_plays_the_standard_game_to_1000_unless_told_the_short_one(
    tmp_path: Path,
) -> None:
    hand = ("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50")
    score(*hand, game=tmp_path / "standard.jsonl")
    score(*hand, "--to", "500", game=tmp_path / "short.jsonl")
    assert "single-deck, game to 1000\n" in score("--show", game=tmp_path / "standard.jsonl").stdout
    assert "single-deck, game to 500\n" in score("--show", game=tmp_path / "short.jsonl").stdout


def test_ledger_appends_shows_and_undoes(tmp_path: Path) -> None:
    game = tmp_path / "friday.jsonl"
    assert (
        score(
            "--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50", game=game
        ).exit_code
        == 0
    )
    first = game.read_text()
    assert (
        score(
            "--bid", "250", "--bidder", "1", "-m", "60,140", "--tricks", "90,120", game=game
        ).exit_code
        == 0
    )
    assert game.read_text().startswith(first)  # appended, never rewritten
    shown = json.loads(score("--show", "-f", "json", game=game).stdout)
    assert shown["totals"] == [460, 390] and shown["winner"] is None
    assert [hand["outcome"] for hand in shown["hands"]] == ["made", "made"]
    undone = score("--undo", game=game)
    assert undone.exit_code == 0 and "hand 2 taken back" in undone.stderr
    assert json.loads(game.read_text().splitlines()[-1]) == {"undo": 2}
    shown = json.loads(score("--show", "-f", "json", game=game).stdout)
    assert shown["totals"] == [310, 130] and len(shown["hands"]) == 1


def test_ledger_reports_the_winner_and_refuses_more_hands(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"  # the short game of single deck
    hand = ("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50")
    score(*hand, "--to", "500", game=game)
    score("--bid", "250", "--bidder", "1", "-m", "100,200", "--tricks", "90,120", game=game)
    shown = score("--show", game=game)
    assert "Seats 0 and 2 won, 500 to 450: first to 500, after hand 2." in shown.stdout
    more = score("--bid", "250", "--bidder", "1", "-m", "0,0", "--tricks", "90,120", game=game)
    assert more.exit_code == 2 and "the game is over" in more.stderr


def test_a_ledger_that_does_not_parse_is_named_by_line_and_left_alone(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    score("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50", game=game)
    with game.open("a") as stream:
        stream.write('{"hand": 2, "bid": "lots"\n')
    before = game.read_bytes()
    result = score("--bid", "250", "--bidder", "1", "-m", "0,0", "--tricks", "90,120", game=game)
    assert result.exit_code == 2
    assert f"{game}:3: not a JSON object" in result.stderr
    assert game.read_bytes() == before
    game.write_text(before.decode().replace('"bid": "lots"', '"bid": "lots"}'))
    assert (
        f"{game}:3: expected a whole number from 0 to 10000000, got 'lots'"
        in score("--show", game=game).stderr
    )


def test_a_ledger_with_a_bad_byte_names_its_line_and_column(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    score("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50", game=game)
    with game.open("ab") as stream:
        stream.write(b'{"hand": \xff}\n')
    result = score("--show", game=game)
    assert result.exit_code == 2
    assert f"{game}:3:10: byte 0xff is not UTF-8: expected JSON text" in result.stderr


def test_a_ledger_that_is_no_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "g.jsonl"
    os.mkfifo(fifo)
    result = score("--show", game=fifo)
    assert result.exit_code == 2
    assert f"{fifo}: not a regular file (expected a meldcalc ledger)" in result.stderr
    folder = score("--show", game=tmp_path)
    assert folder.exit_code == 2 and "not a regular file (a folder)" in folder.stderr


def test_a_bid_beyond_any_variant_is_refused_by_the_option() -> None:
    result = run("score", "--bid", "10000001", "--bidder", "0", "-m", "0,0", "--tricks", "0,210")
    assert result.exit_code == 2 and "--bid" in result.stderr
    assert MAX_BID == schema.MAX_BID  # the option's bound is the schema's


def test_a_game_keeps_its_variant_and_target(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    args = ("--bid", "50", "--bidder", "0", "-m", "20,10", "--tricks", "30,20")
    assert score("-V", "double-deck", "--to", "300", *args, game=game).exit_code == 0
    assert json.loads(game.read_text().splitlines()[0])["target"] == 300
    assert score(*args, game=game).exit_code == 0  # the ledger knows it is double deck
    other = score("-V", "single-deck", *args, game=game)
    assert other.exit_code == 2 and "is a game of 'double-deck'" in other.stderr


def test_ledger_records_read_back_as_they_were_scored(tmp_path: Path, single: Variant) -> None:
    scored = score_hand(single, HandPlay(300, 0, (150, 80), (160, 50)))
    path = tmp_path / "g.jsonl"
    ledger.append(path, ledger.header("single-deck", 500), ledger.hand_record(1, scored, "S"))
    assert ledger.read(path).hands == (scored,)


def test_score_refuses_two_handed_and_options_without_a_game() -> None:
    two = run("score", "-V", "two-handed", "--bid", "0", "--bidder", "0", "-m", "1,1")
    assert two.exit_code == 2 and "has no auction" in two.stderr
    for option in ("--show", "--undo", "--repair"):
        assert "--show, --undo and --repair need a game" in run("score", option).stderr


def test_default_house_rules_change_nothing(single: Variant) -> None:
    assert single.house == HouseRules()


def test_a_game_under_a_house_file_reads_it_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "table").mkdir()
    monkeypatch.chdir(tmp_path / "table")
    (tmp_path / "table" / "house.yaml").write_text(
        "name: h\nextends: single-deck\ntitle: t\nsource: s\nbidding: {opening: 200}\n"
    )
    args = ("--bid", "200", "--bidder", "0", "-m", "100,50", "--tricks", "150,60")
    assert score("-V", "./house.yaml", *args, game=Path("g.jsonl")).exit_code == 0
    monkeypatch.chdir(tmp_path)
    shown = score("--show", "-f", "json", game=Path("table/g.jsonl"))
    assert shown.exit_code == 0, shown.stderr
    assert json.loads(shown.stdout)["variant"] == str(tmp_path / "table" / "house.yaml")


def test_hands_scored_at_the_same_time_each_get_their_own_number(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    args = ["--bid", "300", "--bidder", "0", "-m", "0,0", "--tricks", "160,50", "--to", "100000"]
    command = [sys.executable, "-m", "meldcalc", "score", "-g", str(game), *args]
    players = [subprocess.Popen(command, stdout=subprocess.DEVNULL) for _ in range(20)]
    assert [player.wait() for player in players] == [0] * 20
    shown = json.loads(score("--show", "-f", "json", game=game).stdout)
    assert [hand["hand"] for hand in shown["hands"]] == list(range(1, 21))
    assert sum(1 for line in game.read_text().splitlines() if '"ledger"' in line) == 1


def test_a_game_file_made_for_a_hand_that_is_refused_is_removed(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    refused = score("--bid", "305", "--bidder", "0", "-m", "0,0", "--tricks", "160,50", game=game)
    assert refused.exit_code == 2 and not game.exists()


def _edited(game: Path, line: int, **fields: object) -> None:
    lines = game.read_text().splitlines()
    lines[line - 1] = json.dumps({**json.loads(lines[line - 1]), **fields})
    game.write_text("\n".join(lines) + "\n")


def _first_hand(game: Path, *args: str) -> None:
    hand = ("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "160,50")
    assert score(*args, *hand, game=game).exit_code == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"points": [999, 130]},
            "the points [999, 130] do not follow from the hand's bid, meld and tricks"
            " (expected [310, 130]): was the file edited?",
        ),
        ({"outcome": "won"}, "outcome 'won': expected one of 'made', 'set'"),
        ({"outcome": "set"}, "the outcome 'set' does not follow"),
        ({"bidding_side": 1}, "the bidding side 1 does not follow"),
        ({"bidder": 7}, "bidder 7: expected a seat from 0 to 3"),
        ({"meld": [150, 80, 0]}, "meld: expected 2 numbers, one per side, got 3"),
        ({"points": [310, 130, 0]}, "points, checks and meld must name every side (2)"),
        ({"tricks": [170, 50]}, "tricks 170 + 50 = 220, but every hand of single-deck has 210"),
        ({"bid": 10**8}, "expected a whole number from 0 to 10000000, got 100000000"),
    ],
)
def test_an_edited_hand_line_is_refused_by_its_line(
    tmp_path: Path, fields: dict, message: str
) -> None:
    game = tmp_path / "g.jsonl"
    _first_hand(game)
    _edited(game, 2, **fields)
    result = score("--show", game=game)
    assert result.exit_code == 2
    assert f"{game}:2: {message}" in result.stderr and result.stderr.count("\n") == 1


def _as_before_rules_were_kept(game: Path) -> None:
    """The ledger as meldcalc wrote it before the header kept the game's rules."""
    lines = game.read_text().splitlines()
    header = json.loads(lines[0])
    del header["rules"]
    game.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")


def test_a_hand_line_is_checked_against_the_rules_its_header_keeps(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    _first_hand(game)
    kept = json.loads(game.read_text().splitlines()[0])["rules"]
    assert kept == load_variant("single-deck").data
    _edited(game, 1, rules={**kept, "tricks": {**kept["tricks"], "last_trick": 50}})
    result = score("--show", game=game)
    assert result.exit_code == 2 and f"{game}:2: tricks 160 + 50 = 210, but" in result.stderr
    _edited(game, 1, rules=load_variant("three-handed").data)
    assert "meld: expected 3 numbers, one per side, got 2" in score("--show", game=game).stderr
    _edited(game, 1, rules={**kept, "house": {"meld_minimum": "fifty"}})
    result = score("--show", game=game)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"{game}:1:1: rules.house.meld_minimum: expected an integer, got 'fifty'" in (
        result.stderr
    )


def test_a_ledger_written_before_rules_were_kept_reads_its_headers_variant(
    tmp_path: Path,
) -> None:
    game = tmp_path / "g.jsonl"
    _first_hand(game)
    _as_before_rules_were_kept(game)
    assert score("--show", game=game).exit_code == 0
    _edited(game, 1, variant="single-deck-counters")  # 250 trick points, not 210
    result = score("--show", game=game)
    assert result.exit_code == 2 and f"{game}:2: tricks 160 + 50 = 210, but" in result.stderr
    _edited(game, 1, variant="three-handed")
    assert "meld: expected 3 numbers, one per side, got 2" in score("--show", game=game).stderr


@pytest.mark.parametrize("target", [0, 10_000_001, "500", True])
def test_a_header_target_is_bounded_like_the_to_option(tmp_path: Path, target: object) -> None:
    game = tmp_path / "g.jsonl"
    _first_hand(game)
    _edited(game, 1, target=target)
    result = score("--show", game=game)
    assert result.exit_code == 2
    assert f"{game}:1: target {target!r}: expected a whole number from 1 to 10000000" in (
        result.stderr
    )


def test_a_header_variant_that_does_not_load_names_the_ledger_and_echoes_little(
    tmp_path: Path,
) -> None:
    game = tmp_path / "g.jsonl"
    _first_hand(game)
    _as_before_rules_were_kept(game)
    secret = tmp_path / "secret.txt"
    secret.write_text("root:" + "x" * 60 + ":SECRET-TAIL\n" * 50)
    _edited(game, 1, variant=str(secret))
    result = score("--show", game=game)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"meldcalc: error: {game}:1: variant '{secret}': ")
    assert "SECRET-TAIL" not in result.stderr and "x" * 41 not in result.stderr
    _edited(game, 1, variant="no-such-game")
    assert f"{game}:1: variant 'no-such-game': unknown variant" in score("--show", game=game).stderr


def test_a_save_meld_hand_keeps_the_tricks_taken_it_was_scored_with(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: h\nextends: single-deck\ntitle: t\nsource: s\nhouse: {save_meld: trick}\n"
    )
    game = tmp_path / "g.jsonl"
    hand = ("--bid", "300", "--bidder", "0", "-m", "150,80", "--tricks", "210,0")
    added = score("-V", str(house), *hand, "--tricks-taken", "11,1", game=game)
    assert added.exit_code == 0, added.stderr
    shown = json.loads(score("--show", "-f", "json", game=game).stdout)
    assert shown["totals"] == [360, 80]


def test_the_seats_hands_together_must_fit_the_deck() -> None:
    result = run(
        "score", "--bid", "300", "--bidder", "0", "-t", "S", "--hand", "0:AS AS",
        "--hand", "2:AS", "--tricks", "160,50",
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == (
        "meldcalc: error: 3 copies of 'AS' in the hands given (seat 0 2, seat 2 1):"
        " the single-deck deck holds 2\n"
    )


def test_no_marriage_is_refused_when_the_bidders_hand_holds_one() -> None:
    result = run(
        "score", "-V", "double-deck", "--bid", "50", "--bidder", "0", "-t", "S",
        "--hand", "0:KS QS AH", "--no-marriage",
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == (
        "meldcalc: error: --no-marriage, but the bidder's hand (seat 0) holds KS and QS,"
        " a marriage in trump: leave out --no-marriage\n"
    )


def test_trick_points_come_in_the_variants_step(single: Variant, double: Variant) -> None:
    with pytest.raises(MeldcalcError, match=r"tricks 207, 3: in single-deck every counter"):
        score_hand(single, HandPlay(300, 0, (150, 80), (207, 3)))
    assert single.trick_step == 5 and double.trick_step == 1
    assert load_variant("single-deck-classic").trick_step == 1
    assert score_hand(double, HandPlay(50, 0, (20, 10), (47, 3))).outcome == MADE


@pytest.mark.parametrize(
    ("tricks", "taken", "message"),
    [
        ((210, 0), (11, 0), "tricks taken add up to 11; a hand has 12 tricks"),
        ((200, 10), (12, 0), "seats 1 and 3 took no trick but 10 trick points"),
        ((0, 210), (0, 12), None),
    ],
)
def test_tricks_taken_agree_with_the_trick_points(
    single: Variant, tricks: tuple, taken: tuple, message: str | None
) -> None:
    play = HandPlay(300, 0, (150, 80), tricks, tricks_taken=taken)
    if message is None:
        assert score_hand(single, play).outcome == SET
        return
    with pytest.raises(MeldcalcError, match=message):
        score_hand(single, play)


def test_a_bidder_who_took_no_trick_keeps_the_points_it_buried() -> None:
    """Three-handed: the widow's burial is the bidder's whatever it takes, so no trick and
    13 trick points (10C QC 9C buried) is a hand that happens (Hypothesis's session
    machine found the check refusing it); no trick and more than a burial can hold is not."""
    three = load_variant("three-handed")
    play = HandPlay(300, 0, (150, 40, 30), (13, 120, 117), tricks_taken=(0, 8, 7))
    assert score_hand(three, play).outcome == SET
    too_much = HandPlay(300, 0, (150, 40, 30), (40, 100, 110), tricks_taken=(0, 8, 7))
    with pytest.raises(MeldcalcError, match="seat 0 took 40 trick points in 0 tricks"):
        score_hand(three, too_much)


def test_equal_totals_over_the_target_say_another_hand_is_played(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    hand = ("--bid", "250", "--bidder", "0", "-m", "150,160", "--tricks", "110,100")
    assert score("--to", "200", *hand, game=game).exit_code == 0
    shown = score("--show", game=game)
    assert shown.stdout.splitlines()[-1] == (
        "Both sides reached 200 with 260 each: another hand is played."
    )
    three = Standing((410, 410, 305), (0, 0, 0), 2)
    assert standing_sentence(three, load_variant("three-handed"), 300) == (
        "Seat 0 and seat 1 reached 300 with 410 each: another hand is played."
    )


def test_to_with_show_or_undo_on_a_game_that_exists_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    _first_hand(game)
    for action in ("--show", "--undo"):
        result = score(action, "--to", "500", game=game)
        assert result.exit_code == 2
        assert result.stderr == (
            f"meldcalc: error: --to 500: {game} is a game to 1000 already;"
            " --to only sets a new game's target\n"
        )
    both = score("--undo", "--show", game=game)  # undo, then show
    assert both.exit_code == 0 and "hand 1 taken back" in both.stderr
    assert "No hands yet" in both.stdout


def test_checks_on_a_variant_without_checks_is_refused() -> None:
    result = run("score", "--bid", "300", "--bidder", "0", "-m", "150,80", "--checks", "1,0",
                 "--tricks", "160,50")  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == "meldcalc: error: --checks: single-deck keeps no checks\n"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--meld", "10000001,1"),
        ("--meld", "²,80"),
        ("--tricks", "160,５0"),
        ("--tricks-taken", "¹1,1"),
        ("--checks", "²,0"),
    ],
)
def test_per_side_numbers_are_ascii_digits_up_to_the_bound(option: str, value: str) -> None:
    args = {"--meld": "150,80", "--tricks": "160,50", option: value}
    result = run("score", "-V", "check", "--bid", "200", "--bidder", "0",
                 *(word for pair in args.items() for word in pair))  # fmt: skip
    assert result.exit_code == 2
    assert "expected whole numbers from 0 to 10000000 separated by commas" in result.stderr
    assert option in result.stderr and "Traceback" not in result.stderr


def test_a_hand_seat_is_ascii_digits() -> None:
    result = run("score", "--bid", "300", "--bidder", "0", "-t", "S", "--hand", "²:KS",
                 "--tricks", "160,50")  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == (
        "meldcalc: error: --hand '²:KS': seat '²': expected a seat from 0 to 3, or me, left,"
        " partner, right\n"
    )


def test_seats_are_named_by_the_names_a_game_keeps(tmp_path) -> None:
    three = tmp_path / "three.jsonl"
    result = run("score", "-g", str(three), "-V", "three-handed", "--names", "Ann,Bo,Cy",
                 "--bid", "300", "--bidder", "bo", "--meld", "100,50,60", "--tricks", "200,30,20",
                 "-f", "json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["bidder"] == 1
    pairs = tmp_path / "pairs.jsonl"
    result = run("score", "-g", str(pairs), "--names", "us,them", "--bid", "300",
                 "--bidder", "them", "--meld", "100,120", "--tricks", "150",
                 "-f", "json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["bidder"] == 1  # a side's name: its first seat
    refused = run("score", "-g", str(pairs), "--bid", "300", "--bidder", "eve",
                  "--meld", "100,120", "--tricks", "150")  # fmt: skip
    assert refused.exit_code == 2
    assert refused.stderr.startswith("meldcalc: error: --bidder 'eve': expected a seat from 0")
    assert "or us, them" in refused.stderr


def test_an_empty_game_name_is_refused_as_such() -> None:
    result = run("score", "-g", "", "--show")
    assert result.exit_code == 2 and "--game" in result.stderr
    assert "expected a file name, got ''" in result.stderr


def test_a_game_path_with_control_characters_is_printed_escaped(tmp_path: Path) -> None:
    game = tmp_path / "a\x1b[31mb.jsonl"
    escaped = repr(str(game))
    missing = score("--show", game=game)
    assert (
        missing.stderr
        == f"meldcalc: error: {escaped}: no such game yet: score a hand to start it\n"
    )
    _first_hand(game)
    shown = score("--show", game=game)
    assert shown.stdout.startswith(f"{escaped}: single-deck, game to 1000\n")
    assert "\x1b" not in score("--show", "--to", "900", game=game).stderr
    assert "\x1b" not in score("-V", "double-deck", "--show", game=game).stderr
    for line in ("{}", '{"undo": 1}'):
        with game.open("a") as stream:
            stream.write(line + "\n")
    bad = score("--undo", game=game)
    assert bad.exit_code == 2 and bad.stderr.startswith(f"meldcalc: error: {escaped}:3: ")


def test_a_name_a_seat_names_that_seat_and_seat_words_are_not_names(tmp_path) -> None:
    ledger = tmp_path / "four.jsonl"
    result = run("score", "-g", str(ledger), "--names", "Ann,Bo,Cy,Di", "--bid", "300",
                 "--bidder", "Di", "--meld", "100,120", "--tricks", "150",
                 "-f", "json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["bidder"] == 3  # Di: seat 3, of 'Bo and Di'
    for names, said in (("left,right", "'left' names a seat already"),
                        ("1,0", "'1' names a seat already"),
                        ("Ann,ann", "a name is given twice")):  # fmt: skip
        refused = run("score", "--names", names, "--bid", "300", "--bidder", "0",
                      "--meld", "1,2", "--tricks", "150")  # fmt: skip
        assert refused.exit_code == 2 and said in refused.stderr, refused.stderr
