"""A LangChain message whose plain view gives several messages (reasoning beside text or calls) is read by plain.py
with the spans langchain.view_spans finds, to exactly what the general reading (read_lc_message) makes of it: the
same messages, spans, frame, diagnostics and pairs, in each of LangChain's three spellings, whatever the fields and
the spacing; a message whose spans it cannot give is left to that reading."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tests.parse.json.test_plain import TEXTS, _sometimes
from viewer.parse import parse
from viewer.parse.json import langchain

CALL = st.fixed_dictionaries({"name": st.sampled_from(["search", "browser.open", ""]),
                              "args": st.sampled_from([{"q": "x"}, {}, "raw"])},
                             optional={"id": st.sampled_from(["c1", "c2", None]), "type": st.just("tool_call")})
EXTRA = st.fixed_dictionaries({}, optional={
    "reasoning_content": _sometimes(TEXTS, st.sampled_from([None, 3])),
    "tool_calls": st.sampled_from([None, [{"id": "p1", "type": "function",
                                           "function": {"name": "f", "arguments": "{}"}}]]),
    "reasoning": st.sampled_from([None, {"summary": [{"type": "summary_text", "text": "s"}]}])})
BLOCKS = st.sampled_from([None, [{"type": "text", "text": "b"}]])
FIELDS = st.fixed_dictionaries({"content": _sometimes(TEXTS, BLOCKS)},
                               optional={"additional_kwargs": EXTRA,
                                         "tool_calls": _sometimes(st.lists(CALL, max_size=2), st.just(["x"])),
                                         "invalid_tool_calls": st.sampled_from([[], [{"name": "f", "args": "{"}]]),
                                         "id": st.just("m1"), "name": st.sampled_from(["bob", None]),
                                         "tool_call_id": st.sampled_from(["c1", None]),
                                         "status": st.sampled_from(["success", "error"])})
KIND = st.sampled_from(["ai"] * 4 + ["human", "tool", "system"])
CLASS = {"ai": "AIMessage", "human": "HumanMessage", "tool": "ToolMessage", "system": "SystemMessage"}


@st.composite
def messages(draw):
    kind, fields, spelling = draw(KIND), draw(FIELDS), draw(st.sampled_from(["dict", "dumpd", "fields"]))
    if spelling == "dict":
        return {"type": kind, "data": {**fields, "type": kind}}
    if spelling == "dumpd":
        return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", CLASS[kind]],
                "kwargs": {**fields, "type": kind}}
    return {"type": kind, **fields}


def _read(text: str, fast: bool):
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(langchain, "view_spans", lambda *args: None)
        transcript = parse(text, "json")
    return transcript.to_json(), [(s.kind, s.text, s.span) for s in transcript.frame]


@settings(max_examples=400, deadline=None)
@given(elements=st.lists(messages(), min_size=1, max_size=4),
       separators=st.sampled_from([(",", ":"), (", ", ": "), (" ,\n ", " :\t")]), ascii=st.booleans())
def test_langchain_messages_read_as_the_general_reading_reads_them(elements, separators, ascii):
    text = json.dumps(elements, separators=separators, ensure_ascii=ascii)
    assert _read(text, fast=True) == _read(text, fast=False)
