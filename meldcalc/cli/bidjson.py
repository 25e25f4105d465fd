"""`meldcalc bid -f json`: the documented JSON object of a bid estimate (README, "meldcalc
bid"), whose numbers the text table shows too (`meldcalc.cli.bidtable`)."""

from __future__ import annotations

from typing import Any

from meldcalc.cli.report import batch_fields


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
        results=[odds_json(odds, report) for odds in report.results],
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
    best, rule = judged_best(judged), judged[0]  # the rule of thumb's is judged first
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


def judged_best(judged: list[Any]) -> Any:
    return max(judged, key=lambda odds: odds.expected_total)


def odds_json(odds: Any, report: Any = None) -> dict[str, Any]:
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
