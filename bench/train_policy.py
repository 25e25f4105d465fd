"""Training the learned policy (`meldcalc.engines.learned`) on the look-ahead player's values.

1. Decisions: seeded deals of each game (bench/games.py: random hands, and the three fixed
   single-deck hands of bench/strength.py), played by the look-ahead player in every seat
   (`meldcalc.engines.lookahead`, its play-outs by the rules). At each decision with a
   choice the legal cards' `FEATURES` are kept beside the look-ahead player's value of each
   (its side's trick points from here on, the mean over its layouts).
2. The network: two layers (``--hidden`` units), fitted by Adam, full batch, to the least
   expected regret: the points below the best card's value a card loses, weighted by the
   softmax of the network's scores over the legal cards (so it learns to rank, not to
   value). One deal in five is held out; printed: how often each policy picks the
   look-ahead player's card on the held-out decisions, and the points it loses by the
   look-ahead player's values (the rules', the network's).
3. ``--write`` keeps the weights in meldcalc/engines/policy.json, with the seed and facts;
   ``--match N`` first plays N random deals of each game in duplicate, the network against
   the rules (each deal twice, the network on one side then the other).

``--own`` gathers the decisions of the shipped network's own play instead (the look-ahead
player still values every card; the network picks the card played), so that a second
round learns the positions its own play reaches (DAgger). The shipped weights were made
in two rounds, from the same seeds every time (the weights file keeps the last command):

    python bench/train_policy.py --deals 8000 --seed 28 --data a.npz
    python bench/train_policy.py --deals 8000 --seed 128 --data b.npz
    python bench/train_policy.py --data a.npz --more b.npz --hidden 64 --epochs 40 --write
    python bench/train_policy.py --deals 8000 --seed 228 --own --data c.npz
    python bench/train_policy.py --variant double-deck --deals 3000 --seed 328 --data d.npz
    python bench/train_policy.py --variant three-handed --deals 4000 --seed 428 --data e.npz
    python bench/train_policy.py --data a.npz --more b.npz c.npz d.npz e.npz --balance \
        --hidden 64 --epochs 40 --write

With ``--balance`` each file's values are put on one scale (divided by the file's mean
regret), so that a game of 50 trick points weighs as much as one of 250.

Usage: python bench/train_policy.py [--deals N] [--variant NAME ...] [--seed S]
       [--hidden H] [--epochs E] [--data FILE.npz] [--more FILE.npz ...] [--balance] [--own]
       [--match N] [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from meldcalc.engines.learned import FEATURES, Network, features, learned_cards, network_from
from meldcalc.engines.lookahead import LookAhead
from meldcalc.engines.reference import play
from meldcalc.rules.bits import BIT_OF, lowest_bit_index
from meldcalc.rules.cards import Suit
from meldcalc.rules.loading import load_variant

sys.path.insert(0, str(Path(__file__).parent))
from games import fixed_hand_deals, new_game, random_hand_deals

#: Decisions a step of the fit, and its first rate.
BATCH = 2048
RATE = 0.003
WEIGHTS = Path(__file__).parent.parent / "meldcalc" / "engines" / "policy.json"
FIXED = (
    ("AS 10S KS QS JS JD 9S AH AD AC KH QH", Suit.SPADES),
    ("AD 10D KD 9D 9D KS 9S AH QH 9H KC QC", Suit.DIAMONDS),
    ("KS QS JS 9S 10H JH 9H QD JD 9D JC 9C", Suit.SPADES),
)


class Recording(LookAhead):
    """The look-ahead player, keeping each decision's features, values and deal; with a
    ``network``, the network's card is played (the decisions it meets), not its own."""

    network: Network | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self.kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def choose(self, game, rows: np.ndarray) -> np.ndarray:
        legal = game.legal()[rows]
        bits = lowest_bit_index(legal)
        choices = np.flatnonzero(np.bitwise_count(legal) > 1)
        if not len(choices):
            return bits
        rules = game.policy_cards()  # also sets what the seat cannot see, for the features
        group, bit, x = features(game, game.seat, game.legal(), rules, rows[choices])
        values = np.zeros(len(bit))
        for i, (cards, value) in enumerate(self.values(game, rows[choices])):
            of_bit = dict(zip(BIT_OF[cards].tolist(), value.tolist()))
            at = np.flatnonzero(group == i)
            values[at] = [of_bit[b] for b in bit[at]]
            # the look-ahead player's card: the best value, of equals the lowest card
            bits[choices[i]] = max(of_bit, key=lambda b: (of_bit[b], b))
        self.kept.append((x, group, values, rows[choices]))
        if self.network is not None:
            return learned_cards(game, game.seat, game.legal(), rules, self.network)[rows]
        return bits


