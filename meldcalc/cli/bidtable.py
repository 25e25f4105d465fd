"""`meldcalc bid`'s text: the advice, the trumps compared, each trump's spread of totals as
a picture, and the odds of the bids that matter, from the numbers of its JSON
(`meldcalc.cli.bidjson`)."""

from __future__ import annotations

from typing import Any

from meldcalc.cli.bidjson import CHOICES, judged_best, odds_json
from meldcalc.cli.report import heading, tabulate
from meldcalc.learning.question import plural


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
        best, rule = judged_best(judged), judged[0]

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
        data = odds_json(odds)
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
