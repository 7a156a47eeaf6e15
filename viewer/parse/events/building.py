"""The messages of an event log while they are being built, and what an event says about them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewer.model import Segment, Span
from viewer.parse.common import Pending, qualified_tool_name, shown_json

DELTAS = {
    "response.delta": "final",
    "response.output_text.delta": "final",
    "response.reasoning_text.delta": "analysis",
    "response.reasoning_summary_text.delta": "summary",
    "response.function_call_arguments.delta": "call",
}
DONES = {
    "response.output_text.done": "final",
    "response.reasoning_text.done": "analysis",
    "response.reasoning_summary_text.done": "summary",
    "response.function_call_arguments.done": "call",
}
RESPONSE_ENDS = ("response.done", "response.completed")
LIFECYCLE = ("response.created", "response.in_progress")
END_BY_KIND = {"final": "return", "analysis": "end", "summary": "end", "call": "call"}


@dataclass(slots=True)
class Building:
    """A message being reassembled from its events."""

    order: int
    turn: int
    kind: str
    span: Span
    fields: dict[str, Any]
    pieces: list[tuple[list[str], Span | None]] = field(default_factory=lambda: [([], None)])
    """Text pieces between flushes: the deltas of each and the span of its delta lines."""
    flushed: bool = False
    end: str | None = None
    notes: list[Pending] = field(default_factory=list)
    """Diagnostics about the message, attached once it has its index."""

    @property
    def text(self) -> str:
        return "".join("".join(parts) for parts, _ in self.pieces)

    def extend_to(self, span: Span) -> None:
        self.span = (self.span[0], max(self.span[1], span[1]))

    def add_delta(self, delta: str, span: Span) -> None:
        parts, piece_span = self.pieces[-1]
        parts.append(delta)
        self.pieces[-1] = (parts, (piece_span or span)[:1] + span[1:])
        self.extend_to(span)

    def flush(self, span: Span) -> None:
        self.flushed = True
        if self.pieces[-1][0]:
            self.pieces.append(([], None))
        self.extend_to(span)

    def segments(self) -> tuple[Segment, ...]:
        if not self.flushed:
            return ()
        return tuple(Segment.of("text", "".join(parts), piece_span)
                     for parts, piece_span in self.pieces if parts and piece_span is not None)


ALL_STREAMS = object()
"""The stream of an end event that names none: it acts on every stream."""


def stream_of(event: dict[str, Any], default: Any = None) -> Any:
    """The stream an event belongs to: its `message_id` (or `item_id`)."""
    stream = event.get("message_id", event.get("item_id"))
    if stream is None:
        return default
    return stream if isinstance(stream, (str, int)) else shown_json(stream)


def open_key(kind: str, event: dict[str, Any], stream: Any) -> tuple[Any, str, Any]:
    """Open messages are told apart by stream and kind; calls also by their id."""
    return stream, kind, text_of(event.get("call_id")) if kind == "call" else None


def message_fields(kind: str, event: dict[str, Any]) -> dict[str, Any]:
    """The Message fields that the first event of a message of this kind decides."""
    if kind == "call":
        name = text_of(event.get("name"))
        return dict(role="assistant", recipient=qualified_tool_name(name) if name else None, channel="commentary",
                    channel_explicit=True, content_type="json", constrained=True,
                    call_id=text_of(event.get("call_id")))
    channel = "final" if kind == "final" else "analysis"
    return dict(role="assistant", channel=channel, channel_explicit=True,
                intent="summary" if kind == "summary" else None)


def text_of(value: Any) -> str | None:
    """A field meant to be text; anything else as its JSON text."""
    if value is None or isinstance(value, str):
        return value
    return shown_json(value)
