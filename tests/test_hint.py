"""`meldcalc hint`: the seat's view during play, checked against the rules and the solver."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from meldcalc.advice import hint as hint_module
from meldcalc.advice.hint import hint
from meldcalc.advice.history import hint_table, parse_query
from meldcalc.advice.replay import replay
from meldcalc.advice.review import deal_left
from meldcalc.cli import app
from meldcalc.cli import hint as hint_cli
from meldcalc.engines.policies import DEFAULT, policy_class
from meldcalc.engines.reference import EXACT_FROM, Reference
from meldcalc.engines.simulate import BIT_OF, CARD_OF, Game, Table
from meldcalc.engines.solve import Position, seat_sides, solve, solver_available
from meldcalc.rules.cards import CARD_NAMES, CARDS, Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards

runner = CliRunner()
SINGLE = load_variant("single-deck")
HAND = "AS 10S KS QS JS JD 9S AH AD AC KH QH"
needs_solver = pytest.mark.skipif(not solver_available(), reason="the solver is not built")


def run(*args: str, input: str | None = None):
    return runner.invoke(app, ["hint", *args], input=input)


def policy_deal(seed: int, variant=SINGLE, trump: Suit = Suit.SPADES):
    """A seeded deal played to the end by the policy: the hands as dealt ((players, 24)
    counts), the cards in the order played and the seat of each."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(24), variant.deck.copies)
    deck = deck[[variant.deck.copies_of(CARDS[card]) > 0 for card in deck]]
    rng.shuffle(deck)
    counts = np.zeros((1, variant.players, 24), dtype=np.int64)
    size = variant.hand_size
    for seat in range(variant.players):
        np.add.at(counts[0, seat], deck[seat * size : (seat + 1) * size], 1)
    game = Game.from_counts(Table.of(variant, trump), counts, variant.deck.copies)
    out = game.play(record=True)
    return counts[0], [int(card) for card in out.cards[0]], [int(seat) for seat in out.seats[0]]


def query_at(counts, cards, seats, played: int, known: bool = False, trump: str = "S") -> str:
    """The position line of the seat to play after ``played`` cards (every other seat's
    dealt hand told as known, with ``known``)."""
    seat = seats[played]
    line = f"{Hand(counts[seat]).notation()} | trump {trump}"
    line += " | played " + " ".join(CARD_NAMES[card] for card in cards[:played])
    if known:
        for other in range(len(counts)):
            if other != seat:
                line += f" | known {other}:{Hand(counts[other]).notation()}"
    return line


# --- values -------------------------------------------------------------------------------


@needs_solver
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("played", [24, 29, 35, 42])
def test_with_every_card_known_the_hint_is_the_exact_solvers_card_values(
    seed: int, played: int
) -> None:
    counts, cards, seats = policy_deal(seed)
    found = hint(parse_query(query_at(counts, cards, seats, played, known=True), SINGLE), SINGLE, 3)
    assert found.exact and found.seat == seats[played]
    hands = [Hand(counts[seat]) for seat in range(4)]
    deal = replay(hands, SINGLE, Suit.SPADES, 0, [CARD_NAMES[card] for card in cards[:played]])
    last = deal.tricks[-1]
    leader, trick = (
        (last.leader, [c for _, c in last.cards]) if last.winner < 0 else (last.winner, [])
    )
    left = [Hand(held) for held in deal_left(deal, SINGLE)]
    solution = solve(Position.of(SINGLE, left, Suit.SPADES, leader, trick), SINGLE, line=False)
    ours = seat_sides(SINGLE)[found.seat] == 0
    expected = {
        CARD_NAMES[card]: value if ours else found.points_left - value
        for card, value in solution.cards.items()
    }
    assert {card.card: card.points for card in found.cards} == expected
    assert all(card.se == 0 for card in found.cards)
    assert found.points_left == Position(
        tuple(left), Suit.SPADES, leader, tuple(CARD_NAMES.index(c) for c in trick)
    ).points_left(SINGLE)


