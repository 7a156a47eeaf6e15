"""JSON message shapes (OpenChatML 2.0/2.2, OpenAI chat, openai-harmony dicts) and the spans of the
messages they give."""
from __future__ import annotations

import json

import pytest

from tests.parse.helpers import codes, only
from tests.parse.json.helpers import CALL
from viewer.parse import parse


# -- message shapes ---------------------------------------------------------------------------------------

def test_thinking_content_and_calls_give_analysis_then_content_then_calls():
    element = {"role": "assistant", "tool_calls": [CALL], "content": "Checking.", "thinking": "Need weather."}
    transcript = parse(json.dumps([element]), "json")
    assert [(m.turn, m.channel, m.content) for m in transcript.messages] == [
        (0, "analysis", "Need weather."), (0, "final", "Checking."), (0, "commentary", '{"city":"Oslo"}')]


def test_tool_call_becomes_a_constrained_json_call_to_functions():
    call = parse(json.dumps([{"role": "assistant", "tool_calls": [CALL]}]), "json").messages[0]
    assert (call.role, call.channel, call.recipient, call.content_type, call.constrained, call.call_id, call.end) == (
        "assistant", "commentary", "functions.get_weather", "json", True, "c1", "call")
    assert call.is_call


def test_tool_name_with_a_namespace_is_kept_as_written():
    call = {"id": "s1", "function": {"name": "browser.search", "arguments": "{}"}}
    transcript = parse(json.dumps([{"role": "assistant", "tool_calls": [call]}]), "json")
    assert transcript.messages[0].recipient == "browser.search"


def test_parallel_tool_calls_are_separate_messages_of_one_turn():
    second = {"id": "c2", "function": {"name": "get_time", "arguments": "{}"}}
    transcript = parse(json.dumps([{"role": "assistant", "content": None, "tool_calls": [CALL, second]}]), "json")
    assert [(m.turn, m.call_id, m.recipient) for m in transcript.messages] == [
        (0, "c1", "functions.get_weather"), (0, "c2", "functions.get_time")]


def test_arguments_written_as_an_object_become_json_text():
    call = {"function": {"name": "f", "arguments": {"city": "Oslo"}}}
    message = parse(json.dumps([{"role": "assistant", "tool_calls": [call]}]), "json").messages[0]
    assert json.loads(message.content) == {"city": "Oslo"}
    assert message.call_id is None


def test_openai_tool_reply_is_named_after_its_call_and_paired_by_id():
    reply = {"role": "tool", "tool_call_id": "c1", "content": "{}"}
    transcript = parse(json.dumps([{"role": "assistant", "tool_calls": [CALL]}, reply]), "json")
    assert (transcript.messages[1].role, transcript.messages[1].name, transcript.messages[1].call_id) == (
        "tool", "functions.get_weather", "c1")
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(0, 1, "call_id")]


def test_tool_reply_name_gets_the_functions_namespace():
    reply = parse(json.dumps([{"role": "tool", "name": "get_weather", "content": "{}"}]), "json").messages[0]
    assert (reply.name, reply.channel, reply.channel_explicit) == ("functions.get_weather", "commentary", False)


def test_legacy_function_role_is_a_tool_reply():
    reply = parse(json.dumps([{"role": "function", "name": "f", "content": "1"}]), "json").messages[0]
    assert (reply.role, reply.name) == ("tool", "functions.f")


def test_role_naming_a_tool_is_that_tool_replying():
    reply = parse(json.dumps([{"role": "browser.search", "content": "results"}]), "json").messages[0]
    assert (reply.role, reply.name) == ("tool", "browser.search")
    assert "W-UNKNOWN-ROLE" not in codes(parse(json.dumps([{"role": "functions.f", "content": ""}]), "json"))


@pytest.mark.parametrize("key", ["thinking", "reasoning_content", "reasoning"])
def test_each_reasoning_key_gives_an_analysis_message(key):
    transcript = parse(json.dumps([{"role": "assistant", key: "hmm", "content": "ok"}]), "json")
    assert [(m.channel, m.channel_explicit, m.content) for m in transcript.messages] == [
        ("analysis", True, "hmm"), ("final", False, "ok")]


def test_reasoning_repeated_under_two_keys_is_shown_once():
    element = {"role": "assistant", "reasoning": "same", "reasoning_content": "same", "content": "ok"}
    assert [m.channel for m in parse(json.dumps([element]), "json").messages] == ["analysis", "final"]


def test_ocml22_tool_call_follows_its_commentary_preamble():
    element = {"role": "assistant", "channel": "commentary", "intent": "preamble", "content": "Checking SF.",
               "tool_call": {"id": "abc123", "recipient": "functions.lookup_weather", "content_type": "json",
                             "arguments": '{"location":"SF"}'}}
    preamble, call = parse(json.dumps([element]), "json").messages
    assert (preamble.channel, preamble.channel_explicit, preamble.intent, preamble.end) == (
        "commentary", True, "preamble", "end")
    assert (call.recipient, call.call_id, call.content_type, call.constrained, call.end, call.intent) == (
        "functions.lookup_weather", "abc123", "json", True, "call", None)


