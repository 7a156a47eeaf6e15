"""Agents' trajectories and exports cut anywhere (a run still being written, a copy taken mid-write) or with a
character changed anywhere: every reader still accounts for every character and makes well-formed messages."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import SAMPLES
from tests.parse.helpers import assert_accounted_for, assert_well_made
from viewer import parse

SAMPLE_FILES = sorted(path for prefix in ("openhands-", "swe-agent-", "mini-swe-agent-", "atif-", "specstory-")
                      for path in SAMPLES.glob(prefix + "*") if path.suffix != ".zip")
"""The text samples (a folder's archive is cut by the bundle's own tests)."""


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
@given(where=st.floats(0, 1), changed=st.sampled_from(["", "{", "}", '"', "\\", "\n", "]", "`", "<", "x"]))
@settings(max_examples=60, deadline=None)
def test_a_sample_cut_or_changed_anywhere_is_accounted_for(sample, where, changed):
    text = sample.read_text(encoding="utf-8")
    dialect = parse(text).dialect
    at = int(where * len(text))
    for variant in (text[:at], text[:at] + changed + text[at + 1:]):
        transcript = parse(variant, dialect)
        assert_accounted_for(transcript, transcript.source)
        assert_well_made(transcript)
