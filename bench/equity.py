"""Simulated games: one side bidding by the game-equity table, the other by the fixed 70%
rule, every seat playing meldcalc's player; the same deals both ways round.

Each game is played twice: side 0 bids by equity and side 1 by the rule, then the other
way round, on the same deals hand by hand (hand h of game g is dealt from the seed, g and
h). A seat's hand is read by the fast bid model (`meldcalc.dealing.bidmodel`): its level
is the bid it makes 70% of the time, which is what the rule goes up to. The equity side
goes up to the highest legal bid that wins more games than letting the others play at
the bid below it (as `bid --score` judges it, `meldcalc.advice.equity`), its hand's total
taken as normal around the model's level (the spread measured from `bid` on seeded hands,
printed), its own meld in place of the defenders' mean. The seat
highest wins the auction at the bid above the next highest (equity.hand_outcomes' policy),
names its best trump, and the deal is played out and scored as `meldcalc score` scores it;
the first to speak rotates with the deal.

Printed per game: the games the equity side won, with the standard error of the paired
difference, and the mean hands a game lasted (issue #29's goal: +3 points or more in
single deck over 10,000 games, a positive edge in double deck).

Usage: python bench/equity.py [--games N] [--variant NAME ...] [--seed S]
(About a minute for 10,000 single-deck games on this 2-core machine.)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from meldcalc.advice import equity
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
    ours: np.ndarray,
    theirs: np.ndarray,
    spread: float,
    gained: float,
) -> np.ndarray:
    """(G,) the highest legal bid that wins more games than letting the others have the
    bid above it, for hands of model ``levels`` and mean ``melds`` at scores
    ``ours``/``theirs`` (as `equity.game_odds` judges it); -1: pass."""
    finite = levels[np.isfinite(levels)]
    if not len(finite):  # no seat may name a trump (double deck: no marriage)
        return np.full(len(levels), -1)
    bids = equity._legal_bids(variant, float(finite.max()) + 3 * spread)
    mean = levels - Z30 * spread
    totals = mean[:, None] + spread * POINTS[None, :]  # (G, Q)
    penalty = variant.house.set_penalty
    own = melds + table.defenders_meld / 2  # its side's meld: its own and a partner's mean
    limit, below = np.full(len(levels), -1), 0
    going = np.ones(len(levels), dtype=bool)
    tricks = gained - table.defenders_meld  # the others' mean tricks as defenders
    for bid in bids:
        made = totals >= bid
        theirs_now = theirs[:, None] + table.their_meld(int(bid), below) + tricks
        win = (
            table.after(
                np.where(made, ours[:, None] + totals, ours[:, None] - bid * penalty),
                np.broadcast_to(theirs_now, totals.shape),
                np.zeros(totals.shape),
            )
            @ WEIGHTS
        )
        outbid = table.letting_go(int(bid), below, own, ours, theirs)
        going &= win > outbid  # up while bidding beats letting go: a pass is final
        limit = np.where(going, bid, limit)
        below = int(bid)
    return np.where(np.isfinite(levels), limit, -1)


def defenders_points(variant, seed: int = 9) -> float:
    """The mean points of the side that did not bid, over the table's kind of hands."""
    hands = equity.hand_outcomes(variant, 4000, seed)
    bid = np.flatnonzero(hands.bidding >= 0)
    return float(hands.points[bid, 1 - hands.bidding[bid]].mean())


def play_games(
    variant, table, games: int, seed: int, equity_side: int, spread: float, gained: float
):
    """Each game's winner (0 or 1) and its hands, side ``equity_side`` bidding by equity."""
    target, players = table.target, variant.players
    model = model_for(variant)
    scores = np.zeros((games, 2), dtype=np.int64)
    winner = np.full(games, -1)
    hands_played = np.zeros(games, dtype=np.int64)
    hand = 0
    while (winner < 0).any() and hand < 200:
        live = np.flatnonzero(winner < 0)
        rng = np.random.default_rng([seed, hand])
        dealt = equity._deal(variant, games, rng)[live]
        first = hand % players  # who speaks first: the seats turned to put it in seat 0
        order = (first + np.arange(players)) % players
        seats = dealt[:, order]
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
            side = order[s] % 2
            if side == equity_side:
                ours, theirs = scores[live, side], scores[live, 1 - side]
                limits[:, s] = equity_limits(
                    variant, table, best[:, s], meld_mean[:, s], ours, theirs, spread, gained
                )
            else:
                limits[:, s] = equity._legal_floor(variant, best[:, s])
        bidder, contract = equity._auction(variant, limits)
        played = bidder >= 0
        rows = np.flatnonzero(played)
        turned = (bidder[played, None] + np.arange(players)) % players
        change = np.zeros((len(live), 2), dtype=np.int64)
        side = order[bidder[played]] % 2
        if len(rows):
            in_play = seats[rows[:, None], turned]
            trump = levels.argmax(axis=2)[rows, bidder[played]]
            melds, tricks = equity._play(variant, in_play, trump)
            scored = equity.scored_fast(variant, contract[played], melds, tricks)
            change[rows, side] = scored[:, 0]
            change[rows, 1 - side] = scored[:, 1]
        scores[live] += change
        hands_played[live] += 1
        bid_side = np.full(len(live), -1)
        bid_side[rows] = side
        for i, game in enumerate(live):
            a, b = scores[game]
            if a >= target or b >= target:
                if a >= target and b >= target:
                    if variant.bidding.both_reach == "bidder" and bid_side[i] >= 0:
                        winner[game] = bid_side[i]
                    elif a != b:
                        winner[game] = 0 if a > b else 1
                else:
                    winner[game] = 0 if a >= target else 1
        hand += 1
    return winner, hands_played


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--variant", nargs="*", default=["single-deck", "double-deck"])
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    print("game-equity bidding against the fixed 70% rule, the same deals both ways round")
    for name in args.variant:
        variant = load_variant(name)
        began = time.perf_counter()
        table = equity.table_for(variant)
        spread, gained = totals_spread(variant), defenders_points(variant)
        first, hands_a = play_games(variant, table, args.games, args.seed, 0, spread, gained)
        second, hands_b = play_games(variant, table, args.games, args.seed, 1, spread, gained)
        won = ((first == 0).astype(float) + (second == 1).astype(float)) / 2  # per game pair
        decided = (first >= 0) & (second >= 0)
        won = won[decided]
        edge = won.mean() - 0.5
        se = won.std(ddof=1) / np.sqrt(len(won))
        hands = (hands_a.mean() + hands_b.mean()) / 2
        print(
            f"  {name}: {len(won):,} game pairs; the equity side won {won.mean():.1%}"
            f" ({edge * 100:+.1f} ± {se * 100:.1f} points); {hands:.1f} hands a game;"
            f" totals' spread {spread:.0f}; {time.perf_counter() - began:.0f} s"
        )


if __name__ == "__main__":
    main()
