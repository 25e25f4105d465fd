"""Reading the table: layouts weighted by how likely the others' plays were in each.

A layout of the unseen cards that fits every void and every failure to head is still not
as likely as any other: a seat that ducked a trick it could have taken with an ace seldom
holds that ace, and a partner who did not lead a suit back seldom holds its boss. Rebstock,
Solinas, Buro and Sturtevant ("Policy Based Inference in Trick-Taking Card Games", 2019)
weight each layout by the chance a learned policy gives the cards each seat actually
played, had that layout been the deal; in Skat that beat the best earlier inference by 2.3
trick points a game. This module does the same with the learned policy of
`meldcalc.engines.learned`:

- each layout is the hands as they are now; the hands as dealt are those plus each seat's
  cards played since, and the deal is played again from the first lead, card by card, in
  every layout at once (one lock-step `Game`);
- at each card another seat played with a choice, the policy describes every legal card
  as that seat saw the table then (its own hand in this layout, the cards played, the meld,
  the voids shown) and scores it; the chance of the card played is the softmax of the
  scores over `TEMPERATURE`, mixed with a uniform choice among the legal cards (`FLOOR`:
  players are not the policy, and a layout must not die of one odd card);
- a layout's weight is the product of those chances over every card the others played (the
  seat's own cards say nothing of the others' hands; a forced card says nothing either).

A Monte Carlo player (`meldcalc.engines.reference`) draws `OVERSAMPLE` times the layouts it
values, uniformly among those that fit (`meldcalc.dealing.unseen`), weighs them, and keeps
as many as it values by systematic resampling: its values are then read over layouts drawn
in proportion to their weight, at the cost of the replay (one play of the deal so far over
the candidates). Weights too lopsided to read (an effective sample under `LEAST_EFFECTIVE`
of the layouts valued) are flattened towards uniform until they leave that many: the
values then rest on no fewer layouts than that, and the note says so.

The temperature and the floor were fitted by `bench/fit_temperature.py` (its seed and
figures in its docstring): the likelihood of the look-ahead player's own cards under the
shipped policy, on deals it did not see.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from meldcalc.engines.learned import Network, _described, _starts, network_of
from meldcalc.engines.simulate import Game
from meldcalc.rules.bits import CARD_OF, ONE, planes_from_counts
from meldcalc.rules.cards import CARD_NAMES
from meldcalc.rules.variant import Variant

#: The softmax temperature of the policy's scores (bench/fit_temperature.py).
TEMPERATURE = 16.0
#: The share of a play put down to a uniform choice among the legal cards.
FLOOR = 0.1
#: Candidate layouts drawn for each layout valued, up to `MAX_CANDIDATES` (or as many as
#: valued, if more): `hint --layouts 100000` replayed 400,000 deals, 25 s and 2 GB.
OVERSAMPLE = 4
MAX_CANDIDATES = 20_000


def candidates_for(count: int) -> int:
    """The candidate layouts drawn to value ``count`` (`OVERSAMPLE` each, within bounds)."""
    return min(OVERSAMPLE * count, max(count, MAX_CANDIDATES))


#: The least effective sample, as a share of the layouts valued: weights more lopsided are
#: flattened (their log taken to a power below one) until they leave this many.
LEAST_EFFECTIVE = 0.25


@dataclass(frozen=True)
class Weighing:
    """How one decision's candidate layouts were weighed: how many, their effective sample
    size (Kish's: (sum w)^2 / sum w^2), the power the log-weights were taken to (1; less
    where they were flattened, 0: uniform), and why, where they were not read as they are."""

    candidates: int
    effective: float
    power: float
    why: str | None = None
    #: the holdings the weights moved most: (seat, card, share of the candidates that give
    #: the seat a copy, the same by weight), the largest moves first
    moved: tuple[tuple[int, int, float, float], ...] = ()

    @property
    def note(self) -> str | None:
        if self.why or self.power == 1.0:
            return self.why
        return (
            f"what the others did left too few effective layouts: weights flattened (power"
            f" {self.power:.3f}) to {self.effective:,.0f} of {self.candidates:,}"
        )

    def turned(self, back: Callable[[int], int]) -> Weighing:
        """The same weighing, its seats renumbered by ``back`` (a position turned to put
        its bidder in seat 0, and turned back)."""
        moved = tuple((back(seat), card, uniform, weighed) for seat, card, uniform, weighed
                      in self.moved)  # fmt: skip
        return replace(self, moved=moved)

    def json(self) -> dict[str, object]:
        return {
            "method": "uniform" if self.why else "policy",
            "candidates": self.candidates,
            "effective": round(self.effective, 1),
            "power": round(self.power, 3),
            "note": self.note,
            "moved": [_move_json(*move) for move in self.moved],
        }


def _move_json(seat: int, card: int, uniform: float, weighed: float) -> dict[str, object]:
    return {
        "seat": seat,
        "card": CARD_NAMES[card],
        "uniform": round(uniform, 3),
        "weighed": round(weighed, 3),
    }


def log_likelihoods(
    game: Game,
    rows: np.ndarray,
    layouts: np.ndarray,
    network: Network | None = None,
    temperature: float = TEMPERATURE,
    floor: float = FLOOR,
    auction: Told | None = None,
) -> np.ndarray:
    """(R, C) the log-chance, under the policy, of every card the others played in deals
    ``rows`` of ``game`` (which kept its past: `Game.keep_past`), in each of ``layouts``
    ((R, C, players, 24) counts of the hands now); -inf where a layout makes a card played
    illegal (it cannot be the deal). With ``auction``, times the chance of the others'
    bids under the bid model (`auction_log_likelihoods`)."""
    network = network or network_of(game)
    past = game.past
    count, per_row, players = layouts.shape[:3]
    deals = np.repeat(rows, per_row)
    bits = past.bits[deals]
    seats = past.seats[deals]
    dealt = layouts.reshape(-1, players, layouts.shape[-1]).copy()
    flat = np.repeat(np.arange(len(deals)), bits.shape[1])
    np.add.at(dealt, (flat, seats.ravel(), CARD_OF[bits.ravel()]), 1)
    copies = game.hands.shape[0]
    shown = None if past.shown is None else past.shown.reshape(copies, -1, players)[:, deals]
    table = replace(game.t, trump=game.t.trump[deals])
    replay = Game(
        table,
        planes_from_counts(dealt, copies),
        planes_from_counts(dealt.sum(axis=1), copies),
        leader=past.leader[deals],
        shown=shown,
    )
    observer = np.repeat(game.seat[rows], per_row)
    logs = np.zeros(len(deals))
    for step in range(bits.shape[1]):
        bit = bits[:, step]
        legal = replay.legal()
        logs[(legal & (ONE << bit)) == 0] = -np.inf
        asked = np.flatnonzero(
            (replay.seat != observer) & (np.bitwise_count(legal) > 1) & np.isfinite(logs)
        )
        if len(asked):
            logs[asked] += _log_chances(replay, legal, bit, asked, network, temperature, floor)
        replay.advance(bit)
    if auction is not None:
        logs += auction_log_likelihoods(dealt, auction, observer)
    return logs.reshape(count, per_row)


@dataclass(frozen=True)
class Told:
    """An auction to read (`auction_log_likelihoods`): its variant and the bids, (seat,
    bid or None for a pass) in the order spoken, seats as the game numbers them."""

    variant: Variant
    bids: tuple[tuple[int, int | None], ...]


def auction_log_likelihoods(dealt: np.ndarray, told: Told, observer: np.ndarray) -> np.ndarray:
    """(N,) the log-chance of the bids each seat but ``observer`` spoke, had the hands as
    dealt been ``dealt`` ((N, players, 24)): the bid model (`meldcalc.dealing.bidmodel`)
    gives each hand the level it bids to, read as loosely as `bid` reads an auction (one
    standard deviation `AUCTION_SPREAD` of the trick points: players push, save and bid a
    step off their worth). A bid of b says the level is at least b (the chance: Phi((level
    - b) / sd)); a pass, that it is below the lowest bid it could have made then (Phi((lowest
    - level) / sd)), that bid found by the variant's auction rules. As with the cards, a
    tenth of each chance is a coin toss (`FLOOR`): a seat may bid for reasons the model
    does not see (a save, a push, a partner's meld), and one such bid must not rule a
    layout out.

    Where the table bids by a system (`meldcalc.rules.systems`), a bid that tells something
    of its hand (a meld shown, cards held or asked for) is read by it too, as `bid` reads
    it: the hand as dealt fits what it said, or the bid is one of the tenth no model
    explains (a chance of 1 - FLOOR / 2 against FLOOR / 2)."""
    from meldcalc.dealing.bidmodel import model_for
    from meldcalc.dealing.layouts import AUCTION_SPREAD
    from meldcalc.rules.auction import Auction
    from meldcalc.rules.systemfile import heard

    variant = told.variant
    sd = AUCTION_SPREAD * variant.trick_total
    model = model_for(variant)
    first = told.bids[0][0]
    auction = Auction(variant.bidding, variant.players, (first - 1) % variant.players)
    levels: dict[int, np.ndarray] = {}
    logs = np.zeros(len(dealt))
    for seat, bid in told.bids:
        lowest = auction.lowest
        auction = auction.say(bid)
        if seat not in levels:
            levels[seat] = model.levels(dealt[:, seat], variant)
        gap = levels[seat] - bid if bid is not None else lowest - levels[seat]
        chance = (1.0 - FLOOR) * _phi(gap / sd) + FLOOR / 2  # a bid the model cannot explain
        logs += np.where(observer != seat, np.log(chance), 0.0)
    for seat, said in heard(variant, told.bids, 0):
        if said.tells:
            fits = said.fits(dealt[:, seat], variant)
            chance = np.where(fits, 1.0 - FLOOR / 2, FLOOR / 2)
            logs += np.where(observer != seat, np.log(chance), 0.0)
    return logs


_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _phi(z: np.ndarray) -> np.ndarray:
    """Phi(z), the standard normal's, of levels that may be -inf (a hand naming no trump
    bids to no level: it could not have bid, and surely passes)."""
    z = np.asarray(z, dtype=float)
    return np.where(np.isnan(z), 0.5, _ERFC(-np.nan_to_num(z) / math.sqrt(2)).astype(float) / 2)


def _log_chances(
    replay: Game,
    legal: np.ndarray,
    bit: np.ndarray,
    asked: np.ndarray,
    network: Network,
    temperature: float,
    floor: float,
) -> np.ndarray:
    """The log-chance of card ``bit`` of each deal ``asked`` under the policy: the softmax
    of its scores over the legal cards, mixed with a uniform choice (module docstring)."""
    held = replay.flat[0, replay.at]
    rules = Game._choose(replay, replay.seat, held, legal)  # and what each seat cannot see
    group, card, cards, decisions = _described(
        replay, replay.seat, legal, rules, asked, network.reads_guards
    )
    scores = network.scores_apart(cards, decisions, group).astype(np.float64) / temperature
    starts = _starts(group)
    top = np.maximum.reduceat(scores, starts)
    spread = np.exp(scores - top[group])
    total = np.add.reduceat(spread, starts)
    played = card == bit[asked][group]
    chance = np.zeros(len(asked))
    chance[group[played]] = spread[played]
    chance /= total
    options = np.bitwise_count(legal[asked])
    return np.log((1.0 - floor) * chance + floor / options)


def weighed(log_weights: np.ndarray, least: float = 0.0) -> tuple[np.ndarray, float, float]:
    """Weights summing to one from log-weights, their effective sample size, and the power
    the log-weights were taken to: 1, or less where the weights left fewer than ``least``
    effective layouts (flattened towards uniform, by bisection, until they leave that
    many). All zero (size 0) where no candidate is possible."""
    if not np.isfinite(log_weights).any():
        return np.zeros_like(log_weights), 0.0, 1.0

    def at(power: float) -> tuple[np.ndarray, float]:
        scaled = power * log_weights
        weights = np.exp(scaled - scaled.max())
        weights /= weights.sum()
        return weights, float(1.0 / np.square(weights).sum())

    weights, effective = at(1.0)
    if effective >= least:
        return weights, effective, 1.0
    low, high = 0.0, 1.0
    for _ in range(20):
        middle = (low + high) / 2
        if at(middle)[1] >= least:
            low = middle
        else:
            high = middle
    return (*at(low), low)


def read_layouts(
    game: Game,
    rows: np.ndarray,
    candidates: np.ndarray,
    count: int,
    rng: np.random.Generator,
    network: Network | None = None,
    auction: Told | None = None,
) -> tuple[np.ndarray, list[Weighing]]:
    """``count`` of each row's ``candidates`` ((R, C, players, 24), drawn uniformly),
    drawn in proportion to their weights (systematic resampling: each candidate kept
    about weight x ``count`` times), and how each row was weighed. Weights leaving fewer
    than `LEAST_EFFECTIVE` x ``count`` effective layouts are flattened until they leave
    that many; a row where no candidate fits every card played keeps its first ``count``,
    uniform."""
    logs = log_likelihoods(game, rows, candidates, network, auction=auction)
    kept = np.empty((len(rows), count, *candidates.shape[2:]), dtype=candidates.dtype)
    said = []
    per_row = candidates.shape[1]
    for i in range(len(rows)):
        weights, effective, power = weighed(logs[i], LEAST_EFFECTIVE * count)
        if not effective:
            said.append(Weighing(per_row, 0.0, 1.0, UNFIT))
            kept[i] = candidates[i, :count]
            continue
        positions = (rng.random() + np.arange(count)) / count
        picked = np.minimum(np.searchsorted(np.cumsum(weights), positions), per_row - 1)
        kept[i] = candidates[i, picked]
        moved = _moved(candidates[i], weights, int(game.seat[rows[i]]))
        said.append(Weighing(per_row, effective, power, moved=moved))
    return kept, said


#: The holdings a weighing tells (`Weighing.moved`): at most this many, each moved at least
#: `MOVED_AT_LEAST` (a share) from the uniform layouts.
MOVES_TOLD = 3
MOVED_AT_LEAST = 0.1


def _moved(
    candidates: np.ndarray, weights: np.ndarray, seat: int
) -> tuple[tuple[int, int, float, float], ...]:
    """The holdings of the other seats the weights moved most (`Weighing.moved`)."""
    holds = candidates > 0  # (C, players, 24)
    uniform = holds.mean(axis=0)
    weighed = np.einsum("c,cpk->pk", weights, holds)
    moves = np.abs(weighed - uniform)
    moves[seat] = 0.0
    order = np.argsort(-moves, axis=None, kind="stable")[:MOVES_TOLD]
    return tuple(
        (int(other), int(card), float(uniform[other, card]), float(weighed[other, card]))
        for other, card in zip(*np.unravel_index(order, moves.shape))
        if moves[other, card] >= MOVED_AT_LEAST
    )


UNFIT = "no layout fits every card played as the policy reads it: layouts drawn uniformly"
