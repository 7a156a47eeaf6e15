"""Whatever the raw-template importers cannot classify stays hidden: a transcript of each new family cut at every
character shows no hidden text (system, reasoning, tool definitions, call arguments, replies) in its default view.
(tests/system/test_leaks.py checks the web app's every response for the whole transcripts.)"""
from __future__ import annotations

import pytest

from tests.system.test_leaks import BUILDERS
from viewer.parse import parse
from viewer.policy.rules import default_rules

FAMILIES = ("llama3", "gemma", "mistral", "deepseek", "phi")


@pytest.mark.parametrize("dialect", FAMILIES)
@pytest.mark.parametrize("detected", [False, True], ids=["as-dialect", "auto"])
def test_no_prefix_of_a_transcript_shows_hidden_text(dialect, detected):
    raw = BUILDERS[dialect](dialect)
    for cut in range(len(raw) + 1):
        transcript = parse(raw[:cut], "auto" if detected else dialect)
        for message, rule in zip(transcript.messages, default_rules(transcript)):
            if rule.show_as in ("message", "preamble"):
                assert "CANARY" not in message.content, (cut, message)
