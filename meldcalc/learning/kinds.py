"""The kinds of question (the ``--ask`` words) and their themes: names only, so the command
line can offer them without loading the quiz."""

from __future__ import annotations

#: What each ``--ask`` word is called in sentences.
KIND_NAMES = {
    "total": "meld total",
    "melds": "which melds",
    "trump": "best trump",
    "tricks": "trick points",
    "play": "cards you may play",
    "bid": "the auction",
    "score": "made or set",
    "throwin": "a throw-in",
    "widow": "the widow",
    "pass": "the pass",
    "system": "the bidding system",
}


#: Each kind's themes (`themes`, `meldquiz`, `playquiz`, `tablequiz` build them), in the
#: order a learner meets them.
MELD_THEMES = ("plain", "reuse", "kkq", "run", "doubles", "toby")
THEMES: dict[str, tuple[str, ...]] = {
    "total": MELD_THEMES,
    "melds": MELD_THEMES,
    "trump": ("plain", "reuse", "run", "doubles", "toby", "tie"),
    "tricks": ("counters", "last-trick"),
    "play": ("heading", "void"),
    "bid": ("steps", "dealer", "end"),
    "score": ("made", "set", "house"),
    "throwin": ("throw-in",),
    "widow": ("bury", "widow-meld"),
    "pass": ("pass-meld", "exchange"),
    "system": ("meaning", "signal"),
}
KINDS = tuple(THEMES)


def every_theme() -> list[str]:
    """Every theme name, each once, in the order the kinds list them."""
    return list(dict.fromkeys(theme for themes in THEMES.values() for theme in themes))
