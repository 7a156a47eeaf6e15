"""Mistral: every tokenizer version's call and result shapes, sentencepiece spacing, [THINK] only at the start."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from viewer.parse import parse


def test_v1_spacing_is_not_content():
    transcript = parse("<s> [INST] Hi [/INST] Hello</s> [INST] More [/INST]")
    assert [(m.role, m.content) for m in transcript.messages] == [("user", "Hi"), ("assistant", "Hello"),
                                                                  ("user", "More")]
    assert [segment.kind for segment in transcript.frame] == ["bos", "generation_prompt"]


def test_v3_json_calls_pair_with_results_by_call_id():
    transcript = parse('[INST] Paris?[/INST][TOOL_CALLS] [{"name": "w", "arguments": {"c": "Paris"}, '
                       '"id": "abcDEF123"}]</s>[TOOL_RESULTS] {"content": 22, "call_id": "abcDEF123"}[/TOOL_RESULTS]'
                       ' 22 °C.</s>')
    call, reply = transcript.messages[1:3]
    assert (call.recipient, call.call_id, json.loads(call.content)) == ("functions.w", "abcDEF123", {"c": "Paris"})
    assert (reply.role, reply.call_id, reply.content) == ("tool", "abcDEF123", "22")
    assert [pair.by for pair in transcript.pairs] == ["call_id"]


def test_v11_and_v13_named_calls():
    v11 = parse('[INST]Rome?[/INST][TOOL_CALLS]w[CALL_ID]a1b2c3d4e[ARGS]{"c": "Rome"}</s>'
                '[TOOL_RESULTS]a1b2c3d4e[TOOL_CONTENT]19[/TOOL_RESULTS]19 °C.</s>')
    v13 = parse('[INST]Rome?[/INST][TOOL_CALLS]w[ARGS]{"c": "Rome"}[TOOL_CALLS]w[ARGS]{"c": "Pisa"}</s>'
                '[TOOL_RESULTS]19[/TOOL_RESULTS][TOOL_RESULTS]21[/TOOL_RESULTS]Both warm.</s>')
    assert [(m.recipient, m.call_id) for m in v11.messages if m.is_call] == [("functions.w", "a1b2c3d4e")]
    assert [pair.by for pair in v11.pairs] == ["call_id"]
    assert [json.loads(m.content) for m in v13.messages if m.is_call] == [{"c": "Rome"}, {"c": "Pisa"}]
    assert [(pair.call, pair.reply, pair.by) for pair in v13.pairs] == [(1, 3, "order"), (2, 4, "order")]


def test_think_is_reasoning_at_the_start_of_an_answer_and_text_in_a_system_prompt():
    transcript = parse("[SYSTEM_PROMPT]Think in [THINK]…[/THINK] first.[/SYSTEM_PROMPT]"
                       "[INST]2+2?[/INST][THINK]Easy.[/THINK]4</s>")
    assert [(m.role, m.channel, m.content) for m in transcript.messages] == [
        ("system", "final", "Think in [THINK]…[/THINK] first."), ("user", "final", "2+2?"),
        ("assistant", "analysis", "Easy."), ("assistant", "final", "4")]


def test_without_a_system_prompt_token_the_first_user_turn_may_hold_one():
    transcript = parse("[INST] Be a pirate.\n\nHi [/INST] Arr!</s>")
    assert only(transcript, "W-FOLDED-TEXT").message_index == 0
    assert codes(parse("[SYSTEM_PROMPT]x[/SYSTEM_PROMPT][INST] A\n\nB [/INST]")) == []


def test_available_tools_declare_and_stay_hidden_as_a_system_message():
    tools = json.dumps([{"type": "function", "function": {"name": "w", "parameters": {"type": "object"}}}])
    transcript = parse(f"[AVAILABLE_TOOLS]{tools}[/AVAILABLE_TOOLS][INST]Hi[/INST]")
    assert (transcript.messages[0].role, transcript.messages[0].name) == ("system", "available_tools")
    assert "functions.w" in transcript.tools
