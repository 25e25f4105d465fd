"""A variant laid out to learn from: its scoring table, trick counters, bidding and play."""

from __future__ import annotations

import dataclasses
from typing import Any

from meldcalc.rules.cards import RANKS
from meldcalc.rules.loading import example_names, load_variant, shipped_names
from meldcalc.rules.variant import MeldRule, Passing, Variant


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
    """Every shipped variant, then every shipped example (``"example": true``)."""
    return [
        {**summary(load_variant(name)), "name": name, "example": name in examples}
        for examples in [example_names()]
        for name in [*shipped_names(), *examples]
    ]


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
        if copies > len(rule.points):  # the file lists fewer: the rest follow DERIVED
            entry["derived"] = list(range(len(rule.points) + 1, copies + 1))
        if rule.checks:
            entry["checks"] = [rule.check_value(k) for k in range(1, copies + 1)]
        marked = _marked_copies(variant, rule, copies)
        if marked:
            entry["house_default"] = marked
        if rule.reuses:
            entry["reuse"] = {
                "melds": list(rule.reuses),
                "from_copies": rule.reuse_from,
                "beside": rule.reuse_beside,
            }
        classes.setdefault("+".join(rule.classes) or "bonus", []).append(entry)
    return {
        "name": variant.name,
        "title": variant.title,
        "description": variant.description,
        "source": variant.source,
        "deal": deal_line(variant),
        "multiples": copies,
        "house_defaults": list(variant.house_defaults),
        "classes": [{"class": name, "melds": melds} for name, melds in classes.items()],
        "tricks": trick_counters(variant),
        "bidding": bidding_lines(variant),
        "scoring": scoring_lines(variant),
        "house": house_rules(variant),
        "play": play_lines(variant),
        "system": _variant_system(variant),
    }


#: Marks a number that is meldcalc's own, no source giving it (`rules.sources`).
MARK = "†"
HOUSE_DEFAULT = (
    "a house default: meldcalc's own number, not given by the variant's sources"
    " (house_defaults in its file)"
)


def marked(variant: Variant, text: str, *paths: str) -> str:
    """``text`` with the house default mark when it says a number ``paths`` name."""
    return f"{text} {MARK}" if variant.is_house_default(*paths) else text


def _marked_copies(variant: Variant, rule: MeldRule, copies: int) -> dict[str, list[int]]:
    """The copy counts whose points or checks are house defaults, by key."""
    found = {}
    for key in ("points", "checks"):
        path = f"melds[{rule.name}].{key}"
        ks = [
            k for k in range(1, copies + 1) if {path, f"{path}[{k}]"} & set(variant.house_defaults)
        ]
        if ks:
            found[key] = ks
    return found


def _variant_system(variant: Variant) -> dict[str, Any] | None:
    from meldcalc.rules.systemfile import system_for

    system = system_for(variant)
    return None if system is None else system_table(system)


#: How a meld scores more copies than its list gives (`variant.multiplicity_value`).
DERIVED = (
    "more copies than a meld's list gives score as its last listed value plus the value of"
    " the copies left over"
)


def reuse_lines(data: dict[str, Any]) -> list[str]:
    """The variant's exceptions to the reuse rule, in words, from ``scoring_table``'s data."""
    lines = []
    for meld in (meld for group in data["classes"] for meld in group["melds"]):
        if "reuse" in meld:
            reuse = meld["reuse"]
            beside = reuse["beside"]
            lines.append(
                f"Except: from {reuse['from_copies']} copies up, {meld['name']}s may use the"
                f" cards of the {' and '.join(reuse['melds'])}, when at least {beside} cop"
                f"{'y lies' if beside == 1 else 'ies lie'} beside them, of their own."
            )
    return lines


def deal_line(variant: Variant) -> str:
    if variant.hands_each > 1:
        return (
            f"2 players, each holding the two hands of a side: {variant.players} hands of"
            f" {variant.hand_size} cards from {variant.deck.size}"
        )
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
        "house_default": variant.is_house_default("tricks.counters", "tricks.last_trick"),
    }


