"""Two-handed pinochle's rules (RULES.md, "two-handed"): the stock, the draw, the meld after
a trick won and the reuse rule, the dix, the last twelve tricks, and the hand's score."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.dealing.deal import deal
from meldcalc.errors import MeldcalcError
from meldcalc.rules.cards import CARD_NAMES, Card, Hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.tricks import legal_cards
from meldcalc.rules.twohanded import (
    EXCHANGE,
    LAST,
    SHOW,
    STOCK,
    TURNED_UP,
    WON,
    DixScored,
    Drew,
    Melded,
    StockHand,
)
from meldcalc.rules.variant import Variant

TWO = load_variant("two-handed")
runner = CliRunner()


def card(name: str) -> int:
    return CARD_NAMES.index(name)


def house(tmp_path: Path, text: str, base: str = "two-handed") -> Variant:
    """A house file extending ``base`` (a shipped name or a path) with ``text``."""
    path = tmp_path / "house.yaml"
    path.write_text(f"name: house\nextends: {base}\n{text}")
    return load_variant(str(path))


def arranged(
    first: str, second: str, turn_up: str, top: str = "", variant: Variant = TWO
) -> StockHand:
    """A hand dealt as given: seat 0 (the non-dealer, who leads) holds ``first``, the
    dealer ``second``; ``top`` are the stock's top cards, in order; the rest of the deck
    fills the stock below them, the ``turn_up`` under it all."""
    hands = (Hand.parse(first), Hand.parse(second))
    on_top = [Card.parse(name) for name in top.split()]
    up = Card.parse(turn_up)
    rest = list(reversed(variant.deck.cards()))  # clubs first: spades drawn last
    for taken in [*hands[0], *hands[1], *on_top, up]:
        rest.remove(taken)
    return StockHand.deal(variant, hands, [*on_top, *rest], up)


def won_by_seat_0(state: StockHand, lead: str, follow: str) -> None:
    """Seat 0 leads ``lead``, seat 1 follows ``follow``, and seat 0 must have won."""
    state.play(card(lead))
    state.play(card(follow))
    assert state.phase == WON and state.winner == 0


def random_hand(variant: Variant, rng: random.Random) -> StockHand:
    dealt = deal(variant, rng)
    return StockHand.deal(variant, dealt.hands, dealt.drawn, dealt.turn_up, rng.randrange(2))


def play_randomly(state: StockHand, rng: random.Random) -> list[tuple[int, list[int], int]]:
    """Every legal action chosen at random; returns each card played with the cards the
    seat could legally play then."""
    plays = []
    while not state.over:
        if state.phase == WON and not state.melding:
            state.draw()  # the winner draws before it melds
            continue
        if state.melding:
            for _ in range(rng.randrange(3)):
                if state.dix_actions():
                    state.dix(rng.choice(state.dix_actions()))
                options = state.meld_options()
                if options:
                    state.lay(rng.choice(options))
            if state.phase == WON:
                state.draw()
                continue
        legal = state.legal_cards()
        chosen = rng.choice(legal)
        plays.append((state.to_play, legal, chosen))
        state.play(chosen)
    return plays


DRAW_FIRST = load_variant(str(Path(__file__).parent / "data" / "two-handed-draw-first.yaml"))


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([TWO, DRAW_FIRST]))
def test_a_whole_hand_plays_every_card_and_its_trick_points_add_up(
    rng: random.Random, variant: Variant
) -> None:
    state = random_hand(variant, rng)
    plays = play_randomly(state, rng)
    assert len(plays) == 48 and state.tricks_done == 24
    assert sum(state.trick_points) == TWO.trick_total == 210
    assert state.stock == [] and state.turn_up is None
    drawn = [event for event in state.events if isinstance(event, Drew)]
    assert len(drawn) == 24 and [event.seat for event in drawn[-2:]] != []
    assert sum(state.tricks_won) == 24


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_classic_counters_add_up_to_250_with_the_last_trick(rng: random.Random) -> None:
    classic = house_classic()
    state = random_hand(classic, rng)
    play_randomly(state, rng)
    assert sum(state.trick_points) == classic.trick_total == 250


_CLASSIC: list[Variant] = []


def house_classic() -> Variant:
    if not _CLASSIC:
        path = Path(__file__).parent / "data" / "two-handed-classic.yaml"
        _CLASSIC.append(load_variant(str(path)))
    return _CLASSIC[0]


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_every_card_played_after_the_stock_is_one_the_follow_rules_allow(
    rng: random.Random,
) -> None:
    state = random_hand(TWO, rng)
    while not state.over:
        if state.phase == WON:
            state.draw()
            continue
        legal = state.legal_cards()
        if state.stage == LAST:
            seat = state.to_play
            assert legal == legal_cards(state.held(seat), state.trick, state.trump)
            refused = [c for c in range(24) if state.held(seat)[c] and c not in legal]
            if refused:
                with pytest.raises(MeldcalcError, match="follow rules"):
                    state.copy().play(rng.choice(refused))
        else:
            assert legal == [c for c, n in enumerate(state.held(state.to_play)) if n]
        state.play(rng.choice(legal))


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([TWO, DRAW_FIRST]))
def test_every_meld_takes_a_card_from_the_hand_and_reuses_only_upward(
    rng: random.Random, variant: Variant
) -> None:
    state = random_hand(variant, rng)
    play_randomly(state, rng)
    for seat in (0, 1):
        mine = state.laid[seat]
        assert [e.laid for e in state.events if isinstance(e, Melded) and e.seat == seat] == mine
        seen: set[int] = set()
        for number, meld in enumerate(mine):
            assert set(meld.ids) - seen, f"{meld.text} took no card from the hand"
            seen |= set(meld.ids)
            for earlier in mine[:number]:
                shared = set(meld.ids) & set(earlier.ids)
                if shared and set(meld.classes) & set(earlier.classes):
                    assert meld.points > earlier.points, (earlier.text, meld.text)
        assert state.meld_points[seat] == sum(m.points for m in mine) + sum(
            e.points for e in state.events if isinstance(e, DixScored) and e.seat == seat
        )


HEARTS = "AH AH 10H 10H KH KH QH QH JH JH 9H 9H"  # seat 1's hand: it follows with a 9H


def test_the_non_dealer_leads_and_any_card_may_follow_while_the_stock_lasts() -> None:
    state = arranged(
        "AS AS 10S KS QS JS 9D 9D 9C 9C JC JC", "AH AH 10H 10H KH KH QH QH JH JH 9H 9S", "AD"
    )
    assert state.to_play == 0 and state.stage == STOCK
    state.play(card("AS"))
    every = sorted(card(name) for name in ["9S", "AH", "10H", "KH", "QH", "JH", "9H"])
    assert state.legal_cards() == every  # not only 9S, as the follow rules would say
    state.play(card("9H"))
    assert state.winner == 0 and state.trick_points == [10, 0]


def test_the_winner_draws_the_top_card_and_the_loser_the_next() -> None:
    state = arranged("AS AS 10S KS QS JS 9D 9D 9C 9C JC JC", HEARTS, "AD", top="KC QC")
    won_by_seat_0(state, "AS", "9H")
    assert state.draw() == (card("KC"), card("QC"))
    assert state.hands[0][card("KC")] == 1 and state.hands[1][card("QC")] == 1
    assert state.stock_left == 22


def test_the_last_draw_gives_the_winner_the_face_down_card_shown_and_the_loser_the_turn_up() -> (
    None
):
    state = arranged("AS AS 10S KS QS JS 9D 9D 9C 9C JC JC", HEARTS, "AD")
    rng = random.Random(1)
    while state.stock_left > 2 or state.phase != WON:
        if state.phase == WON:
            state.draw()
        else:
            state.play(rng.choice(state.legal_cards()))
    face_down = state.stock[0]
    winner = state.winner
    state.draw()
    last = state.events[-2:]
    assert last == [Drew(winner, face_down, True), Drew(1 - winner, card("AD"), True)]
    assert state.stage == LAST and state.stock_left == 0


def test_the_melds_go_back_into_the_hands_once_the_stock_is_gone() -> None:
    state = arranged("AS 10S KS QS JS JD 9D 9D 9C 9C JC JC", HEARTS, "AS")
    won_by_seat_0(state, "9D", "9H")
    state.meld([card(c) for c in ["AS", "10S", "KS", "QS", "JS"]])
    assert state.table_cards(0) == sorted(card(c) for c in ["AS", "10S", "KS", "QS", "JS"])
    assert state.held(0)[card("KS")] == 1 and state.hands[0][card("KS")] == 0
    rng = random.Random(2)
    while state.stage == STOCK:
        if state.phase == WON:
            state.draw()
        else:
            state.play(rng.choice(state.legal_cards()))
    assert state.table == [{}, {}] and sum(state.hands[0]) == sum(state.hands[1]) == 12


def test_a_card_on_the_table_is_played_from_it_and_its_meld_stays_scored() -> None:
    state = arranged("KS QS AD AD 10D 9D 9D 9C 9C JC JC 10C", HEARTS, "AS")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("KS"), card("QS")])
    assert state.meld_points[0] == 40  # the royal marriage, spades trump
    state.draw()
    won_by_seat_0(state, "KS", "9H")
    assert state.table_cards(0) == [card("QS")] and state.meld_points[0] == 40


def test_a_royal_marriage_then_the_run_scores_both() -> None:
    state = arranged("AS 10S KS QS JS AD AD 9D 9D 9C 9C JC", HEARTS, "AS")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("KS"), card("QS")])
    state.draw()
    won_by_seat_0(state, "AD", "9H")
    run = state.meld([card(c) for c in ["AS", "10S", "KS", "QS", "JS"]])
    hand = tuple(sorted(map(card, ["AS", "10S", "JS"])))
    assert (run.name, run.points, run.from_hand) == ("run", 150, hand)
    assert state.meld_points[0] == 190


def test_the_run_then_its_royal_marriage_is_refused() -> None:
    state = arranged("AS 10S KS QS JS AD AD 9D 9D 9C 9C JC", HEARTS, "AS")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card(c) for c in ["AS", "10S", "KS", "QS", "JS"]])
    state.draw()
    won_by_seat_0(state, "AD", "9H")
    assert "royal marriage" not in [option.name for option in state.meld_options()]
    with pytest.raises(MeldcalcError, match="KS already serves the run \\(150\\)"):
        state.meld([card("KS"), card("QS")])


def test_k_k_q_is_one_marriage_however_it_is_laid() -> None:
    state = arranged("KS KS QS AD AD 9D 9D 10D 10D JC 10C 9C", HEARTS, "AC")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("KS"), card("QS")])
    state.draw()
    won_by_seat_0(state, "AD", "9H")
    with pytest.raises(MeldcalcError, match="QS already serves the marriage"):
        state.meld([card("KS"), card("QS")])


def test_a_table_card_melds_again_in_another_class() -> None:
    state = arranged(
        "KS QS KH KD KC AD AD 9D 9C 9C JC JC", "AH AH 10H 10H KH QH QH JH JH 9H 9H 9S", "AS"
    )
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("KS"), card("QS")])
    state.draw()
    won_by_seat_0(state, "AD", "9H")
    kings = state.meld([card(c) for c in ["KS", "KH", "KD", "KC"]])
    assert kings.points == 80 and kings.reused and card("KS") not in kings.from_hand


def test_a_pinochle_may_grow_into_a_double_pinochle_not_the_reverse() -> None:
    state = arranged("JD JD QS QS AD AD 9D 9C 9C JC JC 10C", HEARTS, "AC")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("JD"), card("QS")])
    state.draw()
    won_by_seat_0(state, "AD", "9H")
    double = state.meld([card(c) for c in ["JD", "JD", "QS", "QS"]])
    assert double.points == 300 and state.meld_points[0] == 340


def test_a_second_pinochle_laid_alone_is_40_and_no_double_follows() -> None:
    state = arranged("JD JD QS QS AD AD 9D 9C 9C JC JC 10C", HEARTS, "AC")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("JD"), card("QS")])
    state.draw()
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("JD"), card("QS")])
    assert state.meld_points[0] == 80
    assert all(option.points != 300 for option in state.meld_options(0))


def test_one_meld_a_trick_won_and_the_switch_allows_more(tmp_path: Path) -> None:
    hands = ("AS 10S KS QS JS JD AD AD 9D 9C 9C JC", HEARTS)
    state = arranged(*hands, "AS")
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("JD"), card("QS")])
    assert state.meld_options() == []
    with pytest.raises(MeldcalcError, match="one meld a trick won"):
        state.meld([card(c) for c in ["AS", "10S", "KS", "QS", "JS"]])
    two = house(tmp_path, "stock_play: {melds_per_trick: 2}\n")
    state = arranged(*hands, "AS", variant=two)
    won_by_seat_0(state, "AD", "9H")
    state.meld([card("JD"), card("QS")])
    state.meld([card(c) for c in ["AS", "10S", "KS", "QS", "JS"]])
    assert state.meld_points[0] == 190


def test_only_the_trick_winner_melds_and_only_before_its_draw() -> None:
    state = arranged("KS QS AD AD 10D 9D 9D 9C 9C JC JC 10C", HEARTS, "AS")
    with pytest.raises(MeldcalcError, match="is to play a card"):
        state.meld([card("KS"), card("QS")])
    won_by_seat_0(state, "AD", "9H")
    state.draw()
    with pytest.raises(MeldcalcError, match="is to play a card"):
        state.meld([card("KS"), card("QS")])


def test_the_dix_is_exchanged_for_the_turn_up_scoring_10() -> None:
    state = arranged("9S KS AD AD 10D 9D 9D 9C 9C JC JC 10C", HEARTS, "AS")
    won_by_seat_0(state, "AD", "9H")
    assert state.dix_actions() == [EXCHANGE, SHOW]
    assert state.dix() == EXCHANGE
    assert state.hands[0][card("AS")] == 1 and state.hands[0][card("9S")] == 0
    assert state.turn_up == card("9S") and state.meld_points[0] == 10
    assert state.dix_actions() == []


def test_the_second_dix_is_only_shown_and_a_turned_up_dix_scores_the_dealer() -> None:
    state = arranged("9S KS AD AD 10D 9D 9D 9C 9C JC JC 10C", HEARTS, "9S")
    assert state.meld_points == [0, 10] and state.events[0] == DixScored(1, TURNED_UP, 10)
    won_by_seat_0(state, "AD", "9H")
    assert state.dix_actions() == [SHOW]
    state.dix()
    assert state.meld_points == [10, 10] and state.hands[0][card("9S")] == 1
    assert state.dix_actions() == []  # each 9 scores once


def test_the_stock_can_be_closed_only_under_the_house_switch(tmp_path: Path) -> None:
    hands = ("AS 10S KS QS JS JD AD AD 9D 9C 9C JC", HEARTS)
    state = arranged(*hands, "AS")
    won_by_seat_0(state, "AD", "9H")
    with pytest.raises(MeldcalcError, match=r"stock_play\.closing is off"):
        state.close()
    closing = house(tmp_path, "stock_play: {closing: true}\n")
    state = arranged(*hands, "AS", variant=closing)
    won_by_seat_0(state, "AD", "9H")
    state.close()
    assert state.stage == "closed" and state.meld_options() == []
    rng = random.Random(3)
    while not state.over:
        legal = state.legal_cards()
        assert legal == legal_cards(state.held(state.to_play), state.trick, state.trump)
        state.play(rng.choice(legal))
    assert sum(state.trick_points) + state.dead_points == closing.trick_total
    assert state.tricks_done == 12


def test_round_tricks_counts_7_8_or_9_as_10(tmp_path: Path) -> None:
    rounding = house(
        tmp_path,
        "stock_play: {round_tricks: true}\n",
        str(Path(__file__).parent / "data" / "two-handed-classic.yaml"),
    )
    result = runner.invoke(
        app,
        ["score", "-V", str(tmp_path / "house.yaml"), "--meld", "100,40", "--tricks", "127,123"],
    )
    assert result.exit_code == 0, result.output
    assert "Seat 0: 100 meld + 127 in tricks (counted 130) = 230." in result.stdout
    assert "Seat 1: 40 meld + 123 in tricks (counted 120) = 160." in result.stdout
    assert rounding.stock_play is not None and rounding.stock_play.round_tricks


def test_stock_play_switches_need_a_stock_and_no_auction(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: single-deck\nstock_play: {closing: true}\n")
    with pytest.raises(MeldcalcError, match="stock_play switches the two-handed game"):
        load_variant(str(path))


def test_a_trick_played_out_of_turn_or_an_unheld_card_is_refused() -> None:
    state = arranged("AS AS 10S KS QS JS 9D 9D 9C 9C JC JC", HEARTS, "AD")
    with pytest.raises(MeldcalcError, match="seat 0 holds no AH"):
        state.play(card("AH"))
    state.play(card("AS"))
    with pytest.raises(MeldcalcError, match="is to play a card: no one can draw"):
        state.draw()


def test_score_adds_meld_and_tricks_for_each_player() -> None:
    result = runner.invoke(
        app, ["score", "-V", "two-handed", "--meld", "240,80", "--tricks", "130,80"]
    )
    assert result.exit_code == 0
    assert "Seat 0: 240 meld + 130 in tricks = 370." in result.stdout
    assert "Seat 1: 80 meld + 80 in tricks = 160." in result.stdout


def test_score_refuses_a_bid_in_two_handed_and_trick_points_that_do_not_add_up() -> None:
    bid = runner.invoke(
        app, ["score", "-V", "two-handed", "--bid", "300", "--meld", "1,2", "--tricks", "3"]
    )
    assert bid.exit_code == 2 and "--bid: two-handed has no auction" in bid.stderr
    short = runner.invoke(
        app, ["score", "-V", "two-handed", "--meld", "240,80", "--tricks", "130,70"]
    )
    assert short.exit_code == 2 and "every hand of two-handed has 210 trick points" in short.stderr


def test_a_two_handed_game_is_won_at_1000(tmp_path: Path) -> None:
    game = str(tmp_path / "g.jsonl")
    first = ["score", "-V", "two-handed", "-g", game, "--names", "Ann,Bob"]
    assert runner.invoke(app, [*first, "--meld", "240,80", "--tricks", "130,80"]).exit_code == 0
    last = runner.invoke(app, ["score", "-g", game, "--meld", "500,20", "--tricks", "150,60"])
    assert last.exit_code == 0
    assert "Ann won, 1020 to 240: first to 1000, after hand 2." in last.stdout


def test_table_says_the_stock_game_and_its_switches(tmp_path: Path) -> None:
    import json

    data = json.loads(runner.invoke(app, ["table", "two-handed", "-f", "json"]).stdout)
    assert data["house"]["stock_play"] == {
        "game": 1000,
        "melds_per_trick": 1,
        "meld_before_draw": True,
        "closing": False,
        "round_tricks": False,
    }
    assert any(line.startswith("the trick's winner lays one meld") for line in data["play"])
    closing = house(tmp_path, "stock_play: {closing: true, round_tricks: true}\n")
    text = runner.invoke(app, ["table", str(closing.path)]).stdout
    assert "the trick's winner may close the stock instead of drawing" in text
    assert "trick points to the ten, 7, 8 or 9 as 10" in text


def test_under_the_switch_the_winner_draws_first_then_melds_before_it_leads() -> None:
    state = arranged("AS 10S KS QS JS AD AD 9D 9D 9C 9C JC", HEARTS, "AS", variant=DRAW_FIRST)
    won_by_seat_0(state, "AD", "9H")
    with pytest.raises(MeldcalcError, match="it draws before it may meld"):
        state.meld([card("KS"), card("QS")])
    state.draw()
    assert state.melding and state.to_play == 0
    state.meld([card("KS"), card("QS")])
    state.play(card("9C"))  # leading ends the winner's turn
    assert state.trick == [card("9C")] and not state.melding


def test_under_the_switch_the_last_winner_melds_after_the_last_draw() -> None:
    state = random_hand(DRAW_FIRST, random.Random(5))
    rng = random.Random(6)
    while state.stock_left > 2 or state.phase != WON:
        if state.phase == WON:
            state.draw()
        elif state.melding:
            state.end_melding()
        else:
            state.play(rng.choice(state.legal_cards()))
    state.draw()
    assert state.stock_left == 0 and state.melding and state.stage == STOCK
    state.end_melding()
    assert state.stage == LAST and state.table == [{}, {}]
