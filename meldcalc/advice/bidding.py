"""From a hand to a bid: sample the unseen cards, play them out, count the odds.

For the bidder's hand (seat 0) the unseen cards are dealt at random to the other seats (and
the widow, which the bidder takes, burying as many cards as it holds). Every sampled deal
is played out under each trump by the policy of `simulate`, so the trumps are compared on
the same deals. A deal's total for the bidding side is its own meld, the meld of every
partner (seat 2 of four, seats 2 and 4 of six) and its trick points; P(make) of a bid is
the share of deals whose total reaches it.

Deals are drawn in fixed chunks, each from its own seed derived from (seed, chunk number),
so the numbers depend on the seed alone, never on how many processes (`--jobs`) ran them
(`meldcalc.advice.chunks`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from meldcalc.advice.chunks import auto_jobs, run_chunks
from meldcalc.advice.odds import how_often
from meldcalc.advice.strong import StrongCheck
from meldcalc.advice.tableplay import Spread, spread_for
from meldcalc.dealing.knowledge import TableKnowledge, partner_seats
from meldcalc.dealing.ready import Sample, Setup, judges_pass_back, plan_setups
from meldcalc.engines.exact_endgame import check_endgame
from meldcalc.engines.policies import DEFAULT as DEFAULT_POLICY
from meldcalc.engines.policies import POLICIES
from meldcalc.engines.solve import MAX_TIME_LIMIT, Deadline
from meldcalc.errors import MeldcalcError, UnsupportedError, quote
from meldcalc.rules import arguments
from meldcalc.rules.arguments import FEW_DEALS, MAX_DEALS, MAX_STRONG
from meldcalc.rules.cards import SUITS, Hand, Suit
from meldcalc.rules.settle import counts_needed, reach_of_hands
from meldcalc.rules.variant import Bidding, Passing, Variant, may_name_trump

#: Burials and pass-backs (several ways to ready the same hand under one trump) are first
#: judged on this many deals of their own; the `SCREEN_KEEP` best of each trump (the rule
#: of thumb's way always among them) are then compared on `choosing_deals` deals in common.
#: bench/screen.py, against every way on every deal: screened on 400, 200 or 150 deals,
#: the same burial 74, 69 and 68 times of 80 in three-handed (the best total -0.03 ± 0.03
#: each time: the others were as good), 38 of 40 on 200 and 150 in double-deck
#: three-handed, the same highest bid on every hand; 150 takes a quarter off the screen's
#: wall time (0.70 to 0.54 s of a double-deck three-handed bid with its kitty seen).
#: Keeping the 2 best rather than 3: the same 68 of 80, 39 of 40 (38 with 3), and Toby
#: Thomas's pass-backs 40 of 48 either way (-0.02 ± 0.07 against -0.03 ± 0.08, the same
#: highest bid 11 of 12), with 0.08 s less of that bid's 1.8.
SCREEN_DEALS = 150
SCREEN_KEEP = 2
#: The share of the deals the ways to ready a hand are compared on (`choosing_deals`), and
#: the least number: the Toby Thomas exchange readies each deal 16 ways (an ask a trump),
#: and comparing them on every deal took 4 of a 5 s bid. On 20 random hands each
#: (bench/screen.py, against every way on every deal), comparing on half the deals: the
#: same ask 19 times, the same burial 74 of 80 (three-handed, screened on 200), the best
#: trump's expected total +0.14 ± 0.14 and -0.03 ± 0.03, the same highest bid 19 and 20
#: times, in 1.7 and 5.2 times less CPU. On a quarter: the same ask 19 times, the same
#: burial 69 of 80 (the others as good: the best total -0.03 ± 0.03 still), 38 of 40 in
#: double-deck three-handed (37 on half), the same highest bid as on half (19, 20 and 10
#: of 10 times), in 1.9, 6.8 and 5.4 times less CPU (4.5 on half): what brings double-deck
#: three-handed with its kitty seen near 2 s (bench/bid_games.py).
CHOOSE_SHARE = 0.25
CHOOSE_AT_LEAST = 200
#: The band of bid levels shown: from the last made this often ...
NEARLY_CERTAIN = 0.95
#: ... to the first made less often than this.
UNLIKELY = 0.05
#: A band wider than this (only absurd house tables make one) is shown every k-th level.
MAX_LEVELS = 200


@dataclass
class TrumpOdds:
    trump: Suit
    biddable: bool
    meld: float
    partner_meld: float | None  # None without a partner
    tricks: np.ndarray
    totals: np.ndarray
    make: list[tuple[int, float]] = field(default_factory=list)
    max_bid: int | None = None
    #: why this trump cannot be named, when it cannot
    reason: str | None = None
    #: layouts tried for each deal kept (1 unless what the table knows refused some)
    layouts: float = 1.0
    #: the suit asked for in the card exchange, the cards buried from the widow seen, the
    #: cards passed back to the partner
    ask: Suit | None = None
    bury: Hand | None = None
    returns: Hand | None = None
    #: the odds corrected against strong play (``bid --strong``), where they were
    strong: StrongCheck | None = None

    @property
    def expected_total(self) -> float:
        return float(self.totals.mean())

    def percentiles(self, *qs: float) -> list[float]:
        """Percentiles of the trick points, interpolated linearly as numpy's default does
        (``np.percentile`` itself would import ``numpy.ma``, a noticeable start-up cost)."""
        ordered = np.sort(self.tricks)
        found = []
        for q in qs:
            position = (len(ordered) - 1) * q / 100
            low, high = int(np.floor(position)), int(np.ceil(position))
            fraction = position - low
            found.append(float(ordered[low] + (ordered[high] - ordered[low]) * fraction))
        return found


@dataclass
class BidReport:
    hand: Hand
    variant: Variant
    deals: int
    seed: int
    confidence: float
    results: list[TrumpOdds]  # best first
    warnings: list[str]
    knowledge: TableKnowledge = field(default_factory=TableKnowledge)
    #: the card pass simulated in every deal, if any
    passing: Passing | None = None
    #: card exchange: for each suit asked for, its best trump (best first)
    asks: list[TrumpOdds] = field(default_factory=list)
    #: widow seen: for each trump, every burial judged (the rule of thumb's first)
    burials: dict[Suit, list[TrumpOdds]] = field(default_factory=dict)
    #: the cards to pass back known: for each trump, every pass-back judged (likewise)
    pass_backs: dict[Suit, list[TrumpOdds]] = field(default_factory=dict)
    #: for each trump, how many burials or pass-backs were screened (`SCREEN_DEALS`)
    screened: dict[Suit, int] = field(default_factory=dict)
    #: the deals the ways to ready the hand were compared on (`choosing_deals`), or
    #: ``deals`` where there was one way a trump
    chosen_on: int = 0
    #: the bid judged by the game's score (`advice.equity.GameOdds`), where it was given
    game: Any = None
    #: the fast policy the deals were played by (`meldcalc.engines.policies`)
    policy: str = DEFAULT_POLICY
    #: the table's bidding system: the bid to make now (`advice.systems.ReportSystem`)
    system: Any = None
    #: how each deal's trick points were spread as a strong table's are, if they were
    spread: Spread | None = None

    @property
    def best(self) -> TrumpOdds:
        return self.results[0]

    @property
    def suggested_bid(self) -> int | None:
        return self.best.max_bid

    def advice(self) -> list[str]:
        """What to do, in sentences: the highest bid to go to and its trump, or why to
        pass (and, where the dealer is forced to bid, what to do then); then the suit to
        ask for, or the cards to bury, where those were simulated."""
        lines = self._bid_advice()
        system = [] if self.system is None else self.system.lines(self)
        return lines[:1] + system + self._setup_advice() + self._strong_advice() + lines[1:]

    def _strong_advice(self) -> list[str]:
        check = self.best.strong
        if check is None:
            return []
        corrected = [odds.trump.letter for odds in self.results if odds.strong is not None]
        others = (
            f" The odds of {', '.join(corrected[1:])} are corrected too: uncorrected, it ranked"
            f" above {corrected[0]}."
            if len(corrected) == 2
            else f" The odds of {', '.join(corrected[1:])} are corrected too: uncorrected, each"
            " ranked first in turn."
            if len(corrected) > 2
            else ""
        )
        return [
            f"Checked against strong play: {check.deals} more deals, played by the fast"
            f" player and again by the look-ahead player in every seat, moved the side's"
            f" total by {check.shift:+.1f} ± {check.shift_se:.1f}; the odds shown are"
            f" corrected by the difference on those deals.{others}"
        ]

    def _setup_advice(self) -> list[str]:
        best = self.best
        if best.ask is not None and len(self.asks) > 1:
            return [
                f"Ask your partner for {best.ask.symbol} ({best.ask.letter}): of the suits"
                f" you could ask for, the exchange does best with it."
            ]
        trump = f"{best.trump.symbol} ({best.trump.letter})"
        at_once = self.variant.passing is not None and self.variant.passing.simultaneous
        for verb, chosen, judged, what, spared in (
            ("Bury", best.bury, self.burials, "burial", "bury"),
            (
                "Pass" if at_once else "Pass back",
                best.returns,
                self.pass_backs,
                "pass-back",
                "pass",
            ),
        ):
            if chosen is None:
                continue
            tried = len(judged.get(best.trump, []))
            screened = self.screened.get(best.trump, tried)
            why = (
                f"the best of {tried} {what}s tried on the same deals"
                if tried > 1
                else f"too few of your cards lie outside trump and your meld to {spared}"
                " another way, so the rule of thumb's choice is the one played"
            )
            if screened > tried:
                why = f"the best of {screened} {what}s ({screening(what, self.chosen_on)})"
            return [f"{verb} {chosen.notation(best.trump)} with {trump} as trump: {why}."]
        return []

    def compared_first(self) -> str:
        """Where the ways to ready the hand were compared on fewer deals than the odds."""
        if not self.chosen_on or self.chosen_on >= self.deals:
            return ""
        ways = "burials" if self.burials else "pass-backs" if self.pass_backs else "asks"
        return f" (the {ways} compared on {self.chosen_on} first)"

    def _bid_advice(self) -> list[str]:
        best, confidence = self.best, f"{self.confidence:.0%}"
        trump = f"{best.trump.symbol} ({best.trump.letter})"
        bidding = self.variant.bidding
        if best.max_bid is not None:
            made = dict(best.make).get(best.max_bid)
            odds = f" ({made:.0%})" if made is not None else ""
            return [
                f"Bid up to {best.max_bid} with {trump} as trump: the highest bid made at"
                f" least {confidence} of the time{odds}. Open lower if the auction allows."
            ]
        every_trump = len({odds.trump for odds in self.results}) == len(SUITS)
        opening, deals = dict(best.make).get(bidding.opening, 0.0), len(best.totals)
        if not best.biddable and every_trump:
            lines = [f"Pass: {best.reason} or any other suit, so you cannot name trump."]
        elif not best.biddable:
            lines = [f"Pass with {trump} as trump: {best.reason}, so you cannot name it."]
        else:
            often = how_often(opening, deals, only=True)
            lines = [
                f"Pass: even the opening bid of {bidding.opening} is {often} (with {trump} as"
                f" trump); a bid needs {confidence}."
            ]
        if bidding.dealer_forced:
            if best.biddable:
                forced = f"name {trump} (it is {how_often(opening, deals)})"
            elif every_trump:
                forced = "with no marriage to name trump, you lose it"
            else:
                forced = f"name a suit you hold a marriage in, not {trump}"
            dealer = "If you are the dealer and the others all pass, you must bid"
            lines.append(f"{dealer} {bidding.opening}: {forced}.")
        return lines


def check_biddable_variant(variant: Variant) -> None:
    if variant.bidding is None:
        raise UnsupportedError(
            f"{variant.name} has no auction (trump is turned up and cards are drawn from a"
            " stock): bid and play simulate a bidder's deal, which it has not; 'meldcalc"
            " meld' counts its meld and 'meldcalc solve' plays its positions"
        )


def estimate(
    hand: Hand,
    variant: Variant,
    deals: int = 2000,
    seed: int | None = None,
    trumps: list[Suit] | None = None,
    confidence: float = 0.7,
    jobs: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
    warnings: list[str] | None = None,
    knowledge: TableKnowledge | None = None,
    endgame: int = 0,
    time_limit: float | None = None,
    strong: int = 0,
    policy: str = DEFAULT_POLICY,
    spread: bool = True,
) -> BidReport:
    """Simulate ``deals`` deals for ``hand`` under each trump; the odds of every bid.

    With ``knowledge`` only layouts consistent with what the table knows are dealt; a
    widow seen is buried the best of several ways, and a card exchange is simulated for
    each suit that could be asked for. With ``endgame`` K the last K tricks of every deal
    are played exactly (the solver) instead of by the policy; after ``time_limit`` seconds
    of that in all (None: no limit) the bid stops with `TimeLimitError`. With ``strong`` N
    the best trump's odds are corrected against strong play on N deals played twice
    (`meldcalc.advice.strong`). ``jobs`` None: every CPU where the simulation is large
    (`auto_jobs`), else one. Each deal's trick points are spread as a strong table's are
    (`meldcalc.advice.tableplay`), unless ``spread`` is False: the fast policy's self-play
    as it is, what bench/fit_spread.py fits the spread to. Every argument is checked
    first, as `meldcalc bid` checks its options (`_check_arguments`)."""
    variant = arguments.variant(variant)
    check_biddable_variant(variant)
    if not isinstance(spread, bool):
        raise TypeError(f"spread: expected True or False, not {type(spread).__name__}")
    warnings = _check_arguments(
        hand, variant, deals, seed, trumps, confidence, jobs, progress, warnings, knowledge
    )
    time_limit = _check_exact(variant, endgame, time_limit, strong, policy)
    knowledge = knowledge or TableKnowledge()
    knowledge.check(hand, variant)
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    trumps = trumps or list(SUITS)
    setups = plan_setups(hand, variant, trumps, knowledge)
    jobs = auto_jobs(variant, deals * len(setups)) if jobs is None else jobs
    exact = (endgame, Deadline.after(time_limit) if endgame else None)
    held = hand + knowledge.widow if knowledge.widow is not None else hand
    spreading = spread_for(variant, policy, endgame, strong) if spread else None

    def play(count: int, ways: list[Setup], stream: int, told: Any = None) -> dict:
        """``count`` deals of stream ``stream``, readied each way of ``ways`` and played
        (each deal's trick points spread as a strong table's are)."""
        return run_chunks(
            hand, variant, count, seed, trumps, jobs, told, knowledge, ways, stream, exact, policy,
            spreading,
        )  # fmt: skip

    def judge(ways: list[Setup], samples: dict) -> list[TrumpOdds]:
        return [_setup_odds(variant, held, way, samples[way], confidence) for way in ways]

    several = len(setups) > len(set(trumps))  # ways to ready the hand to choose from
    unnamed = _unnamed(setups, held, variant) if several else {}
    setups = [setup for setup in setups if setup.trump not in unnamed]
    screened: dict[Suit, int] = {}
    if knowledge.widow is not None or judges_pass_back(variant, knowledge):
        setups, screened = _screened(setups, deals, play, judge)
    chosen_on = choosing_deals(deals) if several else deals
    first, then = _stages(progress, chosen_on, deals if several else 0)
    judged = judge(setups, play(chosen_on, setups, 0, first))
    report = BidReport(hand, variant, deals, seed, confidence, [], warnings or [], knowledge)
    report.policy, report.screened, report.chosen_on = policy, screened, chosen_on
    report.spread = spreading
    _choose(report, judged, knowledge)
    if several:  # the odds of the setups chosen, from deals of their own
        chosen = [Setup(o.trump, o.ask, o.bury, o.returns) for o in report.results]
        ask = report.asks[0].ask if report.asks else None
        chosen += [replace(way, ask=ask) if ask else way for way in unnamed.values()]
        again = judge(chosen, play(deals, chosen, 1, then))
        for odds in again[len(report.results) :]:  # a trump not to name: its one way
            for ways in (report.burials, report.pass_backs):
                if ways:
                    ways[odds.trump] = [odds]
        report.results = sorted(again, key=_ranking, reverse=True)
    if strong and report.best.biddable:
        _check_strong(report, held, strong, endgame)
    return report


def _stages(
    progress: Callable[[int, int], None] | None, first: int, then: int
) -> tuple[Callable[[int, int], None] | None, Callable[[int, int], None] | None]:
    """``progress`` told of two runs as one: ``first`` deals (the ways compared), then
    ``then`` more (the ways chosen, judged on deals of their own), so a line reads
    "simulated 4000/6000 deals", not a total that the second run starts over."""
    if progress is None:
        return None, None
    total = first + then
    return (lambda done, _: progress(done, total)), (lambda done, _: progress(first + done, total))


def _unnamed(setups: list[Setup], held: Hand, variant: Variant) -> dict[Suit, Setup]:
    """The trumps ``held`` may not name (no marriage in them, where one is needed), each
    with its first way to ready the hand (the rule of thumb's burial or pass-back, the
    first ask): their ways need no choosing, so they are played that way alone, with the
    odds of the ways chosen. None where no trump may be named (then every way is judged,
    to show what each would do)."""
    unnamed = {}
    for setup in setups:
        if not may_name_trump(held, variant, setup.trump):
            unnamed.setdefault(setup.trump, setup)
    named = {setup.trump for setup in setups} - set(unnamed)
    return unnamed if named else {}


def choosing_deals(deals: int) -> int:
    """The deals the ways to ready a hand (asks, burials, pass-backs) are compared on:
    `CHOOSE_SHARE` of ``deals``, at least `CHOOSE_AT_LEAST` (or all, if fewer). The ways
    chosen are judged again on ``deals`` of their own, so the odds shown rest on all of
    them and only the choice on fewer: compared on the same deals, the ways' order needs
    fewer than their odds do."""
    return max(min(deals, CHOOSE_AT_LEAST), math.ceil(deals * CHOOSE_SHARE))


def screening(what: str, compared_on: int) -> str:
    """How burials or pass-backs were judged when there were many (``compared_on``: the
    deals the few kept were compared on, `choosing_deals`)."""
    return (
        f"each tried on {SCREEN_DEALS} deals of its own, the {SCREEN_KEEP} best and the rule"
        f" of thumb's {what} then on {compared_on} deals in common"
    )


def _screened(
    setups: list[Setup], deals: int, play: Callable, judge: Callable
) -> tuple[list[Setup], dict[Suit, int]]:
    """The setups worth judging on every deal: of each trump's ways to ready the hand
    (burials, pass-backs), the `SCREEN_KEEP` best on `SCREEN_DEALS` deals of their own
    (stream 2), the rule of thumb's (the first) kept whatever; and how many each trump
    had. Where there are few deals or few ways, every setup, and nothing screened."""
    by_trump: dict[Suit, list[Setup]] = {}
    for setup in setups:
        by_trump.setdefault(setup.trump, []).append(setup)
    if deals < 2 * SCREEN_DEALS or all(len(ways) <= SCREEN_KEEP for ways in by_trump.values()):
        return setups, {}
    samples = play(SCREEN_DEALS, setups, 2)
    kept = []
    for ways in by_trump.values():
        totals = [odds.expected_total for odds in judge(ways, samples)]
        ranked = sorted(range(len(ways)), key=lambda i: totals[i], reverse=True)
        chosen = {0, *ranked[:SCREEN_KEEP]}
        kept += [way for i, way in enumerate(ways) if i in chosen]
    return kept, {trump: len(ways) for trump, ways in by_trump.items()}


def _check_arguments(
    hand: Hand,
    variant: Variant,
    deals: int,
    seed: int | None,
    trumps: list[Suit] | None,
    confidence: float,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    warnings: list[str] | None,
    knowledge: TableKnowledge | None,
) -> list[str]:
    """The arguments of a bid checked as `meldcalc bid` checks its options and its hand
    (`meldcalc.rules.arguments`: a wrong type is a `TypeError`, a value out of bounds a
    `MeldcalcError`); the warnings to give, the few deals' among them."""
    arguments.hand(hand, variant, full=True)
    arguments.whole(deals, "deals", 1, MAX_DEALS)
    arguments.seed(seed)
    for trump in trumps or ():
        arguments.suit(trump, "trumps")
    arguments.number(confidence, "confidence", 0.01, 0.99)
    if jobs is not None:  # as many as asked: the CPUs cap them (`worker_map`)
        arguments.whole(jobs, "jobs", 1)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress: expected a function of (done, total), got {progress!r}")
    if knowledge is not None and not isinstance(knowledge, TableKnowledge):
        raise TypeError(f"knowledge: expected a TableKnowledge, got {type(knowledge).__name__}")
    warnings = list(warnings or [])
    if not all(isinstance(line, str) for line in warnings):
        raise TypeError("warnings: expected a list of sentences (str)")
    if deals < FEW_DEALS:
        few = f"{deals} deal{' is' if deals == 1 else 's are'} too few for the odds to mean much"
        warnings.append(f"{few}; use at least {FEW_DEALS}")
    return warnings


