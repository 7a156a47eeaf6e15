"""Every shape real producers write (tests/parse/json/shapes.py), whole or cut anywhere: detected as JSON, read
without raising, every character accounted for, nothing the policy must hide in a message the default view
shows, and every shown word in one."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings, strategies as st

from tests.parse.helpers import assert_accounted_for
from tests.parse.json.shapes import SHAPES
from viewer.parse import detect, parse
from viewer.policy.projection import SHOWN_IN_FULL, Projection


def shown_contents(text: str) -> str:
    transcript = parse(text)
    assert_accounted_for(transcript, text)
    transcript.to_json()
    return "\n".join(message.content for message, decision in zip(transcript.messages, Projection.of(transcript).decisions())
                     if decision.show_as in SHOWN_IN_FULL)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_shape_shows_exactly_its_visible_parts(shape, data):
    text = data.draw(SHAPES[shape]())
    assert detect(text) == "json"
    shown = shown_contents(text)
    assert "CANARY" not in shown, re.findall(r"CANARY\d+Q", shown)
    assert set(re.findall(r"SHOWN\d+", text)) <= set(re.findall(r"SHOWN\d+", shown))


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_cut_shape_still_hides_what_it_must(shape, data):
    text = data.draw(SHAPES[shape]())
    cut = text[:data.draw(st.integers(0, len(text)))]
    assert "CANARY" not in shown_contents(cut)


# -- any JSON in these shapes' words ---------------------------------------------------------------------

KEYS = ["role", "content", "type", "text", "thinking", "signature", "data", "id", "name", "input", "tool_use_id",
        "is_error", "source", "media_type", "url", "image_url", "system", "messages", "object", "output",
        "instructions", "summary", "encrypted_content", "call_id", "arguments", "status", "action", "results",
        "outputs", "result", "server_label", "error", "tools", "phase", "conversations", "from", "value", "file_data",
        "filename", "reasoning_content", "refusal"]
WORDS = ["user", "assistant", "tool", "system", "developer", "response", "message", "text", "thinking",
         "redacted_thinking", "tool_use", "tool_result", "server_tool_use", "web_search_tool_result", "image",
         "document", "base64", "reasoning", "summary_text", "reasoning_text", "output_text", "input_text",
         "input_image", "input_file", "refusal", "function_call", "function_call_output", "web_search_call",
         "mcp_call", "mcp_list_tools", "computer_call_output", "image_generation_call", "custom_tool_call",
         "code_interpreter_call", "local_shell_call_output", "logs", "human", "gpt", "function_call",
         "observation", "commentary", "final_answer", "<think>", "</think>", "<think>x</think>y",
         "data:image/png;base64,QUJD", "https://example.com/a.png", '{"name": "f", "arguments": {}}', "[]"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(WORDS) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["plain", "messages", "conversations", "output", "input"]),
       st.integers(min_value=0, max_value=600))
def test_any_json_in_these_shapes_words_is_read_with_every_character_accounted_for(value, envelope, cut):
    document = value if envelope == "plain" else {"system": "s", envelope: value, "object": "response"}
    text = json.dumps(document, indent=1)
    for candidate in (text, text[:cut]):
        transcript = parse(candidate, "json")
        assert_accounted_for(transcript, candidate)
        transcript.to_json()
