"""Reading an event log line by line: what each event does to the messages being built."""
from __future__ import annotations

from collections import deque
from typing import Any

from viewer.model import Diagnostic, Message, Segment, Span, Transcript, make_diagnostic
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.events.building import (ALL_STREAMS, DELTAS, DONES, END_BY_KIND, LIFECYCLE, RESPONSE_ENDS,
                                          Building, message_fields, open_key, stream_of, text_of)


class Log:
    """The state of the log read so far: open messages by stream, turns, and what each line meant. A message is
    taken (`take_finished`) once it and every message begun before it are closed: what is kept of the log read
    is the messages not taken yet, each call's index by its id and each stream's turn."""

    def __init__(self) -> None:
        self.begun = 0
        """How many messages have begun (the next one's index)."""
        self.waiting: deque[Building] = deque()
        """The messages begun and not taken yet, in the order they began."""
        self.calls: dict[str, int] = {}
        """A call's id -> the index of the last call with it."""
        self.open: dict[tuple[Any, str, Any], Building] = {}
        self.turns: dict[Any, int] = {}
        self.next_turn = 0
        self.diagnostics: list[Diagnostic] = []
        self.frame: list[Segment] = []
        self.call_names: dict[str, str] = {}

    # -- reading -------------------------------------------------------------------------------------------

    def read_event(self, event: dict[str, Any], number: int, span: Span) -> None:
        """Read the event of one line of the log (`number` from 1, `span` its place in the source)."""
        kind = event.get("type", event.get("event"))
        if not isinstance(kind, str):
            self._diagnose("W-EVENT-SHAPE", f"Line {number} has no event type; it was skipped.", span)
            return
        self._dispatch(kind, event, number, span)

    def _dispatch(self, kind: str, event: dict[str, Any], number: int, span: Span) -> None:
        stream = stream_of(event)
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
            self.frame.append(Segment.of("event", kind, span))
        else:
            self._diagnose("W-UNKNOWN-EVENT",
                           f"Line {number} is an event of unknown type {kind!r}; it was kept but not read.", span)

    def _delta(self, kind: str, event: dict[str, Any], stream: Any, number: int, span: Span) -> None:
        delta = event.get("delta")
        if not isinstance(delta, str):
            self._diagnose("W-EVENT-SHAPE", f"Line {number} has no text under 'delta'; it was skipped.", span)
            return
        building = self._open_message(kind, event, stream, span)
        building.add_delta(delta, span)

    def _done(self, kind: str, event: dict[str, Any], stream: Any, span: Span) -> None:
        key = open_key(kind, event, stream)
        building = self.open.get(key)
        final_text = event.get("arguments" if kind == "call" else "text")
        if building is None:
            if not isinstance(final_text, str):
                self.frame.append(Segment.of("event", kind, span))
                return
            building = self._open_message(kind, event, stream, span)
        if not building.text and isinstance(final_text, str):
            building.add_delta(final_text, span)
        elif isinstance(final_text, str) and final_text != building.text:
            building.notes.append(Pending(
                "W-EVENT-TEXT-MISMATCH", "The done event's text differs from the streamed deltas; the deltas are "
                "shown.", span))
        self._close(building, END_BY_KIND[kind], span)

    def _end_response(self, event: dict[str, Any], stream: Any, span: Span, cancelled: bool) -> None:
        explicit = stream_of(event, default=ALL_STREAMS) is not ALL_STREAMS
        targets = [b for key, b in self.open.items() if not explicit or key[0] == stream]
        for building in targets:
            if cancelled:
                reason = event.get("reason")
                because = f" ({reason})" if isinstance(reason, str) and reason else ""
                building.notes.append(Pending(
                    "W-STREAM-CANCELLED", f"The response was cancelled{because} before this message was complete.",
                    span))
            self._close(building, "eof" if cancelled else END_BY_KIND[building.kind], span)
        for ended in ([stream] if explicit else list(self.turns)):
            self.turns.pop(ended, None)
        if not targets:
            self.frame.append(Segment.of("event", str(event.get("type", event.get("event"))), span))

    def _flush(self, stream: Any, span: Span) -> None:
        targets = [b for key, b in self.open.items() if key[0] == stream and b.kind != "call"]
        for building in targets:
            building.flush(span)
        if not targets:
            self.frame.append(Segment.of("event", "response.delta.flush", span))

    def _tool_result(self, event: dict[str, Any], span: Span) -> None:
        call_id = text_of(event.get("call_id"))
        name = text_of(event.get("name"))
        output = event.get("output", event.get("content"))
        content = output if isinstance(output, str) else ("" if output is None else shown_json(output))
        # A reply is its own envelope; whatever the assistant streams next is a new response.
        self.turns.clear()
        reply = self._start(self._new_turn(), "reply", span, dict(
            role="tool", name=qualified_tool_name(name) if name else self.call_names.get(call_id or ""), recipient=None,
            channel="commentary", channel_explicit=False, call_id=call_id))
        reply.add_delta(content, span)
        reply.end = "end"

    def _tool_cancel(self, event: dict[str, Any], span: Span) -> None:
        call_id = text_of(event.get("call_id")) or ""
        reason = event.get("reason")
        because = f" ({reason})" if isinstance(reason, str) and reason else ""
        index = self.calls.get(call_id)
        if index is None:
            message = f"The runtime cancelled tool call {call_id!r}{because}, which no call before it in this log has."
        else:
            message = f"The runtime cancelled this tool call{because}."
        self._diagnose("E-TOOL-CANCELLED", message, span, index)

    # -- building ------------------------------------------------------------------------------------------

    def _open_message(self, kind: str, event: dict[str, Any], stream: Any, span: Span) -> Building:
        key = open_key(kind, event, stream)
        building = self.open.get(key)
        if building is not None:
            return building
        turn = self.turns.get(stream)
        if turn is None:
            turn = self.turns[stream] = self._new_turn()
        building = self._start(turn, kind, span, message_fields(kind, event))
        self.open[key] = building
        call_id = building.fields["call_id"] if kind == "call" else None
        if call_id is not None:
            self.calls[call_id] = building.order
            if building.fields["recipient"]:
                self.call_names.setdefault(call_id, building.fields["recipient"])
        return building

    def _start(self, turn: int, kind: str, span: Span, fields: dict[str, Any]) -> Building:
        building = Building(order=self.begun, turn=turn, kind=kind, span=span, fields=fields)
        self.begun += 1
        self.waiting.append(building)
        return building

    def _close(self, building: Building, end: str, span: Span) -> None:
        building.end = end
        building.extend_to(span)
        self.open = {key: value for key, value in self.open.items() if value is not building}

    def _new_turn(self) -> int:
        self.next_turn += 1
        return self.next_turn - 1

    def _diagnose(self, code: str, message: str, span: Span, index: int | None = None) -> None:
        self.diagnostics.append(make_diagnostic(code, span, message, index))

    # -- result --------------------------------------------------------------------------------------------

    def take_finished(self) -> list[Message]:
        """The messages closed that no open message began before, taken in order; their diagnostics join the
        log's."""
        taken = []
        while self.waiting and self.waiting[0].end is not None:
            building = self.waiting.popleft()
            taken.append(Message.drafted(building.text, building.span, index=building.order, turn=building.turn,
                                         end=building.end, segments=building.segments(), **building.fields))
            self.diagnostics.extend(note.at(building.order) for note in building.notes)
        return taken

    def close_open(self) -> None:
        """The log has ended: each message still open ends `eof`, E-STREAM-TRUNCATED."""
        for building in self.open.values():
            building.end = "eof"
            building.notes.append(Pending("E-STREAM-TRUNCATED", "The stream ended before this message was done.",
                                          building.span))
        self.open = {}

    def transcript(self, text: str) -> Transcript:
        """The messages of the whole log, in the order they began, with every diagnostic; open ones end `eof`."""
        self.close_open()
        messages = self.take_finished()
        return Transcript(dialect="events", source=text, messages=tuple(messages),
                          diagnostics=tuple(self.diagnostics), frame=tuple(self.frame))
