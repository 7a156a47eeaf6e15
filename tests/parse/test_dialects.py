"""The dialects of the format registry, as the parser offers them: each one's example reads as it."""
from __future__ import annotations

import pytest

from viewer import formats
from viewer.parse import detect, parse

DIALECTS = formats.NAMES


def test_the_dialects_are_offered_in_the_registry_s_order():
    assert DIALECTS == ("openchatml", "harmony", "chatml", "json", "events", "llama3", "gemma",
                        "mistral", "deepseek", "phi", "claude-code", "codex", "goose", "crush", "opencode", "cursor",
                        "copilot-cli", "vscode-chat", "gemini-cli", "antigravity", "qwen-code", "factory-droid",
                        "cursor-agent", "cline", "roo-code", "kilo-code", "cline-sdk", "cline-ui", "pi", "aider",
                        "aider-llm", "kimi-code", "kimi-cli", "openhands", "swe-agent", "mini-swe-agent", "atif",
                        "specstory", "chatgpt", "claude-ai")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_dialect_s_example_is_detected_as_it_and_parses_cleanly(dialect):
    example = formats.dialect(dialect).example
    assert detect(example) == dialect
    transcript = parse(example)
    assert transcript.dialect == dialect
    assert transcript.messages and transcript.diagnostics == ()


def test_an_unknown_dialect_is_refused_with_the_choices():
    choices = "auto, openchatml, harmony, chatml, json, events, llama3, gemma, mistral, deepseek, phi, claude-code, codex"
    with pytest.raises(ValueError, match=choices):
        parse("x", "yaml")
