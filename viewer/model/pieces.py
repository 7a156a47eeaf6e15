"""A message's pieces: segments, inline media, the producer's meta and usage, sub-agent threads; and what a struct
whose text may be left in the source compares, hashes and shows by (message.py's `Message` is one too).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

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
# taking `span`, `header`, `content` and `text` as their readers name them. The functions below are those methods.

def same_text(self: Any, other: Any) -> bool:
    return type(other) is type(self) and self._compared() == other._compared()


def other_text(self, other: object) -> bool:
    return not same_text(self, other)


def hash_of_text(self) -> int:
    return hash(self._compared())


def changed_copy(struct, changes: dict[str, Any]):
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


def repr_of_text(self) -> str:
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
        # A text left in the source has one (the type says only that a text of its own may have none).
        return body if body is not None else self.source[self.body_at:self.body_at + self.body_length]  # type: ignore[index]

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
        return changed_copy(self, changes)

    COMPARED: ClassVar = ("kind", "text", "span")

    def _compared(self) -> tuple:
        return self.kind, self.text, self.span

    __eq__, __ne__, __hash__, __repr__ = same_text, other_text, hash_of_text, repr_of_text

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
    cost: float | None = None
    """What the producer recorded the response cost, in US dollars (an agent that prices its own calls); None
    where it recorded none."""

    def __add__(self, other: Usage) -> Usage:
        costs = [cost for cost in (self.cost, other.cost) if cost is not None]
        return Usage(self.input + other.input, self.output + other.output, self.cache_read + other.cache_read,
                     self.cache_write + other.cache_write, sum(costs) if costs else None)

    def to_json(self) -> dict[str, int | float]:
        counts: dict[str, int | float] = {"input": self.input, "output": self.output, "cache_read": self.cache_read,
                                          "cache_write": self.cache_write}
        return counts if self.cost is None else {**counts, "cost": self.cost}


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
    details: dict[str, Any] | None = None
    """What else the log recorded of the message, as written, under the producer's names: a call's description, a
    tool's own display of its result (a diff), the provider's API. A value the source holds at length may be
    `{"source": [start, end]}`, the span of its JSON text, rather than a copy (the debug view's source panel of
    the message shows it)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"timestamp": self.timestamp, "model": self.model, "stop_reason": self.stop_reason,
                                "usage": self.usage.to_json() if self.usage else None, "response": self.response,
                                "duration_ms": self.duration_ms, "details": self.details}
        return {key: value for key, value in data.items() if value is not None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meta:
        usage = data.get("usage")
        return cls(timestamp=data.get("timestamp"), model=data.get("model"), stop_reason=data.get("stop_reason"),
                   usage=Usage(**usage) if usage else None, response=data.get("response"),
                   duration_ms=data.get("duration_ms"), details=data.get("details"))


@dataclass(frozen=True, slots=True)
class Thread:
    """A conversation inside the transcript that a tool call started (a sub-agent's)."""

    id: str
    """The producer's name for it (Claude Code's `agentId`, or the uuid of its first line)."""
    call: int | None
    """The index of the call that started it; None when the log does not say which."""
    title: str | None = None
    """What the producer calls its task (the description a Claude Code agent was given, its type), where it
    says."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "call": self.call} | ({"title": self.title} if self.title else {})
