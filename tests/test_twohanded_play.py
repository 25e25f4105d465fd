"""Two-handed pinochle played by meldcalc's player: `play` and `deal` end to end, and the
policy's choices (`meldcalc.engines.twohanded`)."""

from __future__ import annotations

import json
import random
import statistics

from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.dealing.deal import deal
from meldcalc.engines.solve import Position, solve
from meldcalc.engines.twohanded import (
    after_trick,
    choose_card,
    from_deal,
    meld_advice,
    play_out,
)
from meldcalc.rules.cards import CARD_NAMES, Card, Hand
from meldcalc.rules.loading import load_variant
from meldcalc.rules.twohanded import EXCHANGE, LAST, WON, StockHand

TWO = load_variant("two-handed")
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def card(name: str) -> int:
    return CARD_NAMES.index(name)


def test_play_plays_the_deal_that_deal_deals_for_the_same_seed() -> None:
    dealt = run("deal", "-V", "two-handed", "--seed", "3", "--players").stdout.splitlines()
    played = run("play", "-V", "two-handed", "--seed", "3").stdout.splitlines()
    assert played[1:3] == dealt[:2]
    assert played[0].endswith(f"turn-up {dealt[-1].removeprefix('# turn-up: ')}")


def test_play_shows_24_tricks_and_the_score_as_score_says_it() -> None:
    result = run("play", "-V", "two-handed", "--seed", "3")
    assert result.exit_code == 0, result.output
    record = json.loads(run("play", "-V", "two-handed", "--seed", "3", "-f", "json").stdout)
    lines = result.stdout.splitlines()
    meld, tricks = record["meld"], record["trick_points"]
    assert lines[-2:] == [
        f"Seat {seat}: {meld[seat]} meld + {tricks[seat]} in tricks = {record['points'][seat]}."
        for seat in (0, 1)
    ]
    rows = [line.split()[0] for line in lines if line.strip()[:2].strip().isdigit()]
    assert rows[-1] == "24"


def test_every_step_play_prints_is_legal_when_replayed_through_the_rules() -> None:
    for seed in ("3", "11", "12"):
        record = json.loads(run("play", "-V", "two-handed", "--seed", seed, "-f", "json").stdout)
        stock = [Card.parse(name) for name in record["stock"]]
        hands = [Hand.parse(" ".join(hand)) for hand in record["hands"]]
        state = StockHand.deal(TWO, hands, stock[:-1], stock[-1], record["dealer"])
        for trick in record["tricks"]:
            for name in trick["cards"]:
                state.play(card(name))  # refuses an illegal card
            assert state.winner == trick["winner"]
            for dix in trick["dix"]:
                state.dix(dix["how"])
            for meld in trick["melds"]:
                assert state.meld([card(name) for name in meld["cards"]]).points == meld["points"]
            if trick["draws"]:
                drawn = state.draw()
                assert [CARD_NAMES[c] for c in drawn] == [d["card"] for d in trick["draws"]]
        assert state.over and list(state.scores()) == record["points"]
        assert sum(record["trick_points"]) == 210
        assert sum(len(trick["draws"]) for trick in record["tricks"]) == 24


def test_play_keeps_the_hand_given_for_seat_0() -> None:
    hand = "AS 10S KS QS JS JD QS 9H 9D 9C AC KH"
    record = json.loads(run("play", "-V", "two-handed", hand, "--seed", "5", "-f", "json").stdout)
    assert Hand.parse(" ".join(record["hands"][0])) == Hand.parse(hand)


def test_play_refuses_a_trump_or_a_bid_in_two_handed() -> None:
    result = run("play", "-V", "two-handed", "-t", "S", "--bid", "300")
    assert result.exit_code == 2
    assert "--trump, --bid: two-handed deals its own stock and turns up trump" in result.stderr


def test_deal_json_lists_the_stock_in_the_order_it_is_drawn_the_turn_up_last() -> None:
    record = json.loads(run("deal", "-V", "two-handed", "--seed", "3", "-f", "json").stdout)
    dealt = deal(TWO, random.Random(3))
    assert record["stock"] == [*map(str, dealt.drawn), str(dealt.turn_up)]
    assert record["stock"][-1] == record["turn_up"]


