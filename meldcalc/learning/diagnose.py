"""Why a meld total is wrong: the slip that most likely gives the player's number.

Each typical slip is worked out against the exact best meld of the hand (never against a
second count of meld rules): a meld left out, a card reused within a class (the run's K-Q
as a royal marriage too, K K Q as two marriages), a double counted as two singles, a meld
the hand is a card short of (queens around without a Q♦), a plain marriage taken for a
royal one, a dix or a run outside trump, a reuse exception missed. Each gives the total it
would lead to; the likeliest slip that gives the player's number is said in one sentence,
or two slips together, or, when none does, how far off the number is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from meldcalc.learning.explain import MULTIPLES, ORDINALS, near_misses
from meldcalc.learning.question import article, listed, pretty, pretty_cards, suit_words
from meldcalc.rules.cards import CARDS, SUITS, Card, Hand, Suit
from meldcalc.rules.meld import Item, Meld, MeldResult, engine_for
from meldcalc.rules.variant import MeldRule, Variant

#: Lower: likelier. A reuse slip is the classic; a sum slip the last resort.
REUSE, SHORT, TWICE, LEFT, TRUMP_SLIP = 1, 2, 2, 3, 3
NUMBERS = {2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class Slip:
    """A mistake and the total it leads to: ``delta`` from the right total."""

    delta: int
    sentence: str
    rank: int
    touches: frozenset[str]
    #: a meld left out whose card serves a meld of another class: the card, and the meld
    shared: str = ""
    words: str = ""
    #: whether it may go with another slip to explain a number (a copy more of a meld
    #: counted, beside another slip, explains too much to be likely)
    pairs: bool = True
    #: a meld the hand is a card short of
    near: bool = False


def meld_mistake(hand: Hand, variant: Variant, result: MeldResult, answer: int) -> str | None:
    """The likeliest slip behind ``answer`` (the right total is ``result.total``), in one
    sentence; None when the answer is right."""
    off = answer - result.total
    if off == 0:
        return None
    if answer == 0:
        rules = _rules(variant)
        held = listed([f"{meld_words(m, rules[m.name])} ({m.points})" for m in result.melds])
        return f"You counted no meld, but the hand holds {held}."
    slips = [slip for slip in slips_of(hand, variant, result) if slip.delta]
    single = [slip for slip in slips if slip.delta == off]
    if single:
        return _sentence(min(single, key=lambda slip: slip.rank).sentence)
    likely = [slip for slip in slips if slip.pairs]
    pairs = [
        (a, b)
        for a, b in combinations(likely, 2)
        if a.delta + b.delta == off and not a.touches & b.touches
    ]
    if pairs:
        a, b = min(pairs, key=lambda pair: _pair_rank(*pair))
        return _sentence(_two_slips(a, b))
    more = "more" if off > 0 else "less"
    return (
        f"No single slip gives {answer}: it is {abs(off)} {more} than the best meld, so check"
        " it meld by meld against the count below."
    )


def _pair_rank(a: Slip, b: Slip) -> int:
    """Two slips' likelihood together: a meld the hand lacks is seldom one of two."""
    return a.rank + b.rank + 2 * (a.near + b.near)


