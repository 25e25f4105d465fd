"""A variant laid out to learn from: its scoring table, trick counters, bidding and play."""

from __future__ import annotations

from typing import Any

from meldcalc.cards import RANKS
from meldcalc.loading import load_variant, shipped_names
from meldcalc.variant import MeldRule, Passing, Variant


def summary(variant: Variant) -> dict[str, Any]:
    """One row of ``meldcalc variants``."""
    ranks = " ".join(rank.value for rank in variant.deck.ranks)
    return {
        "name": variant.name,
        "players": variant.players,
        "partnerships": variant.partnerships,
        "deck": f"{variant.deck.size} ({ranks} x{variant.deck.copies})",
        "hand_size": variant.hand_size,
        "widow": variant.widow,
        "title": variant.title,
    }


def shipped_summaries() -> list[dict[str, Any]]:
    return [summary(load_variant(name)) for name in shipped_names()]


def meld_cards(rule: MeldRule) -> str:
    """The cards of a meld in words: ``A 10 K Q J of trump``, ``J♦ Q♠``."""
    ranks = " ".join(rank.value for rank in rule.ranks)
    if rule.kind == "trump":
        return f"{ranks} of trump"
    if rule.kind == "non_trump":
        return f"{ranks} of one non-trump suit"
    if rule.kind == "around":
        return f"{ranks} of every suit"
    return " ".join(f"{card.rank.value}{card.suit.symbol}" for card in rule.cards)


def scoring_table(variant: Variant) -> dict[str, Any]:
    """Everything ``meldcalc table`` shows, as data."""
    copies = variant.deck.copies
    classes: dict[str, list[dict[str, Any]]] = {}
    for rule in variant.melds:
        entry = {
            "name": rule.name,
            "cards": meld_cards(rule),
            "points": [rule.value(k) for k in range(1, copies + 1)],
        }
        if rule.checks:
            entry["checks"] = [rule.check_value(k) for k in range(1, copies + 1)]
        classes.setdefault("+".join(rule.classes) or "bonus", []).append(entry)
    return {
        "name": variant.name,
        "title": variant.title,
        "description": variant.description,
        "source": variant.source,
        "deal": deal_line(variant),
        "multiples": copies,
        "classes": [{"class": name, "melds": melds} for name, melds in classes.items()],
        "tricks": trick_counters(variant),
        "bidding": bidding_lines(variant),
        "play": play_lines(variant),
    }


def deal_line(variant: Variant) -> str:
    sides = "two partnerships" if variant.partnerships else "each for himself"
    extra = [f"a widow of {variant.widow}"] if variant.widow else []
    extra += [f"a stock of {variant.stock}"] if variant.stock else []
    rest = f", {' and '.join(extra)}" if extra else ""
    return (
        f"{variant.players} players ({sides}), {variant.hand_size} cards each"
        f" from {variant.deck.size}{rest}"
    )


def trick_counters(variant: Variant) -> dict[str, Any]:
    in_deck = len(variant.deck.cards()) // len(variant.deck.ranks)
    counters = {
        rank.value: variant.counters.get(rank, 0) for rank in RANKS if rank in variant.deck.ranks
    }
    cards_total = sum(points * in_deck for points in counters.values())
    return {
        "counters": counters,
        "cards_of_each_rank": in_deck,
        "cards_total": cards_total,
        "last_trick": variant.last_trick,
        "total": cards_total + variant.last_trick,
    }


def bidding_lines(variant: Variant) -> list[str]:
    bidding = variant.bidding
    if bidding is None:
        return ["no auction: the turned-up card names trump"]
    first, *later = bidding.increments
    steps = ", then ".join(
        [f"steps of {first.by}", *(f"steps of {inc.by} from {inc.start}" for inc in later)]
    )
    lines = [f"opening bid at least {bidding.opening}; {steps}"]
    if bidding.rounds:
        lines.append(f"{bidding.rounds} round{'s' if bidding.rounds > 1 else ''} of bidding only")
    if bidding.dealer_forced:
        lines.append(f"if the others all pass, the dealer must bid {bidding.opening}")
    if bidding.marriage_in_trump:
        lines.append("the bidder must hold a marriage in the suit named trump")
    if not bidding.concede:
        lines.append("a side may not concede the hand")
    if variant.passing is not None:
        lines.append(passing_line(variant.passing))
    lines.append("made: the bidding side scores meld + tricks; set: minus the bid")
    if bidding.game:
        lines.append(f"game: {bidding.game}")
    return lines


def passing_line(passing: Passing) -> str:
    """The card pass in one line, as `meldcalc table` and `meldcalc bid` say it."""
    n = passing.cards
    if passing.kind == "exchange":
        return (
            f"card exchange: before naming trump the bidder names a suit; the partner passes"
            f" {n} cards, of that suit where it has them, and the bidder passes {n} back"
        )
    when = "at once" if passing.simultaneous else "the partner first"
    return f"after trump is named the bidder and the partner pass {n} cards each way, {when}"


HEAD = {
    "always": "beat the winning card when you can, unless the trick has been trumped",
    "trump-led": "beat the winning card only when trump is led",
    "never": "no duty to beat the winning card",
}


def play_lines(variant: Variant) -> list[str]:
    overtrump = "over-trumping when you can" if variant.overtrump else "no duty to over-trump"
    return [
        "the bidder leads first; the winner of a trick leads the next",
        f"follow suit and {HEAD[variant.head]}",
        f"void in the led suit: play a trump, {overtrump}; void in both: any card",
        "highest trump wins, else the highest card of the led suit;"
        " of identical cards the first played wins",
    ]
