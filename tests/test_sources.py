"""Where a variant's numbers come from: check and firehouse follow the published rules
their files cite, and a number that is meldcalc's own is marked a house default, in the
file and in `meldcalc table`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.errors import MeldcalcError, VariantError
from meldcalc.rules.loading import load_variant
from meldcalc.rules.scoring import HandPlay, score_hand

runner = CliRunner()


def table(name: str, fmt: str = "table") -> str:
    done = runner.invoke(app, ["table", name, "-f", fmt])
    assert done.exit_code == 0, done.output
    return done.stdout


def test_check_plays_bicycles_check_pinochle() -> None:
    rules = load_variant("check")
    assert "bicyclecards.com/card-games/rule/check-pinochle" in rules.source
    bidding = rules.bidding
    assert (bidding.opening, bidding.dealer_forced, bidding.concede) == (200, True, False)
    assert (bidding.both_reach, rules.house.save_meld) == ("bidder", "trick")
    checks = {rule.name: rule.checks[0] for rule in rules.melds if rule.checks}
    assert checks == {
        "run": 2,
        "pinochle": 0,
        "aces around": 2,
        "kings around": 1,
        "queens around": 1,
        "jacks around": 1,
        "roundhouse": 5,
    }
    double_pinochle = next(rule for rule in rules.melds if rule.name == "pinochle").checks[1]
    assert double_pinochle == 2
    with pytest.raises(MeldcalcError, match="does not allow a side to throw the hand in"):
        score_hand(rules, HandPlay(250, 0, (100, 40), thrown_in=True))


def test_firehouse_plays_the_firehouse_rules_its_source_gives() -> None:
    rules = load_variant("firehouse")
    assert "pokerwiner.com/games-of-playing-cards/pinocle-2.html" in rules.source
    bidding = rules.bidding
    assert (bidding.opening, bidding.rounds, bidding.concede) == (200, 1, False)
    assert (bidding.both_reach, bidding.game) == ("bidder", 1000)
    assert rules.house_defaults == ()
    assert "†" not in table("firehouse")


def test_the_table_marks_meldcalcs_own_numbers_and_says_what_the_mark_means() -> None:
    shown = table("check")
    assert "1500 (4 checks†)" in shown and "300 (2 checks)" in shown
    assert "150 (2 checks)" in shown  # the run's single check value is Bicycle's
    legend = "† a house default: meldcalc's own number, not given by the variant's sources"
    assert legend in shown
    aces = table("double-deck-100-aces")
    assert "- opening bid at least 500; steps of 10, then steps of 50 from 600 †" in aces
    assert "several at once: the bidding side wins †" in aces
    data = json.loads(table("check", "json"))
    assert "melds[run].checks[2]" in data["house_defaults"]
    run = next(m for group in data["classes"] for m in group["melds"] if m["name"] == "run")
    assert run["house_default"] == {"checks": [2]}


def test_a_house_file_that_sets_a_marked_number_makes_it_its_own(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: house\nextends: double-deck-100-aces\ntitle: t\nsource: our table\n"
        "bidding:\n  opening: 450\n"
    )
    rules = load_variant(house)
    assert "bidding.opening" not in rules.house_defaults
    assert "bidding.game" in rules.house_defaults  # inherited, still meldcalc's reading


def test_a_mark_naming_nothing_is_refused_at_its_line(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: house\nextends: single-deck\ntitle: t\nsource: s\n"
        "house_defaults:\n  - bidding.openin\n  - melds[run].points[3]\n"
    )
    with pytest.raises(VariantError) as error:
        load_variant(house)
    expected = (
        "expected a key path such as bidding.opening, tricks.last_trick or melds[run].checks[2]"
    )
    problems = [problem.split("house.yaml:", 1)[1] for problem in error.value.problems]
    assert problems == [
        f"6:5: house_defaults[0]: 'bidding.openin' names no value of the variant: {expected}",
        f"7:5: house_defaults[1]: 'melds[run].points[3]' names no value of the variant: {expected}",
    ]
