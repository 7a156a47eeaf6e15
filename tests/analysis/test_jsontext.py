"""viewer.analysis.jsontext.loads is json.loads: the same value of the same types, or the same exception."""
from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.analysis.jsontext import loads


def outcome(function, text):
    try:
        value = function(text)
    except (ValueError, RecursionError) as error:
        return type(error).__name__, str(error)
    return "value", repr(value), _types(value)


def _types(value):
    if isinstance(value, dict):
        return {key: _types(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_types(item) for item in value]
    return type(value).__name__


EDGES = [
    "NaN", "-Infinity", "1e400", "-1E309", "1e-400", "-0", "-0.0", "4.9e-324", "1.7976931348623157e308",
    "123456789012345678901234567890", "18446744073709551616", "-9223372036854775809",
    '"\\ud800"', '"x\\udc00"', '"\ud800"', '{"a": 1, "a": 2}', '{"b": 1, "a": 2, "b": 3}', "\ufeff{}", " {} \n",
    '"a\nb"', '"\x00"', '"\x7f"', '"\\u0000"', "[1,]", '{"a":1,}', "1 2", "[1] x", "", "  ", '"', '"\\x"',
    "[" * 2000 + "]" * 2000, "[" * 200 + "]" * 200, '{"ok":true,"content":{"temperature":23,"sky":"sunny"}}',
]


@pytest.mark.parametrize("text", EDGES)
def test_edges(text):
    assert outcome(loads, text) == outcome(json.loads, text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@given(json_values)
def test_documents(value):
    text = json.dumps(value)
    assert outcome(loads, text) == outcome(json.loads, text)


@given(st.text(alphabet='{}[]",:0123456789.eE+-\\ u\ud800tfnrlasNIy\n', max_size=30))
def test_near_json(text):
    assert outcome(loads, text) == outcome(json.loads, text)


def test_reading_a_body_leaves_no_utf8_copy_inside_it():
    """A message's body lives as long as its parse: decoding it must not cache its UTF-8 form inside it."""
    body = "".join(("", '{"city": "Köln", "sky": "klar — 21 °C"}'))  # a string of its own, made at run time
    size = sys.getsizeof(body)
    assert loads(body) == {"city": "Köln", "sky": "klar — 21 °C"}
    assert sys.getsizeof(body) == size
