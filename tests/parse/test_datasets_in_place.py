"""A dataset's conversations are read where they stand in the file (json.parse_json_within), to exactly what
reading a copy of each and moving its spans gives: the same messages, spans, frame, diagnostics and pairs."""
from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.parse import parse

PARSE = importlib.import_module("viewer.parse")  # the package: `viewer.parse` is also the function
TEXT = st.sampled_from(["Hi", "caf\u00e9", "a\nb", "\\ud800", "<think>r</think>a", ""])
MESSAGE = st.fixed_dictionaries({"role": st.sampled_from(["system", "user", "assistant", "tool", "robot"])},
                                optional={"content": st.none() | TEXT, "reasoning_content": TEXT,
                                          "tool_call_id": st.sampled_from(["c1", "c2"]),
                                          "tool_calls": st.just([{"id": "c1", "function": {"name": "f",
                                                                                          "arguments": "{}"}}])})
CONVERSATION = st.one_of(
    st.fixed_dictionaries({"messages": st.lists(MESSAGE, max_size=4)},
                          optional={"tools": st.just([{"type": "function", "function": {"name": "f"}}]),
                                    "system": TEXT, "id": st.integers(0, 9)}),
    st.fixed_dictionaries({"conversations": st.lists(st.fixed_dictionaries(
        {"from": st.sampled_from(["human", "gpt"]), "value": TEXT}), max_size=3)}))
LINE = st.one_of(CONVERSATION.map(json.dumps), CONVERSATION.map(lambda c: json.dumps(c, indent=1)),
                 st.sampled_from(['{"messages": [', "not json", '{"messages": []} extra', "[1, 2]", "7"]))


@st.composite
def datasets(draw):
    conversations = draw(st.lists(CONVERSATION, min_size=2, max_size=4))
    if draw(st.booleans()):  # JSON Lines, now and then a broken line
        lines = [json.dumps(conversations[0]), *draw(st.lists(LINE, min_size=1, max_size=4))]
        return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    separator = draw(st.sampled_from([", ", ",\n", " ,  "]))
    return "[" + separator.join(json.dumps(c, indent=draw(st.sampled_from([None, 1]))) for c in conversations) + \
        draw(st.sampled_from(["]", "", "] x", ", {"]))


def _read(text, monkeypatch, in_place: bool):
    if not in_place:
        monkeypatch.setattr(PARSE, "_read_json_within", lambda text, span, options: None)
    transcript = parse(text)
    monkeypatch.undo()
    conversations = transcript.conversations or (transcript,)
    return (transcript.to_json(), transcript.frame,
            [(c.messages, c.frame, c.diagnostics, c.header, c.tools, c.source is transcript.source)
             for c in conversations])


@settings(max_examples=300, deadline=None)
@given(datasets())
def test_conversations_read_in_place_as_read_from_a_copy(text):
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _read(text, monkeypatch, in_place=True) == _read(text, monkeypatch, in_place=False)
