from __future__ import annotations

from pathlib import Path

import pytest

from meldcalc.rules.loading import load_variant
from meldcalc.rules.variant import Variant

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def single_deck() -> Variant:
    return load_variant("single-deck")


@pytest.fixture(scope="session")
def double_deck() -> Variant:
    return load_variant("double-deck")


@pytest.fixture(autouse=True, scope="session")
def _private_variant_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch the user's cache folder."""
    import os

    os.environ["MELDCALC_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
