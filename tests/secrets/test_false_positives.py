"""Text without secrets gives (almost) no findings: the sample transcripts, generated Harmony transcripts, and
generated prose, code and tool output full of hashes, UUIDs, git SHAs, base64 blobs and URLs without
credentials. bench/secret_scan.py prints the rates; these tests hold the line."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import SAMPLES
from tests.harness.gen import generate
from tests.secrets.corpus import corpus
from viewer.parse import parse
from viewer.secrets import scan_text, scan_transcript

SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file())
PER_MEGABYTE = 2
"""Findings a megabyte of secret-free text may give (the generated corpus gives none today)."""


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: path.name)
def test_a_sample_transcript_has_no_secrets(path):
    assert scan_transcript(parse(path.read_bytes())) == []


@pytest.mark.parametrize("seed", [3, 4])
def test_generated_prose_code_and_tool_output_give_at_most_a_few_findings_per_megabyte(seed):
    text = corpus(megabytes=1, seed=seed)
    kinds = Counter(finding.kind for finding in scan_text(text))
    assert sum(kinds.values()) <= PER_MEGABYTE, kinds


def test_a_generated_harmony_transcript_has_no_secrets():
    assert scan_transcript(parse(generate(megabytes=1))) == []
