"""The learned policy: legal in every game, the same cards for the same deals, its weights
checked at load."""

from __future__ import annotations

import dataclasses
import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.dealing.deal import deal_counts
from meldcalc.engines import learned
from meldcalc.engines.learned import FEATURES, Learned, network_from, shipped
from meldcalc.engines.simulate import Game, Table
from meldcalc.errors import MeldcalcError
from meldcalc.rules.bits import MASK
from meldcalc.rules.cards import CARDS, RANKS, Rank
from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Deck

GAMES = (
    "single-deck",
    "double-deck",
    "three-handed",
    "cutthroat",
    "double-deck-three-handed",
    "double-deck-toby-thomas",
)


def house_deck(players: int, left_out: tuple[Rank, ...], copies: int) -> object:
    """The variant a house file would give: a deck without ``left_out``, 1 to 4 copies,
    dealt out whole (three hands leave a widow), as tests/test_solve_decks.py makes them."""
    base = load_variant("single-deck" if players == 4 else "three-handed")
    ranks = tuple(rank for rank in reversed(RANKS) if rank not in left_out)
    cards = 4 * len(ranks) * copies
    return dataclasses.replace(
        base,
        name=f"{players}p-house",
        deck=Deck(ranks, copies),
        hand_size=cards // players,
        widow=cards % players,
        stock=0,
        counters={rank: base.counters.get(rank, 0) for rank in ranks},
    )


def game_of(variant, count: int, seed: int, policy: type[Game]) -> Game:
    rng = np.random.default_rng(seed)
    counts = deal_counts(variant, count, rng)[:, : variant.players]
    trump = rng.integers(0, 4, count)
    return policy.from_counts(Table.of(variant, trump), counts, variant.deck.copies)


@settings(max_examples=30, deadline=None)
@given(
    game=st.one_of(
        st.sampled_from(GAMES).map(load_variant),
        st.builds(
            house_deck,
            st.sampled_from([3, 4]),
            st.sets(st.sampled_from(RANKS), max_size=3).map(tuple),
            st.integers(1, 4),
        ),
    ),
    seed=st.integers(0, 10_000),
)
def test_the_learned_policy_only_ever_plays_a_legal_card(game, seed) -> None:
    """In every seed game and on every deck shape a house file may give."""
    played = game_of(game, 40, seed, Learned)
    in_play = counters(game) @ played.held().sum(axis=1).T + game.last_trick  # (deals,)
    while not played.over:
        legal, bits = played.legal(), played.policy_cards()
        assert ((legal >> bits) & 1).all()
        played.advance(bits)
    assert (played.team_points.sum(axis=1) == in_play).all()  # every card played, once


def counters(variant) -> np.ndarray:
    return np.array([variant.counters.get(card.rank, 0) for card in CARDS])


def test_the_same_deals_give_the_same_cards_and_differ_from_the_rules() -> None:
    variant = load_variant("single-deck")
    first, again = (game_of(variant, 300, 5, Learned) for _ in range(2))
    first.record(), again.record()
    rules = game_of(variant, 300, 5, Game)
    rules.record()
    cards = [game.play(record=True).cards for game in (first, again, rules)]
    assert np.array_equal(cards[0], cards[1])
    assert not np.array_equal(cards[0], cards[2])  # it is not the rules under another name


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    tricks=st.integers(0, 8),
    cards=st.integers(0, 3),
)
def test_scores_worked_out_apart_are_the_scores_of_the_whole_features(
    name, seed, tricks, cards
) -> None:
    """The fast path of play (a decision's part of the first layer once a decision) against
    the plain one (every card's whole row of features), at any point of any seed game."""
    variant = load_variant(name)
    game = game_of(variant, 60, seed, Game)
    for _ in range(min(tricks * variant.players + cards, game.cards_left - 1)):
        game.advance(game.policy_cards())
    rules, legal = game.policy_cards(), game.legal()
    rows = np.flatnonzero(np.bitwise_count(legal) > 1)
    group, bit, x = learned.features(game, game.seat, legal, rules, rows)
    group_, bit_, cards_, decisions = learned._described(game, game.seat, legal, rules, rows)
    assert np.array_equal(group, group_) and np.array_equal(bit, bit_)
    # the shipped weights, reading the features they were fitted to, and the same network
    # reading every feature, those it did not read weighing nothing: the same scores
    for network in (shipped("policy.json"), shipped("policy.json").widened()):
        apart = network.scores_apart(cards_, decisions, group)
        np.testing.assert_allclose(apart, shipped("policy.json").scores(x), rtol=1e-4, atol=1e-4)
    # as play works them out: the features the shipped weights read, and no more
    guards = shipped("policy.json").reads_guards
    *_, cards_read, decisions_read = learned._described(game, game.seat, legal, rules, rows, guards)
    reads = shipped("policy.json").columns
    assert cards_read.shape[1] == max(column for column in reads if column < learned.SHARED) + 1
    apart = shipped("policy.json").scores_apart(cards_read, decisions_read, group)
    np.testing.assert_allclose(apart, shipped("policy.json").scores(x), rtol=1e-4, atol=1e-4)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10_000), tricks=st.integers(0, 8))
