"""Questions on the table's bidding system (issue 49: the system is what ``quiz`` asks):
what a bid says, and which bid says what you want to tell.

The system is the variant's (``bidding.system``, `rules.systemfile.system_for`); every
reading is `rules.systems.meaning`'s and the auction's flow `rules.auction`'s: nothing here
decides what a bid means or which bids are legal.

- ``meaning``: a bid after the auction so far, and four readings to choose from: the
  system's, what the same bid says as an opening (or after one), what other bids say now,
  a bare number. The readings a player mixes up.
- ``signal``: a hand dealt to hold what a bid of the system tells (the meld it shows, the
  card it asks for, ...: `Meaning.fits`), and what you want to tell: which bid says it
  now? The lowest legal bid the system reads so, as the texts say: "jump to the next bid
  that gives partner the hint needed".
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from meldcalc.errors import MeldcalcError, quote
from meldcalc.learning.kinds import THEMES
from meldcalc.learning.question import Question, listed, read_number
from meldcalc.learning.tablequiz import random_auction
from meldcalc.rules.auction import Auction, AuctionError
from meldcalc.rules.cards import Hand
from meldcalc.rules.seats import Seating, place_offsets
from meldcalc.rules.systemfile import shipped_systems, system_for
from meldcalc.rules.systems import BARE, Meaning, System, meaning
from meldcalc.rules.variant import Variant

#: Auctions tried for one question; legal bids above the lowest a question looks at.
TRIES, STEPS_AHEAD = 40, 10
#: Hands dealt at once to find one that holds what a bid tells.
HANDS = 64
LETTERS = "abcd"


def system_themes(variant: Variant) -> list[str]:
    """The themes of the ``system`` kind: both where the variant names a system."""
    bidding = variant.bidding
    return list(THEMES["system"]) if bidding is not None and bidding.system else []


def no_system(variant: Variant) -> str:
    """What ``variant`` has in place of a system: why it has no ``system`` question."""
    if variant.bidding is None:
        return f"{variant.name} has no auction, so no bidding system"
    return (
        f"{variant.name} bids bare numbers: it names no bidding system (a house file names"
        f" one with 'bidding: {{system: NAME}}': {', '.join(shipped_systems())})"
    )


def system_question(variant: Variant, theme: str, rng: random.Random) -> Question | None:
    """A question of ``theme`` on the variant's system; None where it has none, or none
    could be built from this draw."""
    system = system_for(variant)
    if system is None:
        return None
    make = meaning_question if theme == "meaning" else signal_question
    for _ in range(TRIES):
        auction = random_auction(variant, rng, rng.randint(0, variant.players + 1), 0.4)
        if not auction.over:
            found = make(variant, system, auction, rng)
            if found is not None:
                return found
    return None


# --- what the system reads, in words -----------------------------------------------------


def spoken(auction: Auction) -> list[int | None]:
    """The auction's calls in the order spoken (None: a pass), as `meaning` takes them."""
    return [bid for _, bid in auction.bids]


def where(calls: Sequence[int | None]) -> str:
    """``as the opening bid``, or ``after 52`` (the bid standing)."""
    made = [bid for bid in calls if bid is not None]
    return f"after {max(made)}" if made else "as the opening bid"


def rule_words(system: System, said: Meaning, calls: Sequence[int | None]) -> str:
    """How the system reads ``said``: ``53 as the opening bid is read by skip-meld's row
    "opening 52 or more": it shows 30 meld, 10 for each point over 50``."""
    bid = f"{said.bid} {where(calls)}"
    if said.bare:
        top = system.up_to
        above = "" if top is None or said.bid <= top else f" (it reads no bid above {top})"
        return f"{bid} is read by none of {system.name}'s rows: a bare number{above}"
    entry = system.entries[said.entry]
    row = f'{system.name}\'s row "{entry.bids_text()}"'
    return f"{bid} is read by {row}: it {said.says}{_counted(system, said, calls)}"


