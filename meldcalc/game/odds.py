"""Your odds at the table (`meldcalc game`): your bid's odds as the auction goes, weighed by
what the other seats' bids say and, once the game has a score, by the game; and the
auction's prompt that gives them at your turn."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from meldcalc.game.table import Table
from meldcalc.rules.cards import Hand


def bid_report(table: Table, hand: Hand, seed: int, said: tuple = ()) -> Any:
    """Your hand's odds, the deals kept as likely as the bids ``said`` make them
    (`Table.auction_said`)."""
    from meldcalc.advice.bidding import estimate
    from meldcalc.advice.systems import report_system
    from meldcalc.dealing.knowledge import TableKnowledge
    from meldcalc.rules.systemfile import heard

    other = () if table.other is None else ((2, table.other),)  # your other hand, opposite
    meanings = heard(table.variant, table.bids, table.me)
    knowledge = TableKnowledge(bids=said, known=other, meanings=meanings)
    report = estimate(
        hand, table.variant, deals=1000, seed=seed, knowledge=knowledge, policy=table.policy
    )
    return replace(report, system=report_system(report, table.bids, table.me))


def odds_heard(table: Table, seed: int) -> Table:
    """Your odds again at your turn to bid, the deals weighed by what the other seats'
    bids say of their hands; the odds as they were when the auction says too little to
    sample (a rare reading is refused by the sampler)."""
    from meldcalc.errors import KnowledgeError

    try:
        report = bid_report(table, table.hand, seed, table.auction_said())
    except KnowledgeError:
        return table
    return replace(table, odds=with_game(table, report))


def with_game(table: Table, report: Any) -> Any:
    """The report with the bid judged by the game's score (`advice.equity`), where the
    session knows the score."""
    if table.game_score is None:
        return report
    from meldcalc.advice.equity import game_odds, seated, table_for, within_reach
    from meldcalc.rules.scoring import side_of

    totals, target = table.game_score
    scores = seated(totals, side_of(table.variant, table.me))
    if not within_reach(scores, target):
        return report  # beyond the table: the plain odds
    equity = table_for(table.variant, target)
    return replace(report, game=game_odds(report, equity, scores))


def auction_prompt(table: Table) -> str:
    high = table.high_bid
    stands = "no bid yet" if high is None else f"the bid is {high[0]} ({table.seat_label(high[1])})"
    said = f"{stands}; {table.seat_label(table.to_bid)} to bid"
    if table.to_bid == table.me and table.odds is not None:
        said += f": {odds_at(table, high)}"
    return said


def odds_at(table: Table, high: tuple[int, int] | None) -> str:
    """Your odds at the level the auction has reached: the next legal bid, how often the
    simulation made it under your best trump, and the bid your confidence goes to."""
    from meldcalc.advice.odds import how_often

    bidding, best = table.variant.bidding, table.odds.best
    level = bidding.opening if high is None else bidding.next_bid(high[0])
    made = dict(best.make).get(level)
    if made is None:  # a level the odds table leaves out: the share of totals that reach it
        made = float((best.totals >= level).mean())
    limit = best.max_bid
    chance = f"{level} is {how_often(made, len(best.totals))} with {best.trump.letter}"
    if table.odds.knowledge.bids:
        chance += " (the deals as likely as the bids say)"
    go = "pass" if limit is None or limit < level else f"go on up to {limit}"
    game = table.odds.game
    if game is not None:
        most = "pass" if game.best is None or game.best < level else f"go on up to {game.best}"
        go += f"; to win the game at {game.score}: {most}"
    if table.odds.system is not None and table.odds.system.now is not None:
        go += f"; {table.odds.system.now.short()}"
    return f"{chance}; {go}"
