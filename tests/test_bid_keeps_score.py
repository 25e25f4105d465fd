"""`bid` keeps what `score` keeps: every key of the variant schema that changes what a hand
scores moves `bid`'s P(make) the way `meldcalc score` says it moves a hand built for it (or
leaves it where `score` leaves the outcome); every other key is named with what it changes
instead. A key the schema gains fails the walk until it is given its case here."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.rules.schema import VARIANT_FIELDS, ListOf, MapOf, OneOf, Record, Spec

runner = CliRunner()
STRONG = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
#: Cutthroat: the bidder alone, no meld-free trick of its own in most deals (jacks and
#: queens only), 1,300 of meld: whether it takes a trick, or a counter, decides its score.
NO_TRICKS = "JS JH JD JC JS JH JD JC QS QH QD QC QS QH QD QC"
NO_KQ_IN_SPADES = "AS 10S JS JD 9S AH AD AC KH QH KC QC"


@dataclass(frozen=True)
class Case:
    """A key set (``house`` lines on ``base``), a hand for `bid`, and a hand played for
    `score` (options after ``-V``) at ``bid_level``: `score` says whether the key turns it
    from made to set, and `bid`'s P(make) must follow at that level."""

    base: str
    lines: str
    hand: str
    bid_level: int
    played: tuple[str, ...]
    trump: str = "S"
    #: the hand as `score` is told it under the key, where that differs (a hand not
    #: played has no tricks to tell)
    played_keyed: tuple[str, ...] | None = None