def _counted(system: System, said: Meaning, calls: Sequence[int | None]) -> str:
    """How a bid's meld is counted: ``, 10 for each point over 50``."""
    rule = system.entries[said.entry].meld
    if rule is None:
        return ""
    if rule.per_point is None:
        return f" ({said.meld_words()})"
    if rule.above == "high":
        before = max(bid for bid in calls if bid is not None)
        return f", {rule.per_point} for each point of the raise over {before}"
    return f", {rule.per_point} for each point over {rule.above}"


def candidates(system: System, variant: Variant, auction: Auction) -> list[int]:
    """The legal bids a question looks at: the lowest now and a few steps above it, and
    the legal bids above it that the system's rows name (Jim Davis's 66, 80, 88, 100)."""
    bidding, lowest = variant.bidding, auction.lowest
    top = lowest
    for _ in range(STEPS_AHEAD):
        top = bidding.next_bid(top)
    named = {end for entry in system.entries for span in entry.levels for end in span}
    legal = {bid for bid in named if bid is not None and bid >= lowest}
    legal = {bid for bid in legal if bidding.first_at_least(bid) == bid}
    return sorted({*bidding.levels(top, lowest), *legal})


def _bids_line(variant: Variant, auction: Auction, me: int) -> str:
    seating = Seating(variant, me)
    said = [f"{seating.label(seat)} {'pass' if bid is None else bid}" for seat, bid in auction.bids]
    return ", ".join(said) or "nothing yet"


def _read_lines(system: System, variant: Variant, auction: Auction, me: int) -> list[str]:
    """Each bid of the auction as the system reads it, with the row that reads it."""
    seating, calls, lines = Seating(variant, me), spoken(auction), []
    for number, (seat, bid) in enumerate(auction.bids):
        if bid is not None:
            said = meaning(system, calls[:number], bid)
            lines.append(f"{seating.label(seat)}: {rule_words(system, said, calls[:number])}")
    return lines


# --- what a bid says ----------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A reading to choose from, and whose reading it really is."""

    says: str
    whose: str


@dataclass(frozen=True)
class SystemQuestion(Question):
    """What both themes share: the variant, its system, the auction so far; an answer is
    right when it is the question's ``answer``."""

    variant: Variant | None = None
    system: System | None = None
    auction: Auction | None = None

    @property
    def answer(self) -> int:
        raise NotImplementedError

    def is_right(self, answer: int) -> bool:
        return answer == self.answer


@dataclass(frozen=True)
class MeaningQuestion(SystemQuestion):
    said: Meaning | None = None
    choices: tuple[Choice, ...] = ()
    me: int = 0

    @property
    def answer(self) -> int:
        return next(i for i, choice in enumerate(self.choices) if choice.says == self.said.says)

    def read(self, text: str) -> int:
        """A choice's letter (``b``, ``b)``, ``b) shows 30 meld``) or its words."""
        body = text.strip().lower()
        for number, choice in enumerate(self.choices):
            letter = LETTERS[number]
            if body in (letter, f"{letter})", choice.says.lower()) or body.startswith(f"{letter})"):
                return number
        letters = listed(list(LETTERS[: len(self.choices)]), "or")
        raise MeldcalcError(f"{quote(text.strip())}: expected {letters}, or a choice's words")

    def right_answer(self) -> str:
        return f"{LETTERS[self.answer]}) {self.said.says}"

    def why(self, answer: int) -> str | None:
        if self.is_right(answer):
            return None
        chosen = self.choices[answer]
        reading = rule_words(self.system, self.said, spoken(self.auction))
        return f'{reading}; "{chosen.says}" is {chosen.whose}.'

    def explanation(self) -> list[str]:
        """Each bid of the auction as the system reads it, the one asked about last."""
        bid = (self.auction.to_speak, self.said.bid)
        asked = replace(self.auction, bids=(*self.auction.bids, bid))
        return [f"{line}." for line in _read_lines(self.system, self.variant, asked, self.me)]


