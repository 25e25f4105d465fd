"""The game's score in a bid: the chance a side wins the game from each pair of scores.

Backgammon players judge a move by the match it wins, from a match equity table; here the
table is worked out from the variant's own rules, in three steps:

1. Hands: `DEALS` seeded random deals, each bid as a stated policy bids it: every seat
   goes as high as the fast bid model (`meldcalc.dealing.bidmodel`) says its hand is
   worth, the highest wins (the first to speak of equals) at the bid just above the other
   side's highest (partners do not bid each other up; the opening bid at least; the
   dealer takes the opening where it must);
   the winner names its best trump, the pass is made where the variant has one, and the
   deal is played out by meldcalc's player and scored exactly as `meldcalc score` scores a
   hand (made or set, the set penalty, the meld minimum and the save-meld rule). A deal no
   seat bids is thrown in: no score changes. Each deal counts both ways round (either
   side in either seat), so the table is the same for both sides.
2. The table: the chance side A wins from scores (a, b) before a hand is the mean, over
   those hands, of its chance after it: 1 or 0 once a side reaches the target (both at
   once: the higher total, equal totals playing on as a half, or the bidding side where
   ``both_reach: bidder``), else the table at the new scores. Scores go down when a bid is
   set, so the table is solved by iteration until it moves less than `TOLERANCE`. Scores are
   counted in steps of a fiftieth of the target (20 points in a single-deck game to 1,000),
   and reach a whole target behind (a score further behind is refused, `within_reach`).
3. A bid at a score (`game_odds`): your hand's simulated deals give, at each level, your
   side's points if made (or the bid lost if set) and the others' (their tricks in your
   deals, and the meld of the table's hands that bid the level below: a side that pushed
   you there holds meld); the chance of winning after each, from the table. Stopping
   below a level is judged by the table's hands the other side bid that high, rescored at
   the bid below (a hand strong enough to outbid you is one that hurts), your side
   defending with its own meld (your hand's mean over the trumps, and your partner's
   expected meld) in place of the defenders' mean; passing at the opening bid, with the
   hands no one bid too. The suggested bid is where to stop: up from the opening, each
   level while bidding it wins more games than letting the others play at the bid below
   (a pass is final).

The same seed gives the same table. A table is worked out once and kept in the cache
(`meldcalc.rules.cache`), sealed, under a digest of the variant's rules, the target and
this method.

Only games of two sides (partnerships) are tabled so far: three sides need a table of
three scores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from meldcalc.errors import MeldcalcError, UnsupportedError
from meldcalc.rules.cards import CARDS, NUM_CARDS, SUITS
from meldcalc.rules.variant import Variant

#: Deals a table is made from, and its seed.
DEALS = 20_000
SEED = 2026
#: Steps of the score a target is divided into.
STEPS = 50
#: The iteration stops once no chance moves more than this.
TOLERANCE = 1e-5
#: The fewest of the table's hands a level's "they bid this high" is judged by.
FEW = 200
#: The most of the table's hands read for one judgement of letting the bid go.
CAP = 400
#: A chance of winning by passing from which the advice says passing already wins.
SURE = 0.9
#: Bumped whenever the method changes: a table kept by another is not used.
METHOD = 6


@dataclass(frozen=True)
class HandOutcomes:
    """The table's hands: the side that bid each (-1: thrown in, no bid) and each side's
    score change (N, 2)."""

    bidding: np.ndarray
    points: np.ndarray
    defenders_meld: float
    #: (N,) the contract of each hand bid (0: thrown in), the bidding side's total (the
    #: meld that counts and its tricks) and the highest the winner would have bid
    contract: np.ndarray | None = None
    totals: np.ndarray | None = None
    limits: np.ndarray | None = None
    melds: np.ndarray | None = None  #: the bidding side's meld that counts

    def both_ways(self) -> HandOutcomes:
        """Each hand twice: as dealt, and with the sides swapped."""
        swapped = np.where(self.bidding >= 0, 1 - self.bidding, -1)
        return HandOutcomes(
            np.concatenate([self.bidding, swapped]),
            np.concatenate([self.points, self.points[:, ::-1]]),
            self.defenders_meld,
            *(
                np.concatenate([part, part])
                for part in (self.contract, self.totals, self.limits, self.melds)
            ),
        )


def within_reach(ours: int, theirs: int, target: int) -> bool:
    """Whether the table reaches these scores: no side more than a whole target behind
    (the table counts a side further behind as a target behind, which would overstate its
    chance)."""
    return min(ours, theirs) >= -target


def check_two_sides(variant: Variant) -> None:
    if variant.bidding is None:
        raise UnsupportedError(f"{variant.name} has no auction: no bid to judge by the game")
    if not (variant.partnerships and variant.players % 2 == 0):
        raise UnsupportedError(
            f"the game's score in a bid is worked out for games of two sides so far;"
            f" {variant.name} has {variant.players} players each for himself"
        )
    if variant.bidding.game is None:
        raise UnsupportedError(f"{variant.name} has no game target: give a house file one")


def hand_outcomes(variant: Variant, count: int = DEALS, seed: int = SEED) -> HandOutcomes:
    """``count`` deals bid by the stated policy, played out and scored (module docstring)."""
    from meldcalc.dealing.bidmodel import model_for

    check_two_sides(variant)
    rng = np.random.default_rng(seed)
    players = variant.players
    counts = _deal(variant, count, rng)
    model = model_for(variant)
    by_trump = [model.levels_by_trump(counts[:, seat], variant) for seat in range(players)]
    levels = np.stack([np.stack([level[s] for s in SUITS], axis=1) for level in by_trump], axis=1)
    trumps = levels.argmax(axis=2)  # (N, players): each seat's best trump
    limits = _legal_floor(variant, levels.max(axis=2))  # the highest legal bid each would make
    winner, contract = _auction(variant, limits)
    played = winner >= 0
    seats = (winner[played, None] + np.arange(players)) % players  # the bidder in seat 0
    rows = np.flatnonzero(played)
    hands = counts[rows[:, None], seats]
    trump = trumps[rows, winner[played]]
    melds, tricks = _play(variant, hands, trump)
    points = np.zeros((count, 2), dtype=np.int64)
    scored = scored_fast(variant, contract[played], melds, tricks)
    bidding = np.where(played, winner % 2, -1)
    side = bidding[played]
    points[rows, side] = scored[:, 0]
    points[rows, 1 - side] = scored[:, 1]
    contracts = np.where(played, contract, 0)
    totals = np.zeros(count, dtype=np.int64)
    totals[rows] = scored[:, 2]
    reached = np.zeros(count, dtype=np.int64)
    reached[rows] = limits[rows, winner[played]]
    bid_meld = np.zeros(count, dtype=np.int64)
    bid_meld[rows] = scored[:, 3]
    defended = float(melds[:, 1].mean()) if len(melds) else 0.0
    return HandOutcomes(bidding, points, defended, contracts, totals, reached, bid_meld)


def _deal(variant: Variant, count: int, rng: np.random.Generator) -> np.ndarray:
    """(count, players, 24) hands of random deals."""
    deck = np.repeat(np.arange(NUM_CARDS), [variant.deck.copies_of(card) for card in CARDS])
    shuffled = rng.permuted(np.broadcast_to(deck, (count, len(deck))), axis=1)
    size, players = variant.hand_size, variant.players
    hands = np.zeros((count, players, NUM_CARDS), dtype=np.int64)
    for seat in range(players):
        cards = shuffled[:, seat * size : (seat + 1) * size]
        np.add.at(hands[:, seat], (np.arange(count)[:, None], cards), 1)
    return hands


def _legal_bids(variant: Variant, top: float) -> np.ndarray:
    bidding, bids = variant.bidding, [variant.bidding.opening]
    while bids[-1] < top:
        bids.append(bidding.next_bid(bids[-1]))
    return np.array(bids)


def _legal_floor(variant: Variant, levels: np.ndarray) -> np.ndarray:
    """The highest legal bid at or below each level; -1 below the opening bid."""
    finite = levels[np.isfinite(levels)]
    bids = _legal_bids(variant, float(finite.max()) if len(finite) else 0.0)
    at = np.searchsorted(bids, np.where(np.isfinite(levels), levels, -1.0), side="right") - 1
    return np.where(at >= 0, bids[np.clip(at, 0, None)], -1)


def _auction(variant: Variant, limits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The winner of each deal's auction (-1: no bid) and its contract: the seat whose
    limit is highest (the first to speak of equals), at the bid above the highest limit of
    the other side (partners do not bid each other up; the opening at least, its own
    limit at most); the dealer (the last seat) at the opening bid where every seat passed
    and the dealer must bid."""
    bidding = variant.bidding
    winner = limits.argmax(axis=1)
    top = limits.max(axis=1)
    others = limits.copy()
    partners = (np.arange(limits.shape[1])[None, :] % 2) == (winner[:, None] % 2)
    others[partners] = -1
    second = others.max(axis=1)
    bids = _legal_bids(variant, float(max(top.max(), bidding.opening)))
    above = bids[np.clip(np.searchsorted(bids, second, side="right"), 0, len(bids) - 1)]
    contract = np.minimum(np.maximum(above, bidding.opening), np.maximum(top, bidding.opening))
    nobody = top < bidding.opening
    if bidding.dealer_forced:
        winner = np.where(nobody, variant.players - 1, winner)
        contract = np.where(nobody, bidding.opening, contract)
    else:
        winner = np.where(nobody, -1, winner)
    return winner, contract


