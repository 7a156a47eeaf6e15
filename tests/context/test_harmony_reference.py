"""What the model saw, for Harmony, byte for byte and token for token as openai-harmony's `render_conversation_for_completion`
renders it (with `auto_drop_analysis`), for every assistant message of the conversations in
tests/reference/openai-harmony/contexts.json (written by tests/harness/harmony_reference.py from the PyPI
package; openai-harmony is not needed to run these tests)."""
from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from viewer.context import sampling_context
from viewer.context.text import exact_text
from viewer.parse import parse
from viewer.tokens.counting import count, harmony_encoding

REFERENCE = json.loads((ROOT / "tests" / "reference" / "openai-harmony" / "contexts.json").read_text("utf-8"))
TOKENS = {case["name"]: case["tokens"] for case in REFERENCE["cases"]}
CASES = [(case["name"], case["log"], int(index), text)
         for case in REFERENCE["cases"] for index, text in case["contexts"].items()]


@pytest.mark.parametrize(("name", "log", "index", "expected"), CASES,
                         ids=[f"{name}-{index}" for name, _, index, _ in CASES])
def test_the_context_page_text_is_openai_harmonys_rendering_for_completion(name, log, index, expected):
    transcript = parse(log)
    assert transcript.dialect == "harmony"
    assert {diagnostic.code for diagnostic in transcript.diagnostics} <= {"W-TOOL-ERROR"}  # the failing tool
    context = sampling_context(transcript.messages, transcript.dialect, index)
    assert exact_text(context, transcript.dialect, transcript.header).text == expected


@pytest.mark.parametrize(("name", "log", "index", "expected"), CASES,
                         ids=[f"{name}-{index}" for name, _, index, _ in CASES])
def test_the_token_count_is_the_length_of_openai_harmonys_rendering(name, log, index, expected):
    if harmony_encoding() is None:
        pytest.skip("tiktoken or the o200k vocabulary is missing (make setup)")
    transcript = parse(log)
    context = sampling_context(transcript.messages, transcript.dialect, index)
    counts = count(context, exact_text(context, transcript.dialect), transcript.dialect)
    assert counts.total == TOKENS[name][str(index)]
    assert counts.total == sum(counts.per_message.values()) + counts.prompt


def test_the_reference_covers_the_shapes_the_page_must_get_right():
    logs = "".join(case["log"] for case in REFERENCE["cases"])
    contexts = "".join(text for case in REFERENCE["cases"] for text in case["contexts"].values())
    for shape in ("<|start|>developer<|message|># Instructions", "namespace functions", "## browser",
                  "<|channel|>commentary <|constrain|>json", "<|channel|>commentary json", "to=python",
                  "<|start|>functions.get_weather to=assistant", "<|start|>user:alice", "<|start|>assistant<|message|>",
                  "<|start|>assistant to=functions.lookup json<|message|>", "to=assistant <|constrain|>json<|message|>",
                  "<|message|>`<|constrain|>json`"):
        assert shape in logs, shape
    assert "<|return|>" in logs and "<|return|>" not in contexts  # history is written with <|end|>
    assert len(CASES) >= 30
