"""Ollama's native chat API (`/api/chat`). A request is an envelope of messages (conversation.py reads it; its
messages' `thinking` is reasoning, `tool_calls` carry object arguments and no ids, a tool's reply names its tool
in `tool_name`, and `images` are base64 data, shown as placeholders). A response is `{"model", "created_at",
"message", "done", "done_reason", …durations}`: its `message` is the element, the rest the header.

A streamed answer is JSON Lines of such chunks, each with a piece of the message (`content`, `thinking`, or a
whole tool call), the last with `done: true`: the chunks of one answer are one element (one turn), its
reasoning, text and calls each spanning the chunks they came from. A stream that ends before `done: true` is
cut short: its messages end `eof`, with E-STREAM-TRUNCATED. The chunks' model, the last chunk's time,
`done_reason` and token counts are the answer's meta (stream_meta.py).
"""
from __future__ import annotations

from typing import Any

from viewer.model import Span
from viewer.parse.json import stream_meta
from viewer.parse.json.positions import Member, Node
from viewer.parse.json.record_helpers import cut_short, envelope
from viewer.parse.json.unpacked import Unpacked


def is_record(value: dict) -> bool:
    return isinstance(value.get("message"), dict) and "done" in value


def reading(node: Node, text: str, inner: object = None) -> Unpacked:
    found = Unpacked([node.members["message"].node], envelope(node, "message"))
    if node.value.get("done") is False:
        _cut(found, 0, node.span)
    stream_meta.mark(found, 0, stream_meta.ollama([node.value]))  # the answer's model, time, reason and counts
    return found


def starts(first: Any) -> bool:
    """A file whose first element is an Ollama answer, whole or a chunk: a stream (or a conversation of answers)."""
    return isinstance(first, dict) and is_record(first)


def streamed(found: Unpacked) -> Unpacked:
    """JSON Lines whose lines are chunks of streamed answers, each answer made one element; other lines kept."""
    elements: list[Node] = []
    chunks: list[Node] = []
    marks, notes = dict(found.marks), list(found.notes)
    merged = Unpacked(elements, found.envelope, found.unread, found.key, notes=notes, marks=marks)
    for element in found.elements:
        if isinstance(element.value, dict) and is_record(element.value):
            chunks.append(element)
            if element.value.get("done") is True:
                elements.append(_answer(chunks))
                _mark_meta(merged, chunks)
                chunks = []
            continue
        if chunks:
            _end_cut(merged, chunks)
            chunks = []
        elements.append(element)
    if chunks:
        _end_cut(merged, chunks)
    return merged


def _end_cut(merged: Unpacked, chunks: list[Node]) -> None:
    merged.elements.append(_answer(chunks))
    _cut(merged, len(merged.elements) - 1, chunks[-1].span)
    _mark_meta(merged, chunks)


def _mark_meta(merged: Unpacked, chunks: list[Node]) -> None:
    """The answer's model, time, done_reason and token counts as its messages' meta (stream_meta.py)."""
    stream_meta.mark(merged, len(merged.elements) - 1, stream_meta.ollama([chunk.value for chunk in chunks]))


def _cut(found: Unpacked, position: int, span: Span) -> None:
    cut_short(found, position, span, "The stream ends before a chunk with \"done\": true; the answer is cut short.")


def _answer(chunks: list[Node]) -> Node:
    """The chunks of one answer as one message element whose members span the chunks they came from."""
    messages = [(chunk, chunk.value["message"]) for chunk in chunks]
    members: dict[str, Member] = {}
    value: dict[str, Any] = {"role": next((m["role"] for _, m in messages if isinstance(m.get("role"), str)),
                                          "assistant")}
    for key in ("thinking", "content"):
        parts = [(chunk, m[key]) for chunk, m in messages if isinstance(m.get(key), str) and m[key]]
        if parts:
            span = (parts[0][0].span[0], parts[-1][0].span[1])
            value[key] = "".join(text for _, text in parts)
            members[key] = Member(Node(value[key], span), span)
    calls = [(chunk, call) for chunk, m in messages if isinstance(m.get("tool_calls"), list)
             for call in m["tool_calls"]]
    if calls:
        span = (calls[0][0].span[0], calls[-1][0].span[1])
        value["tool_calls"] = [call for _, call in calls]
        members["tool_calls"] = Member(Node(value["tool_calls"], span, items=tuple(
            Node(call, chunk.span) for chunk, call in calls)), span)
    if len(value) == 1:  # nothing said at all: an empty answer
        span = chunks[-1].span
        value["content"] = ""
        members["content"] = Member(Node("", span), span)
    return Node(value, (chunks[0].span[0], chunks[-1].span[1]), members)
