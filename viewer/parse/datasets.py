"""Datasets: one file of many whole conversations, the shape of nearly every fine-tuning and evaluation file.

Two containers: JSON Lines with one conversation per line, and a JSON array of conversations. A conversation is
an object holding a list under one of `CONVERSATION_KEYS` (`{"messages": [...]}` as OpenAI fine-tuning files
write it, ShareGPT's `{"conversations": [...]}`, a Responses API `input`/`output`, …). Each conversation is read
on its own by the JSON importer, so checks and call pairing never cross from one conversation into the next, and
its spans are then moved to point into the whole file: every character still lies in a message, a frame segment
or a diagnostic.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Callable

from viewer.model import Diagnostic, Message, Segment, Span, Transcript, make_diagnostic
from viewer.model.lines import line_spans
from viewer.parse.options import ParseOptions

CONVERSATION_KEYS = ("messages", "conversations", "conversation", "input", "output", "items", "turns")
"""Keys whose list value makes an object a whole conversation rather than one message."""

DialectParser = Callable[[str, ParseOptions], Transcript]
_DECODER = json.JSONDecoder()


def conversation_spans(text: str) -> list[Span] | None:
    """Where each conversation of a dataset lies, or None when the text is not a dataset (one conversation,
    messages one per line, anything else)."""
    start = len(text) - len(text.lstrip())
    if text.startswith("[", start):
        return _array_elements(text, start)
    lines = [(first, end) for _, first, end in line_spans(text)]
    if len(lines) < 2 or not _is_conversation(text[lines[0][0]:lines[0][1]]):
        return None
    return lines


def _is_conversation(element: str) -> bool:
    try:
        value = json.loads(element)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and any(isinstance(value.get(key), list) for key in CONVERSATION_KEYS)


def _array_elements(text: str, bracket: int) -> list[Span] | None:
    """The spans of a JSON array's elements when they are conversations (None otherwise); reading stops at
    the first element that is not JSON, and the rest of the file is left to `read_dataset`'s diagnostics."""
    spans: list[Span] = []
    at = _skip_space(text, bracket + 1)
    while at < len(text) and text[at] != "]":
        try:
            _, end = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):
            break
        spans.append((at, end))
        at = _skip_space(text, end)
        if text.startswith(",", at):
            at = _skip_space(text, at + 1)
    if len(spans) < 2 or not _is_conversation(text[spans[0][0]:spans[0][1]]):
        return None
    return spans


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def read_dataset(text: str, spans: list[Span], read: DialectParser, options: ParseOptions) -> Transcript:
    """Each conversation read on its own, its spans moved into the whole file; the file's frame and any text
    outside the conversations in the dataset's own diagnostics."""
    dataset = Transcript(dialect="json", source=text)
    conversations = []
    for start, end in spans:
        conversations.append(_shifted(read(text[start:end], options), start, text))
    frame, diagnostics = _between(text, spans)
    return dataclasses.replace(dataset, conversations=tuple(conversations), frame=tuple(frame),
                               diagnostics=tuple(diagnostics))


def _between(text: str, spans: list[Span]) -> tuple[list[Segment], list[Diagnostic]]:
    """What lies between conversations: the array's brackets and commas are frame; anything after the last
    conversation that is not the closing bracket was not read (a syntax error cut the array short)."""
    frame, diagnostics = [], []
    edges = [(0, spans[0][0]), *zip((end for _, end in spans), (start for start, _ in spans[1:]))]
    for start, end in edges:
        if text[start:end].strip():
            frame.append(Segment("json", text[start:end], (start, end)))
    tail = spans[-1][1]
    rest = text[tail:].strip()
    if rest in ("]", ""):
        if rest:
            frame.append(Segment("json", text[tail:], (tail, len(text))))
    else:
        diagnostics.append(make_diagnostic("W-JSON-SYNTAX", (tail, len(text)),
                                           "The dataset's JSON array breaks off here; the rest was not read."))
    return frame, diagnostics


def _shifted(transcript: Transcript, offset: int, source: str) -> Transcript:
    """The transcript of a slice, its spans moved by `offset` into `source`."""
    def span(value: Span) -> Span:
        return value[0] + offset, value[1] + offset

    def segment(value: Segment) -> Segment:
        return Segment(value.kind, value.text, span(value.span))

    def message(value: Message) -> Message:
        return dataclasses.replace(value, span=span(value.span), segments=tuple(map(segment, value.segments)),
                                   header=span(value.header) if value.header else None)

    return dataclasses.replace(
        transcript, source=source, messages=tuple(map(message, transcript.messages)),
        diagnostics=tuple(dataclasses.replace(d, span=span(d.span)) for d in transcript.diagnostics),
        frame=tuple(map(segment, transcript.frame)))
