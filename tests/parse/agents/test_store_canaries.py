"""A property per agent store read as a bundle (Goose, Crush, OpenCode, Cursor): whatever the order and mix of its
events, a canary planted in each part the policy hides (reasoning, tool arguments and results, injected context,
system prompts, sub-agents' conversations, parts of unknown types, the tables no reader reads) reaches none of the
default view's exports, while the user's text does."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tests.harness.stores.canaries import BUILDERS, KINDS, opencode_export
from tests.parse.agents.test_agent_canaries import _default_exports
from tests.parse.helpers import assert_accounted_for
from viewer.parse import parse

CANARY = "CANARY-Q7"


@pytest.mark.parametrize("dialect", sorted(BUILDERS))
@settings(max_examples=40)
@given(kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_store_reaches_a_default_view_export(dialect, kinds):
    data = BUILDERS[dialect](["typed", *kinds], lambda place: f"{CANARY}-{place}")
    transcript = parse(data)
    assert transcript.dialect == dialect
    assert_accounted_for(transcript, transcript.source)
    exported = _default_exports(data)
    assert CANARY not in exported
    assert "SHOWN-0" in exported


@settings(max_examples=40)
@given(kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_an_opencode_export_reaches_a_default_view_export(kinds):
    text = opencode_export(["typed", *kinds], lambda place: f"{CANARY}-{place}")
    assert parse(text).dialect == "opencode"
    exported = _default_exports(text)
    assert CANARY not in exported and "SHOWN-0" in exported