def test_settled_scores_are_the_fast_scores_summed_in_a_fixed_order(name, seed, tricks) -> None:
    """The near ties' path (`Network.settled_scores`: float64 by numpy's own loops, no
    BLAS) scores what the fast path scores, to float32's precision."""
    variant = load_variant(name)
    game = game_of(variant, 40, seed, Game)
    for _ in range(min(tricks * variant.players, game.cards_left - 1)):
        game.advance(game.policy_cards())
    rules, legal = game.policy_cards(), game.legal()
    rows = np.flatnonzero(np.bitwise_count(legal) > 1)
    network = shipped("policy.json")
    group, _, cards, decisions = learned._described(
        game, game.seat, legal, rules, rows, network.reads_guards
    )
    fast = network.scores_apart(cards, decisions, group)
    settled = network.settled_scores(cards, decisions[group])
    np.testing.assert_allclose(settled, fast, rtol=1e-5, atol=1e-3)


def test_a_near_tie_is_ordered_by_the_settled_scores_and_an_exact_tie_by_the_lowest_card() -> None:
    """Fast scores within a hair of each other do not decide a card: a machine whose BLAS
    sums in another order could read them the other way round. The settled scores do."""

    class Settled:
        def settled_scores(self, cards, decisions):
            return cards[:, 0].astype(np.float64)

    group = np.array([0, 0, 1, 1, 2, 2])
    bit = np.array([3, 7, 3, 7, 3, 7])
    fast = np.array([50.0, 50.00001, 50.0, 50.00001, 10.0, 50.0], dtype=np.float32)
    settled = np.array([[2.0], [1.0], [4.0], [4.0], [9.0], [0.0]], dtype=np.float32)
    chosen = learned.best_cards(Settled(), group, bit, settled, settled, fast)
    # decision 0: the settled sum prefers bit 3; decision 1: settled equal, the lowest card
    # (the highest bit); decision 2: far apart, the fast scores decide (bit 7)
    assert chosen.tolist() == [3, 7, 7]


