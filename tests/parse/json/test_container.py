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


def test_envelope_tools_become_transcript_tools_and_stay_in_the_header_with_the_other_keys():
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    tools = [{"type": "function", "function": {"name": "get_weather", "description": "Weather now.",
                                               "parameters": schema}},
             {"type": "function", "function": {"name": "browser.open", "parameters": {}}}]
    text = json.dumps({"model": "m1", "messages": [{"role": "user", "content": "x"}], "tools": tools})
    transcript = parse(text, "json")
    assert transcript.header == {"model": "m1", "tools": tools}
    assert transcript.tools == {"functions.get_weather": schema, "browser.open": {}}
    assert [m.content for m in transcript.messages] == ["x"]


def test_tools_written_as_json_text_are_shown_read_in_the_header():
    tools = [{"name": "f", "description": "Does f.", "parameters": {"type": "object"}}]
    text = json.dumps({"conversations": [{"from": "human", "value": "hi"}], "tools": json.dumps(tools)})
    assert parse(text, "json").header == {"tools": tools}


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


# -- the shapes' envelopes --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["messages", "conversations", "input", "output", "items", "turns"])
def test_each_list_key_holds_the_conversation(key):
    transcript = parse(json.dumps({"id": "x", key: [{"role": "user", "content": "hi"}]}), "json")
    assert [(m.role, m.content) for m in transcript.messages] == [("user", "hi")]
    assert transcript.header == {"id": "x"}


def test_envelope_prompts_are_messages_in_source_order():
    text = json.dumps({"messages": [{"role": "user", "content": "hi"}], "system": "late system"})
    transcript = parse(text, "json")
    assert [(m.turn, m.role) for m in transcript.messages] == [(0, "user"), (1, "system")]
    assert_accounted_for(transcript, text)


def test_a_cut_envelope_keeps_the_members_read_before_the_cut():
    text = json.dumps({"system": "S", "messages": [{"role": "user", "content": "a"},
                                                   {"role": "user", "content": "b"}]})
    transcript = parse(text[:-20], "json")
    assert [(m.role, m.content) for m in transcript.messages] == [("system", "S"), ("user", "a")]
    assert [d.code for d in transcript.diagnostics] == ["W-JSON-SYNTAX"]


def test_a_cut_single_object_is_not_read():
    text = '{"role": "user", "content": "never fini'
    transcript = parse(text, "json")
    assert transcript.messages == () and transcript.diagnostics[0].span == (0, len(text))


def test_read_conversation_reads_one_conversation_node_of_a_larger_file():
    from viewer.parse.json import MessageBuilder, read_conversation
    from viewer.parse.json.positions import read_value
    text = ('[{"system": "S", "messages": [{"role": "user", "content": "a"}]}, '
            '{"conversations": [{"from": "human", "value": "b"}], "id": 7}]')
    top = read_value(text, 0, 1)
    builder = MessageBuilder(text)
    headers = [read_conversation(node, builder) for node in top.items]
    assert [(m.turn, m.role, text[m.span[0]:m.span[1]]) for m in builder.messages] == [
        (0, "system", '"system": "S"'), (1, "user", '{"role": "user", "content": "a"}'),
        (2, "user", '{"from": "human", "value": "b"}')]
    assert headers == [{}, {"id": 7}]


def test_pretty_printed_objects_one_after_another_are_a_sequence_of_elements():
    first = json.dumps({"role": "user", "content": "Hi"}, indent=4)
    second = json.dumps({"role": "assistant", "content": "Hello"}, indent=4)
    text = f"{first}\n{second}\n{second[:20]}"
    transcript = parse(text)
    assert [m.content for m in transcript.messages] == ["Hi", "Hello"]
    assert [d.code for d in transcript.diagnostics] == ["W-JSON-SYNTAX"]
    assert_accounted_for(transcript, text)