def meaning_question(
    variant: Variant, system: System, auction: Auction, rng: random.Random
) -> MeaningQuestion | None:
    """The seat to speak bids one of the `candidates` (mostly one the system reads);
    what does it say?"""
    calls, bids = spoken(auction), candidates(system, variant, auction)
    readings = {bid: meaning(system, calls, bid) for bid in bids}
    telling = [bid for bid, said in readings.items() if not said.bare]
    pool = telling if telling and (rng.random() < 0.85 or len(telling) == len(bids)) else bids
    bid = rng.choice(pool)
    said = readings[bid]
    choices = _choices(system, variant, auction, said, readings, rng)
    if len(choices) < 2:
        return None
    speaker = auction.to_speak
    me = (speaker + place_offsets(variant).get("partner", 1)) % variant.players
    whose = Seating(variant, me).label(speaker)
    lines = (
        f"{variant.name} bids by {system.name}; seat {auction.dealer} dealt",
        f"  the bids: {_bids_line(variant, auction, me)}",
        f"  then {whose} bids {bid}",
        *(f"  {LETTERS[n]}) {choice.says}" for n, choice in enumerate(choices)),
    )
    letters = listed(list(LETTERS[: len(choices)]), "or")
    named = "your partner" if whose.endswith("(partner)") else f"seat {speaker}"
    prompt = f"what does {named}'s {bid} say ({letters})? "
    entry = None if said.bare else system.entries[said.entry]
    rating = (
        1000
        + 150 * any(call is not None for call in calls)
        + 150 * bool(entry and (entry.raises or entry.jump))
        + 100 * said.bare
    )
    return MeaningQuestion(
        "system", "meaning", rating, lines, prompt, variant, system, auction, said, choices, me
    )


def _choices(
    system: System,
    variant: Variant,
    auction: Auction,
    said: Meaning,
    readings: dict[int, Meaning],
    rng: random.Random,
) -> tuple[Choice, ...]:
    """The system's reading and up to three others, shuffled: what the bid says as an
    opening (or after the opening), a bare number, what other bids say now."""
    calls, bid = spoken(auction), said.bid
    others: dict[str, str] = {}
    if any(call is not None for call in calls):
        others[meaning(system, [], bid).says] = f"what {bid} says as the opening bid"
    elif bid > variant.bidding.opening:
        opening = variant.bidding.opening
        others[meaning(system, [opening], bid).says] = f"what {bid} says after {opening}"
    others.setdefault(BARE, "what a bid says that no row of the system reads")
    for other in rng.sample(sorted(readings), len(readings)):
        others.setdefault(readings[other].says, f"what {other} says here")
    others.pop(said.says, None)
    picked = [Choice(said.says, "")] + [Choice(*item) for item in list(others.items())[:3]]
    return tuple(rng.sample(picked, len(picked)))


# --- which bid says it --------------------------------------------------------------------


def message(said: Meaning) -> tuple:
    """What a reading tells, whatever the bid: equal messages say the same thing."""
    return said.meld, said.holds, said.asks, said.wants_trump, said.shuts_out


@dataclass(frozen=True)
class SignalQuestion(SystemQuestion):
    hand: Hand | None = None
    want: Meaning | None = None

    @property
    def answer(self) -> int:
        return self.want.bid

    def read(self, text: str) -> int:
        return read_number(text, str(self.auction.lowest))

    def right_answer(self) -> str:
        return str(self.answer)

    def why(self, answer: int) -> str | None:
        if self.is_right(answer):
            return None
        calls = spoken(self.auction)
        right = rule_words(self.system, self.want, calls)
        try:
            self.auction.say(answer)
        except AuctionError:
            legal = self.variant.bidding.levels(self.answer, self.auction.lowest)[:3]
            steps = ", ".join(str(bid) for bid in legal)
            return f"{answer} is not a legal bid now (the bids go {steps}, ...); {right}."
        said = meaning(self.system, calls, answer)
        if message(said) == message(self.want):
            return (
                f"{answer} says it too, but {self.answer} is the lowest bid that does: jump"
                " no further than the message needs."
            )
        read = "is a bare number" if said.bare else f'says "{said.says}"'
        return f"{answer} {where(calls)} {read}, not what you want to tell; {right}."

    def explanation(self) -> list[str]:
        """The bids from the lowest to the one that says it, as the system reads them."""
        calls, lowest = spoken(self.auction), self.auction.lowest
        lines = [f"the bids from {lowest}, as {self.system.name} reads them {where(calls)}:"]
        bare: list[int] = []
        for bid in self.variant.bidding.levels(self.answer, lowest):
            said = meaning(self.system, calls, bid)
            if said.bare:
                bare.append(bid)
                continue
            if bare:
                span = str(bare[0]) if len(bare) == 1 else f"{bare[0]} to {bare[-1]}"
                lines.append(f"  {span}: bare numbers")
                bare = []
            mark = "  <- the lowest that says it" if bid == self.answer else ""
            lines.append(f"  {bid}: {said.says}{mark}")
        return lines


