"""Vercel AI SDK messages: v5 UIMessage parts and v4 tool invocations."""
from __future__ import annotations

import json

from tests.parse.helpers import assert_accounted_for, codes
from viewer.parse import parse
from viewer.parse.json import ai_sdk
from viewer.policy import Projection


def summary(transcript):
    return [(m.role, m.channel, m.recipient, m.call_id, m.content) for m in transcript.messages]


def test_v5_parts_give_reasoning_calls_replies_and_text():
    messages = [{"id": "u", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]},
                {"id": "a", "role": "assistant", "parts": [
                    {"type": "step-start"}, {"type": "reasoning", "text": "Call it."},
                    {"type": "tool-weather", "toolCallId": "w1", "state": "output-available",
                     "input": {"city": "Oslo"}, "output": {"c": -3}},
                    {"type": "step-start"}, {"type": "text", "text": "Cold."}]}]
    text = json.dumps(messages, indent=1)
    transcript = parse(text)
    assert summary(transcript) == [
        ("user", "final", None, None, "Weather?"), ("assistant", "analysis", None, None, "Call it."),
        ("assistant", "commentary", "functions.weather", "w1", '{"city": "Oslo"}'),
        ("tool", "commentary", None, "w1", '{"c": -3}'), ("assistant", "final", None, None, "Cold.")]
    assert [(pair.call, pair.reply) for pair in transcript.pairs] == [(2, 3)]
    assert_accounted_for(transcript, text)


def test_dynamic_tool_errors_sources_and_app_data_are_hidden():
    transcript = parse(json.dumps([{"id": "a", "role": "assistant", "parts": [
        {"type": "dynamic-tool", "toolName": "maps", "toolCallId": "m1", "state": "output-error",
         "input": {}, "errorText": "down"},
        {"type": "source-url", "sourceId": "s", "url": "https://example.org", "title": "Example"},
        {"type": "data-weather", "data": {"x": 1}}]}]))
    assert [d.show_as for d in Projection.of(transcript).decisions()] == ["marker", "marker", "hidden", "hidden"]
    assert codes(transcript) == ["W-TOOL-ERROR", "W-JSON-UNKNOWN-PART"]


def test_a_part_saved_while_streaming_is_cut():
    transcript = parse(json.dumps([{"id": "a", "role": "assistant", "parts": [
        {"type": "text", "text": "Here is a dra", "state": "streaming"}]}]))
    assert transcript.messages[0].end == "eof"
    assert codes(transcript) == ["E-STREAM-TRUNCATED"]


def test_v4_tool_invocations_reasoning_and_attachments():
    messages = [{"id": "u", "role": "user", "content": "Notes?",
                 "experimental_attachments": [{"name": "a.txt", "contentType": "text/plain",
                                               "url": "https://x/a.txt"}]},
                {"id": "a", "role": "assistant", "content": "", "reasoning": "Look it up.",
                 "toolInvocations": [{"state": "result", "toolCallId": "n1", "toolName": "notes", "args": {},
                                      "result": "none"}]}]
    assert summary(parse(json.dumps(messages))) == [
        ("user", "final", None, None, "Notes?"),
        ("user", "final", None, None, "[file: a.txt, https://x/a.txt, text/plain]"),
        ("assistant", "analysis", None, None, "Look it up."),
        ("assistant", "commentary", "functions.notes", "n1", "{}"), ("tool", "commentary", None, "n1", "none")]


def test_gemini_parts_without_types_are_left_to_other_readers():
    assert not ai_sdk.is_ui_message({"role": "model", "parts": [{"text": "hi"}]})
    assert ai_sdk.is_ui_message({"role": "user", "parts": [{"type": "text", "text": "hi"}]})