#: Other trick rules: heading only when trump is led and no over-trumping; double deck;
#: three seats, one against two.
VARIANTS = ["single-deck", "examples/house-easy-play", "double-deck", "cutthroat"]


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_the_cards_offered_are_exactly_the_legal_cards_best_first(name: str, seed: int) -> None:
    variant = load_variant(name)
    counts, cards, seats = policy_deal(100 + seed, variant)
    rng = np.random.default_rng(seed)
    for played in sorted(rng.choice(len(cards) - 1, 3, replace=False)):
        query = parse_query(query_at(counts, cards, seats, int(played)), variant)
        found = hint(query, variant, 4)
        trick = [CARD_NAMES.index(card) for _, card in found.on_table]
        rules = (variant.head, variant.overtrump)
        legal = legal_cards(found.held.counts, trick, Suit.SPADES, *rules)
        assert sorted(CARD_NAMES.index(card.card) for card in found.cards) == sorted(legal)
        points = [card.points for card in found.cards]
        assert points == sorted(points, reverse=True)
        assert found.cards[0].behind == 0 and all(card.behind >= 0 for card in found.cards)
        assert all(0 <= card.points <= found.points_left for card in found.cards)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_what_the_history_shows_is_what_the_simulation_infers(name: str, seed: int) -> None:
    """The checks' own reading of the play (voids, no higher card) is the Game's."""
    variant = load_variant(name)
    counts, cards, seats = policy_deal(200 + seed, variant)
    for played in (len(cards) // 4, len(cards) // 2, len(cards) - 5):
        query = parse_query(query_at(counts, cards, seats, played), variant)
        table, history, _ = hint_table(query, variant)
        game = Game.from_counts(Table.of(variant, Suit.SPADES), counts[None], variant.deck.copies)
        for card in history:
            game.advance(np.array([BIT_OF[card]], dtype=np.int32))
        for other in table.others:
            lacks = game.lacks[other]
            inferred = {card for card in range(24) if lacks >> BIT_OF[card] & 1}
            assert set(table.lacks[other]) == inferred, (name, seed, played, other)


@pytest.mark.parametrize("infer", [True, False], ids=["weighed", "uniform"])
@pytest.mark.parametrize("seed", range(4))
def test_the_best_card_is_the_card_the_reference_player_plays(seed: int, infer: bool) -> None:
    counts, cards, seats = policy_deal(300 + seed)
    for played in (0, 9, 22, 27, 33):
        query = parse_query(query_at(counts, cards, seats, played), SINGLE)
        found = hint(query, SINGLE, 16, seed, infer=infer)
        assert (found.inference is not None) == (infer and played > 0), (seed, played)
        table, history, _ = hint_table(query, SINGLE)
        game = hint_module.replayed_game(table, history, query)
        # hint's play-outs, and its reading of the plays
        player = Reference(SINGLE, 16, EXACT_FROM, seed, policy_class(DEFAULT), infer=infer)
        [bit] = player.choose(game, np.array([0]))
        assert found.best.card == CARD_NAMES[CARD_OF[bit]], (seed, played)


def test_a_known_meld_and_the_voids_shape_every_layout() -> None:
    """Seat 2 melded a pinochle; seat 3 showed out of clubs: the hint says so."""
    line = f"{HAND} | trump S | leader 1 | played 10C JC 9D | known 2:JD QS"
    result = run(line, "-n", "20", "-f", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["seat"] == 0 and record["on_table"] == [
        {"seat": 1, "card": "10C"},
        {"seat": 2, "card": "JC"},
        {"seat": 3, "card": "9D"},
    ]
    assert record["shown"] == [{"seat": 2, "cards": ["QS", "JD"]}]
    lacks = {entry["seat"]: entry["cards"] for entry in record["lacks"]}
    assert {"AC", "10C", "KC", "QC", "JC", "9C", "AS", "9S"} <= set(lacks[3])
    assert set(lacks[2]) == {"AC"}  # it did not beat 10C: no ace of clubs
    assert "AC" in [card["card"] for card in record["cards"]]


def test_a_position_prints_as_it_parses() -> None:
    line = f"{HAND} | trump H | leader 2 | played 9C AC | seat 0 | known 1:KC QC | known 3:JD"
    query = parse_query(line, SINGLE)
    assert parse_query(query.text(), SINGLE) == query
    assert query.played == ("9C", "AC") and query.known == ("1:KC QC", "3:JD")
    plain = parse_query(HAND, SINGLE, Suit.SPADES)
    assert parse_query(plain.text(), SINGLE) == plain


# --- the seat, the turn, reproducibility, output ------------------------------------------


def test_the_seat_defaults_to_the_seat_to_play_and_another_is_refused() -> None:
    shown = run(HAND, "-t", "S", "--played", "9C AC JC", "-n", "10", "-f", "json")
    assert json.loads(shown.stdout)["seat"] == 3
    refused = run(HAND, "-t", "S", "--played", "9C AC JC", "--seat", "1")
    assert refused.exit_code == 2
    assert refused.stderr == "meldcalc: error: it is seat 3's turn, not seat 1's\n"
    assert refused.stdout == ""


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    args = (HAND, "-t", "S", "--played", "KD", "-n", "50", "-f", "json")
    first, again = run(*args, "--seed", "3"), run(*args, "--seed", "3")
    other = run(*args, "--seed", "4")
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert json.loads(first.stdout)["cards"] != json.loads(other.stdout)["cards"]


def test_the_json_record_has_the_documented_fields() -> None:
    result = run(HAND, "-t", "S", "--played", "AC 9C KC", "-n", "30", "-f", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert list(record) == [
        "variant", "trump", "seat", "hand", "trick", "on_table", "tricks_left",
        "points_left", "shown", "lacks", "layouts", "seed", "policy", "auction", "inference",
        "method", "exact_from", "not_exact", "buried", "widow", "best", "cards",
    ]  # fmt: skip
    assert record["not_exact"] is None  # the solver is built
    assert record["seat"] == 3 and record["trick"] == 1 and record["layouts"] == 30
    assert record["method"] == "roll-out" and record["tricks_left"] == 12
    assert record["policy"] == "learned"  # the layouts played out by the default policy
    # three cards of the others read: 120 candidates weighed, as many effective as kept
    assert record["auction"] == [] and record["inference"]["method"] == "policy"
    assert record["inference"]["candidates"] == 120
    assert 30 * 0.25 <= record["inference"]["effective"] <= 120
    assert set(record["cards"][0]) == {"card", "points", "se", "behind", "behind_se"}
    assert record["best"] == record["cards"][0]["card"]
    assert [card["card"] for card in record["cards"]] and all(
        card["card"].endswith("C") for card in record["cards"]
    )


def test_the_auction_told_is_read_said_and_kept_in_the_json() -> None:
    auction = "1:250 2:pass 3:pass 0:260 1:pass"
    args = (HAND, "-t", "S", "--played", "AC 9C KC", "-n", "30", "--auction", auction)
    record = json.loads(run(*args, "-f", "json").stdout)
    assert record["auction"][:2] == [{"seat": 1, "bid": 250}, {"seat": 2, "bid": None}]
    shown = run(*args).stdout
    assert f"the auction went {auction}" in shown and "others' plays and bids" in shown
    bad = run(*args[:-1], "1:250 0:260")
    assert bad.exit_code == 2 and "seat 2 speaks there, not seat 0" in bad.output
    uniform = json.loads(run(*args, "--uniform", "-f", "json").stdout)["inference"]
    assert uniform["method"] == "uniform" and uniform["moved"] == []
    assert "uniformly (--uniform: the bids not read)" in run(*args, "--uniform").stdout
    stock = run("AS 10S KS QS JS AD 9D 9D 9C JC KC", "-V", "two-handed", "--turn-up", "AS",
                "--auction", "1:250")  # fmt: skip
    assert stock.exit_code != 0 and "--auction is not for a game with a stock" in stock.output


def test_a_card_the_deck_lacks_is_said_so_and_a_seat_is_a_number() -> None:
    double = "AS AS KS QS JS AH KH QH QH 10D 10D KD KD KD QD AC 10C QC JC JC"
    result = run(double, "-V", "double-deck", "-t", "S", "--played", "AH 9H")
    assert "seat 1 plays 9H, which the double-deck deck does not have" in result.output
    assert "seat 'x': expected a seat from 0 to 3" in run(HAND, "-t", "S", "--seat", "x").output


def test_the_table_names_the_card_to_play_and_how_it_was_valued() -> None:
    result = run(HAND, "-t", "S", "--played", "KD", "-n", "40")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "trump S ♠, single-deck: seat 1 to play to trick 1, after 0:KD"
    assert lines[3].startswith("Play AD: seats 1 and 3 take ")
    assert lines[-1].startswith("40 layouts of the unseen cards that fit what seat 1 has seen")


@needs_solver
def test_near_the_end_the_method_is_exact() -> None:
    counts, cards, seats = policy_deal(7)
    result = run(query_at(counts, cards, seats, 40), "-n", "20", "-f", "json")
    record = json.loads(result.stdout)
    assert record["method"] == "exact" and record["tricks_left"] == 2


def test_a_batch_answers_each_line_and_goes_on_past_a_bad_one() -> None:
    lines = f"{HAND} | trump S | played KD\n{HAND} | trump S | played KD XD\n{HAND} | trump S\n"
    result = run("-", "-n", "10", "-f", "jsonl", input=lines)
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["position"] for record in records] == [1, 2, 3]
    assert "error" in records[1] and "cards" in records[0] and "cards" in records[2]
    assert result.stderr.startswith("meldcalc: error: line 2: trick 1: 'XD'")


def test_a_json_batch_is_one_array_with_the_bad_line_in_its_place() -> None:
    lines = f"{HAND} | trump S | played KD\n{HAND} | trump S | played KD XD\n"
    result = run("-", "-n", "10", "-f", "json", input=lines)
    assert result.exit_code == 2
    records = json.loads(result.stdout)
    assert [record["position"] for record in records] == [1, 2]
    assert "cards" in records[0] and "error" in records[1]


def test_the_clis_defaults_are_the_modules() -> None:
    from meldcalc.cli import base
    from meldcalc.engines import policies

    assert hint_cli.LAYOUTS == hint_module.LAYOUTS
    assert hint_cli.MAX_LAYOUTS == hint_module.MAX_LAYOUTS
    assert base.DEFAULT_POLICY.value == policies.DEFAULT


def test_the_learned_policy_plays_the_layouts_out_unless_the_rules_are_asked_for() -> None:
    args = (HAND, "-t", "S", "--played", "AC 9C KC JC", "-n", "200", "-f", "json")
    rules = json.loads(run(*args, "--policy", "rules").stdout)
    learned, again = (json.loads(run(*args).stdout) for _ in range(2))
    assert learned == again and learned["policy"] == "learned"
    assert [card["points"] for card in learned["cards"]] != [
        card["points"] for card in rules["cards"]
    ]
    shown = run(HAND, "-t", "S", "--played", "AC 9C KC JC", "-n", "20", "--policy", "rules")
    [method] = [line for line in shown.stdout.splitlines() if " layouts of the unseen " in line]
    assert "played out by the rules policy" in method


# --- errors: one line, exit 2 -------------------------------------------------------------

#: The hand of seat 2 in the cases that need seat 2 to have played JC to trick 1.
JC_HAND = "AS 10S KS QS JS JD 9S AH AD JC KH QH"
ERRORS = [
    (HAND, ["--played", "AC 9C XC"], "trick 1: 'XC': a rank is one of A 10 K Q J 9"),
    (
        HAND,
        ["--leader", "1", "--played", "KD 9D JD QD"],
        "trick 1: seat 1 plays KD, which is not in its hand as dealt (AS 10S KS QS JS 9S AH",
    ),
    (
        HAND,
        ["--leader", "1", "--played", "AD 9D JD QD AD 10D 9D KD"],
        "trick 2: seat 1 plays AD again: it has played its 1 and holds AS 10S KS QS JS 9S",
    ),
    (
        HAND,
        ["--played", "9H AS 10H JH"],
        "trick 1: seat 1 may not play AS: it had to follow ♥: AH KH QH",
    ),
    (
        HAND,
        ["--played", "KH QH 9H JH 9C"],
        "trick 1: seat 1 may not play QH: it had to beat KH: AH",
    ),
    (
        HAND,
        ["--played", "AH 9C", "--known", "1:KH"],
        "trick 1: seat 1 may not play 9C (it melded KH): it had to follow ♥: KH",
    ),
    (
        HAND,
        ["--played", "KH QH 9H 10H", "--known", "1:AH"],
        "trick 1: seat 1 may not play QH (it melded AH): it had to beat KH: AH",
    ),
    (
        JC_HAND,
        ["--played", "AC 9H JC 10C 10C 9C"],
        "trick 2: seat 1 plays 9C, but at trick 1 it did not follow ♣, so it held no ♣",
    ),
    (
        JC_HAND,
        ["--played", "AC 9H JC 10C 10C 9S"],
        "trick 2: seat 1 plays 9S, but at trick 1 it did not trump, so it held no trump",
    ),
    (
        JC_HAND,
        ["--played", "KC QC JC 9C 9D 10C"],
        "trick 2: seat 1 plays 10C, but at trick 1 it did not beat KC where the rules made it,"
        " so it held nothing above it",
    ),
    (
        JC_HAND,
        ["--played", "AC 9H JC 10C 9H 9H"],
        "trick 2: seat 1 plays 9H, but the single-deck deck's 2 9H are all accounted for"
        " (seat 0 played 1, seat 1 played 2)",
    ),
    (
        HAND,
        ["--played", " ".join(["9H"] * 48)],
        "--played holds 48 cards: a single-deck deal has 48",
    ),
    (HAND, ["--known", "0:AS", "--seat", "0"], "--known '0:AS': seat 0 is the seat asking"),
    (HAND, ["--known", "partner:AS AS"], "--known: 'AS' is held 3 times (your hand 1, seat 2 2)"),
    (
        HAND,
        ["--known", "7:AS"],
        "--known '7:AS': seat '7': expected a seat from 0 to 3, or me, left, partner, right",
    ),
    (HAND, ["--known", "2:AX"], "--known '2:AX': "),
    (HAND, ["-V", "two-handed"], "two-handed: give the position on the command line, every card"),
    (HAND, ["--leader", "4"], "leader '4': expected a seat from 0 to 3"),
    (HAND, ["--leader", "left"], "leader 'left': a seat from 0 to 3 (a seat named from yours"),
    (f"{HAND} | seat 9", [], "seat '9': expected a seat from 0 to 3"),
    (f"{HAND} | played KD | played AD", [], "'played AD': played is given twice: give it once"),
    (f"{HAND} | lead 1", [], "'lead 1': expected '| trump S', '| leader N', '| played"),
    (" | played KD", [], "no hand: give the seat's hand as dealt"),
]


@pytest.mark.parametrize(("hand", "args", "message"), ERRORS, ids=[m[:40] for *_, m in ERRORS])
def test_a_bad_position_is_one_line_and_exit_2(hand: str, args: list[str], message: str) -> None:
    result = run(hand, "-t", "S", "-n", "4", *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"meldcalc: error: {message}"), result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_hand_of_another_size_than_dealt_is_refused() -> None:
    result = run(f"{HAND} 9S", "-t", "S")
    assert result.exit_code == 2
    assert result.stderr == (
        "meldcalc: error: the hand has 13 cards; single-deck deals 12: give the hand as it"
        " was dealt (the cards it has played are taken out)\n"
    )


def test_a_history_no_layout_fits_is_refused() -> None:
    # seats 1, 2 and 3 show out of hearts and trumps: the nine hearts left have no home
    result = run(HAND, "-t", "S", "--played", "QH 9C KC 10C")
    assert result.exit_code == 2
    assert result.stderr.startswith("meldcalc: error: no layout of the unseen cards fits")


def test_no_trump_is_refused() -> None:
    assert (
        run(HAND).stderr
        == "meldcalc: error: no trump: give --trump, or '| trump S' after the hand\n"
    )


def test_where_the_solver_cannot_play_every_value_is_a_roll_out(tmp_path) -> None:
    six = tmp_path / "six.yaml"
    six.write_text("extends: single-deck\nname: six\nplayers: 6\nhand_size: 8\n")
    args = ("AS 10S KS QS JS JD 9S AH", "-t", "S", "-V", str(six), "-n", "20", "-f", "json")
    result = run(*args, "--played", "AC 9C KC JC 10C", "--known", "1:QC")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["seat"] == 5 and record["method"] == "roll-out" and record["exact_from"] == 0
    assert record["shown"] == [{"seat": 1, "cards": ["QC"]}]


def test_where_each_plays_alone_the_bidder_who_led_is_the_lone_side_wherever_it_sits() -> None:
    """Cutthroat, the bidder in seat 1: the defenders (seats 0 and 2) play together against
    it, so seat 2's values are those of the same position with the seats turned to put the
    bidder in seat 0 (the engines' lone seat), and its seats are named as given."""
    from meldcalc.advice.hint import hint
    from meldcalc.advice.history import Query
    from meldcalc.dealing.deal import deals

    rules = load_variant("cutthroat")
    hands = next(deals(rules, 1, 7)).hands
    lead = str(hands[1].cards(Suit.SPADES)[0])
    asked = hint(Query(hands[2], Suit.SPADES, 1, (lead,), 2, ()), rules, 300, seed=1)
    turned = hint(Query(hands[2], Suit.SPADES, 0, (lead,), 1, ()), rules, 300, seed=1)
    assert asked.cards == turned.cards
    assert asked.seat == 2 and asked.on_table == ((1, lead),)


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["three-handed", "double-deck-three-handed"]),
    seed=st.integers(0, 10_000),
    trump=st.sampled_from(list(Suit)),
    at=st.floats(0, 0.97),
    seen=st.booleans(),
)
def test_with_a_widow_every_seat_is_hinted_its_legal_cards_at_any_point(
    name: str, seed: int, trump: Suit, at: float, seen: bool
) -> None:
    """A deal played by meldcalc's player, the bidder (seat 0) having taken the widow and
    buried: at any point, whoever is to play (the bidder knowing its burial, another seat
    the widow as turned up or not) is given exactly its legal cards, and the bidder's
    points left leave out the counters it buried."""
    from meldcalc.advice.history import Query
    from meldcalc.advice.played import play_one
    from meldcalc.dealing.deal import deals
    from meldcalc.engines.solve import counter_of
    from meldcalc.rules.tricks import legal_cards

    rules = load_variant(name)
    played = play_one(next(deals(rules, 1, seed)).hands[0], rules, trump, seed)
    order = [(seat, card) for trick in played.tricks for seat, card in trick.cards]
    k = int(at * len(order))
    seat = order[k][0]
    query = Query(
        played.hands[seat],
        trump,
        0,
        tuple(card for _, card in order[:k]),
        seat,
        buried=played.buried if seat == 0 else None,
        widow=played.widow if seat and seen else None,
    )
    found = hint(query, rules, layouts=20, seed=seed)
    held = list(played.hands[seat].counts)
    for other, card in order[:k]:
        if other == seat:
            held[CARD_NAMES.index(card)] -= 1
    trick = [CARD_NAMES.index(card) for _, card in order[k - k % rules.players : k]]
    legal = legal_cards(held, trick, trump, rules.head, rules.overtrump)
    assert sorted(value.card for value in found.cards) == sorted(CARD_NAMES[c] for c in legal)
    if seat == 0:
        done = k - k % rules.players
        taken = sum(counter_of(rules, CARD_NAMES.index(card)) for _, card in order[:done])
        buried = sum(counter_of(rules, card.index) for card in played.buried.cards())
        assert found.points_left == rules.trick_total - taken - buried
