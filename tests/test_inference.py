"""Reading the table: layouts weighed by the chance of the others' plays under the policy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldcalc.advice import hint as hint_module
from meldcalc.advice.hint import hint
from meldcalc.advice.history import hint_table, parse_query
from meldcalc.dealing.deal import deal_counts
from meldcalc.dealing.unseen import sample_layouts
from meldcalc.engines.inference import (
    LEAST_EFFECTIVE,
    UNFIT,
    log_likelihoods,
    read_layouts,
    weighed,
)
from meldcalc.engines.reference import seen_by
from meldcalc.engines.simulate import Game, Table
from meldcalc.rules.cards import CARD_NAMES, Suit
from meldcalc.rules.loading import load_variant

SINGLE = load_variant("single-deck")
#: Seat 3's hand: no ten of hearts; and one with no ace of clubs.
NO_TEN = "9S JS 9D JD QD KD 9C JC QC 10C QH KH"
SEAT_3 = "9S JS 9D JD QD KD JC QC 10H QH KH 10D"


def position(line: str, variant=SINGLE) -> Game:
    """The one-deal game of a hint's position line, its past kept."""
    query = parse_query(line, variant, Suit.SPADES)
    table, cards, _ = hint_table(query, variant)
    return hint_module.replayed_game(table, cards, query)


def share_holding(line: str, seat: int, card: str, count: int = 4000) -> tuple[float, float]:
    """The share of layouts in which ``seat`` holds ``card``: uniform, and by weight."""
    game = position(line)
    layouts = sample_layouts(seen_by(game, 0), count, np.random.default_rng(1))[None]
    weights, _, _ = weighed(log_likelihoods(game, np.array([0]), layouts)[0])
    holds = layouts[0, :, seat, CARD_NAMES.index(card)] > 0
    return float(holds.mean()), float(weights @ holds)


def test_a_partner_who_fed_no_counter_on_a_boss_holds_none_in_most_weight() -> None:
    """Seat 0 led the ace of hearts, no one could beat it; its partner (seat 2) played a
    nine, not the ten a strong player feeds its partner's sure trick: most of the weight
    is on layouts where seat 2 has no ten of hearts, though half the uniform ones give it
    one."""
    uniform, weighted = share_holding(f"{NO_TEN} | leader 0 | played AH 9H 9H", 2, "10H")
    assert uniform > 0.5
    assert weighted < 0.4 and weighted < uniform - 0.15


def test_a_seat_that_led_low_rather_than_cash_its_ace_holds_it_less_often() -> None:
    """Seat 2 won a trick and led the nine of clubs: a seat holding the ace of clubs leads
    it (a boss) more often than not, so the layouts giving it one weigh less."""
    line = f"{SEAT_3} | leader 0 | played JD QD AD 9D 9C"
    uniform, weighted = share_holding(line, 2, "AC")
    assert weighted < uniform - 0.05


def test_the_same_position_gives_the_same_weights() -> None:
    game = position(f"{SEAT_3} | leader 0 | played AH 9H 9H")
    layouts = sample_layouts(seen_by(game, 0), 500, np.random.default_rng(7))[None]
    first = log_likelihoods(game, np.array([0]), layouts)
    again = log_likelihoods(position(f"{SEAT_3} | leader 0 | played AH 9H 9H"), np.array([0]),
                            layouts)  # fmt: skip
    assert np.array_equal(first, again)
    one = read_layouts(game, np.array([0]), layouts, 100, np.random.default_rng(3))
    two = read_layouts(game, np.array([0]), layouts, 100, np.random.default_rng(3))
    assert np.array_equal(one[0], two[0]) and one[1] == two[1]


def test_only_the_cards_a_seat_played_weigh_and_before_any_nothing_is_read() -> None:
    """Seat 0 led; seats 2 and 3 have not played: layouts that split their cards another
    way weigh the same. Before another seat has played, the hint draws uniformly."""
    game = position("9S JS 9D JD QD KD 9C JC QC 10C QH KH | leader 0 | played AC")
    layouts = sample_layouts(seen_by(game, 0), 200, np.random.default_rng(2))[None]
    swapped = layouts.copy()
    for layout in swapped[0]:
        two = next(c for c in range(24) if layout[2, c] and not layout[3, c])
        three = next(c for c in range(24) if layout[3, c] and not layout[2, c])
        layout[2, two], layout[3, two] = layout[2, two] - 1, layout[3, two] + 1
        layout[3, three], layout[2, three] = layout[3, three] - 1, layout[2, three] + 1
    logs = log_likelihoods(game, np.array([0]), layouts)
    assert np.array_equal(logs, log_likelihoods(game, np.array([0]), swapped))
    assert len(np.unique(logs)) > 1  # the lead itself is read
    query = parse_query("AS 10S KS QS JS JD 9S AH AD AC KH QH", SINGLE, Suit.SPADES)
    assert hint(query, SINGLE, 20).inference is None


