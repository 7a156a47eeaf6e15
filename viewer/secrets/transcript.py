"""`scan_transcript`: the secrets in every field of a transcript that a link holder could see, and their
`W-SECRET` diagnostics.

The source is scanned once (it is what the raw view, the source spans and the message headers show). A field
that is a verbatim slice of the source (most bodies) takes the source's findings at that place; every other
distinct string (a body unescaped from JSON, a thought block, names, recipients, YAML header values …) is
scanned once, all of them in one text, however many messages share it.
"""
from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter, lt
from typing import Any, Callable, Iterator

from viewer.model import Diagnostic, Message, Span, Transcript
from viewer.model.diagnostics import make_diagnostic
from viewer.secrets.finding import ELLIPSIS, Finding, preview
from viewer.secrets.personal.kinds import KINDS as PERSONAL_KINDS, REDACTED, name as personal_name
from viewer.secrets.scan import scan_text

MESSAGE_FIELDS = ("role", "name", "recipient", "channel", "content_type", "intent", "call_id")
"""Short fields of a message, scanned as they are (the body, its segments and its raw header too)."""
LONG_TEXT = 64
"""Fields longer than this are looked for in the source by their first characters first (`_find_slice`)."""
SEPARATOR = "\n"
"""Between the strings scanned together: detectors work within a line, so none sees two strings at once."""


@dataclass(frozen=True, slots=True)
class FieldSecret:
    """A secret in one field of a transcript."""

    finding: Finding
    """Its offsets in the field's text, its kind and preview."""
    field: str
    """Where: a message's `content`, `segments` (`path` is the segment's number), `header` (the raw header
    text), `role`, `name`, `recipient`, `channel`, `content_type`, `intent` or `call_id`; or the transcript's
    `source` (the input itself), `yaml_header` or `tools` (a value at `path`, or with `key` the key ending it)."""
    message_index: int | None = None
    """The message it is in; None outside messages."""
    conversation: int | None = None
    """For a dataset, the conversation it is in."""
    path: tuple[str | int, ...] = ()
    """Inside the field: the segment's number, or the keys (and list positions) down to a YAML header value."""
    key: bool = False
    """For `yaml_header` and `tools`: the secret is in the key ending `path`, not in its value."""
    span: Span = (0, 0)
    """Where a diagnostic points in the source: the secret itself where the field is a verbatim slice of the
    source (`exact`); otherwise the message (or the YAML header) that holds it."""
    exact: bool = False
    """Whether `span` is the secret's own characters in the source."""


Scanner = Callable[[str], list[Finding]]
"""A text to its findings, in order: `scan_text` (secrets), or secrets and personal data together."""


def scan_transcript(transcript: Transcript, scan: Scanner = scan_text) -> list[FieldSecret]:
    """Every secret (or whatever `scan` finds) in every field a link holder could see, field by field (the same
    secret once per field)."""
    source = transcript.source
    parts: list[tuple[int | None, Transcript]] = (list(enumerate(transcript.conversations)) if transcript.is_dataset
                                                   else [(None, transcript)])
    found: list[FieldSecret] = []
    in_source = scan(source)
    if in_source:
        owners = _Owners(parts, transcript.is_dataset)
        for finding in in_source:
            message, conversation = owners.of(finding.start)
            found.append(FieldSecret(finding, "source", message.index if message else None, conversation,
                                     span=(finding.start, finding.end), exact=True))
            if message is not None:
                found += _in_message(source, finding, message, conversation)
    pending: dict[str, list[tuple]] = defaultdict(list)
    fields = attrgetter(*MESSAGE_FIELDS)
    combinations: set[tuple] = set()
    startswith = source.startswith
    for conversation, part in parts:  # transcripts have 100,000 messages and more: comprehensions, not loops
        combinations.update(map(fields, part.messages))
        # A body that is not a slice of the source (a JSON string, a literal) is scanned on its own; a body left in
        # the source (viewer/model/pieces.py) is one, as is one written where its header ends.
        for message in [message for message in part.messages
                        if (message.source is not source if message.body is None else message.body and not (
                            message.header_end is not None
                            and startswith(message.body, message.header_end, message.span_end)))]:
            if _find_slice(source, message.content, *message.span) < 0:
                pending[message.content].append(("content", message.index, conversation, (), False, message.span))
        for message in [message for message in part.messages if message.segments]:
            for number, segment in enumerate(message.segments):
                if segment.text and _find_slice(source, segment.text, *segment.span) < 0:
                    pending[segment.text].append(("segments", message.index, conversation, (number,), False,
                                                  message.span))
    for conversation, part in [(None, transcript), *parts] if transcript.is_dataset else parts:
        for name, value in (("yaml_header", part.header), ("tools", part.tools)):  # a dataset's lines have their own
            if not value:
                continue
            holder = next((segment.span for segment in part.frame if segment.kind == name), None) or \
                ((0, 0) if conversation is None else _extent(part))
            for path, key, text in _strings(value, ()):
                pending[text].append((name, None, conversation, path, key, holder))
    found += _scan_pending(pending, scan)
    found += _short_fields(parts, {value for combination in combinations for value in combination if value},
                           scan)
    return found


