"""A message of a transcript, whatever dialect it was written in, and its pieces: segments, inline media, the
producer's meta and sub-agent threads (the model's bulk: a big transcript makes millions of these).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

ROLES = ("system", "developer", "user", "assistant", "tool")
CHANNELS = ("analysis", "commentary", "final")
ENDS = ("end", "call", "return", "eof")
NON_TOOL_RECIPIENTS = ("assistant", "user", "all")
"""`to=` values that address a person or everyone rather than a tool."""

Span = tuple[int, int]


# A big transcript's model is mostly its messages: 256 MB of Harmony makes 1.7 million, which took about 650 bytes
# each beside the text. Two things make them smaller (bench/memory.py measures the whole upload):
# - Bodies left in the source. Most bodies are exactly a stretch of the source, which the transcript holds anyway,
#   so a parser may leave such a body there: the message (or segment) keeps `body` None, a reference to the one
#   source string, where the body starts and its length, and `content` (`text`) reads it when asked.
# - Offsets as numbers: a span is two fields, not a tuple of two (64 bytes each); `span` and `header` make the
#   tuple when asked.
# Equality, hashing and repr go by the text, never by where it is kept: two parses of one input are equal whichever
# way each kept its bodies, and a repr never prints the whole source. `changed` copies one with some fields changed,
# taking `span`, `header`, `content` and `text` as their readers name them.

def _same_text(self, other: object) -> bool:
    return type(other) is type(self) and self._compared() == other._compared()


def _other_text(self, other: object) -> bool:
    return not _same_text(self, other)


def _hash_of_text(self) -> int:
    return hash(self._compared())


def _changed(struct, changes: dict[str, Any]):
    """`msgspec.structs.replace`, with `span`, `header` and the text (`content`, `text`) named as their readers
    name them."""
    if "span" in changes:
        changes["span_start"], changes["span_end"] = changes.pop("span")
    if "header" in changes:
        header = changes.pop("header")
        changes["header_start"], changes["header_end"] = header if header is not None else (None, None)
    for text in ("content", "text"):
        if text in changes:
            changes["body"] = changes.pop(text)
    return msgspec.structs.replace(struct, **changes)


def _repr_of_text(self) -> str:
    shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.COMPARED, self._compared()))
    return f"{type(self).__name__}({shown})"


# Segments and messages are msgspec Structs rather than frozen dataclasses: a big transcript makes hundreds of
# thousands, and a frozen Struct is made about eight times faster than a frozen dataclass (whose `__init__` sets
# each field through `object.__setattr__`), and with `gc=False` the cyclic collector never walks them (they hold
# only strings, numbers, tuples of each other and a message's frozen `Meta`, so they are never part of a cycle).
# bench/model_objects.py measures it.
class Segment(msgspec.Struct, frozen=True, gc=False, eq=False):
    """A finer piece of a message body (thought block, FIM part, file, function call …)."""

    kind: str
    """What the piece is: `text`, `reflect`, `introspect`, `reason`, `literal`, `fim_prefix`, `fim_middle`,
    `fim_suffix`, `file`, `function_list`, `function_call`, `function_output`, `flag`."""
    body: str | None
    """The piece's text as a string of its own; None when it is a stretch of `source` (`text` reads it)."""
    span_start: int
    span_end: int
    """`span`'s ends, kept as two numbers rather than a tuple (64 bytes less a piece)."""
    source: str | None = None
    body_at: int = 0
    body_length: int = 0
    """Where the text is in `source` when `body` is None."""

    @property
    def span(self) -> Span:
        """`[start, end)` character offsets of the piece in the source, markers included."""
        return self.span_start, self.span_end

    @property
    def text(self) -> str:
        """The piece's text as the author meant it (markers removed)."""
        body = self.body
        return body if body is not None else self.source[self.body_at:self.body_at + self.body_length]

    @classmethod
    def of(cls, kind: str, text: str, span: Span) -> Segment:
        """A piece whose text is a string of its own."""
        return cls(kind, text, span[0], span[1])

    @classmethod
    def stretch(cls, kind: str, source: str, at: int, length: int, span: Span) -> Segment:
        """A piece whose text is `source[at:at + length]`, left in the source."""
        return cls(kind, None, span[0], span[1], source, at, length)

    def changed(self, **changes: Any) -> Segment:
        """A copy with some fields changed; `span` and `text` may be given as such."""
        return _changed(self, changes)

    COMPARED: ClassVar = ("kind", "text", "span")

    def _compared(self) -> tuple:
        return self.kind, self.text, self.span

    __eq__, __ne__, __hash__, __repr__ = _same_text, _other_text, _hash_of_text, _repr_of_text

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "span": list(self.span)}


