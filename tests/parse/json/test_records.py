"""API records (viewer/parse/json/shapes.py, level `record`, and its shape modules): Gemini, Chat Completions responses, batch
lines, Ollama and preference pairs read into the right roles, channels, calls, pairs and header."""
from __future__ import annotations

import json

from tests.parse.helpers import assert_accounted_for, codes, only
from viewer import parse
from viewer.policy.projection import SHOWN_IN_FULL, Projection

NOT_RASTER = "not shown: not a PNG, JPEG, GIF or WebP image"
"""How a placeholder says its inline data is no image the viewer shows."""


def shown(transcript) -> list[str]:
    return [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions()) if d.show_as in SHOWN_IN_FULL]


def summary(transcript) -> list[tuple]:
    return [(m.role, m.channel, m.recipient or m.name, m.content) for m in transcript.messages]


# -- Gemini ---------------------------------------------------------------------------------------------------

REST = {"systemInstruction": {"parts": [{"text": "Be terse."}]}, "contents": [
    {"role": "user", "parts": [{"text": "Weather?"}]},
    {"role": "model", "parts": [{"text": "Plan.", "thought": True},
                                {"functionCall": {"id": "f1", "name": "weather", "args": {"city": "Oslo"}},
                                 "thoughtSignature": "SIGNATURE"}]},
    {"role": "user", "parts": [{"functionResponse": {"id": "f1", "name": "weather", "response": {"t": 4}}}]},
    {"role": "model", "parts": [{"text": "4 °C."}]}]}


def _sdk(value):
    """The REST request as the Python SDK dumps it: snake_case keys, every part field written, most null."""
    fields = ("video_metadata", "thought", "inline_data", "file_data", "thought_signature",
              "code_execution_result", "executable_code", "function_call", "function_response", "text")
    snake = {"functionCall": "function_call", "functionResponse": "function_response",
             "thoughtSignature": "thought_signature", "systemInstruction": "system_instruction"}
    if isinstance(value, list):
        return [_sdk(item) for item in value]
    if not isinstance(value, dict):
        return value
    renamed = {snake.get(key, key): _sdk(item) for key, item in value.items()}
    if "parts" not in renamed and any(key in fields for key in renamed):
        return {key: renamed.get(key) for key in fields}
    return renamed


def test_gemini_contents_read_into_roles_channels_calls_and_pairs():
    transcript = parse(json.dumps(REST))
    assert summary(transcript) == [
        ("system", "final", None, "Be terse."), ("user", "final", None, "Weather?"),
        ("assistant", "analysis", None, "Plan."), ("assistant", "commentary", "functions.weather", '{"city": "Oslo"}'),
        ("tool", "commentary", "functions.weather", '{"t": 4}'), ("assistant", "final", None, "4 °C.")]
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(3, 4, "call_id")]
    assert shown(transcript) == ["Weather?", "4 °C."]


def test_gemini_sdk_dumps_read_as_the_rest_api_does():
    rest, sdk = parse(json.dumps(REST)), parse(json.dumps(_sdk(REST)))
    assert summary(sdk) == summary(rest)
    assert codes(sdk) == codes(rest)


def test_a_thought_signature_is_opaque_data_never_text():
    transcript = parse(json.dumps(REST))
    assert "SIGNATURE" not in "".join(m.content for m in transcript.messages)
    assert only(transcript, "W-JSON-OPAQUE-DATA").message_index == 3


