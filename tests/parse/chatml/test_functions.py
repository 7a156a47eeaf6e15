"""ChatML function calling: <|function_list|> declarations, <|function_call|> and <|function_output|>."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.chatml.helpers import WEATHER_TOOL, chatml
from tests.parse.helpers import codes, only
from viewer.parse import parse


# -- function list ----------------------------------------------------------------------------------------


def test_function_list_records_the_parameters_schema_and_a_segment():
    transcript = chatml(f"<|im_start|>system\nTools:\n<|function_list|>\n{WEATHER_TOOL}\n<|im_end|>")
    assert transcript.tools == {"functions.get_weather": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    segment = transcript.messages[0].segments[-1]
    assert (segment.kind, segment.text) == ("function_list", WEATHER_TOOL)
    assert WEATHER_TOOL in transcript.messages[0].content


def test_function_list_accepts_a_json_list_and_several_objects():
    other = WEATHER_TOOL.replace("get_weather", "get_time")
    as_list = chatml(f"<|im_start|>system\n<|function_list|>[{WEATHER_TOOL}, {other}]<|im_end|>")
    as_objects = chatml(f"<|im_start|>system\n<|function_list|>\n{WEATHER_TOOL}\n{other}\n<|im_end|>")
    assert set(as_list.tools) == set(as_objects.tools) == {"functions.get_weather", "functions.get_time"}


def test_function_list_reading_stops_at_the_first_prose():
    text = (f"<|im_start|>system\n<|function_list|>\n{WEATHER_TOOL}\n\n"
            'Use this schema:\n{"title": "FunctionCall"}<|im_end|>')
    transcript = chatml(text)
    assert list(transcript.tools) == ["functions.get_weather"]
    assert transcript.messages[0].segments[-1].text == '\nUse this schema:\n{"title": "FunctionCall"}'


def test_unreadable_function_list_is_a_json_syntax_warning():
    transcript = chatml('<|im_start|>system\n<|function_list|>\n{"type": "function", \n<|im_end|>')
    assert transcript.tools == {}
    assert only(transcript, "W-JSON-SYNTAX").severity == "warning"


def test_function_list_without_json_is_a_json_syntax_warning():
    transcript = chatml("<|im_start|>system\n<|function_list|>\nget_weather(city)\n<|im_end|>")
    only(transcript, "W-JSON-SYNTAX")


def test_tool_definition_without_a_name_is_a_warning():
    transcript = chatml('<|im_start|>system\n<|function_list|>{"type": "function", "function": {}}<|im_end|>')
    assert transcript.tools == {}
    only(transcript, "W-TOOL-DEFINITION")


# -- function calls and outputs ---------------------------------------------------------------------------


def test_function_call_becomes_a_call_message_of_the_turn():
    text = ('<|im_start|>assistant\n<|function_call|>\n'
            '{"arguments": {"city": "Paris"}, "name": "get_weather"}\n<|im_end|>')
    transcript = chatml(text)
    (call,) = transcript.messages
    assert (call.role, call.channel, call.recipient, call.content_type, call.end) == (
        "assistant", "commentary", "functions.get_weather", "json", "call")
    assert json.loads(call.content) == {"city": "Paris"}
    assert call.segments[0].kind == "function_call"
    assert call.segments[0].text == '{"arguments": {"city": "Paris"}, "name": "get_weather"}'
    assert call.segments[0].span == (22, 95)


def test_call_arguments_keep_non_ascii_text_as_written():
    text = '<|im_start|>assistant\n<|function_call|>{"arguments": {"city": "Zürich"}, "name": "w"}<|im_end|>'
    assert chatml(text).messages[0].content == '{"city": "Zürich"}'


def test_several_calls_in_one_message_give_several_call_messages():
    text = ('<|im_start|>assistant\n<|function_call|>{"arguments": {"city": "Paris"}, "name": "w"}\n'
            '<|function_call|>{"arguments": {"city": "Rome"}, "name": "w"}\n<|im_end|>')
    messages = chatml(text).messages
    assert [json.loads(m.content)["city"] for m in messages] == ["Paris", "Rome"]
    assert {m.turn for m in messages} == {0}
    assert messages[0].span[1] <= messages[1].span[0]


def test_text_before_a_call_stays_a_final_message():
    text = '<|im_start|>assistant\nLet me check.\n<|function_call|>{"arguments": {}, "name": "w"}<|im_end|>'
    assert [(m.channel, m.content) for m in chatml(text).messages] == [("final", "Let me check."), ("commentary", "{}")]


def test_unreadable_call_is_still_a_call_with_a_call_schema_error():
    text = '<|im_start|>assistant\n<|function_call|>\n{"arguments": {"city": "Paris"}, "name": "w"\n<|im_end|>'
    transcript = chatml(text)
    (call,) = transcript.messages
    assert (call.end, call.recipient) == ("call", None)
    assert call.content == '{"arguments": {"city": "Paris"}, "name": "w"'
    diagnostic = only(transcript, "E-CALL-SCHEMA")
    assert (diagnostic.severity, diagnostic.message_index) == ("error", 0)
    assert "not readable JSON" in diagnostic.message


def test_call_without_arguments_is_a_call_schema_error():
    transcript = chatml(f'<|im_start|>system\n<|function_list|>{WEATHER_TOOL}<|im_end|>\n'
                        '<|im_start|>assistant\n<|function_call|>{"name": "get_weather"}<|im_end|>')
    assert transcript.messages[1].is_call
    assert "arguments" in only(transcript, "E-CALL-SCHEMA").message


def test_call_arguments_that_break_the_declared_schema_are_reported():
    transcript = parse((SAMPLES / "chatml-call-schema-violation.txt").read_bytes())
    diagnostic = only(transcript, "E-CALL-SCHEMA")
    assert transcript.messages[diagnostic.message_index].recipient == "functions.convert_currency"


def test_function_call_outside_an_assistant_message_is_text():
    text = '<|im_start|>system\nAnswer as <|function_call|>\n{"arguments": <args>, "name": <name>}<|im_end|>'
    transcript = chatml(text)
    assert not any(m.is_call for m in transcript.messages)
    assert "<|function_call|>" in transcript.messages[0].content
    assert codes(transcript) == []


def test_function_output_becomes_a_reply_message():
    output = '{"name": "get_weather", "content": {"sky": "clear"}}'
    (reply,) = chatml(f"<|im_start|>tool\n<|function_output|>\n{output}\n<|im_end|>").messages
    assert (reply.role, reply.name, reply.recipient, reply.channel) == (
        "tool", "functions.get_weather", "assistant", "commentary")
    assert reply.content == output
    assert [(s.kind, s.text) for s in reply.segments] == [("function_output", output)]


def test_unreadable_function_output_is_a_reply_without_a_name_and_a_warning():
    transcript = chatml("<|im_start|>tool\n<|function_output|>\nsunny, 24 C\n<|im_end|>")
    reply = transcript.messages[0]
    assert (reply.role, reply.name, reply.content) == ("tool", None, "sunny, 24 C")
    only(transcript, "W-JSON-SYNTAX")


def test_plain_tool_message_without_output_token_is_a_reply_paired_in_order():
    transcript = chatml('<|im_start|>assistant\n<|function_call|>{"arguments": {}, "name": "f"}<|im_end|>\n'
                        '<|im_start|>tool\n{"ok": true}\n<|im_end|>')
    assert transcript.messages[1].is_reply
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 1)]


def test_outputs_answer_calls_in_order():
    transcript = parse((SAMPLES / "chatml-call-schema-violation.txt").read_bytes())
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(2, 4, "order"), (3, 5, "order")]
