"""Variant files: the shipped ones load, bad ones are reported like a linter would."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from meldcalc.errors import VariantError
from meldcalc.rules.loading import load_variant, shipped_names

BAD = Path(__file__).parent / "data" / "bad"


def _expected() -> dict[str, list[str]]:
    expected: dict[str, list[str]] = {}
    for line in (BAD / "expected.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, message = line.split(" | ", 1)
            expected.setdefault(name, []).append(message)
    return expected


EXPECTED = _expected()


def test_every_bad_file_has_its_expected_messages() -> None:
    assert sorted(EXPECTED) == sorted(path.name for path in BAD.glob("*.yaml"))
    assert len(EXPECTED) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_variant_file_is_reported_with_file_line_and_key(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(BAD)
    with pytest.raises(VariantError) as error:
        load_variant(name)
    assert error.value.problems == EXPECTED[name]


@pytest.mark.parametrize("name", shipped_names())
def test_shipped_variant_loads_with_consistent_deal(name: str) -> None:
    variant = load_variant(name)
    assert variant.name == name
    dealt = variant.players * variant.hand_size + variant.widow + variant.stock
    assert dealt == variant.deck.size


def test_trick_totals_come_from_the_counters() -> None:
    assert load_variant("single-deck").trick_total == 210
    assert load_variant("double-deck").trick_total == 50
    assert load_variant("single-deck-tens").trick_total == 25


def test_extends_overrides_only_what_it_names() -> None:
    base, toby = load_variant("double-deck"), load_variant("double-deck-toby-thomas")
    assert toby.deck == base.deck and toby.counters == base.counters
    assert [m.name for m in toby.melds] == [m.name for m in base.melds]
    marriage = {m.name: m for m in toby.melds}["marriage"]
    assert marriage == {m.name: m for m in base.melds}["marriage"]
    assert toby.bidding.dealer_forced and toby.bidding.opening == 25


def test_house_file_relative_path_and_shipped_name_both_resolve(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: house\nextends: single-deck\ntitle: Mine\nmelds:\n  - {name: dix, points: 20}\n"
    )
    variant = load_variant(str(house))
    assert variant.title == "Mine"
    assert {m.name: m for m in variant.melds}["dix"].points == (20,)


def test_unknown_variant_name_lists_the_shipped_ones() -> None:
    with pytest.raises(
        VariantError, match=r"unknown variant 'singel': expected one of .*single-deck"
    ):
        load_variant("singel")


def test_a_very_long_unknown_key_is_named_cut_short(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(f"name: house\nextends: single-deck\n{'k' * 1000}: 1\n")
    with pytest.raises(VariantError) as raised:
        load_variant(str(house))
    [problem] = raised.value.problems
    assert problem.startswith(f"{house}:3:1: 'kkkk") and "unknown key 'kkk" in problem
    assert len(problem) < 600 and "(1000 characters)" in problem


def test_a_near_miss_of_a_variant_name_is_given_its_likely_meaning() -> None:
    with pytest.raises(VariantError, match=r"a YAML file; did you mean 'single-deck'\?$"):
        load_variant("single-dek")
    with pytest.raises(VariantError, match=r"file; did you mean 'examples/house-roundhouse'\?$"):
        load_variant("examples/house-rundhouse")
    with pytest.raises(VariantError, match=r"a path to a YAML file$"):
        load_variant("zzz")
    # a digit for its word, and a shipped name written as its file
    with pytest.raises(VariantError, match=r"did you mean 'three-handed'\?$"):
        load_variant("3-handed")
    with pytest.raises(VariantError, match=r"^two-handed.yml: no such .*'two-handed'\?$"):
        load_variant("two-handed.yml")
    # not close enough to be sure: nothing suggested (a loose match offered these)
    for far in ("4handed", "house", "examples/single-deck"):
        with pytest.raises(VariantError, match=r"(YAML file|variant file)$"):
            load_variant(far)


def test_missing_file_is_named() -> None:
    with pytest.raises(VariantError, match=r"\./nowhere\.yaml: no such variant file"):
        load_variant("./nowhere.yaml")


def test_counters_variant_scores_aces_tens_and_kings_ten_each() -> None:
    counters = load_variant("single-deck-counters")
    single = load_variant("single-deck")
    assert {rank.value: points for rank, points in counters.counters.items()} == {
        "A": 10,
        "10": 10,
        "K": 10,
    }
    assert counters.melds == single.melds and counters.bidding == single.bidding


def test_a_house_file_does_not_inherit_a_description_of_other_counters(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: h\nextends: single-deck\ntitle: t\nsource: s\n"
        "tricks: {counters: {A: 11, 10: 10, K: 4, Q: 3, J: 2}, last_trick: 10}\n"
    )
    assert load_variant(str(house)).description == ""
    assert "210 in all" in load_variant("single-deck").description


def test_bidding_levels_follow_the_increments() -> None:
    bidding = load_variant("double-deck").bidding
    assert bidding.levels(70) == [*range(50, 60), 60, 65, 70]


@pytest.mark.parametrize(
    ("name", "players", "partnerships", "hand_size", "widow", "stock", "tricks", "opening"),
    [
        ("single-deck", 4, True, 12, 0, 0, 210, 250),
        ("single-deck-classic", 4, True, 12, 0, 0, 250, 250),
        ("single-deck-counters", 4, True, 12, 0, 0, 250, 250),
        ("three-handed", 3, False, 15, 3, 0, 250, 300),
        ("cutthroat", 3, False, 16, 0, 0, 210, 250),
        ("two-handed", 2, False, 12, 0, 24, 210, None),
        ("firehouse", 4, True, 12, 0, 0, 210, 200),
        ("check", 4, True, 12, 0, 0, 210, 200),
        ("double-deck", 4, True, 20, 0, 0, 50, 50),
        ("double-deck-three-handed", 3, False, 25, 5, 0, 50, 50),
        ("double-deck-100-aces", 4, True, 20, 0, 0, 500, 500),
        ("double-deck-toby-thomas", 4, True, 20, 0, 0, 50, 25),
    ],
)
def test_deal_counters_and_opening_bid_of_each_variant(
    name, players, partnerships, hand_size, widow, stock, tricks, opening
) -> None:
    variant = load_variant(name)
    assert (variant.players, variant.partnerships, variant.hand_size) == (
        players,
        partnerships,
        hand_size,
    )
    assert (variant.widow, variant.stock, variant.trick_total) == (widow, stock, tricks)
    assert (variant.bidding.opening if variant.bidding else None) == opening


def test_firehouse_bids_once_and_cannot_concede() -> None:
    bidding = load_variant("firehouse").bidding
    assert (bidding.rounds, bidding.concede) == (1, False)


def test_double_deck_bidding_rules_reach_its_variations() -> None:
    for name in ("double-deck", "double-deck-npa", "double-deck-three-handed"):
        bidding = load_variant(name).bidding
        assert bidding.dealer_forced and bidding.marriage_in_trump
    assert load_variant("double-deck-100-aces").bidding.levels(700) == [
        *range(500, 600, 10),
        600,
        650,
        700,
    ]


def test_every_shipped_variant_has_a_title_source_and_description() -> None:
    for name in shipped_names():
        variant = load_variant(name)
        assert variant.title and variant.source and len(variant.description) > 80


def test_example_house_file_loads_and_is_not_listed_as_a_variant() -> None:
    example = Path(__file__).parent.parent / "variants" / "examples" / "house-roundhouse.yaml"
    variant = load_variant(str(example))
    assert variant.meld_minimum == 20
    assert "house-roundhouse" not in shipped_names()


def test_cached_variant_equals_a_fresh_read_and_follows_edits(tmp_path: Path) -> None:
    from meldcalc.rules import cache
    from meldcalc.rules.loading import read_source

    base = tmp_path / "base.yaml"
    base.write_text((Path(__file__).parent.parent / "variants" / "single-deck.yaml").read_text())
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nextends: ./base.yaml\ntitle: t\nsource: s\n")
    fresh = load_variant(str(house))
    assert cache.read(house, house.read_bytes(), read_source) is not None
    assert load_variant(str(house)) == fresh
    # Editing the parent file makes the cached entry stale, even keeping size and time.
    status = base.stat()
    base.write_text(base.read_text().replace("points: 10\n", "points: 12\n"))
    os.utime(base, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert cache.read(house, house.read_bytes(), read_source) is None
    assert {m.name: m for m in load_variant(str(house)).melds}["dix"].points == (12,)


def test_a_cache_that_cannot_be_written_is_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MELDCALC_CACHE_DIR", "/proc/meldcalc-cannot-write-here")
    assert load_variant("double-deck").name == "double-deck"
