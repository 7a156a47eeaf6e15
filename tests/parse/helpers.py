"""Small helpers the parser tests share."""
from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from viewer.model import Diagnostic, Transcript
from viewer.parse import parse


def codes(transcript: Transcript) -> list[str]:
    """The transcript's diagnostic codes, in order."""
    return [diagnostic.code for diagnostic in transcript.diagnostics]


def read_both_ways(text: str, module: ModuleType, fast_reader: str) -> tuple[Any, Any]:
    """`text` parsed as JSON with its fast reader `module.<fast_reader>`, and with that reader made to read
    nothing (so the general reader reads everything): the model JSON and frame spans of each, for a property test
    that the two agree."""
    def read(fast: bool) -> tuple[Any, list]:
        with pytest.MonkeyPatch.context() as patch:
            if not fast:
                patch.setattr(module, fast_reader, lambda *args: False)
            transcript = parse(text, "json")
        return transcript.to_json(), [segment.span for segment in transcript.frame]
    return read(True), read(False)


def only(transcript: Transcript, code: str) -> Diagnostic:
    """The one diagnostic with this code (fails when there are none or several)."""
    found = [diagnostic for diagnostic in transcript.diagnostics if diagnostic.code == code]
    assert len(found) == 1, transcript.diagnostics
    return found[0]


def assert_accounted_for(transcript: Transcript, text: str) -> None:
    """Spans are ordered and inside the text, and every non-blank character is in a message, a frame segment or a
    diagnostic (of the transcript, or of one of a dataset's conversations)."""
    covered = []
    for part in (transcript, *transcript.conversations):
        covered.extend(_spans_of(part, text))
    covered.sort()
    position = 0
    for start, end in covered:
        if start > position:
            assert text[position:start].strip() == "", f"unaccounted text {text[position:start]!r}"
        position = max(position, end)
    assert text[position:].strip() == "", f"unaccounted text {text[position:]!r}"


def _spans_of(transcript: Transcript, text: str) -> list[tuple[int, int]]:
    covered = []
    turns: dict[int, tuple[int, int]] = {}
    for message in transcript.messages:
        start, end = message.span
        assert 0 <= start <= end <= len(text), message
        covered.append((start, end))
        first, last = turns.get(message.turn, (start, end))
        turns[message.turn] = (min(first, start), max(last, end))
    # Turns never overlap, except in event logs and agent sessions, whose streams (a response's lines) may interleave
    # with other lines. (They may stand out of order: a JSON
    # record is read in the conversation's order, and a Gemini SDK dump writes its history after the answer.)
    if transcript.dialect not in ("events", "claude-code", "codex"):
        extents = sorted(turns.values())
        for (_, end), (start, _) in zip(extents, extents[1:]):
            assert start >= end, "message spans of two turns overlap"
    for diagnostic in transcript.diagnostics:
        assert 0 <= diagnostic.span[0] <= diagnostic.span[1] <= len(text), diagnostic
        covered.append(diagnostic.span)
    covered.extend(segment.span for segment in transcript.frame)
    return covered