def _play(variant: Variant, hands: np.ndarray, trump: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each deal's meld and trick points by side (the bidder's first), the pass made where
    the variant has one, played out by meldcalc's player."""
    from meldcalc.dealing.passing import after_pass, passes
    from meldcalc.engines.simulate import Game, Table
    from meldcalc.rules.meld import engine_for

    players = variant.players
    if variant.passing is not None:
        for suit in SUITS:
            rows = np.flatnonzero(trump == suit.index)
            if len(rows):
                sent, back = passes(hands[rows], variant, suit, suit)
                hands[rows] = after_pass(hands[rows], sent, back)
    engine = engine_for(variant)
    seat_meld = np.zeros((len(hands), players), dtype=np.int64)
    for seat in range(players):
        totals = engine.totals(hands[:, seat])
        picked = np.stack([totals[suit] for suit in SUITS], axis=1)
        seat_meld[:, seat] = picked[np.arange(len(hands)), trump]
    melds = np.stack([seat_meld[:, 0::2].sum(axis=1), seat_meld[:, 1::2].sum(axis=1)], axis=1)
    game = Game.from_counts(Table.of(variant, trump), hands, variant.deck.copies)
    tricks = game.play().team_points
    return melds, tricks


def _scored(
    variant: Variant, contract: np.ndarray, melds: np.ndarray, tricks: np.ndarray
) -> np.ndarray:
    """(N, 4) the bidder's side's and the others' points, as `meldcalc score` scores each
    hand (a side that took no trick point is taken to have taken no trick or counter), the
    bidder's side's total (the meld that counts and the tricks) and its meld that counts:
    the plain form of `scored_fast`, one `score_hand` a hand."""
    from meldcalc.rules.scoring import HandPlay, counter_cards, score_hand, tricks_in_hand

    saving = variant.house.save_meld is not None
    scored = np.zeros((len(contract), 4), dtype=np.int64)
    for i in range(len(contract)):
        points = (int(tricks[i, 0]), int(tricks[i, 1]))
        play = HandPlay(int(contract[i]), 0, (int(melds[i, 0]), int(melds[i, 1])), points)
        if saving:
            play = replace(
                play,
                tricks_taken=_shared(points, tricks_in_hand(variant)),
                counters_taken=_shared(points, counter_cards(variant)),
            )
        score = score_hand(variant, play)
        scored[i] = (*score.points, score.counted_meld[0] + points[0], score.counted_meld[0])
    return scored