def _check_exact(
    variant: Variant, endgame: int, time_limit: float | None, strong: int, policy: str
) -> float | None:
    """The exact parts of a bid checked (its last tricks solved, the strong check, the
    policy), as `meldcalc bid` checks them; the time limit (None for none, as 0 is)."""
    arguments.of_type(endgame, int, "endgame", "a whole number")
    check_endgame(variant, endgame)
    check_scored_exactly(variant, endgame)
    if time_limit is not None:
        time_limit = arguments.number(time_limit, "time_limit", 0, MAX_TIME_LIMIT) or None
    arguments.whole(strong, "strong", 0, MAX_STRONG)
    if strong == 1:
        raise MeldcalcError(f"--strong {strong}: expected 0 (off) or at least 2 deals")
    if strong:
        _check_strong_plays(variant, strong)
    arguments.of_type(policy, str, "policy", "a policy's name")
    if policy not in POLICIES:
        raise MeldcalcError(f"policy {quote(policy)}: expected one of {', '.join(POLICIES)}")
    return time_limit


def check_scored_exactly(variant: Variant, endgame: int) -> None:
    """Refuse an exact endgame where the variant saves meld by a trick or a counter taken:
    the solver gives the points of the last tricks, not who took which trick."""
    needed = counts_needed(variant)
    if endgame and needed is not None:
        rule = variant.house.save_meld
        raise UnsupportedError(
            f"--endgame {endgame}: under house.save_meld: {rule} a side's meld counts only if"
            f" it takes a {rule}, but the exact endgame gives trick points, not the {needed}"
            " each side took: leave out --endgame"
        )


