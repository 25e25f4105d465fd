"""variants/schema.json: generated from the loader's own spec, and agreeing with it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from meldcalc.rules.loading import load_variant
from meldcalc.rules.schema import json_schema_text

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "variants" / "schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GOOD = sorted(
    [
        *ROOT.glob("variants/*.yaml"),
        *ROOT.glob("variants/examples/*.yaml"),
        ROOT / "tests" / "data" / "roundhouse.yaml",
    ]
)
# Bad files whose fault is one of shape (types, keys), which a JSON Schema can see; the
# others (a card the deck lacks, an extends cycle, ...) need the loader's arithmetic.
SHAPE_FAULTS = [
    "unknown-key",
    "wrong-type",
    "negative-points",
    "top-level-list",
    "bad-rank",
    "class-not-a-name",
    "meld-unknown-key",
    "bad-choice",
    "not-a-boolean",
    "points-empty-list",
    "many-problems",
    "extends-not-a-name",
    "missing-field",
]


def test_schema_file_is_what_the_spec_generates_now() -> None:
    assert (ROOT / "variants" / "schema.json").read_text(encoding="utf-8") == json_schema_text()
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_every_good_file_passes_both_the_schema_and_the_loader(path: Path) -> None:
    assert list(VALIDATOR.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))) == []
    load_variant(str(path))


@pytest.mark.parametrize("name", SHAPE_FAULTS)
def test_shape_faults_fail_the_schema_as_they_fail_the_loader(name: str) -> None:
    path = ROOT / "tests" / "data" / "bad" / f"{name}.yaml"
    assert list(VALIDATOR.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
