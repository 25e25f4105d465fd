"""What a score rests on, over random hands, bids and trick splits (hypothesis): scoring
agrees with a plain re-statement of the rules in every shipped variant and example house
file, a game reads back as it was written, --undo restores it, and a meld total does not
depend on the order of the cards or of the file's melds."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.rules.cards import SUITS, Hand
from meldcalc.rules.loading import example_names, load_variant, shipped_names, variant_from_data
from meldcalc.rules.meld import best_meld
from meldcalc.rules.scoring import HandPlay, counter_cards, score_hand, side_count, side_of

RULES = {
    name: variant
    for name in [*shipped_names(), *example_names()]
    if (variant := load_variant(name)).bidding is not None
}
runner = CliRunner()


def plainly(rules, bid, bidder, meld, tricks, counters) -> list[int]:
    """Each side's points, as a player reads the rules: a side's meld counts if it reaches
    the minimum and the side saves it by its tricks (a counter, or N trick points); a side
    under the trick minimum scores nothing; the bidding side makes the bid when its counted
    meld and tricks reach it (and the trick minimum), and is set by the bid (times the
    penalty) when they do not; every other side adds its meld and tricks. A hand not played
    (``tricks`` None: the bidding side melded under the minimum where that forfeits the
    bid) costs the bidding side its bid, the others scoring their meld from the minimum."""
    save, house = rules.house.save_meld, rules.house
    bidding, lost = side_of(rules, bidder), -bid * rules.house.set_penalty
    if tricks is None:
        least = max(house.thrown_in.meld_minimum, rules.meld_minimum)
        kept = [
            (m if house.thrown_in.meld and m >= least else 0) + house.thrown_in.cards for m in meld
        ]
        return [lost if side == bidding else kept[side] for side in range(len(meld))]
    points = []
    for side, (m, t) in enumerate(zip(meld, tricks)):
        counts = m >= rules.meld_minimum
        if save == "counter":
            counts = counts and counters[side] > 0
        elif isinstance(save, int):
            counts = counts and t >= save
        points.append(0 if t < house.trick_minimum else (m if counts else 0) + t)
    if points[bidding] < bid or tricks[bidding] < house.trick_minimum:
        points[bidding] = lost
    return points


@st.composite
def hands_played(draw):
    """A variant and a played hand of it: a legal bid, a bidder, each side's meld (in the
    variant's step) and a split of the trick points (in its step); for a counter rule the
    counters each side took, agreeing with its points."""
    name = draw(st.sampled_from(sorted(RULES)))
    rules = RULES[name]
    if rules.house.save_meld == "trick":  # needs the tricks taken: scored by its own tests
        rules = RULES["single-deck"]
    sides = side_count(rules)
    bid = draw(st.sampled_from(rules.bidding.levels(rules.bidding.opening + 400)))
    bidder = draw(st.integers(0, rules.players - 1))
    meld = tuple(draw(st.integers(0, 60)) * rules.meld_step for _ in range(sides))
    step, total = rules.trick_step, rules.trick_total
    cuts = sorted(draw(st.integers(0, total // step)) * step for _ in range(sides - 1))
    tricks = tuple(b - a for a, b in zip([0, *cuts], [*cuts, total]))
    counters = None
    if rules.house.save_meld == "counter":
        every = counter_cards(rules)
        counters = [0 if t in (0, rules.last_trick) and draw(st.booleans()) else 1 for t in tricks]
        counters = [0 if t == 0 else c for c, t in zip(counters, tricks)]
        if sum(counters) == 0:
            counters[tricks.index(max(tricks))] = 1
        counters[counters.index(max(counters))] += every - sum(counters)
        counters = tuple(counters)
    if rules.house.forfeit_under_minimum and meld[side_of(rules, bidder)] < rules.meld_minimum:
        tricks, counters = None, None  # the bid is lost on the meld: no play
    return name, rules, bid, bidder, meld, tricks, counters


@settings(max_examples=400, deadline=None)
@given(hands_played())
def test_scoring_agrees_with_a_plain_statement_of_the_rules(hand) -> None:
    name, rules, bid, bidder, meld, tricks, counters = hand
    play = HandPlay(bid, bidder, meld, tricks, counters_taken=counters)
    assert list(score_hand(rules, play).points) == plainly(
        rules, bid, bidder, meld, tricks, counters
    ), name


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 30), st.integers(0, 42)), max_size=6))
def test_a_game_reads_back_as_it_was_written_and_undo_restores_it(tmp_path, hands) -> None:
    game = str(Path(tempfile.mkdtemp(dir=tmp_path)) / "g.jsonl")  # a new game each example
    written = []
    for bidder, meld, cut in hands:
        args = ["score", "-g", game, "--to", "100000", "--bid", "250", "--bidder", str(bidder)]
        args += ["-f", "json"]
        args += [
            "--meld",
            f"{meld * 10},{(30 - meld) * 10}",
            "--tricks",
            f"{cut * 5},{210 - cut * 5}",
        ]
        shown = json.loads(runner.invoke(app, args).stdout)
        written.append([side["points"] for side in shown["sides"]])
        before = runner.invoke(app, ["score", "-g", game, "--show", "-f", "json"]).stdout
        again = runner.invoke(app, args)  # the same hand once more, then taken back
        assert again.exit_code == 0
        assert runner.invoke(app, ["score", "-g", game, "--undo", "-f", "json"]).exit_code == 0
        after = runner.invoke(app, ["score", "-g", game, "--show", "-f", "json"]).stdout
        assert after == before
    if written:
        read = json.loads(runner.invoke(app, ["score", "-g", game, "--show", "-f", "json"]).stdout)
        assert [hand["points"] for hand in read["hands"]] == written
        assert read["totals"] == [sum(column) for column in zip(*written)]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(sorted(RULES)),
    st.randoms(use_true_random=False),
    st.sampled_from(SUITS),
)
def test_a_meld_total_does_not_depend_on_the_order_of_the_files_melds(name, rnd, trump) -> None:
    rules = RULES[name]
    data = json.loads(json.dumps(rules.data))
    rnd.shuffle(data["melds"])
    reordered = variant_from_data(data, "reordered.yaml")
    deck = rules.deck.cards()
    cards = rnd.sample(deck, rules.hand_size)
    hand = Hand.from_cards(cards)
    assert best_meld(hand, reordered, trump).total == best_meld(hand, rules, trump).total
    rnd.shuffle(cards)
    assert (
        best_meld(Hand.from_cards(cards), rules, trump).total == best_meld(hand, rules, trump).total
    )
