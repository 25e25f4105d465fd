"""Simulated games: one side bidding by the game-equity table, the other by the fixed 70%
rule, every seat playing meldcalc's player; the same deals each way round.

Each game is played once for each side bidding by equity (two sides: side 0 by equity and
side 1 by the rule, then the other way round; where three play each for himself, each in
turn bids by equity against two by the rule), on the same deals hand by hand (hand h of
game g is dealt from the seed, g and h). A seat's hand is read by the fast bid model
(`meldcalc.dealing.bidmodel`): its level is the bid it makes 70% of the time, which is
what the rule goes up to. The equity side goes up to the highest legal bid that wins more
games than letting the others play at the bid below it (as `bid --score` judges it,
`meldcalc.advice.equity`), its hand's total taken as normal around the model's level (the
spread measured from `bid` on seeded hands, printed), its own meld in place of the
defenders' mean. The seat highest wins the auction at the bid above the next highest
(tablehands.hand_outcomes' policy), names its best trump (the bidder takes the widow and buries
as `bid` does), and the deal is played out and scored as `meldcalc score` scores it; the
first to speak rotates with the deal.

Printed per game: the share of games the equity side won against its fair share (a half,
a third), with the standard error of the paired difference, and the mean hands a game
lasted (issue #29's goal: +3 points or more in single deck over 10,000 games, a positive
edge in double deck and three-handed).

Usage: python bench/equity.py [--games N] [--variant NAME ...] [--seed S]
  e.g. --variant three-handed cutthroat double-deck-three-handed
(10,000 games on this 2-core machine: single deck about a minute, double deck and
three-handed 2-3 minutes, double-deck three-handed 9.)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from meldcalc.advice import equity, tablehands
from meldcalc.advice.bidding import estimate
from meldcalc.dealing.bidmodel import model_for
from meldcalc.dealing.deal import deals
from meldcalc.rules.cards import SUITS
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import engine_for

#: Gauss-Hermite points (probabilists') for a normal total, and their weights.
POINTS, WEIGHTS = np.polynomial.hermite_e.hermegauss(41)
WEIGHTS = WEIGHTS / WEIGHTS.sum()
#: The 30th percentile of a normal, in standard deviations: the rule's level.
Z30 = -0.5244


def totals_spread(variant, count: int = 60, seed: int = 9) -> float:
    """The median spread (standard deviation) of `bid`'s simulated totals under the best
    trump, over seeded hands."""
    spreads = []
    for i, dealt in enumerate(deals(variant, count, seed)):
        report = estimate(dealt.hands[0], variant, deals=300, seed=seed + i)
        spreads.append(float(report.best.totals.std()))
    return float(np.median(spreads))


def equity_limits(
    variant,
    table,
    levels: np.ndarray,
    melds: np.ndarray,
    scores: np.ndarray,
    spread: float,
    gained: float,
) -> np.ndarray:
    """(G,) the highest legal bid that wins more games than letting the others have the
    bid above it, for hands of model ``levels`` and mean ``melds`` at ``scores`` ((G,
    sides), the bidder's side first; as `equity.game_odds` judges it); -1: pass."""
    finite = levels[np.isfinite(levels)]
    if not len(finite):  # no seat may name a trump (double deck: no marriage)
        return np.full(len(levels), -1)
    sides = table.sides
    bids = tablehands.legal_bids(variant, float(finite.max()) + 3 * spread)
    mean = levels - Z30 * spread
    totals = mean[:, None] + spread * POINTS[None, :]  # (G, Q)
    penalty = variant.house.set_penalty
    # its side's meld: its own, and a partner's mean where it has one (half the side's)
    own = melds + (table.defenders_meld / 2 if variant.partnerships else 0.0)
    limit, below = np.full(len(levels), -1), 0
    going = np.ones(len(levels), dtype=bool)
    tricks = gained - table.defenders_meld  # each other side's mean tricks as a defender
    for bid in bids:
        rows = np.flatnonzero(going)  # the hands still going up: the others have stopped
        if not len(rows):
            break
        made = totals[rows] >= bid
        gains = np.empty((*made.shape, sides))
        gains[..., 0] = np.where(made, totals[rows], -bid * penalty)
        gains[..., 1] = table.their_meld(int(bid), below) + tricks
        gains[..., 2:] = table.defenders_meld + tricks
        win = np.zeros(len(rows))
        for order in table.orders():
            after = table.after(scores[rows][:, None, list(order)] + gains, np.zeros(made.shape))
            win += after @ WEIGHTS
        win /= len(table.orders())
        outbid = table.letting_go(variant, int(bid), below, own[rows], scores[rows])
        going[rows] = win > outbid  # up while bidding beats letting go: a pass is final
        limit = np.where(going, bid, limit)
        below = int(bid)
    return np.where(np.isfinite(levels), limit, -1)


def defenders_points(variant, seed: int = 9) -> float:
    """The mean points of a side that did not bid, over the table's kind of hands."""
    hands = tablehands.hand_outcomes(variant, 4000, seed)
    bid = np.flatnonzero(hands.bidding >= 0)
    sides = hands.sides
    others = (hands.bidding[bid, None] + np.arange(1, sides)) % sides
    return float(hands.points[bid[:, None], others].mean())


def decided(variant, totals: np.ndarray, bid_side: int, target: int) -> int:
    """The side that won with ``totals`` after a hand ``bid_side`` bid (-1: the game goes
    on), as `meldcalc score` decides it."""
    out = np.flatnonzero(totals >= target)
    if not len(out):
        return -1
    if len(out) == 1:
        return int(out[0])
    if variant.bidding.both_reach == "bidder" and bid_side in out:
        return bid_side
    leaders = out[totals[out] == totals[out].max()]
    return int(leaders[0]) if len(leaders) == 1 else -1


def play_games(
    variant, table, games: int, seed: int, equity_side: int, spread: float, gained: float
):
    """Each game's winner (a side) and its hands, side ``equity_side`` bidding by equity."""
    target, players, sides = table.target, variant.players, table.sides
    model = model_for(variant)
    scores = np.zeros((games, sides), dtype=np.int64)
    winner = np.full(games, -1)
    hands_played = np.zeros(games, dtype=np.int64)
    hand = 0
    while (winner < 0).any() and hand < 200:
        live = np.flatnonzero(winner < 0)
        rng = np.random.default_rng([seed, hand])
        dealt = tablehands.deal_hands(variant, games, rng)[live]
        first = hand % players  # who speaks first: the seats turned to put it in seat 0
        order = (first + np.arange(players)) % players
        seats = dealt[:, order]
        widow = dealt[:, players] if variant.widow else None
        by_trump = [model.levels_by_trump(seats[:, s], variant) for s in range(players)]
        levels = np.stack([np.stack([lv[t] for t in SUITS], axis=1) for lv in by_trump], axis=1)
        engine = engine_for(variant)
        meld_mean = np.stack(
            [
                np.mean(np.stack(list(engine.totals(seats[:, s]).values()), axis=1), axis=1)
                for s in range(players)
            ],
            axis=1,
        )
        best = levels.max(axis=2)
        limits = np.zeros((len(live), players), dtype=np.int64)
        for s in range(players):
            side = order[s] % sides
            if side == equity_side:
                at = scores[live][:, (side + np.arange(sides)) % sides]
                limits[:, s] = equity_limits(
                    variant, table, best[:, s], meld_mean[:, s], at, spread, gained
                )
            else:
                limits[:, s] = tablehands.legal_floor(variant, best[:, s])
        bidder, contract = tablehands.auction(variant, limits)
        played = bidder >= 0
        rows = np.flatnonzero(played)
        turned = (bidder[played, None] + np.arange(players)) % players
        change = np.zeros((len(live), sides), dtype=np.int64)
        side = order[bidder[played]] % sides
        if len(rows):
            in_play = seats[rows[:, None], turned]
            trump = levels.argmax(axis=2)[rows, bidder[played]]
            kitty = None if widow is None else widow[rows]
            melds, tricks, *taken = tablehands.play_hands(variant, in_play, trump, kitty)
            scored = tablehands.scored(variant, contract[played], melds, tricks, tuple(taken))
            change[rows[:, None], (side[:, None] + np.arange(sides)) % sides] = scored[:, :sides]
        scores[live] += change
        hands_played[live] += 1
        bid_side = np.full(len(live), -1)
        bid_side[rows] = side
        for i, game in enumerate(live):
            winner[game] = decided(variant, scores[game], int(bid_side[i]), target)
        hand += 1
    return winner, hands_played


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--variant", nargs="*", default=["single-deck", "double-deck"])
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    print("game-equity bidding against the fixed 70% rule, the same deals each way round")
    for name in args.variant:
        variant = load_variant(name)
        began = time.perf_counter()
        table = equity.table_for(variant)
        spread, gained = totals_spread(variant), defenders_points(variant)
        sides = table.sides
        runs = [
            play_games(variant, table, args.games, args.seed, side, spread, gained)
            for side in range(sides)
        ]
        # per game: the share of its runs (the equity side in each seat) the equity side won
        won = np.mean([winner == side for side, (winner, _) in enumerate(runs)], axis=0)
        finished = np.all([winner >= 0 for winner, _ in runs], axis=0)
        won = won[finished]
        edge = won.mean() - 1 / sides
        se = won.std(ddof=1) / np.sqrt(len(won))
        hands = np.mean([played.mean() for _, played in runs])
        print(
            f"  {name}: {len(won):,} games each way; the equity side won {won.mean():.1%}"
            f" (a fair share {1 / sides:.1%}: {edge * 100:+.1f} ± {se * 100:.1f} points);"
            f" {hands:.1f} hands a game; totals' spread {spread:.0f};"
            f" {time.perf_counter() - began:.0f} s"
        )


if __name__ == "__main__":
    main()