def test_a_signed_answer_is_shown_and_a_signature_alone_is_hidden():
    transcript = parse(json.dumps({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Answer.", "thoughtSignature": "S1"}, {"thoughtSignature": "S2"}]}}]}))
    assert shown(transcript) == ["Answer."]
    assert [m.channel for m in transcript.messages] == ["final", "analysis"]


def test_gemini_code_execution_is_a_call_and_reply_of_the_built_in_tool():
    transcript = parse(json.dumps({"contents": [{"role": "model", "parts": [
        {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
        {"codeExecutionResult": {"outcome": "OUTCOME_FAILED", "output": "boom"}}]}]}))
    assert summary(transcript) == [("assistant", "commentary", "code_execution", "print(1)"),
                                   ("tool", "commentary", "code_execution", "boom")]
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 1)]
    assert "W-TOOL-ERROR" in codes(transcript)


def test_gemini_media_are_placeholders_and_unknown_parts_are_hidden():
    text = json.dumps({"contents": [{"parts": [
        {"text": "Look:"}, {"inlineData": {"mimeType": "image/png", "data": "QUJDREVGR0g="}},
        {"futurePart": {"secret": "X"}}]}]})
    transcript = parse(text)
    assert shown(transcript) == [f"Look:\n[image: image/png, 8 bytes, sha256 9ac2197d9258, {NOT_RASTER}]"]
    assert "QUJDREVGR0g=" not in transcript.messages[0].content
    assert "W-JSON-UNKNOWN-PART" in codes(transcript)
    assert_accounted_for(transcript, text)


def test_a_blocked_gemini_prompt_is_an_api_error():
    transcript = parse(json.dumps({"candidates": [], "promptFeedback": {"blockReason": "SAFETY"}}))
    assert transcript.messages == () and codes(transcript) == ["W-API-ERROR"]


# -- Chat Completions responses and batches --------------------------------------------------------------------

def test_a_chat_completion_response_reads_its_choice_and_keeps_the_rest_as_header():
    transcript = parse(json.dumps({"id": "c1", "object": "chat.completion", "model": "m", "usage": {"total_tokens": 3},
                                   "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                       "role": "assistant", "content": "Hi.", "reasoning_content": "R"}}]}))
    assert summary(transcript) == [("assistant", "analysis", None, "R"), ("assistant", "final", None, "Hi.")]
    assert transcript.header == {"id": "c1", "object": "chat.completion", "model": "m", "usage": {"total_tokens": 3}}


def test_reasoning_details_are_analysis_and_encrypted_details_opaque():
    transcript = parse(json.dumps({"choices": [{"message": {"role": "assistant", "content": "A", "reasoning": "R",
                                                            "reasoning_details": [
                                                                {"type": "reasoning.text", "text": "R"},
                                                                {"type": "reasoning.summary", "summary": "S"},
                                                                {"type": "reasoning.encrypted", "data": "ENC"}]}}]}))
    assert [m.channel for m in transcript.messages] == ["analysis", "analysis", "analysis", "final"]
    assert "ENC" not in "".join(m.content for m in transcript.messages)
    assert shown(transcript) == ["A"]


def test_a_reasoning_detail_whose_type_is_no_text_is_an_unknown_part_hidden_by_default():
    for kind in ([], {"a": 1}, 3, None):
        transcript = parse(json.dumps({"messages": [{"role": "assistant", "content": "A", "reasoning_details": [
            {"type": kind, "text": "secret"}]}]}))
        assert [d.code for d in transcript.diagnostics] == ["W-JSON-UNKNOWN-PART"]
        assert shown(transcript) == ["A"]


def test_batch_lines_keep_their_custom_id_in_each_conversation_header():
    lines = [{"custom_id": f"r{n}", "method": "POST", "url": "/v1/chat/completions",
              "body": {"model": "m", "messages": [{"role": "user", "content": f"Q{n}"}]}} for n in (1, 2)]
    dataset = parse("".join(json.dumps(line) + "\n" for line in lines))
    assert [c.header["custom_id"] for c in dataset.conversations] == ["r1", "r2"]
    assert [c.messages[0].content for c in dataset.conversations] == ["Q1", "Q2"]


def test_a_failed_batch_line_is_an_api_error():
    for line in ({"id": "b", "custom_id": "r", "response": None, "error": {"code": "x", "message": "expired"}},
                 {"custom_id": "r", "response": {"status_code": 429, "body": {"error": {"message": "slow down"}}}},
                 {"custom_id": "r", "result": {"type": "expired"}}):
        transcript = parse(json.dumps(line))
        assert codes(transcript) == ["W-API-ERROR"], line
        assert transcript.header["custom_id"] == "r"


# -- Ollama ---------------------------------------------------------------------------------------------------

def _chunk(done=False, **message):
    return json.dumps({"model": "q", "message": {"role": "assistant", "content": "", **message}, "done": done})


def test_an_ollama_stream_is_one_turn_of_reasoning_text_and_calls():
    text = "\n".join([_chunk(thinking="Th"), _chunk(thinking="ink"), _chunk(content="Hel"), _chunk(content="lo"),
                      _chunk(tool_calls=[{"function": {"name": "f", "arguments": {"a": 1}}}]), _chunk(done=True)])
    transcript = parse(text)
    assert summary(transcript) == [("assistant", "analysis", None, "Think"), ("assistant", "final", None, "Hello"),
                                   ("assistant", "commentary", "functions.f", '{"a": 1}')]
    assert {m.turn for m in transcript.messages} == {0}
    assert_accounted_for(transcript, text)


def test_an_ollama_stream_without_done_is_cut_short():
    transcript = parse("\n".join([_chunk(content="Hel"), _chunk(content="lo")]) + "\n")
    assert [m.end for m in transcript.messages] == ["eof"]
    assert "E-STREAM-TRUNCATED" in codes(transcript)


def test_an_ollama_tool_reply_is_named_by_tool_name_and_paired_by_name():
    transcript = parse(json.dumps({"model": "q", "messages": [
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {}}}]},
        {"role": "tool", "content": "r", "tool_name": "f"},
        {"role": "user", "content": "pic", "images": ["QUJD"]}]}))
    assert transcript.messages[1].name == "functions.f"
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(0, 1, "name")]
    assert transcript.messages[2].content == f"pic\n[image: 3 bytes, sha256 b5d4045c3f46, {NOT_RASTER}]"


