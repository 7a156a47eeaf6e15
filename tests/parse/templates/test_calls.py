"""Calls written as code: Python call expressions read with `ast` (never run), FunctionGemma's notation."""
from __future__ import annotations

import pytest

from viewer.parse.templates.calls import gemma_value, python_calls


def test_a_python_list_of_calls_gives_names_arguments_and_where_each_call_stands():
    source = ' [get_weather(city="Øslo", days=[1, 2]), math.sqrt(x=2.0)]'
    found = python_calls(source, as_list=True)
    assert [(name, arguments) for name, arguments, _ in found] == [("get_weather", {"city": "Øslo", "days": [1, 2]}),
                                                                   ("math.sqrt", {"x": 2.0})]
    assert [source[start:end] for _, _, (start, end) in found] == ['get_weather(city="Øslo", days=[1, 2])',
                                                                   "math.sqrt(x=2.0)"]


@pytest.mark.parametrize("source", ["[f(1)]", "[f(**kw)]", "[f(a=g())]", "[f(a=1) + 1]", "[]", "[f(a=",
                                    "__import__('os')"])
def test_anything_but_calls_with_literal_keyword_arguments_is_not_calls(source):
    assert python_calls(source, as_list=True) is None


def test_functiongemma_notation_reads_as_json_data():
    assert gemma_value("{city:<escape>Tokyo, JP<escape>,n:15,ok:true,none:null,l:[<escape>a<escape>,2.5],"
                       "o:{e:<escape><escape>}}") == {"city": "Tokyo, JP", "n": 15, "ok": True, "none": None,
                                                     "l": ["a", 2.5], "o": {"e": ""}}


@pytest.mark.parametrize("text", ["{a:<escape>open}", "{a:1", "{a}", "x<escape>", "{a:1}}", "{:1}"])
def test_malformed_functiongemma_notation_is_refused(text):
    with pytest.raises(ValueError):
        gemma_value(text)
