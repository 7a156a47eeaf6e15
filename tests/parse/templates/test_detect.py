"""Auto-detection picks each sample's dialect, and never takes one family's text for another's (nor for ChatML or
Harmony): the first mark of a family decides, so a template quoted later in a prompt does not."""
from __future__ import annotations

import json

import pytest

from tests.conftest import GOLDEN, SAMPLES
from viewer.parse import detect, parse
from viewer.parse.templates.deepseek import ASSISTANT, BOS, USER

FAMILIES = {"llama3-": "llama3", "gemma": "gemma", "mistral-": "mistral", "deepseek-": "deepseek", "phi": "phi",
            "chatml-": "chatml", "events-": "events", "json-": "json"}
SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file())


def expected_dialect(name: str) -> str:
    """The family its name says; a Harmony or OpenChatML sample reads as its golden says (with a YAML header it
    is OpenChatML)."""
    for prefix, dialect in FAMILIES.items():
        if name.startswith(prefix):
            return dialect
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))["dialect"]


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_every_sample_is_detected_as_its_dialect(sample):
    # Through parse(), as an upload is: an archive (an Inspect .eval) is unpacked before its text is detected.
    assert parse(sample.read_bytes()).dialect == expected_dialect(sample.name)


@pytest.mark.parametrize(("text", "dialect"), [
    ("<|user|>\nHi<|end|>\n<|assistant|>\nHello<|end|>\n", "phi"),  # <|end|> alone is not Harmony
    ("<|im_start|>system<|im_sep|>Be brief.<|im_end|><|im_start|>user<|im_sep|>Hi<|im_end|>", "phi"),
    ("<|im_start|>user\nExplain <|start_header_id|> please<|im_end|>", "chatml"),
    ("<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nQuote: <|im_start|>user<|eot_id|>", "llama3"),
    ("<|begin_of_text|>Once upon a time", "llama3"),
    ("[INST] Hi [/INST]", "mistral"),
    ("[SYSTEM_PROMPT]Be brief.[/SYSTEM_PROMPT][INST]Hi[/INST]", "mistral"),
    ("<s>[INST] Write <start_of_turn> in a poem [/INST]", "mistral"),
    ("<bos><start_of_turn>user\nWhat is [INST]?<end_of_turn>\n", "gemma"),
    (f"{BOS}Use <|user|> tags.{USER}Hi{ASSISTANT}", "deepseek"),
    ("<|start|>user<|message|>Hi<|end|>", "harmony"),
    ('[{"role": "user", "content": "[INST] hi"}]', "json"),
])
def test_the_first_family_mark_decides(text, dialect):
    assert detect(text) == dialect
