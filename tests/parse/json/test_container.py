"""The containers of JSON transcripts (list, envelope, single object, JSON Lines), their detection, and
any JSON-shaped input."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from tests.parse.helpers import assert_accounted_for
from tests.parse.json.helpers import jsonl
from viewer.parse import detect, parse


# -- containers -------------------------------------------------------------------------------------------


def test_bare_list_gives_one_turn_per_element():
    transcript = parse('[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]', "json")
    assert [(m.turn, m.role, m.channel, m.content, m.end) for m in transcript.messages] == [
        (0, "user", "final", "hi", "end"), (1, "assistant", "final", "hello", "end")]
    assert transcript.diagnostics == ()


def test_envelope_tools_become_transcript_tools_and_other_keys_the_header():
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    text = json.dumps({"model": "m1", "messages": [{"role": "user", "content": "x"}],
                       "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": schema}},
                                 {"type": "function", "function": {"name": "browser.open", "parameters": {}}}]})
    transcript = parse(text, "json")
    assert transcript.header == {"model": "m1"}
    assert transcript.tools == {"functions.get_weather": schema, "browser.open": {}}
    assert [m.content for m in transcript.messages] == ["x"]


def test_legacy_functions_key_declares_tools_too():
    text = json.dumps({"messages": [], "functions": [{"name": "f", "parameters": {"type": "object"}}]})
    assert parse(text, "json").tools == {"functions.f": {"type": "object"}}


def test_single_message_object_is_one_message():
    transcript = parse('{"role": "user", "content": "alone"}', "json")
    assert [(m.role, m.content) for m in transcript.messages] == [("user", "alone")]


def test_json_lines_give_one_message_per_line():
    transcript = parse(jsonl({"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}), "json")
    assert [(m.turn, m.content) for m in transcript.messages] == [(0, "a"), (1, "b")]


def test_empty_input_gives_no_messages_and_no_diagnostics():
    transcript = parse("  \n", "json")
    assert transcript.messages == () and transcript.diagnostics == ()


# -- detection --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    '[{"role": "user", "content": "x"}]',
    '{"messages": []}',
    '{"role": "user", "content": "x"}\n{"role": "assistant", "content": "y"}\n',
    '{\n  "messages": [\n    {"type": "response.delta"}\n  ]\n}',
])
def test_message_json_is_detected_as_json(text):
    assert detect(text) == "json"


# -- any JSON-shaped input --------------------------------------------------------------------------------

KEYS = ["role", "content", "thinking", "reasoning", "reasoning_content", "tool_calls", "tool_call", "function",
        "name", "arguments", "id", "tool_call_id", "call_id", "channel", "recipient", "content_type", "intent",
        "author", "type", "text", "messages", "tools", "parameters"]
WORDS = ["user", "assistant", "tool", "system", "developer", "analysis", "commentary", "final", "text",
         "<|constrain|>json", "json", "functions.f", "f", "image_url", "system_content", "developer_content"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.sampled_from(WORDS)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), inner,
                                                                 max_size=5),
    max_leaves=25)


@given(st.lists(json_values, max_size=5), st.sampled_from(["list", "envelope", "lines", "pretty"]),
       st.integers(min_value=0, max_value=400))
def test_any_json_shaped_input_parses_with_every_character_accounted_for(elements, container, cut):
    if container == "list":
        text = json.dumps(elements)
    elif container == "envelope":
        text = json.dumps({"model": "m", "messages": elements})
    elif container == "lines":
        text = "".join(json.dumps(element) + "\n" for element in elements)
    else:
        text = json.dumps(elements, indent=2)
    for candidate in (text, text[:cut]):
        transcript = parse(candidate, "json")
        assert_accounted_for(transcript, candidate)
        transcript.to_json()