def _two_slips(a: Slip, b: Slip) -> str:
    """Two slips in one sentence; two melds left out that share a card with the melds
    counted, as one rule."""
    if a.shared and a.shared == b.shared:
        return (
            f"{a.shared} may serve one meld of each class: the {a.words} and the {b.words}"
            " count as well"
        )
    return f"{a.sentence}; and {b.sentence}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def slips_of(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """Every typical slip this hand allows, with the total it gives."""
    yield from _left_out(result, variant)
    yield from _counted_twice(hand, variant, result)
    yield from _uneven_pairs(hand, variant, result)
    yield from _outside_trump(hand, variant, result)
    yield from _short(hand, variant, result)
    yield from _trump_confused(variant, result)
    yield from _reuse_missed(hand, variant, result)


def meld_words(meld: Meld, rule: MeldRule) -> str:
    """``double pinochle``, ``marriage in ♣``."""
    multiple = f"{MULTIPLES.get(meld.copies, f'{meld.copies}x')} " if meld.copies > 1 else ""
    where = f" in {meld.suit.symbol}" if rule.kind == "non_trump" and meld.suit else ""
    return f"{multiple}{meld.name}{where}"


def _rules(variant: Variant) -> dict[str, MeldRule]:
    return {rule.name: rule for rule in variant.melds}


def _key(meld: Meld | Item) -> str:
    name = meld.name if isinstance(meld, Meld) else meld.rule.name
    return f"{name}/{meld.suit.letter if meld.suit else ''}"


# --- a meld left out, or counted with too few copies ------------------------------------------


def _left_out(result: MeldResult, variant: Variant) -> Iterator[Slip]:
    rules = _rules(variant)
    for meld in result.melds:
        if not meld.points:
            continue
        rule, key = rules[meld.name], frozenset({_key(meld)})
        words = meld_words(meld, rule)
        sharing = _other_class_sharing(meld, result.melds)
        if sharing is not None:
            other, card = sharing
            sentence = (
                f"{pretty(card)} serves the {other.name} and the {meld.name} too: a card may"
                f" serve one meld of each class, so the {words} ({meld.points}) counts as well"
            )
            shown = f"{words} ({meld.points})"
            yield Slip(-meld.points, sentence, REUSE, key, pretty(card), shown)
        else:
            cards = pretty_cards(meld.cards)
            yield Slip(
                -meld.points, f"you left out the {words} ({cards}: {meld.points})", LEFT, key
            )
        if meld.copies > 1:
            yield from _copies_slips(meld, rule, key)


def _copies_slips(meld: Meld, rule: MeldRule, key: frozenset[str]) -> Iterator[Slip]:
    k, name = meld.copies, meld.name
    multiple = MULTIPLES.get(k, f"{k}x")
    fewer = rule.value(k - 1)
    yield Slip(
        fewer - meld.points,
        f"you hold {multiple} {name} ({pretty_cards(meld.cards)}): {meld.points}, not {fewer}",
        LEFT,
        key,
    )
    singles = k * rule.value(1)
    if singles != meld.points:
        yield Slip(
            singles - meld.points,
            f"{multiple} {name} scores {meld.points}, not {k} × {rule.value(1)}: count it as one"
            " meld",
            TWICE,
            key,
        )


def _other_class_sharing(meld: Meld, melds: Sequence[Meld]) -> tuple[Meld, Card] | None:
    for other in melds:
        if other is meld or set(other.classes) & set(meld.classes):
            continue
        shared = sorted(set(other.cards) & set(meld.cards), key=lambda card: card.index)
        if shared and other.points:
            return other, shared[0]
    return None


# --- a card reused within its class ---------------------------------------------------------


def _items(variant: Variant, trump: Suit) -> list[Item]:
    return [item for c in engine_for(variant).components[trump] for item in c.items]


def _copies_counted(result: MeldResult, item: Item) -> int:
    return next(
        (m.copies for m in result.melds if m.name == item.rule.name and m.suit is item.suit), 0
    )


def _counted_twice(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """Melds the hand holds the cards for, which the best count leaves out because those
    cards already serve a meld of the same class: counting them is using a card twice."""
    for item in _items(variant, result.trump):
        held, counted = item.most_copies(list(hand.counts)), _copies_counted(result, item)
        rule = item.rule
        if held <= counted or rule.value(held) <= rule.value(counted):
            continue
        rivals = [m for m in result.melds if _rivals(m, item)]
        if not rivals:
            continue
        sentence = _twice_sentence(item, rivals)
        for copies in range(counted + 1, held + 1):
            gain = rule.value(copies) - rule.value(counted)
            yield Slip(gain, sentence, REUSE, frozenset({_key(item)}))
    yield from _blocked_together(hand, variant, result)


def _blocked_together(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """Every meld whose cards one counted meld of its class already holds, counted too:
    a roundhouse's K-Q as marriages and kings and queens around as well."""
    for holder in result.melds:
        inside = [
            item
            for item in _items(variant, result.trump)
            if item.rule.name != holder.name
            and item.most_copies(list(hand.counts)) > _copies_counted(result, item)
            and _rivals(holder, item)
            and {card for card, _ in item.needs} <= {card.index for card in holder.cards}
        ]
        if len(inside) < 2:
            continue
        gain = sum(item.rule.value(1) for item in inside)
        names = listed(list(dict.fromkeys(item.rule.name for item in inside)))
        sentence = (
            f"the {holder.name}'s cards cannot also make the {names}: a card serves one meld"
            " of each class"
        )
        yield Slip(gain, sentence, REUSE, frozenset(_key(item) for item in inside))


def _rivals(meld: Meld, item: Item) -> bool:
    cards = {CARDS[card] for card, _ in item.needs}
    return bool(set(meld.classes) & set(item.rule.classes)) and bool(cards & set(meld.cards))


