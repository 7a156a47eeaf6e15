"""A sample of an Inspect AI log (a conversation of the log's dataset) read where it stands, the fast way: decoded
once by msgspec (which refuses wherever it could disagree with `json`: viewer/analysis/jsontext.py), its
`messages` found in its text by their key, or by walking its members when the key is written more than once, and
each message added by the builder as the general reading (container.py, inspect_log.read_document)
adds it: the same conversation, without reading the sample's other members with spans, a Reading and the framework
checks. Any other object is left to the general reading. tests/parse/json/test_inspect_sample.py reads logs both
ways and compares."""
from __future__ import annotations

from typing import Any

import msgspec

from viewer.model import Span, Transcript
from viewer.parse.json import inspect_log, shapes
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.plain import items_recorded, key_pattern, walk_object
from viewer.parse.json.positions import Node
from viewer.parse.json.unpacked import frame, list_key
from viewer.parse.patterns import always_matching

FIRST_KEYS = ("id", "epoch")
"""How Inspect starts a sample: its `id`, then its `epoch`."""
_MARK = '"epoch"'
_HEAD = 256
"""How far into a sample its `epoch` is looked for before it is decoded (Inspect writes it second, after `id`)."""
_DECODE = msgspec.json.Decoder().decode
_MESSAGES_KEY = key_pattern("messages")


def read_record(text: str, span: Span) -> Transcript | None:
    return read_sample(text, span)


def read_sample(text: str, span: Span) -> Transcript | None:
    """The conversation of the sample at `span` (one whole JSON object), or None when it is no sample, or one the
    general reading reads another way (then nothing was read)."""
    start, end = span
    if text.find(_MARK, start, min(end, start + _HEAD)) == -1 or not text.startswith("}", end - 1):
        return None
    written = text[start:end]
    try:
        value = _DECODE(written)
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, the general reading decides
        return None
    if not _is_plain_sample(value):
        return None
    found = _spans(text, span, value, written)
    if found is None:
        return None
    spans, event_spans = found
    builder = MessageBuilder(text)
    envelope = {key: item for key, item in value.items() if key != "messages"}
    elements = [Node(message, where) for message, where in zip(value["messages"], spans)]
    events = [Node(event, where) for event, where in zip(value.get("events") or (), event_spans)]
    header = inspect_log.read_sample_elements(envelope, elements, events, builder)
    claimed = [message.span for message in builder.messages] + [diagnostic.span for diagnostic in builder.diagnostics]
    return Transcript(dialect="json", source=text, messages=tuple(builder.messages),
                      diagnostics=tuple(builder.diagnostics), header=builder.with_unread(header), tools=builder.tools,
                      frame=frame(text, claimed, span))


def _is_plain_sample(value: Any) -> bool:
    """A sample that the general reading reads as one: no record shape claims it, and `messages` holds its
    elements."""
    return type(value) is dict and inspect_log.is_sample(value) and list_key(value) == "messages" \
        and not shapes.is_record(value)


def _spans(text: str, span: Span, value: dict[str, Any], written: str) -> tuple[list[Span], list[Span]] | None:
    """Where each of the sample's messages and each of its events stand (the events, when it has any, found in the
    same walk of its members as the messages)."""
    events = value.get("events")
    if not (type(events) is list and events):
        listed = _message_spans(text, span, value, written)
        return None if listed is None else (listed, [])
    messages: list[Span] = []
    event_spans: list[Span] = []
    walkers = {"messages": items_recorded(messages), "events": items_recorded(event_spans)}
    if walk_object(text, span[0], value, {}, inner=walkers) is None:
        return None
    return messages, event_spans


def _message_spans(text: str, span: Span, value: dict[str, Any], written: str) -> list[Span] | None:
    """Where each of the sample's messages stands: after its one `messages` key (the sample's own, when the text
    holds no other), or where a walk of the sample's members finds them (the key written elsewhere too, as a
    model event's input may be). `written` is the sample's text."""
    spans: list[Span] = []
    read_items = items_recorded(spans)
    found = list(_MESSAGES_KEY.finditer(text, *span))
    if len(found) == 1:
        listed = _listed_spans(text, found[0].end(), written)
        if listed is not None:
            return listed
        ended = read_items(text, found[0].end(), value["messages"])
    else:
        ended = walk_object(text, span[0], value, {}, inner={"messages": read_items})
    return spans if ended is not None else None


class _Messages(msgspec.Struct):
    messages: list[msgspec.Raw]


_RAW_MESSAGES = msgspec.json.Decoder(_Messages).decode
_BLANK = always_matching(r"[ \t\n\r]*")
_AFTER = always_matching(r"[ \t\n\r]*,?[ \t\n\r]*")


def _listed_spans(text: str, bracket: int, written: str) -> list[Span] | None:
    """The spans of the items of the sample's one `messages` list, whose `[` is at `bracket`: each from the length
    of its text as msgspec hands it over undecoded (a Raw, UTF-8), rather than each message decoded again to find
    its end (half the time); None when that cannot tell."""
    try:
        raws = _RAW_MESSAGES(written).messages
    except Exception:  # noqa: BLE001 - the walk decides
        return None
    ascii = written.isascii()  # then a message's bytes are its characters
    spans, after = [], _AFTER.match
    at = _BLANK.match(text, bracket + 1).end()
    for raw in raws:
        end = at + (len(raw) if ascii else len(str(raw, "utf-8")))
        spans.append((at, end))
        at = after(text, end).end()
    return spans if text.startswith("[", bracket) and text.startswith("]", at) else None
