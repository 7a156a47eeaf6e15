"""The turns each family makes directly (its plain-turn test and reasoning tokens, build.py) give exactly the
messages its body reader gives: every sample, and prefixes of the canary transcript, read both ways."""
from __future__ import annotations

import dataclasses

import pytest

from tests.conftest import SAMPLES
from tests.system.test_leaks import BUILDERS
from viewer.parse import IMPORTERS, ParseOptions
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
    read = IMPORTERS[dialect].read
    fast = [read(text, ParseOptions()).to_json() for text in texts(dialect)]
    reads = read_slowly(monkeypatch, dialect)
    slow = [MODULES[dialect].__dict__[f"parse_{dialect}"](text, ParseOptions()).to_json() for text in texts(dialect)]
    assert len(reads) == len(slow) > 5
    assert fast == slow
