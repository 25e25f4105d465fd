"""The bidding systems of the double-deck rules (RULES.md "Bidding systems", seed 001): every
bid the texts give, read back from the shipped tables, and the bid suggested for a hand
built to hold it; the system files checked like variant files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meldcalc.advice.systems import expected_gain, least_meld, read_auction, system_bid
from meldcalc.errors import MeldcalcError, VariantError
from meldcalc.rules.cards import Hand, Rank, Suit, parse_card, parse_suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.systemfile import load_system, system_for
from meldcalc.rules.systems import (
    BARE,
    Ask,
    auction_said,
    best_melds,
    meaning,
)
from meldcalc.rules.systems import read_auction as read_bids

SKIP = "examples/house-skip-meld"
DAVIS = "examples/house-jim-davis"
TOBY = "double-deck-toby-thomas"


def system_of(name: str):
    return system_for(load_variant(name))


# --- every bid of the texts, read back ---------------------------------------------------

#: (variant, the bids before, the bid, what it says, the meld it shows or None)
SKIP_BIDS = [
    ([], 50, "wants to name trump", None),
    ([], 51, "holds aces in other suits", None),
    ([], 52, "shows 20 meld", (20, 29)),
    ([], 53, "shows 30 meld", (30, 39)),
    ([], 58, "shows 80 meld", (80, 89)),
    ([], 60, "shows 100 meld", (100, None)),  # the top of the system: 100 or more
    ([52], 55, "shows 30 meld", (30, 39)),  # the texts' own example
    ([52], 53, "wants to name trump", None),
    ([52, None], 54, "shows 20 meld", (20, 29)),  # a pass changes nothing
    ([50, 51], 56, "shows 50 meld", (50, 59)),
]


@pytest.mark.parametrize(("before", "bid", "says", "meld"), SKIP_BIDS)
def test_skip_bids_show_meld_ten_a_point_as_the_texts_say(before, bid, says, meld) -> None:
    said = meaning(system_of(SKIP), before, bid)
    assert (said.says, said.meld) == (says, meld)
    assert said.wants_trump == (says == "wants to name trump")


def test_skip_bids_above_sixty_are_bare_numbers() -> None:
    assert meaning(system_of(SKIP), [55], 65).says == BARE
    assert meaning(system_of(SKIP), [55], 65).bare


DAVIS_BIDS = [
    ([], 50, "opens the bidding"),
    ([50], 51, "is not ready to pass yet"),
    ([], 52, "has some meld"),
    ([], 53, "has several pinochle parts (jacks or queens)"),
    ([], 55, "needs jacks in every suit"),
    *[([bid - 4], bid, "needs a jack") for bid in (54, 64, 74)],
    *[([bid - 4], bid, "needs a queen") for bid in (56, 66, 76)],
    *[([bid - 4], bid, "needs a king") for bid in (58, 68, 78)],
    *[([bid - 4], bid, "needs a ten") for bid in (59, 69, 79)],
    *[([bid - 4], bid, "needs an ace") for bid in (60, 70, 80)],
    ([], 66, "needs queens in every suit"),  # a jump: 56 could be bid
    ([52], 66, "needs queens in every suit"),
    ([60], 66, "needs a queen"),  # the next bid ending in 6: no jump
    ([], 80, "needs kings in every suit"),
    ([65], 80, "needs kings in every suit"),
    ([70], 80, "needs an ace"),  # the texts' warning: from 70, 80 asks for an ace ...
    ([70], 88, "needs kings in every suit"),  # ... and 88 for every king
    ([80], 88, "needs a king"),
    ([], 100, "needs aces in every suit"),
    ([95], 100, "needs an ace"),
    ([50], 57, BARE),
]


@pytest.mark.parametrize(("before", "bid", "says"), DAVIS_BIDS)
def test_jim_davis_bids_ask_for_cards_as_the_texts_say(before, bid, says) -> None:
    assert meaning(system_of(DAVIS), before, bid).says == says


def test_jim_davis_asks_say_which_cards() -> None:
    davis = system_of(DAVIS)
    assert meaning(davis, [], 54).asks == Ask((Rank.JACK,))
    assert meaning(davis, [], 55).asks == Ask((Rank.JACK,), every_suit=True)
    assert meaning(davis, [70], 88).asks == Ask((Rank.KING,), every_suit=True)
    assert meaning(davis, [], 52).meld == (20, None)
    assert meaning(davis, [], 53).holds.at_least == 3


STANDARD = "asks for the standard set (a marriage and an ace)"
KQA = Ask((Rank.KING, Rank.QUEEN, Rank.ACE))
TOBY_BIDS = [
    ([], 26, "asks for queens", Ask((Rank.QUEEN,))),
    ([], 36, "asks for queens", Ask((Rank.QUEEN,))),
    ([], 28, "asks for kings", Ask((Rank.KING,))),
    ([30], 48, "asks for kings", Ask((Rank.KING,))),
    ([], 30, "asks for tens", Ask((Rank.TEN,))),
    ([], 40, "asks for tens", Ask((Rank.TEN,))),
    ([], 31, "asks for aces", Ask((Rank.ACE,))),
    ([], 41, "asks for aces", Ask((Rank.ACE,))),
    ([], 25, STANDARD, KQA),
    ([], 47, STANDARD, KQA),
    ([], 50, f"{STANDARD} and shuts the others out", KQA),
    ([30], 50, BARE, None),  # only an opening 50 shuts out
]


@pytest.mark.parametrize(("before", "bid", "says", "asks"), TOBY_BIDS)
def test_toby_thomas_bids_say_what_to_pass_as_the_texts_say(before, bid, says, asks) -> None:
    said = meaning(system_of(TOBY), before, bid)
    assert (said.says, said.asks) == (says, asks)
    assert said.shuts_out == (bid == 50 and not before)


def test_a_bid_not_above_the_one_before_has_no_meaning() -> None:
    with pytest.raises(MeldcalcError, match="bid 52 after 53: a bid must be higher"):
        meaning(system_of(SKIP), [53], 52)


def test_an_auction_is_read_bid_by_bid_passes_left_as_they_are() -> None:
    said = read_bids(system_of(SKIP), [52, None, 55])
    assert said[1] is None
    assert [s.says for s in (said[0], said[2])] == ["shows 20 meld", "shows 30 meld"]


# --- the bid suggested for a hand built to hold it ---------------------------------------

#: Cards that meld nothing, to fill a hand around the cards that make the point: tens
#: (tens around score nothing), then aces of two suits.
FILLERS = [f"10{suit}" for suit in "SHDC" for _ in range(4)] + ["AS", "AS", "AD", "AD"]


def built(core: str, avoid: str = "") -> Hand:
    """A whole double-deck hand: ``core``, filled with `FILLERS` (none of suits ``avoid``)."""
    cards = core.split()
    for card in FILLERS:
        if len(cards) == 20:
            break
        if card[-1] not in avoid and cards.count(card) < 4:
            cards.append(card)
    return Hand.parse(" ".join(cards))


#: (variant, the cards that make the point, suits the fillers avoid, bids before, the
#: hand's ceiling, the trump it would name, the bid suggested, what it says)
SUGGESTED = [
    (SKIP, "KH QH AS AS", "", [], 58, "H", 50, "wants to name trump"),
    (SKIP, "AS AS AH JS", "", [], 58, None, 51, "holds aces in other suits"),
    (SKIP, "KH QH KS QS KD QD KC QC JD", "", [], 58, "H", 52, "shows 20 meld"),
    (SKIP, "QS QS JD JD", "", [], 58, None, 53, "shows 30 meld"),
    (SKIP, "QS QS JD JD", "", [52], 58, None, 55, "shows 30 meld"),
    (SKIP, "KH QH AS AS", "", [52], 58, "H", 53, "wants to name trump"),
    (SKIP, "AS AS AH AH AD AD AC AC QS QS JD JD", "", [], 60, None, 60, "shows 100 meld"),
    (DAVIS, "KH QH", "", [], 50, "H", 50, "opens the bidding"),
    (DAVIS, "KH QH", "", [50], 51, "H", 51, "is not ready to pass yet"),
    (DAVIS, "KH QH KS QS KD QD KC QC JD", "", [], 52, "H", 52, "has some meld"),
    (DAVIS, "QS QS JD", "", [], 53, "D", 53, "has several pinochle parts (jacks or queens)"),
    (DAVIS, "QS QS JD", "", [], 54, "D", 54, "needs a jack"),
    (DAVIS, "QS QS JD", "", [60], 64, "D", 64, "needs a jack"),
    (DAVIS, "QS QS JD", "", [70], 74, "D", 74, "needs a jack"),
    (DAVIS, "JS JS JH JH JD JD JC", "", [], 55, "S", 55, "needs jacks in every suit"),
    (DAVIS, "QS JD JD", "", [], 56, "S", 56, "needs a queen"),
    (DAVIS, "KH QH QH", "", [], 58, "H", 58, "needs a king"),
    (DAVIS, "AH KH QH JH", "H", [], 59, "H", 59, "needs a ten"),
    (DAVIS, "10H KH QH JH", "H", [], 60, "H", 60, "needs an ace"),
    (DAVIS, "10H KH QH JH", "H", [70], 80, "H", 80, "needs an ace"),
    (DAVIS, "QS QS QH QH QD QD QC", "", [], 66, "S", 66, "needs queens in every suit"),
    (DAVIS, "KS KS KH KH KD KD KC", "", [], 80, "S", 80, "needs kings in every suit"),
    (DAVIS, "KS KS KH KH KD KD KC", "", [70], 90, "S", 88, "needs kings in every suit"),
    (DAVIS, "AS AS AH AH AD AD AC", "", [], 100, "S", 100, "needs aces in every suit"),
    (TOBY, "QS JD JD", "", [], 45, "S", 26, "asks for queens"),
    (TOBY, "KH QH QH", "", [], 45, "H", 28, "asks for kings"),
    (TOBY, "AH AH AH AH KH QH JH", "H", [], 45, "H", 30, "asks for tens"),
    (TOBY, "10H KH KH KH KH QH QH QH QH JH", "H", [], 45, "H", 31, "asks for aces"),
    (TOBY, "AH 10H JH JS", "H", [], 45, "H", 25, STANDARD),
    (TOBY, "AH 10H JH JS", "H", [], 60, "H", 50, f"{STANDARD} and shuts the others out"),
]


@pytest.mark.parametrize(
    ("name", "core", "avoid", "before", "ceiling", "trump", "bid", "says"),
    SUGGESTED,
    ids=[f"{case[0].split('/')[-1]}-{case[6]}-after-{case[3]}" for case in SUGGESTED],
)
def test_the_bid_suggested_for_a_hand_built_to_hold_it(
    name, core, avoid, before, ceiling, trump, bid, says
) -> None:
    variant = load_variant(name)
    held = built(core, avoid)
    assert len(held) == variant.hand_size
    found = system_bid(
        held, variant, system_for(variant), before, ceiling, parse_suit(trump) if trump else None
    )
    assert (found.bid, found.meaning.says) == (bid, says), found.sentence()
    assert found.meaning.fits(np.array([held.counts]), variant)[0]


def test_a_skip_bid_never_shows_meld_the_hand_lacks() -> None:
    """34 meld and a hand that goes to 54: 53 shows it; with a ceiling of 52 no skip bid
    shows it, so the hand wants trump rather than show 20 meld it does not hold."""
    variant = load_variant(SKIP)
    hand = built("KH QH QS QS JD JD")
    assert system_bid(hand, variant, system_for(variant), [], 54).bid == 53
    assert system_bid(hand, variant, system_for(variant), [], 52).bid == 50


def test_no_bid_above_the_ceiling_and_a_pass_says_why() -> None:
    variant = load_variant(SKIP)
    hand = built("QS QS JD JD")
    found = system_bid(hand, variant, system_for(variant), [55], 55)
    assert found.bid is None
    assert found.sentence() == "Now (skip-meld): pass: your hand goes to 55, not 56."


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31 - 1),
    name=st.sampled_from([SKIP, DAVIS, TOBY]),
    bids=st.integers(0, 3),
    ceiling=st.integers(0, 40),
)
def test_the_suggested_bid_is_legal_within_the_ceiling_and_fits_the_hand(
    seed, name, bids, ceiling
) -> None:
    """Whatever the hand and the auction, the system's bid is a legal one at or above the
    auction's level, never above the hand's ceiling, and says only what the hand holds."""
    from meldcalc.dealing.deal import deal_counts

    variant = load_variant(name)
    rng = np.random.default_rng(seed)
    hand = Hand(deal_counts(variant, 1, rng)[0, 0].tolist())
    bidding, auction = variant.bidding, []
    for _ in range(bids):
        auction.append(bidding.opening if not auction else bidding.next_bid(auction[-1]))
    level = bidding.opening if not auction else bidding.next_bid(auction[-1])
    top = bidding.last_at_most(level + ceiling)
    found = system_bid(hand, variant, system_for(variant), auction, top)
    if found.bid is None:
        return
    assert level <= found.bid <= top and bidding.first_at_least(found.bid) == found.bid
    assert found.meaning.bare or found.meaning.fits(np.array([hand.counts]), variant)[0]


# --- the readings of a hand --------------------------------------------------------------


def test_a_meld_shown_fits_exactly_the_hands_whose_best_meld_lies_in_it() -> None:
    from meldcalc.dealing.deal import deal_counts

    variant = load_variant(SKIP)
    hands = deal_counts(variant, 300, np.random.default_rng(4))[:, 0]
    best = best_melds(hands, variant)
    fits = meaning(system_of(SKIP), [], 52).fits(hands, variant)
    assert np.array_equal(fits, (best >= 20) & (best <= 29))
    assert 0 < fits.sum() < len(hands)


def test_a_card_asked_for_is_one_that_would_add_to_the_askers_meld() -> None:
    variant = load_variant(DAVIS)
    single = built("QS QS JD")  # a second J♦ doubles the pinochle
    asks = meaning(system_of(DAVIS), [], 54)
    assert asks.fits(np.array([single.counts]), variant)[0]
    tens = built("")
    assert not asks.fits(np.array([tens.counts]), variant)[0]


def test_a_card_asked_for_is_weighed_by_the_chance_the_partner_holds_it() -> None:
    variant = load_variant(DAVIS)
    hand = np.array([built("JS JS JH JH JD JD JC").counts])  # J♣ once
    one = expected_gain(Ask((Rank.JACK,)), hand, variant, Suit.CLUBS)[0]
    every = expected_gain(Ask((Rank.JACK,), every_suit=True), hand, variant)[0]
    assert 0 < every < 32 and 0 < one < 36  # the gains, less the chance of their cards
    assert least_meld(variant) == 2  # a marriage: an ask must be worth at least that


def test_what_the_auction_says_to_the_bid_model_counts_seats_from_yours() -> None:
    variant = load_variant("double-deck")
    said = auction_said(variant.bidding, 4, [(0, 52), (1, None), (2, 55)], me=2)
    assert said == ((2, 52, None), (3, None, 53))  # partner bid 52; right passed at 53


# --- --auction ---------------------------------------------------------------------------


def test_an_auction_typed_names_the_seat_to_bid_next() -> None:
    variant = load_variant(SKIP)
    auction = read_auction("52 pass, 55", variant)
    assert auction.bids == ((0, 52), (1, None), (2, 55)) and auction.to_speak == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("52 x", "--auction: bid 2 ('x'): 'x': expected a bid such as 50"),
        ("52 51", "--auction: bid 2 ('51'): bid 51: the next legal bid is 53 (or pass)"),
        ("52 pass pass pass", "the auction is over: no bid is left to make"),
    ],
)
def test_a_bad_auction_is_one_line_naming_the_bid(text, message) -> None:
    with pytest.raises(MeldcalcError) as error:
        read_auction(text, load_variant(SKIP))
    assert message in str(error.value)


# --- the system files ----------------------------------------------------------------------


def test_every_shipped_system_loads_and_the_variants_name_theirs() -> None:
    for name in ("skip-meld", "jim-davis", "toby-thomas"):
        assert load_system(name).name == name
    assert load_variant(TOBY).bidding.system == "toby-thomas"
    assert load_variant("double-deck").bidding.system is None
    assert system_for(load_variant("double-deck")) is None


GOOD = "system: ours\ntitle: Our bids\nsource: us\nbids:\n"


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        (
            "  - bid: 52\n    says: x\n    colour: red\n",
            "7:5: bids[0].colour: unknown key 'colour'",
        ),
        (
            "  - bid: 52\n    says: x\n    asks: {rank: X}\n",
            "7:18: bids[0].asks.rank: expected a rank",
        ),
        ("  - jump: true\n    says: x\n", "5:11: bids[0].jump: a jump needs the bid it jumps to"),
        ("  - says: x\n", "5:5: bids[0]: expected at least one of bid, ending, when, raise, jump"),
        (
            "  - bid: 52\n    says: shows {melds}\n",
            "6:11: bids[0].says: unknown placeholder {melds}",
        ),
        (
            "  - bid: 52\n    says: x\n    meld: {per_point: 10}\n",
            "bids[0].meld: per_point needs 'above'",
        ),
        (
            "  - when: opening\n    says: x\n    meld: {per_point: 10, above: high}\n",
            "bids[0].meld.above: above: high needs a bid before it",
        ),
        ("  - bid: {from: 60, to: 50}\n    says: x\n", "bids[0].bid.to: to 50 is below from 60"),
        ("  - bid: 52\n    says: x\n    says: y\n", "bids[0].says: duplicate key 'says'"),
    ],
)
def test_a_bad_system_file_is_told_like_a_bad_variant_file(tmp_path, entries, problem) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text(GOOD + entries)
    with pytest.raises(VariantError) as error:
        load_system(path)
    assert any(problem in line and line.startswith(str(path)) for line in error.value.problems)


def test_a_house_file_names_its_own_system_from_its_folder(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "ours.yaml").write_text(GOOD + "  - bid: 50\n    says: opens\n")
    house = folder / "house.yaml"
    house.write_text(
        "name: house\nextends: double-deck\ntitle: t\nsource: s\nbidding:\n  system: ours.yaml\n"
    )
    monkeypatch.chdir(tmp_path)
    variant = load_variant(str(house))
    assert Path(variant.bidding.system).is_absolute()
    assert meaning(system_for(variant), [], 50).says == "opens"


@pytest.mark.parametrize(
    ("system", "problem"),
    [
        ("skip-meeld", "bidding.system: unknown bidding system 'skip-meeld': expected one of"
         " jim-davis, skip-meld, toby-thomas, or a path to a system file; did you mean"
         " 'skip-meld'?"),
        ("./missing.yaml", "/missing.yaml: no such system file"),
    ],
)  # fmt: skip
def test_a_variant_naming_no_system_there_is_is_refused_at_its_key(tmp_path, system, problem):
    house = tmp_path / "house.yaml"
    house.write_text(
        f"name: house\nextends: double-deck\ntitle: t\nsource: s\nbidding:\n  system: {system}\n"
    )
    with pytest.raises(VariantError) as error:
        load_variant(str(house))
    assert error.value.problems[0].endswith(problem)
    assert error.value.problems[0].startswith(f"{house}:6:11: ")


# --- what the others said, in the deals and the pass -------------------------------------


def test_partners_shown_meld_is_held_by_every_hand_dealt_to_it() -> None:
    """Partner opened 53 (skip bids: 30 to 39 meld): every layout the bid simulates gives
    seat 2 a hand whose best meld lies there, and no other layout."""
    from meldcalc.advice.systems import auction_knowledge
    from meldcalc.dealing.knowledge import TableKnowledge
    from meldcalc.dealing.layouts import deal_consistent

    variant = load_variant(SKIP)
    hand = built("KH QH QS QS JD JD")
    told = auction_knowledge(variant, [(0, 53), (1, None)], 2, TableKnowledge())
    assert [(seat, said.says) for seat, said in told.meanings] == [(2, "shows 30 meld")]
    assert "partner bid 53: shows 30 meld (skip-meld)" in told.describe(variant)
    dealt = deal_consistent(hand, variant, told, 200, np.random.default_rng(3), [Suit.HEARTS])
    partner = best_melds(dealt.counts[Suit.HEARTS][:, 2], variant)
    assert ((partner >= 30) & (partner <= 39)).all()


def test_a_card_asked_for_is_one_the_askers_dealt_hands_would_meld_with() -> None:
    from meldcalc.advice.systems import auction_knowledge
    from meldcalc.dealing.knowledge import TableKnowledge
    from meldcalc.dealing.layouts import deal_consistent

    variant = load_variant(DAVIS)
    told = auction_knowledge(variant, [(0, 54)], 1, TableKnowledge())  # right needs a jack
    dealt = deal_consistent(
        built("KH QH"), variant, told, 100, np.random.default_rng(5), [Suit.HEARTS]
    )
    right = dealt.counts[Suit.HEARTS][:, 3]
    from meldcalc.rules.systems import ask_gain

    assert (ask_gain(Ask((Rank.JACK,)), right, variant) > 0).all()


def test_the_pass_gives_first_what_the_others_bid_asked_for() -> None:
    from meldcalc.dealing.passing import bidder_returns, partner_sends

    variant = load_variant(DAVIS)
    partner = np.array(
        [Hand.parse("JS JH JD QS AS AS 10S 10S KS KH QH AH 10H 10D AD KD QD AC 10C KC").counts]
    )
    plain = Hand(partner_sends(partner, variant, Suit.SPADES)[0].tolist())
    asked = Hand(partner_sends(partner, variant, Suit.SPADES, wanted=Ask((Rank.JACK,)))[0].tolist())
    assert plain.notation(Suit.SPADES) == "AS AS 10S 10S"  # trumps from the top
    assert asked.notation(Suit.SPADES) == "AS AS 10S JH"  # J♠ is in its run: J♥ goes
    back = Hand(bidder_returns(partner, variant, Suit.SPADES, Ask((Rank.ACE,)))[0].tolist())
    assert back.count(parse_card("AS")) == 1  # its only ace outside its meld


def test_under_the_exchange_the_asked_ranks_of_the_suit_named_go_first() -> None:
    from meldcalc.dealing.passing import partner_sends

    variant = load_variant(TOBY)
    queens = Ask((Rank.QUEEN,))
    partner = np.array([built("AS QS QS KH").counts])
    sent = partner_sends(partner, variant, Suit.SPADES, Suit.SPADES, queens)
    assert Hand(sent[0].tolist()).notation(Suit.SPADES) == "AS QS QS"  # not A 10 10
    short = np.array([built("AS QS QS KH", avoid="H").counts])  # one ♥: the K
    sent = partner_sends(short, variant, Suit.HEARTS, Suit.HEARTS, queens)
    assert Hand(sent[0].tolist()).notation(Suit.HEARTS) == "KH QS QS"  # then queens


# --- the commands ---------------------------------------------------------------------------


def run(*args: str, input: str | None = None):
    from typer.testing import CliRunner

    from meldcalc.cli import app

    return CliRunner().invoke(app, list(args), input=input)


STRONG = "AS 10S KS QS JS AH 10H KH QH JH AD 10D KD QD JD AC 10C KC QC JC"  # meld 53


def test_bid_names_the_systems_bid_now_and_reads_the_auction_into_the_deals() -> None:
    args = ("bid", STRONG, "-V", SKIP, "-s", "7", "-n", "300")
    alone = run(*args, "-f", "json")
    heard = run(*args, "--auction", "53 pass", "-f", "json")
    assert alone.exit_code == heard.exit_code == 0, heard.stderr
    alone, heard = json.loads(alone.stdout), json.loads(heard.stdout)
    assert (alone["system"]["bid"], alone["system"]["meaning"]["says"]) == (55, "shows 50 meld")
    assert (heard["system"]["bid"], heard["system"]["level"]) == (58, 54)  # a raise of 4
    said = heard["knowledge"]["system"]
    assert [(s["seat"], s["bid"], s["meld"]) for s in said] == [(2, 53, {"min": 30, "max": 39})]
    # partner's 53 raises its meld in the deals, and the odds of every level
    before = {r["trump"]: r["partner_meld"]["mean"] for r in alone["results"]}
    after = {r["trump"]: r["partner_meld"]["mean"] for r in heard["results"]}
    assert all(after[t] > before[t] + 5 for t in before)
    assert heard["suggested_bid"] > alone["suggested_bid"]
    table = run(*args, "--auction", "53 pass")
    assert "Now (skip-meld): bid 58: shows 50 meld (your meld is 53); your hand can go to" in (
        table.stdout
    )


def test_bid_explain_reads_the_auction_and_every_bid_it_could_make() -> None:
    result = run(
        "bid", STRONG, "-V", SKIP, "-s", "7", "-n", "100", "--auction", "53 pass", "--explain"
    )
    assert result.exit_code == 0, result.stderr
    assert (
        "partner bid 53 (skip-meld: shows 30 meld): the deals give partner a hand where its"
        " best meld is 30 to 39."
    ) in result.stdout
    assert "  55: shows 20 meld: no: your meld is 53, not 20 to 29" in result.stdout
    assert "  58: shows 50 meld: fits  <- the bid to make" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--auction", "52 x"), "--auction: bid 2 ('x'): 'x': expected a bid such as 50"),
        (("--auction", "52 pass", "--seat", "0"), "after '52 pass' seat 2 bids next, but --seat"),
    ],
)
def test_a_bad_auction_is_refused_in_one_line(args, message) -> None:
    result = run("bid", STRONG, "-V", SKIP, "-n", "10", *args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_bid_says_whether_the_pass_back_gives_what_partner_asked_for() -> None:
    hand = built("QS QS JD KH QH AH")
    result = run(
        "bid", hand.notation(), "-V", DAVIS, "-s", "2", "-n", "100", "--auction", "56 pass"
    )
    assert result.exit_code == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("Partner asked"))
    assert line.startswith("Partner asked for a queen (bid 56): ")


def test_table_shows_a_system_and_a_variant_its_system() -> None:
    alone = run("table", "jim-davis")
    assert alone.exit_code == 0
    assert "a jump to 80 or 88  needs kings in every suit" in alone.stdout
    whole = run("table", TOBY)
    assert "Bidding system: toby-thomas" in whole.stdout
    assert json.loads(run("table", TOBY, "-f", "json").stdout)["system"]["system"] == "toby-thomas"
    assert json.loads(run("table", "double-deck", "-f", "json").stdout)["system"] is None
    assert run("table", "skip-meld", "-f", "yaml").stdout.startswith("# Skip bids that show meld")


def test_check_checks_a_system_file_as_it_checks_a_variant(tmp_path) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(GOOD + "  - bid: 50\n    says: opens\n")
    bad.write_text(GOOD + "  - says: x\n")
    result = run("check", str(good), str(bad))
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        f"{good}: ok (ours: Our bids)",
        f"{bad}:5:5: bids[0]: expected at least one of bid, ending, when, raise, jump: which"
        " bids the entry reads",
    ]


def test_the_session_names_the_systems_bid_and_what_partner_asked_to_be_passed(tmp_path):
    from sessions import run_game

    steps = [f"hand {STRONG}", "pass", "pass", "26", "pass", "ask S"]
    done = run_game(tmp_path / "g.jsonl", steps, "-V", TOBY, "--seed", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    prompt = next(line for line in lines if line.startswith("no bid yet; you to bid"))
    assert prompt.endswith(
        "; toby-thomas: bid 50 (asks for the standard set (a marriage and an ace) and shuts"
        " the others out)"
    )
    assert lines[-1] == (
        "pass 3 cards to seat 2 (partner): give CARDS (seat 2 (partner) asked for a queen"
        " (bid 26): give AS 10S QS)"
    )
