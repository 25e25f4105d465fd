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
from meldcalc.cli.bidjson import bid_json
from meldcalc.cli.bidtable import bid_table
from meldcalc.cli.gamescore import game_book, game_score
from meldcalc.cli.report import Format, ReportWriter
from meldcalc.errors import MeldcalcError
from meldcalc.rules.arguments import MAX_DEALS, MAX_STRONG
from meldcalc.rules.loading import DEFAULT_VARIANT
from meldcalc.rules.notation import PILES
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
        if label in PILES:  # a line of `meldcalc deal --players`: cards no seat bids with
            took = "; tell bid the widow you took with --widow" if label == "widow" else ""
            raise MeldcalcError(f"{label}: no seat bids these cards (bid a seat's hand{took})")
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
