"""`meldcalc review`: a deal as it was really played, every card checked and priced."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from meldcalc.advice.replay import played_line
from meldcalc.cli import app
from meldcalc.engines.solve import solver_available

pytestmark = pytest.mark.skipif(not solver_available(), reason="the solver is not built")
runner = CliRunner()
DEAL = (
    "10S QS 9S 9S KH QH 9H AD 10D QC JC 9C / AS 10S KS JS AH QH JH AD QD 9D 10C JC"
    " / QS AH 10H KH JH 10D KD KD JD JD AC QC / AS KS JS 10H 9H QD 9D AC 10C KC KC 9C"
)
SMALL = "AS 10S / KS QS / AH 9S / KH 9H | trump S"


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def costs(record: dict) -> list[tuple[int, str, int, list[str]]]:
    return [
        (play["seat"], play["card"], play["cost"], play["best"])
        for trick in record["tricks"]
        for play in trick["cards"]
    ]


def test_reviewing_the_policys_own_play_gives_the_costs_play_review_gives() -> None:
    played = run("play", "--deal", DEAL, "-t", "H", "--review", "-f", "json")
    assert played.exit_code == 0, played.output
    record = json.loads(played.stdout)
    reviewed = run("review", played_line(record), "-f", "json")
    assert reviewed.exit_code == 0, reviewed.output
    again = json.loads(reviewed.stdout)
    assert costs(again) == costs(record)
    assert again["review"] == record["review"]


def test_your_cards_are_compared_with_every_other_card_and_all_best_compares_every_seats() -> None:
    played = run("play", "--deal", DEAL, "-t", "H", "--policy", "rules", "-f", "json")
    line = played_line(json.loads(played.stdout))
    brief = costs(json.loads(run("review", line, "--seat", "1", "-f", "json").stdout))
    every = costs(json.loads(run("review", line, "--all-best", "-f", "json").stdout))
    assert [cost for _, _, cost, _ in brief] == [cost for _, _, cost, _ in every]
    assert all(best for seat, _, cost, best in brief if seat == 1 or cost)
    assert {seat for seat, _, _, best in brief if best is None} == {0, 2, 3}
    assert all(best for *_, best in every)
    assert all(a[3] in (None, b[3]) for a, b in zip(brief, every))


def test_the_summary_says_what_your_side_lost_trick_by_trick() -> None:
    played = run("play", "--deal", DEAL, "-t", "H", "--policy", "rules", "-f", "json")
    line = played_line(json.loads(played.stdout))  # the cards the rules play: a deal with losses
    ours = run("review", line).stdout.splitlines()[0]
    assert ours.startswith(
        "Your side (seats 0 and 2, the bidding side) lost 65 points: 10 at trick 2 (seat 0 (you)"
    )
    assert "40 at trick 8 (seat 2 (partner) led QC; JD was best)" in ours
    assert ours.endswith("The others gave away 80.")
    theirs = run("review", line, "--seat", "1").stdout.splitlines()[0]
    assert theirs.startswith("Your side (seats 1 and 3, the defenders) lost 80 points")
    assert theirs.endswith("The others gave away 65.")
    assert "(seat 3 (partner) " in theirs and "(seat 1 (you) " in theirs
    named = run("review", line, "--seat", "1", "--bidder", "me").stdout.splitlines()[0]
    assert named.startswith("Your side (seats 1 and 3, the bidding side) lost 80 points")


def test_a_clean_deal_loses_nothing() -> None:
    result = run("review", f"{SMALL} | played AS KS 9S 9H 10S QS AH KH")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "Your side (seats 0 and 2, the bidding side) lost nothing: every card it played was as"
        " good as any."
    )


def test_a_deal_stopped_part_way_reviews_what_was_played() -> None:
    result = run("review", f"{SMALL} | played AS KS 9S 9H 10S", "-f", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert [len(trick["cards"]) for trick in record["tricks"]] == [4, 1]
    assert record["tricks"][1]["winner"] is None
    assert record["review"]["value"] == 50


@pytest.mark.parametrize(
    ("played", "message"),
    [
        (
            "AS 10S 9S",
            "trick 1: seat 1 plays 10S, which it does not hold (it holds KS QS)",
        ),
        ("AS KS AH", "trick 1: seat 2 may not play AH: the rules of the trick leave it 9S"),
        ("AS XS", "trick 1: 'XS': a rank is one of A 10 K Q J 9"),
        (
            "AS KS 9S 9H 10S QS AH KH AS",
            "trick 3: 'AS': every card has been played",
        ),
    ],
)
def test_a_card_that_cannot_be_played_is_named_with_its_trick_and_seat(
    played: str, message: str
) -> None:
    result = run("review", f"{SMALL} | played {played}")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == f"meldcalc: error: {message}\n"


def test_solves_trick_setting_is_refused_with_reviews_own_way_whatever_the_cards() -> None:
    for played in ("KS", "AS KS"):  # not solve's advice, which leads back here
        result = run("review", f"{SMALL} | trick AS | played {played}")
        assert result.exit_code == 2
        assert result.stderr == (
            "meldcalc: error: '| trick' is for solve: give every card played with '| played'\n"
        )


def test_two_deals_as_two_arguments_are_sent_to_standard_input() -> None:
    deal = f"{SMALL} | played AS KS"
    result = run("review", deal, deal)
    assert result.exit_code == 2
    assert result.stderr == (
        "meldcalc: error: 2 deals given as 2 arguments: review takes one; give several one per"
        " line on standard input (meldcalc review - < deals.txt)\n"
    )
    assert run("review", f"{SMALL} |", "played AS KS").exit_code == 0  # one deal in pieces


def test_a_json_batch_is_one_array() -> None:
    lines = f"{SMALL} | played AS KS 9S 9H\n{SMALL} | played AS KS AH\n"
    result = run("review", "-", "-f", "json", input=lines)
    assert result.exit_code == 2
    assert ["error" in record for record in json.loads(result.stdout)] == [False, True]


@pytest.fixture(scope="module")
def fifth_deal_alone() -> dict:
    """The batch's fifth deal reviewed on its own: one command, the same for every --jobs."""
    result = run("review", f"{DEAL} | trump S | played 9S AS QS JS", "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_goes_on_past_a_bad_deal(jobs: str, fifth_deal_alone: dict) -> None:
    lines = (
        f"{SMALL} | played AS KS AH\n"
        f"{SMALL} | played AS KS 9S 9H\n"
        f"{SMALL} | played\n"
        f"{SMALL} | played AS | played KS\n"
        f"{DEAL} | trump S | played 9S AS QS JS\n"
    )
    result = run("review", "-", "-f", "jsonl", "--jobs", jobs, input=lines)
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["deal"] for record in records] == [1, 2, 3, 4, 5]
    assert ["error" in record for record in records] == [True, False, True, True, False]
    assert costs(records[4]) == costs(fifth_deal_alone)
    assert "no card played" in records[2]["error"]
    assert "given twice" in records[3]["error"]
    assert [line.split(":")[2] for line in result.stderr.splitlines()] == [
        " line 1",
        " line 3",
        " line 4",
    ]