def bidding_lines(variant: Variant) -> list[str]:
    bidding = variant.bidding
    if bidding is None:
        return ["no auction: the turned-up card names trump"]
    first, *later = bidding.increments
    steps = ", then ".join(
        [f"steps of {first.by}", *(f"steps of {inc.by} from {inc.start}" for inc in later)]
    )
    opening = f"opening bid at least {bidding.opening}; {steps}"
    lines = [marked(variant, opening, "bidding.opening", "bidding.increments")]
    if bidding.rounds:
        rounds = f"{bidding.rounds} round{'s' if bidding.rounds > 1 else ''} of bidding only"
        lines.append(marked(variant, rounds, "bidding.rounds"))
    if bidding.dealer_forced:
        forced = f"if the others all pass, the dealer must bid {bidding.opening}"
        lines.append(marked(variant, forced, "bidding.dealer_forced"))
    if bidding.marriage_in_trump:
        lines.append("the bidder must hold a marriage in the suit named trump")
    if not bidding.concede:
        lines.append(marked(variant, "a side may not concede the hand", "bidding.concede"))
    elif bidding.throw_in_advice:
        advice = (
            f"a side whose meld is more than {bidding.throw_in_advice} below its bid is"
            " advised to throw the hand in"
        )
        lines.append(marked(variant, advice, "bidding.throw_in_advice"))
    if variant.passing is not None:
        lines.append(passing_line(variant.passing))
    return lines


def house_rules(variant: Variant) -> dict[str, Any]:
    """The switches that change a hand's or a game's score, as the file sets them."""
    house, bidding = variant.house, variant.bidding
    stock = {"stock_play": dataclasses.asdict(variant.stock_play)} if variant.stock_play else {}
    return {
        "meld_minimum": variant.meld_minimum,
        "save_meld": house.save_meld,
        "set_penalty": house.set_penalty,
        "forfeit_under_minimum": house.forfeit_under_minimum,
        "trick_minimum": house.trick_minimum,
        "thrown_in": {
            "meld": house.thrown_in.meld,
            "meld_minimum": house.thrown_in.meld_minimum,
            "cards": house.thrown_in.cards,
        },
        "both_reach": bidding.both_reach if bidding else None,
        "checks": any(rule.checks for rule in variant.melds),
        **stock,  # the two-handed game's switches, where there is a stock
    }


def scoring_lines(variant: Variant) -> list[str]:
    """How a hand and a game are scored, every house switch included, in words."""
    house, bidding = variant.house, variant.bidding
    if bidding is None:
        stock = _stock_scoring_lines(variant)
        return stock or ["each side scores its meld and the trick points it takes"]
    lost = "the bid" if house.set_penalty == 1 else f"{house.set_penalty} times the bid"
    set_line = f"set: the bidding side scores nothing and loses {lost}; the others score as usual"
    lines = [
        "made (meld + tricks reach the bid): every side scores its meld + tricks",
        marked(variant, set_line, "house.set_penalty"),
        *_meld_rules(variant),
    ]
    if bidding.concede:
        thrown = f"thrown in before play: the bidding side loses {lost}; {_thrown_in(variant)}"
        lines.append(marked(variant, thrown, "house.thrown_in"))
    if house.forfeit_under_minimum:
        short = (
            f"short of meld: a bidding side melding under {variant.meld_minimum} loses {lost}"
            f" without play (the bidder still names trump); {_thrown_in(variant)}, with no"
            " trick test"
        )
        lines.append(marked(variant, short, "house.forfeit_under_minimum"))
    if bidding.marriage_in_trump:
        lines.append(
            f"no marriage in the suit named: the hand is not played, the bidding side loses"
            f" {lost} and no one counts meld"
        )
    if any(rule.checks for rule in variant.melds):
        lines.append("checks: a side scores its melds' checks when its meld counts")
    if bidding.game:
        lines.append(marked(variant, _game_line(variant, bidding.game), "bidding.game"))
    return lines


def _meld_rules(variant: Variant) -> list[str]:
    save = variant.house.save_meld
    lines = []
    if variant.meld_minimum:
        minimum = f"meld minimum: a side's meld counts only when it is {variant.meld_minimum}"
        lines.append(marked(variant, f"{minimum} or more", "house.meld_minimum"))
    taken = {"trick": "a trick", "counter": "a counter"}.get(save, f"{save} or more in tricks")
    if save is not None:
        saved = f"save meld: a side's meld counts only when it takes {taken}"
        lines.append(marked(variant, saved, "house.save_meld"))
    least = variant.house.trick_minimum
    if least:
        trick = (
            f"trick minimum: a side taking under {least} in tricks scores nothing for the hand"
            " (its meld ignored); a bidding side so is set whatever its meld"
        )
        lines.append(marked(variant, trick, "house.trick_minimum"))
    return lines


def _thrown_in(variant: Variant) -> str:
    rule = variant.house.thrown_in
    if not rule.meld and not rule.cards:
        return "the others score nothing"
    parts = []
    if rule.meld:
        least = max(rule.meld_minimum, variant.meld_minimum)
        parts.append("their meld" + (f" (when it is {least} or more)" if least else ""))
    if rule.cards:
        parts.append(f"{rule.cards} for the cards")
    return "the others score " + " + ".join(parts)


