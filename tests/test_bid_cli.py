"""`meldcalc bid` and `meldcalc play` as users and scripts see them."""

from __future__ import annotations

import itertools
import json

from typer.testing import CliRunner

from meldcalc.cards import Hand
from meldcalc.cli import app

runner = CliRunner()
HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_bid_json_has_the_documented_shape_and_the_seed_repeats_it() -> None:
    result = run("bid", HAND, "--seed", "7", "-n", "400", "-f", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == [
        "hand",
        "variant",
        "deals",
        "seed",
        "confidence",
        "warnings",
        "best_trump",
        "suggested_bid",
        "results",
    ]
    assert (data["deals"], data["seed"], data["confidence"]) == (400, 7, 0.7)
    first = data["results"][0]
    assert first["trump"] == data["best_trump"] == "S"
    assert set(first) >= {"trump", "meld", "partner_meld", "tricks", "make", "max_bid"}
    assert set(first["tricks"]) >= {"mean", "sd", "p10", "p50", "p90"}
    bids = [level["bid"] for level in first["make"]]
    assert all(b - a == 10 for a, b in itertools.pairwise(bids))
    probabilities = [level["probability"] for level in first["make"]]
    assert probabilities == sorted(probabilities, reverse=True)
    # the band that matters: from the last nearly certain level to the first unlikely one
    assert probabilities[0] >= 0.95 and probabilities[1] < 0.95
    assert probabilities[-1] < 0.05 <= probabilities[-2]
    made = [level["bid"] for level in first["make"] if level["probability"] >= 0.7]
    assert first["max_bid"] == max(made) == data["suggested_bid"]
    assert result.stdout == run("bid", HAND, "--seed", "7", "-n", "400", "-f", "json").stdout


def test_bid_table_names_the_suggestion_and_the_seed() -> None:
    result = run("bid", HAND, "--seed", "3", "-n", "300")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[1] == "300 simulated deals per trump, seed 3"
    # the advice where the eye lands: right under the hand
    assert lines[3].startswith("Bid up to 4") and "with ♠ (S) as trump" in lines[3]
    assert "the highest bid made at least 70% of the time" in lines[3]
    assert any(line.endswith("← the highest bid to go to") for line in lines)
    picture = [line for line in lines if line[:3] in ("S ♠", "H ♥", "D ♦", "C ♣")][4:]
    assert len(picture) == 4 and all(set(line[6:]) <= set(" ▁▂▃▄▅▆▇█") for line in picture)


def test_bid_table_shows_only_the_band_of_levels_that_matters() -> None:
    result = run("bid", HAND, "--seed", "3", "-n", "300")
    rows = [line.split() for line in result.stdout.splitlines() if line[:5].strip().isdigit()]
    odds = [float(row[1].rstrip("%")) for row in rows]
    assert len(rows) < 25 and odds[0] >= 95 > odds[1] and odds[-1] < 5 <= odds[-2]


def test_pass_says_why_and_the_dealer_is_told_the_forced_bid() -> None:
    weak = "AH 10H QH QH JH JH AC 10C QC QC JC JC AD 10D QD QD JD JD AS 10S"
    result = run("bid", weak, "-V", "double-deck", "-s", "1", "-n", "200")
    lines = result.stdout.splitlines()
    assert lines[3].startswith("Pass: no marriage (K and Q) in ")
    assert lines[4].startswith("If you are the dealer and the others all pass, you must bid 50")
    three = "AH KH QH 9H 10S QS 9S 9S AD AD 10D QC JC JC 9C"
    result = run("bid", three, "-V", "three-handed", "-s", "1", "-n", "200")
    assert result.stdout.splitlines()[3].startswith("Pass: even the opening bid of 300 is made")
    assert "partner" not in result.stdout


def test_bid_total_is_the_bid_and_its_trump_or_pass() -> None:
    bid, trump = run("bid", HAND, "-s", "1", "-n", "300", "-f", "total").stdout.split()
    assert bid.isdigit() and trump == "S"
    weak = "9S 9S 9H 9H 9D 9D 9C JS JH JD JC JC"
    assert run("bid", weak, "-s", "1", "-n", "300", "-f", "total").stdout == "pass\n"


def test_bid_with_one_trump_reports_that_trump_only() -> None:
    data = json.loads(run("bid", HAND, "-t", "H", "-s", "1", "-n", "200", "-f", "json").stdout)
    assert [r["trump"] for r in data["results"]] == ["H"]


def test_bid_batch_jsonl_with_a_bad_line() -> None:
    result = run("bid", "-", "-s", "2", "-n", "200", "-f", "jsonl", input=f"{HAND}\nAS KS\n")
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], "error" in r) for r in records] == [(1, False), (2, True)]
    assert "line 2: the hand has 2 cards; single-deck deals 12" in result.stderr


def test_bid_refuses_two_handed_clearly() -> None:
    result = run("bid", HAND, "-V", "two-handed")
    assert result.exit_code == 2 and result.stdout == ""
    assert "two-handed has no auction" in result.stderr


def test_bid_in_a_widow_game_and_in_double_deck() -> None:
    widow = "AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D"
    data = json.loads(
        run("bid", widow, "-V", "three-handed", "-s", "4", "-n", "200", "-f", "json").stdout
    )
    assert data["variant"] == "three-handed" and data["results"][0]["partner_meld"] is None
    double = "AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS"
    result = run("bid", double, "-V", "double-deck", "-s", "4", "-n", "200")
    assert "no marriage" in result.stdout


def test_play_json_shows_every_hand_and_every_trick() -> None:
    result = run("play", HAND, "-t", "S", "--seed", "3", "-f", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["trump"] == "S" and [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    assert Hand.parse(" ".join(data["seats"][0]["hand"])) == Hand.parse(HAND)
    assert len(data["tricks"]) == 12 and data["tricks"][0]["leader"] == 0
    assert sum(trick["points"] for trick in data["tricks"]) == sum(data["points"]) == 210
    for before, after in zip(data["tricks"], data["tricks"][1:]):
        assert after["leader"] == before["winner"]
    assert result.stdout == run("play", HAND, "-t", "S", "--seed", "3", "-f", "json").stdout


def test_play_table_and_bad_hand() -> None:
    result = run("play", HAND, "-t", "H", "--seed", "1")
    assert result.exit_code == 0 and "points: bidding side" in result.stdout
    bad = run("play", "AS KX", "-t", "H")
    assert bad.exit_code == 2 and "'KX' at column 4" in bad.stderr


def test_play_needs_a_trump() -> None:
    result = run("play", HAND)
    assert result.exit_code == 2 and "--trump" in result.stderr
