"""OpenAI Responses API: a response's `output`, a request's `input`, and every kind of item."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from viewer.parse import parse
from viewer.policy import Projection

NOT_RASTER = "not shown: not a PNG, JPEG, GIF or WebP image"
"""How a placeholder says its inline data is no image the viewer shows."""

CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
        "arguments": '{"city":"Oslo"}'}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": '{"temp": 3}'}


def response(*items, **fields):
    return parse(json.dumps({"id": "resp_1", "object": "response", **fields, "output": list(items)}))


def request(*items, **fields):
    return parse(json.dumps({"model": "o4-mini", **fields, "input": list(items)}))


def shown(transcript):
    return [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions()) if d.show_as == "message"]


def test_response_object_output_and_instructions():
    transcript = response({"type": "message", "role": "assistant", "content": [
        {"type": "output_text", "text": "Hello.", "annotations": []}]}, instructions="Be kind.", model="o4")
    assert [(m.role, m.content) for m in transcript.messages] == [("system", "Be kind."), ("assistant", "Hello.")]
    assert transcript.header == {"id": "resp_1", "object": "response", "model": "o4"}
    assert shown(transcript) == ["Hello."]


def test_reasoning_summary_is_analysis_with_intent_summary_and_reasoning_text_is_analysis():
    transcript = response({"type": "reasoning", "id": "rs_1", "summary": [
        {"type": "summary_text", "text": "Plan."}], "content": [{"type": "reasoning_text", "text": "Steps."}]})
    assert [(m.channel, m.intent, m.content) for m in transcript.messages] == [
        ("analysis", "summary", "Plan."), ("analysis", None, "Steps.")]
    assert shown(transcript) == []


def test_encrypted_reasoning_alone_is_an_analysis_note_and_never_text():
    transcript = request({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA-SECRET"})
    assert transcript.messages[0].channel == "analysis"
    assert "gAAAA-SECRET" not in transcript.messages[0].content
    assert only(transcript, "W-JSON-OPAQUE-DATA").severity == "info"


def test_empty_reasoning_item_gives_no_message():
    transcript = response({"type": "reasoning", "id": "rs_1", "summary": []})
    assert transcript.messages == () and transcript.diagnostics == ()


def test_function_call_and_its_output_pair_by_call_id():
    transcript = request({"role": "user", "content": "Weather?"}, CALL, OUTPUT)
    user, call, reply = transcript.messages
    assert (call.recipient, call.call_id, call.constrained, call.end) == ("functions.get_weather", "call_1", True,
                                                                           "call")
    assert (reply.role, reply.name, reply.call_id, reply.content) == ("tool", "functions.get_weather", "call_1",
                                                                      '{"temp": 3}')
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(1, 2, "call_id")]


def test_custom_tool_call_is_free_form():
    transcript = request({"type": "custom_tool_call", "call_id": "c", "name": "code_exec", "input": "print(1)"},
                         {"type": "custom_tool_call_output", "call_id": "c", "output": "1"})
    call = transcript.messages[0]
    assert (call.recipient, call.content, call.constrained) == ("functions.code_exec", "print(1)", False)
    assert codes(transcript) == []


def test_server_tool_items_are_a_call_and_its_reply():
    transcript = response({"type": "web_search_call", "id": "ws_1", "status": "completed",
                           "action": {"type": "search", "query": "news"}})
    call, reply = transcript.messages
    assert (call.recipient, reply.name, reply.content) == ("web_search", "web_search", '{"status": "completed"}')
    assert json.loads(call.content) == {"action": {"type": "search", "query": "news"}}
    assert len(transcript.pairs) == 1 and codes(transcript) == []


def test_generated_image_is_a_placeholder():
    transcript = response({"type": "image_generation_call", "id": "ig_1", "result": "QUJD" * 10})
    assert transcript.messages[1].content == f"[image: 30 bytes, sha256 3f7cb23172e8, {NOT_RASTER}]"


def test_computer_screenshot_is_a_placeholder_and_pairs_with_its_call():
    transcript = request({"type": "computer_call", "call_id": "cu", "action": {"type": "click", "x": 1, "y": 2}},
                         {"type": "computer_call_output", "call_id": "cu", "output": {
                             "type": "computer_screenshot", "image_url": "data:image/png;base64,QUJD"}})
    assert (transcript.messages[0].recipient, transcript.messages[1].content) == (
        "computer", f"[screenshot: image/png, 3 bytes, sha256 b5d4045c3f46, {NOT_RASTER}]")
    assert len(transcript.pairs) == 1


def test_local_shell_output_pairs_by_its_id():
    transcript = request({"type": "local_shell_call", "id": "lsh", "call_id": "sh_1",
                          "action": {"type": "exec", "command": ["ls"]}},
                         {"type": "local_shell_call_output", "id": "sh_1", "output": "a b"})
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 1)]
    assert transcript.messages[1].name == "local_shell"


def test_mcp_call_with_an_error_is_a_tool_error_and_mcp_list_tools_declares_tools():
    schema = {"type": "object"}
    transcript = response({"type": "mcp_list_tools", "server_label": "dice", "tools": [
        {"name": "roll", "input_schema": schema}]},
        {"type": "mcp_call", "id": "mcp_1", "server_label": "dice", "name": "roll", "arguments": "{}",
         "output": None, "error": "server down"})
    assert transcript.tools == {"dice.roll": schema}
    assert transcript.messages[1].recipient == "dice.roll"
    assert only(transcript, "W-TOOL-ERROR").message_index == 2


def test_mcp_list_tools_is_a_hidden_entry_of_its_own_that_shows_every_tool_s_description():
    tools = [{"name": "roll", "description": "Roll dice given a formula", "input_schema": {"type": "object"},
              "annotations": {"read_only": True}}]
    transcript = response({"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "dice", "tools": tools})
    listed = transcript.messages[0]
    assert (listed.role, listed.name, listed.content_type) == ("system", "mcp_list_tools", "json")
    assert json.loads(listed.content) == {"server_label": "dice", "tools": tools}
    assert shown(transcript) == [] and transcript.diagnostics == ()


def test_an_mcp_approval_request_and_its_response_are_hidden_entries_named_after_them():
    asked = response({"type": "mcp_approval_request", "id": "mcpr_1", "server_label": "wiki", "name": "publish",
                      "arguments": "{\"title\": \"Rounding\"}"})
    answered = request({"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": False,
                        "reason": "Not before review."}, previous_response_id="resp_1")
    for transcript, kind in ((asked, "mcp_approval_request"), (answered, "mcp_approval_response")):
        assert [(m.role, m.name) for m in transcript.messages] == [("system", kind)]
        assert shown(transcript) == [] and transcript.diagnostics == ()
    assert json.loads(asked.messages[0].content)["arguments"] == '{"title": "Rounding"}'
    assert json.loads(answered.messages[0].content)["reason"] == "Not before review."


def test_a_response_s_model_status_and_usage_are_the_meta_of_its_output_usage_on_the_last_message():
    transcript = response({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"}]},
                          {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "b"}]},
                          model="gpt-5-2025-08-07", status="completed",
                          usage={"input_tokens": 10, "input_tokens_details": {"cached_tokens": 4}, "output_tokens": 3})
    first, last = (message.meta for message in transcript.messages)
    assert (first.model, first.stop_reason, first.response, first.usage) == ("gpt-5-2025-08-07", "completed",
                                                                            "resp_1", None)
    assert (last.usage.input, last.usage.cache_read, last.usage.output) == (6, 4, 3)


def test_unknown_item_is_a_hidden_message_named_by_a_diagnostic():
    transcript = response({"type": "telepathy", "thought": "secret"})
    message = transcript.messages[0]
    assert (message.role, message.channel, json.loads(message.content)["thought"]) == ("unknown", "telepathy",
                                                                                       "secret")
    assert "'telepathy'" in only(transcript, "W-JSON-UNKNOWN-ITEM").message
    assert shown(transcript) == []


def test_request_input_as_text_is_the_user_s_message():
    transcript = parse(json.dumps({"model": "gpt-5", "instructions": "Be brief.", "input": "Hi!"}))
    assert [(m.role, m.content) for m in transcript.messages] == [("system", "Be brief."), ("user", "Hi!")]


def test_input_image_is_a_placeholder_in_the_user_s_message():
    transcript = request({"role": "user", "content": [
        {"type": "input_text", "text": "Look:"},
        {"type": "input_image", "image_url": "data:image/jpeg;base64,QUJDRA=="},
        {"type": "input_file", "filename": "a.pdf", "file_data": "data:application/pdf;base64,QUJD"}]})
    assert transcript.messages[0].content == (f"Look:\n[image: image/jpeg, 4 bytes, sha256 e12e115acf45, "
                                              f"{NOT_RASTER}]\n[file: a.pdf, application/pdf, 3 bytes]")


def test_phase_commentary_is_hidden_and_final_answer_shown():
    transcript = request(*({"type": "message", "role": "assistant", "phase": phase, "content": [
        {"type": "output_text", "text": phase}]} for phase in ("commentary", "final_answer")))
    assert [m.channel for m in transcript.messages] == ["commentary", "final"]
    assert shown(transcript) == ["final_answer"]


def test_an_item_holding_an_output_list_is_one_element_not_an_envelope():
    item = {"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text", "text": "ok"}]}
    transcript = parse(json.dumps(item))
    assert [(m.role, m.content) for m in transcript.messages] == [("tool", "ok")]