def _messages(parts: list[tuple[int | None, Transcript]]) -> Iterator[tuple[int | None, Message]]:
    """Every message with its conversation, one at a time (a list of 100,000 pairs would make the garbage
    collector walk the whole transcript)."""
    for conversation, part in parts:
        for message in part.messages:
            yield conversation, message


def _in_message(source: str, finding: Finding, message: Message, conversation: int | None) -> Iterator[FieldSecret]:
    """A secret found in the source, in the message fields that are verbatim slices of it there."""
    places: list[tuple[str, tuple[int, ...], str, Span]] = [("content", (), message.content, message.span)]
    places += [("segments", (number,), segment.text, segment.span) for number, segment in enumerate(message.segments)]
    if message.header:
        places.append(("header", (), source[message.header[0]:message.header[1]], message.header))
    for field, path, text, within in places:
        at = _at(source, text, within, message.header if field == "content" else None) if text else -1
        if at >= 0 and finding.start < at + len(text) and finding.end > at:
            low, high = max(finding.start, at), min(finding.end, at + len(text))
            clipped = Finding(low - at, high - at, finding.kind, preview(source[low:high], finding.kind), source[low:high])
            yield FieldSecret(clipped, field, message.index, conversation, path, False, (low, high), True)


def _at(source: str, text: str, within: Span, header: Span | None) -> int:
    """Where a field's text is, verbatim, in the source inside `within`; -1 if it is not (a JSON string with
    escapes). A body usually starts where its header ends, which is checked first."""
    if header and source.startswith(text, header[1], within[1]):
        return header[1]
    return _find_slice(source, text, *within)


def _find_slice(source: str, text: str, start: int, end: int) -> int:
    """Where `text` is in `source[start:end]`, or -1. A long text is looked for by its first characters first
    (a JSON body is rarely verbatim in its string, and searching a short needle is several times faster); only
    past a false start is the whole text searched for, so that a head repeated all along stays linear."""
    if len(text) <= LONG_TEXT:
        return source.find(text, start, end)
    at = source.find(text[:LONG_TEXT], start, end)
    if at < 0 or at > end - len(text):
        return -1
    return at if source.startswith(text, at) else source.find(text, at + 1, end)


def _short_fields(parts: list[tuple[int | None, Transcript]], values: set[str], scan: Scanner) -> list[FieldSecret]:
    """Names, recipients, channels…: each distinct value scanned once, then placed in the messages holding it."""
    fields = attrgetter(*MESSAGE_FIELDS)
    joined = list(values)
    secret = {text: findings for text, findings in zip(joined, _scan_each(joined, scan)) if findings}
    found = []
    for conversation, message in _messages(parts) if secret else ():
        for name, value in zip(MESSAGE_FIELDS, fields(message)):
            for finding in secret.get(value or "", ()):
                found.append(FieldSecret(finding, name, message.index, conversation, span=message.span))
    return found


def _scan_pending(pending: dict[str, list[tuple]], scan: Scanner) -> list[FieldSecret]:
    """Scan every pending string once and place each finding in every field holding that string."""
    texts = list(pending)
    found: list[FieldSecret] = []
    for text, findings in zip(texts, _scan_each(texts, scan)):
        for finding in findings:
            for field, index, conversation, path, key, holder in pending[text]:
                found.append(FieldSecret(finding, field, index, conversation, path, key, holder))
    return found


def _scan_each(texts: list[str], scan: Scanner) -> list[list[Finding]]:
    """The findings of each text, all scanned in one text (one search per anchor however many there are)."""
    offsets, at = [], 0
    for text in texts:
        offsets.append(at)
        at += len(text) + len(SEPARATOR)
    each: list[list[Finding]] = [[] for _ in texts]
    for finding in scan(SEPARATOR.join(texts)) if texts else ():
        number = bisect.bisect_right(offsets, finding.start) - 1
        text, base = texts[number], offsets[number]
        start, end = finding.start - base, min(finding.end - base, len(text))  # a key block stops at its string
        each[number].append(Finding(start, end, finding.kind, preview(text[start:end], finding.kind), text[start:end]))
    return each