def test_the_shipped_weights_are_checked_and_a_damaged_file_is_one_clear_error() -> None:
    network = shipped("policy.json")
    assert network.w1.shape[0] == len(network.columns) <= len(FEATURES)
    good = json.loads(json.dumps(network.json()))
    assert network_from(good, "w").scores(np.zeros((1, len(FEATURES)))).shape == (1,)
    damaged = [
        ({**good, "format": 0}, "weights of format 0"),
        (
            {**good, "features": good["features"][:-1]},
            f"a row for each of the {len(good['features']) - 1} features",
        ),
        ({**good, "features": [*good["features"][:-1], "luck"]}, "does not know: 'luck'"),
        ({**good, "features": [*good["features"][:-1], ["ace"]]}, "features holds a JSON array"),
        ({**good, "features": [*good["features"][:-1], 7]}, "a JSON number where a feature's"),
        ({**good, "features": ["ace", *good["features"][:-1]]}, "a feature named twice"),
        ({**good, "features": "ace"}, "features should be a list"),
        ({**good, "features": []}, "features should be a list"),
        ({k: v for k, v in good.items() if k != "features"}, "features should be a list"),
        ({**good, "w1": good["w1"][:-1]}, "w1 has shape"),
        ({**good, "b2": float("nan")}, "not finite"),
        ({**good, "scale": [0.0] * len(good["scale"])}, "a feature scale below 1e-06"),
        ({**good, "scale": [1e-300] * len(good["scale"])}, "a feature scale below 1e-06"),
        ({**good, "w2": [1e39] * len(good["w2"])}, r"w2 holds a number beyond ±1e\+06"),
        ({**good, "format": True}, "weights of format True"),
        ({k: v for k, v in good.items() if k != "w2"}, "no w2"),
        ([], "a JSON array where an object of weights belongs"),
        (None, "a JSON null where an object of weights belongs"),
        ({**good, "b2": 10**400}, "b2 holds a number too large for any float"),
        ({**good, "w1": [[] for _ in good["w1"]], "b1": [], "w2": []}, "w1 has shape"),
        ({**good, "b1": 0.5}, "b1 has shape"),
        ({**good, "b1": good["b1"][:-1]}, r"b1 has shape \(63,\), expected \(64,\)"),
        ({**good, "w2": good["w2"][:-1]}, r"w2 has shape \(63,\), expected \(64,\)"),
        # what numpy would take for numbers
        ({**good, "b2": "0.0"}, "b2 holds a JSON string where a number belongs"),
        ({**good, "b2": True}, "b2 holds a JSON true or false where a number belongs"),
        ({**good, "b1": [True] * len(good["b1"])}, "b1 holds a JSON true or false"),
        ({**good, "w1": [[str(v) for v in row] for row in good["w1"]]}, "w1 holds a JSON string"),
        ({**good, "mean": [None] * len(good["mean"])}, "mean holds a JSON null"),
        ({**good, "w1": [good["w1"][0][:-1], *good["w1"][1:]]}, "w1 has rows of different"),
        ({**good, "w1": [good["w1"][0][0], *good["w1"][1:]]}, "w1 has rows of different"),
        ({**good, "w2": [[[1.0]]]}, "w2 is nested deeper than rows of numbers"),
    ]
    for data, said in damaged:
        with pytest.raises(MeldcalcError, match=said):
            network_from(data, "policy.json")


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda path: path.write_text("{not json"), "unreadable, the learned policy.s weights"),
        (lambda path: path.write_text("[" * 200_000 + "]" * 200_000), "nested too deep"),
        (lambda path: path.symlink_to("/dev/zero"), "not a regular file"),
        (lambda path: os.mkfifo(path), "not a regular file"),
        (lambda path: path.write_bytes(b" " * (learned.MAX_BYTES + 1)), "larger than 1 MB"),
        (lambda path: None, "No such file|unreadable, the learned policy.s weights"),
    ],
    ids=["not json", "nested", "dev zero", "fifo", "too big", "missing"],
)
def test_an_unreadable_weights_file_is_an_error_not_the_rules(
    monkeypatch, tmp_path, make, said
) -> None:
    """One line naming the way out, never a hang, a traceback or memory run out."""
    make(tmp_path / "policy.json")
    monkeypatch.setattr(learned.resources, "files", lambda _: tmp_path)
    learned.shipped.cache_clear()
    try:
        with pytest.raises(MeldcalcError, match=said) as raised:
            shipped("policy.json")
        assert str(raised.value).endswith("or play the rules alone with --policy rules")
    finally:
        learned.shipped.cache_clear()


@pytest.mark.parametrize(
    ("name", "network"),
    [
        ("single-deck", "policy-single-deck.json"),
        ("double-deck", "policy.json"),
        ("three-handed", "policy.json"),
        ("cutthroat", "policy.json"),
        ("double-deck-toby-thomas", "policy.json"),
        ("two-handed", "policy.json"),
    ],
)
def test_single_deck_plays_its_own_network_and_every_other_game_the_shared_one(
    name: str, network: str
) -> None:
    variant = load_variant(name)
    game = game_of(variant, 2, 0, Learned)
    assert learned.network_of(game) is shipped(network)
    assert learned.network_file(variant.deck.copies, variant.players, variant.paired) == network
    own, shared = shipped("policy-single-deck.json"), shipped("policy.json")
    assert own.json() != shared.json()  # two networks


def test_a_house_single_deck_plays_single_deck_s_network() -> None:
    """The table, not the file's name, picks the network: four partners, two copies."""
    no_nines, three_copies = house_deck(4, (Rank.NINE,), 2), house_deck(4, (), 3)
    own = shipped("policy-single-deck.json")
    assert learned.network_of(game_of(no_nines, 2, 0, Learned)) is own
    assert learned.network_of(game_of(three_copies, 2, 0, Learned)) is shipped("policy.json")


