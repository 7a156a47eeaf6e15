"""The JSON importer: containers, message shapes, spans, and every diagnostic it gives."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from tests.parse.helpers import codes, only
from tests.test_parse_invariants import assert_accounted_for
from viewer.parse import detect, parse


def jsonl(*objects) -> str:
    return "".join(json.dumps(value) + "\n" for value in objects)


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


# -- message shapes ---------------------------------------------------------------------------------------

CALL = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'}}


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


# -- diagnostics ------------------------------------------------------------------------------------------


def test_document_syntax_error_keeps_earlier_elements_and_covers_the_rest():
    text = '[\n {"role": "user", "content": "a"},\n {"role": "user" "content": "b"}\n]\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["a"]
    error = only(transcript, "W-JSON-SYNTAX")
    assert error.span == (35, len(text) - 1)
    assert "line 3, column 18" in error.message


def test_json_lines_syntax_error_skips_only_that_line():
    text = '{"role": "user", "content": "a"}\n{"role": "user", "content": \n{"role": "user", "content": "c"}\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["a", "c"]
    assert only(transcript, "W-JSON-SYNTAX").span == (33, 60)
    assert "Line 2" in only(transcript, "W-JSON-SYNTAX").message


def test_consecutive_bad_lines_give_one_diagnostic():
    text = '{"role": "user", "content": "a"}\nnot json\nnor this\n{"role": "user", "content": "b"}\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["a", "b"]
    assert "Lines 2–3" in only(transcript, "W-JSON-SYNTAX").message


def test_broken_first_line_still_reads_as_json_lines():
    text = '{"role": "user", "content": \n{"role": "user", "content": "b"}\n{"role": "user", "content": "c"}\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["b", "c"]
    assert only(transcript, "W-JSON-SYNTAX").span == (0, 27)


def test_text_after_the_document_is_reported():
    transcript = parse('[{"role": "user", "content": "a"}] trailing', "json")
    assert only(transcript, "W-JSON-SYNTAX").span == (35, 43)
    assert len(transcript.messages) == 1


def test_deep_nesting_is_a_diagnostic_not_an_exception():
    deep = "[" * 100_000 + "]" * 100_000
    transcript = parse('[{"role": "user", "content": "a"}, ' + deep + "]", "json")
    assert [m.content for m in transcript.messages] == ["a"]
    assert "nest too deeply" in only(transcript, "W-JSON-SYNTAX").message


def test_deeply_nested_json_line_is_skipped():
    transcript = parse('{"role": "user", "content": "a"}\n{"x": ' + "[" * 100_000 + "\n", "json")
    assert [m.content for m in transcript.messages] == ["a"]
    assert codes(transcript) == ["W-JSON-SYNTAX"]


def test_integer_too_long_for_python_is_a_diagnostic():
    transcript = parse('[{"role": "user", "content": ' + "9" * 5000 + "}]", "json")
    assert codes(transcript) == ["W-JSON-SYNTAX"]


def test_element_that_is_not_an_object_is_skipped_with_w_json_shape():
    transcript = parse('[42, {"role": "user", "content": "a"}]', "json")
    assert [(m.turn, m.content) for m in transcript.messages] == [(1, "a")]
    assert only(transcript, "W-JSON-SHAPE").span == (1, 3)


def test_unknown_role_is_kept_with_a_warning():
    transcript = parse('[{"role": "narrator", "content": "x"}]', "json")
    assert transcript.messages[0].role == "narrator"
    assert only(transcript, "W-UNKNOWN-ROLE").span == (2, 20)


def test_missing_role_is_reported():
    transcript = parse('[{"content": "x"}]', "json")
    assert transcript.messages[0].role == "unknown"
    assert "no role" in only(transcript, "W-UNKNOWN-ROLE").message


def test_role_that_is_a_number_is_reported():
    transcript = parse('[{"role": 3, "content": "x"}]', "json")
    assert transcript.messages[0].role == "3"
    assert codes(transcript) == ["W-UNKNOWN-ROLE"]


def test_missing_content_gives_an_empty_message_and_a_warning():
    transcript = parse('[{"role": "user"}]', "json")
    assert transcript.messages[0].content == ""
    assert only(transcript, "W-JSON-MISSING-CONTENT").message_index == 0


def test_null_content_beside_tool_calls_is_not_missing():
    transcript = parse(json.dumps([{"role": "assistant", "content": None, "tool_calls": [CALL]}]), "json")
    assert "W-JSON-MISSING-CONTENT" not in codes(transcript)


def test_number_where_text_belongs_is_read_as_its_json_text():
    transcript = parse('[{"role": "user", "name": 5, "content": 7.5}]', "json")
    assert (transcript.messages[0].name, transcript.messages[0].content) == ("5", "7.5")
    assert codes(transcript) == ["W-JSON-FIELD-TYPE", "W-JSON-FIELD-TYPE"]


def test_content_part_without_text_is_reported_as_info():
    parts = [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "u"}}]
    transcript = parse(json.dumps([{"role": "user", "content": parts}]), "json")
    part = only(transcript, "W-JSON-CONTENT-PART")
    assert (part.severity, transcript.messages[0].content) == ("info", "look")
    assert json.loads(transcript.text(part.span))["type"] == "image_url"


def test_content_part_whose_type_is_not_a_word_is_reported():
    transcript = parse('[{"role": "user", "content": {"type": []}}]', "json")
    assert codes(transcript) == ["W-JSON-CONTENT-PART"]


def test_unknown_channel_is_kept_with_a_warning():
    transcript = parse('[{"role": "assistant", "channel": "aside", "content": "x"}]', "json")
    assert transcript.messages[0].channel == "aside"
    assert codes(transcript) == ["W-UNKNOWN-CHANNEL"]


def test_tool_calls_beside_a_22_tool_call_are_both_read_with_a_warning():
    element = {"role": "assistant", "tool_calls": [CALL],
               "tool_call": {"id": "c2", "recipient": "functions.g", "arguments": "{}"}}
    transcript = parse(json.dumps([element]), "json")
    assert [m.call_id for m in transcript.messages] == ["c1", "c2"]
    assert "W-JSON-MIXED-CALLS" in codes(transcript)


def test_tool_call_that_is_not_an_object_is_skipped():
    transcript = parse(json.dumps([{"role": "assistant", "content": "x", "tool_calls": ["oops", CALL]}]), "json")
    assert [m.call_id for m in transcript.messages] == [None, "c1"]
    assert transcript.text(only(transcript, "W-JSON-SHAPE").span) == '"oops"'


def test_tool_calls_that_are_not_a_list_are_reported():
    transcript = parse('[{"role": "assistant", "content": "x", "tool_calls": 3}]', "json")
    assert len(transcript.messages) == 1
    assert codes(transcript) == ["W-JSON-FIELD-TYPE"]


def test_tool_call_without_a_function_name_is_reported():
    transcript = parse(json.dumps([{"role": "assistant", "tool_calls": [{"id": "c", "function": {}}]}]), "json")
    assert transcript.messages[0].end == "call"
    assert "W-JSON-SHAPE" in codes(transcript)


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
