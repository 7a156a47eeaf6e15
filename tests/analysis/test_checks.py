"""The checks every dialect shares (viewer/analysis/checks.py): one test per diagnostic it emits, and the schema
handling that keeps a hostile transcript from slowing or breaking them."""
from __future__ import annotations

import json

from viewer.analysis import check
from viewer.model import Message, Transcript

WEATHER_SCHEMA = {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}


def _transcript(*messages: Message, header: dict | None = None, tools: dict | None = None) -> Transcript:
    return Transcript(dialect="harmony", source="", messages=tuple(messages), header=header or {},
                      tools=tools or {})


def _call(content: str, index: int = 0, recipient: str = "functions.get_weather", **fields) -> Message:
    return Message.drafted(index=index, turn=index, role="assistant", content=content, span=(index, index + 1),
                           recipient=recipient, channel="commentary", channel_explicit=True, end="call", **fields)


def _reply(content: str, index: int = 1, name: str | None = "functions.get_weather") -> Message:
    return Message.drafted(index=index, turn=index, role="tool", content=content, span=(index, index + 1), name=name,
                           channel="commentary", channel_explicit=True)


def _codes(transcript: Transcript) -> list[tuple[str, int | None]]:
    return [(diagnostic.code, diagnostic.message_index) for diagnostic in check(transcript)]


def test_a_json_constrained_body_that_is_not_json_breaks_the_constraint():
    found = check(_transcript(_call('{"location": ', constrained=True, content_type="json")))
    assert [d.code for d in found] == ["E-BODY-CONSTRAINT-VIOLATION"]
    assert found[0].severity == "error" and "not valid JSON" in found[0].message


def test_a_json_constrained_body_that_is_json_is_fine():
    assert check(_transcript(_call('{"location": "Oslo"}', constrained=True, content_type="JSON"))) == []


def test_a_missing_channel_is_an_error_only_when_the_header_requires_channels():
    message = Message.drafted(index=0, turn=0, role="assistant", content="hi", span=(0, 5), channel_explicit=False)
    requiring = {"profiles": {"harmony": {"require_channels": True}}}
    assert _codes(_transcript(message, header=requiring)) == [("E-PARSE-CHANNEL-MISSING", 0)]
    assert _codes(_transcript(message)) == []
    disabled = {"profiles": {"harmony": {"require_channels": True, "enabled": False}}}
    assert _codes(_transcript(message, header=disabled)) == []


def test_arguments_that_break_the_schema_are_reported_with_where_and_why():
    found = check(_transcript(_call('{"location": 42}'), tools={"functions.get_weather": WEATHER_SCHEMA}))
    assert [(d.code, d.severity) for d in found] == [("E-CALL-SCHEMA", "error")]
    assert "at location" in found[0].message and "not of type 'string'" in found[0].message


def test_arguments_that_fit_the_schema_are_fine():
    assert check(_transcript(_call('{"location": "Lima"}'), tools={"functions.get_weather": WEATHER_SCHEMA})) == []


def test_arguments_that_are_not_json_break_the_schema():
    found = check(_transcript(_call("location=Lima"), tools={"functions.get_weather": WEATHER_SCHEMA}))
    assert [d.code for d in found] == ["E-CALL-SCHEMA"] and "are not JSON" in found[0].message


def test_json_encoded_arguments_are_read_through_one_level():
    encoded = json.dumps(json.dumps({"location": 42}))
    found = check(_transcript(_call(encoded), tools={"functions.get_weather": WEATHER_SCHEMA}))
    assert [d.code for d in found] == ["E-CALL-SCHEMA"] and "at location" in found[0].message


def test_a_reply_reporting_a_timeout_is_an_error():
    found = check(_transcript(_reply('{"error": {"code": "E-TOOL-TIMEOUT"}}')))
    assert [(d.code, d.message_index) for d in found] == [("E-TOOL-TIMEOUT", 1)]
    assert found[0].message == "The tool functions.get_weather reported E-TOOL-TIMEOUT."


def test_a_reply_reporting_a_cancellation_is_an_error():
    assert _codes(_transcript(_reply('{"error": "E-TOOL-CANCELLED"}'))) == [("E-TOOL-CANCELLED", 1)]


def test_a_tool_error_inside_a_json_encoded_string_body_is_found():
    body = json.dumps(json.dumps({"error": "E-TOOL-TIMEOUT"}))
    assert _codes(_transcript(_reply(body))) == [("E-TOOL-TIMEOUT", 1)]


def test_a_reply_with_ok_false_is_a_warning():
    found = check(_transcript(_reply('{"ok": false, "error": "disk full"}', name=None)))
    assert [(d.code, d.severity) for d in found] == [("W-TOOL-ERROR", "warning")]
    assert found[0].message == "The tool reported a failure (ok: false)."


def test_replies_that_are_not_json_or_not_errors_are_fine():
    assert check(_transcript(_reply("sunny"), _reply('{"ok": true}', index=2), _reply("[1, 2]", index=3))) == []


def test_schema_patterns_are_ignored_so_a_hostile_regex_cannot_run():
    schema = {"type": "object", "properties": {"location": {"type": "string", "pattern": "^(a+)+$"}},
              "patternProperties": {"^x": {"type": "integer"}}}
    arguments = json.dumps({"location": "a" * 40 + "!", "xy": "not an integer"})
    assert check(_transcript(_call(arguments), tools={"functions.get_weather": schema})) == []


def test_an_invalid_schema_is_ignored():
    broken = {"type": "no-such-type"}
    assert check(_transcript(_call('{"location": 42}'), tools={"functions.get_weather": broken})) == []


def test_a_call_to_a_tool_without_a_schema_is_not_checked():
    assert check(_transcript(_call("not json"), tools={"functions.other": WEATHER_SCHEMA})) == []


def test_every_repeat_of_a_bad_call_is_reported_and_each_tool_checks_its_own():
    other = {"type": "object", "properties": {"location": {"type": "integer"}}}
    calls = [_call('{"location": 42}', index=0), _call('{"location": 42}', index=1),
             _call('{"location": 42}', index=2, recipient="functions.other")]
    tools = {"functions.get_weather": WEATHER_SCHEMA, "functions.other": other}
    assert _codes(_transcript(*calls, tools=tools)) == [("E-CALL-SCHEMA", 0), ("E-CALL-SCHEMA", 1)]
