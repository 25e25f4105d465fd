"""`meldcalc bid` and `meldcalc play` as users and scripts see them."""

from __future__ import annotations

import itertools
import json

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.rules.cards import NUM_CARDS, Hand

runner = CliRunner()
HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def _spread(stdout: str) -> list[str]:
    """The picture of how the totals fall: its axis, then a row of bars a trump."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("how the total"))
    return [line for line in lines[start + 1 :] if line.strip()][:5]


@pytest.mark.parametrize("seed", ["2", "3", "4"])
def test_every_trumps_row_of_the_spread_has_its_bars_however_few_the_deals(seed: str) -> None:
    result = run("bid", "AS 10S KS QS JS 9S 9S AH KH AD JD AC", "-n", "1", "-s", seed)
    assert result.exit_code == 0
    rows = _spread(result.stdout)[1:]
    assert len(rows) == 4 and all(row[:2] in ("S ", "H ", "D ", "C ") for row in rows)
    assert all(row[6:].strip() for row in rows), "\n".join(rows)


def test_a_spread_of_one_total_has_one_number_on_its_axis() -> None:
    result = run("bid", "AS 10S KS QS JS 9S 9S AH KH AD JD AC", "-t", "S", "-n", "1", "-s", "1")
    assert result.exit_code == 0
    axis, row, *_ = _spread(result.stdout)
    number, unit = axis.split()
    assert number.isdigit() and unit == "points" and row.split() == ["S", "♠", "█"]
    assert "1 simulated deal per trump" in result.stdout  # one deal, said as one
    assert "each the mean of 1 simulated deal;" in result.stdout


def test_bid_json_has_the_documented_shape_and_the_seed_repeats_it() -> None:
    result = run("bid", HAND, "--seed", "7", "-n", "400", "-f", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == [
        "hand",
        "variant",
        "deals",
        "chosen_on",
        "seed",
        "policy",
        "spread",
        "confidence",
        "warnings",
        "best_trump",
        "suggested_bid",
        "results",
        "knowledge",
        "passing",
        "system",
    ]
    assert data["knowledge"] is None and data["passing"] is None and data["system"] is None
    assert (data["deals"], data["seed"], data["confidence"]) == (400, 7, 0.7)
    first = data["results"][0]
    assert first["trump"] == data["best_trump"] == "S"
    assert set(first) >= {"trump", "meld", "partner_meld", "tricks", "make", "max_bid"}
    assert first["layouts_tried_per_kept"] == 1.0 and first["burial"] is None
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


@pytest.mark.parametrize("confidence", ["0.02", "0.99"])
def test_the_band_always_reaches_the_suggested_bid(confidence: str) -> None:
    result = run("bid", HAND, "--seed", "7", "-n", "300", "-c", confidence)
    marked = [line for line in result.stdout.splitlines() if "← the highest bid to go to" in line]
    assert len(marked) == 1
    assert marked[0].split()[0] in result.stdout.splitlines()[3]  # the bid the advice names


def test_pass_says_why_and_the_dealer_is_told_the_forced_bid() -> None:
    weak = "AH 10H QH QH JH JH AC 10C QC QC JC JC AD 10D QD QD JD JD AS 10S"
    result = run("bid", weak, "-V", "double-deck", "-s", "1", "-n", "200")
    lines = result.stdout.splitlines()
    assert lines[3].startswith("Pass: no marriage (K and Q) in ")
    assert lines[4].startswith("If you are the dealer and the others all pass, you must bid 50")
    three = "AH KH QH 9H 10S QS 9S 9S AD AD 10D QC JC JC 9C"
    result = run("bid", three, "-V", "three-handed", "-s", "1", "-n", "200")
    assert result.stdout.splitlines()[3].startswith("Pass: even the opening bid of 300 is ")
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


def test_a_trump_named_without_its_marriage_is_not_said_to_be_every_suit() -> None:
    hand = "AS 10S QS AH 10H 10H KH QH JH AD AD 10D JD JD 10C KC KC KC QC JC"  # no K♠
    result = run("bid", hand, "-V", "double-deck", "-t", "S", "-s", "1", "-n", "50")
    lines = result.stdout.splitlines()
    assert (
        lines[3] == "Pass with ♠ (S) as trump: no marriage (K and Q) in ♠, so you cannot name it."
    )
    assert "name a suit you hold a marriage in, not ♠ (S)" in lines[4]


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


def test_play_without_a_hand_plays_a_whole_random_deal_from_the_seed() -> None:
    first = run("play", "-t", "S", "--seed", "8", "-f", "json")
    assert first.exit_code == 0, first.stderr
    seats = [Hand.parse(" ".join(seat["hand"])) for seat in json.loads(first.stdout)["seats"]]
    assert [len(hand) for hand in seats] == [12] * 4
    assert sum(seats, Hand([0] * NUM_CARDS)) == Hand([2] * NUM_CARDS)  # the whole deck
    assert first.stdout == run("play", "-t", "S", "--seed", "8", "-f", "json").stdout
    assert first.stdout != run("play", "-t", "S", "--seed", "9", "-f", "json").stdout
    drawn = run("play", "-t", "S")  # no seed given: the one drawn is shown, to repeat the deal
    seed = drawn.stdout.splitlines()[0].split("seed ")[1]
    assert run("play", "-t", "S", "--seed", seed).stdout == drawn.stdout


def test_play_table_and_bad_hand() -> None:
    result = run("play", HAND, "-t", "H", "--seed", "1")
    assert result.exit_code == 0 and "points: seats 0 and 2 (the bidding side)" in result.stdout
    bad = run("play", "AS KX", "-t", "H")
    assert bad.exit_code == 2 and "'KX' at column 4" in bad.stderr


def test_play_needs_a_trump() -> None:
    result = run("play", HAND)
    assert result.exit_code == 2 and "--trump" in result.stderr


def test_bid_deals_only_what_the_table_knows_and_says_so() -> None:
    told = ("--partner-meld", "40:", "--void", "left:H", "--known", "partner:10D")
    result = run("bid", HAND, "-s", "5", "-n", "300", *told)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[3].startswith("Bid up to ")  # the advice stays where the eye lands
    start = lines.index("what the table knows (every deal simulated agrees with it):")
    assert lines[start + 1 : start + 4] == [
        "  partner holds 10D",
        "  left has no ♥",
        "  partner's meld at least 40 under each trump",
    ]
    assert lines[start + 4].startswith("  layouts tried for each one kept: S ♠ ")
    data = json.loads(run("bid", HAND, "-s", "5", "-n", "300", "-f", "json", *told).stdout)
    assert data["knowledge"]["partner_meld"] == {"min": 40, "max": None}
    assert data["knowledge"]["voids"] == [{"seat": 1, "suits": ["H"]}]
    assert data["knowledge"]["known"] == [{"seat": 2, "cards": ["10D"]}]
    assert all(r["layouts_tried_per_kept"] > 1 for r in data["results"])
    # partner's meld is now always at least 40, under every trump
    assert all(r["partner_meld"]["mean"] >= 40 for r in data["results"])


def test_the_same_seed_gives_the_same_numbers_with_what_the_table_knows_whatever_the_jobs():
    told = ("--partner-meld", "20:", "--void", "right:C", "--known", "left:AH")
    args = ("bid", HAND, "-s", "9", "-n", "4500", "-f", "json", *told)
    one, two = run(*args), run(*args, "-j", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout == run(*args).stdout
    assert one.stdout != run(*args[:3], "10", *args[4:]).stdout


def test_every_bad_value_of_what_the_table_knows_is_one_line_and_exit_2() -> None:
    cases = [
        (("--partner-meld", "forty:"), "--partner-meld: 'forty:': 'forty' is not a meld"),
        (("--known", "partnr:JD"), "--known: seat 'partnr': expected a seat"),
        (("--void", "left:X"), "--void: 'X': expected a suit"),
        (("--known", "left:AS", "--known", "right:AS"), "'AS' is told 3 times"),
        (("--widow", "AS KH 9D"), "--widow: single-deck has no widow"),
        (("--partner-meld", "500:"), "partner's meld at least 500 under ♠: kept in 0 of"),
        (("--ask", "H"), "--ask: single-deck has no card exchange"),
    ]
    for options, message in cases:
        result = run("bid", HAND, "-s", "1", "-n", "200", *options)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"meldcalc: error: {message}"), result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_bid_with_the_widow_seen_names_the_burial_and_the_trump() -> None:
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D"
    args = ("bid", hand, "-V", "three-handed", "--widow", "KS 10H 9C", "-s", "2", "-n", "300")
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[4].startswith("Bury ") and "the best of " in lines[4]
    assert "  widow seen: KS 10H 9C" in lines
    assert "the best burial under each trump, judged on the same deals (the odds shown are" in lines
    data = json.loads(run(*args, "-f", "json").stdout)
    burial = data["results"][0]["burial"]
    assert len(burial["cards"]) == 3 and burial["candidates"] >= 1
    assert burial["judged_total"] >= burial["rule_of_thumb"]["judged_total"]
    assert set(burial["rule_of_thumb"]) == {"cards", "judged_total"}
    assert data["knowledge"]["widow"] == ["KS", "10H", "9C"]


def test_bid_under_the_card_exchange_names_the_suit_to_ask_for() -> None:
    hand = "AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS"
    args = ("bid", hand, "-V", "double-deck-toby-thomas", "-s", "3", "-n", "200")
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[4].startswith("Now (toby-thomas): open ")  # the bid its system makes
    assert lines[5].startswith("Ask your partner for ")
    assert "  card exchange: before naming trump the bidder names a suit;" in "\n".join(lines)
    data = json.loads(run(*args, "-f", "json").stdout)
    passing = data["passing"]
    assert passing["kind"] == "exchange" and passing["cards"] == 3
    assert sorted(a["ask"] for a in passing["asks"]) == ["C", "D", "H", "S"]
    assert passing["ask"] == passing["asks"][0]["ask"]
    received = run(*args, "--received", "AS 10S AD", "--ask", "S", "-f", "json")
    assert received.exit_code == 0, received.stderr
    told = json.loads(received.stdout)
    assert told["passing"]["ask"] == "S" and told["knowledge"]["received"] == ["AS", "10S", "AD"]
    # two spades of three: the partner had no more to send, and holds none now
    assert told["knowledge"]["description"][-1].endswith("(fewer than 3 ♠: it has no more)")
    over = json.loads(run(*args, "--no-passing", "-f", "json").stdout)
    assert over["passing"] is None and over["knowledge"]["after_pass"] is True


def test_endgame_plays_the_last_tricks_exactly_and_repeats_with_jobs() -> None:
    from meldcalc.engines.solve import solver_available

    if not solver_available():
        import pytest

        pytest.skip("the solver is not built")
    args = ("bid", HAND, "-s", "5", "-n", "2500", "-f", "json", "-t", "S")
    policy = json.loads(run(*args).stdout)["results"][0]["tricks"]["mean"]
    exact = json.loads(run(*args, "--endgame", "3").stdout)
    assert exact == json.loads(run(*args, "--endgame", "3", "-j", "2").stdout)
    assert exact["results"][0]["tricks"]["mean"] != policy
    assert 0 < exact["results"][0]["tricks"]["mean"] <= 210


def test_endgame_out_of_range_is_a_message() -> None:
    result = run("bid", HAND, "--endgame", "12")
    assert result.exit_code == 2 and "--endgame 12: expected 1 to 8 tricks" in result.stderr


CUTTHROAT_WEAK = "AH KH QH JH 9H 10S QS 9S 9S AD AD 10D QC JC JC 9C"


def test_a_bid_never_made_is_said_so_not_as_0_percent_of_the_time() -> None:
    result = run("bid", CUTTHROAT_WEAK, "-V", "cutthroat", "--seed", "1", "-n", "300")
    assert result.exit_code == 0
    assert "0% of the time" not in result.stdout
    assert "the opening bid of 250 is never made in 300 simulated deals" in result.stdout


@pytest.mark.parametrize(
    ("rate", "words"),
    [
        (0.0, "never made in 2000 simulated deals"),
        (0.001, "made in fewer than 1% of 2000 simulated deals"),
        (0.42, "made only 42% of the time"),
        (0.999, "made in more than 99% of 2000 simulated deals"),
        (1.0, "made in every one of 2000 simulated deals"),
    ],
)
def test_how_often_a_bid_is_made_never_rounds_to_a_misleading_percentage(
    rate: float, words: str
) -> None:
    from meldcalc.advice.odds import how_often

    assert how_often(rate, 2000, only=True) == words


def test_bid_table_shows_whole_meld_whole_and_words_the_standard_error() -> None:
    result = run("bid", HAND, "--seed", "3", "-n", "300")
    lines = result.stdout.splitlines()
    head = next(line for line in lines if line.startswith("trump "))
    assert head.split() == ["trump", "meld", "partner", "tricks", "give", "or", "take",
                            "expected", "bid", "up", "to", "(70%)"]  # fmt: skip
    assert "±" not in result.stdout and " se" not in head
    spades = next(line for line in lines if line.startswith("S ♠ "))
    assert spades.split()[2] == "320"  # the meld is whole: no 320.0
    assert (
        "points, each the mean of 300 simulated deals; give or take: how far their luck may"
        " move the tricks"
    ) in result.stdout
    means = spades.split()[3:7]  # partner, tricks, give or take, expected: one decimal at most
    assert all(len(value.partition(".")[2]) <= 1 for value in means)
    data = json.loads(run("bid", HAND, "--seed", "3", "-n", "300", "-f", "json").stdout)
    assert data["results"][0]["meld"] == 320 and "se" in data["results"][0]["tricks"]


def test_bid_csv_gives_whole_meld_whole() -> None:
    rows = run("bid", HAND, "--seed", "3", "-n", "100", "-f", "csv").stdout.splitlines()
    assert rows[1].split(",")[3] == "320"


def test_a_run_of_bids_with_the_same_chance_is_one_row() -> None:
    from meldcalc.cli.bidtable import _same_chance_runs

    make = [(250, 0.9), (260, 0.5), (270, 0.07), (280, 0.07), (290, 0.07), (300, 0.0)]
    assert [len(run) for run in _same_chance_runs(make)] == [1, 1, 3, 1]


def test_the_burial_table_counts_the_burials_tried() -> None:
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH 10C 10D 9D"
    args = ("bid", hand, "-V", "three-handed", "--widow", "KS 10H 9C", "-s", "2", "-n", "200")
    lines = run(*args).stdout.splitlines()
    head = next(line for line in lines if line.startswith("trump    bury"))
    assert head.split()[-2:] == ["burials", "tried"] and "judged" not in head
    assert "burials tried on the same deals." in lines[4]


def test_a_long_step_ticks_its_seconds_on_a_terminal_and_leaves_a_clean_line(
    monkeypatch,
) -> None:
    """A run's progress line comes once it has taken ``after`` seconds and ticks while a
    long step (a whole chunk of deals) reports no count, then is blanked: a `bid` of the
    three-handed widow example was silent for 15 s."""
    import os
    import pty
    import select
    import time

    from meldcalc.cli.base import progress_line

    leader, follower = pty.openpty()
    terminal = os.fdopen(follower, "w", encoding="utf-8")
    monkeypatch.setattr("sys.stderr", terminal)
    with progress_line(after=0.2, working="simulating deals") as progress:
        time.sleep(1.3)  # a step that reports nothing
        progress(2000, 2000)
        time.sleep(0.6)
    terminal.flush()
    chunks = []
    while select.select([leader], [], [], 0.5)[0]:  # all the terminal holds, however cut
        chunks.append(os.read(leader, 65536))
    shown = b"".join(chunks).decode()
    terminal.close()
    os.close(leader)
    lines = shown.split("\r")
    assert "simulating deals, 1 s" in [line.rstrip() for line in lines]
    assert any(line.startswith("simulated 2000/2000 deals, 1 s") for line in lines)
    assert lines[-1] == "" and lines[-2].strip() == ""  # blanked, the cursor at its start


def test_no_progress_line_where_stderr_is_not_a_terminal(capsys) -> None:
    from meldcalc.cli.base import progress_line

    with progress_line(after=0) as progress:
        assert progress is None
    assert capsys.readouterr().err == ""


def test_a_dealt_tables_widow_line_is_no_hand_to_bid_and_the_seats_are_bid() -> None:
    dealt = run("deal", "--players", "-V", "three-handed", "--seed", "7").stdout
    assert dealt.splitlines()[-1].startswith("widow: ")
    result = run("bid", "-", "-V", "three-handed", "-n", "40", "--seed", "1", "-f", "total",
                 input=dealt)  # fmt: skip
    assert result.exit_code == 2
    assert result.stdout.splitlines()[:3] == ["pass", "pass", "pass"]
    assert result.stdout.splitlines()[3] == "error"
    assert result.stderr.strip() == (
        "meldcalc: error: line 4: widow: no seat bids these cards (bid a seat's hand; tell bid"
        " the widow you took with --widow)"
    )
