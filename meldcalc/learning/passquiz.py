"""Questions on the cards that change hands before play: the widow (what the bidder melds
with it, what the cards it buries count) and the pass between partners (what the bidder
melds after it; how many cards of the suit asked for the partner must send).

Meld is the rules' (`rules.meld`), counters the variant's, the partner's pass the pass
policy of `dealing.passing`, which sends the suit asked for first, as the rule says.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from meldcalc.dealing.deal import deal
from meldcalc.learning.diagnose import meld_mistake
from meldcalc.learning.explain import explain
from meldcalc.learning.question import NumberQuestion, pretty_cards
from meldcalc.rules.cards import SUITS, Card, Hand, Suit
from meldcalc.rules.meld import MeldResult, best_meld
from meldcalc.rules.variant import Variant

# --- the widow ------------------------------------------------------------------------------


@dataclass(frozen=True)
class WidowQuestion(NumberQuestion):
    variant: Variant | None = None
    hand: Hand | None = None
    widow: Hand | None = None
    trump: Suit = SUITS[0]
    buried: Hand | None = None

    @property
    def result(self) -> MeldResult:
        return best_meld(self.hand + self.widow, self.variant, self.trump)

    @property
    def number(self) -> int:
        if self.theme == "bury":
            return _counted(self.variant, self.buried)
        return self.result.total

    def why(self, answer: int) -> str | None:
        if answer == self.number:
            return None
        if self.theme == "bury":
            if answer == 0:
                return "The cards you bury count for your tricks: their counters are yours."
            from meldcalc.learning.playquiz import trick_mistake

            cards = [card.index for card in self.buried.cards()]
            return trick_mistake(self.variant, cards, False, answer - self.number)
        alone = best_meld(self.hand, self.variant, self.trump).total
        if answer == alone:
            return (
                f"You meld after taking the widow: with {pretty_cards(self.widow.cards())} your"
                f" hand melds {self.number}, not {alone}."
            )
        return meld_mistake(self.hand + self.widow, self.variant, self.result, answer)

    def explanation(self) -> list[str]:
        if self.theme == "bury":
            cards = self.buried.cards()
            parts = " + ".join(
                f"{card.rank.value}{card.suit.symbol} {self.variant.counters.get(card.rank, 0)}"
                for card in cards
            )
            return [f"buried cards count for the bidder's tricks: {parts} = {self.number}."]
        return explain(self.hand + self.widow, self.variant, self.result)


def _counted(variant: Variant, cards: Hand) -> int:
    return sum(variant.counters.get(card.rank, 0) for card in cards.cards())


def widow_question(variant: Variant, theme: str, rng: random.Random) -> WidowQuestion | None:
    if not variant.widow:
        return None
    from meldcalc.dealing.widow import burials

    dealt = deal(variant, rng)
    hand, widow = dealt.hands[0], dealt.widow
    trump = max(SUITS, key=lambda suit: best_meld(hand + widow, variant, suit).total)
    lines = [
        f"you won the bid; trump {trump.letter} {trump.symbol}",
        f"  your hand: {hand.notation(trump)}",
        f"  the widow: {widow.notation(trump)}",
    ]
    if theme == "bury":
        buried = burials(hand + widow, trump, variant)[0]
        lines.append(f"  you bury: {buried.notation(trump)}")
        prompt = "trick points the buried cards give you? "
        rating = 850 + 20 * sum(1 for c in buried.cards() if variant.counters.get(c.rank))
        return WidowQuestion(
            "widow", theme, rating, tuple(lines), prompt, variant, hand, widow, trump, buried
        )
    result = best_meld(hand + widow, variant, trump)
    from meldcalc.learning.meldquiz import meld_rating

    rating = meld_rating(hand + widow, variant, result) + 100
    return WidowQuestion(
        "widow", theme, rating, tuple(lines), "your meld total? ", variant, hand, widow, trump
    )


# --- the pass -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PassQuestion(NumberQuestion):
    variant: Variant | None = None
    hand: Hand | None = None
    after: Hand | None = None
    trump: Suit = SUITS[0]
    expected: int = 0

    @property
    def number(self) -> int:
        return self.expected

    def why(self, answer: int) -> str | None:
        if answer == self.expected:
            return None
        if self.theme == "exchange":
            return (
                f"The partner passes cards of the suit asked for where it has them: as many as"
                f" it holds, up to {self.variant.passing.cards}, so {self.expected}."
            )
        before = best_meld(self.hand, self.variant, self.trump).total
        if answer == before:
            return (
                "Meld is laid down after the pass: count the hand you keep, which melds"
                f" {self.expected}."
            )
        result = best_meld(self.after, self.variant, self.trump)
        return meld_mistake(self.after, self.variant, result, answer)

    def explanation(self) -> list[str]:
        if self.theme == "exchange":
            return [_passing_words(self.variant)]
        return explain(self.after, self.variant, best_meld(self.after, self.variant, self.trump))


def _passing_words(variant: Variant) -> str:
    from meldcalc.learning.tables import passing_line

    return passing_line(variant.passing) + "."


def pass_question(variant: Variant, theme: str, rng: random.Random) -> PassQuestion | None:
    passing = variant.passing
    if passing is None:
        return None
    import numpy as np

    from meldcalc.dealing.passing import bidder_returns, partner_sends

    dealt = deal(variant, rng)
    bidder, partner = dealt.hands[0], dealt.hands[2 % variant.players]
    ask = rng.choice(SUITS)
    trump = max(SUITS, key=lambda suit: best_meld(bidder, variant, suit).total)
    first = ask if passing.kind == "exchange" else trump
    sent = Hand(int(n) for n in partner_sends(np.array([partner.counts]), variant, trump, first)[0])
    if theme == "exchange":
        held = sum(partner.count(Card(rank, ask)) for rank in variant.deck.ranks)
        asked = sum(sent.count(Card(rank, ask)) for rank in variant.deck.ranks)
        lines = (
            f"you won the bid and ask for {ask.symbol}",
            f"  your partner holds: {partner.notation(ask)}",
        )
        prompt = f"how many {ask.symbol} must your partner pass you? "
        rating = 900 + 100 * (held < passing.cards)
        return PassQuestion(
            "pass", theme, rating, lines, prompt, variant, bidder, bidder, ask, asked
        )
    chooses = bidder if passing.simultaneous else bidder + sent
    back = Hand(int(n) for n in bidder_returns(np.array([chooses.counts]), variant, trump)[0])
    after = Hand(a + b - c for a, b, c in zip(bidder.counts, sent.counts, back.counts))
    lines = (
        f"you won the bid; trump {trump.letter} {trump.symbol}",
        f"  your hand: {bidder.notation(trump)}",
        f"  your partner passes you {sent.notation(trump)}; you pass back {back.notation(trump)}",
    )
    result = best_meld(after, variant, trump)
    from meldcalc.learning.meldquiz import meld_rating

    rating = meld_rating(after, variant, result) + 150
    return PassQuestion(
        "pass",
        theme,
        rating,
        lines,
        "your meld total now? ",
        variant,
        bidder,
        after,
        trump,
        result.total,
    )