def decisions(
    variant_names: list[str], deals: int, seed: int, network: Network | None = None
) -> dict[str, np.ndarray]:
    """Every decision's legal cards: their features, their decision's number, their values,
    and each decision's deal (numbered across the games, for holding deals out); with a
    ``network``, the decisions of its own play (valued by the look-ahead player)."""
    parts: dict[str, list[np.ndarray]] = {"x": [], "group": [], "value": [], "deal": []}
    groups = deal_base = 0
    for number, name in enumerate(variant_names):
        variant = load_variant(name)
        sets = [random_hand_deals(variant, deals, seed + number)]
        if name == "single-deck":
            sets += [
                fixed_hand_deals(variant, hand, trump, deals // 4, seed + 10 + k)
                for k, (hand, trump) in enumerate(FIXED)
            ]
        for dealt in sets:
            began = time.perf_counter()
            player = Recording(variant, seed=seed + number)
            player.network = network
            play(new_game(variant, dealt), dict.fromkeys(range(variant.players), player))
            count = 0
            for x, group, value, deal in player.kept:
                parts["x"].append(x)
                parts["group"].append(group + groups)
                parts["value"].append(value)
                parts["deal"].append(deal + deal_base)
                groups += len(deal)
                count += len(deal)
            deal_base += len(dealt)
            print(
                f"  {name}: {len(dealt)} deals, {count:,} decisions,"
                f" {time.perf_counter() - began:.0f} s",
                file=sys.stderr,
            )
    return {key: np.concatenate(value) for key, value in parts.items()}


# --- the network ----------------------------------------------------------------------------


def _starts(group: np.ndarray) -> np.ndarray:
    """Where each decision's cards begin (the groups are numbered 0 on, in order)."""
    return np.flatnonzero(np.r_[True, group[1:] != group[:-1]])


def regrets(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Each card's points below its decision's best card."""
    starts = _starts(group)
    best = np.maximum.reduceat(value, starts)
    return best[np.searchsorted(starts, np.arange(len(group)), side="right") - 1] - value


def fit(
    x: np.ndarray, group: np.ndarray, regret: np.ndarray, hidden: int, epochs: int, seed: int
) -> Network:
    """The network of least expected regret (module docstring, step 2), by Adam over
    batches of `BATCH` decisions."""
    rng = np.random.default_rng(seed)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    xs = (x - mean) / scale
    starts = _starts(group)
    sizes = np.diff(np.r_[starts, len(group)])
    params = {
        "w1": rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, 1 / np.sqrt(hidden), hidden),
        "b2": np.zeros(1),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, step = 0.9, 0.999, 0
    for epoch in range(1, epochs + 1):
        rate = RATE * (1 - (epoch - 1) / epochs)  # down to nothing by the last epoch
        order = rng.permutation(len(starts))
        total = 0.0
        for at in range(0, len(order), BATCH):
            chosen = np.sort(order[at : at + BATCH])
            lengths = sizes[chosen]
            rows = np.repeat(starts[chosen] - np.cumsum(np.r_[0, lengths[:-1]]), lengths)
            rows += np.arange(lengths.sum())
            first = np.cumsum(np.r_[0, lengths[:-1]])
            which = np.repeat(np.arange(len(chosen)), lengths)
            grads, lost = _gradients(params, xs[rows], regret[rows], first, which)
            total += lost * len(chosen)
            step += 1
            for k, g in grads.items():
                m, v = moments[k]
                m[:] = beta1 * m + (1 - beta1) * g
                v[:] = beta2 * v + (1 - beta2) * g * g
                fresh_m, fresh_v = m / (1 - beta1**step), v / (1 - beta2**step)
                params[k] -= rate * fresh_m / (np.sqrt(fresh_v) + 1e-8)
        print(f"  epoch {epoch}: expected regret {total / len(starts):.3f}", file=sys.stderr)
    return Network(mean, scale, params["w1"], params["b1"], params["w2"], float(params["b2"][0]))


def _gradients(
    params: dict, xs: np.ndarray, regret: np.ndarray, first: np.ndarray, which: np.ndarray
) -> tuple[dict, float]:
    """The gradients of the mean expected regret of a batch of decisions, and that mean:
    each decision's cards ``which`` (its number), beginning at ``first``."""
    z = xs @ params["w1"] + params["b1"]
    h = np.maximum(z, 0)
    s = h @ params["w2"] + params["b2"][0]
    e = np.exp(s - np.maximum.reduceat(s, first)[which])
    p = e / np.add.reduceat(e, first)[which]
    expected = np.add.reduceat(p * regret, first)
    ds = p * (regret - expected[which]) / len(first)
    dz = ds[:, None] * params["w2"] * (z > 0)
    grads = {
        "w1": xs.T @ dz,
        "b1": dz.sum(axis=0),
        "w2": h.T @ ds,
        "b2": np.array([ds.sum()]),
    }
    return grads, float(expected.mean())


def judged(
    scores: np.ndarray, group: np.ndarray, bit_key: np.ndarray, regret: np.ndarray
) -> tuple[float, float]:
    """How often the top-scored card is the best one, and the points it loses, a decision."""
    order = np.lexsort((bit_key, scores, group))
    starts = _starts(group[order])
    last = np.r_[starts[1:], len(group)] - 1
    picked = regret[order][last]
    return float((picked == 0).mean()), float(picked.mean())


class Seat:
    """A seat playing ``network`` at a table of the rules (`reference.play`'s players)."""

    def __init__(self, network: Network) -> None:
        self.network = network

    def choose(self, game, rows: np.ndarray) -> np.ndarray:
        rules = game.policy_cards()
        return learned_cards(game, game.seat, game.legal(), rules, self.network)[rows]


def match(network: Network, name: str, count: int, seed: int) -> str:
    """A duplicate match of the network against the rules on ``count`` random deals of
    ``name`` (each deal twice: the network on the bidding side, then on the other): the
    bidding side's trick points a deal it gains, as bidders and as defenders."""
    from games import bidding_seats, mean_se

    variant = load_variant(name)
    dealt = random_hand_deals(variant, count, seed)
    bidders, defenders = bidding_seats(variant)
    seat = Seat(network)
    rules_self = play(new_game(variant, dealt), {})[:, 0]
    as_bidders = play(new_game(variant, dealt), dict.fromkeys(bidders, seat))[:, 0]
    as_defenders = play(new_game(variant, dealt), dict.fromkeys(defenders, seat))[:, 0]
    edge = as_bidders - as_defenders
    return (
        f"  {name}, {count} deals: the network's edge over the rules {mean_se(edge)} a deal"
        f" (as bidders {mean_se(as_bidders - rules_self)},"
        f" as defenders {mean_se(rules_self - as_defenders)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--variant", nargs="*", default=["single-deck"])
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--hidden", type=int, default=24)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--data", type=Path, help="keep (or read, if it exists) the decisions")
    parser.add_argument("--more", type=Path, nargs="*", default=[], help="decisions kept before")
    parser.add_argument(
        "--balance", action="store_true", help="each file's values on one scale (docstring)"
    )
    parser.add_argument(
        "--own", action="store_true", help="the decisions of the shipped network's own play"
    )
    parser.add_argument("--write", action="store_true", help="write meldcalc/engines/policy.json")
    parser.add_argument("--match", type=int, default=0, help="deals of a match against the rules")
    args = parser.parse_args()
    if args.data and args.data.exists():
        data = dict(np.load(args.data))
    else:
        own = network_from(json.loads(WEIGHTS.read_text()), str(WEIGHTS)) if args.own else None
        data = decisions(args.variant, args.deals, args.seed, own)
        if args.data:
            np.savez_compressed(args.data, **data)
    if args.balance:  # each file's points to one scale: a game's points weigh alike
        data["value"] = data["value"] / regrets(data["group"], data["value"]).mean()
    for path in args.more:  # numbered on after those already read
        more = dict(np.load(path))
        if args.balance:
            more["value"] = more["value"] / regrets(more["group"], more["value"]).mean()
        more["group"] = more["group"] + data["group"].max() + 1
        more["deal"] = more["deal"] + data["deal"].max() + 1
        data = {key: np.concatenate([data[key], more[key]]) for key in data}
    x, group, value, deal = data["x"], data["group"], data["value"], data["deal"]
    regret = regrets(group, value)
    held_out_deal = deal % 5 == 0
    held_out = held_out_deal[group]  # per card: its decision's deal held out
    train = ~held_out
    renumber = lambda g: np.unique(g, return_inverse=True)[1]  # noqa: E731
    began = time.perf_counter()
    network = fit(x[train], renumber(group[train]), regret[train], args.hidden, args.epochs,
                  args.seed)  # fmt: skip
    seconds = time.perf_counter() - began
    rules_column = FEATURES.index("rules play it")
    test_group = renumber(group[held_out])
    lowest = -np.arange(len(test_group)) * 0  # ties: as scored; a decision's cards in bit order
    kept_out = len(np.unique(deal[held_out_deal]))
    print(f"{len(np.unique(group)):,} decisions, {len(np.unique(deal)):,} deals ({kept_out:,}"
          f" held out); fitted in {seconds:.0f} s")  # fmt: skip
    for name, scores in (
        ("rules", x[held_out, rules_column]),
        ("network", network.scores(x[held_out])),
    ):
        agree, lost = judged(scores, test_group, lowest, regret[held_out])
        print(f"  {name}: the look-ahead player's card {agree:.1%}; {lost:.2f} points lost a"
              " decision (by its values)")  # fmt: skip
    for name in args.variant if args.match else ():
        print(match(network, name, args.match, args.seed + 1000))
    if args.write:
        command = " ".join(["python bench/train_policy.py", *sys.argv[1:]])
        facts = {"trained": {"command": command, "decisions": len(np.unique(group))}}
        WEIGHTS.write_text(json.dumps(network.json(**facts)) + "\n")
        print(f"wrote {WEIGHTS}")


if __name__ == "__main__":
    main()
