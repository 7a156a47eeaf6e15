"""Every sample transcript parses to its reviewed model JSON (rewrite with --update-goldens)."""
from __future__ import annotations

import json

import pytest

from tests.conftest import GOLDEN, SAMPLES
from viewer import parse

SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file() and not path.name.startswith("."))


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_sample_parses_to_its_golden_model(sample, update_goldens):
    golden = GOLDEN / f"{sample.name}.json"
    model = parse(sample.read_bytes()).to_json()
    if update_goldens or not golden.exists():
        golden.write_text(json.dumps(model, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        if not update_goldens:
            pytest.fail(f"no golden file for {sample.name}; wrote one, review it and commit it")
    assert model == json.loads(golden.read_text(encoding="utf-8"))


def test_every_golden_file_has_its_sample():
    orphans = [path.name for path in GOLDEN.glob("*.json") if not (SAMPLES / path.name[:-5]).exists()]
    assert orphans == []
