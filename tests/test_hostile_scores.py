"""Never a wrong score at exit 0: rules a house file states but the engines would not
play, hands no deal gives, numbers that say two things. Each case was once accepted."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.rules.cards import SUITS, Hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld
from meldcalc.rules.scoring import most_checks

runner = CliRunner()
SCORE = ("score", "--bid", "300", "--bidder", "0")

#: Where subprocesses run: away from the checkout, so `python -m meldcalc` imports the
#: installed package (with its built solver), not the source tree.
AWAY = Path(__file__).resolve().parent


def run(*args: str):
    return runner.invoke(app, list(args))


def one_error(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.stderr and result.stdout == ""
    return result.stderr


def house(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: single-deck\n" + text)
    return str(path)


# --- rules a house file states -------------------------------------------------------------


def test_a_deck_ranked_in_another_order_is_refused_not_played_by_pinochles(tmp_path) -> None:
    file = house(tmp_path, "deck: {ranks: [A, K, Q, J, 10, 9], copies: 2}\n")
    checked = run("check", file)
    assert checked.exit_code == 2 and checked.stderr == "1 file checked, 1 with problems\n"
    said = checked.stdout
    assert "house.yaml:3:" in said and "deck.ranks[4]: rank 10 is listed after J" in said
    assert "A 10 K Q J 9" in said
    refused = run("solve", "10S / KS / 9H / 9D", "-t", "S", "-V", file)
    assert "rank 10 is listed after J" in one_error(refused)


def test_a_deck_that_leaves_out_a_rank_keeps_pinochles_order(tmp_path) -> None:
    file = house(tmp_path, "deck: {ranks: [A, 10, K, Q, J], copies: 2}\n")
    assert "is listed after" not in run("check", file).stdout


def test_a_points_list_that_goes_down_is_refused(tmp_path) -> None:
    file = house(tmp_path, "melds:\n  - {name: pinochle, points: [100, 50]}\n")
    stderr = one_error(run("meld", "JD JD QS QS", "-t", "S", "-V", file))
    assert "melds[0].points[1]: 50 for 2 copies is less than 100 for 1" in stderr


# --- hands no deal gives -------------------------------------------------------------------

SIXTEEN = "AS 10S KS QS JS JD 9S AH AD AC KH QH QD QC KD KC"


def test_a_hand_larger_than_a_seat_holds_is_refused() -> None:
    stderr = one_error(run(*SCORE, "--hand", f"0:{SIXTEEN}", "-t", "S", "--tricks", "200"))
    assert "seat 0: 16 cards, but in single-deck the bidder holds 12 cards: at most 12" in stderr


def test_the_three_handed_bidder_melds_from_the_widow_too_and_no_one_else_does() -> None:
    eighteen = SIXTEEN + " 9S 9C"
    took_widow = run(
        *SCORE, "-V", "three-handed", "--hand", f"0:{eighteen}", "-t", "S", "--tricks", "200,50"
    )
    assert took_widow.exit_code == 0, took_widow.output
    other = run(
        *SCORE, "-V", "three-handed", "--hand", f"1:{eighteen}", "-t", "S", "--tricks", "200,50"
    )
    assert "seat 1: 18 cards, but in three-handed a seat holds 15 cards" in one_error(other)


def test_seats_given_no_hand_are_named_as_melding_nothing() -> None:
    result = run(
        *SCORE, "--hand", "0:AS 10S KS QS JS", "--hand", "2:JD QS", "-t", "S", "--tricks", "150"
    )
    assert result.exit_code == 0, result.output
    assert "no --hand for seats 1 and 3: their meld counts 0" in result.stderr


# --- checks --------------------------------------------------------------------------------

CHECK_HAND = "AS 10S KS QS JS KH QH KD QD KC QC 9S"


def test_checks_are_counted_from_the_hands_and_never_overridden() -> None:
    result = run(*SCORE, "-V", "check", "--hand", f"0:{CHECK_HAND}", "-t", "S", "--tricks", "100")
    assert result.exit_code == 0
    overridden = run(
        *SCORE,
        *("-V", "check", "--hand", f"0:{CHECK_HAND}", "-t", "S", "--tricks", "100"),
        *("--checks", "1,1"),
    )
    assert "--checks with --hand" in one_error(overridden)


def test_checks_a_meld_cannot_carry_are_refused() -> None:
    result = run(*SCORE, "-V", "check", "--meld", "100,0", "--checks", "3,1", "--tricks", "150")
    assert "side 0's meld of 100 carries at most 2 checks in check, not 3" in one_error(result)
    fits = run(*SCORE, "-V", "check", "--meld", "100,0", "--checks", "2,0", "--tricks", "150")
    assert fits.exit_code == 0, fits.output


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_checks_bound_never_refuses_a_side_a_real_deal_gives(seed: int) -> None:
    rules = load_variant("check")
    rng = random.Random(seed)
    deck = [card for card in rules.deck.cards()]
    rng.shuffle(deck)
    trump = rng.choice(SUITS)
    seats = [best_meld(Hand.from_cards(deck[i * 12 : (i + 1) * 12]), rules, trump) for i in (0, 2)]
    meld = sum(result.total for result in seats)
    checks = sum(found.checks for result in seats for found in result.melds)
    assert most_checks(rules, meld) >= checks


# --- one number, one meaning ---------------------------------------------------------------


def test_one_tricks_number_is_the_bidding_sides_whoever_bid() -> None:
    result = run("score", "--bid", "250", "--bidder", "1", "--meld", "60,140", "--tricks", "120")
    assert result.exit_code == 0
    assert "Seats 1 and 3 bid 250 and made it: 140 meld + 120 in tricks = 260." in result.stdout
    assert "--tricks 120: the bidding side's (seats 1 and 3); the other side 90" in result.stderr


def test_save_meld_by_counter_asks_when_the_points_may_be_the_last_trick_alone(tmp_path) -> None:
    file = house(tmp_path, "house: {save_meld: counter}\n")
    hand = (*SCORE, "-V", file, "--meld", "150,80", "--tricks", "200,10", "-f", "json")
    asked = one_error(run(*hand))
    assert "may be the last trick alone" in asked and "--counters-taken" in asked
    kept = _points(run(*hand, "--counters-taken", "15,9"))
    lost = _points(run(*hand, "--counters-taken", "24,0"))
    assert kept == [350, 90] and lost == [350, 10]
    impossible = one_error(run(*hand, "--counters-taken", "24,1"))
    assert "counters taken add up to 25; the house deck has 24" in impossible


def test_save_meld_by_counter_needs_no_question_where_the_points_tell(tmp_path) -> None:
    file = house(tmp_path, "house: {save_meld: counter}\n")
    result = run(*SCORE, "-V", file, "--meld", "150,80", "--tricks", "195,15", "-f", "json")
    assert _points(result) == [345, 95]


def _points(result) -> list[int]:
    assert result.exit_code == 0, result.output
    return [side["points"] for side in json.loads(result.stdout)["sides"]]


@pytest.mark.parametrize("kept", [True, False])
def test_counters_taken_are_kept_in_the_ledger(tmp_path, kept: bool) -> None:
    file = house(tmp_path, "house: {save_meld: counter}\n")
    game = str(tmp_path / "g.jsonl")
    taken = "15,9" if kept else "24,0"
    hand = (*SCORE, "-V", file, "--meld", "150,80", "--tricks", "200,10", "-g", game)
    assert run(*hand, "--counters-taken", taken).exit_code == 0
    shown = json.loads(run("score", "-g", game, "--show", "-f", "json").stdout)
    assert shown["totals"] == ([350, 90] if kept else [350, 10])


# --- games that break, and writes where they do not belong ---------------------------------

HAND_LINE = ("--bid", "300", "--bidder", "0", "--meld", "150,80", "--tricks", "200")


def _game(tmp_path: Path) -> str:
    game = str(tmp_path / "g.jsonl")
    assert run("score", "-g", game, *HAND_LINE).exit_code == 0
    return game


def test_repair_never_appends_through_a_planted_torn_link(tmp_path) -> None:
    game = _game(tmp_path)
    with open(game, "ab") as ledger:
        ledger.write(b'{"hand": 2, "bid": 3')
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (tmp_path / "g.jsonl.torn").symlink_to(victim)
    before = Path(game).read_bytes()
    stderr = one_error(run("score", "-g", game, "--repair"))
    assert "g.jsonl.torn: a symbolic link" in stderr and "writes through no link" in stderr
    assert victim.read_text() == "precious\n" and Path(game).read_bytes() == before


def test_a_hand_is_never_written_through_a_link_to_a_ledger(tmp_path) -> None:
    game = _game(tmp_path)
    link = tmp_path / "link.jsonl"
    link.symlink_to(game)
    before = Path(game).read_bytes()
    assert "a symbolic link" in one_error(run("score", "-g", str(link), *HAND_LINE))
    assert Path(game).read_bytes() == before
    assert run("score", "-g", str(link), "--show").exit_code == 0  # reading follows it


def test_a_hand_recorded_with_stdout_full_says_it_was_recorded(tmp_path) -> None:
    import subprocess
    import sys

    game = str(tmp_path / "g.jsonl")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "meldcalc", "score", "-g", game, *HAND_LINE],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=AWAY,
        )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "hand 1 is recorded in" in done.stderr and "do not score it again" in done.stderr
    assert len(Path(game).read_text().splitlines()) == 2  # the header and the hand


def test_a_game_target_the_ledger_cannot_hold_is_refused_by_check(tmp_path) -> None:
    file = house(tmp_path, "bidding: {game: 20000000}\n")
    checked = run("check", file)
    assert checked.exit_code == 2 and "bidding.game: expected an integer <= 10000000" in (
        checked.stdout
    )


def test_a_hand_the_ledger_could_not_read_back_is_not_written(tmp_path) -> None:
    names = ["run", "royal marriage", "marriage", "pinochle", "kings around", "queens around"]
    melds = "".join(f"  - {{name: {name}, points: 1000000}}\n" for name in names)
    file = house(tmp_path, "melds:\n" + melds)  # each at the bound a house file may give
    game = tmp_path / "g.jsonl"
    hands = (
        *("--hand", "0:AS 10S KS QS JS KH QH KD QD KC QC JD"),
        *("--hand", "2:KS QS KH QH KD QD KC QC JD 9S 9S 9H"),
    )
    hand = ("-V", file, *hands, "-t", "S", *HAND_LINE[:4], "--tricks", "200")
    assert run("score", *hand, "-f", "json").exit_code == 0  # scored, more than 10,000,000
    result = run("score", "-g", str(game), *hand)
    assert "not recorded, since the game could not be read back" in one_error(result)
    assert not game.exists()


def test_names_edited_into_a_ledger_are_checked_as_names_are(tmp_path) -> None:
    game = tmp_path / "g.jsonl"
    assert run("score", "-g", str(game), "--names", "Ann,Bob", *HAND_LINE).exit_code == 0
    lines = game.read_text().splitlines()
    header = json.loads(lines[0])
    header["names"] = ["Ann\x1b[2J", "Bob"]
    game.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    stderr = one_error(run("score", "-g", str(game), "--show"))
    assert "g.jsonl:1: names" in stderr and "printable characters" in stderr
    assert "\x1b" not in stderr


# --- silently accepted, or said in YAML's words --------------------------------------------


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("0250", "'0250': a number with a leading zero (YAML reads it as octal, 168): write 250"),
        ("0xFA", "'0xFA': expected a whole number written in digits"),
        ("2_50", "'2_50': expected a whole number written in digits"),
        ("9" * 5000, "a number of 5000 digits, far beyond any bound of a variant file"),
        ("9" * 30, "expected an integer <= 10000000, got 999999999999999999999999999999"),
    ],
)
def test_numbers_yaml_would_read_otherwise_are_refused_in_our_words(tmp_path, value, said):
    file = house(tmp_path, f"bidding:\n  opening: {value}\n")
    checked = run("check", file)
    assert checked.exit_code == 2 and "house.yaml:4:12: bidding.opening: " + said in checked.stdout
    assert "Exceeds the limit" not in checked.stdout


def test_a_yaml_merge_key_is_refused_in_our_words(tmp_path) -> None:
    file = house(tmp_path, "bidding:\n  <<: {opening: 250}\n")
    said = run("check", file).stdout
    assert "house.yaml:4:3: bidding: a YAML merge key ('<<'): not read" in said
    assert "constructor" not in said


def test_solve_takes_the_first_leader_of_a_random_endgame_and_refuses_a_seat_too_many() -> None:
    assert "--leader 5: single-deck seats 4 players" in one_error(
        run("solve", "--seed", "3", "--tricks", "4", "-t", "S", "--leader", "5")
    )
    dealt = [
        json.loads(
            run(
                "solve", "--seed", "3", "--tricks", "4", "-t", "S", "-l", leader, "-f", "json"
            ).stdout
        )
        for leader in ("0", "1")
    ]
    assert dealt[0]["hands"] != dealt[1]["hands"]  # another first lead, another endgame


def test_a_labelled_lines_bad_card_is_told_at_its_column_in_the_line_as_typed() -> None:
    result = runner.invoke(app, ["meld", "-", "-t", "S"], input="seat 1: AS AX\n")
    assert "line 1: 'AX' at column 12:" in result.stderr


def test_bid_strong_names_the_trump_whose_corrected_odds_bid_highest() -> None:
    hand = "AS KS QS JS AH AH KH KH AD JD AC 9C"
    result = run("bid", hand, "-n", "400", "--seed", "3", "--strong", "4", "-f", "json")
    report = json.loads(result.stdout)
    rows = report["results"]
    named = rows[0]
    assert named["trump"] == report["best_trump"] and named["strong"] is not None
    assert report["suggested_bid"] == named["max_bid"]
    assert all(named["max_bid"] >= (row["max_bid"] or 0) for row in rows)
    # every row that ranked first uncorrected was corrected: none left above the named one
    assert any(row["strong"] is not None for row in rows[1:])


@pytest.mark.parametrize("variant", ["examples/house-passing", "double-deck-toby-thomas"])
def test_play_passes_the_cards_as_bid_simulates_and_says_which_went_each_way(variant) -> None:
    from collections import Counter

    played = json.loads(run("play", "-t", "S", "--seed", "3", "-V", variant, "-f", "json").stdout)
    plain = json.loads(run("play", "-t", "S", "--seed", "3", "-f", "json").stdout)
    cards = 3
    to_bidder, to_partner = played["pass"]["to_bidder"], played["pass"]["to_partner"]
    assert len(to_bidder) == len(to_partner) == cards
    hands = [Counter(seat["hand"]) for seat in played["seats"]]  # as played: after the pass
    assert not Counter(to_bidder) - hands[0] and not Counter(to_partner) - hands[2]
    for seat, hand in enumerate(hands):  # every card a seat plays is from its hand shown
        shown = Counter(
            c["card"] for t in played["tricks"] for c in t["cards"] if c["seat"] == seat
        )
        assert shown == hand
    assert "pass" not in plain
    table = run("play", "-t", "S", "--seed", "3", "-V", variant).stdout
    assert f"seat 2 to seat 0 {' '.join(to_bidder)};" in table


def test_a_smaller_deck_is_told_at_the_users_file_how_to_drop_what_it_inherits(tmp_path) -> None:
    file = house(tmp_path, "deck: {ranks: [A, 10, Q, J, 9], copies: 2}\nhand_size: 10\n")
    said = run("check", file).stdout
    assert "single-deck.yaml" not in said
    assert (
        "house.yaml:3:15: deck.ranks: the deck leaves out K, which the inherited meld 'run'"
        " needs: drop it with '- {name: run, drop: true}' under melds"
    ) in said
    assert "drop it with 'counters: {K: null}' under tricks" in said
    drops = "".join(
        f"  - {{name: {name}, drop: true}}\n"
        for name in ("run", "royal marriage", "marriage", "kings around")
    )
    fixed = house(
        tmp_path,
        "deck: {ranks: [A, 10, Q, J, 9], copies: 2}\nhand_size: 10\nmelds:\n"
        + drops
        + "tricks:\n  counters: {K: null}\n",
    )
    assert run("check", fixed).exit_code == 0
    shown = json.loads(run("table", "-V", fixed, "-f", "json").stdout)
    names = [meld["name"] for group in shown["classes"] for meld in group["melds"]]
    assert names and "run" not in names and "kings around" not in names
    assert "K" not in shown["tricks"]["counters"]


def test_only_an_inherited_meld_can_be_dropped(tmp_path) -> None:
    said = run("check", house(tmp_path, "melds:\n  - {name: dux, drop: true}\n")).stdout
    assert "melds[0].drop: no inherited meld named 'dux' to drop" in said


def test_review_names_the_settings_it_takes_and_solve_the_ones_it_takes() -> None:
    position = "AS / KS / QS / JS | trump S | bogus 1"
    reviewed = one_error(run("review", position))
    assert "expected '| trump S', '| leader N' or '| played AS KS QS JS ...'" in reviewed
    assert "'| trick" not in reviewed
    assert "or '| trick AS KS'" in one_error(run("solve", position))


@pytest.mark.parametrize("written", ["70", "70%", "0.7", " 70 % "])
def test_confidence_is_taken_as_players_write_it(written: str) -> None:
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    result = run("bid", hand, "-c", written, "-n", "100", "--seed", "1", "-f", "json")
    assert json.loads(result.stdout)["confidence"] == 0.7


@pytest.mark.parametrize("written", ["100", "0.995", "abc", "nan", "0"])
def test_confidence_out_of_range_is_refused_saying_what_is_taken(written: str) -> None:
    result = run("bid", "AS 10S KS QS JS JD 9S AH AD AC KH QH", "-c", written, "-n", "100")
    assert result.exit_code == 2 and "1% to 99%" in result.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("bid", "AS", "-c", "200"), "meldcalc: error: invalid value for '--confidence' / '-c':"),
        (("play",), "meldcalc: error: missing option '--trump' / '-t'. Choose from: S, H, D, C"),
        (("nothing",), "meldcalc: error: no such command 'nothing' (see 'meldcalc --help')"),
    ],
)
def test_usage_errors_read_as_every_other_error(args, said) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "meldcalc", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=AWAY,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(said) and len(done.stderr.splitlines()) == 1
    assert "Usage:" not in done.stderr and "--help')" in done.stderr


def test_hint_without_the_built_solver_says_so_in_its_output(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "meldcalc.engines._solver", None)  # as if never built
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
    result = run("hint", hand, "-t", "S", "-n", "20", "--seed", "1", "-f", "json")
    record = json.loads(result.stdout)
    assert record["exact_from"] == 0 and "the exact solver is not built" in record["not_exact"]
    table = run("hint", hand, "-t", "S", "-n", "20", "--seed", "1").stdout
    assert "the exact solver is not built" in table


def _on_a_terminal(*args: str, columns: int) -> list[str]:
    """The lines ``meldcalc ARGS`` shows on a pseudo-terminal ``columns`` wide."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns)}
    with subprocess.Popen(
        [sys.executable, "-m", "meldcalc", *args],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=AWAY,
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the program is done
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode().replace("\r\n", "\n").splitlines()


def test_table_fits_a_real_terminal_and_a_pipe_gets_every_line_whole() -> None:
    shown = _on_a_terminal("table", columns=60)
    assert shown and max(map(len, shown)) <= 60  # prose wrapped, the grid made to fit
    piped = run("table").stdout.splitlines()
    assert max(map(len, piped)) > 200  # a pipe gets each paragraph whole, for scripts
    prose = [line for line in piped if line and "  " not in line and not line.startswith("-")]
    words = " ".join(" ".join(shown).split())
    assert all(" ".join(line.split()) in words for line in prose)  # wrapping moved no word
    assert all(value in words for value in ("150", "1500", "(80*)", "300", "1000"))


def test_strong_on_six_seats_is_refused_before_any_deal_is_simulated(tmp_path) -> None:
    six = tmp_path / "six.yaml"
    six.write_text("extends: single-deck\nname: six\nplayers: 6\nhand_size: 8\n")
    result = run("bid", "AS 10S KS QS JS JD 9S AH", "-V", str(six), "--strong", "4", "-n", "50")
    stderr = one_error(result)
    assert "--strong 4: the look-ahead player solves the last tricks exactly" in stderr
    assert "2 to 4 seats, not 6" in stderr


def test_a_hand_missing_parts_is_told_which() -> None:
    said = one_error(run("score", "--hand", "0:AS KS", "-t", "S"))
    assert said.startswith("meldcalc: error: a hand needs --bid and --bidder too")


def test_check_takes_a_shipped_name_as_its_shipped_file() -> None:
    result = run("check", "single-deck")
    assert result.exit_code == 0 and result.stdout.startswith("single-deck (shipped: ")
    assert result.stderr == "1 file checked, 0 with problems\n"


def test_the_quiz_stops_at_q_and_counts_only_what_was_answered() -> None:
    result = runner.invoke(app, ["quiz", "--seed", "1", "-n", "3"], input="190\nq\n170\n")
    assert result.exit_code == 0
    assert "(stopped)" in result.stdout and result.stdout.rstrip().endswith("0 of 1 right (0%)")


def test_the_game_shows_the_bidders_name_the_trump_and_on_request_meld_and_tricks(
    tmp_path,
) -> None:
    game = str(tmp_path / "g.jsonl")
    first = ("--names", "Ann & Bob,Cy & Di", "-t", "S")
    assert run("score", "-g", game, *first, *HAND_LINE).exit_code == 0
    hand = ("--bid", "250", "--bidder", "3", "--meld", "60,140", "--tricks", "120")
    assert run("score", "-g", game, *hand).exit_code == 0
    rows = run("score", "-g", game, "--show").stdout.splitlines()
    assert rows[2].split()[:4] == ["hand", "bid", "by", "trump"]
    assert "Ann & Bob (seat 0)  S" in rows[4] and "Cy & Di (seat 3)" in rows[5]
    detail = run("score", "-g", game, "--show", "--detail").stdout
    assert "[150 meld + 200 tricks]" in detail and "[140 meld + 120 tricks]" in detail
    data = json.loads(run("score", "-g", game, "--show", "-f", "json").stdout)
    assert [h["trump"] for h in data["hands"]] == ["S", None]
    assert data["hands"][1]["meld"] == [60, 140] and data["hands"][1]["tricks"] == [90, 120]


def test_a_planted_cache_key_link_turns_the_cache_off_and_changes_nothing(tmp_path) -> None:
    import os
    import subprocess
    import sys

    folder = tmp_path / "cache"
    folder.mkdir()
    victim = tmp_path / "victim"
    victim.write_bytes(b"k" * 32)  # a key-sized file the planter controls
    (folder / "key").symlink_to(victim)
    file = house(tmp_path, "melds:\n  - {name: dix, points: 20}\n")
    env = {**os.environ, "MELDCALC_CACHE_DIR": str(folder)}
    argv = [sys.executable, "-m", "meldcalc", "meld", "9S 9S", "-t", "S", "-V", file, "-f", "total"]
    for _ in range(2):
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, cwd=AWAY)
        assert done.returncode == 0 and done.stdout == "40\n"
    assert victim.read_bytes() == b"k" * 32 and not list(folder.glob("variant-*"))
