"""What a link holder reads of a transcript with secrets: the same transcript with every secret replaced by
`[secret: KIND]`, in its source and in every field, and every offset moved to match.

A secret is masked wherever it is written, not only where the scanner found it: in the source a JSON string
escapes it (`\\n` in a private key, `\\/` in a URL) and a YAML block indents its lines, so each secret is
searched in all its spellings (itself, its JSON escapes, and each long line of a secret of several lines),
besides the spans the source's own scan found. Masking is one more step on a finished parse: the policy's
decisions are made on the transcript as written, so masking never changes what a view shows or hides.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace
from typing import Any, Iterable

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Message, Meta, Segment, Span, Transcript
from viewer.secrets.finding import placeholder_of
from viewer.secrets.personal.kinds import REDACTED
from viewer.secrets.transcript import FieldSecret

SHORTEST_SPELLING = 4
"""Shorter strings are not searched for (a line `==` of a key); they are masked where the scan found them."""
SHORTEST_LINE = 16
"""Each line of a secret of several lines at least this long is masked on its own, wherever it stands."""

Replaced = tuple[int, int, str]
"""A span of a text and what stands there once masked (`[secret: KIND]`, `[email]` …)."""


class Masker:
    """Finds every spelling of a transcript's secrets in a text and masks them."""

    def __init__(self, found: Iterable[FieldSecret], source: str = "", known: Masker | None = None) -> None:
        placeholders: dict[str, str] = dict(known.placeholders) if known is not None else {}
        chosen: set[str] = set(known.chosen) if known is not None else set()
        for located in found:
            secret = located.finding.secret
            if located.finding.kind == REDACTED:  # the uploader's choice: any length, but whole words
                forms = spellings(secret, shortest=1)
                chosen |= forms
            else:
                # A secret that starts just after a lone backslash in the source begins inside an escape (`\f057…`
                # in a JSON or YAML string): the field holds the escaped character, which re-encoding writes back.
                written = ("\\" + secret,) if located.exact and _escaped_at(source, located.span[0]) else ()
                forms = {form for text in (secret, *written) for form in spellings(text)}
            for form in sorted(forms):
                placeholders.setdefault(form, placeholder_of(located.finding))
        self.placeholders: dict[str, str] = placeholders
        """Each spelling and what stands in its place, in the order they were found (`known`'s first: the
        secrets of the pieces of a session read before)."""
        self.chosen: set[str] = chosen
        """The spellings of the uploader's redactions, matched as whole words."""
        ordered = sorted(placeholders, key=len, reverse=True)  # the longest spelling wins where two start together
        self.pattern = re.compile("|".join(_whole_words(form) if form in chosen else re.escape(form)
                                           for form in ordered)) if ordered else None

    def spans(self, text: str) -> list[Replaced]:
        """Where a spelling of a secret is in `text`, in order."""
        if self.pattern is None or not text:
            return []
        return [(found.start(), found.end(), self.placeholders[found.group()])
                for found in self.pattern.finditer(text)]

    def text(self, text: str) -> str:
        """`text` with every spelling of a secret masked."""
        if self.pattern is None or not text:
            return text
        return self.pattern.sub(lambda found: self.placeholders[found.group()], text)

    def optional(self, text: str | None) -> str | None:
        return None if text is None else self.text(text)

    def structure(self, value: Any) -> Any:
        """A YAML header or tool schema with every key and string masked."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.structure(key) if isinstance(key, str) else key: self.structure(item)
                    for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.structure(item) for item in value]
        return value


def _whole_words(form: str) -> str:
    """A redacted text as a pattern that matches it only as whole words where it starts or ends with a word
    character: redacting `Ann` leaves `Annual` alone."""
    head = r"(?<!\w)" if form[:1].isalnum() or form[:1] == "_" else ""
    tail = r"(?!\w)" if form[-1:].isalnum() or form[-1:] == "_" else ""
    return head + re.escape(form) + tail


def spellings(secret: str, shortest: int = SHORTEST_SPELLING) -> set[str]:
    """How a secret may be written in a source: as it is, escaped in a JSON string (with or without escaped
    slashes and non-ASCII), and each of its long lines alone (a YAML block indents them). A secret found in a
    JSON string's escapes (`\\n` between a key's lines) is also spelled as the text it stands for, which is
    what the parse's fields hold and a diagnostic may quote part of."""
    found: set[str] = set()
    for reading in _readings(secret):
        lines = [line.strip() for line in reading.splitlines()] if "\n" in reading else []
        for text in (reading, *(line for line in lines if len(line) >= SHORTEST_LINE)):
            for ascii_only in (False, True):
                escaped = json.dumps(text, ensure_ascii=ascii_only)[1:-1]
                found.update((text, escaped, escaped.replace("/", "\\/")))
    return {form for form in found if len(form) >= shortest}


