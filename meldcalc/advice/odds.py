"""Odds in words, as a player says them: a rate rounded to 0% or 100% would mislead."""

from __future__ import annotations


def how_often(rate: float, deals: int, only: bool = False) -> str:
    """How often a bid is made, as a player says it: ``made 42% of the time`` (``made only
    ...`` with ``only``), and where a rounded percentage would mislead, ``never made in
    2000 simulated deals``, ``made in fewer than 1% of ...``, ``made in every one of ...``
    or ``made in more than 99% of ...``."""
    simulated = f"{deals} simulated deal{'' if deals == 1 else 's'}"
    if rate <= 0:
        return f"never made in {simulated}"
    if rate >= 1:
        return f"made in every one of {simulated}"
    if rate < 0.005:
        return f"made in fewer than 1% of {simulated}"
    if rate >= 0.995:
        return f"made in more than 99% of {simulated}"
    return f"made {'only ' if only else ''}{rate:.0%} of the time"
