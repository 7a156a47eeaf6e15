"""Reassemble a streaming event log (JSON Lines, OpenChatML 2.0/2.2 §9) into messages (dialect `events`).

Every line is one JSON object; its type is under `type` (or `event`). Accepted events:

| type | fields | effect |
| --- | --- | --- |
| `response.delta`, `response.output_text.delta` | `delta` | text of a `final` message |
| `response.reasoning_text.delta` | `delta` | text of an `analysis` message |
| `response.reasoning_summary_text.delta` | `delta` | text of a separate `analysis` message, `intent: summary` |
| `response.function_call_arguments.delta` | `call_id`, `name`, `delta` | arguments of a call to `name` |
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
acts on the default stream, except `response.done`/`response.cancel`, which then close every stream. A done
event whose message never streamed a delta makes the message from its own `text`. Within one stream, each kind
(final, analysis, summary, each call) is its own message; a turn is one response of one stream, from its first
message to `response.done` or `response.cancel`.

A flush does not change the text (producers put their own newlines in the deltas): a message that saw a flush
gets `text` segments, one per flushed piece, each spanning its delta lines.

Spans run from a message's first event line to its last, so interleaved streams overlap (allowed for event
logs only). A message still open at the end of the log ends `eof` with E-STREAM-TRUNCATED. The lines are read
as an agent's log's are (viewer/parse/agents/lines.py): one that is not JSON is W-JSON-SYNTAX (a last line cut
mid-JSON E-STREAM-TRUNCATED), one that is not an object W-JSON-SHAPE. Objects without a usable type or text are
W-EVENT-SHAPE; unknown types are kept as an info W-UNKNOWN-EVENT; a done event whose text differs from the
streamed deltas is W-EVENT-TEXT-MISMATCH (the deltas are kept); a `tool.cancel` is E-TOOL-CANCELLED on the last
call before it with its id.

A big log is read a piece at a time (reader.py), a message handed on once it and those begun before it are
closed.
"""
from __future__ import annotations

from viewer.model import Transcript
from viewer.parse.events.reader import EventsReader
from viewer.parse.options import ParseOptions


def parse_events(text: str, options: ParseOptions) -> Transcript:
    """Reassemble an event log (log.py reads the events, building.py holds the messages being built). Never
    raises on user input."""
    return EventsReader.whole(text)


__all__ = ["parse_events"]