def _twice_sentence(item: Item, rivals: list[Meld]) -> str:
    rule, cards = item.rule, pretty_cards(item.cards)
    holder = rivals[0]
    if rule.reuses and holder.name in rule.reuses:
        return (
            f"the {holder.name}'s {cards} join {rule.name}s only beside"
            f" {NUMBERS.get(rule.reuse_beside, 'one')} {rule.name} of their own, and you have no"
            f" extra {cards}"
        )
    if {card for card, _ in item.needs} <= {card.index for card in holder.cards}:
        return (
            f"the {holder.name}'s {cards} cannot also be a {rule.name}: a card serves one meld"
            " of each class"
        )
    names = listed([f"the {m.name}" for m in rivals])
    return (
        f"{cards} already serve {names}: a card serves one meld of each class, so they make no"
        f" {rule.name} too"
    )


def _uneven_pairs(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """K K Q counted as two marriages (J♦ J♦ Q♠ as two pinochles): each copy of a meld
    needs its own copy of every card."""
    counts = hand.counts
    for item in _items(variant, result.trump):
        if len(item.needs) != 2 or any(need != 1 for _, need in item.needs):
            continue
        (a, _), (b, _) = item.needs
        low, high = sorted((counts[a], counts[b]))
        counted = _copies_counted(result, item)
        if low < 1 or high == low or counted != low:
            continue
        rule = item.rule
        lacking = CARDS[a] if counts[a] == low else CARDS[b]
        held = pretty_cards([CARDS[a]] * counts[a] + [CARDS[b]] * counts[b])
        made = "one" if low == 1 else MULTIPLES.get(low, str(low))
        made_words = f"{made} {rule.name}" if low == 1 else f"a {made} {rule.name}"
        sentence = (
            f"{held} is {made_words}, not {NUMBERS.get(high, high)}: each {rule.name} needs its"
            f" own {pretty(lacking)}"
        )
        key = frozenset({_key(item)})
        yield Slip(rule.value(high) - rule.value(low), sentence, REUSE, key)
        singles = high * rule.value(1) - rule.value(low)
        if singles != rule.value(high) - rule.value(low):
            yield Slip(singles, sentence, REUSE, key)


# --- a meld the hand does not hold ----------------------------------------------------------


def _short(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """A meld (or a copy more) one card short, counted as if it were there."""
    for miss in near_misses(hand, variant, result):
        card = pretty(miss.card)
        if miss.copies == 1:
            sentence = f"{miss.meld} needs {article(miss.card)} {card}: you have none"
        else:
            multiple = MULTIPLES.get(miss.copies, f"{miss.copies}x")
            have = hand.count(miss.card)
            ordinal = ORDINALS.get(have + 1, f"{have + 1}th")
            sentence = (
                f"{multiple} {miss.meld} needs a {ordinal} {card}: you have"
                f" {'one' if have == 1 else have}"
            )
        key = frozenset({f"{miss.meld}/short"})
        yield Slip(miss.gain, sentence, SHORT, key, pairs=miss.copies == 1, near=True)


# --- trump and plain suits confused ---------------------------------------------------------


def _counterparts(variant: Variant) -> list[tuple[MeldRule, MeldRule]]:
    """(trump meld, plain-suit meld) of the same ranks: royal marriage and marriage."""
    return [
        (royal, plain)
        for royal in variant.melds
        for plain in variant.melds
        if royal.kind == "trump" and plain.kind == "non_trump" and royal.ranks == plain.ranks
    ]


def _trump_confused(variant: Variant, result: MeldResult) -> Iterator[Slip]:
    pairs = _counterparts(variant)
    for meld in result.melds:
        for royal, plain in pairs:
            cards = pretty_cards(meld.cards)
            if meld.name == plain.name and meld.suit is not None:
                more = royal.value(meld.copies) - meld.points
                sentence = (
                    f"{cards} make a plain {plain.name} ({meld.points}): only trump's is a"
                    f" {royal.name} ({royal.value(meld.copies)})"
                )
                yield Slip(more, sentence, TRUMP_SLIP, frozenset({_key(meld)}))
            elif meld.name == royal.name:
                less = plain.value(meld.copies) - meld.points
                sentence = (
                    f"{cards} are trump: a {royal.name} ({meld.points}), not a plain"
                    f" {plain.name} ({plain.value(meld.copies)})"
                )
                yield Slip(less, sentence, TRUMP_SLIP, frozenset({_key(meld)}))


def _outside_trump(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """A trump meld (the run, a dix) counted in a plain suit, where it scores nothing: as
    well as what those cards make there, or instead of it; a dix of every plain suit at
    once."""
    trump = result.trump
    paired = {royal.name for royal, _ in _counterparts(variant)}
    for rule in (r for r in variant.melds if r.kind == "trump" and r.name not in paired):
        found = []
        for suit in (suit for suit in SUITS if suit is not trump):
            needs = [Card(rank, suit) for rank in rule.ranks]
            copies = min(hand.count(card) // needs.count(card) for card in needs)
            if copies >= 1 and rule.value(copies) > 0:
                found.append((suit, copies, needs))
        for suit, copies, needs in found:
            yield from _counted_outside(rule, suit, copies, needs, result)
        if len(found) > 1:
            cards = [card for _, copies, needs in found for card in needs * copies]
            value = sum(rule.value(copies) for _, copies, _ in found)
            sentence = (
                f"only trump's {rule.name} counts: {pretty_cards(cards)} score nothing under"
                f" {trump.symbol}"
            )
            touched = frozenset(f"{rule.name}/{suit.letter}" for suit, _, _ in found)
            yield Slip(value, sentence, SHORT, touched)


def _counted_outside(
    rule: MeldRule, suit: Suit, copies: int, needs: list[Card], result: MeldResult
) -> Iterator[Slip]:
    shown = pretty_cards(sorted(needs * copies, key=lambda card: card.index))
    verb = "makes" if len(needs) * copies == 1 else "make"
    made = [
        m for m in result.melds if set(needs) & set(m.cards) and set(m.classes) & set(rule.classes)
    ]
    there = listed([f"the {m.name} ({m.points})" for m in made]) if made else "nothing"
    sentence = f"a {rule.name} counts only in trump: {shown} {verb} {there} in {suit.symbol}"
    key = frozenset({f"{rule.name}/{suit.letter}", *(_key(m) for m in made)})
    value = rule.value(copies)
    yield Slip(value, sentence, SHORT, key)
    if made:
        yield Slip(value - sum(m.points for m in made), sentence, SHORT, key)


# --- a reuse exception missed (Toby Thomas) ---------------------------------------------------


def _reuse_missed(hand: Hand, variant: Variant, result: MeldResult) -> Iterator[Slip]:
    """Where a meld may reuse others' cards (Toby Thomas: the runs' K-Q join the royal
    marriages beside an extra one), counting only the copies of its own cards."""
    rules = _rules(variant)
    for made in result.melds:
        rule = rules[made.name]
        reused = sum(m.copies for m in result.melds if m.name in rule.reuses)
        own = made.copies - reused
        if not rule.reuses or not reused or own < rule.reuse_beside:
            continue
        pair = pretty_cards(sorted(set(made.cards), key=lambda card: card.index))
        sentence = (
            f"beside an extra {pair}, the {listed(list(rule.reuses))}'s {pair} join the"
            f" {rule.name}: {meld_words(made, rule)} {made.points}, not {rule.value(own)}"
            " (this variant's exception to the reuse rule)"
        )
        yield Slip(rule.value(own) - made.points, sentence, REUSE, frozenset({_key(made)}))


# --- the best trump -------------------------------------------------------------------------


def trump_mistake(
    hand: Hand, variant: Variant, answers: Sequence[MeldResult], answer: Suit
) -> str | None:
    """Why the trump answered melds less than the best: the melds that differ between
    the two counts, and any tie."""
    by_trump = {result.trump: result for result in answers}
    top = answers[0]
    if by_trump[answer].total == top.total:
        return None
    yours, best = by_trump[answer], top
    rules = _rules(variant)
    sentence = (
        f"under {answer.symbol} your hand melds {yours.total}{_only_in(yours, best, rules)};"
        f" under {best.trump.symbol} it melds {best.total}{_only_in(best, yours, rules)}"
    )
    tied = [result.trump for result in answers if result.total == top.total]
    if len(tied) > 1:
        sentence += f" ({listed([suit_words(suit) for suit in tied])} tie for best)"
    return _sentence(sentence)


def _only_in(result: MeldResult, other: MeldResult, rules: dict[str, MeldRule]) -> str:
    """``: run 150, royal marriage 40``: the melds of ``result`` that ``other`` lacks."""
    theirs = {(m.name, m.suit, m.copies) for m in other.melds}
    own = [m for m in result.melds if (m.name, m.suit, m.copies) not in theirs and m.points]
    if not own:
        return ""
    return ", with " + listed([f"{meld_words(m, rules[m.name])} {m.points}" for m in own])
