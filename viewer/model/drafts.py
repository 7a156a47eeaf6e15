"""`Message(...)` made six times faster, for the hot loops of the importers (the plain messages of Harmony,
ChatML and JSON: each dialect's plain.py) and for moving every message of a big transcript past the placeholders
of masked secrets (viewer/secrets/masking.py) and for the rows a big transcript's JSON twin and exports read
(viewer/store/rows.py); `Segment(...)` likewise, for the frame of a big JSON file (a
segment between every two messages) and the blocks of ChatML templates.

A frozen dataclass's `__init__` sets each of its 16 fields through `object.__setattr__`, which cost more than
everything else in reading a message (bench/parse.py). Python lets an object change its class to one with the
same slot layout, so the fields are stored on a mutable draft that then becomes a real, frozen Message.
tests/parse/harmony/test_reader.py checks that it equals the Message that `Message(...)` makes.
"""
from __future__ import annotations

import dataclasses

from viewer.model import Message, Segment

MESSAGE_FIELDS = ("index", "turn", "role", "content", "span", "name", "recipient", "channel", "channel_explicit",
                  "content_type", "constrained", "intent", "call_id", "end", "segments", "header", "thread", "parent",
                  "meta", "aside")

SEGMENT_FIELDS = ("kind", "text", "span")


def _check_layout() -> None:
    """The class swap is only sound while the draft's slots are Message's, in the same order: slots are read by
    position, so a reordered or added field would silently land in the wrong attribute. Checked at import, with
    an exception rather than an `assert`, which `python -O` would remove."""
    fields = tuple(field.name for field in dataclasses.fields(Message))
    if not fields == MESSAGE_FIELDS == Message.__slots__:
        raise RuntimeError(f"Message's fields are now {fields}: update MESSAGE_FIELDS and new_message in {__name__}")
    fields = tuple(field.name for field in dataclasses.fields(Segment))
    if not fields == SEGMENT_FIELDS == Segment.__slots__:
        raise RuntimeError(f"Segment's fields are now {fields}: update SEGMENT_FIELDS and new_segment in {__name__}")


_check_layout()


class _MessageDraft:
    """A mutable object with exactly Message's slots, so that it may become a Message."""

    __slots__ = MESSAGE_FIELDS


def new_message(index, turn, role, content, span, name, recipient, channel, channel_explicit, content_type,
                constrained, intent, call_id, end, segments, header, thread=None, parent=None, meta=None,
                aside=False) -> Message:
    """`Message(...)` with the same fields in the same order."""
    message = _MessageDraft()
    message.index = index
    message.turn = turn
    message.role = role
    message.content = content
    message.span = span
    message.name = name
    message.recipient = recipient
    message.channel = channel
    message.channel_explicit = channel_explicit
    message.content_type = content_type
    message.constrained = constrained
    message.intent = intent
    message.call_id = call_id
    message.end = end
    message.segments = segments
    message.header = header
    message.thread = thread
    message.parent = parent
    message.meta = meta
    message.aside = aside
    message.__class__ = Message
    return message


def moved_message(message: Message, shift: int) -> Message:
    """A copy of `message` whose offsets (span, header, segments) are `shift` further on: every message after a
    masked secret (viewer/secrets/masking.py). Copied field by field, which is twice as fast as reading them all
    for `new_message`."""
    moved = _MessageDraft()
    moved.index = message.index
    moved.turn = message.turn
    moved.role = message.role
    moved.content = message.content
    start, end = message.span
    moved.span = (start + shift, end + shift)
    moved.name = message.name
    moved.recipient = message.recipient
    moved.channel = message.channel
    moved.channel_explicit = message.channel_explicit
    moved.content_type = message.content_type
    moved.constrained = message.constrained
    moved.intent = message.intent
    moved.call_id = message.call_id
    moved.end = message.end
    segments = message.segments
    moved.segments = tuple(new_segment(segment.kind, segment.text, (first + shift, last + shift))
                           for segment in segments for first, last in (segment.span,)) if segments else segments
    header = message.header
    moved.header = (header[0] + shift, header[1] + shift) if header else header
    moved.thread = message.thread
    moved.parent = message.parent
    moved.meta = message.meta
    moved.aside = message.aside
    moved.__class__ = Message
    return moved


def logged_message(message: Message, thread, parent, meta, aside) -> Message:
    """A copy of `message` with what an agent's log records of it (viewer/parse/agents): copied field by field,
    four times as fast as `dataclasses.replace`, which a big session calls for every message."""
    logged = _MessageDraft()
    for name in _COPIED:
        setattr(logged, name, getattr(message, name))
    logged.thread = thread
    logged.parent = parent
    logged.meta = meta
    logged.aside = aside
    logged.__class__ = Message
    return logged


_COPIED = MESSAGE_FIELDS[:-4]
"""The fields `logged_message` copies: all but the four it sets."""


class _SegmentDraft:
    """A mutable object with exactly Segment's slots, so that it may become a Segment."""

    __slots__ = SEGMENT_FIELDS


def new_segment(kind, text, span) -> Segment:
    """`Segment(kind, text, span)`."""
    segment = _SegmentDraft()
    segment.kind = kind
    segment.text = text
    segment.span = span
    segment.__class__ = Segment
    return segment


def draft_class(cls: type) -> type:
    """A mutable class with the slots of `cls`, a frozen dataclass with slots (the same tuple, so always in its
    order), whose instances become instances of `cls` by `draft.__class__ = cls` once every field is set; for
    other hot loops (a stored row's Entry: viewer/store/rows.py)."""
    return type(f"_{cls.__name__}Draft", (), {"__slots__": cls.__slots__})
