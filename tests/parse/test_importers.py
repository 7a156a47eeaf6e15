"""The table of importers: every dialect is offered with a description and an example that reads as it."""
from __future__ import annotations

import pytest

from viewer.parse import DIALECTS, IMPORTERS, detect, parse


def test_the_dialects_are_the_importers_in_table_order():
    assert DIALECTS == tuple(IMPORTERS) == ("openchatml", "harmony", "chatml", "json", "events", "llama3", "gemma",
                                            "mistral", "deepseek", "phi", "claude-code", "codex", "chatgpt", "claude-ai")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_importer_s_example_is_detected_as_its_dialect_and_parses_cleanly(dialect):
    example = IMPORTERS[dialect].example
    assert detect(example) == dialect
    transcript = parse(example)
    assert transcript.dialect == dialect
    assert transcript.messages and transcript.diagnostics == ()
    assert IMPORTERS[dialect].description


def test_an_unknown_dialect_is_refused_with_the_choices():
    choices = "auto, openchatml, harmony, chatml, json, events, llama3, gemma, mistral, deepseek, phi, claude-code, codex"
    with pytest.raises(ValueError, match=choices):
        parse("x", "yaml")
