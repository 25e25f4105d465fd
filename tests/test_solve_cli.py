"""`meldcalc solve` and `meldcalc play --review` as users and scripts see them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.engines.solve import solver_available
from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards, winning_position

pytestmark = pytest.mark.skipif(not solver_available(), reason="the solver is not built")
runner = CliRunner()
# a four-trick endgame of single deck, every seat holding four cards
ENDGAME = "AS 10S 9H 9D / KS QH QH JC / 9S AH 10D KC / JS KH AD AC"


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def solved(*args: str) -> dict:
    result = run("solve", *args, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_json_has_the_documented_fields_and_the_value_is_the_best_cards() -> None:
    data = solved(ENDGAME, "-t", "S")
    assert list(data) == [
        "variant", "trump", "leader", "hands", "trick", "to_play", "value", "cards", "line",
    ]  # fmt: skip
    assert data["to_play"] == 0 and data["trick"] == []
    assert data["value"] == max(card["value"] for card in data["cards"])
    assert {card["card"] for card in data["cards"]} == {"AS", "10S", "9H", "9D"}


def test_the_optimal_line_is_legal_and_adds_up_to_the_value() -> None:
    data = solved(ENDGAME, "-t", "S")
    variant = load_variant("single-deck")
    hands = [list(Hand.parse(" ".join(seat)).counts) for seat in data["hands"]]
    taken = 0
    for trick in data["line"]:
        cards = []
        for play in trick["cards"]:
            card = Hand.parse(play["card"]).cards()[0].index
            assert card in legal_cards(hands[play["seat"]], cards, Suit.SPADES)
            hands[play["seat"]][card] -= 1
            cards.append(card)
        winner = (trick["leader"] + winning_position(cards, Suit.SPADES)) % 4
        assert winner == trick["winner"]
        taken += trick["points"] if winner % 2 == 0 else 0
    assert not any(map(any, hands)) and taken == data["value"]
    counters = sum(
        variant.counters.get(card.rank, 0) for card in Hand.parse(ENDGAME.replace("/", " "))
    )
    assert sum(trick["points"] for trick in data["line"]) == counters + variant.last_trick


def test_a_trick_in_progress_and_another_leader() -> None:
    data = solved("AS 10S 9H 9D / KS QH QH / 9S AH 10D / JS KH AD", "-t", "S",
                  "--leader", "1", "--trick", "JC KC AC")  # fmt: skip
    assert data["to_play"] == 0 and data["trick"] == ["JC", "KC", "AC"]
    assert data["line"][0]["cards"][0] == {"seat": 1, "card": "JC"}


def test_the_defenders_best_card_is_the_lowest_value_in_the_table() -> None:
    result = run("solve", ENDGAME, "-t", "S", "--leader", "1", "--trick", "", "--no-line")
    assert result.exit_code == 0
    rows = [line.split() for line in result.stdout.splitlines() if line.endswith("best")]
    values = [int(row[1]) for row in rows]
    data = solved(ENDGAME, "-t", "S", "--leader", "1")
    assert values and all(value == min(c["value"] for c in data["cards"]) for value in values)


def test_a_random_deal_from_a_seed_solves_and_repeats() -> None:
    first = solved("--seed", "4", "-t", "H", "--no-line", "-V", "single-deck")
    assert 0 <= first["value"] <= 210 and len(first["hands"]) == 4
    assert first == solved("--seed", "4", "-t", "H", "--no-line", "-V", "single-deck")


def test_batch_streams_a_record_per_line_and_names_bad_lines() -> None:
    lines = f"{ENDGAME} | trump S\nnot a position\n{ENDGAME} | trump H | leader 2\n"
    result = run("solve", "-f", "jsonl", "--no-line", input=lines)
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["position"] for record in records] == [1, 2, 3]
    assert "error" in records[1] and records[2]["leader"] == 2 and records[2]["trump"] == "H"
    assert "line 2: expected 4 hands separated by '/'" in result.stderr


def test_a_dash_reads_positions_from_stdin_as_a_pipe_does() -> None:
    lines = f"{ENDGAME} | trump S\n"
    dash = run("solve", "-", "-f", "jsonl", "--no-line", input=lines)
    assert dash.exit_code == 0, dash.stderr
    assert dash.stdout == run("solve", "-f", "jsonl", "--no-line", input=lines).stdout
    assert json.loads(dash.stdout)["position"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("AS / KS / QS", "-t", "S"), "expected 4 hands"),
        (("AS AS / AS / QS / JS", "-t", "S"), "3 copies of 'AS'"),
        (
            (
                "AS 10S 9H 9D / KS QH QH / 9S 10D KC / JS KH AD AC",
                "-t",
                "S",
                "-l",
                "1",
                "--trick",
                "JC AH",
            ),
            "seat 2 may not play 'AH'",
        ),
        ((ENDGAME,), "no trump"),
        (("AS 10S / KS / QS / JS", "-t", "S"), "expected hands of equal size"),
    ],
)
def test_impossible_positions_are_one_line_errors(args: tuple[str, ...], message: str) -> None:
    result = run("solve", *args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_review_prices_every_card_and_the_costs_explain_the_shortfall() -> None:
    deal = "AS 10S KS 9H / QS JS 9S 9C / AH KH QH 10D / AD KD QD AC"
    result = run("play", "--deal", deal, "-t", "S", "--review", "-f", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    cards = [card for trick in data["tricks"] for card in trick["cards"]]
    assert all(card["cost"] >= 0 for card in cards)
    # the best cards are named for seat 0's and every costly card; --all-best names them all
    assert all(card["best"] for card in cards if card["seat"] == 0 or card["cost"])
    assert any(card["best"] is None for card in cards)
    every = run("play", "--deal", deal, "-t", "S", "--review", "--all-best", "-f", "json")
    named = [card for trick in json.loads(every.stdout)["tricks"] for card in trick["cards"]]
    assert all(card["best"] for card in named)
    assert all(
        a["best"] in (None, b["best"]) and a["cost"] == b["cost"] for a, b in zip(cards, named)
    )
    alone = run("play", "--deal", deal, "-t", "S", "--all-best")
    assert alone.exit_code == 2 and "--all-best" in alone.stderr and "add --review" in alone.stderr
    review = data["review"]
    lost = review["lost"]
    # the exact value, less the bidding side's mistakes, plus the defenders', is what it took
    assert review["value"] - lost[0] - lost[2] + lost[1] + lost[3] == review["taken"]
    assert review["taken"] == data["points"][0]


def test_review_in_a_table_marks_costly_cards() -> None:
    result = run("play", "AS 10S KS QS JS JD 9S AH AD AC KH QH", "-t", "H", "-s", "2",
                 "--review")  # fmt: skip
    assert result.exit_code == 0
    assert "points lost by each seat:" in result.stdout
    assert "under best play from the start seats 0 and 2 (the bidding side) take" in result.stdout


def test_a_position_prints_as_the_text_it_is_read_from() -> None:
    import random

    from meldcalc.engines.endgames import random_endgame
    from meldcalc.engines.solve import parse_position, position_text

    variant = load_variant("single-deck")
    rng = random.Random(5)
    for on_table in range(4):
        position = random_endgame(variant, 3, rng, on_table=on_table, leader=on_table % 4)
        assert parse_position(position_text(position), variant) == position


def test_without_the_extension_solve_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import meldcalc.engines.solve

    monkeypatch.setattr(meldcalc.engines.solve, "solver_available", lambda: False)
    result = run("solve", ENDGAME, "-t", "S")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "meldcalc: error: the exact solver is not built in this install (it needs a C compiler"
        " at install time): reinstall with gcc and the Python headers available\n"
    )


def test_positions_beyond_the_solvers_reach_are_refused_not_hung() -> None:
    result = run("solve", "--seed", "1", "-V", "three-handed", "-t", "S")
    assert result.exit_code == 2
    assert "this position has 15 tricks to go: the exact solver takes at most 12" in result.stderr


def test_a_long_deal_is_reviewed_from_where_the_solver_reaches() -> None:
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D"
    result = run("play", hand, "-V", "three-handed", "-t", "S", "-s", "2", "--review",
                 "-f", "json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["review"]["from_trick"] == 6  # the last 10 of 15 tricks
    assert all("cost" not in card for trick in data["tricks"][:5] for card in trick["cards"])
    assert all("cost" in card for trick in data["tricks"][5:] for card in trick["cards"])
    review, lost = data["review"], data["review"]["lost"]
    assert review["value"] - lost[0] + lost[1] + lost[2] == review["taken"]


def test_the_last_card_of_the_hand_is_a_position_too() -> None:
    data = solved("9H / - / / - | TRUMP S | leader 1 | trick KH KC AD")
    assert data["hands"] == [["9H"], [], [], []] and data["leader"] == 1
    assert data["value"] == 0  # K♥ holds the trick for seat 1: 30 with the last-trick bonus
    assert [card["card"] for card in data["cards"]] == ["9H"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("| leader ²", "'leader ²': the leader is a seat from 0 to 3"),
        ("| leader 4", "'leader 4': the leader is a seat from 0 to 3"),
        ("| trumps S", "expected '| trump S', '| leader N' or '| trick AS KS'"),
    ],
)
def test_a_bad_setting_after_the_hands_is_one_clear_error(setting: str, message: str) -> None:
    result = run("solve", f"{ENDGAME} | trump S {setting}")
    assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_a_bad_card_names_its_seat() -> None:
    result = run("solve", "AS 10S 9H 9D / KS QH QH KX / 9S AH 10D KC / JS KH AD AC", "-t", "S")
    assert result.exit_code == 2 and "seat 1: 'KX' at column" in result.stderr


def test_a_review_reports_each_trick_as_it_begins_and_keeps_its_values() -> None:
    from meldcalc.advice.played import play_one
    from meldcalc.advice.review import review

    variant = load_variant("single-deck")
    # any deal of 12 tricks; seed 1's gives 8 cards a cost, and its review is among the
    # quickest of seeds 1-10 (seed 4's, once used here, the slowest: 5 times as long)
    deal = play_one(Hand.parse("AS 10S KS QS JS JD 9S AH AD AC KH QH"), variant, Suit.HEARTS, 1)
    heard: list[tuple[int, int]] = []
    reviewed = review(deal, variant, lambda done, total: heard.append((done, total)))
    assert heard == [(trick, 12) for trick in range(1, 13)]
    assert reviewed == review(deal, variant)  # in parts or at once, the same review


@pytest.mark.parametrize(
    "variant",
    ["single-deck", "three-handed", "cutthroat", "double-deck", "double-deck-three-handed"],
)
def test_seed_with_tricks_deals_a_random_endgame_of_any_variant(variant: str) -> None:
    args = ["solve", "--seed", "7", "--tricks", "4", "-t", "H", "-V", variant, "-f", "json"]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout  # the same seed, the same endgame
    data = json.loads(first.stdout)
    played = len(data["trick"])
    assert sorted(len(hand) for hand in data["hands"])[-1] == 4 and played < len(data["hands"])
    assert data["trump"] == "H"


def test_tricks_needs_a_seed_and_fits_the_hand() -> None:
    alone = runner.invoke(app, ["solve", "--tricks", "4", "-t", "S"])
    assert alone.exit_code == 2
    assert "--tricks K deals a random endgame: give --seed S with it" in alone.stderr
    long = runner.invoke(app, ["solve", "--seed", "1", "--tricks", "13", "-t", "S"])
    assert long.exit_code == 2
    assert "--tricks 13: a hand of single-deck has 12 tricks" in long.stderr


def test_an_endgame_says_the_points_still_to_play_not_the_deals_total() -> None:
    result = run("solve", ENDGAME, "-t", "S", "--no-line")
    assert result.exit_code == 0
    # counters in the hands: 20 + 5 + 25 + 25, and the last trick's 10
    assert "takes 65 from here (of the 85 points still to play)." in result.stdout
    on_table = run("solve", ENDGAME.replace("9D", "", 1), "--trick", "9D", "-t", "S")
    assert "(of the 85 points still to play)." in on_table.stdout
    whole = run("solve", "--seed", "1", "-t", "S", "--no-line")
    assert "(of the 210 points still to play)." in whole.stdout


def test_points_left_count_the_table_and_the_last_trick() -> None:
    from meldcalc.engines.solve import Position

    variant = load_variant("single-deck")
    position = Position.of(variant, ENDGAME.split(" / "), Suit.SPADES)
    assert position.points_left(variant) == 85
