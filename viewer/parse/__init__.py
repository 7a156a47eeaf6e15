"""Parse a transcript of any dialect into the one model: decode, detect, read with the reader its record in the
format registry names (viewer.formats), then check and pair (viewer.analysis)."""
from __future__ import annotations

import dataclasses
from typing import Callable

from viewer import formats
from viewer.analysis import check, pair_calls
from viewer.analysis.pairing import is_assistant_call
from viewer.model import Diagnostic, Message, Span, Transcript
from viewer.model.collector import collector_paused
from viewer.model.lines import line_spans
from viewer.bundles import is_bundle, read_bundle
from viewer.parse.bundles import first_member
from viewer.parse.decode import decode_members
from viewer.parse.detect import detect
from viewer.parse.inline_media import attach_media
from viewer.parse.options import ParseOptions
from viewer.parse.surrogates import replace_lone_surrogates

# Bump PARSER_VERSION whenever what an input parses to may change (messages, diagnostics, pairs, header, tools,
# frame): the store keeps each transcript's parse with the version that made it, and parses older ones again on
# their next open (with the policy's decisions, which have a version of their own: POLICY_VERSION).
# tests/golden/VERSION.json records the goldens' digest for this
# version: the golden tests fail when parse output changes while the version stays the same.
PARSER_VERSION = "23"


def parse(data: str | bytes, dialect: str = "auto", *, primed_role: str | None = None) -> Transcript:
    """Parse text or bytes into a Transcript. Never raises on user input: defects become diagnostics."""
    if dialect != "auto":
        formats.dialect(dialect)  # UnknownDialect, a ValueError naming the choices, for any other name
    # Every importer, the checks and the pairing make objects that all live on: the cyclic collector would walk
    # them again and again (a tenth of a Harmony parse, more of a JSON one). See viewer/parse/common.py.
    with collector_paused:
        return _parse(data, dialect, primed_role)


def _parse(data: str | bytes, dialect: str, primed_role: str | None) -> Transcript:
    text, decode_diagnostics, members = decode_members(data)
    chosen = detect(text) if dialect == "auto" else dialect
    options = ParseOptions(primed_role=primed_role)
    bundle = read_bundle(text) if is_bundle(text) and not formats.reads_bundles(formats.dialect(chosen)) else None
    if bundle is not None:
        # Several files no reader claims by their names: the first that reads as the dialect, read alone.
        return first_member(text, bundle, chosen,
                            lambda view: _parse_text(view, chosen, options, decode_diagnostics, []), decode_diagnostics)
    return _parse_text(text, chosen, options, decode_diagnostics, members)


def _parse_text(text: str, chosen: str, options: ParseOptions, decode_diagnostics: list[Diagnostic],
                members: list[Span]) -> Transcript:
    spans = _conversation_spans(text, members) if chosen == "json" else None
    if spans is not None:
        return _dataset(text, spans, options, decode_diagnostics)
    transcript = read_as(chosen, text, options)
    if transcript.is_dataset:  # a chat app's export: its conversations, each cleaned and finished on its own
        cleaned = tuple(replace_lone_surrogates(c, within=_extent(c)) for c in transcript.conversations)
        return _finished_dataset(dataclasses.replace(transcript, conversations=cleaned), decode_diagnostics)
    return _finish(replace_lone_surrogates(transcript), decode_diagnostics)


def read_as(dialect: str, text: str, options: ParseOptions) -> Transcript:
    """The text read by the dialect's reader alone: no checks, no pairing, no cleaning."""
    reader: DialectReader = formats.load(formats.dialect(dialect).reader)
    return reader(text, options)


def _finished_dataset(dataset: Transcript, decode_diagnostics: list[Diagnostic]) -> Transcript:
    conversations = tuple(_finish(c, []) for c in dataset.conversations)
    dataset = _finish(dataclasses.replace(dataset, conversations=conversations), decode_diagnostics)
    for conversation in conversations:  # one line index over the file, not one per conversation
        conversation.share_lines(dataset)
    return dataset


def _extent(conversation: Transcript) -> Span:
    """Where a conversation of a dataset lies in the file: from its first to its last span."""
    spans = [*(m.span for m in conversation.messages), *(s.span for s in conversation.frame),
             *(d.span for d in conversation.diagnostics)]
    return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else (0, 0)


