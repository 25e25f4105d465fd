"""Lines of input beyond the cards: the label of a line (``seat 1: AS KS``) and whole
numbers as people type them. The cards themselves are read by `meldcalc.rules.cards`."""

from __future__ import annotations

import re

from meldcalc.rules.cards import Suit, is_suit_name


def is_whole_number(text: str) -> bool:
    """Digits 0-9 only: Python's ``isdigit`` also takes ``²`` and ``٣``, which ``int``
    then refuses (or reads as a number nobody typed)."""
    return text.isascii() and text.isdigit()


#: Labels of cards dealt to no seat, in ``meldcalc deal --players`` output.
PILES = ("widow", "stock")

_LABEL = re.compile(r"\s*([A-Za-z]{2,}(?: \d+)?)\s*:\s*")


def split_label(line: str) -> tuple[str | None, str]:
    """``'seat 1: AS KS'`` -> ``('seat 1', '        AS KS')``: a line of ``meldcalc deal
    --players`` names whose hand it is. The label's place is kept as blanks, so a problem in
    the cards is told at its column in the line as typed. A suit group (``S: A 10``,
    ``spades: A 10``) is not a label."""
    match = _LABEL.match(line)
    if match is None or is_suit_name(match.group(1)):
        return None, line
    return match.group(1), " " * match.end() + line[match.end() :]


def misread_label(label: str | None) -> str:
    """For an error in the cards of a labelled line: ``; 'spdes:' was read as the line's
    label; did you mean 'spades:'?`` when the label is a near miss of a suit's name (a suit
    group mistyped), else nothing."""
    from meldcalc.errors import nearest

    names = [name for suit in Suit for name in (suit.name.lower(), suit.name.lower()[:-1])]
    suit = None if label is None else nearest(label, names)
    if suit is None:
        return ""
    return f"; '{label}:' was read as the line's label; did you mean '{suit}:'?"
