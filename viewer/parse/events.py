"""Reassemble a streaming event log (JSON Lines, OpenChatML 2.0/2.2 §9) into messages (dialect `events`).

Every line is one JSON object; its type is under `type` (or `event`). Accepted events:

| type | fields | effect |
| --- | --- | --- |
| `response.delta`, `response.output_text.delta` | `delta` | text of a `final` message |
| `response.reasoning_text.delta` | `delta` | text of an `analysis` message |
| `response.reasoning_summary_text.delta` | `delta` | text of a separate `analysis` message, `intent: summary` |
| `response.function_call_arguments.delta` | `call_id`, `name`, `delta` | arguments of a call to `functions.<name>` |
| `response.delta.flush` | | a segment boundary in the stream's open messages |
| `response.output_text.done` | optional `text` | closes the final message: end `return` |
| `response.reasoning_text.done`, `response.reasoning_summary_text.done` | optional `text` | closes it: end `end` |
| `response.function_call_arguments.done` | `call_id`, optional `arguments` | closes the call: end `call` |
| `response.done`, `response.completed` | | closes every open message of the stream the same way; ends the turn |
| `response.cancel` | optional `reason` | closes the stream's open messages with end `eof` and W-STREAM-CANCELLED |
| `tool.result` | `call_id`, optional `name`, `output` (or `content`) | a tool reply (its own turn) |
| `tool.cancel` | `call_id`, optional `reason` | E-TOOL-CANCELLED on the call with that id |
| `response.created`, `response.in_progress` | | lifecycle; frame |

Every event may carry `message_id` (or `item_id`), which keeps interleaved streams apart; an event without one
acts on the default stream, except `response.done`/`response.cancel`, which then close every stream. A done event whose message
never streamed a delta makes the message from its own `text`. Within one stream, each kind (final, analysis,
summary, each call) is its own message; a turn is one response of one stream, from its first message to
`response.done` or `response.cancel`.

A flush does not change the text (producers put their own newlines in the deltas): a message that saw a flush
gets `text` segments, one per flushed piece, each spanning its delta lines.

Spans run from a message's first event line to its last, so interleaved streams overlap (allowed for event
logs only). A message still open at the end of the log ends `eof` with E-STREAM-TRUNCATED. Lines that are not
JSON are W-JSON-SYNTAX; objects without a usable type or text are W-EVENT-SHAPE; unknown types are kept as an
info W-UNKNOWN-EVENT; a done event whose text differs from the streamed deltas is W-EVENT-TEXT-MISMATCH (the
deltas are kept).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from viewer.model import Diagnostic, Message, Segment, Span, Transcript
from viewer.parse.json_positions import line_spans
from viewer.parse.options import ParseOptions

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


def parse_events(text: str, options: ParseOptions) -> Transcript:
    """Reassemble an event log. Never raises on user input."""
    log = _Log()
    for number, start, end in line_spans(text):
        log.read_line(text[start:end], number, (start, end))
    return log.transcript(text)


@dataclass(slots=True)
class _Building:
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
    notes: list[tuple[str, str, str, Span]] = field(default_factory=list)

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
        return tuple(Segment(kind="text", text="".join(parts), span=piece_span)
                     for parts, piece_span in self.pieces if parts and piece_span is not None)


class _Log:
    """The state of the log read so far: open messages by stream, turns, and what each line meant."""

    def __init__(self) -> None:
        self.built: list[_Building] = []
        self.open: dict[tuple[Any, str, Any], _Building] = {}
        self.turns: dict[Any, int] = {}
        self.next_turn = 0
        self.diagnostics: list[Diagnostic] = []
        self.frame: list[Segment] = []
        self.call_names: dict[str, str] = {}
        self.cancelled_calls: list[tuple[str, Any, Span]] = []

    # -- reading -------------------------------------------------------------------------------------------

    def read_line(self, line: str, number: int, span: Span) -> None:
        try:
            event = json.loads(line)
        except (ValueError, RecursionError) as error:
            reason = error.msg if isinstance(error, json.JSONDecodeError) else "values nest too deeply"
            self._diagnose("W-JSON-SYNTAX", "warning", f"Line {number} is not valid JSON: {reason}; it was skipped.",
                           span)
            return
        if not isinstance(event, dict):
            self._diagnose("W-EVENT-SHAPE", "warning", f"Line {number} is not an event object; it was skipped.", span)
            return
        kind = event.get("type", event.get("event"))
        if not isinstance(kind, str):
            self._diagnose("W-EVENT-SHAPE", "warning", f"Line {number} has no event type; it was skipped.", span)
            return
        self._dispatch(kind, event, number, span)

    def _dispatch(self, kind: str, event: dict[str, Any], number: int, span: Span) -> None:
        stream = _stream_of(event)
        if kind in DELTAS:
            self._delta(DELTAS[kind], event, stream, number, span)
        elif kind in DONES:
            self._done(DONES[kind], event, stream, span)
        elif kind in RESPONSE_ENDS:
            self._end_response(event, stream, span, cancelled=False)
        elif kind == "response.cancel":
            self._end_response(event, stream, span, cancelled=True)
        elif kind == "response.delta.flush":
            self._flush(stream, span)
        elif kind == "tool.result":
            self._tool_result(event, span)
        elif kind == "tool.cancel":
            self._tool_cancel(event, span)
        elif kind in LIFECYCLE:
            self.frame.append(Segment(kind="event", text=kind, span=span))
        else:
            self._diagnose("W-UNKNOWN-EVENT", "info", f"Line {number} is an event of unknown type {kind!r}; "
                                                      "it was kept but not read.", span)

    def _delta(self, kind: str, event: dict[str, Any], stream: Any, number: int, span: Span) -> None:
        delta = event.get("delta")
        if not isinstance(delta, str):
            self._diagnose("W-EVENT-SHAPE", "warning", f"Line {number} has no text under 'delta'; it was skipped.",
                           span)
            return
        building = self._open_message(kind, event, stream, span)
        building.add_delta(delta, span)

    def _done(self, kind: str, event: dict[str, Any], stream: Any, span: Span) -> None:
        key = _key(kind, event, stream)
        building = self.open.get(key)
        final_text = event.get("arguments" if kind == "call" else "text")
        if building is None:
            if not isinstance(final_text, str):
                self.frame.append(Segment(kind="event", text=kind, span=span))
                return
            building = self._open_message(kind, event, stream, span)
        if not building.text and isinstance(final_text, str):
            building.add_delta(final_text, span)
        elif isinstance(final_text, str) and final_text != building.text:
            building.notes.append(("W-EVENT-TEXT-MISMATCH", "info",
                                   "The done event's text differs from the streamed deltas; the deltas are shown.",
                                   span))
        self._close(building, END_BY_KIND[kind], span)

    def _end_response(self, event: dict[str, Any], stream: Any, span: Span, cancelled: bool) -> None:
        explicit = _stream_of(event, default=_ALL) is not _ALL
        targets = [b for key, b in self.open.items() if not explicit or key[0] == stream]
        for building in targets:
            if cancelled:
                reason = event.get("reason")
                because = f" ({reason})" if isinstance(reason, str) and reason else ""
                building.notes.append(("W-STREAM-CANCELLED", "warning",
                                       f"The response was cancelled{because} before this message was complete.",
                                       span))
            self._close(building, "eof" if cancelled else END_BY_KIND[building.kind], span)
        for ended in ([stream] if explicit else list(self.turns)):
            self.turns.pop(ended, None)
        if not targets:
            self.frame.append(Segment(kind="event", text=str(event.get("type", event.get("event"))), span=span))

    def _flush(self, stream: Any, span: Span) -> None:
        targets = [b for key, b in self.open.items() if key[0] == stream and b.kind != "call"]
        for building in targets:
            building.flush(span)
        if not targets:
            self.frame.append(Segment(kind="event", text="response.delta.flush", span=span))

    def _tool_result(self, event: dict[str, Any], span: Span) -> None:
        call_id = _text(event.get("call_id"))
        name = _text(event.get("name"))
        output = event.get("output", event.get("content"))
        content = output if isinstance(output, str) else ("" if output is None else _dumps(output))
        # A reply is its own envelope; whatever the assistant streams next is a new response.
        self.turns.clear()
        reply = self._start(self._new_turn(), "reply", span, dict(
            role="tool", name=_qualified(name) if name else self.call_names.get(call_id or ""), recipient=None,
            channel="commentary", channel_explicit=False, call_id=call_id))
        reply.add_delta(content, span)
        reply.end = "end"

    def _tool_cancel(self, event: dict[str, Any], span: Span) -> None:
        call_id = _text(event.get("call_id"))
        reason = event.get("reason")
        self.cancelled_calls.append((call_id or "", reason, span))

    # -- building ------------------------------------------------------------------------------------------

    def _open_message(self, kind: str, event: dict[str, Any], stream: Any, span: Span) -> _Building:
        key = _key(kind, event, stream)
        building = self.open.get(key)
        if building is not None:
            return building
        turn = self.turns.get(stream)
        if turn is None:
            turn = self.turns[stream] = self._new_turn()
        building = self._start(turn, kind, span, _fields(kind, event))
        self.open[key] = building
        if kind == "call" and building.fields["call_id"] and building.fields["recipient"]:
            self.call_names.setdefault(building.fields["call_id"], building.fields["recipient"])
        return building

    def _start(self, turn: int, kind: str, span: Span, fields: dict[str, Any]) -> _Building:
        building = _Building(order=len(self.built), turn=turn, kind=kind, span=span, fields=fields)
        self.built.append(building)
        return building

    def _close(self, building: _Building, end: str, span: Span) -> None:
        building.end = end
        building.extend_to(span)
        self.open = {key: value for key, value in self.open.items() if value is not building}

    def _new_turn(self) -> int:
        self.next_turn += 1
        return self.next_turn - 1

    def _diagnose(self, code: str, severity: str, message: str, span: Span, index: int | None = None) -> None:
        self.diagnostics.append(Diagnostic(code=code, severity=severity, message=message, span=span,
                                           message_index=index))

    # -- result --------------------------------------------------------------------------------------------

    def transcript(self, text: str) -> Transcript:
        messages = []
        for index, building in enumerate(self.built):
            end = building.end
            if end is None:
                end = "eof"
                building.notes.append(("E-STREAM-TRUNCATED", "error",
                                       "The stream ended before this message was done.", building.span))
            messages.append(Message(index=index, turn=building.turn, span=building.span, end=end,
                                    content=building.text, segments=building.segments(), **building.fields))
            for code, severity, message, span in building.notes:
                self._diagnose(code, severity, message, span, index)
        self._tool_cancellations()
        return Transcript(dialect="events", source=text, messages=tuple(messages),
                          diagnostics=tuple(self.diagnostics), frame=tuple(self.frame))

    def _tool_cancellations(self) -> None:
        calls = {b.fields.get("call_id"): b.order for b in self.built if b.kind == "call"}
        for call_id, reason, span in self.cancelled_calls:
            because = f" ({reason})" if isinstance(reason, str) and reason else ""
            index = calls.get(call_id)
            if index is None:
                message = f"The runtime cancelled tool call {call_id!r}{because}, which no call in this log has."
            else:
                message = f"The runtime cancelled this tool call{because}."
            self._diagnose("E-TOOL-CANCELLED", "error", message, span, index)


_ALL = object()


def _stream_of(event: dict[str, Any], default: Any = None) -> Any:
    stream = event.get("message_id", event.get("item_id"))
    if stream is None:
        return default
    return stream if isinstance(stream, (str, int)) else _dumps(stream)


def _key(kind: str, event: dict[str, Any], stream: Any) -> tuple[Any, str, Any]:
    """Open messages are told apart by stream and kind; calls also by their id."""
    return stream, kind, _text(event.get("call_id")) if kind == "call" else None


def _fields(kind: str, event: dict[str, Any]) -> dict[str, Any]:
    if kind == "call":
        name = _text(event.get("name"))
        return dict(role="assistant", recipient=_qualified(name) if name else None, channel="commentary",
                    channel_explicit=True, content_type="json", constrained=True,
                    call_id=_text(event.get("call_id")))
    channel = "final" if kind == "final" else "analysis"
    return dict(role="assistant", channel=channel, channel_explicit=True,
                intent="summary" if kind == "summary" else None)


def _qualified(name: str) -> str:
    return name if "." in name else f"functions.{name}"


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return _dumps(value)


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        return "(a value too deeply nested to show)"