def _game_line(variant: Variant, target: int) -> str:
    both = (
        "the bidding side wins"
        if variant.bidding and variant.bidding.both_reach == "bidder"
        else "the higher total wins (equal totals play another hand)"
    )
    return (
        f"game: the first side to {target:,} at the end of a hand (score --to sets another"
        f" target); several at once: {both}"
    )


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


DIRECTION = {
    "clockwise": "clockwise: the next to play sits on your left",
    "counterclockwise": "counter-clockwise: the next to play sits on your right",
}

HEAD = {
    "always": "beat the winning card when you can, unless the trick has been trumped",
    "trump-led": "beat the winning card only when trump is led",
    "never": "no duty to beat the winning card",
}


def _stock_scoring_lines(variant: Variant) -> list[str]:
    """The stock game's score (two-handed): meld and tricks, the rounding switch, the game."""
    switches = variant.stock_play
    if switches is None:
        return []
    tricks = "trick points to the ten, 7, 8 or 9 as 10" if switches.round_tricks else "trick points"
    return [
        f"each player scores its meld (laid after tricks won, and the dix) and its {tricks}",
        f"game: {switches.game}; both over it on one hand: the higher total wins",
    ]


def _stock_play_lines(variant: Variant) -> list[str]:
    """How the stock is played (two-handed), its house switches in words."""
    switches = variant.stock_play
    if switches is None:
        return []
    most = switches.melds_per_trick
    melds = "one meld" if most == 1 else f"up to {most} melds"
    laying = (
        f"lays {melds} (at least one card from the hand; a melded card melds again only in"
        " another class or a higher meld of its class) and shows or exchanges the dix"
    )
    order = (
        f"{laying}, then draws first; the loser draws next"
        if switches.meld_before_draw
        else f"draws first, the loser next; then the winner {laying} before it leads"
    )
    lines = [
        "the non-dealer leads; while the stock lasts any card may be played, from hand or table",
        f"the trick's winner {order}",
    ]
    if switches.closing:
        lines.append("the trick's winner may close the stock instead of drawing")
    return [*lines, "once the stock is gone the melds go back into the hands, and:"]


def play_lines(variant: Variant) -> list[str]:
    overtrump = "over-trumping when you can" if variant.overtrump else "no duty to over-trump"
    void = f"void in the led suit: play a trump, {overtrump}; void in both: any card"
    stock = _stock_play_lines(variant)
    leads = [] if stock else ["the bidder leads first; the winner of a trick leads the next"]
    return [
        marked(variant, f"dealing and play go {DIRECTION[variant.direction]}", "play.direction"),
        *stock,
        *leads,
        marked(variant, f"follow suit and {HEAD[variant.head]}", "play.head"),
        marked(variant, void, "play.overtrump"),
        "highest trump wins, else the highest card of the led suit;"
        " of identical cards the first played wins",
    ]


# --- the bidding system ---------------------------------------------------------------------


def system_table(system: Any) -> dict[str, Any]:
    """A bidding system (`rules.systems.System`) as ``meldcalc table`` shows it: each entry,
    the bids it reads and what they say, in the order they are tried."""
    return {
        "system": system.name,
        "title": system.title,
        "description": system.description,
        "source": system.source,
        "up_to": system.up_to,
        "bids": [
            {"bids": entry.bids_text(), "says": _says(entry), "tells": _tells(entry)}
            for entry in system.entries
        ],
    }


def _says(entry: Any) -> str:
    """The entry's words, the meld a bid shows written as N (its figure in `_tells`)."""
    return entry.says.replace("{meld}", "N")


def _tells(entry: Any) -> str:
    """What a bid of the entry tells of the hand (`rules.systems.Meaning.fits`)."""
    from meldcalc.rules.systems import told_words

    told = []
    meld = entry.meld
    if meld is not None and meld.per_point is not None:
        over = "of the raise" if meld.above == "high" else f"over {meld.above}"
        told.append(f"N = {meld.per_point} a point {over}, meld from N to N + {meld.per_point - 1}")
    elif meld is not None:
        high = "" if meld.high is None else f" to {meld.high}"
        told.append(f"meld {meld.low or 0}{high or ' or more'}")
    told += told_words(entry.holds, entry.asks, entry.wants_trump)
    if entry.shuts_out:
        told.append("shuts the others out")
    return "; ".join(told) or "nothing more"
