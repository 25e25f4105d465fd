"""`meldcalc bid`: the simulated estimate of a hand, and the bid it suggests."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from meldcalc.cli.base import (
    AUTO_JOBS_HELP,
    DEFAULT_POLICY,
    FormatOption,
    HandArgument,
    Policy,
    SeedOption,
    TrumpOption,
    app,
    full_hand,
    game_option,
    jobs_option,
    load,
    no_limit_if_zero,
    policy_option,
    probability_option,
    progress_line,
    report_each,
    time_limit_option,
    user_errors,
    variant_option,
    warn,
)
from meldcalc.cli.gamescore import game_book, game_score
from meldcalc.cli.report import Format, ReportWriter, batch_fields, heading, tabulate
from meldcalc.errors import MeldcalcError
from meldcalc.learning.question import plural
from meldcalc.rules.arguments import MAX_DEALS, MAX_STRONG
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.seats import SEAT_WORDS, Seating


def _told(name: str, metavar: str, text: str) -> Any:
    """An option of what the table knows: read as text, checked by `read_knowledge`, so a
    bad value is one line naming it. Options of one value are collected as lists all the
    same, so that a repeat saying something else is refused rather than the last kept."""
    return typer.Option(name, metavar=metavar, help=text, show_default=False)


@app.command(short_help="Simulate the unseen cards and suggest a bid, with its odds.")
def bid(
    hand: HandArgument = None,
    variant: Annotated[
        Optional[str],
        variant_option(
            "A shipped variant's name or a path to a YAML rules file (default: single-deck;"
            " a game's ledger keeps its own)."
        ),
    ] = None,
    trump: TrumpOption = None,
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            "-n",
            min=1,
            max=MAX_DEALS,
            metavar="N",
            help=f"Simulated deals per trump (1 to {MAX_DEALS:,}).",
        ),
    ] = 2000,
    seed: SeedOption = None,
    confidence: Annotated[
        float,
        typer.Option(
            "--confidence",
            "-c",
            parser=probability_option,
            metavar="P",
            help="P(make) a bid must reach: 0.7, 70 or 70% (from 1% to 99%).",
        ),
    ] = 0.7,
    fmt: FormatOption = Format.table,
    jobs: Annotated[Optional[int], jobs_option(AUTO_JOBS_HELP, show_default=False)] = None,
    known: Annotated[
        Optional[list[str]],
        _told(
            "--known",
            "SEAT:CARDS",
            f"Cards a seat holds, e.g. partner:'JD QS' (SEAT: {SEAT_WORDS}; repeat for more).",
        ),
    ] = None,
    seat: Annotated[
        Optional[str],
        typer.Option(
            "--seat",
            metavar="SEAT",
            help="Your seat at the table, from 0 in playing order: the seats --known and"
            " --void number count from it (default 0, or the seat --auction gives).",
            show_default=False,
        ),
    ] = None,
    auction: Annotated[
        Optional[str],
        typer.Option(
            "--auction",
            metavar="BIDS",
            help="The bids so far, in turn from the dealer's left ('52 pass 55'): you are"
            " the seat to bid next; each bid is read by the table's bidding system.",
            show_default=False,
        ),
    ] = None,
    void: Annotated[
        Optional[list[str]],
        _told(
            "--void", "SEAT:SUIT", "A seat holds none of a suit, e.g. left:S (SEAT as for --known)."
        ),
    ] = None,
    partner_meld: Annotated[
        Optional[list[str]],
        _told(
            "--partner-meld",
            "RANGE",
            "Partner's meld under the trump: 40: (at least), :60 (at most), 40:60, 40.",
        ),
    ] = None,
    opponents_meld: Annotated[
        Optional[list[str]], _told("--opponents-meld", "RANGE", "The opponents' meld together.")
    ] = None,
    widow: Annotated[
        Optional[list[str]],
        _told("--widow", "CARDS", "The widow (kitty) you took: the trump, what to bury, the odds."),
    ] = None,
    received: Annotated[
        Optional[list[str]], _told("--received", "CARDS", "The cards your partner passed you.")
    ] = None,
    ask: Annotated[
        Optional[list[str]],
        _told("--ask", "SUIT", "Card exchange: the suit you ask for (default: each is tried)."),
    ] = None,
    no_passing: Annotated[
        bool,
        typer.Option(
            "--no-passing",
            help="The card pass is over or not played: HAND is as it will be played.",
        ),
    ] = False,
    endgame: Annotated[
        int,
        typer.Option(
            "--endgame",
            min=0,
            metavar="K",
            help="Play the last K tricks of every deal exactly (1 to 8; slower).",
        ),
    ] = 0,
    time_limit: Annotated[
        float,
        time_limit_option(
            "Stop the --endgame searches of a hand after this many seconds in all, with an"
            " error; 0 (the default): no limit."
        ),
    ] = 0,
    score: Annotated[
        Optional[str],
        typer.Option(
            "--score",
            metavar="N,N",
            help="The game's score, your side's first (850,920; three alone: 850,920,400, on"
            " from your left): each bid judged by the games it wins, and its odds.",
            show_default=False,
        ),
    ] = None,
    game: Annotated[
        Optional[Path],
        game_option("A game's ledger (score -g): its score and target, your side --seat's."),
    ] = None,
    strong: Annotated[
        int,
        typer.Option(
            "--strong",
            min=0,
            max=MAX_STRONG,
            metavar="N",
            help="Correct the best trump's odds against strong play: N more deals played"
            " by the fast player and by the look-ahead player in every seat (about 0.04 s"
            " a deal in single deck, 0.15 s in double deck, on one core; 0, the default:"
            " off).",
        ),
    ] = 0,
    policy: Annotated[Policy, policy_option()] = DEFAULT_POLICY,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Say how the table's bidding system reads the auction and each bid your"
            " hand could make now.",
        ),
    ] = False,
) -> None:
    """Estimate trick points by simulating the unseen cards, and suggest a bid with its odds.

    HAND is the bidder's whole hand, e.g. 'AS 10S KS QS JS JD 9S AH AD AC KH QH'; '-' or
    a pipe on stdin gives one hand per line. What the table knows (the meld shown, the
    auction, the widow, the pass) narrows the deals to those consistent with it.

    Example: meldcalc bid "AS 10S KS QS JS JD 9S AH AD AC KH QH" --seed 7
    """
    from meldcalc.advice.bidding import check_biddable_variant, check_endgame, estimate
    from meldcalc.advice.systems import auction_knowledge, read_auction, report_system
    from meldcalc.dealing.knowledge import read_knowledge

    with user_errors():
        if score is not None and game is not None:
            raise MeldcalcError("give the score (--score) or a game (--game), not both")
        book = game_book(game, variant) if game is not None else None
        if book is not None:
            warn(list(book.warnings))  # the house file changed since the game began ...
        rules = book.rules if book else load(variant or DEFAULT_VARIANT)
        check_biddable_variant(rules)
        check_endgame(rules, endgame)
        seating = Seating(rules, names=(book.names or ()) if book else ())
        me = seating.parse(seat or "0", "--seat", True)
        told = None if seat is None else me  # your seat, where --seat said it
        said = None if auction is None else read_auction(auction, rules, told)
        me = said.to_speak if said is not None else me
        if (score is not None or game is not None) and fmt in (Format.csv, Format.tsv):
            raise MeldcalcError(
                f"--score with -f {fmt.value}: the game's odds have no columns there; use -f"
                " table or json"
            )
        knowledge = read_knowledge(
            rules,
            known or [],
            void or [],
            partner_meld,
            opponents_meld,
            widow,
            received,
            ask,
            no_passing,
            me,
        )
        if said is not None:
            knowledge = auction_knowledge(rules, said.bids, me, knowledge)
        at_score = game_score(rules, score, book, me)
    trumps = [trump] if trump else None

    def compute(text: str, label: str | None) -> object:
        with progress_line(working="simulating deals") as progress:
            report = estimate(
                full_hand(text, rules),
                rules,
                deals,
                seed,
                trumps,
                confidence,
                jobs,
                progress,
                [],
                knowledge,
                endgame,
                no_limit_if_zero(time_limit),
                strong,
                policy.value,
            )
        spoken = said.bids if said is not None else ()
        report = replace(report, system=report_system(report, spoken, me, explain))
        if at_score is None:
            return report
        from meldcalc.advice.equity import game_odds, table_for

        scores, target = at_score
        with progress_line(
            "working out the game's equity table once: {} sweeps",
            working="working out the game's equity table once",
        ) as progress:
            table = table_for(rules, target, progress)
        report.warnings.extend(table.beyond(scores))
        return replace(report, game=game_odds(report, table, scores))

    report_each(
        hand, compute, lambda batch: BidWriter(fmt, sys.stdout, batch, flush_each=True), "bid"
    )


def bid_json(report: Any, line: int | None = None, label: str | None = None) -> dict[str, Any]:
    """The documented JSON object of one bid estimate (README, "meldcalc bid")."""
    record = batch_fields(line, label)
    record.update(
        hand=report.hand.notation(),
        variant=report.variant.name,
        deals=report.deals,
        chosen_on=report.chosen_on or report.deals,
        seed=report.seed,
        policy=report.policy,
        spread=None if report.spread is None else report.spread.json(),
        confidence=report.confidence,
        warnings=report.warnings,
        best_trump=report.best.trump.letter,
        suggested_bid=report.suggested_bid,
        results=[_odds_json(odds, report) for odds in report.results],
        knowledge=report.knowledge.json(report.variant) if report.knowledge.told else None,
        passing=_passing_json(report),
        system=None if report.system is None else report.system.json(),
    )
    if report.game is not None:
        record["game"] = report.game.json()
    return record


def _passing_json(report: Any) -> dict[str, Any] | None:
    """The pass simulated in every deal, and under the exchange each suit asked for."""
    passing = report.passing
    if passing is None:
        return None
    asks = [
        {
            "ask": odds.ask.letter,
            "trump": odds.trump.letter,
            "expected_total": round(odds.expected_total, 2),
            "max_bid": odds.max_bid,
        }
        for odds in report.asks
    ]
    return {
        "kind": passing.kind,
        "cards": passing.cards,
        "simultaneous": passing.simultaneous,
        "ask": report.best.ask.letter if report.best.ask else None,
        "asks": asks,
    }


#: The choices of cards a bid judges on the same deals: (TrumpOdds field, BidReport
#: field, what a player calls a choice, the column of the cards chosen).
CHOICES = (
    ("bury", "burials", "burial", "bury"),
    ("returns", "pass_backs", "pass-back", "pass back"),
)


def _choice_json(odds: Any, report: Any, field: str, judged_by: str) -> dict[str, Any] | None:
    """The cards chosen (buried or passed back), with the expected total on the deals
    every candidate was judged on, and the rule of thumb's on the same deals."""
    chosen = getattr(odds, field)
    if chosen is None:
        return None
    judged = getattr(report, judged_by)[odds.trump]
    best, rule = _judged_best(judged), judged[0]  # the rule of thumb's is judged first
    return {
        "cards": [str(card) for card in chosen.cards(odds.trump)],
        "candidates": report.screened.get(odds.trump, len(judged)),
        "judged_on_every_deal": len(judged),
        "judged_total": round(best.expected_total, 2),
        "rule_of_thumb": {
            "cards": [str(card) for card in getattr(rule, field).cards(odds.trump)],
            "judged_total": round(rule.expected_total, 2),
        },
    }