def _check_strong_plays(variant: Variant, strong: int) -> None:
    """Refuse ``--strong`` before any deal is simulated where the look-ahead player cannot
    play: it values the last tricks exactly, with the solver."""
    from meldcalc.engines.solve import check_solver

    try:
        check_solver(variant)
    except UnsupportedError as error:
        raise UnsupportedError(
            f"--strong {strong}: the look-ahead player solves the last tricks exactly, but"
            f" {error}: leave out --strong"
        ) from None


def _check_strong(report: BidReport, held: Hand, deals: int, endgame: int) -> None:
    """Correct the odds against strong play (`meldcalc.advice.strong`): the best trump's,
    then, while the trump ranked first is one not yet corrected, that one's too, so that
    the trump named is ranked by corrected odds (correcting the first alone could leave a
    trump above it that strong play would put below)."""
    while report.best.strong is None:
        _correct(report, report.best, held, deals, endgame)
        report.results.sort(key=_ranking, reverse=True)


def _correct(report: BidReport, odds: TrumpOdds, held: Hand, deals: int, endgame: int) -> None:
    """Correct ``odds`` by ``deals`` deals played twice, the fast leg as every simulated
    deal was played (``endgame`` tricks exactly)."""
    from meldcalc.advice.strong import play_twice

    variant = report.variant
    setup = Setup(odds.trump, odds.ask, odds.bury, odds.returns)
    knowledge = report.knowledge
    fast, strong = play_twice(
        report.hand, variant, setup, knowledge, deals, report.seed, endgame, report.policy
    )

    def totals(sample: Sample) -> np.ndarray:
        return _odds(variant, held, odds.trump, sample, report.confidence).totals

    odds.strong = StrongCheck(totals(strong), totals(fast))
    made = Made(odds.totals, (odds.strong.strong, odds.strong.fast))
    odds.make, odds.max_bid = make_odds(variant.bidding, made, report.confidence)


