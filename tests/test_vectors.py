"""Every meld vector in tests/vectors/*.txt: the variant is the file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from meldcalc.rules.cards import Hand, Suit
from meldcalc.rules.loading import load_variant
from meldcalc.rules.meld import best_meld

VECTORS = Path(__file__).parent / "vectors"


def _cases() -> list:
    cases = []
    for path in sorted(VECTORS.glob("*.txt")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.startswith("#"):
                trump, hand, total, breakdown = (part.strip() for part in line.split("|"))
                case_id = f"{path.stem}:{number}"
                cases.append(
                    pytest.param(path.stem, trump, hand, int(total), breakdown, id=case_id)
                )
    return cases


def _breakdown(result) -> str:
    parts = []
    for meld in result.melds:
        copies = f"*{meld.copies}" if meld.copies > 1 else ""
        checks = f"/{meld.checks}" if meld.checks else ""
        parts.append(f"{meld.name}{copies}={meld.points}{checks}")
    return ", ".join(parts)


@pytest.mark.parametrize(("variant", "trump", "hand", "total", "breakdown"), _cases())
def test_meld_vector(variant: str, trump: str, hand: str, total: int, breakdown: str) -> None:
    result = best_meld(Hand.parse(hand), load_variant(variant), Suit(trump))
    assert result.total == total
    assert _breakdown(result) == breakdown
    assert sum(meld.points for meld in result.melds) == result.total


def test_every_shipped_variant_has_vectors() -> None:
    from meldcalc.rules.loading import shipped_names

    assert {path.stem for path in VECTORS.glob("*.txt")} >= set(shipped_names())