def test_damaged_single_deck_weights_stop_a_single_deck_bid_with_the_way_out(
    monkeypatch, tmp_path
) -> None:
    """Every shipped network is checked before any play: single deck's own file damaged is
    one line naming it and --policy rules, never the shared network in its place."""
    from importlib import resources

    from typer.testing import CliRunner

    from meldcalc.advice.tableplay import FITS
    from meldcalc.cli import app

    (tmp_path / "policy.json").write_text(learned._shipped_path("policy.json").read_text())
    (tmp_path / FITS).write_text(resources.files("meldcalc.advice").joinpath(FITS).read_text())
    (tmp_path / "policy-single-deck.json").write_text('{"format": 1}')
    monkeypatch.setattr(learned.resources, "files", lambda _: tmp_path)
    learned.shipped.cache_clear()
    try:
        shown = CliRunner().invoke(app, ["bid", STRONG, "-n", "100"])
        assert shown.exit_code == 2
        assert "policy-single-deck.json" in shown.output and "--policy rules" in shown.output
        assert "Traceback" not in shown.output
    finally:
        learned.shipped.cache_clear()


STRONG = "AS 10S KS QS JS JD 9S AH AD AC KH QH"


def test_bid_and_play_take_the_policy_and_the_same_seed_gives_the_same_numbers() -> None:
    from typer.testing import CliRunner

    from meldcalc.cli import app

    def bid(*extra: str) -> dict:
        shown = CliRunner().invoke(app, ["bid", STRONG, "--seed", "4", "-n", "600", "-f",
                                         "json", *extra])  # fmt: skip
        assert shown.exit_code == 0, shown.output
        return json.loads(shown.stdout)

    learned, default = bid("--policy", "learned"), bid()
    assert learned == default and default["policy"] == "learned"  # the default
    assert bid("-j", "2") == default  # the same numbers whatever the processes
    rules = bid("--policy", "rules")  # still there, for comparison
    assert rules["policy"] == "rules" and rules["results"] != learned["results"]
    played = CliRunner().invoke(app, ["play", STRONG, "-t", "S", "--seed", "3", "--policy",
                                      "learned", "-f", "json"])  # fmt: skip
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["policy"] == "learned"
    unknown = CliRunner().invoke(app, ["bid", STRONG, "--policy", "clever"])
    assert unknown.exit_code == 2 and "clever" in unknown.output


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, (1 << 24) - 1), min_size=0, max_size=40))
def test_the_cards_of_masks_are_their_bits_in_order(masks) -> None:
    """The fast path (the lowest bit taken off every mask at once) against the plain one
    (every bit of every mask tested)."""
    masks = np.array(masks, dtype=np.int32)
    plain = np.nonzero((masks[:, None] >> np.arange(24)) & 1)
    fast = learned._cards_of(masks)
    assert np.array_equal(fast[0], plain[0]) and np.array_equal(fast[1], plain[1])


@settings(max_examples=200, deadline=None)
@given(held=st.integers(0, (1 << 24) - 1), unseen=st.integers(0, (1 << 24) - 1))
def test_the_guards_of_each_card_by_a_plain_count(held, unseen) -> None:
    """The fast path (the ranks above every card at once) against a plain count, card by
    card: the cards above it in its suit the seat holds that an unseen card may beat, and
    whether playing it leaves one of them fewer cards below than unseen cards above."""
    bits = np.array([b for b in range(24) if held >> b & 1], dtype=np.int64)
    has = lambda mask, rank, suit: mask >> (rank * 4 + suit) & 1  # noqa: E731
    masks = np.full(len(bits), held, dtype=MASK), np.full(len(bits), unseen, dtype=MASK)
    at_risk, unguards = learned._guards(bits, learned.ONE << bits, *masks)
    for at, bit in enumerate(bits.tolist()):
        rank, suit = divmod(bit, 4)  # rank 0 the ace: the lower the rank, the higher the card
        risky = [
            above
            for above in range(rank)
            if has(held, above, suit) and any(has(unseen, r, suit) for r in range(above))
        ]
        short = [
            sum(has(held, r, suit) for r in range(above + 1, 6) if r != rank)
            < sum(has(unseen, r, suit) for r in range(above))
            for above in risky
        ]
        assert at_risk[at] == len(risky)
        assert unguards[at] == any(short)