def _strings(value: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], bool, str]]:
    """Every key and string value in a YAML or JSON structure, with its path."""
    if isinstance(value, str):
        yield path, False, value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield (*path, str(name)), True, str(name)
            yield from _strings(item, (*path, str(name)))
    elif isinstance(value, (list, tuple)):
        for number, item in enumerate(value):
            yield from _strings(item, (*path, number))


def _extent(conversation: Transcript) -> Span:
    """Where a dataset's conversation is in the file: its messages and the JSON around them."""
    spans = [*(segment.span for segment in conversation.frame), *(message.span for message in conversation.messages)]
    return (min(start for start, _ in spans), max(end for _, end in spans)) if spans else (0, 0)


class _Owners:
    """Which message (and conversation) a source offset lies in."""

    def __init__(self, parts: list[tuple[int | None, Transcript]], dataset: bool) -> None:
        # Messages are nearly always in source order already, so they are sorted only when not: sorting a tuple
        # per message was most of what a found secret added to the scan of a big transcript. A message's
        # conversation is kept only for datasets.
        messages = [message for _, part in parts for message in part.messages]
        conversations = [conversation for conversation, part in parts for _ in part.messages] if dataset else None
        starts = [message.span[0] for message in messages]
        if not all(map(lt, starts, islice(starts, 1, None))):  # not strictly in order: sort by span
            order = sorted(range(len(messages)), key=lambda number: messages[number].span)
            messages = [messages[number] for number in order]
            conversations = [conversations[number] for number in order] if conversations is not None else None
            starts = [message.span[0] for message in messages]
        self.messages, self.conversations, self.starts = messages, conversations, starts
        self.extents = sorted((_extent(part), conversation) for conversation, part in parts) if dataset else []
        self.extent_starts = [start for (start, _), _ in self.extents]

    def of(self, offset: int) -> tuple[Message | None, int | None]:
        """The message holding a source offset, and its conversation; outside messages, the conversation whose
        line holds it (a declared tool, a key of its own), else (None, None)."""
        number = bisect.bisect_right(self.starts, offset) - 1
        if number >= 0 and offset < self.messages[number].span[1]:
            return self.messages[number], self.conversations[number] if self.conversations else None
        number = bisect.bisect_right(self.extent_starts, offset) - 1
        if number >= 0 and offset < self.extents[number][0][1]:
            return None, self.extents[number][1]
        return None, None


def diagnostic(located: FieldSecret) -> Diagnostic:
    """`W-SECRET` for one secret: its kind and masked preview, never the secret; `W-PERSONAL-DATA` for personal
    data, `W-REDACTED` for a passage the uploader redacted, each with the placeholder link holders read."""
    finding = located.finding
    if finding.kind == REDACTED:
        return make_diagnostic("W-REDACTED", located.span, "The uploader redacted text here; people with the link "
                                                           f"read {finding.preview}.", located.message_index)
    if finding.kind in PERSONAL_KINDS:
        return make_diagnostic("W-PERSONAL-DATA", located.span, f"Personal data ({personal_name(finding.kind)}) was "
                               f"found here; people with the link read {finding.preview}.", located.message_index)
    shown = finding.kind if finding.preview == ELLIPSIS else f"{finding.kind}, {finding.preview}"
    return make_diagnostic("W-SECRET", located.span, f"A secret ({shown}) was found here; mask or remove it "
                                                     "before sharing.", located.message_index)


def diagnostics(found: list[FieldSecret], conversation: int | None = None) -> list[Diagnostic]:
    """One diagnostic per secret of one transcript (of a dataset's `conversation`), in source order."""
    return sorted(map(diagnostic, distinct(found, conversation)), key=lambda diagnostic: diagnostic.span)


def distinct(found: list[FieldSecret], conversation: int | None = None) -> list[FieldSecret]:
    """One finding per secret of one transcript (of a dataset's `conversation`). A secret seen in the source
    and again in a field that is a slice of it is one secret; so is one seen in a field that is not (a
    JSON-escaped body) when the source has one of the same kind and preview in that message."""
    mine = [item for item in found if item.conversation == conversation]
    in_source = {(item.message_index, item.finding.kind, item.finding.preview) for item in mine if item.exact}
    made: dict[tuple, FieldSecret] = {}
    for item in mine:
        if item.exact or (item.message_index, item.finding.kind, item.finding.preview) not in in_source:
            identity = () if item.exact else (item.finding.kind, item.finding.preview)
            made.setdefault((item.message_index, item.span, *identity), item)
    return list(made.values())


def count_kinds(found: list[FieldSecret]) -> dict[str, int]:
    """How many secrets of each kind, over every conversation: what an upload's answer reports."""
    counts: dict[str, int] = {}
    for conversation in {item.conversation for item in found}:
        for item in distinct(found, conversation):
            counts[item.finding.kind] = counts.get(item.finding.kind, 0) + 1
    return dict(sorted(counts.items()))