def scored_fast(
    variant: Variant, contract: np.ndarray, melds: np.ndarray, tricks: np.ndarray
) -> np.ndarray:
    """`_scored`, for every hand at once in a few array operations (tests hold the two
    equal): a side's meld counts unless under the meld minimum or, by the save-meld rule,
    unsaved (no trick or counter: no trick point; N points: fewer than N); the bidder's
    side makes its bid with its counted meld and tricks, or loses the bid (times the set
    penalty)."""
    rule = variant.house.save_meld
    lost = (melds > 0) & (melds < variant.meld_minimum)
    if rule in ("trick", "counter"):
        lost |= (melds > 0) & (tricks == 0)
    elif isinstance(rule, int):
        lost |= (melds > 0) & (tricks < rule)
    counted = np.where(lost, 0, melds)
    total = counted[:, 0] + tricks[:, 0]
    made = total >= contract
    points = counted + tricks
    points[:, 0] = np.where(made, points[:, 0], -contract * variant.house.set_penalty)
    return np.column_stack([points, total, counted[:, 0]]).astype(np.int64)


def _shared(points: tuple[int, int], total: int) -> tuple[int, int]:
    """A split of ``total`` tricks (or counters) that fits the points: none to a side that
    took no point, else half each."""
    if not points[0]:
        return 0, total
    if not points[1]:
        return total, 0
    return total // 2, total - total // 2