# The JSON readers (viewer.parse.datasets and viewer.parse.json bring them all) are imported when a JSON file is
# read: the readers of other dialects are loaded by name from the registry, and a small file of theirs is parsed
# in a fraction of the time importing every JSON reader takes (issue 40).
def _conversation_spans(text: str, members: list[Span] | None = None) -> list[Span] | None:
    from viewer.parse.datasets import conversation_spans

    return conversation_spans(text, members)


def _dataset(text: str, spans: list[Span], options: ParseOptions, extra: list[Diagnostic]) -> Transcript:
    from viewer.parse.datasets import read_dataset

    return _finished_dataset(read_dataset(text, spans, _read_json_conversation, _read_json_within, options), extra)


def is_json_lines_dataset(head: str) -> bool:
    """Whether a text that begins with `head` (whole lines, the first 64 KiB at least) parses as a JSON Lines
    dataset: `parse` decides it from the same lines (detect.py reads 64 KiB; a dataset's first line decides)."""
    if detect(head) != "json" or head.lstrip().startswith("["):
        return False
    return _conversation_spans(head) is not None


def parse_dataset_lines(text: str) -> Transcript:
    """Whole lines of a JSON Lines dataset (`is_json_lines_dataset`), read as `parse` reads them in the whole
    file, each non-blank line a conversation, their spans into `text`: a big dataset is read a piece at a time
    (viewer/ingest/streaming.py) and its rows moved to the file's offsets as they are stored."""
    spans = [(start, end) for _, start, end in line_spans(text)]
    if not spans:
        return Transcript(dialect="json", source=text)
    with collector_paused:
        return _dataset(text, spans, ParseOptions(), [])


def _read_json_conversation(text: str, options: ParseOptions) -> Transcript:
    from viewer.parse.json import parse_json

    return replace_lone_surrogates(parse_json(text, options))


def _read_json_within(text: str, span: Span, options: ParseOptions) -> Transcript | None:
    from viewer.parse.json import parse_json_within

    conversation = parse_json_within(text, span, options)
    return None if conversation is None else replace_lone_surrogates(conversation, within=span)


def _finish(transcript: Transcript, extra: list[Diagnostic]) -> Transcript:
    """The transcript with its checks and pairs, and every diagnostic in source order."""
    cancelled = frozenset(d.message_index for d in transcript.diagnostics
                          if d.code == "E-TOOL-CANCELLED" and d.message_index is not None) \
        if transcript.diagnostics else _NONE_CANCELLED  # most conversations of a dataset: none to look through
    record = formats.dialect(transcript.dialect)
    # A format that records no replies (Cursor's agent transcripts) has no call to pair nor any call left unanswered.
    pairs, pairing_diagnostics = pair_calls(transcript.messages, record.pairing, cancelled) \
        if record.replies and _has_calls_or_replies(transcript.messages) else ([], [])
    transcript = attach_media(transcript)
    diagnostics = [*transcript.diagnostics, *extra, *check(transcript), *pairing_diagnostics]
    if len(diagnostics) > 1:
        diagnostics.sort(key=_source_order)
    if not pairs and not transcript.pairs and tuple(diagnostics) == transcript.diagnostics:
        return transcript  # nothing to add (most conversations of a dataset): no copy
    return dataclasses.replace(transcript, pairs=tuple(pairs), diagnostics=tuple(diagnostics))


_NONE_CANCELLED: frozenset[int] = frozenset()


def _source_order(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.span[0], diagnostic.span[1]


def _has_calls_or_replies(messages: tuple[Message, ...]) -> bool:
    """Whether pairing has anything to pair or report: most conversations of a dataset hold no call (setting up
    the pairing cost more than reading a short one)."""
    return any(message.role == "tool" or message.role == "assistant" and is_assistant_call(message)
               for message in messages)


DialectReader = Callable[[str, ParseOptions], Transcript]
"""What a dialect's record names as its reader."""

__all__ = ["PARSER_VERSION", "DialectReader", "ParseOptions", "detect", "is_json_lines_dataset", "parse",
           "parse_dataset_lines", "read_as"]
