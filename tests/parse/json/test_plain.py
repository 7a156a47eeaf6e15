"""plain.py reads plain OpenAI chat elements to exactly what the general reader makes of them: the same messages,
spans, frame, diagnostics and pairs, whatever the values, the spacing and the container."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.parse import parse
from viewer.parse.json import builder, plain
from viewer.parse.json.positions import read_value

TEXTS = st.sampled_from(["", "Hi", "a\nb", 'say "x"', "café — ✓", "<think>r</think>a", "</think>", "\\u00e9", " "])
ANY = st.none() | st.booleans() | st.integers(-2, 2) | TEXTS | st.lists(TEXTS, max_size=2) | \
    st.dictionaries(st.sampled_from(["a", "text"]), TEXTS, max_size=2)


def _sometimes(good, bad=ANY):
    """Mostly `good` values, now and then anything (which mostly sends the element the general way)."""
    return st.sampled_from([True] * 9 + [False]).flatmap(lambda ok: good if ok else bad)


def _call():
    function = st.fixed_dictionaries({"name": _sometimes(st.sampled_from(["f", "browser.search", ""]))},
                                     optional={"arguments": _sometimes(st.sampled_from(['{"a": 1}', "", None, {"a": 1}]))})
    return st.fixed_dictionaries({"function": _sometimes(function)}, optional={
        "id": _sometimes(st.sampled_from(["c1", "c2", "", None])), "call_id": _sometimes(st.sampled_from(["c1", ""])),
        "type": st.just("function")})


ELEMENT = st.fixed_dictionaries({"role": _sometimes(st.sampled_from(["system", "developer", "user", "assistant",
                                                                     "tool"]), st.sampled_from(["bot", 3]))},
                                optional={
    "content": _sometimes(st.none() | TEXTS),
    "reasoning_content": _sometimes(st.none() | TEXTS),
    "tool_calls": _sometimes(st.none() | st.lists(_call(), max_size=3)),
    "tool_call_id": _sometimes(st.sampled_from([None, "c1", "c2", ""])),
    "name": _sometimes(st.sampled_from([None, "get", "functions.get", ""])),
    "thinking": _sometimes(st.none() | TEXTS),  # Ollama's reasoning
    "tool_name": _sometimes(st.sampled_from([None, "get", ""])),  # Ollama's name of the tool that replies
}).flatmap(lambda element: _sometimes(st.just(element), st.just({**element, "channel": "final"})))
"""OpenAI chat elements, most of them plain; now and then one with a key plain.py does not read (`channel`)."""


def _text(elements, style):
    if style == "lines":
        return "".join(json.dumps(element) + "\n" for element in elements)
    separators = {"compact": (",", ":"), "spaced": (", ", ": "), "wide": (" ,\n ", " :\t")}[style]
    return json.dumps({"messages": elements}, separators=separators, ensure_ascii=style == "compact")


def _read(text, monkeypatch, fast: bool):
    if not fast:
        monkeypatch.setattr(builder, "read_plain", lambda *args: False)
    transcript = parse(text, "json")
    monkeypatch.undo()
    return (transcript.to_json(), [message.span for message in transcript.messages],
            [(segment.kind, segment.text, segment.span) for segment in transcript.frame], transcript.tools)


@settings(max_examples=300, deadline=None)
@given(elements=st.lists(ELEMENT, min_size=1, max_size=6),
       style=st.sampled_from(["compact", "spaced", "wide", "lines"]))
def test_plain_elements_read_as_the_general_reader_reads_them(elements, style):
    with pytest.MonkeyPatch.context() as monkeypatch:
        text = _text(elements, style)
        assert _read(text, monkeypatch, fast=True) == _read(text, monkeypatch, fast=False)


def test_written_twice_or_with_escapes_the_general_reader_decides():
    call = '{"id": "c1", "function": {"name": "f", "arguments": "{}"}}'
    for text in ('[{"role": "assistant", "reasoning_content": "r", "content": "a", "content": "b"}]',
                 '[{"role": "assistant", "reasoning_c\\u006fntent": "r", "content": "a"}]',
                 '[{"role": "assistant", "reasoning_content": "r", "tool_calls": [%s], "tool_calls": [%s, %s]}]'
                 % (call, call, call),
                 '[{"role": "assistant", "content": "a", "content": "b", "tool_calls": [%s]}]' % call):
        value = json.loads(text)[0]
        assert plain.member_spans(text, 1, value) is None
        with pytest.MonkeyPatch.context() as monkeypatch:
            assert _read(text, monkeypatch, fast=True) == _read(text, monkeypatch, fast=False)


@given(st.dictionaries(st.sampled_from(["role", "content", "tool_calls", "x y", "é"]),
                       st.lists(ANY, max_size=3) | ANY, max_size=4),
       st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", " : ")]))
def test_member_spans_are_the_spans_positions_reads(value, separators):
    text = json.dumps(value, separators=separators, ensure_ascii=False)
    node = read_value(text, 0, 2)
    expected = {key: member.span for key, member in node.members.items()}
    if isinstance(value.get("tool_calls"), list):
        expected.update(enumerate(item.span for item in node.members["tool_calls"].node.items))
    assert plain.member_spans(text, 0, value) == expected


def _keys_named(value, key):
    if isinstance(value, dict):
        return (key in value) + sum(_keys_named(item, key) for item in value.values())
    if isinstance(value, list):
        return sum(_keys_named(item, key) for item in value)
    return 0


NESTED = st.recursive(ANY | st.sampled_from(['"message": 1', "message", '\\"message\\":', "m\\u0065ssage"]),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                          st.sampled_from(["message", "messages", "a", 'say "message"', "Message"]), inner,
                          max_size=3), max_leaves=12)


@given(NESTED, st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", " :\t")]), st.booleans(),
       st.sampled_from(["message", "m\\u0065ssage", "\\u006Dess\\u0061ge"]))
def test_key_pattern_finds_every_key_of_that_name_however_written(value, separators, ascii, spelling):
    text = json.dumps(value, separators=separators, ensure_ascii=ascii).replace('"message"' + separators[1],
                                                                                f'"{spelling}"' + separators[1])
    assert json.loads(text) == value
    found = list(plain.key_pattern("message").finditer(text))
    assert len(found) == _keys_named(value, "message")
    for match in found:
        assert text[:match.start()].rstrip().endswith(("{", ","))
