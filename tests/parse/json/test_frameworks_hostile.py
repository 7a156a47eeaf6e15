"""The framework readers never raise, whatever a field holds: each framework sample, its values replaced one at a
time, at random, by values of every other JSON type, still parses with every character accounted for."""
from __future__ import annotations

import json
import random

import pytest

from tests.conftest import SAMPLES
from tests.parse.helpers import assert_accounted_for
from viewer.parse import parse

PREFIXES = ("json-otel-", "json-inspect-", "json-langchain-", "json-langgraph-", "json-ai-sdk-")
FRAMEWORK_SAMPLES = sorted(path for path in SAMPLES.iterdir() if path.name.startswith(PREFIXES)
                           and "broken-cut" not in path.name)
ODD_VALUES = (None, 7, -1e308, True, "", "x", [], [1, "a"], {}, {"type": ["list"]}, [{"type": {}}], "attachment://x")


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for at, item in enumerate(value):
            yield from _paths(item, (*path, at))


def _replaced(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


def _mutants(text: str, lines: bool, count: int, seed: int):
    """The document (each line of JSON Lines) with one value replaced, `count` times."""
    rng = random.Random(seed)
    documents = [json.loads(line) for line in text.splitlines() if line] if lines else [json.loads(text)]
    for _ in range(count):
        which = rng.randrange(len(documents))
        path = rng.choice(list(_paths(documents[which])))
        mutated = _replaced(documents[which], path, rng.choice(ODD_VALUES))
        parts = [json.dumps(mutated if at == which else other, indent=None if lines else 1)
                 for at, other in enumerate(documents)]
        yield "\n".join(parts) + "\n"


# The console exporter's spans are several documents one after another; the test below covers trace attributes.
@pytest.mark.parametrize("sample", [path for path in FRAMEWORK_SAMPLES if path.name != "json-otel-console-spans.json"],
                         ids=lambda path: path.name)
def test_any_field_of_a_framework_sample_may_hold_any_value(sample):
    for text in _mutants(sample.read_text(encoding="utf-8"), sample.suffix == ".jsonl", 150, seed=len(sample.name)):
        transcript = parse(text)
        assert_accounted_for(transcript, transcript.source)
        transcript.to_json()


def test_any_attribute_message_of_a_trace_may_hold_any_value():
    rng = random.Random(3)
    message = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "name": "f", "arguments": {"a": 1}},
                                              {"type": "text", "content": "hi"}]}
    for _ in range(200):
        path = rng.choice(list(_paths([message])))
        mutated = json.dumps(_replaced([message], path, rng.choice(ODD_VALUES)))
        text = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{"attributes": [
            {"key": "gen_ai.output.messages", "value": {"stringValue": mutated}},
            {"key": "gen_ai.prompt.0.content", "value": rng.choice([{"intValue": "x"}, {"arrayValue": {"values": 5}},
                                                                   {"kvlistValue": {"values": [{"key": []}]}}])}]}]}]}]})
        transcript = parse(text)
        assert_accounted_for(transcript, transcript.source)
