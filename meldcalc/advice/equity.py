"""The game's score in a bid: the chance a side wins the game from each set of scores.

Backgammon players judge a move by the match it wins, from a match equity table; here the
table is worked out from the variant's own rules, in three steps:

1. Hands: seeded random deals (`DEALS`), each bid as a stated policy bids it: every seat
   goes as high as the fast bid model (`meldcalc.dealing.bidmodel`) says its hand is
   worth, the highest wins (the first to speak of equals) at the bid just above the
   highest of the other sides (partners do not bid each other up; the opening bid at
   least; the dealer takes the opening where it must);
   the winner takes the widow and buries as `bid` does, names its best trump, the pass is
   made where the variant has one, and the deal is played out by meldcalc's player and
   scored exactly as `meldcalc score` scores a hand (made or set, the set penalty, the
   meld minimum and the save-meld rule). A deal no seat bids is thrown in: no score
   changes. Each deal counts once for every way of seating the sides in it (two sides:
   either side in either seat; three: the six orders), so the table is the same for
   every side.
2. The table: the chance side A wins from scores (a, b) (three sides: (a, b, c)) before a
   hand is the mean, over those hands, of its chance after it: 1 or 0 once a side reaches
   the target (two or more at once: the highest total, equal totals playing on, counted
   as an even chance between them, or the bidding side where ``both_reach: bidder``),
   else the table at the new scores. Scores go down when a bid is set, so the table is
   solved by iteration until it moves less than `TOLERANCE`; each sweep is a correlation
   of the table with the hands' score changes, done by FFT (a test holds the solved table
   to the sum over the hands written out). Scores are counted in steps of a fiftieth of
   the target (20 points in a single-deck game to 1,000; a twentieth where three sides
   keep score; coarser where a hand moves a score more than `REACH` steps), the cells
   ending one step short of the target whatever the step (`grid`), and reach a whole
   target behind at least: a side further behind is read as at the table's edge, which
   the bid says (`EquityTable.beyond`).
3. A bid at a score (`game_odds`): your hand's simulated deals give, at each level, your
   side's points if made (or the bid lost if set) and the others' (their tricks in your
   deals, split evenly where two others keep score, and the meld of the table's hands
   that bid the level below: a side that pushed you there holds meld), each hand scored
   as `meldcalc score` scores it (`rules.scoring`); the chance of
   winning after each, from the table. Stopping below a level is judged by the table's
   hands another side bid that high, rescored at the bid below (a hand strong enough to
   outbid you is one that hurts), your side defending with its own meld (your hand's mean
   over the trumps, and your partner's expected meld) in place of the defenders' mean;
   passing at the opening bid, with the hands no one bid too. Where two others keep
   score, either may be the one that bids: the mean of both. The suggested bid is where
   to stop: up from the opening, each level while bidding it wins more games than letting
   the others play at the bid below (a pass is final).

The same seed gives the same table. A table is worked out once and kept in the cache
(`meldcalc.rules.cache`), sealed, under a digest of the variant's rules, the target and
this method.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from meldcalc.advice.tablehands import (
    DEALS,
    SEED,
    HandOutcomes,
    check_tabled,
    hand_outcomes,
    legal_bids,
    sides_of,
)
from meldcalc.errors import MeldcalcError
from meldcalc.rules.settle import bidding_side_points
from meldcalc.rules.variant import Variant

#: Steps of the score a target is divided into (by the number of sides).
STEPS = {2: 50, 3: 20}
#: The most steps one hand may move a score: a game short beside its hands (a house file's
#: target of 100 where a hand scores 1,000) is counted in coarser steps, so that the table
#: and its FFTs stay small (the shipped games' hands move at most 37 steps).
REACH = {2: 100, 3: 40}
#: The iteration stops once no chance moves more than this.
TOLERANCE = 1e-5
#: The fewest of the table's hands a level's "they bid this high" is judged by.
FEW = 200
#: The most of the table's hands read for one judgement of letting the bid go.
CAP = 400
#: A chance of winning by passing from which the advice says passing already wins.
SURE = 0.9
#: How much more often bidding on must win than letting go, to be the better: below this
#: the two are equal (at a score near home both can be 1 but for the last bit, which then
#: decided the bid and differed from one machine's arithmetic to another's: 250 or 370).
TIE = 1e-9
#: Bumped whenever the method changes: a table kept by another is not used.
METHOD = 8


def within_reach(scores: Sequence[int], target: int) -> bool:
    """Whether every table of ``target`` holds these scores as they are: no side more than
    a whole target behind (further behind, `EquityTable.beyond`)."""
    return min(scores) >= -target


def seated(totals: Sequence[int], side: int) -> tuple[int, ...]:
    """The sides' scores from ``side``'s: its own, then the others' in playing order from
    its left (the order `game_odds` takes them in)."""
    return tuple(totals[(side + k) % len(totals)] for k in range(len(totals)))


# --- the table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class EquityTable:
    """``win[i, j]`` (three sides: ``win[i, j, k]``): the chance side A wins the game with
    its score at ``low + i * step``, the next side's at ``low + j * step`` (and so on),
    before a hand."""

    target: int
    step: int
    low: int
    both_reach: str
    opening: int
    win: np.ndarray
    defenders_meld: float
    #: the score changes (A's first, then the bidder's when another side bid), whether
    #: another side bid (1) or no one did (0), the contract, the bidder's total, how high
    #: it would have gone and its meld, of the table's hands A did not bid, and each one's
    #: share of them: what a pass, or stopping below a level, leads to
    passing: np.ndarray
    passing_share: np.ndarray

    @property
    def sides(self) -> int:
        return self.win.ndim

    def orders(self) -> list[tuple[int, ...]]:
        """Who of the others is the one that bids: each order of them after side A."""
        return [(0, *rest) for rest in itertools.permutations(range(1, self.sides))]

    def beyond(self, scores: Sequence[int]) -> list[str]:
        """What to say of scores below the table's first cell (more than a whole target
        behind, after deep sets): they are read as at that cell."""
        edge = self.low
        deep = [score for score in scores if score < edge]
        if not deep:
            return []
        one = len(deep) == 1
        who = f"a side at {deep[0]} is" if one else f"sides at {' and '.join(map(str, deep))} are"
        return [
            f"the game's table reaches {edge}, a whole target behind: {who} judged as at"
            f" {edge}, a little nearer winning than {'it is' if one else 'they are'}"
        ]

    def letting_go(
        self,
        variant: Variant,
        level: int,
        below: int,
        own_meld: np.ndarray | float,
        scores: np.ndarray,
    ) -> np.ndarray | float:
        """The chance your side wins if it does not bid ``level`` when another side has
        bid ``below`` (the bid under it): it plays it, with the hands of the table that
        would bid that high (the highest-reaching `FEW` when fewer did), made or set at
        ``below``, your side defending with ``own_meld`` in place of the defenders' mean.
        At the opening bid (``below`` 0), a pass: the hands the others bid, as bid, and
        those no one bid. ``scores``: yours first (one row of scores, or a row per chance
        wanted, each with its ``own_meld``); at most `CAP` hands are read, evenly through
        their shares."""
        picked, share = self._pushing(level, below)
        sides = self.sides
        gained = picked[:, :sides].astype(float)
        if level > self.opening:  # played at ``below``: made if their reach reaches it
            gained[:, 1] = bidding_side_points(variant, below, picked[:, sides + 2])
        scalar = np.ndim(scores) == 1
        scores = np.atleast_2d(np.asarray(scores, dtype=float))
        own = np.broadcast_to(np.asarray(own_meld, dtype=float), (len(scores),))
        gain = np.repeat(gained[None], len(scores), axis=0)
        gain[..., 0] += picked[None, :, sides] * (own[:, None] - self.defenders_meld)
        chances = np.zeros(len(scores))
        for order in self.orders():
            after = self.after(scores[:, None, order] + gain, np.ones(gain.shape[:2]))
            chances += after @ share
        chances /= len(self.orders())
        return float(chances[0]) if scalar else chances

    def their_meld(self, level: int, below: int) -> float:
        """The meld of the side that bid ``below`` (the hands `letting_go` reads); the
        defenders' mean at the opening bid."""
        if level <= self.opening:
            return self.defenders_meld
        picked, share = self._pushing(level, below)
        return float(picked[:, self.sides + 4] @ share)

    def _pushing(self, level: int, below: int) -> tuple[np.ndarray, np.ndarray]:
        """The table's hands another side bid as high as ``below`` (the highest-reaching
        `FEW` when fewer did; every hand A did not bid, at the opening), at most `CAP` of
        them evenly through their shares, and each one's share."""
        rows, share, sides = self.passing, self.passing_share, self.sides
        theirs_bid = rows[:, sides] == 1
        reached = rows[:, sides + 3]
        if level <= self.opening:
            chosen = np.ones(len(rows), dtype=bool)
        else:
            chosen = theirs_bid & (reached >= below)
            if chosen.sum() < FEW:
                order = np.argsort(np.where(theirs_bid, reached, -1), kind="stable")
                chosen = np.zeros(len(rows), dtype=bool)
                chosen[order[-FEW:]] = True
        picked, share = rows[chosen], share[chosen]
        if len(picked) > CAP:  # evenly through the cumulative shares: the same every time
            at = np.searchsorted(np.cumsum(share) / share.sum(), (np.arange(CAP) + 0.5) / CAP)
            picked, share = picked[at], np.ones(CAP)
        return picked, share / share.sum()

    def after(self, scores: np.ndarray, bidding: np.ndarray) -> np.ndarray:
        """The chance side A wins from ``scores`` (shape (..., sides), A's first) just after
        a hand ``bidding`` (the side that bid: 0 is A) bid: decided if a side reached the
        target (module docstring, step 2)."""
        scores = np.asarray(scores, dtype=float)
        columns = [np.ascontiguousarray(scores[..., side]) for side in range(self.sides)]
        out = [column >= self.target for column in columns]
        inside = self._lookup([np.minimum(column, self.target - 1) for column in columns])
        top = np.full(inside.shape, -np.inf)
        for column, home in zip(columns, out):
            top = np.maximum(top, np.where(home, column, -np.inf))
        leaders = [home & (column == top) for column, home in zip(columns, out)]
        value = leaders[0] / np.maximum(sum(lead.astype(int) for lead in leaders), 1)
        if self.both_reach == "bidder":
            bidding = np.asarray(bidding)
            for side, home in enumerate(out):
                value = np.where((bidding == side) & home, float(side == 0), value)
        anyone = np.logical_or.reduce(out)
        return np.where(anyone, value, inside)

    def chance(self, *scores: float) -> float:
        """The chance side A wins the game from these scores (A's first), before a hand."""
        return float(self.after(np.array([scores]), np.array([-1]))[0])

    def _lookup(self, columns: list[np.ndarray]) -> np.ndarray:
        """The table read between its steps (linear along each side's score), at each
        side's scores ``columns``."""
        size = self.win.shape[0]
        floors, ceilings, parts = [], [], []
        for column in columns:
            at = np.clip((column - self.low) / self.step, 0, size - 1)
            floor = np.floor(at).astype(int)
            floors.append(floor)
            ceilings.append(np.minimum(floor + 1, size - 1))
            parts.append(at - floor)
        value = np.zeros(columns[0].shape)
        for corner in itertools.product((0, 1), repeat=self.sides):
            index = tuple(c if up else f for up, f, c in zip(corner, floors, ceilings))
            weight = np.ones(columns[0].shape)
            for up, part in zip(corner, parts):
                weight *= part if up else 1 - part
            value += self.win[index] * weight
        return value


