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
import re
from typing import Any, Callable

from viewer.analysis.jsontext import loads
from viewer.model import Diagnostic, Message, Segment, Span, Transcript, make_diagnostic
from viewer.model.lines import line_spans
from viewer.parse.json.inspect_log import dataset_header, member_sample_spans, sample_spans
from viewer.parse.json.shapes import in_datasets
from viewer.parse.options import ParseOptions
from viewer.parse.patterns import always_matching

CONVERSATION_KEYS = ("messages", "conversations", "conversation", "input", "output", "items", "turns")
"""Keys whose list value makes an object a whole conversation rather than one message."""

DialectParser = Callable[[str, ParseOptions], Transcript]
WithinParser = Callable[[str, Span, ParseOptions], "Transcript | None"]
_DECODER = json.JSONDecoder()
_SPACE = always_matching(r"\s*")
_NOT_BLANK = re.compile(r"\S")


def conversation_spans(text: str, members: list[Span] | None = None) -> list[Span] | None:
    """Where each conversation of a dataset lies, or None when the text is not a dataset (one conversation,
    messages one per line, anything else). `members`: where the members of the Inspect AI archive the text was
    unpacked from lie in it (decode.decode_members), whose samples are then found without reading the text."""
    if members and (samples := member_sample_spans(text, members)) is not None:
        return samples
    start = _SPACE.match(text).end()
    if text.startswith("[", start):
        return _array_elements(text, start)
    if text.startswith("{", start) and (samples := sample_spans(text, start)) is not None:
        return samples  # an Inspect AI log: each sample is a conversation
    # A dataset has two lines at least, and its first line decides: both are asked before the lines are split
    # (a big document that is no dataset is one line, or has many).
    newline = text.find("\n", start)
    if newline == -1 or _NOT_BLANK.search(text, newline) is None:
        return None
    lines = line_spans(text)
    _, first, end = next(lines)
    if not _is_conversation(text[first:end]):
        return None
    return [(first, end), *((start, end) for _, start, end in lines)]


def _is_conversation(element: str) -> bool:
    try:
        value = loads(element)
    except (ValueError, RecursionError):
        return False
    return _holds_conversation(value)


def _holds_conversation(value: Any) -> bool:
    # A record (a batch line, a preference pair, an API response: viewer/parse/json/shapes.py) is one too.
    return isinstance(value, dict) and (any(isinstance(value.get(key), list) for key in CONVERSATION_KEYS)
                                        or in_datasets(value))


def _array_elements(text: str, bracket: int) -> list[Span] | None:
    """The spans of a JSON array's elements when they are conversations (None otherwise); reading stops at
    the first element that is not JSON, and the rest of the file is left to `read_dataset`'s diagnostics."""
    spans: list[Span] = []
    at = _skip_space(text, bracket + 1)
    while at < len(text) and text[at] != "]":
        try:
            value, end = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):
            break
        if not spans and not _holds_conversation(value):
            return None  # a list of messages: the first element decides, before the others are read
        spans.append((at, end))
        at = _skip_space(text, end)
        if text.startswith(",", at):
            at = _skip_space(text, at + 1)
    return spans if len(spans) >= 2 else None


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def read_dataset(text: str, spans: list[Span], read: DialectParser, read_within: WithinParser,
                 options: ParseOptions) -> Transcript:
    """Each conversation read on its own, its spans into the whole file; the file's frame and any text outside
    the conversations in the dataset's own diagnostics; what the file says of all its conversations (an Inspect AI
    log's own members) in the dataset's header.

    A conversation is read where it stands (`read_within`, so nothing is copied or moved: moving every span of
    every message took as long as reading them). One that is not a whole JSON object is read as a copy and its
    spans moved, so that what is said about its broken JSON quotes its own lines, as for a file of its own."""
    dataset = Transcript(dialect="json", source=text, header=dataset_header(text, spans))
    conversations = []
    for start, end in spans:
        conversation = read_within(text, (start, end), options)
        if conversation is None:
            conversation = _shifted(read(text[start:end], options), start, text)
        conversations.append(conversation)
    frame, diagnostics = between(text, spans)
    return dataclasses.replace(dataset, conversations=tuple(conversations), frame=tuple(frame),
                               diagnostics=tuple(diagnostics))


def between(text: str, spans: list[Span]) -> tuple[list[Segment], list[Diagnostic]]:
    """What lies between conversations: the array's brackets and commas are frame; anything after the last
    conversation that is not the closing bracket was not read (a syntax error cut the array short)."""
    frame, diagnostics = [], []
    edges = [(0, spans[0][0]), *zip((end for _, end in spans), (start for start, _ in spans[1:]))]
    for start, end in edges:
        if text[start:end].strip():
            frame.append(Segment("json", text[start:end], start, end))
    tail = spans[-1][1]
    rest = text[tail:].strip()
    if rest in ("]", "") or _closes_document(text, rest):
        if rest:
            frame.append(Segment.of("json", text[tail:], (tail, len(text))))
    else:
        diagnostics.append(make_diagnostic("W-JSON-SYNTAX", (tail, len(text)),
                                           "The dataset's JSON array breaks off here; the rest was not read."))
    return frame, diagnostics


def _closes_document(text: str, rest: str) -> bool:
    """Whether `rest` closes the array of conversations inside an object and then the object itself (the rest of
    an Inspect AI log after its samples), as valid JSON."""
    if not text.lstrip().startswith("{") or not rest.startswith("]"):
        return False
    try:
        json.loads('{"_": [' + rest)
    except (ValueError, RecursionError):
        return False
    return True


def _shifted(transcript: Transcript, offset: int, source: str) -> Transcript:
    """The transcript of a slice, its spans moved by `offset` into `source`."""
    def span(value: Span) -> Span:
        return value[0] + offset, value[1] + offset

    def segment(value: Segment) -> Segment:
        return Segment.of(value.kind, value.text, span(value.span))

    def message(value: Message) -> Message:
        return value.changed(span=span(value.span), segments=tuple(map(segment, value.segments)),
                             header=span(value.header) if value.header else None)

    return dataclasses.replace(
        transcript, source=source, messages=tuple(map(message, transcript.messages)),
        diagnostics=tuple(dataclasses.replace(d, span=span(d.span)) for d in transcript.diagnostics),
        frame=tuple(map(segment, transcript.frame)))
