"""gemini_plain.read_plain reads contents of text and thought parts and function calls, or of a function
response, to exactly what the general reader (read_content) makes of them: the same messages, spans, frame and
diagnostics, whatever the parts, roles and spacing."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.helpers import read_both_ways
from viewer.parse.json import gemini_plain

TEXTS = st.sampled_from(["", "Hi", "a\nb", 'say "x"', "café", "<think>r</think>a", "</think>", " "])
ODD_PART = st.fixed_dictionaries({}, optional={"text": TEXTS | st.none() | st.integers(0, 1),
                                           "thought": st.sampled_from([None, True, False]),
                                           "thoughtSignature": st.sampled_from([None, "S"]),
                                           "inline_data": st.sampled_from([None, {"data": "QUJD"}])})
RESPONSE = st.fixed_dictionaries({"functionResponse": st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["f", "", None, 3]), "id": st.sampled_from(["c1", None, 2]),
    "response": st.sampled_from([{"r": 1}, {"error": "no"}, {"error": None}, "text", None])})})
CALL = st.fixed_dictionaries({"functionCall": st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["f", "", None]), "id": st.sampled_from(["c1", None, 2]),
    "args": st.sampled_from([{"a": 1}, None, {}])})}, optional={"thoughtSignature": st.sampled_from(["S", None, 1])})
PART = st.sampled_from([True] * 4 + [False, "response", "call"]).flatmap(
    lambda plain: st.fixed_dictionaries({"text": TEXTS}, optional={"thought": st.sampled_from([None, False, True])})
    if plain is True else RESPONSE if plain == "response" else CALL if plain == "call" else ODD_PART)
"""Mostly the text and thought parts, function calls and responses read_plain takes (some as an SDK dump writes
them, with a null or false `thought`)."""
CONTENT = st.fixed_dictionaries({"parts": st.lists(PART, max_size=3)}, optional={
    "role": st.sampled_from(["user", "model", "function", "tool", None]), }) | st.fixed_dictionaries(
    {"parts": st.lists(PART, max_size=3) | st.sampled_from([None, "x"])},
    optional={"role": st.sampled_from(["user", "critic", 3]), "extra": st.just(1)})


@settings(max_examples=300, deadline=None)
@given(contents=st.lists(CONTENT, max_size=4), indent=st.sampled_from([None, 1]),
       separators=st.sampled_from([None, (",", ":")]), role_first=st.booleans())
def test_plain_contents_read_as_the_general_reader_reads_them(contents, indent, separators, role_first):
    if role_first:  # as producers write a content (read_plain's own walk of its parts); else the role comes last
        contents = [{"role": content["role"], **content} if "role" in content else content
                    for content in contents]
    text = json.dumps({"contents": contents}, indent=indent, separators=separators)
    fast, general = read_both_ways(text, gemini_plain, "read_plain")
    assert fast == general


ODD_WRITING = [
    '{"role": "model", "parts": [{"text": "old"}], "parts": [{"text": "a", "thought": true}, {"text": "b"}]}',
    '{"role": "model", "parts": [{"text": "a", "thought": true}, {"text": "b"}], '
    '"parts": [{"text": "c", "thought": true}, {"text": "d"}]}',
    '{"role": "user", "role": "model", "parts": [{"text": "a", "thought": true}, {"text": "b"}]}',
    '{"parts": [{"text": "a", "thought": true}, {"text": "b"}], "role": "model"}',
    '{"r\\u006fle": "model", "parts": [{"text": "a", "thought": true}, {"text": "b"}]}',
    '{ "role" : null ,\n "parts" : [ {"text": "a", "thought": true} ,\n {"text": "b"} ] }',
]


def test_contents_written_oddly_read_as_the_general_reader_reads_them():
    for content in ODD_WRITING:
        fast, general = read_both_ways('{"contents": [%s]}' % content, gemini_plain, "read_plain")
        assert fast == general, content