def _strong_json(check: Any) -> dict[str, Any]:
    return {"deals": check.deals, "shift": round(check.shift, 2), "se": round(check.shift_se, 2)}


def _judged_best(judged: list[Any]) -> Any:
    return max(judged, key=lambda odds: odds.expected_total)


def _odds_json(odds: Any, report: Any = None) -> dict[str, Any]:
    tricks = odds.tricks
    p10, p50, p90 = odds.percentiles(10, 50, 90)
    sd = float(tricks.std(ddof=1)) if len(tricks) > 1 else 0.0
    return {
        "trump": odds.trump.letter,
        "biddable": odds.biddable,
        "meld": round(odds.meld, 2),
        "partner_meld": None
        if odds.partner_meld is None
        else {"mean": round(odds.partner_meld, 2)},
        "tricks": {
            "mean": round(float(tricks.mean()), 2),
            "sd": round(sd, 2),
            "se": round(sd / len(tricks) ** 0.5, 2),
            "p10": round(p10, 2),  # an interpolation's float noise left out
            "p50": round(p50, 2),
            "p90": round(p90, 2),
        },
        "expected_total": round(odds.expected_total, 2),
        "reason": odds.reason,
        "make": [{"bid": bid, "probability": round(p, 4)} for bid, p in odds.make],
        "max_bid": odds.max_bid,
        "layouts_tried_per_kept": round(odds.layouts, 2),
        "burial": None if report is None else _choice_json(odds, report, "bury", "burials"),
        "strong": None if odds.strong is None else _strong_json(odds.strong),
        "pass_back": None
        if report is None
        else _choice_json(odds, report, "returns", "pass_backs"),
    }