SCORING: dict[str, list[Case]] = {
    "house.save_meld": [
        Case(
            "single-deck",
            "house:\n  save_meld: 170\n",
            STRONG,
            460,
            ("--meld", "350,0", "--tricks", "160"),
        ),
        Case(
            "cutthroat",
            "house:\n  save_meld: trick\n",
            NO_TRICKS,
            1300,
            ("--meld", "1300,0,0", "--tricks", "0,100,110", "--tricks-taken", "0,8,8"),
        ),
        Case(
            "cutthroat",
            "house:\n  save_meld: counter\n",
            NO_TRICKS,
            1300,
            ("--meld", "1300,0,0", "--tricks", "10,90,110", "--counters-taken", "0,12,12"),
        ),
    ],
    "house.meld_minimum": [
        Case(
            "single-deck",
            "house:\n  meld_minimum: 360\n",
            STRONG,
            460,
            ("--meld", "350,0", "--tricks", "160"),
        ),
    ],
    "house.forfeit_under_minimum": [
        Case(
            "single-deck",
            "house:\n  meld_minimum: 360\n  forfeit_under_minimum: true\n",
            STRONG,
            460,
            ("--meld", "350,0", "--tricks", "160"),
            played_keyed=("--meld", "350,0"),
        ),
    ],
    "house.trick_minimum": [
        Case(
            "single-deck",
            "house:\n  trick_minimum: 170\n",
            STRONG,
            460,
            ("--meld", "350,0", "--tricks", "160"),
        ),
    ],
    "house.set_penalty": [
        Case(
            "single-deck",
            "house:\n  set_penalty: 3\n",
            STRONG,
            500,
            ("--meld", "320,0", "--tricks", "150"),
        ),
    ],
    "house.thrown_in.meld": [
        Case(
            "single-deck",
            "house:\n  thrown_in: {meld: false}\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
    "house.thrown_in.meld_minimum": [
        Case(
            "single-deck",
            "house:\n  thrown_in: {meld_minimum: 100}\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
    "house.thrown_in.cards": [
        Case(
            "single-deck",
            "house:\n  thrown_in: {cards: 50}\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
    "bidding.marriage_in_trump": [
        Case(
            "single-deck",
            "bidding:\n  marriage_in_trump: true\n",
            NO_KQ_IN_SPADES,
            300,
            ("--hand", f"0:{NO_KQ_IN_SPADES}", "-t", "S", "--tricks", "150"),
            played_keyed=("--hand", f"0:{NO_KQ_IN_SPADES}", "-t", "S"),
        ),
    ],
    "bidding.concede": [
        Case(
            "single-deck",
            "bidding:\n  concede: false\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
    "bidding.both_reach": [
        Case(
            "single-deck",
            "bidding:\n  both_reach: bidder\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
    "bidding.game": [
        Case(
            "single-deck",
            "bidding:\n  game: 1500\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
    "melds[].checks": [
        Case(
            "single-deck",
            "melds:\n  - {name: run, checks: 2}\n",
            STRONG,
            460,
            ("--meld", "320,40", "--tricks", "150"),
        ),
    ],
}
SCORING_RUNS = [(key, case) for key, cases in SCORING.items() for case in cases]

#: The keys that change no score of a played hand, and what they change instead (what
#: `bid` simulates: the deal, the meld counted, the trick points, the auction, the play).
OTHER = {
    **dict.fromkeys(("name", "title", "source", "description", "extends"), "words and files"),
    **dict.fromkeys(
        ("deck.ranks", "deck.copies", "players", "partnerships", "hand_size", "widow", "stock"),
        "the deal: the cards each simulated deal holds",
    ),
    **dict.fromkeys(
        (
            "melds[].name",
            "melds[].class",
            "melds[].trump",
            "melds[].non_trump",
            "melds[].cards",
            "melds[].around",
            "melds[].points",
            "melds[].reuse.melds",
            "melds[].reuse.from_copies",
            "melds[].reuse.beside",
        ),
        "the meld counted (rules/meld.py), which the scorer is given",
    ),
    **dict.fromkeys(
        ("tricks.counters", "tricks.last_trick"), "the trick points played out, given to it"
    ),
    **dict.fromkeys(
        (
            "bidding",
            "bidding.opening",
            "bidding.increments[].from",
            "bidding.increments[].by",
            "bidding.dealer_forced",
            "bidding.rounds",
            "bidding.system",
        ),
        "the auction: which bids there are, and what they say of a hand",
    ),
    **dict.fromkeys(
        ("play.head", "play.overtrump", "play.direction", "hands_each"), "the play of the cards"
    ),
    "house_defaults": "words: which numbers are meldcalc's own",
    "bidding.throw_in_advice": "advice `score` and the session give, no score",
    **dict.fromkeys(
        (
            "stock_play.closing",
            "stock_play.game",
            "stock_play.meld_before_draw",
            "stock_play.melds_per_trick",
            "stock_play.round_tricks",
        ),
        "the two-handed game, which has no bid: `bid` refuses it by name",
    ),
    **dict.fromkeys(
        ("passing", "passing.kind", "passing.cards", "passing.simultaneous"),
        "the cards passed before play",
    ),
}


def leaf_keys(spec: Spec, path: str = "") -> set[str]:
    """Every key path a variant file may give a value at: ``house.save_meld``,
    ``melds[].checks``; a key that takes a mapping or a word (``bidding: none``) is one
    itself."""
    if isinstance(spec, Record):
        keys: set[str] = set()
        for name, child in spec.fields.items():
            keys |= leaf_keys(child.spec, f"{path}.{name}" if path else name)
        return keys
    if isinstance(spec, OneOf):
        keys = set()
        for option in spec.options:
            keys |= leaf_keys(option, path) if isinstance(option, (Record, ListOf)) else {path}
        return keys
    if isinstance(spec, ListOf):
        inner = leaf_keys(spec.item, f"{path}[]")
        return {path} if inner == {f"{path}[]"} else inner
    if isinstance(spec, MapOf):
        return {path}
    return {path}


def test_every_key_of_the_schema_is_walked() -> None:
    schema = leaf_keys(Record(VARIANT_FIELDS))
    assert "house.save_meld" in schema and "melds[].checks" in schema  # the walk sees them
    assert set(SCORING) | set(OTHER) == schema
    assert not set(SCORING) & set(OTHER)


@dataclass
class Runs:
    folder: Path
    made: dict[str, dict] = field(default_factory=dict)

    def variant(self, case: Case, keyed: bool) -> str:
        name = f"{case.base}-{abs(hash((case, keyed)))}"
        path = self.folder / f"{name}.yaml"
        path.write_text(f"name: {name}\nextends: {case.base}\n{case.lines if keyed else ''}")
        return str(path)

    def odds(self, case: Case, keyed: bool) -> dict[int, float]:
        """`bid`'s P(make) of each level listed, for the case's trump (none listed: 0)."""
        args = ("bid", case.hand, "-V", self.variant(case, keyed), "-t", case.trump)
        result = runner.invoke(app, [*args, "--seed", "5", "-n", "300", "-f", "json"])
        assert result.exit_code == 0, result.output
        odds = json.loads(result.stdout)["results"][0]
        return {level["bid"]: level["probability"] for level in odds["make"]}

    def outcome(self, case: Case, keyed: bool) -> str:
        args = ["score", "-V", self.variant(case, keyed), "--bid", str(case.bid_level)]
        played = case.played_keyed if keyed and case.played_keyed else case.played
        result = runner.invoke(app, [*args, "--bidder", "0", *played, "-f", "json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["outcome"]


@pytest.mark.parametrize(("key", "case"), SCORING_RUNS, ids=[k for k, _ in SCORING_RUNS])
def test_bids_odds_move_as_score_says_for_each_scoring_key(key, case, tmp_path) -> None:
    runs = Runs(tmp_path)
    before, after = runs.outcome(case, keyed=False), runs.outcome(case, keyed=True)
    plain, keyed = runs.odds(case, keyed=False), runs.odds(case, keyed=True)
    if before == after:  # score scores the outcome alike: bid's odds are the same
        assert keyed == plain
        return
    assert (before, after) in (("made", "set"), ("made", "not played"), ("made", "short of meld"))
    assert keyed.get(case.bid_level, 0.0) < plain[case.bid_level]
    shared = set(plain) & set(keyed)
    assert all(keyed[level] <= plain[level] for level in shared)


def test_a_house_save_meld_of_170_sets_the_strong_hand_bid_no_longer_says_96(tmp_path) -> None:
    runs = Runs(tmp_path)
    case = SCORING["house.save_meld"][0]
    plain, keyed = runs.odds(case, keyed=False), runs.odds(case, keyed=True)
    assert plain[460] > 0.9 and keyed[460] < 0.6
