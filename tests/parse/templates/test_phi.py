"""Phi: both turn spellings, tool definitions, <|tool_call|> lists, and reasoning."""
from __future__ import annotations

import json

from tests.parse.helpers import codes
from viewer.parse import parse


def test_phi3_turns_with_line_breaks_after_the_role():
    transcript = parse("<|system|>\nBe kind.<|end|>\n<|user|>\nHi<|end|>\n<|assistant|>\nHello<|end|>\n<|endoftext|>")
    assert [(m.role, m.content) for m in transcript.messages] == [("system", "Be kind."), ("user", "Hi"),
                                                                  ("assistant", "Hello")]
    assert transcript.dialect == "phi" and codes(transcript) == []


def test_phi4_im_sep_turns_with_reasoning():
    transcript = parse("<|im_start|>user<|im_sep|>2+2?<|im_end|>"
                       "<|im_start|>assistant<|im_sep|><think>Add.</think>4<|im_end|>")
    assert [(m.role, m.channel, m.content) for m in transcript.messages] == [
        ("user", "final", "2+2?"), ("assistant", "analysis", "Add."), ("assistant", "final", "4")]


def test_tools_are_declared_and_a_call_list_pairs_with_tool_turns():
    tools = json.dumps([{"name": "w", "parameters": {"type": "object"}}])
    call = json.dumps([{"name": "w", "arguments": {"c": "Paris"}}, {"name": "w", "arguments": {"c": "Lyon"}}])
    transcript = parse(f"<|system|>Tools.<|tool|>{tools}<|/tool|><|end|><|user|>Both?<|end|>"
                       f"<|assistant|><|tool_call|>{call}<|/tool_call|><|end|>"
                       "<|tool|>18<|end|><|tool|>21<|end|><|assistant|>Lyon is warmer.<|end|>")
    assert "functions.w" in transcript.tools
    assert [json.loads(m.content)["c"] for m in transcript.messages if m.is_call] == ["Paris", "Lyon"]
    assert [(pair.call, pair.reply) for pair in transcript.pairs] == [(2, 4), (3, 5)]


def test_a_tool_call_token_after_answer_text_is_text():
    transcript = parse('<|assistant|>Use <|tool_call|>[{"name": "f", "arguments": {}}]<|/tool_call|> to call.<|end|>')
    assert [(m.channel, m.recipient) for m in transcript.messages] == [("final", None)]
