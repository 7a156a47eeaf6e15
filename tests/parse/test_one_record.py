"""A dataset trimmed to one record is one conversation, in every dataset shape: a JSON array of one record (it was
read as one message of unknown role), and a file of one line. Two records of each shape are a dataset."""
from __future__ import annotations

import json

import pytest

from tests.parse.helpers import assert_accounted_for, codes
from viewer import parse

RECORDS = {
    "messages": ({"messages": [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}]},
                 ["user", "assistant"]),
    "sharegpt": ({"conversations": [{"from": "human", "value": "Q"}, {"from": "gpt", "value": "A"}]},
                 ["user", "assistant"]),
    "responses-input": ({"input": [{"role": "user", "content": "Q"}]}, ["user"]),
    "trl-preference": ({"prompt": "Q", "chosen": "A", "rejected": "B"}, ["user", "assistant", "assistant"]),
    "trl-implicit-preference": ({"chosen": [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}],
                                 "rejected": [{"role": "user", "content": "Q"},
                                              {"role": "assistant", "content": "B"}]},
                                ["user", "assistant", "user", "assistant"]),
    "openai-preference": ({"input": {"messages": [{"role": "user", "content": "Q"}]},
                           "preferred_output": [{"role": "assistant", "content": "A"}],
                           "non_preferred_output": [{"role": "assistant", "content": "B"}]},
                          ["user", "assistant", "assistant"]),
    "batch-input": ({"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
                     "body": {"model": "m", "messages": [{"role": "user", "content": "Q"}]}}, ["user"]),
    "batch-output": ({"id": "b1", "custom_id": "r1", "error": None, "response": {"status_code": 200, "body": {
        "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": "A"}}]}}},
                     ["assistant"]),
    "anthropic-batch-result": ({"custom_id": "r1", "result": {"type": "succeeded", "message": {
        "type": "message", "role": "assistant", "content": [{"type": "text", "text": "A"}]}}}, ["assistant"]),
    "chat-completion": ({"object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "A"}}]}, ["assistant"]),
    "gemini-request": ({"contents": [{"role": "user", "parts": [{"text": "Q"}]},
                                     {"role": "model", "parts": [{"text": "A"}]}]}, ["user", "assistant"]),
}


@pytest.mark.parametrize("shape", sorted(RECORDS))
def test_an_array_of_one_record_is_one_conversation(shape):
    record, roles = RECORDS[shape]
    text = json.dumps([record], indent=1)
    transcript = parse(text)
    assert not transcript.is_dataset
    assert [message.role for message in transcript.messages] == roles
    assert "W-UNKNOWN-ROLE" not in codes(transcript)
    assert_accounted_for(transcript, text)


@pytest.mark.parametrize("shape", sorted(RECORDS))
def test_one_line_of_a_record_is_one_conversation(shape):
    record, roles = RECORDS[shape]
    transcript = parse(json.dumps(record) + "\n")
    assert not transcript.is_dataset
    assert [message.role for message in transcript.messages] == roles


@pytest.mark.parametrize("shape", sorted(RECORDS))
@pytest.mark.parametrize("container", ["array", "lines"])
def test_two_records_are_a_dataset_of_two_conversations(shape, container):
    record, roles = RECORDS[shape]
    text = (json.dumps([record, record]) if container == "array"
            else json.dumps(record) + "\n" + json.dumps(record) + "\n")
    dataset = parse(text)
    assert [[message.role for message in conversation.messages] for conversation in dataset.conversations] == [
        roles, roles]
    assert_accounted_for(dataset, text)