def test_a_long_deal_is_reviewed_over_its_last_tricks_even_when_it_stops_early() -> None:
    record = json.loads(
        run("play", "-t", "H", "--seed", "5", "-V", "double-deck", "-f", "json").stdout
    )
    head, cards = played_line(record).split("| played ")
    early = run("review", f"{head}| played {' '.join(cards.split()[:20])}", "-V", "double-deck")
    assert early.exit_code == 2
    assert early.stderr == (
        "meldcalc: error: the solver reviews the last 10 of a deal's 20 tricks, from trick 11;"
        " this one stops at trick 5\n"
    )
    part = run(
        "review",
        f"{head}| played {' '.join(cards.split()[:60])}",
        "-V",
        "double-deck",
        "-f",
        "json",
    )
    assert part.exit_code == 0, part.output
    reviewed = json.loads(part.stdout)
    assert reviewed["review"]["from_trick"] == 11
    assert sum("cost" in play for trick in reviewed["tricks"] for play in trick["cards"]) == 20


def test_a_part_played_deal_adds_up_what_was_lost_to_the_best_play_from_where_it_stops() -> None:
    deal = "AS 10H JC / 10S 9S 9C / 10C 10C KC / KH QD JD | trump H | played AS 10S 10C"
    record = json.loads(run("review", deal, "-f", "json").stdout)
    lost = sum(record["review"]["lost"][seat] for seat in (0, 2))
    assert (record["review"]["value"], record["review"]["then_best"], lost) == (70, 35, 35)
    shown = run("review", deal).stdout.splitlines()[-1]
    assert shown.endswith(
        "(the bidding side) take 70 in tricks; as played, then best play from where the deal"
        " stops, 35."
    )
    whole = json.loads(
        run("review", f"{SMALL} | played AS KS 9S 9H 10S QS AH KH", "-f", "json").stdout
    )
    assert "then_best" not in whole["review"]


