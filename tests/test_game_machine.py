"""The session against the truth: a Hypothesis state machine deals real hands of every
shipped variant with an auction and plays them through `meldcalc game`'s steps (the
auction, the widow and burial, the card exchange, trump, meld as cards or totals, cards
played, trick points typed part way, throwing in, no marriage, the counts a score asks
for, undo, a restart from the journal), each choice legal by the deal it knows. After every
step a restart from the journal gives the same table; once a hand is over, the ledger's
line is what `score_hand` gives for the hand as it truly was: each side's meld counted
from its seats' real cards, the trick points, tricks and counters from the cards as they
fell (or as the deal would have fallen), the checks from the real melds.

Kept to a few seconds in CI: ``max_examples`` x ``stateful_step_count`` rules (see
SETTINGS), each rule up to 8 steps; a game over (or, half the time, a hand) moves on to a
new game of a variant drawn afresh, so a run of about 30 deals sees most variants.
"""

from __future__ import annotations

import copy
import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from meldcalc.cli.game import _dealer, _record
from meldcalc.game import journal
from meldcalc.game.session import apply, replay, start
from meldcalc.rules.cards import CARDS, SUITS, Hand
from meldcalc.rules.loading import load_variant, shipped_names
from meldcalc.rules.meld import best_meld
from meldcalc.rules.scoring import HandPlay, score_hand, side_count, side_of
from meldcalc.rules.tricks import legal_cards, winning_position
from meldcalc.rules.variant import may_name_trump

