"""Lone surrogates out of the model: JSON's `\\ud800` escapes decode to code points that UTF-8 cannot encode,
so no database, page or JSON answer could carry them. They become U+FFFD, each affected message reported once.

Decoded bytes cannot hold a lone surrogate, and `decode` cleans a caller's str, so only values that came out
of JSON escapes can: they are checked field by field, and only when the source has such an escape at all.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from viewer import formats
from viewer.model import Message, Span, Transcript, make_diagnostic

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_TEXT_FIELDS = ("role", "content", "name", "recipient", "channel", "content_type", "intent", "call_id")


def replace_lone_surrogates(transcript: Transcript, within: Span | None = None) -> Transcript:
    """The transcript with every lone surrogate replaced by U+FFFD, and a W-LONE-SURROGATE per message. Escapes
    are looked for `within` that span of the source only, when given (one conversation of a dataset: over the
    whole file, once per conversation, the search made a dataset's parse quadratic)."""
    source = transcript.source
    record = formats.find(transcript.dialect)
    if record is None or not record.json_escapes or not _has_surrogate_escape(source, *within or (0, len(source))):
        return transcript
    messages, diagnostics = [], list(transcript.diagnostics)
    for message in transcript.messages:
        cleaned = _clean_message(message)
        if cleaned is not message:
            diagnostics.append(make_diagnostic(
                "W-LONE-SURROGATE", message.span, "A lone UTF-16 surrogate (from a \\ud800-style escape) cannot be "
                "shown or stored; it was replaced with U+FFFD.", message.index))
        messages.append(cleaned)
    return dataclasses.replace(transcript, messages=tuple(messages), diagnostics=tuple(diagnostics),
                               header=_clean_value(transcript.header), tools=_clean_value(transcript.tools))


def cleaned_value(value: Any) -> Any:
    """A header or any JSON value with every lone surrogate in its strings replaced by U+FFFD."""
    return _clean_value(value)


def _has_surrogate_escape(source: str, start: int, end: int) -> bool:
    # `str.find` runs at memory speed; a regex over 50 MB of non-ASCII text takes a quarter of a second. Most JSON
    # holds no `\u` escape at all: one search says so, where the two for `\ud` and `\uD` each read the whole text.
    return (at := source.find("\\u", start, end)) != -1 and (
        source.find("\\ud", at, end) != -1 or source.find("\\uD", at, end) != -1)


def clean(text: str) -> str:
    """The text with every lone surrogate replaced by U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text)


_CHECKED_BLOCK = 1 << 20


def has_lone_surrogate(text: str) -> bool:
    # Encoding fails exactly on lone surrogates and runs at C speed (a third of a regex scan's time). A block at a
    # time: the encoder sets aside three bytes a character of a text with any character past U+00FF, 768 MB
    # beside a 256 MB upload's text.
    try:
        for start in range(0, len(text), _CHECKED_BLOCK):
            text[start:start + _CHECKED_BLOCK].encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _clean_message(message: Message) -> Message:
    changes: dict[str, Any] = {}
    for field in _TEXT_FIELDS:
        value = getattr(message, field)
        if isinstance(value, str) and _LONE_SURROGATE.search(value):
            changes[field] = clean(value)
    if any(_LONE_SURROGATE.search(segment.text) for segment in message.segments):
        changes["segments"] = tuple(segment.changed(text=clean(segment.text)) for segment in message.segments)
    return message.changed(**changes) if changes else message


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {_clean_value(key): _clean_value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clean_value(item) for item in value]
    return value

