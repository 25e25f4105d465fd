"""Where the fast policy loses points: its cards priced by the reference player.

Deals of the strength groups (bench/strength.py) are played by the policy in every seat; at
each decision with a choice the reference values every legal card (its layouts, play-outs
and exact endgames) and the policy's card is charged its regret: the best card's value less
its own, for the seat's side. Regrets are summed per deal by what the policy played against
what the reference preferred, by side and position in the trick, largest first: the
situations worth a better rule.

Usage: python bench/regret.py [--deals N] [--groups strong,average,weak,random] [--top K]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from meldcalc.engines.reference import Reference
from meldcalc.engines.simulate import BIT_OF, SUIT_MASK, Game

sys.path.insert(0, str(Path(__file__).parent))
from games import fixed_hand_deals, new_game, random_hand_deals
from strength import HANDS
from yardstick import Yardstick

POSITIONS = ("lead", "second", "third", "last")


def kind(game: Game, row: int, card: int) -> str:
    """A card's kind in its trick: trump or plain, counter or not; for a follower, whether
    it takes the trick over and whether its partner was winning."""
    bit = int(BIT_OF[card])
    rank = ("A", "10", "K", "Q", "J", "9")[bit >> 2]
    suit = "trump" if bit & 3 == game.t.trump[row] else "plain"
    what = f"{suit} {rank}"
    if game.position == 0:
        return what
    best = int(game.best[row])
    wins = ((bit & 3) == (best & 3) and bit < best) or (
        bit & 3 == game.t.trump[row] and best & 3 != game.t.trump[row]
    )
    led = int(game.on_table[row, 0]) & 3
    follows = "follows" if (1 << bit) & int(SUIT_MASK[led]) else "off-suit"
    winner = (game.leader[row] + game.best_pos[row]) % game.t.players
    partner = (
        "partner winning" if game.t.team[winner] == game.t.team[game.seat[row]] else "opp winning"
    )
    return f"{what} {follows} {'wins' if wins else 'under'} ({partner})"


def regrets(game: Game, player: Reference) -> dict[tuple, float]:
    """Play ``game`` out with the policy; sum the regret of its cards by situation."""
    found: dict[tuple, float] = defaultdict(float)
    while not game.over:
        bits = game.policy_cards()
        rows = np.flatnonzero(np.bitwise_count(game.legal()) > 1)
        for row, (cards, values) in zip(rows, player.values(game, rows)):
            chosen = int(np.flatnonzero(BIT_OF[cards] == bits[row])[0])
            best = len(values) - 1 - int(np.argmax(values[::-1]))
            loss = float(values[best] - values[chosen])
            if loss > 0:
                side = "bidders" if game.t.team[game.seat[row]] == 0 else "defenders"
                key = (
                    side,
                    POSITIONS[game.position],
                    kind(game, row, cards[chosen]),
                    kind(game, row, cards[best]),
                )
                found[key] += loss
        game.advance(bits)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--groups", default="strong,average,weak,random")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="single-deck")
    args = parser.parse_args()
    from meldcalc.rules.loading import load_variant

    variant = load_variant(args.variant)
    total: dict[tuple, float] = defaultdict(float)
    deals_played = 0
    for number, name in enumerate(args.groups.split(",")):
        seed = 1000 + args.seed * 100 + number
        if name == "random":
            deals = random_hand_deals(variant, args.deals, seed)
        else:
            deals = fixed_hand_deals(variant, *HANDS[name], args.deals, seed)
        found = regrets(
            new_game(variant, deals), Reference(variant, seed=args.seed, rollout=Yardstick)
        )
        for key, loss in found.items():
            total[key] += loss
        deals_played += args.deals
        print(f"{name}: {sum(found.values()) / args.deals:.1f} points a deal", file=sys.stderr)
    by = defaultdict(float)
    for (side, position, *_), loss in total.items():
        by[(side, position)] += loss
    print(f"regret per deal by side and position ({deals_played} deals):")
    for key, loss in sorted(by.items(), key=lambda item: -item[1]):
        print(f"  {key[0]:10} {key[1]:7} {loss / deals_played:6.2f}")
    print("largest: side, position, policy played, reference preferred")
    for key, loss in sorted(total.items(), key=lambda item: -item[1])[: args.top]:
        side, position, played, preferred = key
        print(f"  {loss / deals_played:5.2f}  {side:9} {position:6} {played:48} {preferred}")


if __name__ == "__main__":
    main()
