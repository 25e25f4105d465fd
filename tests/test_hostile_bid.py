"""`meldcalc bid` against what it is told: tables of any size, statements that contradict
each other, bounds that cannot be met, options given twice. Every refusal is one line on
stderr and exit 2; every table the files allow is modelled, partners and all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app

runner = CliRunner()
HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
PASSING = "variants/examples/house-passing.yaml"
TOBY = "double-deck-toby-thomas"
TOBY_HAND = "AS 10S KS QS JS JD QD AD AC KC QC KD QD AS 10S KS QS JS 10D 10C"
SIX_HAND = "AS 10S KS QS JS JD 9S AH"
THREE_HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH KD QD JC"


def run(*args: str):
    return runner.invoke(app, list(args))


def one_clean_error(result, expected: int = 2) -> str:
    """The single error line of a run that failed as it should."""
    assert result.exit_code == expected, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("meldcalc: error:")]
    assert len(errors) == 1, result.stderr
    assert result.stdout == ""
    return errors[0]


def house(folder: Path, body: str, name: str = "house.yaml") -> str:
    path = folder / name
    path.write_text(f"name: {path.stem}\ntitle: t\nsource: s\n{body}", encoding="utf-8")
    return str(path)


@pytest.fixture
def six(tmp_path: Path) -> str:
    """Six players in two partnerships of three: seats 0, 2, 4 against 1, 3, 5."""
    return house(tmp_path, "extends: single-deck\nplayers: 6\nhand_size: 8\n", "six.yaml")


@pytest.fixture
def two(tmp_path: Path) -> str:
    """Two players, each for himself: 24 cards each."""
    body = "extends: single-deck\nplayers: 2\npartnerships: false\nhand_size: 24\n"
    return house(tmp_path, body, "two.yaml")


def bid_json(*args: str) -> dict:
    result = run("bid", *args, "-n", "60", "--seed", "3", "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# --- every partner of the bidder is modelled ----------------------------------------------


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "tsv", "total", "jsonl"])
def test_six_handed_partnerships_render_in_every_format(six: str, fmt: str) -> None:
    result = run("bid", SIX_HAND, "-V", six, "-n", "40", "--seed", "1", "-f", fmt)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr and result.stdout


def test_six_handed_totals_count_both_partners_meld(six: str) -> None:
    """Seat 4 holds a double pinochle (300): the partners' meld is at least that."""
    report = bid_json("AS 10S KS JS 9S AH AD AC", "-V", six, "--known", "4:JD QS JD QS")
    for odds in report["results"]:
        assert odds["partner_meld"]["mean"] >= 300
        side = odds["meld"] + odds["partner_meld"]["mean"] + odds["tricks"]["mean"]
        assert odds["expected_total"] == pytest.approx(side, abs=0.02)


def test_six_handed_partner_meld_ranges_bound_both_partners(six: str) -> None:
    report = bid_json(SIX_HAND, "-V", six, "--partner-meld", "100:", "-t", "S")
    assert report["results"][0]["partner_meld"]["mean"] >= 100
    assert "partners' meld at least 100" in " ".join(report["knowledge"]["description"])


def test_six_handed_partner_by_name_is_ambiguous(six: str) -> None:
    line = one_clean_error(run("bid", SIX_HAND, "-V", six, "--void", "partner:H"))
    assert "two partners" in line and "seats 2 and 4" in line


