"""`meldcalc score` given numbers the variant cannot produce: refused, never scored."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meldcalc.cli import app
from meldcalc.rules.loading import load_variant

runner = CliRunner()


def test_meld_off_the_variants_step_is_refused_as_trick_points_are() -> None:
    result = runner.invoke(
        app, ["score", "--bid", "250", "--bidder", "0", "--meld", "155,80", "--tricks", "140,110"]
    )
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr == (
        "meldcalc: error: meld 155, 80: in single-deck every meld is worth a multiple of 10,"
        " so a side's meld is too: a typo?\n"
    )


@pytest.mark.parametrize(
    ("variant", "step"), [("single-deck", 10), ("double-deck", 1), ("three-handed", 10)]
)
def test_the_meld_step_is_what_every_meld_at_every_copy_count_divides(
    variant: str, step: int
) -> None:
    rules = load_variant(variant)
    values = [rule.value(n) for rule in rules.melds for n in range(1, rules.deck.copies + 1)]
    assert rules.meld_step == step
    assert all(value % step == 0 for value in values)