def bid_table(report: Any) -> str:
    """The advice first, then the trumps compared, each trump's spread of totals as a
    picture, and the odds of the bids that matter for the best trump."""
    best = report.best
    lines = [
        heading(report, best.trump),
        f"{plural(report.deals, 'simulated deal')} per trump, seed {report.seed}"
        + report.compared_first(),
        "",
        *report.advice(),
        "",
        *_explained(report),
        *_table_knows(report),
        _trumps_table(report),
        "",
        *_spread_picture(report),
    ]
    if best.biddable:
        trump = f"{best.trump.symbol} ({best.trump.letter})"
        lines += ["", f"chance of making each bid with {trump} as trump:", _odds_bars(best)]
        if report.spread is not None:
            lines.append(f"({report.spread.sentence()})")
    if report.game is not None:
        lines += ["", *_game_lines(report.game)]
    return "\n".join(lines)


def _explained(report: Any) -> list[str]:
    """``--explain``: the system's reading of the auction and of the bids to make, then a
    blank line; nothing without them."""
    system = report.system
    if system is None or not system.explanation:
        return []
    return [*system.explanation, ""]


def _game_lines(odds: Any) -> list[str]:
    """The bid judged by the game: the sentences, then the chances of each level that is
    neither sure nor hopeless, and of passing."""
    shown = [level for level in odds.levels if 0.02 <= level[1] <= 0.98 or level[0] == odds.best]
    rows = [
        [level, f"{made:.0%}", f"{win:.0%}", "← go up to here" if level == odds.best else ""]
        for level, made, win in shown or odds.levels[:1]
    ]
    rows.append(["pass", "", f"{odds.passing:.0%}", "← pass" if odds.best is None else ""])
    headers = ["bid", "made", "wins the game", ""]
    table = tabulate(rows, headers, colalign=("right", "right", "right"))
    return [*odds.sentences(), *table.splitlines()]