def test_two_players_have_no_partner_and_a_partnership_of_two_is_refused(
    two: str, tmp_path: Path
) -> None:
    hand = "AS 10S KS QS JS JD 9S AH AD AC KH QH AS 10S KS QS JS JD 9S AH AD AC KH QH"
    result = run("bid", hand, "-V", two, "-n", "40", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert "partner" not in result.stdout
    assert bid_json(hand, "-V", two)["results"][0]["partner_meld"] is None
    body = "extends: single-deck\nplayers: 2\npartnerships: true\nhand_size: 24\n"
    paired = house(tmp_path, body, "paired.yaml")  # two players are two sides
    line = one_clean_error(run("bid", hand, "-V", paired, "-n", "40"))
    assert "paired.yaml:6:15: partnerships: partnerships need an even number of players" in line


# --- statements that contradict each other ------------------------------------------------

KNOWN_KH = ("--known", "partner:KH")
CONTRADICTIONS = [
    "received-void",
    "exchange-void",
    "known-void",
    "received-known",
    "widow-known",
    "ask-known",
    "ask-none-known",
]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (  # the example: partner passed hearts it cannot hold
            (HAND, "-V", PASSING, "--received", "10H 10H 10D", "--void", "partner:H"),
            "partner has no ♥ but passed you '10H'",
        ),
        (  # the same under the exchange, with the suit asked for
            (TOBY_HAND, "-V", TOBY, "--received", "AH AH AH", "--ask", "H", "--void", "partner:H"),
            "partner has no ♥ but passed you 'AH'",
        ),
        (  # known cards against a void, as before
            (HAND, "--known", "left:AH", "--void", "left:H"),
            "left has no ♥ but is known to hold 'AH'",
        ),
        (  # what was received and what is known: more copies than the deck
            (HAND, "-V", PASSING, "--received", "10D 10D 9C", "--known", "left:10D"),
            "'10D' is told 3 times",
        ),
        (  # the widow against the cards known
            (THREE_HAND, "-V", "three-handed", "--widow", "9C 9C 10D", "--known", "left:9C"),
            "'9C' is told 3 times",
        ),
        (  # passed fewer of the asked suit than the pass holds: partner has no more
            (TOBY_HAND, "-V", TOBY, "--received", "AH AS 10H", "--ask", "H", *KNOWN_KH),
            "holds no more, but is known to hold 'KH'",
        ),
        (  # asked for hearts, got none: partner is void in hearts, not holding them
            (TOBY_HAND, "-V", TOBY, "--received", "AC AS 10D", "--ask", "H", *KNOWN_KH),
            "holds no more, but is known to hold 'KH'",
        ),
    ],
    ids=CONTRADICTIONS,
)
def test_contradicting_statements_are_refused(args: tuple[str, ...], expected: str) -> None:
    assert expected in one_clean_error(run("bid", *args, "-n", "50"))


# --- bounds that cannot be met ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand_size", "endgame", "expected"),
    [
        (1, 2, "no trick is left to solve"),
        (1, 1, "no trick is left to solve"),
        (3, 3, "--endgame must be at most 2"),
        (3, 7, "--endgame must be at most 2"),
    ],
)
def test_an_endgame_longer_than_the_hand_says_why(
    tmp_path: Path, hand_size: int, endgame: int, expected: str
) -> None:
    body = f"extends: single-deck\nhand_size: {hand_size}\nstock: {48 - 4 * hand_size}\n"
    variant = house(tmp_path, body)
    hand = " ".join(["AS", "AH", "AD"][:hand_size])
    line = one_clean_error(run("bid", hand, "-V", variant, "--endgame", str(endgame)))
    hands = f"{hand_size}-card hands and the first trick is the policy's, so {expected}"
    assert f"--endgame {endgame}: " in line and hands in line
    assert "to 0" not in line


def test_an_endgame_longer_than_the_solver_takes_says_so() -> None:
    line = one_clean_error(run("bid", HAND, "--endgame", "12"))
    assert "--endgame 12: expected 1 to 8 tricks" in line and "too slow to solve exactly" in line


def test_a_negative_endgame_through_the_python_face_is_refused_not_played_forever() -> None:
    """Hypothesis found it: an endgame of -30,433,970 tricks ran for a quarter of an hour
    and more (-3 was taken in silence)."""
    import meldcalc
    from meldcalc.errors import MeldcalcError

    with pytest.raises(MeldcalcError, match="--endgame -3: expected 0 \\(none\\) to 8 tricks"):
        variant = meldcalc.load_variant("single-deck")
        meldcalc.estimate_bid(meldcalc.Hand.parse(HAND), variant, deals=5, endgame=-3)


# --- an option given twice ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        (TOBY_HAND, "-V", TOBY, "--ask", "S", "--ask", "H"),
        (HAND, "-V", PASSING, "--received", "10H 10H 10D", "--received", "AC AC 9C"),
        (THREE_HAND, "-V", "three-handed", "--widow", "9C 9C 10D", "--widow", "9D 9D 10C"),
        (HAND, "--partner-meld", "40:", "--partner-meld", ":20"),
        (HAND, "--opponents-meld", "40:", "--opponents-meld", "60"),
    ],
    ids=["ask", "received", "widow", "partner-meld", "opponents-meld"],
)
def test_a_single_option_given_twice_with_different_values_is_refused(
    args: tuple[str, ...],
) -> None:
    option = next(word for word in args[3:] if word.startswith("--"))
    line = one_clean_error(run("bid", *args, "-n", "50"))
    assert f"{option} given twice" in line


def test_a_single_option_repeated_with_the_same_value_is_one_statement() -> None:
    repeated = bid_json(HAND, "--partner-meld", "40:", "--partner-meld", " 40: ", "-t", "S")
    once = bid_json(HAND, "--partner-meld", "40:", "-t", "S")
    assert repeated == once
