"""Properties every dialect parser keeps for arbitrary input: it never raises, spans are ordered and inside
the input, and every non-blank character is accounted for (message, understood frame, or a diagnostic)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tests.conftest import SAMPLES
from tests.parse.helpers import assert_accounted_for, assert_well_made
from viewer import parse
from viewer.formats import NAMES as DIALECTS

TOKENS = ["<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|call|>", "<|return|>",
          "<|literal|>", "<|endliteral|>", "<<|start|>", "<|im_start|>", "<|im_end|>", "<s>", "</s>", "[BOS]",
          "[EOS]", "<|start_reason|>", "<|end_reason|>", "<|function_call|>", "<|function_output|>",
          "<|function_list|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|file_separator|>",
          "assistant", "user", "tool", "system", "developer", "functions.f", " to=", "=", " call_id=a",
          "intent=preamble", "commentary", "analysis", "final", "json", "\n", " ", "---\n", "version: 2.2\n",
          '{"role": "user", "content": "x"}', "[", "]", "{", "}", '"', ",", ":", '{"type": "response.delta"}',
          "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<tools>",
          "</tools>", '{"name": "f", "arguments": {}}', "`",
          # the raw prompt templates' tokens (Llama 3, Gemma, Mistral, DeepSeek, Phi)
          "<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "\n\n", "<|eot_id|>", "<|eom_id|>",
          "<|python_tag|>", "ipython", '[f(a=1)]', "<bos>", "<start_of_turn>", "<end_of_turn>", "model",
          "<start_function_call>", "<end_function_call>", "<start_function_response>", "<end_function_response>",
          "call:f{a:<escape>x<escape>}", "<start_of_image>", "[INST]", "[/INST]", "[SYSTEM_PROMPT]",
          "[/SYSTEM_PROMPT]", "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]",
          "[TOOL_CONTENT]", "[THINK]", "[/THINK]", "[AVAILABLE_TOOLS]", "[IMG]",
          "<\uff5cbegin\u2581of\u2581sentence\uff5c>", "<\uff5cUser\uff5c>", "<\uff5cAssistant\uff5c>", "<\uff5cend\u2581of\u2581sentence\uff5c>",
          "<\uff5ctool\u2581calls\u2581begin\uff5c>", "<\uff5ctool\u2581call\u2581begin\uff5c>",
          "<\uff5ctool\u2581sep\uff5c>", "<\uff5ctool\u2581call\u2581end\uff5c>",
          "<\uff5ctool\u2581output\u2581begin\uff5c>", "<\uff5ctool\u2581output\u2581end\uff5c>",
          "<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|/tool|>", "<|end|>", "<|tool_call|>",
          "<|/tool_call|>", "<|im_sep|>"]

transcript_text = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=8)), max_size=40).map("".join)


@given(transcript_text, st.sampled_from(("auto", *DIALECTS)))
def test_any_text_parses_with_every_character_accounted_for(text, dialect):
    transcript = parse(text, dialect)
    assert transcript.source == text.removeprefix("\ufeff")
    assert_accounted_for(transcript, transcript.source)
    assert_well_made(transcript)
    transcript.to_json()


@given(st.binary(max_size=200), st.sampled_from(("auto", *DIALECTS)))
def test_any_bytes_parse_without_raising(data, dialect):
    transcript = parse(data, dialect)
    assert_accounted_for(transcript, transcript.source)


SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file())


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_every_character_of_every_sample_is_accounted_for_in_well_made_messages(sample):
    transcript = parse(sample.read_bytes())
    assert_accounted_for(transcript, transcript.source)
    assert_well_made(transcript)