class Media(msgspec.Struct, frozen=True, gc=False):
    """An image pasted into a message as inline (base64) data: a reference to its bytes, never the bytes. The
    store keeps them once per SHA-256 (viewer/store/media.py); the message's text keeps a placeholder naming it."""

    sha256: str
    """The SHA-256 of the decoded bytes, in hex: the blob's key."""
    size: int
    """Decoded bytes."""
    type: str | None
    """The media type the bytes' own magic says (not the type the producer claimed), or None."""
    span: Span
    """`[start, end)` of the payload as written in the source: a JSON string's characters, without its quotes
    (a data URL's prefix included), from which the bytes are decoded again when they are stored."""
    width: int | None = None
    height: int | None = None
    refused: str | None = None
    """Why it is not shown (not a raster image, a polyglot, over a limit, undecodable), or None when it is."""

    def to_json(self) -> dict[str, Any]:
        data = {"sha256": self.sha256, "size": self.size, "type": self.type, "span": list(self.span),
                "width": self.width, "height": self.height, "refused": self.refused}
        return {key: value for key, value in data.items() if value is not None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Media:
        return cls(data["sha256"], data["size"], data.get("type"), tuple(data["span"]), data.get("width"),
                   data.get("height"), data.get("refused"))


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one API response used, as the producer counted them (counted once per response)."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    """Input tokens read from the prompt cache."""
    cache_write: int = 0
    """Input tokens written to the prompt cache."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input + other.input, self.output + other.output, self.cache_read + other.cache_read,
                     self.cache_write + other.cache_write)

    def to_json(self) -> dict[str, int]:
        return {"input": self.input, "output": self.output, "cache_read": self.cache_read,
                "cache_write": self.cache_write}


@dataclass(frozen=True, slots=True)
class Meta:
    """What the producer recorded about a message (an agent's log records it; chat templates do not)."""

    timestamp: str | None = None
    """When it was written, as the producer wrote it (ISO 8601)."""
    model: str | None = None
    stop_reason: str | None = None
    usage: Usage | None = None
    """The tokens of the API response this message belongs to, on the response's last message only, so that a
    sum over messages counts each response once."""
    response: str | None = None
    """The id of the API response (several messages may share one)."""
    duration_ms: int | None = None
    """On a tool reply: the time from its call to it."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"timestamp": self.timestamp, "model": self.model, "stop_reason": self.stop_reason,
                                "usage": self.usage.to_json() if self.usage else None, "response": self.response,
                                "duration_ms": self.duration_ms}
        return {key: value for key, value in data.items() if value is not None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meta:
        usage = data.get("usage")
        return cls(timestamp=data.get("timestamp"), model=data.get("model"), stop_reason=data.get("stop_reason"),
                   usage=Usage(**usage) if usage else None, response=data.get("response"),
                   duration_ms=data.get("duration_ms"))


@dataclass(frozen=True, slots=True)
class Thread:
    """A conversation inside the transcript that a tool call started (a sub-agent's)."""

    id: str
    """The producer's name for it (Claude Code's `agentId`, or the uuid of its first line)."""
    call: int | None
    """The index of the call that started it; None when the log does not say which."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "call": self.call}


class Message(msgspec.Struct, frozen=True, gc=False, eq=False):
    """One message of a transcript, whatever dialect it was written in. Its offsets are four numbers (`span_start`
    … `header_end`), read as `span` and `header`. Made with keywords, or positionally where it is made most often:
    msgspec takes twenty keywords about eight times slower than twenty positions."""

    index: int
    """Position in the transcript, from 0."""
    turn: int
    """Index of the source envelope it came from (one ChatML turn may give several messages)."""
    role: str
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
    channel: str = "final"
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
    end: str = "end"
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
        return None if self.header_start is None else (self.header_start, self.header_end)

    @property
    def content(self) -> str:
        """The body as the author meant it: literal blocks unwrapped, `<<|` escapes resolved."""
        body = self.body
        return body if body is not None else self.source[self.body_at:self.body_at + self.body_length]

    def holds(self, text: str) -> bool:
        """Whether the body holds `text`: `text in content`, without copying a body left in the source."""
        body = self.body
        if body is not None:
            return text in body
        return self.source.find(text, self.body_at, self.body_at + self.body_length) != -1

    def changed(self, **changes: Any) -> Message:
        """A copy with some fields changed; `span`, `header` and `content` may be given as such."""
        return _changed(self, changes)

    COMPARED: ClassVar[tuple[str, ...]] = ()
    """`content` and every field but where the body is kept (set below the class)."""

    def _compared(self) -> tuple:
        return tuple(getattr(self, name) for name in self.COMPARED)

    __eq__, __ne__, __hash__, __repr__ = _same_text, _other_text, _hash_of_text, _repr_of_text

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