def arranged(first: str, second: str, turn_up: str) -> StockHand:
    hands = (Hand.parse(first), Hand.parse(second))
    rest = list(reversed(TWO.deck.cards()))
    for taken in [*hands[0], *hands[1], Card.parse(turn_up)]:
        rest.remove(taken)
    return StockHand.deal(TWO, hands, rest, Card.parse(turn_up))


HEARTS = "AH AH 10H 10H KH KH QH QH JH JH 9H 9H"


def test_the_player_lays_the_royal_marriage_before_the_run_it_grows_into() -> None:
    state = arranged("AS 10S KS QS JS AD AD 9D 9D 9C 9C JC", HEARTS, "AS")
    state.play(card("AD"))
    state.play(card("9H"))
    advice = meld_advice(state)
    assert advice.option is not None and advice.option.name == "royal marriage"
    assert [option.name for option in advice.plan] == ["royal marriage", "run"]
    assert advice.plan_points == 190


def test_the_player_exchanges_its_dix_for_the_turn_up() -> None:
    state = arranged("9S KS AD AD 10D 9D 9D 9C 9C JC JC 10C", HEARTS, "AS")
    state.play(card("AD"))
    state.play(card("9H"))
    assert meld_advice(state).dix == EXCHANGE
    after_trick(state)
    assert state.meld_points[0] == 10 and state.hands[0][card("AS")] == 1


def test_the_player_leads_a_card_of_no_worth_and_trumps_an_ace_led() -> None:
    state = arranged("AS 10S KS QS JS AD AD 9D 9D 9C 9C JC", HEARTS, "AS")
    assert CARD_NAMES[choose_card(state)] in ("9D", "9C")
    state = arranged(HEARTS, "9S JS AD AD 9D 9D 9C 9C JC 10C KC QD", "AS")
    state.play(card("AH"))
    assert CARD_NAMES[choose_card(state)] == "JS"  # a spare trump takes the ace


def test_the_player_keeps_its_run_whole_rather_than_trump_with_it() -> None:
    state = arranged(HEARTS, "AS 10S KS QS JS AD AD 9D 9D 9C 9C JC", "AS")
    state.play(card("10H"))
    assert CARD_NAMES[choose_card(state)] in ("9D", "9C", "JC")


def test_the_last_twelve_tricks_are_played_as_the_exact_solver_says() -> None:
    state = from_deal(TWO, deal(TWO, random.Random(4)))
    while state.stage != LAST:
        if state.phase == WON:
            after_trick(state)
        else:
            state.play(choose_card(state))
    for _ in range(3):
        hands = tuple(Hand(state.hands[seat]) for seat in (0, 1))
        position = Position(hands, state.trump, state.leader, tuple(state.trick))
        solution = solve(position, TWO, line=False, time_limit=None)
        best = max if state.to_play == 0 else min
        assert solution.cards[choose_card(state)] == best(solution.cards.values())
        state.play(choose_card(state))


def test_the_player_beats_a_random_player_by_a_wide_margin() -> None:
    """Seat by seat over 15 deals, meldcalc's player against one that plays a random legal
    card and lays the biggest meld it may: measured 178 +- 17 points a hand over 60."""
    margins = []
    for seed in range(15):
        for player in (0, 1):
            rng = random.Random(seed)
            state = from_deal(TWO, deal(TWO, random.Random(seed)))
            while not state.over:
                if state.to_play == player:
                    after_trick(state) if state.phase == WON else state.play(choose_card(state))
                elif state.phase == WON:
                    options = state.meld_options()
                    if options:
                        state.lay(options[0])
                    state.draw()
                else:
                    state.play(rng.choice(state.legal_cards()))
            scores = state.scores()
            margins.append(scores[player] - scores[1 - player])
    assert statistics.mean(margins) > 80


def test_self_play_ends_every_hand_with_all_the_trick_points_taken() -> None:
    for seed in range(5):
        state = play_out(from_deal(TWO, deal(TWO, random.Random(seed)), dealer=seed % 2))
        assert state.over and sum(state.trick_points) == TWO.trick_total


def test_the_player_plays_a_whole_hand_where_the_meld_follows_the_draw() -> None:
    from pathlib import Path

    variant = load_variant(str(Path(__file__).parent / "data" / "two-handed-draw-first.yaml"))
    for seed in range(3):
        state = play_out(from_deal(variant, deal(variant, random.Random(seed))))
        assert state.over and sum(state.trick_points) == variant.trick_total
        assert sum(state.meld_points) > 0
