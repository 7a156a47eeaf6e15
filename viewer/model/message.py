"""A message of a transcript, whatever dialect it was written in (the model's bulk: a big transcript makes millions
of these); its pieces are in pieces.py, and why its body may be left in the source is said there.
"""
from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from viewer.model.pieces import (Media, Meta, Segment, Span, changed_copy, hash_of_text, other_text, repr_of_text,
                                 same_text)
from viewer.model.words import Channel, End, Role

NON_TOOL_RECIPIENTS = ("assistant", "user", "all")
"""`to=` values that address a person or everyone rather than a tool."""


class Message(msgspec.Struct, frozen=True, gc=False, eq=False):
    """One message of a transcript, whatever dialect it was written in. Its offsets are four numbers (`span_start`
    … `header_end`), read as `span` and `header`. Made with keywords, or positionally where it is made most often:
    msgspec takes twenty keywords about eight times slower than twenty positions."""

    index: int
    """Position in the transcript, from 0."""
    turn: int
    """Index of the source envelope it came from (one ChatML turn may give several messages)."""
    role: Role | str
    """`system` `developer` `user` `assistant` `tool`, or the unknown word as written (with a diagnostic)."""
    body: str | None
    """The body as a string of its own; None when it is a stretch of `source` (`content` reads it)."""
    span_start: int
    span_end: int
    """`span`'s ends, kept as two numbers rather than a tuple (64 bytes less a message)."""
    name: str | None = None
    """`name=` alias; for tool replies the tool's name (`functions.get_weather`)."""
    recipient: str | None = None
    """`to=` destination, wherever it was written."""
    channel: Channel | str = "final"
    """`analysis` `commentary` `final` (or the unknown word as written); `final` when absent."""
    channel_explicit: bool = False
    """Whether the source named the channel."""
    content_type: str | None = None
    """From `<|constrain|>`, `content_type=`, or a bare word after the channel."""
    constrained: bool = False
    """Whether `<|constrain|>` marked the content type."""
    intent: str | None = None
    """`preamble` `status` `debug`, `summary` (a moderated reasoning summary from an event log), `context` (text an
    agent wrote into a user's or developer's turn: command output, reminders, environment and instruction
    blocks), or none."""
    call_id: str | None = None
    """Tool-call correlation id from the header."""
    end: End = "end"
    """How it ended: `end` `call` `return`, or `eof` when the stream was cut."""
    segments: tuple[Segment, ...] = ()
    """Optional finer structure of the body."""
    header_start: int | None = None
    header_end: int | None = None
    """`header`'s ends, or None."""
    thread: str | None = None
    """The id of the sub-agent conversation (`Transcript.threads`) the message belongs to; None in the main one."""
    parent: int | None = None
    """The index of the message it follows in a tree-shaped log (an agent's `parentUuid`); None for the first
    message of a chain and in plain lists."""
    meta: Meta | None = None
    """What the producer recorded about it: time, model, stop reason, token usage."""
    aside: bool = False
    """On a branch of a tree-shaped log that the view does not follow (a rewind or an edit went another way):
    kept, hidden by default."""
    media: tuple[Media, ...] = ()
    """The inline images its parts carried, in source order (their placeholders stand in `content`)."""
    source: str | None = None
    body_at: int = 0
    body_length: int = 0
    """Where the body is in `source` when `body` is None."""

    @classmethod
    def drafted(cls, content: str, span: Span, header: Span | None = None, **fields: Any) -> Message:
        """A message from keyword fields that name its body `content` and give its offsets as spans, as parsers'
        drafts do."""
        if header is not None:
            fields.update(header_start=header[0], header_end=header[1])
        return cls(body=content, span_start=span[0], span_end=span[1], **fields)

    @property
    def span(self) -> Span:
        """`[start, end)` character offsets of the whole message in the source."""
        return self.span_start, self.span_end

    @property
    def header(self) -> Span | None:
        """`[start, end)` of the raw header in the source (control tokens included), when there is one."""
        return None if self.header_start is None else (self.header_start, self.header_end)  # type: ignore[return-value]

    @property
    def content(self) -> str:
        """The body as the author meant it: literal blocks unwrapped, `<<|` escapes resolved."""
        body = self.body
        # A body left in the source has one (the type says only that a body of its own may have none).
        return body if body is not None else self.source[self.body_at:self.body_at + self.body_length]  # type: ignore[index]

    def holds(self, text: str) -> bool:
        """Whether the body holds `text`: `text in content`, without copying a body left in the source."""
        body = self.body
        if body is not None:
            return text in body
        return self.source.find(text, self.body_at, self.body_at + self.body_length) != -1  # type: ignore[union-attr]

    def changed(self, **changes: Any) -> Message:
        """A copy with some fields changed; `span`, `header` and `content` may be given as such."""
        return changed_copy(self, changes)

    COMPARED: ClassVar[tuple[str, ...]] = ()
    """`content` and every field but where the body is kept (set below the class)."""

    def _compared(self) -> tuple:
        return tuple(getattr(self, name) for name in self.COMPARED)

    __eq__, __ne__, __hash__, __repr__ = same_text, other_text, hash_of_text, repr_of_text

    @property
    def is_call(self) -> bool:
        """An assistant message addressed to a tool."""
        return self.role == "assistant" and (self.end == "call" or is_tool_address(self.recipient))

    @property
    def is_reply(self) -> bool:
        """A tool's answer to a call."""
        return self.role == "tool"

    @property
    def tool_name(self) -> str | None:
        """The tool a call goes to or a reply comes from."""
        if self.is_call:
            return self.recipient
        if self.is_reply:
            return self.name
        return None

    def to_json(self) -> dict[str, Any]:
        data = {
            "index": self.index,
            "turn": self.turn,
            "role": self.role,
            "name": self.name,
            "recipient": self.recipient,
            "channel": self.channel,
            "channel_explicit": self.channel_explicit,
            "content_type": self.content_type,
            "constrained": self.constrained,
            "intent": self.intent,
            "call_id": self.call_id,
            "content": self.content,
            "end": self.end,
            "span": list(self.span),
        }
        if self.segments:
            data["segments"] = [segment.to_json() for segment in self.segments]
        if self.thread is not None:
            data["thread"] = self.thread
        if self.parent is not None:
            data["parent"] = self.parent
        if self.meta is not None:
            data["meta"] = self.meta.to_json()
        if self.aside:
            data["aside"] = True
        if self.media:
            data["media"] = [media.to_json() for media in self.media]
        return data


Message.COMPARED = ("content", *(name for name in Message.__struct_fields__
                                  if name not in ("body", "source", "body_at", "body_length")))


def is_tool_address(recipient: str | None) -> bool:
    """Whether a `to=` value names a tool."""
    return recipient is not None and recipient not in NON_TOOL_RECIPIENTS
