"""MessageBuilder.add_plain reads an element to exactly what MessageBuilder.add makes of it where the importer asks
it first (a conversation's elements, an Inspect sample's messages), and leaves to add every element it does not
read: the same messages, spans, frame and diagnostics, whatever the elements mix."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.helpers import read_both_ways
from tests.parse.json.test_inspect_plain import MESSAGE
from tests.parse.json.test_plain import ELEMENT
from viewer.parse.json.builder import MessageBuilder

OTHER = st.sampled_from([
    {"type": "human", "content": "hi"}, {"type": "ai", "data": {"content": "yes", "tool_calls": []}},
    {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"],
     "kwargs": {"content": "hi"}},
    {"role": "user", "parts": [{"type": "text", "text": "x"}]}, {"parts": [{"text": "x"}], "role": "user"},
    {"role": "user", "parts": [{"text": "a"}], "content": "b"}, {"from": "human", "value": "hi"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}, 3, "text"])
"""Elements of other shapes (LangChain, the AI SDK, Gemini, ShareGPT, the Responses API) and no objects at all."""


@settings(max_examples=300, deadline=None)
@given(elements=st.lists(ELEMENT | OTHER, min_size=1, max_size=5), system=st.sampled_from([None, "Be brief."]),
       indent=st.sampled_from([None, 1]))
def test_a_conversation_s_elements_read_as_add_reads_them(elements, system, indent):
    document = {"messages": elements} if system is None else {"system": system, "messages": elements}
    fast, general = read_both_ways(json.dumps(document, indent=indent), MessageBuilder, "add_plain")
    assert fast == general


@settings(max_examples=200, deadline=None)
@given(messages=st.lists(MESSAGE, max_size=4), indent=st.sampled_from([None, 1]))
def test_an_inspect_sample_s_messages_read_as_add_reads_them(messages, indent):
    sample = {"id": 1, "epoch": 1, "input": "q", "target": "t", "messages": messages, "scores": {}}
    fast, general = read_both_ways(json.dumps(sample, indent=indent), MessageBuilder, "add_plain")
    assert fast == general