def test_ocml22_tool_reply_with_call_id_pairs_with_the_call():
    call = {"role": "assistant", "channel": "commentary",
            "tool_call": {"id": "x", "recipient": "functions.f", "arguments": "{}"}}
    reply = {"role": "tool", "name": "functions.f", "call_id": "x", "recipient": "assistant", "content": "{}"}
    transcript = parse(json.dumps([call, reply]), "json")
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(0, 1, "call_id")]
    assert transcript.messages[1].recipient == "assistant"


def test_content_parts_are_joined_as_written():
    parts = [{"type": "text", "text": "one "}, {"type": "input_text", "text": "two"}, "!"]
    assert parse(json.dumps([{"role": "user", "content": parts}]), "json").messages[0].content == "one two!"


def test_refusal_part_is_text():
    parts = [{"type": "refusal", "refusal": "I can't."}]
    assert parse(json.dumps([{"role": "assistant", "content": parts}]), "json").messages[0].content == "I can't."


def test_harmony_message_dict_reads_author_recipient_and_constrained_type():
    element = {"author": {"role": "assistant", "name": None}, "channel": "commentary",
               "recipient": "functions.get_weather", "content_type": "<|constrain|>json",
               "content": [{"type": "text", "text": '{"city": "SF"}'}]}
    message = parse(json.dumps({"messages": [element]}), "json").messages[0]
    assert (message.role, message.channel, message.channel_explicit, message.recipient, message.content_type,
            message.constrained, message.end, message.content) == (
        "assistant", "commentary", True, "functions.get_weather", "json", True, "call", '{"city": "SF"}')


def test_harmony_bare_content_type_is_not_constrained():
    element = {"role": "assistant", "channel": "commentary", "recipient": "functions.f", "content_type": "json",
               "content": "{}"}
    message = parse(json.dumps([element]), "json").messages[0]
    assert (message.content_type, message.constrained) == ("json", False)


def test_harmony_developer_content_declares_tools_and_shows_instructions():
    parameters = {"type": "object", "properties": {"location": {"type": "string"}}}
    developer = {"author": {"role": "developer"}, "content": [{
        "type": "developer_content", "instructions": "Be brief.",
        "tools": {"functions": {"name": "functions", "tools": [{"name": "get_weather", "parameters": parameters}]}}}]}
    transcript = parse(json.dumps([developer]), "json")
    assert transcript.tools == {"functions.get_weather": parameters}
    assert transcript.messages[0].content.startswith("Be brief.")


def test_call_that_breaks_its_declared_schema_is_e_call_schema():
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
    call = {"id": "c1", "function": {"name": "get_weather", "arguments": '{"city": 7}'}}
    transcript = parse(json.dumps({"messages": [{"role": "assistant", "tool_calls": [call]}], "tools": tools}), "json")
    assert only(transcript, "E-CALL-SCHEMA").message_index == 0


def test_arguments_that_are_not_json_violate_the_constraint():
    call = {"id": "c1", "function": {"name": "f", "arguments": "{city: Oslo"}}
    transcript = parse(json.dumps([{"role": "assistant", "tool_calls": [call]}]), "json")
    assert "E-BODY-CONSTRAINT-VIOLATION" in codes(transcript)


def test_lone_surrogate_escape_becomes_a_replacement_character_with_a_warning():
    transcript = parse('[{"role": "user", "content": "a\\ud800b"}]', "json")
    assert transcript.messages[0].content == "a\ufffdb"
    assert "W-LONE-SURROGATE" in codes(transcript)


# -- spans ------------------------------------------------------------------------------------------------


def test_a_message_alone_in_its_element_spans_the_whole_element():
    text = '[ {"role": "user", "content": "hi"} ]'
    assert parse(text, "json").messages[0].span == (2, 35)


def test_messages_sharing_an_element_span_their_own_members():
    text = '[{"role": "assistant", "thinking": "t", "tool_calls": [{"id": "c", "function": {"name": "f"}}]}]'
    analysis, call = parse(text, "json").messages
    assert text[slice(*analysis.span)] == '"thinking": "t"'
    assert text[slice(*call.span)] == '{"id": "c", "function": {"name": "f"}}'


def test_json_lines_spans_are_offsets_into_the_whole_text():
    text = '{"role": "user", "content": "a"}\n  {"role": "assistant", "reasoning": "r", "content": "b"}\n'
    user, analysis, final = parse(text, "json").messages
    assert user.span == (0, 32)
    assert text[slice(*analysis.span)] == '"reasoning": "r"'
    assert text[slice(*final.span)] == '"content": "b"'


def test_envelope_outside_messages_is_json_frame():
    text = '{"model": "m", "messages": [{"role": "user", "content": "x"}]}'
    transcript = parse(text, "json")
    assert [(segment.kind, segment.text) for segment in transcript.frame] == [
        ("json", '{"model": "m", "messages": ['), ("json", "]}")]