def _ranking(odds: TrumpOdds) -> tuple:
    """Best first: a bid to go to, then the highest, then biddable, then the total."""
    return odds.max_bid is not None, odds.max_bid or 0, odds.biddable, odds.expected_total


def _choose(report: BidReport, judged: list[TrumpOdds], knowledge: TableKnowledge) -> None:
    """Fill in the report's results: the trumps, each under its best burial where a widow
    was seen, under the best suit to ask for where an exchange was simulated."""
    variant = report.variant
    choices = report.burials if knowledge.widow is not None else None
    if judges_pass_back(variant, knowledge):
        choices = report.pass_backs
    if choices is not None:  # the rule of thumb's choice stays first
        for odds in judged:
            choices.setdefault(odds.trump, []).append(odds)
        judged = [
            max(candidates, key=lambda odds: odds.expected_total) for candidates in choices.values()
        ]
    if knowledge.simulates_pass(variant):
        report.passing = variant.passing
    if report.passing is not None and report.passing.kind == "exchange":
        by_ask: dict[Suit, list[TrumpOdds]] = {}
        for odds in judged:
            by_ask.setdefault(odds.ask, []).append(odds)
        report.asks = sorted(
            (max(trumps, key=_ranking) for trumps in by_ask.values()), key=_ranking, reverse=True
        )
        judged = by_ask[report.asks[0].ask]
    report.results = sorted(judged, key=_ranking, reverse=True)


