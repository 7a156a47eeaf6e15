"""Small helpers the parser tests share."""
from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from viewer import formats
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


def assert_well_made(transcript: Transcript) -> None:
    """Every message and segment of the transcript (and of its conversations) holds values of its fields' types,
    in the field they name: `Message` is made positionally where it is made most often, and a call in an older
    order would put a span where an int goes."""
    for conversation in transcript.conversations or (transcript,):
        for message in conversation.messages:
            assert type(message.index) is int and type(message.turn) is int and isinstance(message.role, str)
            assert type(message.span_start) is int and type(message.span_end) is int
            assert (message.header_start, message.header_end) == (None, None) or \
                {type(message.header_start), type(message.header_end)} == {int}
            for text in (message.name, message.recipient, message.content_type, message.intent, message.call_id):
                assert text is None or isinstance(text, str)
            assert isinstance(message.channel, str) and isinstance(message.end, str)
            assert type(message.channel_explicit) is bool and type(message.constrained) is bool
            assert type(message.aside) is bool and isinstance(message.segments, tuple)
            _assert_text_kept(message, conversation.source)
            for segment in message.segments:
                assert type(segment.span_start) is int and type(segment.span_end) is int
                _assert_text_kept(segment, conversation.source)


def _assert_text_kept(made: Any, source: str) -> None:
    """A body of its own is a string; one left in the source lies inside the transcript's source."""
    if made.body is not None:
        assert isinstance(made.body, str)
    else:
        assert made.source is source and 0 <= made.body_at <= made.body_at + made.body_length <= len(source)


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
    # with other lines, whose records may hold a turn's parts apart (a VS Code request's injected context sits in
    # its result), and whose files or tables (a message's row, its parts' rows) may stand apart. (They may stand out
    # of order: a JSON record is read in the conversation's order, and a Gemini SDK dump writes its history after
    # the answer.)
    record = formats.find(transcript.dialect)
    if transcript.dialect != "events" and (record is None or record.session is None):
        extents = sorted(turns.values())
        for (_, end), (start, _) in zip(extents, extents[1:]):
            assert start >= end, "message spans of two turns overlap"
    for diagnostic in transcript.diagnostics:
        assert 0 <= diagnostic.span[0] <= diagnostic.span[1] <= len(text), diagnostic
        covered.append(diagnostic.span)
    covered.extend(segment.span for segment in transcript.frame)
    return covered
