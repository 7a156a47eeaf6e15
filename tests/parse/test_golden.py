"""Every sample transcript parses to its reviewed model JSON (rewrite with --update-goldens), and that output
changes only together with PARSER_VERSION, so stored transcripts are parsed again whenever it changes."""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import pytest

from tests.conftest import GOLDEN, SAMPLES
from viewer.parse import PARSER_VERSION, parse

SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file() and not path.name.startswith("."))
VERSION_FILE = GOLDEN / "VERSION.json"
"""`{"parser_version": …, "goldens_sha256": …}`: the goldens' digest recorded for that PARSER_VERSION."""


@functools.cache
def golden_text(sample: Path) -> str:
    """The golden file's text for a sample, as the parser makes it now."""
    model = parse(sample.read_bytes()).to_json()
    return json.dumps(model, ensure_ascii=False, indent=2) + "\n"


def goldens_digest() -> str:
    """sha256 over every sample, in name order, of its name, a NUL and its golden text: the digest of the golden
    files once they are up to date."""
    digest = hashlib.sha256()
    for sample in SAMPLE_FILES:
        digest.update(sample.name.encode() + b"\0" + golden_text(sample).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_sample_parses_to_its_golden_model(sample, update_goldens):
    golden = GOLDEN / f"{sample.name}.json"
    text = golden_text(sample)
    if update_goldens or not golden.exists():
        golden.write_text(text, encoding="utf-8")
        if not update_goldens:
            pytest.fail(f"no golden file for {sample.name}; wrote one, review it and commit it")
    assert json.loads(text) == json.loads(golden.read_text(encoding="utf-8"))


def test_every_golden_file_has_its_sample():
    orphans = [path.name for path in GOLDEN.glob("*.json")
               if path != VERSION_FILE and not (SAMPLES / path.name[:-5]).exists()]
    assert orphans == []


def test_parse_output_changes_only_with_a_new_parser_version(update_goldens):
    digest = goldens_digest()
    recorded = json.loads(VERSION_FILE.read_text(encoding="utf-8")) if VERSION_FILE.exists() else {}
    same_version = recorded.get("parser_version") == PARSER_VERSION
    if same_version and recorded.get("goldens_sha256") == digest:
        return
    if same_version:
        pytest.fail("parse output changed: bump PARSER_VERSION in viewer/parse/__init__.py (stored transcripts are "
                    "parsed again only when it changes), then record it with --update-goldens")
    if not update_goldens:
        pytest.fail(f"PARSER_VERSION is {PARSER_VERSION!r} but {VERSION_FILE.name} records "
                    f"{recorded.get('parser_version')!r}: run the golden tests with --update-goldens to record it")
    record = {"parser_version": PARSER_VERSION, "goldens_sha256": digest}
    VERSION_FILE.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
