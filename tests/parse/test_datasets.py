"""Datasets: a file of many whole conversations reads as one dataset whose conversations are each parsed on
their own (pairs and checks never cross), with spans into the whole file."""
from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLES
from tests.parse.helpers import assert_accounted_for
from viewer import parse
from viewer.model import DATASET_SCHEMA, SCHEMA
from viewer.parse.datasets import conversation_spans


def _conversation(question: str, call_id: str = "call_1") -> dict:
    return {"messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": question},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": call_id, "content": "found"},
        {"role": "assistant", "content": "Done."}]}


def _jsonl(*conversations: dict) -> str:
    return "".join(json.dumps(conversation) + "\n" for conversation in conversations)


def test_json_lines_of_whole_conversations_are_a_dataset():
    text = _jsonl(_conversation("one"), _conversation("two"), _conversation("three"))
    dataset = parse(text)
    assert dataset.is_dataset and dataset.messages == ()
    assert [c.messages[1].content for c in dataset.conversations] == ["one", "two", "three"]
    assert_accounted_for(dataset, text)


def test_the_same_call_id_in_two_conversations_pairs_within_each():
    dataset = parse(_jsonl(_conversation("one"), _conversation("two")))
    assert [[(p.call, p.reply) for p in c.pairs] for c in dataset.conversations] == [[(2, 3)], [(2, 3)]]
    assert all(not c.diagnostics for c in dataset.conversations)


def test_conversation_spans_point_into_the_whole_file():
    text = _jsonl(_conversation("one"), _conversation("second question"))
    second = parse(text).conversations[1]
    question = second.messages[1]
    assert "second question" in text[question.span[0]:question.span[1]]
    assert second.position(question.span[0])[0] == 2  # line 2 of the file


def test_a_json_array_of_conversations_is_a_dataset_with_its_brackets_as_frame():
    text = json.dumps([_conversation("one"), _conversation("two")], indent=2)
    dataset = parse(text)
    assert len(dataset.conversations) == 2 and {s.kind for s in dataset.frame} == {"json"}
    assert_accounted_for(dataset, text)


def test_a_broken_line_is_a_diagnostic_of_its_own_conversation_and_the_others_read():
    text = _jsonl(_conversation("one")) + '{"messages": [{"role": "user", "content": "cut\n' + _jsonl(
        _conversation("three"))
    dataset = parse(text)
    assert [len(c.messages) for c in dataset.conversations] == [5, 0, 5]
    assert [d.code for d in dataset.conversations[1].diagnostics] == ["W-JSON-SYNTAX"]
    assert_accounted_for(dataset, text)


@pytest.mark.parametrize("text", [
    _jsonl(_conversation("only one")),                                            # one conversation
    '{"role": "user", "content": "a"}\n{"role": "assistant", "content": "b"}\n',   # a message per line
    json.dumps(_conversation("pretty"), indent=2),                                 # one object over many lines
    json.dumps([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]),  # a message list
])
def test_other_json_shapes_are_not_datasets(text):
    assert conversation_spans(text) is None and not parse(text).is_dataset


def test_a_dataset_prints_in_the_dataset_form_and_a_conversation_in_the_usual_one():
    dataset = parse(_jsonl(_conversation("one"), _conversation("two"))).to_json()
    assert dataset["schema"] == DATASET_SCHEMA
    assert [c["index"] for c in dataset["conversations"]] == [0, 1]
    assert "schema" not in dataset["conversations"][0] and "messages" in dataset["conversations"][0]
    assert parse(_jsonl(_conversation("one"))).to_json()["schema"] == SCHEMA


def test_the_conversations_share_one_line_index():
    dataset = parse((SAMPLES / "json-dataset-finetune.jsonl").read_bytes())
    first, second = dataset.conversations[:2]
    first.position(0)
    assert first._lines is second._lines
