"""Any JSON in the API records' words (Gemini, Chat Completions, batch lines, Ollama, preference pairs), whole or
cut anywhere, as a document, a one-item array or JSON Lines: read without raising, every character accounted for,
and no record's rejected answer shown."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.helpers import assert_accounted_for
from viewer.parse import parse
from viewer.policy.projection import SHOWN_IN_FULL, Projection

KEYS = ["contents", "parts", "role", "text", "thought", "thoughtSignature", "thought_signature", "functionCall",
        "function_call", "functionResponse", "name", "args", "response", "id", "executableCode", "code",
        "codeExecutionResult", "outcome", "output", "inlineData", "mimeType", "data", "fileData", "fileUri",
        "systemInstruction", "system_instruction", "config", "candidates", "content", "promptFeedback",
        "blockReason", "automatic_function_calling_history", "choices", "message", "reasoning_details", "type",
        "summary", "custom_id", "body", "params", "result", "error", "status_code", "messages", "done", "thinking",
        "tool_calls", "function", "arguments", "tool_name", "images", "prompt", "chosen", "rejected", "input",
        "preferred_output", "non_preferred_output"]
WORDS = ["user", "model", "assistant", "tool", "function", "system", "chat.completion", "reasoning.text",
         "reasoning.encrypted", "reasoning.summary", "succeeded", "errored", "OUTCOME_OK", "OUTCOME_FAILED",
         "image/png", "QUJD", "SAFETY", "<think>x</think>y", ""]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1, 500) | st.sampled_from(WORDS) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=30)

objects = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5)
parts = st.lists(objects | st.fixed_dictionaries({}, optional={
    "text": json_values, "thought": st.booleans(), "thoughtSignature": st.text(max_size=3),
    "functionCall": objects, "functionResponse": objects, "inlineData": objects}), max_size=4)
records = st.one_of(
    st.fixed_dictionaries({"contents": st.lists(st.fixed_dictionaries({"parts": parts}, optional={
        "role": st.sampled_from(["user", "model", "function", "x"])}), max_size=3)},
        optional={"systemInstruction": json_values, "config": objects}),
    st.fixed_dictionaries({"candidates": st.lists(st.fixed_dictionaries({}, optional={"content": objects}),
                                                  max_size=2)}, optional={"promptFeedback": objects}),
    st.fixed_dictionaries({"choices": st.lists(st.fixed_dictionaries({"message": objects}), min_size=1,
                                               max_size=2)}),
    st.fixed_dictionaries({"custom_id": st.just("r")}, optional={
        "body": objects, "params": objects, "response": objects, "result": objects, "error": json_values}),
    st.fixed_dictionaries({"chosen": json_values, "rejected": json_values}, optional={"prompt": json_values}),
    st.fixed_dictionaries({"preferred_output": json_values, "non_preferred_output": json_values},
                          optional={"input": json_values}),
    st.fixed_dictionaries({"message": objects, "done": st.booleans()}))


@settings(max_examples=1500, deadline=None)
@given(records | json_values | st.lists(records, max_size=3), st.sampled_from(["document", "one-item array", "lines"]),
       st.integers(0, 800))
def test_any_json_in_the_records_words_is_read_with_every_character_accounted_for(value, container, cut):
    if container == "lines":
        text = "".join(json.dumps(item) + "\n" for item in (value if isinstance(value, list) else [value]))
    else:
        text = json.dumps([value] if container == "one-item array" else value, indent=1)
    for candidate in (text, text[:cut]):
        transcript = parse(candidate)
        assert_accounted_for(transcript, candidate)
        transcript.to_json()
        for part in transcript.conversations or (transcript,):
            shown = [m for m, d in zip(part.messages, Projection.of(part).decisions()) if d.show_as in SHOWN_IN_FULL]
            assert all(m.intent != "rejected" for m in shown)