def test_layouts_that_no_card_played_fits_fall_back_to_uniform_with_a_note() -> None:
    """Seat 1 showed out of hearts (a club on the nine of hearts): candidates that give it
    a heart anyway make its club illegal, so none can be the deal, and the layouts are
    drawn uniformly, with the note that says why."""
    game = position(f"{SEAT_3} | leader 0 | played 9H JC AH")  # seat 1 showed out of hearts
    layouts = sample_layouts(seen_by(game, 0), 50, np.random.default_rng(4))[None].copy()
    # give seat 1 a heart in every layout (swapping one of its cards with seat 2's heart)
    heart = [CARD_NAMES.index(name) for name in ("AH", "KH", "QH", "JH", "9H", "10H")]
    for layout in layouts[0]:
        card = next(c for c in heart if layout[2, c])
        other = next(c for c in range(24) if layout[1, c] and c not in heart)
        layout[2, card] -= 1
        layout[1, card] += 1
        layout[1, other] -= 1
        layout[2, other] += 1
    logs = log_likelihoods(game, np.array([0]), layouts)
    assert np.isneginf(logs).all()  # seat 1 would have had to follow hearts
    kept, [weighing] = read_layouts(game, np.array([0]), layouts, 20, np.random.default_rng(0))
    assert weighing.why == UNFIT and weighing.json()["method"] == "uniform"
    assert np.array_equal(kept[0], layouts[0, :20])


def test_lopsided_weights_are_flattened_to_the_least_effective_sample() -> None:
    logs = np.r_[0.0, np.full(399, -40.0)]  # one layout holds all the weight
    weights, effective, power = weighed(logs, LEAST_EFFECTIVE * 100)
    assert power < 1 and effective >= LEAST_EFFECTIVE * 100
    assert weights.sum() == pytest.approx(1.0)
    assert weighed(logs)[1] == pytest.approx(1.0)  # unflattened: one effective layout
    assert weighed(np.full(5, -np.inf))[1] == 0.0


def test_resampling_keeps_each_layout_about_its_weights_share() -> None:
    """Systematic resampling keeps each candidate the floor or the ceiling of its weight
    times the layouts kept: each distinct layout within one a copy of its share."""
    game = position(f"{SEAT_3} | leader 0 | played AH 9H 9H")
    layouts = sample_layouts(seen_by(game, 0), 400, np.random.default_rng(5))[None]
    weights, _, _ = weighed(log_likelihoods(game, np.array([0]), layouts)[0])
    kept, _ = read_layouts(game, np.array([0]), layouts, 100, np.random.default_rng(6))
    distinct, group = np.unique(layouts[0].reshape(400, -1), axis=0, return_inverse=True)
    members = np.bincount(group.ravel(), minlength=len(distinct))
    share = np.bincount(group.ravel(), weights=weights, minlength=len(distinct)) * 100
    _, kept_group = np.unique(
        np.vstack([distinct, kept[0].reshape(100, -1)]), axis=0, return_inverse=True
    )
    times = np.bincount(kept_group.ravel()[len(distinct) :], minlength=len(distinct))
    assert (np.abs(times - share) <= members).all()
    assert times.sum() == 100


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    game_name=st.sampled_from(["single-deck", "three-handed", "double-deck"]),
    share=st.floats(0.05, 0.95),
)
def test_the_true_deal_is_never_ruled_out(seed: int, game_name: str, share: float) -> None:
    """Whatever was dealt and however far the play has gone, the real hands keep a weight
    above nothing: the inference reads the plays, it never forbids what happened."""
    variant = load_variant(game_name)
    rng = np.random.default_rng(seed)
    counts = deal_counts(variant, 1, rng)[:, : variant.players].astype(np.int64)
    game = Game.from_counts(Table.of(variant, list(Suit)[int(rng.integers(4))]), counts,
                            variant.deck.copies)  # fmt: skip
    game.keep_past()
    for _ in range(int(share * game.cards_left)):
        game.advance(game.policy_cards())
    truth = game.held()[:, None]
    logs = log_likelihoods(game, np.array([0]), truth)
    assert np.isfinite(logs).all(), (seed, game_name)
    seen = seen_by(game, 0)
    layouts = sample_layouts(seen, 30, rng)[None]
    assert np.isfinite(log_likelihoods(game, np.array([0]), layouts)).all()
    kept, [weighing] = read_layouts(game, np.array([0]), layouts, 10, rng)
    assert all(seen.allows(layout) for layout in kept[0])  # weighed, never unfit
    assert weighing.effective >= 0.25 * 10 or weighing.why is not None


# --- the auction ---------------------------------------------------------------------------