# --- the table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class EquityTable:
    """``win[i, j]``: the chance side A wins the game with its score at ``low + i * step``
    and side B's at ``low + j * step``, before a hand."""

    target: int
    step: int
    low: int
    both_reach: str
    opening: int
    set_penalty: int
    win: np.ndarray
    defenders_meld: float
    #: the score changes (A's, B's) of the table's hands A did not bid, whether B bid it
    #: (1) or no one did (0), B's contract, and each one's share of them: what a pass, or
    #: stopping below a level, leads to
    passing: np.ndarray
    passing_share: np.ndarray

    def letting_go(
        self,
        level: int,
        below: int,
        own_meld: np.ndarray | float,
        ours: np.ndarray | float,
        theirs: np.ndarray | float,
    ) -> np.ndarray | float:
        """The chance your side wins if it does not bid ``level`` when the others have bid
        ``below`` (the bid under it): they play it, with the hands of the table that would
        bid that high (the highest-reaching `FEW` when fewer did), made or set at
        ``below``, your side defending with ``own_meld`` in place of the defenders' mean.
        At the opening bid (``below`` 0), a pass: the hands the others bid, as bid, and
        those no one bid. Arrays give one chance each (at most `CAP` hands are read,
        evenly through their shares)."""
        picked, share = self._pushing(level, below)
        gained = picked[:, 1]
        if level > self.opening:  # played at ``below``: made if their total reaches it
            gained = np.where(picked[:, 4] >= below, picked[:, 4], -below * self.set_penalty)
        scalar = np.ndim(ours) == 0
        own, ours, theirs = (
            np.atleast_1d(np.asarray(x, dtype=float)) for x in (own_meld, ours, theirs)
        )
        gain = picked[None, :, 0] + picked[None, :, 2] * (own[:, None] - self.defenders_meld)
        after = self.after(
            ours[:, None] + gain, theirs[:, None] + gained[None, :], np.ones(gain.shape)
        )
        chances = after @ share
        return float(chances[0]) if scalar else chances

    def their_meld(self, level: int, below: int) -> float:
        """The others' meld where they bid ``below`` (the hands `letting_go` reads); the
        defenders' mean at the opening bid."""
        if level <= self.opening:
            return self.defenders_meld
        picked, share = self._pushing(level, below)
        return float(picked[:, 6] @ share)

    def _pushing(self, level: int, below: int) -> tuple[np.ndarray, np.ndarray]:
        """The table's hands the others bid as high as ``below`` (the highest-reaching
        `FEW` when fewer did; every hand A did not bid, at the opening), at most `CAP` of
        them evenly through their shares, and each one's share."""
        rows, share = self.passing, self.passing_share
        theirs_bid = rows[:, 2] == 1
        if level <= self.opening:
            chosen = np.ones(len(rows), dtype=bool)
        else:
            chosen = theirs_bid & (rows[:, 5] >= below)
            if chosen.sum() < FEW:
                order = np.argsort(np.where(theirs_bid, rows[:, 5], -1), kind="stable")
                chosen = np.zeros(len(rows), dtype=bool)
                chosen[order[-FEW:]] = True
        picked, share = rows[chosen], share[chosen]
        if len(picked) > CAP:  # evenly through the cumulative shares: the same every time
            at = np.searchsorted(np.cumsum(share) / share.sum(), (np.arange(CAP) + 0.5) / CAP)
            picked, share = picked[at], np.ones(CAP)
        return picked, share / share.sum()

    def after(self, ours: np.ndarray, theirs: np.ndarray, bidding: np.ndarray) -> np.ndarray:
        """The chance your side wins from scores ``ours``/``theirs`` just after a hand
        ``bidding`` (0: your side, 1: theirs) bid: decided if a side reached the target."""
        ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
        out_us, out_them = ours >= self.target, theirs >= self.target
        below = self.target - 1
        inside = self._lookup(np.minimum(ours, below), np.minimum(theirs, below))
        both = out_us & out_them
        if self.both_reach == "bidder":
            both_value = np.where(np.asarray(bidding) == 0, 1.0, 0.0)
        else:
            both_value = np.where(ours > theirs, 1.0, np.where(ours < theirs, 0.0, 0.5))
        value = np.where(out_us, 1.0, np.where(out_them, 0.0, inside))
        return np.where(both, both_value, value)

    def chance(self, ours: float, theirs: float) -> float:
        """The chance your side wins the game from these scores, before a hand."""
        return float(self.after(np.array([ours]), np.array([theirs]), np.array([-1]))[0])

    def _lookup(self, ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """Bilinear reading of the table between its steps."""
        size = self.win.shape[0]
        x = np.clip((ours - self.low) / self.step, 0, size - 1)
        y = np.clip((theirs - self.low) / self.step, 0, size - 1)
        x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
        x1, y1 = np.minimum(x0 + 1, size - 1), np.minimum(y0 + 1, size - 1)
        fx, fy = x - x0, y - y0
        win = self.win
        return (
            win[x0, y0] * (1 - fx) * (1 - fy)
            + win[x1, y0] * fx * (1 - fy)
            + win[x0, y1] * (1 - fx) * fy
            + win[x1, y1] * fx * fy
        )


def build(
    variant: Variant,
    target: int | None = None,
    outcomes: HandOutcomes | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EquityTable:
    """The equity table of ``variant`` (to ``target``, the variant's own by default)."""
    check_two_sides(variant)
    target = target or variant.bidding.game
    if target <= 0:
        raise MeldcalcError(f"a game to {target}: expected a target above 0")
    hands = (outcomes or hand_outcomes(variant)).both_ways()
    step = max(1, target // STEPS)
    low = -target
    size = (target - low) // step
    moves, chances = _moves(hands, step)
    pad = int(np.abs(moves[:, :2]).max()) + 1
    extended = np.zeros((2, size + 2 * pad, size + 2 * pad))
    scores = low + (np.arange(-pad, size + pad)) * step
    ours, theirs = np.meshgrid(scores, scores, indexing="ij")
    rule, meld = variant.bidding.both_reach, hands.defenders_meld
    others = hands.bidding != 0
    rows = np.column_stack(
        [
            hands.points[others],
            hands.bidding[others] == 1,
            hands.contract[others],
            hands.totals[others],
            hands.limits[others],
            hands.melds[others],
        ]
    )
    passed, share = np.unique(rows, axis=0, return_counts=True)
    share = share / share.sum()
    opening, penalty = variant.bidding.opening, variant.house.set_penalty
    table = EquityTable(
        target, step, low, rule, opening, penalty, np.full((size, size), 0.5), meld, passed, share
    )
    for bidder in (0, 1):
        extended[bidder] = table.after(ours, theirs, np.full(ours.shape, bidder))
    win = np.full((size, size), 0.5)
    clip = np.clip(np.arange(-pad, size + pad), 0, size - 1)
    inner = slice(0, size + pad)  # every cell below the target, those beyond the low end too
    for sweep in range(1, 1000):
        for bidder in (0, 1):
            extended[bidder][inner, inner] = win[np.ix_(clip[inner], clip[inner])]
        new = np.zeros_like(win)
        for (move_a, move_b, bidder), chance in zip(moves, chances):
            start_a, start_b = pad + move_a, pad + move_b
            after = extended[max(bidder, 0)]
            new += chance * after[start_a : start_a + size, start_b : start_b + size]
        change = float(np.abs(new - win).max())
        win = new
        if progress is not None:
            progress(sweep, 0)
        if change < TOLERANCE:
            break
    return EquityTable(target, step, low, rule, opening, penalty, win, meld, passed, share)


def _moves(hands: HandOutcomes, step: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (score change of A, of B, in steps; the side that bid) of the hands,
    and the share of hands each has."""
    rounded = np.rint(hands.points / step).astype(np.int64)
    keys = np.column_stack([rounded, hands.bidding])
    moves, counts = np.unique(keys, axis=0, return_counts=True)
    return moves, counts / counts.sum()


# --- kept once worked out ---------------------------------------------------------------------


def table_for(
    variant: Variant, target: int | None = None, progress: Callable[[int, int], None] | None = None
) -> EquityTable:
    """The equity table of ``variant`` to ``target``: from the cache, or worked out (about
    a second) and kept there."""
    from meldcalc.rules.cache import digest, read_data, write_data

    check_two_sides(variant)
    target = target or variant.bidding.game
    rules = json.dumps(variant.data, sort_keys=True, default=str)
    name = f"equity {METHOD} {DEALS} {SEED} {target} {digest(rules.encode())}"
    kept = read_data(name)
    if kept is not None:
        try:
            return _from_json(kept)
        except (KeyError, TypeError, ValueError):
            pass  # a damaged entry: work it out again
    table = build(variant, target, progress=progress)
    write_data(name, _to_json(table))
    return table


def _to_json(table: EquityTable) -> dict:
    return {
        "target": table.target,
        "step": table.step,
        "low": table.low,
        "both_reach": table.both_reach,
        "opening": table.opening,
        "set_penalty": table.set_penalty,
        "win": np.round(table.win, 6).tolist(),
        "defenders_meld": table.defenders_meld,
        "passing": table.passing.tolist(),
        "passing_share": table.passing_share.tolist(),
    }


def _from_json(data: dict) -> EquityTable:
    win = np.array(data["win"], dtype=float)
    passing = np.array(data["passing"], dtype=np.int64).reshape(-1, 7)
    share = np.array(data["passing_share"], dtype=float)
    if win.ndim != 2 or win.shape[0] != win.shape[1] or len(share) != len(passing):
        raise ValueError("a damaged equity table")
    return EquityTable(
        int(data["target"]),
        int(data["step"]),
        int(data["low"]),
        str(data["both_reach"]),
        int(data["opening"]),
        int(data["set_penalty"]),
        win,
        float(data["defenders_meld"]),
        passing,
        share,
    )


# --- a bid at a score -------------------------------------------------------------------------


@dataclass(frozen=True)
class GameOdds:
    """What a bid does to the game at a score: each level's chance of making it and of
    winning the game when your side names trump there, and the chance of winning if you
    pass; the highest bid that wins more games than passing (None: pass), the one to go up
    to in the auction, beside the fixed-confidence one."""

    ours: int
    theirs: int
    target: int
    levels: tuple[tuple[int, float, float], ...]  # (bid, P(make), P(win the game))
    passing: float
    best: int | None
    rule: int | None
    #: the chance of winning if you let the others play at the bid below ``best``
    letting: float | None = None

    def win_at(self, bid: int | None) -> float:
        if bid is None:
            return self.passing
        return next((win for level, _, win in self.levels if level == bid), self.passing)

    def sentences(self) -> list[str]:
        """What a player reads: how high to go to win the most games, and where the
        fixed-confidence rule would stop instead."""
        apart = "-" if min(self.ours, self.theirs) >= 0 else " to "
        score = f"at {self.ours}{apart}{self.theirs} (a game to {self.target})"
        lines = []
        if self.passing >= SURE:
            lines.append(f"Passing already wins {self.passing:.0%} of games {score}.")
        if self.best is None:
            lines.append(
                f"To win the game {score}: pass; passing wins {self.passing:.0%} of games,"
                + (" and no bid wins more." if self.passing >= 0.005 else " and so does any bid.")
            )
        else:
            lines.append(
                f"To win the game {score}: bid up to {self.best}; there your side still wins"
                f" {self.win_at(self.best):.0%} of games (made {self._made(self.best):.0%} of"
                f" the time), against {self.letting:.0%} if you let the others play it at the"
                " bid below;"
                f" passing now wins {self.passing:.0%}."
            )
        if self.best != self.rule:
            rule = "pass" if self.rule is None else f"stop at {self.rule}"
            bolder = self.rule is None or (self.best is not None and self.best > self.rule)
            why = (
                "at this score the made bid wins more games than the set loses"
                if bolder
                else "at this score a set loses more games than the made bid wins"
            )
            lines.append(
                f"The score changes the bid: the fixed-confidence rule would {rule}, but {why}."
            )
        return lines

    def _made(self, bid: int) -> float:
        return next((made for level, made, _ in self.levels if level == bid), 0.0)

    def json(self) -> dict:
        return {
            "score": [self.ours, self.theirs],
            "target": self.target,
            "levels": [
                {"bid": level, "make": round(made, 4), "win": round(win, 4)}
                for level, made, win in self.levels
            ],
            "pass_win": round(self.passing, 4),
            "win_if_outbid": None if self.letting is None else round(self.letting, 4),
            "suggested_bid": self.best,
            "fixed_confidence_bid": self.rule,
        }


def game_odds(report: object, table: EquityTable, ours: int, theirs: int) -> GameOdds:
    """The bid's levels judged by the game (module docstring, step 3), from ``report``'s
    best trump and its simulated deals."""
    variant, best = report.variant, report.best
    totals = best.totals.astype(float)
    tricks = variant.trick_total - best.tricks  # the others' tricks in your deals
    bids = _legal_bids(variant, float(np.percentile(totals, 99)))
    penalty = variant.house.set_penalty
    levels, below = [], 0
    for bid in bids:  # the others' meld: that of hands which bid the bid below
        made = totals >= bid
        gained = table.their_meld(int(bid), below) + tricks
        after = table.after(
            np.where(made, ours + totals, ours - bid * penalty),
            theirs + gained,
            np.zeros(len(totals)),
        )
        levels.append((int(bid), float(made.mean()), float(after.mean())))
        below = int(bid)
    # stopping below a level: the others take the bid above it (`EquityTable.letting_go`),
    # your side defending with its own meld (the mean over the trumps: theirs to name)
    own_meld = float(np.mean([odds.meld for odds in report.results])) + (best.partner_meld or 0)
    bidding = variant.bidding
    passing = table.letting_go(bidding.opening, 0, own_meld, ours, theirs)
    chosen, letting, below = None, None, 0
    if best.biddable:
        for level, _, win in levels:  # up while bidding beats letting go: a pass is final
            outbid = table.letting_go(level, below, own_meld, ours, theirs)
            if win <= outbid:
                break
            chosen, letting, below = level, outbid, level
    return GameOdds(
        ours, theirs, table.target, tuple(levels), passing, chosen, report.suggested_bid, letting
    )