def test_the_bidding_side_is_the_side_that_led_the_first_trick() -> None:
    deal = "AS 10H JC / 10S 9S 9C / 10C 10C KC / KH QD JD | trump H | leader 1"
    result = runner.invoke(app, ["review", f"{deal} | played 10S 10C KH AS"])
    assert result.exit_code == 0, result.output
    assert "points: seats 0 and 2 (the defenders)" in result.stdout
    assert "seats 0 and 2 (the defenders) take" in result.stdout


def test_where_each_plays_alone_a_bidder_elsewhere_than_seat_0_is_the_lone_side() -> None:
    """Cutthroat: the review of a deal whose bidder sits in seat 1 prices each card as the
    same deal with the seats turned (the bidder in seat 0) does, seats named as given."""
    from meldcalc.advice.history import turns
    from meldcalc.advice.replay import replay
    from meldcalc.advice.review import review, turn
    from meldcalc.cli.play import played_json
    from meldcalc.dealing.deal import deals
    from meldcalc.rules.cards import CARD_NAMES, Suit
    from meldcalc.rules.loading import load_variant
    from meldcalc.rules.tricks import legal_cards

    rules = load_variant("cutthroat")
    hands = next(deals(rules, 1, 11)).hands
    held, played = [list(h.counts) for h in hands], []
    for _ in range(7 * 3):  # seven tricks of the lowest legal card, the bidder leading
        _, seat = turns(played, 1, Suit.SPADES, 3)
        trick = played[len(played) - len(played) % 3 :]
        card = legal_cards(held[seat], trick, Suit.SPADES, rules.head, rules.overtrump)[-1]
        held[seat][card] -= 1
        played.append(card)
    deal = replay(hands, rules, Suit.SPADES, 1, [CARD_NAMES[c] for c in played])
    asked = review(deal, rules, bidder=1, time_limit=None)
    turned = review(turn(deal, -1, 3), rules, time_limit=None)
    assert [(c.card, c.cost) for c in asked.cards] == [(c.card, c.cost) for c in turned.cards]
    assert [c.seat for c in asked.cards] == [(c.seat + 1) % 3 for c in turned.cards]
    assert asked.counted == 1 and asked.value == turned.value
    line = played_line(played_json(deal))
    record = json.loads(run("review", line, "-V", "cutthroat", "-f", "json").stdout)
    assert record["bidder"] == 1 and record["review"]["side_of"] == 1
    shown = [
        (p["seat"], p["card"], p["cost"])
        for t in record["tricks"]
        for p in t["cards"]
        if "cost" in p
    ]
    assert shown == [(c.seat, c.card, c.cost) for c in asked.cards]


def test_a_two_handed_record_is_not_taken_for_a_deal_to_review() -> None:
    from meldcalc.errors import NotationError

    record = json.loads(run("play", "-V", "two-handed", "--seed", "1", "-f", "json").stdout)
    with pytest.raises(NotationError, match="not two-handed's"):
        played_line(record)
