"""The turns each family makes directly (its plain-turn test and reasoning tokens, build.py) give exactly the
messages its body reader gives: every sample, and prefixes of the canary transcript, read both ways."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, strategies as st

from tests.conftest import SAMPLES
from tests.system.test_leaks import BUILDERS
from viewer.parse import ParseOptions, read_as
from viewer.parse.templates import build, deepseek, gemma, llama3, mistral, phi

MODULES = {"llama3": llama3, "gemma": gemma, "mistral": mistral, "deepseek": deepseek, "phi": phi}
PREFIXES = {"llama3": "llama3-", "gemma": "gemma", "mistral": "mistral-", "deepseek": "deepseek-", "phi": "phi"}


def read_slowly(monkeypatch: pytest.MonkeyPatch, dialect: str) -> list[int]:
    """Make the family's `read_transcript` use the body reader for every turn; returns a list that counts the
    reads."""
    original, reads = build.read_transcript, []

    def slow(text, options, family):
        reads.append(1)
        return original(text, options, dataclasses.replace(family, plain=lambda *_: False, reasoning=None, reply=None))
    monkeypatch.setattr(MODULES[dialect], "read_transcript", slow)
    return reads


def texts(dialect: str) -> list[str]:
    samples = [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.iterdir())
               if path.name.startswith(PREFIXES[dialect])]
    canary = BUILDERS[dialect](dialect)
    return samples + [canary[:cut] for cut in range(0, len(canary) + 1, 7)]


@pytest.mark.parametrize("dialect", sorted(MODULES))
def test_the_fast_path_makes_what_the_body_reader_makes(dialect, monkeypatch):
    fast = [read_as(dialect, text, ParseOptions()).to_json() for text in texts(dialect)]
    reads = read_slowly(monkeypatch, dialect)
    slow = [MODULES[dialect].__dict__[f"parse_{dialect}"](text, ParseOptions()).to_json() for text in texts(dialect)]
    assert len(reads) == len(slow) > 5
    assert fast == slow


TOKENS = {
    "llama3": ["<|start_header_id|>user<|end_header_id|>\n\n", "<|start_header_id|>assistant<|end_header_id|>\n\n",
               "<|start_header_id|>ipython<|end_header_id|>\n\n", "<|eot_id|>", "<|eom_id|>", "<|python_tag|>",
               '{"name": "f", "parameters": {}}', "[f(a=1)]", "{", "["],
    "gemma": ["<start_of_turn>user\n", "<start_of_turn>model\n", "<end_of_turn>", "<start_function_call>",
              "call:f{a:1}", "<end_function_call>", "<start_function_response>", "response:f{r:2}",
              "<end_function_response>", "<start_of_image>", "\n\n"],
    "mistral": ["[INST]", "[/INST]", "</s>", "[THINK]", "[/THINK]", "[TOOL_CALLS]", "f[ARGS]{}", "[TOOL_RESULTS]",
                "[/TOOL_RESULTS]", "[TOOL_CONTENT]", '{"content": 1, "call_id": "a"}', "[IMG]", "\n\n"],
    "deepseek": [deepseek.USER, deepseek.ASSISTANT, deepseek.EOS, deepseek.BOS, "<think>", "</think>",
                 deepseek.CALLS_BEGIN, deepseek.CALL_BEGIN, "f" + deepseek.SEPARATOR + "{}", deepseek.CALL_END,
                 deepseek.CALLS_END, deepseek.OUTPUT_BEGIN, deepseek.OUTPUT_END],
    "phi": ["<|user|>", "<|assistant|>", "<|tool|>", "<|end|>", "<think>", "</think>", "<|tool_call|>",
            '[{"name": "f", "arguments": {}}]', "<|/tool_call|>", "<|im_start|>user<|im_sep|>", "<|im_end|>"],
}


def family_of(dialect: str, text: str) -> build.Family:
    return mistral.family_for(text) if dialect == "mistral" else MODULES[dialect].FAMILY


@pytest.mark.parametrize("dialect", sorted(MODULES))
@given(data=st.data())
def test_on_any_token_soup_both_ways_read_the_same(dialect, data):
    text = "".join(data.draw(st.lists(st.one_of(st.sampled_from(TOKENS[dialect]), st.text(" ab`\n", max_size=4)),
                                      max_size=24)))
    family = family_of(dialect, text)
    slow = dataclasses.replace(family, plain=lambda *_: False, reasoning=None, reply=None)
    assert (build.read_transcript(text, ParseOptions(), family).to_json()
            == build.read_transcript(text, ParseOptions(), slow).to_json())