def _table_knows(report: Any) -> list[str]:
    """What the deals assumed: what the table knows, the pass, the burials judged; each
    block ends with a blank line. Nothing when nothing was told or simulated."""
    lines = []
    told = report.knowledge.describe(report.variant, [odds.trump for odds in report.results])
    if report.knowledge.shapes_deal:
        lines += ["what the table knows (every deal simulated agrees with it):"]
        lines += [f"  {line}" for line in told]
        lines += [f"  {_layouts_line(report)}", ""]
    elif told:
        lines += [*told, ""]
    if report.passing is not None:
        lines += [*_passing_lines(report), ""]
    for field, judged_by, what, column in CHOICES:
        if getattr(report, judged_by):
            lines += [*_choice_lines(report, field, judged_by, what, column), ""]
    return lines


def _layouts_line(report: Any) -> str:
    ratios = {f"{odds.layouts:.1f}" for odds in report.results}
    if len(ratios) == 1:
        return f"layouts tried for each one kept: {ratios.pop()}"
    each = ", ".join(
        f"{odds.trump.letter} {odds.trump.symbol} {odds.layouts:.1f}" for odds in report.results
    )
    return f"layouts tried for each one kept: {each}"


def _passing_lines(report: Any) -> list[str]:
    from meldcalc.learning.tables import passing_line

    lines = [
        "the card pass, simulated in every deal by the policy of meldcalc/dealing/passing.py:",
        f"  {passing_line(report.passing)}",
    ]
    if len(report.asks) < 2:
        return lines
    rows = [
        [
            f"{odds.ask.letter} {odds.ask.symbol}",
            f"{odds.trump.letter} {odds.trump.symbol}",
            _shown(odds.expected_total),
            NO_BID if odds.max_bid is None else odds.max_bid,
        ]
        for odds in report.asks
    ]
    headers = ["ask for", "best trump", "expected", f"bid up to ({report.confidence:.0%})"]
    table = tabulate(rows, headers, colalign=("left", "left", "right", "right"))
    note = (
        "each suit asked for, judged on the same deals; the trump table below plays the"
        " chosen ask on deals of its own, so the luck that chose it does not flatter it:"
        " bid by the table below"
    )
    return [*lines, "", table, note]


