"""inspect_messages.read_plain reads an assistant's message of reasoning and text parts and tool calls to exactly
what the general reader (read_inspect_message) makes of it: the same messages, spans, frame and diagnostics,
whatever the parts, calls and spacing."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.helpers import read_both_ways
from viewer.parse.json import inspect_log

TEXTS = st.sampled_from(["", "Hi", "a\nb", 'say "x"', "café", "<think>r</think>a", "attachment://a1", " "])
PART = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": TEXTS | st.none()}, optional={"refusal": st.none()}),
    st.fixed_dictionaries({"type": st.just("reasoning"), "reasoning": TEXTS | st.integers(0, 1)}, optional={
        "signature": st.sampled_from(["S", None, "", 2]), "redacted": st.sampled_from([True, False]),
        "summary": st.sampled_from(["sum", None])}),
    st.fixed_dictionaries({"type": st.sampled_from(["image", "data", 3])}, optional={"image": st.just("x.png")}),
    st.sampled_from(["text", None]))
CALL = st.fixed_dictionaries({}, optional={
    "id": st.sampled_from(["c1", "c2", None, 3]), "function": st.sampled_from(["lookup", "", None, 4]),
    "arguments": st.sampled_from([{"q": "x"}, "raw", None, [1]]), "type": st.just("function"),
    "parse_error": st.sampled_from([None, "bad", 1])}) | st.sampled_from([None, "call"])
MESSAGE = st.fixed_dictionaries({"role": st.sampled_from(["assistant"] * 4 + ["user", "tool", "critic"]),
                                 "content": st.lists(PART, max_size=3) | TEXTS | st.none()},
                                optional={"id": st.just("m1"), "source": st.just("generate"),
                                          "tool_calls": st.lists(CALL, max_size=2) | st.none(),
                                          "name": st.sampled_from(["bob", None, 5]),
                                          "tool_call_id": st.just("c1"), "function": st.just("lookup")})


@settings(max_examples=300, deadline=None)
@given(messages=st.lists(MESSAGE, max_size=4), indent=st.sampled_from([None, 1]))
def test_plain_assistant_messages_read_as_the_general_reader_reads_them(messages, indent):
    sample = {"id": 1, "epoch": 1, "input": "q", "target": "t", "messages": messages, "scores": {}}
    text = json.dumps(sample, indent=indent)
    fast, general = read_both_ways(text, inspect_log, "read_plain")
    assert fast == general