@settings(max_examples=60, deadline=None)
@given(
    masks=st.lists(st.integers(0, (1 << 24) - 1), min_size=1, max_size=40),
    worth=st.lists(st.integers(0, 11), min_size=6, max_size=6),
)
def test_the_points_of_each_suit_by_table_are_the_sum_over_the_counters(masks, worth) -> None:
    """The fast path (two looked-up halves of the mask) against the plain one (every
    counter's bit tested), for any points a house file gives its ranks."""
    points = np.repeat(worth, 4)  # rank-major bits: each rank's four suits
    masks = np.array(masks, dtype=np.uint32)
    held = (masks[:, None] >> np.arange(24)) & 1
    plain = np.stack([(held * points)[:, suit::4].sum(axis=1) for suit in range(4)], axis=1)
    low, high = learned._points_by_suit(tuple(points))
    fast = low[masks & learned.LOW_HALF] + high[masks >> learned.HALF]
    assert np.array_equal(fast, plain)


@pytest.mark.parametrize("name", GAMES)
def test_a_position_kept_for_training_gives_the_features_of_play(name) -> None:
    """bench/train_policy.py keeps decisions as positions and works out their features
    later: set up again, a position is described as it was in play."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from positions import games, positions

    variant = load_variant(name)
    game = game_of(variant, 30, 11, Game)
    kept, live = [], []
    while not game.over:
        rules, legal = game.policy_cards(), game.legal()
        rows = np.flatnonzero(np.bitwise_count(legal) > 1)
        if len(rows):
            kept.append(positions(game, rows))
            live.append(learned.features(game, game.seat, legal, rules, rows)[2])
        game.advance(rules)
    data = {field: np.concatenate([one[field] for one in kept]) for field in kept[0]}
    batches = list(games(variant, data))  # one a point of play, in the order played
    assert len(batches) == len(live)
    for (_, rebuilt), described in zip(batches, live):
        rules, legal = rebuilt.policy_cards(), rebuilt.legal()
        x = learned.features(rebuilt, rebuilt.seat, legal, rules, np.arange(rebuilt.n))[2]
        assert np.array_equal(x, described)


def test_a_game_takes_the_policy_so_its_way_out_of_damaged_weights_can_be_followed(
    monkeypatch, tmp_path
) -> None:
    """The error names --policy rules as the way out: `game` must take it too, its odds and
    hints then played by the rules."""
    from typer.testing import CliRunner

    from meldcalc.cli import app

    (tmp_path / "policy.json").write_text('{"format": 1}')
    monkeypatch.setattr(learned.resources, "files", lambda _: tmp_path)
    monkeypatch.chdir(tmp_path)
    learned.shipped.cache_clear()
    steps = f"hand {STRONG}\n"
    try:
        refused = CliRunner().invoke(
            app, ["game", "a.jsonl", "--seat", "0"], input=steps + "show\n"
        )
        assert refused.exit_code == 2 and "--policy rules" in refused.output
        # the hand was taken and kept before its odds were worked out: only they are lost
        assert "phase: auction" in refused.output
        assert f'{{"step": "hand {STRONG}"}}' in (tmp_path / "a.jsonl.hand").read_text()
        ruled = CliRunner().invoke(
            app, ["game", "b.jsonl", "--seat", "0", "--seed", "1", "--policy", "rules"],
            input=steps,
        )  # fmt: skip
        assert ruled.exit_code == 0, ruled.output
        assert "Bid up to 490 with ♠ (S) as trump" in ruled.output
    finally:
        learned.shipped.cache_clear()


def test_the_same_seed_gives_the_same_odds_whatever_threads_numpy_is_given(tmp_path) -> None:
    """numpy's maths library splits the network's blocks between its threads and sums the
    rows at a split in another order: a machine's core count must not move the odds."""
    import subprocess
    import sys

    hand = "AS 10S KS QS JS JS KH QH QH QH JH AD AD AD QD QD JD JD KC JC"
    shown = []
    for threads in ("1", "2"):
        env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads}
        done = subprocess.run(
            [sys.executable, "-m", "meldcalc", "bid", hand, "-V", "double-deck", "--seed", "1",
             "-f", "json"],
            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        shown.append(json.loads(done.stdout))
    assert shown[0] == shown[1]