#: House switches no shipped variant sets, the session's counts steps: scored as examples.
HOUSES = {
    "house-counter": {"save_meld": "counter", "thrown_in": {"cards": 50}},
    "house-trick": {"save_meld": "trick", "meld_minimum": 50, "set_penalty": 2},
}
VARIANTS = [
    *(name for name in shipped_names() if load_variant(name).bidding is not None),
    *(f"examples/{name}" for name in ("house-easy-play", "house-passing", "house-roundhouse")),
    *HOUSES,
]
SETTINGS = settings(
    max_examples=8,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@dataclass
class Truth:
    """The hand as it really is: every seat's cards now, the widow, what was buried, the
    cards played and the trick in progress, and the counts the sides took."""

    hands: list[list[int]]
    widow: list[int]
    buried: list[int] = field(default_factory=lambda: [0] * len(CARDS))
    melds: dict[int, Hand] = field(default_factory=dict)  #: each seat's holding at the meld
    trick: list[int] = field(default_factory=list)
    leader: int = 0
    points: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    counters: list[int] = field(default_factory=list)
    tricks_done: int = 0
    passed: bool = False  #: the bidder and its partner exchanged their cards (the truth)
    back: list[int] = field(default_factory=list)  #: the cards the bidder passes back
    marriage: bool = True  #: the bidder held a marriage in the trump it named
    buried_melded: bool = False  #: the widow's burial took cards the bidder's meld uses


def _cards(counts: list[int]) -> Hand:
    return Hand(list(counts))


class SessionMachine(RuleBasedStateMachine):
    """One game at a time, in a folder of its own: its ledger, its journal."""

    @initialize(name=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
    def begin(self, name: str, seed: int) -> None:
        self.rules, self.name = _variant(name), name
        self.rng = random.Random(seed)
        self.folder = Path(tempfile.mkdtemp(prefix="meldcalc-machine-"))
        self.file = self.folder / "g.jsonl"
        self.jpath = journal.journal_path(self.file)
        self.me = self.rng.randrange(self.rules.players)
        self.hands_scored = 0
        self._deal(deals=0)

    def teardown(self) -> None:
        if hasattr(self, "folder"):
            shutil.rmtree(self.folder, ignore_errors=True)

    # --- a deal -------------------------------------------------------------------------

    def _deal(self, deals: int) -> None:
        variant = self.rules
        cards = [card.index for card in variant.deck.cards()]
        self.rng.shuffle(cards)
        size = variant.hand_size
        hands = [[0] * len(CARDS) for _ in range(variant.players)]
        for seat in range(variant.players):
            for card in cards[seat * size : (seat + 1) * size]:
                hands[seat][card] += 1
        widow = [0] * len(CARDS)
        for card in cards[variant.players * size :]:
            widow[card] += 1
        self.deals = deals
        self.first = start(variant, _dealer(deals + 1, variant.players))
        self.truth = Truth(hands, widow)
        self.table = self.first
        self.steps: list[str] = []
        self.history: list[tuple[object, Truth]] = []
        self.head = {"deal": deals + 1} | ({"variant": self.name} if deals == 0 else {})
        self._take(f"seat {self.me}")

    def _take(self, step: str) -> None:
        """A step typed: taken by the session (it must be), journaled as the command does."""
        before = (self.table, copy.deepcopy(self.truth))
        answer = apply(self.table, step, advise=False)
        assert answer.table is not self.table, step
        journal.append(self.jpath, {"step": step}, self.head)
        self.history.append(before)
        self.steps.append(step)
        self.table = answer.table
        if self.table.phase == "over":
            self._scored()

    # --- the steps ----------------------------------------------------------------------

    @rule(count=st.integers(1, 8))
    def next_steps(self, count: int) -> None:
        """The next ``count`` steps of the hand (of the next hand, once one is over)."""
        for _ in range(count):
            self._take(getattr(self, f"_{self.table.phase}")())

    @precondition(lambda self: len(self.steps) > 1)
    @rule()
    def undo_and_again(self) -> None:
        """Undo the last step (journaled as the command does), then type it again: the table
        as it was, both times."""
        step, after = self.steps[-1], self.table
        journal.append(self.jpath, {"undo": len(self.steps)}, self.head)
        self.steps.pop()
        self.table, self.truth = self.history.pop()
        self._take(step)
        assert self.table == after

    @invariant()
    def the_journal_keeps_every_step_taken(self) -> None:
        """After every step the journal a restart reads holds the steps taken (the table
        is a fold of them: `restart` replays them, as a restarted command does)."""
        if hasattr(self, "table"):
            steps, warnings = journal.read_steps(self.jpath)
            assert not warnings and steps == self.steps

    @rule()
    def restart(self) -> None:
        """The session killed and started again: the table the journal's steps replay to is
        the table the session had."""
        steps, _ = journal.read_steps(self.jpath)
        assert replay(self.first, steps) == self.table

    def _hand(self) -> str:
        mine = _cards(self.truth.hands[self.me]).notation()
        if self.rules.hands_each == 1:
            return f"hand {mine}"
        other = self.truth.hands[(self.me + 2) % self.rules.players]
        return f"hand {mine} / {_cards(other).notation()}"  # seed 003: your side's two hands

    def _auction(self) -> str:
        auction = self.table.auction
        if self.rng.random() < 0.55:
            return "pass"
        bid = auction.bidding.first_at_least(auction.lowest + self.rng.choice([0, 0, 10, 30]))
        return str(bid)

    def _widow(self) -> str:
        return f"widow {_cards(self.truth.widow).notation()}"

    def _ask(self) -> str:
        self.asked = self.rng.choice(SUITS)
        return f"ask {self.asked.letter}"

    def _pass(self) -> str:
        self._exchange()
        table, given, got = self.table, self.truth_given, self.truth_got
        if table.me == table.bidder:
            wanted = "get" if table.got is None else "give"
        else:
            wanted = "give" if table.given is None else "get"
        mine = given if wanted == "give" else got
        return f"{wanted} {_cards(mine).notation()}"

    def _exchange(self) -> None:
        """The bidder and its partner pass their cards (once): the partner the suit asked
        for first, the bidder any cards back."""
        truth, variant = self.truth, self.rules
        if truth.passed or variant.passing is None:
            return
        truth.passed = True
        bidder = self.table.bidder
        partner = (bidder + 2) % variant.players
        count = variant.passing.cards
        ask = getattr(self, "asked", SUITS[0])
        held = [card for card in range(len(CARDS)) for _ in range(truth.hands[partner][card])]
        suited = [card for card in held if CARDS[card].suit is ask]
        others = [card for card in held if CARDS[card].suit is not ask]
        self.rng.shuffle(suited), self.rng.shuffle(others)
        sent = (suited + others)[:count] if len(suited) < count else suited[:count]
        for card in sent:
            truth.hands[partner][card] -= 1
            truth.hands[bidder][card] += 1
        back_from = [c for c in range(len(CARDS)) for _ in range(truth.hands[bidder][c])]
        back_from = [c for c in back_from if c not in sent] or back_from
        back = self.rng.sample(back_from, count)
        truth.back = back  # the bidder passes them back once trump is named
        as_counts = [_count(sent), _count(back)]
        self.truth_given, self.truth_got = (
            (as_counts[1], as_counts[0]) if self.me == bidder else (as_counts[0], as_counts[1])
        )

    def _trump(self) -> str:
        self._exchange()
        table, truth, variant = self.table, self.truth, self.rules
        bidder = table.bidder
        holding = _cards(
            [a + b for a, b in zip(truth.hands[bidder], truth.widow)]
            if variant.widow
            else truth.hands[bidder]
        )
        suits = [s for s in SUITS if may_name_trump(holding, variant, s)]
        if bidder == self.me and not suits:
            return "no marriage"
        if bidder != self.me and variant.widow and table.widow is None and self.rng.random() < 0.5:
            return self._widow()  # the widow as turned up, before trump
        mostly = suits if suits and self.rng.random() < 0.8 else list(SUITS)
        trump = self.rng.choice(suits if bidder == self.me else mostly)
        truth.marriage = trump in suits
        return f"trump {trump.letter}"

    def _bury(self) -> str:
        truth = self.truth
        held = [a + b for a, b in zip(truth.hands[self.me], truth.widow)]
        return f"bury {_cards(_count(self._burial(held, self.table.trump))).notation()}"

    def _burial(self, held: list[int], trump: object) -> list[int]:
        """The widow's worth of cards buried from ``held``: none its best meld uses, where
        it holds enough others (a melded card is not buried)."""
        found = best_meld(_cards(held), self.rules, trump).melds
        used = _count([card.index for meld in found for card in meld.cards])
        free = [max(h - u, 0) for h, u in zip(held, used)]
        pool = [c for c in range(len(CARDS)) for _ in range(free[c])]
        self.truth.buried_melded = len(pool) < self.rules.widow
        if self.truth.buried_melded:
            pool = [c for c in range(len(CARDS)) for _ in range(held[c])]
        return self.rng.sample(pool, self.rules.widow)

    def _meld(self) -> str:
        table, truth, variant = self.table, self.truth, self.rules
        if not truth.melds:
            self._holdings_at_meld()
        if variant.bidding.marriage_in_trump and not truth.marriage:
            return "no marriage"
        laid = {seat for seat, _, _ in table.melds}
        for seat in range(variant.players):
            if seat not in laid:
                found = best_meld(truth.melds[seat], variant, table.trump)
                word = "total" if self.rng.random() < 0.4 else "cards"
                if word == "total" or not found.melds:
                    return f"meld {seat} {found.total}"
                cards = Hand.from_cards(card for meld in found.melds for card in meld.cards)
                cards = Hand([min(a, b) for a, b in zip(cards.counts, truth.melds[seat].counts)])
                return f"meld {seat} {cards.notation() if len(cards) else found.total}"
        if variant.bidding.concede and self.rng.random() < 0.15:
            self.thrown = True
            return "throw in"
        return self._play()

    def _holdings_at_meld(self) -> None:
        """Each seat's cards at the meld (the bidder's with the widow); the widow's burial
        then made (yours as typed, another bidder's at random)."""
        table, truth, variant = self.table, self.truth, self.rules
        bidder = table.bidder
        for card in truth.back:  # the bidder's cards passed back, after trump
            truth.hands[bidder][card] -= 1
            truth.hands[(bidder + 2) % variant.players][card] += 1
        if variant.widow:
            truth.hands[bidder] = [a + b for a, b in zip(truth.hands[bidder], truth.widow)]
        truth.melds = {seat: _cards(truth.hands[seat]) for seat in range(variant.players)}
        if variant.widow:
            if bidder == self.me:
                buried = table.buried.counts
            else:  # cards its meld does not show, where it has enough (melded cards stay)
                buried = _count(self._burial(truth.hands[bidder], table.trump))
            truth.buried = list(buried)
            truth.hands[bidder] = [a - b for a, b in zip(truth.hands[bidder], buried)]
        sides = side_count(variant)
        truth.points, truth.taken, truth.counters = [0] * sides, [0] * sides, [0] * sides
        truth.leader = bidder
        counters = variant.counters
        burial = [c for c in range(len(CARDS)) for _ in range(truth.buried[c])]
        truth.points[side_of(variant, bidder)] += sum(
            counters.get(CARDS[c].rank, 0) for c in burial
        )
        truth.counters[side_of(variant, bidder)] += sum(
            1 for c in burial if counters.get(CARDS[c].rank)
        )

    def _play(self) -> str:
        truth = self.truth
        if self.table.played and self.rng.random() < 0.03:
            while truth.tricks_done < self.rules.hand_size:  # the rest as the deal falls
                self._fall(self._card())
            return f"tricks {','.join(map(str, truth.points))}"
        card = self._card()
        self._fall(card)
        return CARDS[card].__str__() if self.rng.random() < 0.5 else f"play {CARDS[card]}"

    def _card(self) -> int:
        truth = self.truth
        seat = (truth.leader + len(truth.trick)) % self.rules.players
        allowed = legal_cards(
            truth.hands[seat], truth.trick, self.table.trump, self.rules.head, self.rules.overtrump
        )
        return self.rng.choice(allowed)

    def _fall(self, card: int) -> None:
        """``card`` played in the truth: the trick's winner takes its points at its end."""
        truth, variant = self.truth, self.rules
        seat = (truth.leader + len(truth.trick)) % variant.players
        truth.hands[seat][card] -= 1
        truth.trick.append(card)
        if len(truth.trick) < variant.players:
            return
        winner = (truth.leader + winning_position(truth.trick, self.table.trump)) % variant.players
        side = side_of(variant, winner)
        counters = variant.counters
        truth.points[side] += sum(counters.get(CARDS[c].rank, 0) for c in truth.trick)
        truth.counters[side] += sum(1 for c in truth.trick if counters.get(CARDS[c].rank))
        truth.taken[side] += 1
        truth.tricks_done += 1
        if truth.tricks_done == variant.hand_size:
            truth.points[side] += variant.last_trick
        truth.trick, truth.leader = [], winner

    def _counts(self) -> str:
        wanted = self.table.counts_wanted()
        if wanted == "checks":
            return f"checks {','.join(map(str, self._true_checks()))}"
        numbers = self.truth.counters if wanted == "counters_taken" else self.truth.taken
        return (
            f"{'counters' if wanted == 'counters_taken' else 'taken'} {','.join(map(str, numbers))}"
        )

    def _over(self) -> None:
        raise AssertionError("a hand over is scored at once")

    # --- the truth, scored ----------------------------------------------------------------

    def _true_meld(self) -> tuple[int, ...]:
        meld = [0] * side_count(self.rules)
        for seat, hand in self.truth.melds.items():
            meld[side_of(self.rules, seat)] += best_meld(hand, self.rules, self.table.trump).total
        return tuple(meld)

    def _true_checks(self) -> tuple[int, ...]:
        checks = [0] * side_count(self.rules)
        for seat, hand in self.truth.melds.items():
            found = best_meld(hand, self.rules, self.table.trump).melds
            checks[side_of(self.rules, seat)] += sum(meld.checks for meld in found)
        return tuple(checks)

    def _scored(self) -> None:
        """The hand over: recorded as the command records it, and the ledger's line held
        to the score of the hand as it truly was; the journal replays to the hand over."""
        table, variant, truth = self.table, self.rules, self.truth
        assert replay(self.first, journal.read_steps(self.jpath)[0]) == table
        book = _record(self.file, table, variant, self.name, None, None)
        journal.keep_last(self.jpath)
        if table.contract is not None:
            checks = self._true_checks() if any(r.checks for r in variant.melds) else ()
            if table.no_marriage:
                play = HandPlay(table.contract, table.bidder, table.side_melds(), None, checks,
                                no_marriage=True)  # fmt: skip
            elif table.thrown_in:
                play = HandPlay(table.contract, table.bidder, self._true_meld(), None, checks, True)
            else:
                play = HandPlay(table.contract, table.bidder, self._true_meld(),
                                tuple(truth.points), checks, False, False,
                                tuple(truth.taken), tuple(truth.counters))  # fmt: skip
            expected = score_hand(variant, play)
            got = book.hands[-1]
            assert (got.outcome, got.points, got.counted_meld, got.checks) == (
                expected.outcome,
                expected.points,
                expected.counted_meld,
                expected.checks,
            ), (self.steps, play)
            self.hands_scored += 1
        SCORED.append(self.name)
        if book.standing().winner is not None or self.rng.random() < 0.5:
            # a new game in a new file: half the time under another variant, so that a
            # run of a few examples sees most of them
            self.name = self.rng.choice(VARIANTS)
            self.rules = _variant(self.name)
            self.me = self.rng.randrange(self.rules.players)
            self.file = self.folder / f"g{len(SCORED)}.jsonl"
            self.jpath = journal.journal_path(self.file)
            self._deal(deals=0)
        else:
            self._deal(deals=book.deals)


def _variant(name: str):
    if name not in HOUSES:
        return load_variant(name)
    from meldcalc.rules.loading import variant_from_data

    data = dict(load_variant("single-deck").data)
    data["house"] = HOUSES[name]
    data["name"] = name
    return variant_from_data(data, Path(f"{name}.yaml"), 1, "rules")


def _count(cards: list[int]) -> list[int]:
    counts = [0] * len(CARDS)
    for card in cards:
        counts[card] += 1
    return counts


#: The hands the machine scored in this run (a passed deal too), by variant.
SCORED: list[str] = []

TestSession = SessionMachine.TestCase
TestSession.settings = SETTINGS
