"""plain.py reads plain ChatML envelopes to exactly what the general reader makes of them: the same messages,
spans, segments, diagnostics, tools and pairs, whatever stands in and between the envelopes."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.parse import parse
from viewer.parse.chatml import envelopes

CALL = json.dumps({"name": "get_weather", "arguments": {"city": "Paris"}})
TOOLS = json.dumps({"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}})
PART = st.sampled_from([
    "Hello", "two\nlines", "a < b", "[x]", "[BOS]", "<s>strike</s>", "`<think>`", "\r\n", "\n", "\n\n", " ", "",
    "<think>\nreason\n</think>\n\n", "<think></think>", "<think>\nopen", "</think>", "<think>a</think>b</think>",
    f"<tool_call>\n{CALL}\n</tool_call>", f"<tool_call>{CALL}{CALL}</tool_call>", "<tool_call>\nnot json\n</tool_call>",
    '<tool_call>{"name": "f"}</tool_call>', f"<tool_call>{CALL}", "</tool_call>",
    '<tool_response>\n{"name": "get_weather", "temperature": 21}\n</tool_response>',
    "<tool_response>text</tool_response>",
    "<tool_response>\n21\n</tool_response>", "<tool_response>", f"<tools>\n{TOOLS}\n</tools>", "<tools>\nbad\n</tools>",
    "<tools></tools>", "<|reflect|>", "<|im_start|>", "`<tool_call>`",
])
HEADER = st.sampled_from(["system", "user", "assistant", "tool", "assistant name=bot", "user\r", "robot", ""])


BLANK = st.sampled_from(["", "\n", "\n\n", " ", "\r\n"])
TEMPLATE_BODY = st.one_of(  # what chat templates write: reasoning, calls and an answer; replies
    st.tuples(st.sampled_from(["<think>\nwhy\n</think>", "<think></think>", "<think>\n\n</think>", ""]), BLANK,
              st.lists(st.tuples(st.sampled_from([f"<tool_call>\n{CALL}\n</tool_call>", f"<tool_call>{CALL} {CALL}"
                                                  "</tool_call>"]), BLANK), max_size=3),
              st.sampled_from(["", "The answer.", "\nIt is 21 °C.", " "])).map(
        lambda parts: parts[0] + parts[1] + "".join(a + b for a, b in parts[2]) + parts[3]),
    st.lists(st.tuples(BLANK, st.sampled_from(['<tool_response>\n{"name": "get_weather", "t": 1}\n</tool_response>',
                                               "<tool_response>21</tool_response>"])), min_size=1, max_size=3).map(
        lambda parts: "".join(a + b for a, b in parts)))


@st.composite
def transcripts(draw):
    text = ""
    for _ in range(draw(st.integers(1, 5))):
        text += draw(st.sampled_from(["", "\n", "  \n", "stray", "<s>"]))
        body = draw(TEMPLATE_BODY | st.lists(PART, max_size=4).map("".join))
        text += f"<|im_start|>{draw(HEADER)}\n{body}" + draw(st.sampled_from(["<|im_end|>", "\n<|im_end|>", ""]))
    return text + draw(st.sampled_from(["", "\n"]))


def _read(text, monkeypatch, fast: bool):
    if not fast:
        monkeypatch.setattr(envelopes, "read_plain", lambda reader, position: position)
    transcript = parse(text, "chatml")
    monkeypatch.undo()
    return (transcript.to_json(), [(m.span, m.header, m.segments) for m in transcript.messages],
            transcript.frame, transcript.tools)


@settings(max_examples=500, deadline=None)
@given(transcripts())
def test_plain_envelopes_read_as_the_general_reader_reads_them(text):
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _read(text, monkeypatch, fast=True) == _read(text, monkeypatch, fast=False)