def grid(target: int, step: int) -> tuple[int, int]:
    """The table's cells along one side's score: how many, and the score of the first.
    The cells end one step short of the target, whatever the step (a score there or
    above has won, any other lies in or under the table), and reach a whole target behind
    at least."""
    size = -(-2 * target // step)
    return size, target - size * step


def build(
    variant: Variant,
    target: int | None = None,
    outcomes: HandOutcomes | None = None,
    progress: Callable[[int, int], None] | None = None,
    step: int | None = None,
) -> EquityTable:
    """The equity table of ``variant`` (to ``target``, the variant's own by default; in
    steps of ``step`` points, by default a fiftieth of the target, and never so fine that
    a hand moves a score more than `REACH` steps: module docstring)."""
    check_tabled(variant)
    target = target or variant.bidding.game
    if target <= 0:
        raise MeldcalcError(f"a game to {target}: expected a target above 0")
    hands = (outcomes or hand_outcomes(variant)).every_way()
    sides = hands.sides
    largest = int(np.abs(hands.points).max()) if len(hands.points) else 0
    step = max(1, step or target // STEPS[sides], -(-largest // REACH[sides]))
    size, low = grid(target, step)
    others = (hands.bidding != 0) & (hands.bidding <= 1)  # the bidder, if any, second
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
    table = EquityTable(
        target,
        step,
        low,
        variant.bidding.both_reach,
        variant.bidding.opening,
        np.full((size,) * sides, 1 / sides),
        hands.defenders_meld,
        passed,
        share,
    )
    win = _solve(table, *_moves(hands, step), progress)
    return replace(table, win=win)


def _solve(
    table: EquityTable,
    moves: np.ndarray,
    chances: np.ndarray,
    progress: Callable[[int, int], None] | None,
) -> np.ndarray:
    """The table's chances, by iteration from an even chance everywhere: each sweep the
    mean over the hands of the chance after each (`EquityTable.after` where a side goes
    out, worked out once; the table where none does), as one FFT correlation of the
    table, extended by the scores a hand can reach, with the hands' score changes."""
    sides, size = table.sides, table.win.shape[0]
    if not len(moves):  # no hand is ever bid: no score ever moves
        return np.full(table.win.shape, 1 / sides)
    down = int(max(0, -moves[:, :sides].min())) + 1  # the furthest a hand moves a score down
    up = int(max(0, moves[:, :sides].max())) + 1  # and up
    span = down + size + up
    axis = table.low + np.arange(-down, size + up) * table.step
    grid = np.stack(np.meshgrid(*[axis] * sides, indexing="ij"), axis=-1)
    shape = (_fast_length(span + down + up),) * sides
    inside = (slice(0, down + size),) * sides  # below the target: the table's own cells
    window = (slice(down + up, down + up + size),) * sides  # the table's cells in the result
    kernels = np.zeros((sides, *(down + up + 1,) * sides))
    np.add.at(
        kernels, (moves[:, sides], *(down + moves[:, side] for side in range(sides))), chances
    )
    flipped = kernels[(slice(None), *(slice(None, None, -1),) * sides)]
    spectra = np.fft.rfftn(flipped, s=shape, axes=range(1, sides + 1))
    axes = tuple(range(sides))
    settled = np.zeros((size,) * sides)  # what the hands that decide the game give
    for side in range(sides):
        decided = table.after(grid, np.full(grid.shape[:-1], side))
        decided[inside] = 0.0
        spectrum = np.fft.rfftn(decided, s=shape, axes=axes) * spectra[side]
        settled += np.fft.irfftn(spectrum, s=shape, axes=axes)[window]
    total = spectra.sum(axis=0)
    reach = np.clip(np.arange(-down, size + up), 0, size - 1)[: down + size]
    win = table.win
    extended = np.zeros((span,) * sides)
    for sweep in range(1, 1000):
        extended[inside] = win[np.ix_(*[reach] * sides)]
        mixed = np.fft.irfftn(
            np.fft.rfftn(extended, s=shape, axes=axes) * total, s=shape, axes=axes
        )
        new = np.clip(mixed[window] + settled, 0.0, 1.0)
        change = float(np.abs(new - win).max())
        win = new
        if progress is not None:
            progress(sweep, 0)
        if change < TOLERANCE:
            break
    return win


def _fast_length(least: int) -> int:
    """The smallest length from ``least`` up with no prime factor above 5 (fast FFTs)."""
    length = least
    while True:
        rest = length
        for prime in (2, 3, 5):
            while rest % prime == 0:
                rest //= prime
        if rest == 1:
            return length
        length += 1


def _moves(hands: HandOutcomes, step: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (score change of each side, in steps; the side that bid) of the hands
    bid, and the share of them each has: a hand thrown in changes no score, so it only
    delays the next (the table is the same without it)."""
    played = hands.bidding >= 0
    rounded = np.rint(hands.points[played] / step).astype(np.int64)
    keys = np.column_stack([rounded, hands.bidding[played]])
    moves, counts = np.unique(keys, axis=0, return_counts=True)
    return moves, counts / counts.sum()


# --- kept once worked out ---------------------------------------------------------------------


def table_for(
    variant: Variant, target: int | None = None, progress: Callable[[int, int], None] | None = None
) -> EquityTable:
    """The equity table of ``variant`` to ``target``: from the cache, or worked out (about
    a second) and kept there."""
    from meldcalc.rules.cache import digest, read_data, write_data

    check_tabled(variant)
    target = target or variant.bidding.game
    rules = json.dumps(variant.data, sort_keys=True, default=str)
    name = f"equity {METHOD} {DEALS[sides_of(variant)]} {SEED} {target} {digest(rules.encode())}"
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
        "win": np.round(table.win, 6).tolist(),
        "defenders_meld": table.defenders_meld,
        "passing": table.passing.tolist(),
        "passing_share": table.passing_share.tolist(),
    }


def _from_json(data: dict) -> EquityTable:
    win = np.array(data["win"], dtype=float)
    passing = np.array(data["passing"], dtype=np.int64).reshape(-1, win.ndim + 5)
    share = np.array(data["passing_share"], dtype=float)
    if win.ndim not in STEPS or len(set(win.shape)) != 1 or len(share) != len(passing):
        raise ValueError("a damaged equity table")
    return EquityTable(
        int(data["target"]),
        int(data["step"]),
        int(data["low"]),
        str(data["both_reach"]),
        int(data["opening"]),
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

    scores: tuple[int, ...]  # yours first, then the others' in playing order from your left
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

    @property
    def score(self) -> str:
        """The scores as players say them: 850-920, 850-920-400; -40 to 300."""
        return ("-" if min(self.scores) >= 0 else " to ").join(map(str, self.scores))

    def sentences(self) -> list[str]:
        """What a player reads: how high to go to win the most games, and where the
        fixed-confidence rule would stop instead."""
        score = f"at {self.score} (a game to {self.target})"
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
            "score": list(self.scores),
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


def game_odds(report: object, table: EquityTable, scores: Sequence[int]) -> GameOdds:
    """The bid's levels judged by the game (module docstring, step 3), from ``report``'s
    best trump and its simulated deals; ``scores`` yours first, then the others' in
    playing order from your left."""
    variant, best, sides = report.variant, report.best, table.sides
    if len(scores) != sides:
        raise MeldcalcError(f"{len(scores)} scores for a game of {sides} sides")
    at = np.asarray(scores, dtype=float)
    totals = best.totals.astype(float)
    # the others' tricks in your deals: each other side's share, as if split evenly
    tricks = (variant.trick_total - best.tricks) / (sides - 1)
    bids = legal_bids(variant, float(np.percentile(totals, 99)))
    levels, below = [], 0
    for bid in bids:  # the others' meld: that of hands which bid the bid below
        made = totals >= bid
        gained = np.empty((len(totals), sides))
        gained[:, 0] = bidding_side_points(variant, bid, totals)
        gained[:, 1] = table.their_meld(int(bid), below) + tricks
        gained[:, 2:] = (table.defenders_meld + tricks)[:, None]
        chances = [
            table.after(at[list(order)] + gained, np.zeros(len(totals))).mean()
            for order in table.orders()
        ]
        levels.append((int(bid), float(made.mean()), float(np.mean(chances))))
        below = int(bid)
    # stopping below a level: the others take the bid above it (`EquityTable.letting_go`),
    # your side defending with its own meld (the mean over the trumps: theirs to name)
    own_meld = float(np.mean([odds.meld for odds in report.results])) + (best.partner_meld or 0)
    bidding = variant.bidding
    passing = table.letting_go(variant, bidding.opening, 0, own_meld, at)
    chosen, letting, below = None, None, 0
    if best.biddable:
        for level, _, win in levels:  # up while bidding beats letting go: a pass is final
            outbid = table.letting_go(variant, level, below, own_meld, at)
            if win <= outbid + TIE:
                break
            chosen, letting, below = level, outbid, level
    return GameOdds(
        tuple(int(x) for x in scores),
        table.target,
        tuple(levels),
        passing,
        chosen,
        report.suggested_bid,
        letting,
    )