def _escaped_at(source: str, at: int) -> bool:
    """Whether `source[at]` follows an odd run of backslashes (is the letter of an escape)."""
    if at > len(source):  # no source given
        return False
    run = 0
    while at - run - 1 >= 0 and source[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _readings(secret: str) -> list[str]:
    """The secret as found, and unescaped when it is the inside of a JSON string with escapes."""
    if "\\" not in secret:
        return [secret]
    try:
        unescaped = json.loads(f'"{secret}"')
    except ValueError:  # not a JSON string's inside: a backslash of its own
        return [secret]
    return [secret, unescaped] if unescaped != secret else [secret]


class Moves:
    """How offsets of a text move when some of its spans are replaced: every span before an offset moves it by
    the difference of lengths; an offset inside a replaced span goes to its replacement's start (a span's
    start) or end (a span's end)."""

    def __init__(self, replaced: list[tuple[int, int, int, int]]) -> None:
        self.replaced = replaced
        self.starts = [start for start, *_ in replaced]

    def offset(self, at: int, *, end: bool = False) -> int:
        number = bisect.bisect_right(self.starts, at) - 1
        if number < 0:
            return at
        start, stop, new_start, new_stop = self.replaced[number]
        if at >= stop:
            return at + new_stop - stop
        return new_stop if end and at > start else new_start

    def span(self, span: Span) -> Span:
        return self.offset(span[0]), self.offset(span[1], end=True)


def mask_source(source: str, masker: Masker, found_spans: Iterable[Replaced]) -> tuple[str, Moves]:
    """The source with the spans the scan found and every spelling of a secret masked (overlapping ones as
    one span, named by the first), and how its offsets moved."""
    spans = sorted([*found_spans, *masker.spans(source)])
    parts: list[str] = []
    replaced: list[tuple[int, int, int, int]] = []
    done = written = 0
    for start, end, placeholder in spans:
        if end <= done:
            continue
        if start < done:  # overlaps the span just masked: widen it
            first, _, new_start, new_stop = replaced[-1]
            replaced[-1] = (first, end, new_start, new_stop)
            done = end
            continue
        parts.append(source[done:start])
        written += start - done
        parts.append(placeholder)
        replaced.append((start, end, written, written + len(placeholder)))
        written += len(placeholder)
        done = end
    parts.append(source[done:])
    return "".join(parts), Moves(replaced)


def mask_transcript(transcript: Transcript, masker: Masker, found_spans: Iterable[Replaced],
                    holding: Iterable[int | None] = ()) -> Transcript:
    """The transcript a link holder reads: every secret masked in its source and fields, offsets moved.
    `holding`: the messages a secret was found in (their index); any other whose source holds none is only
    moved."""
    source, moves = mask_source(transcript.source, masker, found_spans)
    masked = _masked(transcript, source, moves, masker, set(holding))
    for conversation in masked.conversations:
        conversation.share_lines(masked)  # one line index for the whole file, as the parser arranged it
    return masked


def _masked(transcript: Transcript, source: str, moves: Moves, masker: Masker, holding: set[int | None]) -> Transcript:
    return replace(transcript, source=source, messages=_messages(transcript.messages, moves, masker, holding),
                   diagnostics=tuple(_diagnostic(diagnostic, moves, masker) for diagnostic in transcript.diagnostics),
                   header=masker.structure(transcript.header), tools=masker.structure(transcript.tools),
                   frame=tuple(_segment(segment, moves, masker) for segment in transcript.frame),
                   conversations=tuple(_masked(conversation, source, moves, masker, holding)
                                       for conversation in transcript.conversations))


def _messages(messages: tuple[Message, ...], moves: Moves, masker: Masker,
              holding: set[int | None]) -> tuple[Message, ...]:
    """Each message masked where it may hold a secret (the scan found one in it, or a replaced span of the source
    overlaps it), else only moved by the placeholders before it: a transcript has 100,000 messages, a handful of
    them with secrets. Messages come in source order, so the shift is carried from one to the next and looked
    up again only past a replaced span or for a message out of order (a lookup per message was a fifth of
    masking a big transcript)."""
    replaced, starts = moves.replaced, moves.starts
    count, done = len(starts), []
    number, shift = -1, 0  # the last replaced span starting at or before the message, and how far it moves others
    for message in messages:
        start, end = message.span
        if (number + 1 < count and starts[number + 1] <= start) or (number >= 0 and starts[number] > start):
            number = bisect.bisect_right(starts, start) - 1
            shift = replaced[number][3] - replaced[number][1] if number >= 0 else 0
        if message.index in holding or (number >= 0 and replaced[number][1] > start) \
                or (number + 1 < count and starts[number + 1] < end):
            done.append(_message(message, moves, masker))
        else:
            moved = _moved(message, shift) if shift else message
            # What the log recorded beside the text may have been written elsewhere in the source (a tool's own
            # display of its result): masked wherever the message is.
            done.append(moved if moved.meta is None or not moved.meta.details
                        else moved.changed(meta=_meta(moved.meta, masker)))
    return tuple(done)


def _meta(meta: Meta | None, masker: Masker) -> Meta | None:
    """A message's metadata with what it recorded beside its text (`details`) masked."""
    if meta is None or not meta.details:
        return meta
    return replace(meta, details=_details(meta.details, masker))


def _details(value: Any, masker: Masker) -> Any:
    """Every string (keys too) masked. A value kept by its span (`{"$source": [start, end]}`) keeps the numbers
    the parse gave it, as a session stored a piece at a time does: they hold no text."""
    if isinstance(value, dict):
        return {masker.text(key) if isinstance(key, str) else key: _details(item, masker)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_details(item, masker) for item in value]
    return masker.text(value) if isinstance(value, str) else value


def _moved(message: Message, shift: int) -> Message:
    """`message` with its offsets (span, header, segments, media) `shift` further on: every message after a masked
    secret."""
    start, end = message.span
    header = message.header
    return message.changed(span=(start + shift, end + shift),
                           header=(header[0] + shift, header[1] + shift) if header else header,
                           segments=tuple(segment.changed(span=(first + shift, last + shift))
                                          for segment in message.segments for first, last in (segment.span,)),
                           media=tuple(replace_fields(media, span=(media.span[0] + shift, media.span[1] + shift))
                                       for media in message.media))


def _message(message: Message, moves: Moves, masker: Masker) -> Message:
    text, optional = masker.text, masker.optional
    return message.changed(role=text(message.role), content=text(message.content), span=moves.span(message.span),
                           name=optional(message.name), recipient=optional(message.recipient),
                           channel=text(message.channel), content_type=optional(message.content_type),
                           intent=optional(message.intent), call_id=optional(message.call_id),
                           segments=tuple(_segment(segment, moves, masker) for segment in message.segments),
                           header=moves.span(message.header) if message.header else None,
                           media=tuple(replace_fields(media, span=moves.span(media.span)) for media in message.media),
                           meta=_meta(message.meta, masker))


def _segment(segment: Segment, moves: Moves, masker: Masker) -> Segment:
    return segment.changed(text=masker.text(segment.text), span=moves.span(segment.span))


def _diagnostic(diagnostic: Diagnostic, moves: Moves, masker: Masker) -> Diagnostic:
    return replace(diagnostic, message=masker.text(diagnostic.message), span=moves.span(diagnostic.span))