# -- Preference pairs -----------------------------------------------------------------------------------------

def test_a_preference_pair_shows_the_prompt_and_chosen_answer_and_hides_the_rejected_one():
    transcript = parse(json.dumps({"prompt": [{"role": "user", "content": "Q"}],
                                   "chosen": [{"role": "assistant", "content": "Good"}],
                                   "rejected": [{"role": "assistant", "content": "Bad"}], "score_chosen": 9}))
    assert [(m.content, m.intent) for m in transcript.messages] == [("Q", None), ("Good", "chosen"),
                                                                    ("Bad", "rejected")]
    assert shown(transcript) == ["Q", "Good"]
    assert [d.show_as for d in Projection.of(transcript).decisions("debug")] == ["message", "message", "message"]
    assert transcript.header == {"score_chosen": 9}


def test_an_openai_preference_record_reads_input_and_both_outputs():
    transcript = parse(json.dumps({"input": {"messages": [{"role": "user", "content": "Q"}], "tools": [
        {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]},
        "preferred_output": [{"role": "assistant", "content": "Good"}],
        "non_preferred_output": [{"role": "assistant", "content": "Bad"}]}))
    assert shown(transcript) == ["Q", "Good"]
    assert transcript.messages[2].intent == "rejected"
    assert "functions.f" in transcript.tools


def test_gemini_function_declarations_are_declared_tools_whose_schema_checks_calls():
    schema = {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}, "required": ["city"], "enum": None}
    request = {"tools": [{"functionDeclarations": [{"name": "weather", "parameters": schema}]}], "contents": [
        {"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {"town": "Oslo"}}}]}]}
    transcript = parse(json.dumps(request))
    assert transcript.tools == {"functions.weather": {"type": "object", "properties": {"city": {"type": "string"}},
                                                      "required": ["city"]}}
    assert "E-CALL-SCHEMA" in codes(transcript)
    sdk = {"contents": request["contents"], "config": {"tools": [{"function_declarations": [
        {"name": "weather", "parameters": schema, "description": None}]}]}}
    assert parse(json.dumps(sdk)).tools == transcript.tools


def test_a_prompt_that_the_chosen_conversation_repeats_is_read_once():
    transcript = parse(json.dumps({"prompt": "Q", "prompt_id": "p1",
                                   "chosen": [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}],
                                   "rejected": [{"role": "user", "content": "Q"},
                                                {"role": "assistant", "content": "B"}],
                                   "messages": [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}],
                                   "score_chosen": 8.0, "score_rejected": 3.0}))
    assert shown(transcript) == ["Q", "A"]
    assert transcript.header == {"prompt_id": "p1", "score_chosen": 8.0, "score_rejected": 3.0}


def test_a_sharegpt_preference_record_keeps_its_conversation_as_the_prompt():
    transcript = parse(json.dumps({"conversations": [{"from": "human", "value": "Q"}],
                                   "chosen": {"from": "gpt", "value": "A"},
                                   "rejected": {"from": "gpt", "value": "B"}}))
    assert [(m.role, m.content, m.intent) for m in transcript.messages] == [
        ("user", "Q", None), ("assistant", "A", "chosen"), ("assistant", "B", "rejected")]
    assert shown(transcript) == ["Q", "A"]


def test_a_gemini_sdk_request_reads_its_system_instruction_first():
    transcript = parse(json.dumps({"model": "gemini", "contents": [{"role": "user", "parts": [{"text": "Q"}]}],
                                   "config": {"system_instruction": "Be brief.", "temperature": 0.2}}))
    assert [(m.role, m.content) for m in transcript.messages] == [("system", "Be brief."), ("user", "Q")]
    assert transcript.header == {"model": "gemini", "temperature": 0.2}


# -- What a response says of itself -----------------------------------------------------------------------------

def test_a_completion_s_model_id_finish_reasons_and_usage_are_each_choice_s_meta():
    transcript = parse(json.dumps({
        "id": "gen-1764", "object": "chat.completion", "model": "anthropic/claude-sonnet-4", "provider": "Anthropic",
        "choices": [{"index": 0, "finish_reason": "stop", "native_finish_reason": "end_turn",
                     "logprobs": {"content": [{"token": "Hi", "logprob": -0.1}]},
                     "message": {"role": "assistant", "content": "Hi"}}],
        "usage": {"prompt_tokens": 14, "completion_tokens": 30, "cost": 0.0005,
                  "prompt_tokens_details": {"cached_tokens": 4}}}))
    meta = transcript.messages[0].meta
    assert (meta.model, meta.stop_reason, meta.response) == ("anthropic/claude-sonnet-4", "stop (native: end_turn)",
                                                             "gen-1764")
    assert (meta.usage.input, meta.usage.cache_read, meta.usage.output, meta.usage.cost) == (10, 4, 30, 0.0005)
    assert transcript.header["provider"] == "Anthropic"
    assert transcript.header["choice 0"] == {"logprobs": {"content": [{"token": "Hi", "logprob": -0.1}]}}


def test_a_gemini_response_s_model_version_and_finish_reason_are_its_candidate_s_meta():
    transcript = parse(json.dumps({
        "candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP",
                        "safetyRatings": [{"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"}]}],
        "modelVersion": "gemini-2.5-flash", "responseId": "w8Kx",
        "usageMetadata": {"promptTokenCount": 14, "candidatesTokenCount": 5, "thoughtsTokenCount": 9}}))
    meta = transcript.messages[0].meta
    assert (meta.model, meta.stop_reason, meta.response, meta.usage.output) == ("gemini-2.5-flash", "STOP", "w8Kx", 14)
    assert transcript.header["candidate 0"]["safetyRatings"][0]["probability"] == "NEGLIGIBLE"


def test_an_ollama_response_s_model_time_reason_and_counts_are_its_meta():
    transcript = parse(json.dumps({"model": "qwen3:8b", "created_at": "2025-11-26T19:40:12Z", "done": True,
                                   "done_reason": "stop", "prompt_eval_count": 180, "eval_count": 62,
                                   "message": {"role": "assistant", "content": "Hi"}}))
    meta = transcript.messages[0].meta
    assert (meta.model, meta.stop_reason, meta.usage.input, meta.usage.output) == ("qwen3:8b", "stop", 180, 62)
