"""The learned policy: the rules of `meldcalc.engines.simulate`, corrected by a small network
trained on the look-ahead player's choices.

At each decision with more than one legal card, every legal card of every deal is described
by the same few numbers (`FEATURES`): the card's own (`CARD_FEATURES`: what it is, what it
does to the trick, what the seat knows of who holds its suit, the cards above it it guards,
and whether the rules would play it) and the decision's, shared by its cards
(`DECISION_FEATURES`: the trick so far, the seat's place and side, the trumps and points
still out, and the game's shape: three or four players, how many copies of each card). A
two-layer network scores them, and the best-scored card is played (of equal scores the
lowest card). Everything it reads is what the seat may know, as for the rules: its own hand,
the cards played, the meld on the table and the suits and cards the others have shown they
lack.

The weights are small data files in the package, read once on first use and checked
(format, the names of the features they read, shapes, finite numbers): a damaged or
mismatched file is a clear error, never a silent fall back to the rules. Every game plays
the shared network (`policy.json`) but single deck, which plays its own
(`policy-single-deck.json`: `OWN`).
`bench/train_policy.py` made them, from its seeds: the decisions of games played by the
look-ahead player, each legal card valued over its layouts, the network fitted to lose as
few of those points as it can.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

import numpy as np

from meldcalc.engines.simulate import Game, Threat
from meldcalc.errors import MeldcalcError
from meldcalc.files import read_shipped_json
from meldcalc.rules.bits import (
    ABOVE,
    BITS,
    MASK,
    ONE,
    SUIT_MASK,
    lowest_bit_index,
    suits_of,
)

#: Bumped whenever the network's form changes: other weights are refused. A weights file
#: names the features it reads (`Network.columns`), each one of `FEATURES`: weights made
#: before a feature was added still read the features they were fitted to.
FORMAT = 2
#: What a legal card is and does, one row per card.
CARD_FEATURES = (
    "ace", "ten", "king", "queen", "jack", "nine",
    "trump", "counter", "higher unseen", "suit unseen", "suit held", "higher held",
    "lower held", "two copies", "wins now", "wins safely", "led suit", "foe may ruff",
    "partner may ruff", "rules play it", "partner shown above", "foe shown above",
    "foes in suit", "points unseen in suit", "held above at risk", "unguards",
)  # fmt: skip
#: What the decision is, shared by its legal cards.
DECISION_FEATURES = (
    "table points", "partner winning", "partner safe", "partner to play",
    "lead", "second", "third", "fourth", "bidder", "bidding side", "left of bidder",
    "tricks left", "trumps held", "trumps unseen", "foes out of trump",
    "partner out of trump", "points unseen", "three players", "copies",
)  # fmt: skip
FEATURES = CARD_FEATURES + DECISION_FEATURES
COLUMN = {name: at for at, name in enumerate(FEATURES)}
#: The columns of the features `_guards` works out, the last of `CARD_FEATURES`.
GUARDS = (COLUMN["held above at risk"], COLUMN["unguards"])
#: The features from here on are the decision's, the same for each of its legal cards.
SHARED = len(CARD_FEATURES)
#: The bounds of a weight, and the least feature scale, a file may hold: within them the
#: float32 scores of features of a few units cannot overflow.
LARGEST = 1e6
SMALLEST = 1e-6
#: The cards `Network.scores_apart` scores at once.
BLOCK = 4096
#: The higher cards of each card's suit, by bit.
HIGHER = ABOVE & SUIT_MASK[np.arange(BITS) % 4]
RANK_OF = np.arange(BITS) // 4
SUIT_OF = np.arange(BITS) % 4
#: Each 4-bit set of suits as four columns.
SUITS_OF_NIBBLE = ((np.arange(16)[:, None] >> np.arange(4)) & 1).astype(np.float32)


@dataclass(frozen=True)
class Network:
    """Scores of cards from their features: ``relu(x @ w1 + b1) @ w2 + b2``, the features
    first scaled by ``mean`` and ``scale``; ``columns``: the features it reads (their
    indices into `FEATURES`, rising), all of them by default."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float
    columns: tuple[int, ...] = tuple(range(len(FEATURES)))

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The scores of rows of all `FEATURES`."""
        w1, b1, w2 = self._folded
        if len(self.columns) < x.shape[1]:
            x = x[:, self.columns]
        hidden = x.astype(np.float32) @ w1
        hidden += b1
        np.maximum(hidden, 0.0, out=hidden)
        return hidden @ w2 + self.b2

    def scores_apart(
        self, cards: np.ndarray, decisions: np.ndarray, group: np.ndarray
    ) -> np.ndarray:
        """`scores` of ``np.hstack((cards, decisions[group]))``, the decisions' part of the
        first layer worked out once a decision, not once a card; the cards in blocks of
        `BLOCK`, whose hidden layer stays in the cache (a whole batch's, megabytes, does
        not: twice the time in a play-out)."""
        w1, b1, w2 = self._folded
        own, shared_columns = self._split
        if cards.shape[1] != len(own) or (len(own) and own[-1] != len(own) - 1):
            cards = cards[:, own]  # not the first columns alone: a copy
        if decisions.shape[1] != len(shared_columns):
            decisions = decisions[:, shared_columns]
        shared = decisions @ w1[len(own) :]
        shared += b1
        scores = np.empty(len(cards), dtype=np.float32)
        for start in range(0, len(cards), BLOCK):
            block = slice(start, start + BLOCK)
            hidden = cards[block] @ w1[: len(own)]
            hidden += shared.take(group[block], axis=0)
            np.maximum(hidden, 0.0, out=hidden)
            scores[block] = hidden @ w2
        scores += self.b2
        return scores

    def settled_scores(self, cards: np.ndarray, decisions: np.ndarray) -> np.ndarray:
        """`scores_apart` of a few cards (``decisions``: each card's own row), in float64
        summed by numpy's own loops in a fixed order, not BLAS's, and rounded to 1e-9:
        the same numbers on every machine, so equal scores stay equal and the lowest card
        wins their tie everywhere."""
        own, shared_columns = self._split
        x = np.hstack((cards[:, own], decisions[:, shared_columns])).astype(np.float64)
        w1, b1, w2 = self._settled
        hidden = np.einsum("ij,jk->ik", x, w1) + b1
        np.maximum(hidden, 0.0, out=hidden)
        return np.round(np.einsum("ij,j->i", hidden, w2) + self.b2, 9)

    @cached_property
    def _settled(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`_folded` in float64, its sums by numpy's loops (`settled_scores`). The first
        layer's rows follow ``columns``, rising: the card's own, then the decision's."""
        w1 = self.w1 / self.scale[:, None]
        b1 = self.b1 - np.einsum("j,jk->k", self.mean / self.scale, self.w1)
        return w1, b1, np.asarray(self.w2, dtype=np.float64)

    @cached_property
    def reads_guards(self) -> bool:
        """Whether it reads a guard (`_guards`): play works them out only then."""
        return not set(self.columns).isdisjoint(GUARDS)

    @cached_property
    def _split(self) -> tuple[np.ndarray, np.ndarray]:
        """The card's own features it reads (columns of `CARD_FEATURES`) and the decision's
        (columns of `DECISION_FEATURES`)."""
        columns = np.asarray(self.columns)
        return columns[columns < SHARED], columns[columns >= SHARED] - SHARED

    def widened(self) -> Network:
        """The same network reading every feature: those it did not read weigh nothing (a
        fit starting from it may learn to read them)."""
        width = len(FEATURES)
        mean, scale, w1 = np.zeros(width), np.ones(width), np.zeros((width, len(self.b1)))
        at = list(self.columns)
        mean[at], scale[at], w1[at] = self.mean, self.scale, self.w1
        return Network(mean, scale, w1, self.b1, self.w2, self.b2)

    @cached_property
    def _folded(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The first layer with the scaling folded in, in single precision (the scores'
        order is all that is read: a float32 sum is exact enough for it)."""
        _one_blas_thread()
        w1 = self.w1 / self.scale[:, None]
        b1 = self.b1 - (self.mean / self.scale) @ self.w1
        return w1.astype(np.float32), b1.astype(np.float32), self.w2.astype(np.float32)

    def json(self, **facts: object) -> dict:
        return {
            "format": FORMAT,
            "features": [FEATURES[column] for column in self.columns],
            **facts,
            **{
                name: np.asarray(getattr(self, name)).round(7).tolist()
                for name in ("mean", "scale", "w1", "b1", "w2", "b2")
            },
        }


@cache
def _one_blas_thread() -> None:
    """numpy's maths library (BLAS) on one thread in this process from now on. Its threads
    split a block's rows between them, and rows cut at a split are summed in another
    order: the same seed gave other odds with one thread than with two (0.918 and 0.9175
    in double deck), so a machine's core count would change them; and threads waiting on a
    busy machine made a block 12 times slower (2,960 us against 236 on two loaded cores).
    meldcalc's parallelism is its own (``--jobs``: whole chunks of deals to processes).
    threadpoolctl sets it at run time, whatever imported numpy first and however."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


def network_from(data: object, where: str) -> Network:
    """The network of a weights file's content, checked: its format and features, the
    shapes of its arrays, and finite numbers."""

    def bad(why: str) -> MeldcalcError:
        return MeldcalcError(f"{where}: {why}: {WAY_OUT}")

    if not isinstance(data, dict):
        raise bad(f"a JSON {_json_kind(data)} where an object of weights belongs")
    found = data.get("format")
    if type(found) is not int or found != FORMAT:  # True == 1, but is no format
        raise bad(f"weights of format {found!r}, expected {FORMAT}")
    columns = _columns(data.get("features"), bad)
    arrays = {}
    for name in ("mean", "scale", "w1", "b1", "w2", "b2"):
        if name not in data:
            raise bad(f"no {name}")
        arrays[name] = _numbers(data[name], name, bad)
    width = len(columns)
    w1 = arrays["w1"]
    if w1.ndim != 2 or w1.shape[0] != width or not w1.shape[1]:  # no hidden unit: all alike
        raise bad(
            f"w1 has shape {w1.shape}, expected ({width}, hidden units): a row for each of"
            f" the {width} features named"
        )
    hidden = w1.shape[1]
    shapes = {
        "mean": (width,),
        "scale": (width,),
        "w1": (width, hidden),
        "b1": (hidden,),
        "w2": (hidden,),
        "b2": (),
    }
    for name, shape in shapes.items():
        if arrays[name].shape != shape:
            raise bad(f"{name} has shape {arrays[name].shape}, expected {shape}")
        if not np.isfinite(arrays[name]).all():
            raise bad(f"{name} holds a number that is not finite")
        if (np.abs(arrays[name]) > LARGEST).any():  # the network scores in float32
            raise bad(f"{name} holds a number beyond ±{LARGEST:g}")
    if (arrays["scale"] < SMALLEST).any():
        raise bad(f"a feature scale below {SMALLEST:g}")
    order = np.argsort(columns)  # the card's own features first, as play splits them
    mean, scale, w1 = (arrays[name][order] for name in ("mean", "scale", "w1"))
    b1, w2, b2 = arrays["b1"], arrays["w2"], float(arrays["b2"])
    return Network(mean, scale, w1, b1, w2, b2, tuple(sorted(columns)))


def _columns(names: object, bad: Callable[[str], MeldcalcError]) -> list[int]:
    """The indices into `FEATURES` of a weights file's list of the features it reads."""
    if not isinstance(names, list) or not names:
        raise bad(f"features should be a list of the features read, not {names!r:.40}")
    for name in names:
        if not isinstance(name, str):
            raise bad(f"features holds a JSON {_json_kind(name)} where a feature's name belongs")
        if name not in COLUMN:
            raise bad(f"weights reading a feature this version does not know: {name!r:.40}")
    if len(set(names)) < len(names):
        raise bad("a feature named twice in the features read")
    return [COLUMN[name] for name in names]


def _numbers(value: object, name: str, bad: Callable[[str], MeldcalcError]) -> np.ndarray:
    """``value``, an array of a weights file, as floats: JSON numbers only (a string, true
    or null is none, though numpy would take them), in lists at most two deep, of one
    length a level."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, list):
            if depth == 2:
                raise bad(f"{name} is nested deeper than rows of numbers")
            stack.extend((inner, depth + 1) for inner in item)
        elif type(item) not in (int, float):
            raise bad(f"{name} holds a JSON {_json_kind(item)} where a number belongs")
    try:
        return np.array(value, dtype=float)
    except OverflowError:
        raise bad(f"{name} holds a number too large for any float") from None
    except ValueError:  # of a list ragged or mixing numbers and lists
        raise bad(f"{name} has rows of different lengths") from None


def _json_kind(value: object) -> str:
    """What JSON calls ``value``'s kind."""
    kinds = {dict: "object", list: "array", str: "string", bool: "true or false"}
    return "null" if value is None else kinds.get(type(value), "number")


#: The most a weights file may hold (the shipped one is 36 KB): a link to /dev/zero or a
#: huge file is refused before it is read, not read until memory runs out.
MAX_BYTES = 1 << 20
#: What every message about the weights ends with: the rules need no weights.
WAY_OUT = "reinstall meldcalc, or play the rules alone with --policy rules"


#: The network every table plays that has none of its own.
SHARED_NETWORK = "policy.json"
#: Tables with a network of their own, by the copies of each card, the seats and whether
#: they sit in partnerships: single deck's (two copies, four seats, partners), fitted on
#: from the shared one to single-deck decisions judged by a better teacher (inf63b:
#: bench/train_policy.py's docstring). Against the fixed yardstick it loses 3.6 trick points
#: a deal with the weak hand where the shared one loses 7.2; in the other games it gave up
#: part of what the shared one wins over the rules (0.6 of double deck's 50 points a deal,
#: 1.9 and 1.8 of three-handed's and cutthroat's), so they keep the shared one.
OWN = {(2, 4, True): "policy-single-deck.json"}


def network_file(copies: int, players: int, paired: bool) -> str:
    """The file of the network a table of ``players`` seats (``paired``: partners) and
    ``copies`` of each card plays."""
    return OWN.get((copies, players, paired), SHARED_NETWORK)


def network_of(game: Game) -> Network:
    """The shipped network ``game``'s table plays (`network_file`)."""
    partners = int((game.t.team == 0).sum()) > 1
    return shipped(network_file(game.hands.shape[0], game.t.players, partners))


@cache
def shipped(name: str) -> Network:
    """The package's weights file ``name`` (`SHARED_NETWORK`, one of `OWN`), read and
    checked once (`shipped_data`)."""
    return network_from(shipped_data(name), str(_shipped_path(name)))


def shipped_data(name: str) -> object:
    """The package's weights file ``name`` as JSON: a regular file (never a FIFO, which
    would block) of at most `MAX_BYTES`, nested no deeper than Python can parse."""
    return read_shipped_json(
        _shipped_path(name), MAX_BYTES, "the learned policy's weights", WAY_OUT
    )


def _shipped_path(name: str) -> Path:
    return Path(str(resources.files("meldcalc.engines") / name))


class Learned(Game):
    """A game whose seats play the learned policy (module docstring)."""

    network: Network | None = None  # None: the package's, the table's own (`network_of`)

    def _choose(self, seat: np.ndarray, held: np.ndarray, legal: np.ndarray) -> np.ndarray:
        rules = super()._choose(seat, held, legal)
        choice = learned_cards(self, seat, legal, rules, self.network or network_of(self))
        if self.random_seats.any():
            choice = np.where(self.random_seats[seat], rules, choice)
        return choice


def learned_cards(
    game: Game, seat: np.ndarray, legal: np.ndarray, rules: np.ndarray, network: Network
) -> np.ndarray:
    """The card (bit) ``network`` plays for the seat to play in every deal of ``game``,
    where it has a choice; ``rules``' card where it has none."""
    rows = np.flatnonzero(np.bitwise_count(legal) > 1)
    choice = rules.copy()
    if len(rows):
        group, bit, cards, decisions = _described(
            game, seat, legal, rules, rows, network.reads_guards
        )
        scores = network.scores_apart(cards, decisions, group)
        choice[rows] = best_cards(network, group, bit, cards, decisions, scores)
    return choice


#: Two best scores of a decision closer than this share of the best (plus one) are scored
#: again by `Network.settled_scores`: float32 sums in BLAS's order err by far less.
NEAR_TIE = 2.0**-10


def best_cards(
    network: Network,
    group: np.ndarray,
    bit: np.ndarray,
    cards: np.ndarray,
    decisions: np.ndarray,
    scores: np.ndarray,
) -> np.ndarray:
    """The bit of the best-scored card of each group (`_best_of_groups`), the near-tied
    groups scored again in an order no machine changes. BLAS sums a float32 row in an
    order its CPU kernel picks, so two machines may order two nearly equal scores apart:
    the same seed gave a README figure 0.2 on one and 0.1 on another. A gap far above
    that error orders the cards the same everywhere; only the near ties (about 0.05% of
    decisions) need the slow, settled sum (`Network.settled_scores`)."""
    starts = _starts(group)
    best = np.maximum.reduceat(scores, starts)
    picked = _best_of_groups(group, scores, starts, best)
    others = np.ones(len(group), dtype=bool)
    others[picked] = False  # an exact tie is a near one too: its second equals its best
    second = np.maximum.reduceat(np.where(others, scores, -np.inf), starts)
    near = (best - second) <= NEAR_TIE * (1.0 + np.abs(best))
    chosen = bit[picked]
    if near.any():
        at = near[group]
        sub_group = (np.cumsum(near) - 1)[group[at]]  # the near groups numbered 0 on
        settled = network.settled_scores(cards[at], decisions[group[at]])
        chosen[near] = bit[at][_best_of_groups(sub_group, settled, _starts(sub_group))]
    return chosen


def _starts(group: np.ndarray) -> np.ndarray:
    """Where each group begins (groups numbered 0 on, in order)."""
    return np.flatnonzero(np.r_[True, group[1:] != group[:-1]])


def _best_of_groups(
    group: np.ndarray, scores: np.ndarray, starts: np.ndarray, best: np.ndarray | None = None
) -> np.ndarray:
    """Where the best score of each group lies (each group's bits rising, ``starts`` where
    it begins, ``best`` its best score if known); of equal scores the last (the highest
    bit: the lowest card)."""
    if best is None:
        best = np.maximum.reduceat(scores, starts)
    at = np.where(scores >= best[group], np.arange(len(group)), -1)
    return np.maximum.reduceat(at, starts)


def features(
    game: Game, seat: np.ndarray, legal: np.ndarray, rules: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each legal card of deals ``rows`` (the seat to play in each) as (its group: the
    index into ``rows``, its bit, its `FEATURES`); ``rules``: the rules' card per deal.
    Read only after `Game._choose` has set what the seat cannot see (``game._unseen``)."""
    group, bit, cards, decisions = _described(game, seat, legal, rules, rows)
    return group, bit, np.hstack((cards, decisions[group]))


def _described(
    game: Game,
    seat: np.ndarray,
    legal: np.ndarray,
    rules: np.ndarray,
    rows: np.ndarray,
    guards: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`features`, the card's own (`CARD_FEATURES`, one row per legal card) and those its
    decision shares with the other legal cards (`DECISION_FEATURES`, one row per deal of
    ``rows``) apart: a decision's features are worked out once, not for each of its cards.
    The guards (`_guards`, the last of the card's own) only with ``guards``: a network
    fitted before they were added costs what it did then."""
    t = game.t
    players, copies = t.players, game.hands.shape[0]
    position = game.position
    seat, legal, rules = seat[rows], legal[rows], rules[rows]
    group, bit = _cards_of(legal)
    card = ONE << bit
    suit = SUIT_OF[bit]
    higher = HIGHER[bit]
    trump = t.trump[rows][group]
    is_trump = suit == trump
    unseen = game._unseen[rows]
    sides = _Sides.of(game, seat, unseen, rows)
    # what the opponents may hold, and the suits an opponent or the partner may trump
    foes, foe_ruffs, partner_ruffs = game._ruffs(seat, unseen, rows)
    own = game.flat[0, game.at[rows]]  # every card held (plane 0: at least one copy)
    in_suit = SUIT_MASK[suit]
    full_suit = np.float32(6.0 * copies)
    held_g, unseen_g = own[group], unseen[group]
    cards = np.zeros((len(group), SHARED if guards else min(GUARDS)), dtype=np.float32)
    column = lambda name: COLUMN[name]  # noqa: E731
    cards[np.arange(len(group)), RANK_OF[bit]] = 1.0  # one of the six rank columns
    cards[:, column("trump")] = is_trump
    cards[:, column("counter")] = t.points[bit] / 10.0
    cards[:, column("higher unseen")] = np.bitwise_count(unseen_g & higher)
    cards[:, column("suit unseen")] = np.bitwise_count(unseen_g & in_suit) / full_suit
    cards[:, column("suit held")] = np.bitwise_count(held_g & in_suit) / full_suit
    cards[:, column("higher held")] = np.bitwise_count(held_g & higher)
    cards[:, column("lower held")] = np.bitwise_count(held_g & in_suit & ~higher & ~card)
    if copies > 1:
        cards[:, column("two copies")] = (game.flat[1, game.at[rows]][group] & card) != 0
    cards[:, column("foe may ruff")] = ~is_trump & ((foe_ruffs[group] & card) != 0)
    cards[:, column("partner may ruff")] = ~is_trump & ((partner_ruffs[group] & card) != 0)
    cards[:, column("rules play it")] = bit == rules[group]
    cards[:, column("partner shown above")] = np.bitwise_count(sides.partner_shown[group] & higher)
    cards[:, column("foe shown above")] = np.bitwise_count(sides.foe_shown[group] & higher)
    cards[:, column("foes in suit")] = sides.foes_in_suit[group, suit]
    cards[:, column("points unseen in suit")] = sides.points_in_suit[group, suit]
    if guards:
        at_risk, unguards = _guards(bit, card, held_g, unseen_g)
        cards[:, column("held above at risk")] = at_risk
        cards[:, column("unguards")] = unguards
    decisions = np.zeros((len(rows), len(DECISION_FEATURES)), dtype=np.float32)
    shared = lambda name: COLUMN[name] - SHARED  # noqa: E731
    if position:
        best = game.best[rows]
        led = game.on_table[rows, 0] & 3
        best_suit = best & 3
        beats = ((suit == best_suit[group]) & (bit < best[group])) | (
            is_trump & (best_suit[group] != trump)
        )
        threat = game._later_foes(seat, position, led, rows)
        per_card = Threat(threat.follows[group], threat.ruffs[group])
        safe = per_card.unbeaten(card, led[group], trump) != 0
        cards[:, column("wins now")] = beats
        cards[:, column("wins safely")] = beats & safe
        cards[:, column("led suit")] = suit == led[group]
        winner = (game.leader[rows] + game.best_pos[rows]) % players
        partner_winning = t.team[winner] == t.team[seat]
        holds = threat.unbeaten(ONE << best, led, t.trump[rows]) != 0
        on_table = t.points[game.on_table[rows, :position]].sum(axis=1)
        decisions[:, shared("table points")] = on_table / 10.0
        decisions[:, shared("partner winning")] = partner_winning
        decisions[:, shared("partner safe")] = partner_winning & holds
    else:  # a lead wins safely where no opponent may beat or trump it
        boss = (foes[group] & higher) == 0
        ruffed = (foe_ruffs[group] & card) != 0
        cards[:, column("wins safely")] = np.where(is_trump, boss, boss & ~ruffed)
    mine, theirs = game._trump_counts()
    tricks = BITS * copies // players  # in a whole hand, near enough (less any widow)
    decisions[:, shared("partner to play")] = sides.partner_later(position)
    decisions[:, shared("lead") + min(position, 3)] = 1.0  # one of the four place columns
    decisions[:, shared("bidder")] = seat == 0
    decisions[:, shared("bidding side")] = t.team[seat] == 0
    decisions[:, shared("left of bidder")] = seat == 1
    decisions[:, shared("tricks left")] = (game.cards_left + position) / players / tricks
    decisions[:, shared("trumps held")] = mine[rows] / full_suit
    decisions[:, shared("trumps unseen")] = theirs[rows] / full_suit
    decisions[:, shared("foes out of trump")] = sides.foes_out_of_trump
    decisions[:, shared("partner out of trump")] = sides.partner_out_of_trump
    decisions[:, shared("points unseen")] = sides.points_in_suit.sum(axis=1) / 10.0
    decisions[:, shared("three players")] = players == 3
    decisions[:, shared("copies")] = copies / 2
    return group, bit, cards, decisions


def _guards(
    bit: np.ndarray, card: np.ndarray, held: np.ndarray, unseen: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Of each card's suit in the seat's hand, the cards above it that an unseen card may
    still beat (how many), and whether playing it leaves one of them with fewer cards below
    it than there are unseen cards above it (a ten kept behind a nine loses its guard)."""
    suit, rank = SUIT_OF[bit], RANK_OF[bit]
    in_suit = SUIT_MASK[suit]
    at_risk = np.zeros(len(bit), dtype=np.float32)
    unguards = np.zeros(len(bit), dtype=bool)
    for above in range(rank.max(initial=0)):
        above_bit = above * 4 + suit
        higher = HIGHER[above_bit]
        beaten_by = np.bitwise_count(unseen & higher)
        risky = (above < rank) & ((held & (ONE << above_bit)) != 0) & (beaten_by > 0)
        below = np.bitwise_count(held & in_suit & ~higher & ~(ONE << above_bit) & ~card)
        at_risk += risky
        unguards |= risky & (below < beaten_by)
    return at_risk, unguards


def _cards_of(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each card (bit) of each mask, as (the mask's index, the bit), masks in order and the
    bits of each rising: the lowest bit taken off each mask at once, as many times as the
    fullest mask has cards (a few, where testing all 24 bits of every mask costs more)."""
    counts = np.bitwise_count(masks)
    most = int(counts.max(initial=0))
    bits = np.empty((len(masks), most), dtype=np.int64)
    left = masks.copy()
    for k in range(most):
        bits[:, k] = lowest_bit_index(left)
        left &= left - 1
    kept = np.arange(most) < counts[:, None]
    return np.nonzero(kept)[0], bits[kept]


#: A mask's bits in two halves of whole ranks (three ranks, twelve bits, each).
HALF = BITS // 2
LOW_HALF = (1 << HALF) - 1


@cache
def _points_by_suit(points: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The trick points in each suit of every set of cards of a half (`HALF`) of the bits:
    (4,096, 4) tables of the low half and of the high half, looked up where a sum over the
    counters' bits costs three passes."""
    sets = (np.arange(1 << HALF)[:, None] >> np.arange(HALF)) & 1
    by_suit = np.arange(HALF)[:, None] % 4 == np.arange(4)
    worth = np.asarray(points, dtype=np.float32).reshape(2, HALF)
    return tuple((sets @ (by_suit * half[:, None])).astype(np.float32) for half in worth)


@dataclass(frozen=True)
class _Sides:
    """What the seat to play in each deal of a decision knows of the other seats, by side:
    the melded cards its partners and its opponents still hold, how many opponents may
    hold a card of each suit, the counters unseen in each suit (tens of points), which
    opponents and partners have shown they hold no trump, and where its partners sit."""

    partner_shown: np.ndarray
    foe_shown: np.ndarray
    foes_in_suit: np.ndarray  # (rows, 4): the share of the opponents that may follow
    points_in_suit: np.ndarray  # (rows, 4)
    foes_out_of_trump: np.ndarray
    partner_out_of_trump: np.ndarray
    partner_offsets: np.ndarray  # (rows, players - 1): the k-th seat on is a partner

    @classmethod
    def of(cls, game: Game, seat: np.ndarray, unseen: np.ndarray, rows: np.ndarray) -> _Sides:
        t, players = game.t, game.t.players
        count = len(rows)
        trump_mask = game.trump_mask[rows]
        partner_shown = np.zeros(count, dtype=MASK)
        foe_shown = np.zeros(count, dtype=MASK)
        foes_in_suit = np.zeros((count, 4), dtype=np.float32)
        foes_out = np.zeros(count, dtype=np.float32)
        partner_out = np.zeros(count, dtype=np.float32)
        offsets = np.zeros((count, players - 1), dtype=bool)
        foes_of = np.zeros(count, dtype=np.float32)
        for k in range(1, players):
            other = (seat + k) % players
            foe = t.team[other] != t.team[seat]
            at = game.rows[rows] * players + other
            may = unseen & ~game.lacks[at]
            shown = game.shown[0, at] if game.shown is not None else np.zeros(count, MASK)
            partner_shown |= np.where(foe, 0, shown)
            foe_shown |= np.where(foe, shown, 0)
            foes_in_suit += SUITS_OF_NIBBLE[np.where(foe, suits_of(may), 0)]
            no_trump = (may & trump_mask) == 0
            foes_out += foe & no_trump
            partner_out = np.maximum(partner_out, ~foe & no_trump)
            offsets[:, k - 1] = ~foe
            foes_of += foe
        foes_in_suit /= np.maximum(foes_of, 1.0)[:, None]
        low, high = _points_by_suit(tuple(t.points))
        points = low[unseen & LOW_HALF] + high[unseen >> HALF]
        return cls(
            partner_shown,
            foe_shown,
            foes_in_suit,
            points / 10.0,
            foes_out / np.maximum(foes_of, 1.0),
            partner_out,
            offsets,
        )

    def partner_later(self, position: int) -> np.ndarray:
        """Whether a partner is still to play to the trick, per deal."""
        players = self.partner_offsets.shape[1] + 1
        return self.partner_offsets[:, : players - 1 - position].any(axis=1)