def intent(want: Meaning, hand: Hand, variant: Variant) -> str:
    """What you want to tell, in the hand's terms, never the bid's words: ``show your meld
    (34, under ♥)``, ``ask for a king (it adds 20 to your meld)``."""
    from meldcalc.rules.meld import best_meld_all_trumps

    parts = []
    if want.meld is not None:
        best = best_meld_all_trumps(hand, variant)[0]
        parts.append(f"show your meld ({best.total}, under {best.trump.symbol})")
    if want.holds is not None:
        parts.append(f"say you hold {want.holds.words()}")
    if want.asks is not None:
        parts.append(f"ask for {want.asks.words()} ({_adds(want, hand, variant)})")
    if want.wants_trump:
        parts.append("say you want to name trump")
    if want.shuts_out:
        parts.append("shut the others out")
    return listed(parts)


def _adds(want: Meaning, hand: Hand, variant: Variant) -> str:
    import numpy as np

    from meldcalc.rules.systems import ask_gain

    gain = ask_gain(want.asks, np.array([hand.counts]), variant)[0]
    return f"it adds {gain:g} to your meld"


def signal_question(
    variant: Variant, system: System, auction: Auction, rng: random.Random
) -> SignalQuestion | None:
    """A message one of the `candidates` tells, a hand dealt to hold it: which bid says it
    now? The lowest legal bid whose reading tells the same."""
    calls, bids = spoken(auction), candidates(system, variant, auction)
    told = [meaning(system, calls, bid) for bid in bids]
    messages = list({message(said): said for said in told if said.tells or said.shuts_out})
    for key in rng.sample(messages, len(messages)):
        said = next(said for said in told if message(said) == key)
        hand = _holding(variant, said, rng)
        if hand is not None:
            want = _lowest_saying(system, variant, auction, said)
            return _signal(variant, system, auction, hand, want)
    return None


def _lowest_saying(system: System, variant: Variant, auction: Auction, said: Meaning) -> Meaning:
    calls = spoken(auction)
    for bid in variant.bidding.levels(said.bid, auction.lowest):
        found = meaning(system, calls, bid)
        if message(found) == message(said):
            return found
    return said


def _holding(variant: Variant, said: Meaning, rng: random.Random) -> Hand | None:
    """A hand dealt at random that holds what ``said`` tells; None if none of a few do."""
    import numpy as np

    from meldcalc.dealing.deal import deal_counts

    counts = deal_counts(variant, HANDS, np.random.default_rng(rng.getrandbits(63)))[:, 0]
    fitting = np.flatnonzero(said.fits(counts, variant))
    return Hand(counts[fitting[0]].tolist()) if len(fitting) else None


def _signal(
    variant: Variant, system: System, auction: Auction, hand: Hand, want: Meaning
) -> SignalQuestion:
    me = auction.to_speak
    lines = (
        f"{variant.name} bids by {system.name}; seat {auction.dealer} dealt",
        f"  the bids: {_bids_line(variant, auction, me)}",
        f"  your hand (seat {me}): {hand.notation()}",
        f"  you want to {intent(want, hand, variant)}",
    )
    entry = system.entries[want.entry]
    rating = 1100 + 150 * (want.bid > auction.lowest) + 150 * bool(entry.raises or entry.jump)
    prompt = f"which bid does {system.name} give you now? "
    return SignalQuestion(
        "system", "signal", rating, lines, prompt, variant, system, auction, hand, want
    )
