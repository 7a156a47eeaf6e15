"""Anthropic Messages API conversations: content blocks, the system prompt, tool use and results."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from viewer.parse import parse
from viewer.policy import Projection

TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}


def read(*messages, **envelope):
    return parse(json.dumps({"model": "claude", **envelope, "messages": list(messages)}))


def shown(transcript):
    return [(m.role, m.content) for m, d in zip(transcript.messages, Projection.of(transcript).decisions()) if d.show_as == "message"]


def test_thinking_block_is_analysis_and_its_signature_is_opaque():
    transcript = read({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Rain likely.", "signature": "SIGNATURE-DATA"},
        {"type": "text", "text": "Take an umbrella."}]})
    assert [(m.channel, m.content) for m in transcript.messages] == [
        ("analysis", "Rain likely."), ("final", "Take an umbrella.")]
    opaque = only(transcript, "W-JSON-OPAQUE-DATA")
    assert (opaque.severity, opaque.message_index) == ("info", 0)
    assert "14 characters" in opaque.message and "SIGNATURE-DATA" not in opaque.message
    assert shown(transcript) == [("assistant", "Take an umbrella.")]


def test_redacted_thinking_is_an_analysis_note_without_its_data():
    transcript = read({"role": "assistant", "content": [{"type": "redacted_thinking", "data": "ENCRYPTED-BYTES"}]})
    message = transcript.messages[0]
    assert (message.channel, message.role) == ("analysis", "assistant")
    assert "redacted thinking" in message.content and "ENCRYPTED-BYTES" not in message.content
    assert "15 characters" in only(transcript, "W-JSON-OPAQUE-DATA").message


def test_tool_use_is_a_json_call_to_the_function_and_tool_result_its_paired_reply():
    transcript = read({"role": "assistant", "content": [{"type": "text", "text": "Checking."}, TOOL_USE]},
                      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                    "content": [{"type": "text", "text": "sunny"}]}]})
    text, call, reply = transcript.messages
    assert (call.role, call.recipient, call.channel, call.content_type, call.constrained, call.call_id, call.end) \
        == ("assistant", "functions.get_weather", "commentary", "json", True, "toolu_1", "call")
    assert json.loads(call.content) == {"city": "Oslo"}
    assert (reply.role, reply.name, reply.call_id, reply.content) == ("tool", "functions.get_weather", "toolu_1",
                                                                      "sunny")
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(1, 2, "call_id")]
    assert (text.turn, call.turn, reply.turn) == (0, 0, 1)


def test_tool_result_with_is_error_is_a_tool_error():
    transcript = read({"role": "assistant", "content": [TOOL_USE]}, {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "boom", "is_error": True}]})
    error = only(transcript, "W-TOOL-ERROR")
    assert error.message_index == 1 and "functions.get_weather" in error.message


def test_tool_result_for_an_unknown_id_is_an_orphan_reply():
    transcript = read({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x",
                                                    "content": "late"}]})
    assert (transcript.messages[0].role, transcript.messages[0].name) == ("tool", None)
    assert codes(transcript) == ["W-ORPHAN-REPLY"]


def test_system_prompt_as_text_or_blocks_is_a_hidden_system_message():
    for system in ("Be brief.", [{"type": "text", "text": "Be "}, {"type": "text", "text": "brief."}]):
        transcript = read({"role": "user", "content": "hi"}, system=system)
        assert [(m.role, m.content) for m in transcript.messages] == [("system", "Be brief."), ("user", "hi")]
        assert shown(transcript) == [("user", "hi")]
        assert "system" not in transcript.header


def test_tools_with_input_schema_are_declared():
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    transcript = read({"role": "user", "content": "hi"}, tools=[{"name": "get_weather", "input_schema": schema}])
    assert transcript.tools == {"functions.get_weather": schema}


def test_image_and_document_blocks_are_placeholders_without_their_data():
    data = "QUJD" * 100
    transcript = read({"role": "user", "content": [
        {"type": "text", "text": "What is this?"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": data}},
        {"type": "document", "title": "Q3", "source": {"type": "base64", "media_type": "application/pdf",
                                                       "data": data}},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.jpg"}}]})
    assert transcript.messages[0].content == (
        "What is this?\n[image: image/jpeg, 300 bytes, sha256 4c8625c137be, not shown: not a PNG, JPEG, GIF or WebP "
        "image]\n[document: Q3, application/pdf, 300 bytes]\n[image: https://example.com/cat.jpg]")
    assert codes(transcript) == ["W-MEDIA-REFUSED"]  # "ABC" repeated is no JPEG, whatever the block claims


def test_server_tool_use_calls_the_built_in_tool_and_its_result_replies():
    transcript = read({"role": "assistant", "content": [
        {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {"query": "q"}},
        {"type": "web_search_tool_result", "tool_use_id": "srv_1", "content": [
            {"type": "web_search_result", "url": "https://e.com", "encrypted_content": "OPAQUE-PAGE"}]}]})
    call, reply = transcript.messages
    assert (call.recipient, reply.name, reply.role) == ("web_search", "web_search", "tool")
    assert "OPAQUE-PAGE" not in reply.content
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 1)]


def test_mcp_tool_use_calls_the_server_s_tool():
    transcript = read({"role": "assistant", "content": [
        {"type": "mcp_tool_use", "id": "m1", "name": "roll", "server_name": "dice", "input": {}}]})
    assert transcript.messages[0].recipient == "dice.roll"


def test_a_response_object_is_one_assistant_turn():
    response = {"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
                "content": [{"type": "text", "text": "Let me check."}, TOOL_USE]}
    transcript = parse(json.dumps(response))
    assert [(m.turn, m.role, m.end) for m in transcript.messages] == [(0, "assistant", "end"), (0, "assistant", "call")]
    assert transcript.header == {}


def test_thinking_in_a_user_message_is_still_hidden():
    transcript = read({"role": "user", "content": [{"type": "text", "text": "hi"},
                                                   {"type": "thinking", "thinking": "secret"}]})
    assert shown(transcript) == [("user", "hi")]
    assert (transcript.messages[1].role, transcript.messages[1].channel) == ("unknown", "analysis")


def test_a_thinking_block_with_only_a_signature_says_the_api_omitted_its_text():
    transcript = read({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "", "signature": "EqQBCkYIBxgCKkD" + "A" * 60},
        {"type": "text", "text": "Take an umbrella."}]})
    omitted = transcript.messages[0]
    assert omitted.channel == "analysis" and omitted.content.startswith("(omitted thinking: the API returned this "
                                                                        "thinking block without its text")
    assert "75 characters" in omitted.content and "EqQB" not in omitted.content
    assert "omitted thinking block" in only(transcript, "W-JSON-OPAQUE-DATA").message


def test_a_response_s_model_stop_reason_id_and_usage_are_its_messages_meta_usage_on_the_last():
    transcript = parse(json.dumps({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-opus-4-1-20250805",
        "content": [{"type": "text", "text": "Checking."}, TOOL_USE], "stop_reason": "tool_use",
        "stop_sequence": None, "usage": {"input_tokens": 472, "output_tokens": 186, "cache_read_input_tokens": 10}}))
    first, last = (message.meta for message in transcript.messages)
    assert (first.model, first.stop_reason, first.response, first.usage) == (
        "claude-opus-4-1-20250805", "tool_use", "msg_01", None)
    assert (last.usage.input, last.usage.output, last.usage.cache_read) == (472, 186, 10)


def test_what_a_text_block_cites_follows_it_as_a_hidden_entry():
    citation = {"type": "web_search_result_location", "url": "https://example.org/burj", "title": "Burj Khalifa",
                "cited_text": "Burj Khalifa, 828 m, completed 2010", "encrypted_index": "Eo8BCioIAhgB"}
    transcript = read({"role": "assistant", "content": [{"type": "text", "text": "It is 828 m tall.",
                                                         "citations": [citation]}]})
    answer, cited = transcript.messages
    assert (cited.role, cited.name, cited.content_type) == ("system", "citations", "json")
    assert json.loads(cited.content) == [{key: value for key, value in citation.items() if key != "encrypted_index"}]
    assert shown(transcript) == [("assistant", "It is 828 m tall.")]


def test_a_member_of_a_message_no_reader_knows_is_kept_in_the_header_and_said():
    transcript = read({"role": "user", "content": "Hi", "cache_hint": {"ttl": "5m"}})
    assert transcript.header["unread"] == [{"turn": 0, "members": {"cache_hint": {"ttl": "5m"}}}]
    assert "'cache_hint'" in only(transcript, "W-JSON-UNREAD").message