def _choice_lines(report: Any, field: str, judged_by: str, what: str, column: str) -> list[str]:
    """Per trump the best burial (or pass-back) against the rule of thumb's, both judged
    on the same deals: a burial by the trick points with the buried counters (meld is the
    same whatever is buried), a pass-back by the total, as it changes both sides' meld."""
    burial = field == "bury"
    rows = []
    for odds in report.results:
        judged = getattr(report, judged_by)[odds.trump]
        best, rule = _judged_best(judged), judged[0]

        def judged_by_value(o: Any) -> str:
            return _shown(float(o.tricks.mean()) if burial else o.expected_total)

        rows.append(
            [
                f"{odds.trump.letter} {odds.trump.symbol}",
                getattr(best, field).notation(odds.trump),
                judged_by_value(best),
                getattr(rule, field).notation(odds.trump),
                judged_by_value(rule),
                report.screened.get(odds.trump, len(judged)),
            ]
        )
    value = "tricks" if burial else "expected"
    headers = ["trump", column, value, "rule of thumb", value, f"{what}s tried"]
    align = ("left", "left", "right", "left", "right", "right")
    lines = [
        f"the best {what} under each trump, judged on the same deals (the odds shown are",
        f"from other deals, so the luck that chose a {what} does not flatter it):",
        tabulate(rows, headers, colalign=align),
    ]
    if report.screened:
        from meldcalc.advice.bidding import screening

        lines.append(f"({screening(what, report.chosen_on)})")
    return lines


def _trumps_table(report: Any) -> str:
    """A row per trump: meld, the partners' meld, tricks, the expected total, the highest
    bid."""
    from meldcalc.dealing.knowledge import partner_seats

    partners = bool(partner_seats(report.variant))
    column = "partners" if len(partner_seats(report.variant)) > 1 else "partner"
    headers = ["trump", "meld"] + ([column] if partners else [])
    headers += ["tricks", "give or take", "expected", f"bid up to ({report.confidence:.0%})"]
    rows = []
    for odds in report.results:
        data = _odds_json(odds)
        tricks = data["tricks"]
        highest = (
            odds.max_bid
            if odds.max_bid is not None
            else (NO_BID if odds.biddable else "no marriage")
        )
        row = [f"{odds.trump.letter} {odds.trump.symbol}", _shown(data["meld"])]
        row += [_shown(data["partner_meld"]["mean"])] if partners else []
        row += [
            _shown(tricks["mean"]),
            _shown(tricks["se"]),
            _shown(data["expected_total"]),
            highest,
        ]
        rows.append(row)
    table = tabulate(rows, headers, colalign=("left",) + ("right",) * (len(headers) - 1))
    return f"{table}\n{_give_or_take(report)}"


def _give_or_take(report: Any) -> str:
    """The footnote that says what "give or take" is."""
    deals = plural(len(report.best.tricks), "simulated deal")
    return (
        f"points, each the mean of {deals}; give or take: how far their luck"
        " may move the tricks (one standard error)"
    )


def _shown(number: float) -> int | float:
    """A mean of points as a player reads it: to one decimal, whole where it is (meld 320,
    not 320.0; 215.7, not 215.65)."""
    rounded = round(float(number), 1)
    return int(rounded) if rounded.is_integer() else rounded


#: What the bid-up-to column says where no bid reaches the confidence.
NO_BID = "none: pass"


_LEVELS = " ▁▂▃▄▅▆▇█"


_SPREAD_WIDTH = 48


