"""The fast ways of reading a piece of the input give what the plain ways, kept here as the reference, give:
ChatML's JSON in a tag (`json_run`, `whole_json`: msgspec at once, else `raw_decode` value by value), JSON shown
as text (`shown_json`: one C encoder rather than `json.dumps`), and the JSON frame between messages (`frame`: one
search per gap rather than slices and strips)."""
from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from viewer.model import Segment
from viewer.parse.chatml.scanning import UNREADABLE, whole_json
from viewer.parse.chatml.tags import json_run
from viewer.parse.common import shown_json
from viewer.parse.detect import _json_object, _line_kind
from viewer.parse.json.unpacked import frame

_SPACE = re.compile(r"\s*")
_DECODER = json.JSONDecoder()


def reference_json_run(text, start, end):
    chunk = text[start:end]
    values = []
    position = _SPACE.match(chunk).end()
    while position < len(chunk):
        try:
            value, stop = _DECODER.raw_decode(chunk, position)
        except (ValueError, RecursionError):
            return None
        values.append((value, (start + position, start + stop)))
        position = _SPACE.match(chunk, stop).end()
    return values or None


def reference_whole_json(text):
    stripped = text.strip()
    try:
        value, stop = _DECODER.raw_decode(stripped)
    except (ValueError, RecursionError):
        return UNREADABLE
    return value if stop == len(stripped) else UNREADABLE


def reference_shown_json(value):
    try:
        return json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        return "(a value too deeply nested to show)"


def reference_frame(text, claimed):
    found, position, stop = [], 0, len(text)
    for start, end in sorted(claimed) + [(stop, stop)]:
        if start > position:
            gap = text[position:start]
            stripped = gap.strip()
            if stripped:
                first = position + len(gap) - len(gap.lstrip())
                found.append(Segment.of("json", stripped, (first, first + len(stripped))))
        position = max(position, end)
    return tuple(found)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)
blanks = st.text(alphabet=" \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000", max_size=3)
"""JSON's blanks and the other characters `\\s` and `str.strip` take for blank."""
near_json = st.text(alphabet='{}[]",:0123456789.eE+-\\ u\ud800tfnrlasNIy\n\xa0', max_size=30)


def json_texts(value, ascii, indent):
    return json.dumps(value, ensure_ascii=ascii, indent=indent)


@st.composite
def tag_bodies(draw):
    """What stands between a `<tool_call>` and its `</tool_call>`: blanks around JSON values, or near-JSON."""
    if draw(st.booleans()):
        return draw(near_json)
    parts = [draw(blanks)]
    for value in draw(st.lists(json_values, min_size=0, max_size=3)):
        parts += [json_texts(value, draw(st.booleans()), draw(st.sampled_from([None, 1]))), draw(blanks)]
    return "".join(parts)


@given(st.text(max_size=3), tag_bodies(), st.text(max_size=3))
def test_json_run_reads_as_raw_decode_reads(before, body, after):
    text = before + body + after
    assert repr(json_run(text, len(before), len(before) + len(body))) == \
        repr(reference_json_run(text, len(before), len(before) + len(body)))


@given(tag_bodies())
def test_whole_json_reads_as_raw_decode_reads(body):
    found, expected = whole_json(body), reference_whole_json(body)
    assert (found is UNREADABLE, repr(found)) == (expected is UNREADABLE, repr(expected))


@given(json_values | st.dictionaries(st.integers() | st.booleans() | st.none(), json_values, max_size=3))
def test_shown_json_is_json_dumps(value):
    assert shown_json(value) == reference_shown_json(value)


def test_shown_json_of_what_cannot_be_shown():
    looped: list = []
    looped.append(looped)
    assert shown_json(looped) == reference_shown_json(looped)
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert shown_json(deep) == reference_shown_json(deep)


@st.composite
def texts_and_claims(draw):
    text = draw(st.text(alphabet=' \t\n\r\xa0\u2028,:{}[]"ab', max_size=40))
    edges = st.integers(min_value=0, max_value=len(text))
    claimed = [tuple(sorted(draw(st.tuples(edges, edges)))) for _ in range(draw(st.integers(0, 6)))]
    return text, claimed


@given(texts_and_claims())
def test_frame_is_the_stripped_gaps(case):
    text, claimed = case
    assert frame(text, claimed) == reference_frame(text, claimed)


def reference_json_object(line):
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


KIND_VALUES = st.sampled_from(["response.delta", "tool.cancel", "user", "session_meta", "response_item",
                               "thread.started", "file-history-snapshot", "message", 3, None])
KIND_LINES = st.dictionaries(
    st.sampled_from(["type", "event", "role", "payload", "sessionId", "snapshot", "x"]),
    KIND_VALUES | json_values, max_size=5)


@given(KIND_LINES, st.sampled_from([(",", ":"), (", ", ": ")]), st.sampled_from(["", "NaN", "1e999", '"\\ud800"',
                                                                                  "[1,]", "{"]))
def test_detect_reads_a_line_s_kind_as_json_loads_reads_it(value, separators, odd):
    text = json.dumps(value, separators=separators)
    for line in (text, text[:-1] + (', "y": ' + odd if value and odd else "") + "}"):
        found, expected = _json_object(line), reference_json_object(line)
        assert (found is None) == (expected is None)
        if expected is not None:
            assert _line_kind(found) == _line_kind(expected)
            assert found.keys() == expected.keys()


@given(near_json)
def test_detect_refuses_what_json_loads_refuses(line):
    assert (_json_object(line) is None) == (reference_json_object(line) is None)