def test_the_auction_is_read_with_the_plays_a_pass_says_a_weak_hand_a_bid_a_strong_one() -> None:
    """Seat 1 opened 250 and passed over 260, seat 2 passed at once, seat 0 won at 260:
    weighed by the bids too, seat 0's hand as dealt bids to more than uniformly drawn
    hands do, seat 2's to less."""
    from meldcalc.dealing.bidmodel import model_for
    from meldcalc.engines.inference import Told

    line = f"{NO_TEN} | leader 0 | played AH 9H 9H | auction 1:250 2:pass 3:pass 0:260 1:pass"
    query = parse_query(line, SINGLE, Suit.SPADES)
    assert query.auction == ((1, 250), (2, None), (3, None), (0, 260), (1, None))
    game = position(line)
    layouts = sample_layouts(seen_by(game, 0), 3000, np.random.default_rng(8))[None]
    told = Told(SINGLE, query.auction)
    weights, _, _ = weighed(log_likelihoods(game, np.array([0]), layouts, auction=told)[0])
    played = {0: ["AH"], 1: ["9H"], 2: ["9H"]}
    model = model_for(SINGLE)
    for seat, leans in ((0, +1), (2, -1)):
        dealt = layouts[0, :, seat].copy()
        for card in played[seat]:
            dealt[:, CARD_NAMES.index(card)] += 1
        levels = model.levels(dealt, SINGLE)
        assert leans * (weights @ levels - levels.mean()) > 10, seat
    found = hint(query, SINGLE, 40)
    assert found.auction == query.auction and found.inference is not None


@pytest.mark.parametrize(
    ("auction", "said"),
    [
        ("1:250 3:pass", "bid 2 (3:pass): seat 2 speaks there, not seat 3"),
        ("1:250 2:240", "bid 2 (2:240): bid 240: the next legal bid is 260"),
        ("1:250 2:pass 3:pass", "auction: it is not over"),
        ("1:250 2:pass 3:pass 0:pass", "seat 1 won it; the bidder, seat 0, leads"),
        ("1-250", "auction: '1-250': expected SEAT:BID or SEAT:pass"),
        ("1:lots", "bid 1 (1:lots): 'lots': expected a bid such as 250"),
        ("7:250", "auction seat"),
        (" ".join(["1:250", "2:pass"] * 150), "auction: 300 bids: an auction of more than 200"),
    ],
)
def test_an_auction_that_could_not_have_happened_is_refused_saying_where(auction, said) -> None:
    from meldcalc.errors import NotationError

    with pytest.raises(NotationError) as error:
        parse_query(f"{NO_TEN} | auction {auction}", SINGLE, Suit.SPADES)
    assert said in str(error.value)


def test_a_game_whose_hands_change_after_the_auction_does_not_read_it() -> None:
    from meldcalc.errors import NotationError

    with pytest.raises(NotationError, match="widow"):
        parse_query("AS 10S KS QS JS 9S AH KH QH AD 10D JD 9D AC 10C | auction 1:300",
                    load_variant("three-handed"), Suit.SPADES)  # fmt: skip


def test_seats_named_from_yours_need_no_seat_given_the_seat_to_play_is_yours() -> None:
    """Seat 3 is to play after three cards: ``left`` is seat 0, as --known reads it."""
    query = parse_query(
        f"{NO_TEN} | played AH 9H 9H | auction partner:250 right:pass 3:pass left:260 1:pass",
        SINGLE,
        Suit.SPADES,
    )
    assert query.auction == ((1, 250), (2, None), (3, None), (0, 260), (1, None))


def test_where_each_plays_for_himself_the_holdings_read_name_the_seats_as_given() -> None:
    """Cutthroat led by seat 2: the engines turn the position to put the bidder in seat 0
    and back; the holdings the plays moved are named as the table names them, never the
    seat asking (whose hand is no guess)."""
    cutthroat = load_variant("cutthroat")
    line = "AH KH QH 9H JS 9S AD QD AC 10C 10C KC KC QC QC JC | played AD QD JD 9H | leader 2"
    found = hint(parse_query(line, cutthroat, Suit.HEARTS), cutthroat, 200)
    assert found.seat == 0 and found.inference is not None and found.inference.moved
    assert all(seat not in (found.seat,) for seat, *_ in found.inference.moved)
    assert {seat for seat, *_ in found.inference.moved} <= {1, 2, 3} - {found.seat}


def test_a_bid_of_the_tables_system_is_read_for_what_it_shows() -> None:
    """In skip bids, seat 0's opening 53 shows 30 to 39 meld: weighed by the auction, seat
    0's hands as dealt show it in most weight, where uniformly drawn ones seldom do."""
    from meldcalc.engines.inference import Told
    from meldcalc.rules.systemfile import heard

    skip = load_variant("examples/house-skip-meld")
    hand = "AS AS 10S KS QS JS AH 10H KH QH JH JH AD 10D KD QD 10C KC QC JC"
    line = f"{hand} | leader 0 | played AC | auction 0:53 1:pass 2:pass 3:pass"
    query = parse_query(line, skip, Suit.SPADES)
    game = position(line, skip)
    layouts = sample_layouts(seen_by(game, 0), 3000, np.random.default_rng(3))[None]
    told = Told(skip, query.auction)
    weights, _, _ = weighed(log_likelihoods(game, np.array([0]), layouts, auction=told)[0])
    (seat, said), *_ = heard(skip, query.auction, 0)
    assert seat == 0 and said.meld == (30, 39)
    dealt = layouts[0, :, 0].copy()
    dealt[:, CARD_NAMES.index("AC")] += 1
    shows = said.fits(dealt, skip)
    assert shows.mean() < 0.5 and weights @ shows > 0.8, (shows.mean(), weights @ shows)