def _spread_picture(report: Any) -> list[str]:
    """Each trump's totals as a row of bars over one shared axis (2nd to 98th percentile
    of all trumps), so the trumps' spreads can be compared at a glance. Bins are whole
    multiples of the step totals move in (5 in single deck), so no bin is empty by
    arithmetic alone. The percentiles are totals dealt (the lower and the higher), never
    between two: with few deals they are the lowest and the highest, and no trump's row
    is left blank."""
    import numpy as np

    every = np.concatenate([odds.totals for odds in report.results]).astype(np.int64)
    low = int(np.quantile(every, 0.02, method="lower"))
    high = int(np.quantile(every, 0.98, method="higher"))
    grain = max(int(np.gcd.reduce(every - every.min())), 1)
    width = grain * max(1, -(-(high - low + 1) // (grain * _SPREAD_WIDTH)))
    low -= low % grain
    bins = max(1, -(-(high - low + 1) // width))
    edges = low + width * np.arange(bins + 1)
    from meldcalc.dealing.knowledge import partner_seats, partners_word

    partner = f" + {partners_word(report.variant)}" if partner_seats(report.variant) else ""
    lines = [f"how the total (meld{partner} + tricks) falls, 2nd to 98th percentile:"]
    lines.append("      " + _axis(low, int(edges[-1]) - 1, bins))
    for odds in report.results:
        counts, _ = np.histogram(odds.totals, bins=edges)
        scaled = np.ceil(counts / max(counts.max(), 1) * (len(_LEVELS) - 1)).astype(int)
        bars = "".join(_LEVELS[level] for level in scaled)
        lines.append(f"{odds.trump.letter} {odds.trump.symbol}   {bars}")
    bid = report.suggested_bid
    if bid is not None and low <= bid < edges[-1]:
        lines.append(" " * (6 + (bid - low) // width) + f"▲ {bid}: the highest bid to go to")
    return lines


def _axis(low: int, high: int, bins: int) -> str:
    """The axis above the bars: the lowest total at the left, the highest at the right
    edge (one number where the totals are all one), a blank between them at least."""
    right = f"{high} points"
    return right if low == high else f"{low} ".ljust(bins - len(right)) + right


def _odds_bars(odds: Any) -> str:
    """A row a bid; bids in a row with the same chance (the deals whose meld alone makes
    any bid) as one row of their range."""
    rows = []
    for run in _same_chance_runs(odds.make):
        (first, probability), last = run[0], run[-1][0]
        bar = "█" * round(probability * 30)
        mark = "  ← the highest bid to go to" if odds.max_bid in (b for b, _ in run) else ""
        bids = str(first) if len(run) < 3 else f"{first}-{last}"
        rows.extend([[bid, f"{p:.1%}", bar + mark] for bid, p in run] if len(run) < 3 else [])
        if len(run) >= 3:
            rows.append([bids, f"{probability:.1%}", bar + mark + "  (each of these bids)"])
    return tabulate(rows, ["bid", "P(make)", ""], colalign=("right", "right", "left"))


def _same_chance_runs(make: list[tuple[int, float]]) -> list[list[tuple[int, float]]]:
    runs: list[list[tuple[int, float]]] = []
    for bid, probability in make:
        if runs and runs[-1][-1][1] == probability:
            runs[-1].append((bid, probability))
        else:
            runs.append([(bid, probability)])
    return runs


def _csv_number(number: float) -> int | float:
    """Two decimals, as the CSV always gave, but a whole number as one (meld 320)."""
    rounded = round(float(number), 2)
    return int(rounded) if rounded.is_integer() else rounded


class BidWriter(ReportWriter):
    csv_header = (
        "line",
        "hand",
        "trump",
        "meld",
        "partner_meld",
        "tricks_mean",
        "expected_total",
        "max_bid",
    )

    def total(self, report: Any) -> object:
        """The highest bid to go to and its trump (``470 S``), or ``pass``; with the
        game's score, the bid that wins the most games."""
        bid = report.suggested_bid if report.game is None else report.game.best
        if bid is None:
            return "pass"
        return f"{bid} {report.best.trump.letter}"

    def json(
        self, report: Any, line: int | None, label: str | None = None, indent: int | None = None
    ) -> str:
        return json.dumps(bid_json(report, line, label), indent=indent, ensure_ascii=False)

    def csv_rows(self, report: Any, line: int) -> list[list[Any]]:
        hand = report.hand.notation()
        return [
            [
                line,
                hand,
                odds.trump.letter,
                _csv_number(odds.meld),
                "" if odds.partner_meld is None else _csv_number(odds.partner_meld),
                _csv_number(float(odds.tricks.mean())),
                _csv_number(odds.expected_total),
                "" if odds.max_bid is None else odds.max_bid,
            ]
            for odds in report.results
        ]

    def table(self, report: Any) -> str:
        return bid_table(report)