def _setup_odds(
    variant: Variant, hand: Hand, setup: Setup, sample: Sample, confidence: float
) -> TrumpOdds:
    """`_odds` of one setup, with its layouts tried per deal, its ask and its burial."""
    odds = _odds(variant, hand, setup.trump, sample, confidence)
    odds.layouts = sample.tried / len(sample.tricks)
    odds.ask, odds.bury, odds.returns = setup.ask, setup.bury, setup.returns
    return odds


def _odds(
    variant: Variant, hand: Hand, trump: Suit, sample: Sample, confidence: float
) -> TrumpOdds:
    side_meld = sample.meld + sample.partner_meld
    taken = sample.tricks_taken, sample.counters_taken
    totals = reach_of_hands(variant, side_meld, sample.tricks, *taken)  # as `score` scores
    biddable = may_name_trump(hand, variant, trump)
    odds = TrumpOdds(
        trump,
        biddable,
        float(sample.meld.mean()),
        float(sample.partner_meld.mean()) if partner_seats(variant) else None,
        sample.tricks,
        totals,
    )
    if biddable:
        odds.make, odds.max_bid = make_odds(variant.bidding, Made(totals), confidence)
    else:
        odds.reason = f"no marriage (K and Q) in {trump.symbol}"
    return odds


def make_odds(
    bidding: Bidding, made: Made, confidence: float
) -> tuple[list[tuple[int, float]], int | None]:
    """P(make) of the bid levels that matter, and the highest bid made with ``confidence``.

    The levels listed run from the last one made at least `NEARLY_CERTAIN` of the time (or
    the highest safe bid, if lower; the opening bid at least) to the first one made less
    than `UNLIKELY` of the time: the band where the decision lies. Each P(make) is a count
    in the sorted totals (``made``), so even a wide band costs little; it is thinned to at
    most `MAX_LEVELS` rows.
    """
    reached = made.reached
    max_bid = bidding.last_at_most(reached(confidence))
    start = bidding.last_at_most(min(reached(NEARLY_CERTAIN), reached(confidence)))
    bid, make = bidding.first_at_least(start or 0), []
    while True:
        make.append((bid, made(bid)))
        if make[-1][1] < UNLIKELY and (max_bid is None or bid >= max_bid):
            break  # (a --confidence below UNLIKELY takes the band down to its bid)
        bid = bidding.next_bid(bid)
    stride = math.ceil(len(make) / MAX_LEVELS)
    return [row for i, row in enumerate(make) if i % stride == 0 or row[0] == max_bid], max_bid


