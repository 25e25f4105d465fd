from __future__ import annotations

from pathlib import Path

import pytest

from meldcalc.variant import Variant, load_variant

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def single_deck() -> Variant:
    return load_variant("single-deck")


@pytest.fixture(scope="session")
def double_deck() -> Variant:
    return load_variant("double-deck")
