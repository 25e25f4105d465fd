"""What a bidding system is worth: the same deals bid by the system and by bare numbers.

For each system, its game (skip-meld: double deck, `examples/house-skip-meld`; jim-davis:
double deck with steps of 1 and a plain pass of four, `examples/house-jim-davis`;
toby-thomas: `double-deck-toby-thomas`, with its card exchange) deals ``--deals`` random
deals, the dealer turning round the table. Every deal is played twice, duplicate: once
with seats 0 and 2 bidding and reading the system against seats 1 and 3 bidding bare
numbers, once the other way round; the players are the same otherwise.

- Every seat values its hand by the fast bid model (`dealing.bidmodel`, the level a hand
  would bid to under its best trump it may name; the table's equity works from the same).
- A bare-number seat bids the next legal bid while its hand goes there, and passes rather
  than bid over its partner (`advice.tablehands.auction`'s rule); it reads nothing.
- A system seat bids what `advice.systems.system_bid` suggests at its turn, up to its
  ceiling: the model's level moved by what its partner's bids said, the mean best meld of
  hands that fit every reading of them (`Meaning.fits`, over a pool of random hands) less
  the mean of all hands (the model's level counts the average partner). Over its partner
  it bids only a bid that shows meld (the point of skip bids); else it passes.
- The winner names its best trump (the model's), the pass is made by the passing policy
  (`dealing.passing`), a system side giving first what its bids asked for (under the
  exchange the bidder asks for its trump suit), every seat melds, and the deal is played
  out by the fixed yardstick (bench/yardstick.py, meldcalc 0.2.0's policy) in every seat;
  the hand is scored as `meldcalc score` scores it (made, set, no marriage in trump).

Printed per system: each side's points per hand (meld and tricks scored, less bids lost),
the system side's edge (the difference, paired by deal, ± one standard error), the share of
hands each side bid and the share of those it was set, and games won: the deals in order
make games to the variant's target (500), in both seatings.

Usage: python bench/systems.py [--systems skip-meld,jim-davis,toby-thomas] [--deals N]
       [--seed S] [--pool P] [--no-asks] [--no-reading]

--no-asks: a system side's pass ignores what its bids asked for; --no-reading: a system
seat's ceiling ignores what its partner's bids said (each, to see what that part is worth).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from meldcalc.advice.systems import choose, expected_gain, least_meld
from meldcalc.advice.tablehands import deal_hands, scored_fast
from meldcalc.dealing.bidmodel import model_for
from meldcalc.dealing.passing import after_pass, passes
from meldcalc.rules.auction import Auction
from meldcalc.rules.cards import SUITS
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import engine_for
from meldcalc.rules.systemfile import system_for
from meldcalc.rules.systems import System, meaning
from meldcalc.rules.variant import Variant

sys.path.insert(0, str(Path(__file__).parent))
from games import Deals, new_game
from yardstick import Yardstick

GAMES = {
    "skip-meld": "examples/house-skip-meld",
    "jim-davis": "examples/house-jim-davis",
    "toby-thomas": "double-deck-toby-thomas",
}
PLAYERS = 4
#: Whether a system side's pass gives what its bids asked for (--no-asks: not, to see
#: what the bids' information is worth without it)
ASKS = True
#: Whether a system seat moves its ceiling by what its partner's bids said (--no-reading:
#: not, to see what reading them is worth)
READING = True


@dataclass
class Readings:
    """Each reading of a bid, judged once on every hand dealt (fits, what its ask adds)
    and on a pool of random hands (for the partner's meld it implies)."""

    variant: Variant
    hands: np.ndarray  # (N, 4, 24)
    trumps: np.ndarray  # (N, 4): the suit each seat would name
    pool: np.ndarray  # (P, 24)
    judged: dict = field(default_factory=dict)
    pooled: dict = field(default_factory=dict)
    shifts: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        # the partner's meld as the bid model counts it: under the bidder's trump, a suit
        # chosen without looking at the partner's hand (the mean over the four)
        totals = engine_for(self.variant).totals(self.pool)
        self.pool_meld = np.mean([totals[suit] for suit in SUITS], axis=0)

    def judge(self, said: object, deal: int, seat: int) -> tuple[bool, float]:
        """Whether the seat's hand fits the bid, and what its ask adds in the seat's trump
        (as `advice.systems.system_bid` judges it)."""
        key = said.reading
        if key not in self.judged:
            flat = self.hands.reshape(-1, self.hands.shape[-1])
            fits = said.fits(flat, self.variant)
            gain = np.zeros(len(flat))
            if said.asks:
                trump = self.trumps.reshape(-1)
                for suit in SUITS:
                    rows = trump == suit.index
                    gain[rows] = expected_gain(said.asks, flat[rows], self.variant, suit)
                fits &= gain >= least_meld(self.variant)
            shape = self.hands.shape[:2]
            self.judged[key] = (fits.reshape(shape), gain.reshape(shape))
        fits, gain = self.judged[key]
        return bool(fits[deal, seat]), float(gain[deal, seat])

    def shift(self, told: list) -> float:
        """The partner's meld the readings ``told`` imply, less the average partner's."""
        key = tuple(sorted({said.reading for said in told}, key=repr))
        if not key:
            return 0.0
        if key not in self.shifts:
            agree = np.ones(len(self.pool), dtype=bool)
            for said in told:
                if said.reading not in self.pooled:
                    self.pooled[said.reading] = said.fits(self.pool, self.variant)
                agree &= self.pooled[said.reading]
            kept = self.pool_meld[agree]
            mean = kept.mean() if len(kept) else self.pool_meld.mean()
            self.shifts[key] = float(mean - self.pool_meld.mean())
        return self.shifts[key]


@dataclass
class Bid:
    """One deal's auction at one table: the winner (-1: none), the contract, and each
    seat's bids read by the system (seat, meaning)."""

    winner: int
    contract: int
    said: list


def auction(
    deal: int,
    dealer: int,
    system_seats: tuple[int, ...],
    levels: np.ndarray,
    system: System,
    readings: Readings,
) -> Bid:
    """The deal's auction, each seat by its policy (module docstring)."""
    variant = readings.variant
    bidding = variant.bidding
    state = Auction(bidding, PLAYERS, dealer)
    spoken: list[int | None] = []
    said: list = []
    while (seat := state.to_speak) is not None:
        lowest = state.lowest
        partner_high = state.high is not None and state.high[1] == (seat + 2) % PLAYERS
        level = float(levels[deal, seat])
        if seat in system_seats and READING:
            partner = [m for s, m in said if s == (seat + 2) % PLAYERS and m.tells]
            level += readings.shift(partner)
        ceiling = bidding.last_at_most(int(np.floor(level))) if np.isfinite(level) else None
        bid = None
        if ceiling is not None and ceiling >= lowest:
            if seat in system_seats:
                bid = _system_choice(
                    system, spoken, ceiling, lowest, partner_high, readings, deal, seat
                )
            elif not partner_high:
                bid = lowest
        state = state.say(bid)
        made = state.bids[-1][1]
        if made is not None:
            said.append((seat, meaning(system, spoken, made)))
        spoken.append(made)
    if state.winner is None:
        return Bid(-1, 0, said)
    return Bid(state.winner, state.high[0], said)


def _system_choice(
    system: System,
    spoken: list,
    ceiling: int,
    lowest: int,
    partner_high: bool,
    readings: Readings,
    deal: int,
    seat: int,
) -> int | None:
    bidding = readings.variant.bidding
    candidates = (
        (meaning(system, spoken, bid), lambda m: readings.judge(m, deal, seat))
        for bid in bidding.levels(ceiling, lowest)
    )
    # (a card asked for is judged in the suit the seat would name trump: `system_bid`)
    chosen = choose(candidates)
    if chosen is None or (partner_high and chosen.meld is None):
        return None
    return chosen.bid


def play(
    variant: Variant, hands: np.ndarray, bids: list[Bid], dealers: np.ndarray, system_seats: tuple
) -> np.ndarray:
    """(N, 2) points each side (seats 0-2, 1-3) scores on each deal as bid in ``bids``."""
    model = model_for(variant)
    count = len(hands)
    points = np.zeros((count, 2), dtype=np.int64)
    played = [i for i, bid in enumerate(bids) if bid.winner >= 0]
    rows = np.array(played)
    winners = np.array([bids[i].winner for i in played])
    contracts = np.array([bids[i].contract for i in played])
    seats = (winners[:, None] + np.arange(PLAYERS)) % PLAYERS  # the bidder in seat 0
    dealt = hands[rows[:, None], seats]
    by_trump = model.levels_by_trump(dealt[:, 0], variant)
    stacked = np.stack([by_trump[suit] for suit in SUITS], axis=1)
    trumps = stacked.argmax(axis=1)
    marriage = np.isfinite(stacked.max(axis=1))
    system_side = np.isin(winners, system_seats)
    wants = [
        _wants(bids[i], variant) if side and ASKS else (None, None)
        for i, side in zip(played, system_side)
    ]
    ready = dealt.copy()
    if variant.passing is not None:
        keys = {}
        for k, (trump, want) in enumerate(zip(trumps, wants)):
            keys.setdefault((int(trump), want), []).append(k)
        for (trump, want), group in keys.items():
            group = np.array(group)
            suit = SUITS[trump]
            ask = suit if variant.passing.kind == "exchange" else None
            chosen = passes(dealt[group], variant, suit, ask, wants=want)
            ready[group] = after_pass(dealt[group], *chosen)
    engine = engine_for(variant)
    melds = np.zeros((len(rows), PLAYERS), dtype=np.int64)
    for seat in range(PLAYERS):
        totals = engine.totals(ready[:, seat])
        melds[:, seat] = np.stack([totals[s] for s in SUITS], axis=1)[np.arange(len(rows)), trumps]
    deals = Deals(ready, trumps, melds[:, 0] + melds[:, 2], np.zeros(len(rows), dtype=np.int64))
    tricks = new_game(variant, deals, Yardstick).play().team_points
    side_meld = np.stack([melds[:, 0] + melds[:, 2], melds[:, 1] + melds[:, 3]], axis=1)
    scored = scored_fast(variant, contracts, side_meld, tricks)[:, :2]
    lost = ~marriage  # no marriage in trump: not played, the bid lost, no one counts meld
    scored[lost] = np.column_stack([-contracts[lost], np.zeros(lost.sum(), dtype=np.int64)])
    bidder_side = winners % 2
    points[rows, bidder_side] = scored[:, 0]
    points[rows, 1 - bidder_side] = scored[:, 1]
    return points


def _wants(bid: Bid, variant: Variant) -> tuple:
    """What the bidder's bids asked its partner for, and the partner's the bidder."""

    def last(seat: int) -> object:
        asks = [m.asks for s, m in bid.said if s == seat and m.asks is not None]
        return asks[-1] if asks else None

    return last(bid.winner), last((bid.winner + 2) % PLAYERS)


def games(points: np.ndarray, bidders: np.ndarray, target: int) -> tuple[int, int]:
    """The deals in order as games to ``target``: (games won by side 0, games played); of
    two sides over the target on one hand the bidding side wins."""
    score, won, played = np.zeros(2, dtype=np.int64), 0, 0
    for hand, bidder in zip(points, bidders):
        score += hand
        if score.max() >= target:
            over = score >= target
            winner = bidder % 2 if over.all() and bidder >= 0 else int(score.argmax())
            won += winner == 0
            played += 1
            score[:] = 0
    return won, played


def bench(name: str, count: int, seed: int, pool_size: int) -> dict:
    variant = load_variant(GAMES[name])
    system = system_for(variant)
    rng = np.random.default_rng(seed)
    hands = deal_hands(variant, count, rng)[:, :PLAYERS]
    pool = deal_hands(variant, pool_size // PLAYERS + 1, rng)[:, :PLAYERS].reshape(-1, 24)
    model = model_for(variant)
    by_seat = [model.levels_by_trump(hands[:, seat], variant) for seat in range(PLAYERS)]
    stacked = np.stack([np.stack([by[s] for s in SUITS], axis=1) for by in by_seat], axis=1)
    levels, trumps = stacked.max(axis=2), stacked.argmax(axis=2)
    readings = Readings(variant, hands, trumps, pool[:pool_size])
    dealers = np.arange(count) % PLAYERS
    tables = {}
    for system_seats in ((0, 2), (1, 3)):
        bids = [
            auction(d, int(dealers[d]), system_seats, levels, system, readings)
            for d in range(count)
        ]
        points = play(variant, hands, bids, dealers, system_seats)
        tables[system_seats] = (bids, points)
    return summarise(variant, tables)


def summarise(variant: Variant, tables: dict) -> dict:
    (bids_a, points_a), (bids_b, points_b) = tables[(0, 2)], tables[(1, 3)]
    system = (points_a[:, 0] + points_b[:, 1]) / 2
    bare = (points_a[:, 1] + points_b[:, 0]) / 2
    edge = system - bare
    found = {
        "deals": len(edge),
        "system": system.mean(),
        "bare": bare.mean(),
        "edge": edge.mean(),
        "edge_se": edge.std(ddof=1) / np.sqrt(len(edge)),
    }
    for side, (seats_a, seats_b) in (("system", ((0, 2), (1, 3))), ("bare", ((1, 3), (0, 2)))):
        bid = set_ = 0
        for bids, points, seats in ((bids_a, points_a, seats_a), (bids_b, points_b, seats_b)):
            for k, one in enumerate(bids):
                if one.winner in seats:
                    bid += 1
                    set_ += points[k, one.winner % 2] < 0
        hands = 2 * len(edge)
        found[f"{side}_bid"] = bid / hands
        found[f"{side}_set"] = set_ / max(bid, 1)
        found[f"{side}_set_se"] = np.sqrt(
            found[f"{side}_set"] * (1 - found[f"{side}_set"]) / max(bid, 1)
        )
    target = variant.bidding.game
    bidders_a = np.array([one.winner for one in bids_a])
    bidders_b = np.array([one.winner for one in bids_b])
    won_a, played_a = games(points_a, bidders_a, target)
    won_b, played_b = games(
        points_b[:, ::-1], np.where(bidders_b >= 0, (bidders_b + 1) % 4, -1), target
    )
    won, played = won_a + won_b, played_a + played_b
    share = won / max(played, 1)
    found.update(games=played, won=share, won_se=np.sqrt(share * (1 - share) / max(played, 1)))
    return found


def report(name: str, found: dict) -> str:
    return (
        f"{name:12} {found['deals']:>6} {found['system']:7.2f} {found['bare']:7.2f}"
        f" {found['edge']:+6.2f} ± {found['edge_se']:4.2f}"
        f"  {_sides(found, 'system')}  {_sides(found, 'bare')}"
        f"  {found['games']:>5} {100 * found['won']:5.1f} ± {100 * found['won_se']:3.1f}%"
    )


def _sides(found: dict, side: str) -> str:
    """A side's share of hands bid, and of those the share set (± se), in percent."""
    bid, set_, se = (100 * found[f"{side}_{key}"] for key in ("bid", "set", "set_se"))
    return f"{bid:4.1f}% {set_:4.1f} ± {se:3.1f}%"


HEADER = (
    "system        deals  system    bare   edge (± se)   system: bid  set          "
    "bare: bid  set          games  system won"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default=",".join(GAMES))
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--pool", type=int, default=40_000)
    parser.add_argument("--no-asks", action="store_true")
    parser.add_argument("--no-reading", action="store_true")
    args = parser.parse_args()
    global ASKS, READING
    ASKS, READING = not args.no_asks, not args.no_reading
    print(HEADER)
    for name in args.systems.split(","):
        start = time.perf_counter()
        found = bench(name, args.deals, args.seed, args.pool)
        print(report(name, found), f"  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