class Made:
    """P(total >= bid) from simulated totals, as a step function of the bid: the share of
    the totals that reach it, and with a ``correction`` (strong totals, fast totals of the
    same few deals) plus the share of the strong ones less that of the fast ones (a
    control variate), kept between 0 and 1 and never rising with the bid."""

    def __init__(
        self, totals: np.ndarray, correction: tuple[np.ndarray, np.ndarray] | None = None
    ) -> None:
        groups = [np.sort(totals), *(np.sort(side) for side in correction or ())]
        self.values = np.unique(np.concatenate(groups))
        reaching = [
            len(group) - np.searchsorted(group, self.values, side="left") for group in groups
        ]
        shares = reaching[0] / len(totals)
        if correction is not None:  # the strong count less the fast one: 0 where they agree
            shares = shares + (reaching[1] - reaching[2]) / len(correction[0])
        self.shares = self.never_rising(shares)

    @staticmethod
    def never_rising(shares: np.ndarray) -> np.ndarray:
        """The shares, by rising bid, as probabilities that never rise: each at most the
        one below it."""
        return np.minimum.accumulate(np.clip(shares, 0.0, 1.0))

    def __call__(self, bid: int) -> float:
        at = int(np.searchsorted(self.values, bid, side="left"))
        return float(self.shares[at]) if at < len(self.values) else 0.0

    def reached(self, probability: float) -> int:
        """The highest total reached with at least this probability."""
        return int(self.values[np.flatnonzero(self.shares >= probability - 1e-9)[-1]])
