"""A streamed Chat Completion (`stream: true`), as OpenAI and every compatible server write it: chunks
`{"id", "object": "chat.completion.chunk", "created", "model", "choices": [{"index", "delta", "finish_reason"}]}`,
one per JSON line or one per server-sent event (`data: {…}`, then `data: [DONE]`: container.py reads both).

A delta carries a piece of its choice's message: `role` (first chunk), `content`, `reasoning_content` or
`reasoning` (the serving engines' reasoning), `refusal`, and `tool_calls` fragments `{"index", "id", "type",
"function": {"name", "arguments"}}`, where the first fragment of a call names it and the others add to its
arguments. The chunks of one completion share its `id`; each choice's deltas add up to one message element
(what the completion would have said unstreamed: texts joined, each call's argument fragments joined in order),
read as any message object, each of its fields spanning the chunks it came from. A choice with no
`finish_reason` by the last chunk was cut short: its messages end `eof`, with E-STREAM-TRUNCATED. A chunk with
no choices (the usage that `stream_options.include_usage` adds at the end) adds no message: it stays in the frame.
The chunks' model, id, usage and each choice's finish_reason are its messages' meta (stream_meta.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewer.model import Span, make_diagnostic
from viewer.parse.json import stream_meta
from viewer.parse.json.fields import object_in
from viewer.parse.json.positions import Member, Node
from viewer.parse.json.record_helpers import cut_short, spanning
from viewer.parse.json.source import kind_of
from viewer.parse.json.unpacked import Unpacked

TEXT_KEYS = ("reasoning_content", "reasoning", "content", "refusal")
"""Delta fields whose text pieces are joined, in the order a message object is read."""


def is_chunk(value: Any) -> bool:
    """A chunk of a streamed completion: so named, or choices that carry a `delta` instead of a `message`."""
    if not isinstance(value, dict):
        return False
    choices = value.get("choices")
    return value.get("object") == "chat.completion.chunk" or isinstance(choices, list) and bool(choices) and all(
        isinstance(choice, dict) and "delta" in choice for choice in choices)


@dataclass(slots=True)
class _Call:
    """One tool call gathered from its fragments."""

    id: str | None = None
    name: str | None = None
    arguments: list[str] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)

    def add(self, fragment: dict[str, Any], span: Span) -> None:
        function = object_in(fragment, "function")
        self.id = self.id or _text(fragment.get("id"))
        self.name = self.name or _text(function.get("name"))
        if isinstance(function.get("arguments"), str):
            self.arguments.append(function["arguments"])
        self.spans.append(span)

    def value(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": "".join(self.arguments)}}


@dataclass(slots=True)
class _Choice:
    """One choice's message gathered from its deltas."""

    role: str | None = None
    texts: dict[str, list[tuple[str, Span]]] = field(default_factory=dict)
    calls: dict[Any, _Call] = field(default_factory=dict)
    spans: list[Span] = field(default_factory=list)
    finished: bool = False
    stop_reason: Any = None

    def add(self, delta: dict[str, Any], span: Span, notes: list) -> None:
        self.spans.append(span)
        self.role = self.role or _text(delta.get("role"))
        for key in TEXT_KEYS:
            piece = delta.get(key)
            if isinstance(piece, str):
                if piece:
                    self.texts.setdefault(key, []).append((piece, span))
            elif piece is not None:
                notes.append(make_diagnostic("W-JSON-FIELD-TYPE", span, f"The delta's {key!r} is "
                                             f"{kind_of(piece)}, not text; it was left out."))
        fragments = delta.get("tool_calls")
        for number, fragment in enumerate(fragments if isinstance(fragments, list) else []):
            if not isinstance(fragment, dict):
                notes.append(make_diagnostic("W-JSON-SHAPE", span, "A tool call fragment is not an object; it "
                                                                   "was left out."))
                continue
            index = fragment.get("index", number)
            self.calls.setdefault(index if isinstance(index, (int, str)) else number, _Call()).add(fragment, span)

    def element(self) -> Node:
        """The message the deltas add up to, each field spanning the chunks that gave it."""
        value: dict[str, Any] = {"role": self.role or "assistant"}
        members: dict[str, Member] = {}
        for key in TEXT_KEYS:
            pieces = self.texts.get(key)
            if pieces:
                span = spanning([at for _, at in pieces])
                value[key] = "".join(piece for piece, _ in pieces)
                members[key] = Member(Node(value[key], span), span)
        if self.calls:
            calls = list(self.calls.values())
            value["tool_calls"] = [call.value() for call in calls]
            span = spanning(sorted(at for call in calls for at in call.spans))
            items = tuple(Node(call.value(), spanning(call.spans)) for call in calls)
            members["tool_calls"] = Member(Node(value["tool_calls"], span, items=items), span)
        if len(value) == 1:  # nothing said at all: an empty answer
            value["content"] = ""
            members["content"] = Member(Node("", self.spans[-1]), self.spans[-1])
        return Node(value, spanning(self.spans), members)


def starts(first: Any) -> bool:
    return is_chunk(first)


def streamed(found: Unpacked) -> Unpacked:
    """The elements with the chunks of each completion made one element per choice; other elements kept."""
    merged = Unpacked([], found.envelope, found.unread, found.key, notes=list(found.notes), marks=dict(found.marks))
    chunks: list[Node] = []
    for element in found.elements:
        if is_chunk(element.value) and (not chunks or element.value.get("id") == chunks[0].value.get("id")):
            chunks.append(element)
            continue
        _add_completion(merged, chunks)
        chunks = [element] if is_chunk(element.value) else []
        if not chunks:
            merged.elements.append(element)
    _add_completion(merged, chunks)
    return merged


def _add_completion(merged: Unpacked, chunks: list[Node]) -> None:
    """One completion's choices, in the order they first appear, each an element."""
    choices: dict[Any, _Choice] = {}
    for chunk in chunks:
        listed = chunk.value.get("choices")
        if listed is not None and not isinstance(listed, list):
            merged.notes.append(make_diagnostic("W-JSON-SHAPE", chunk.span, "This chunk's choices are not a list; "
                                                "they were left out."))
        for number, choice in enumerate(listed if isinstance(listed, list) else []):
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if not isinstance(delta, dict):
                merged.notes.append(make_diagnostic("W-JSON-SHAPE", chunk.span, "A choice of this chunk has no "
                                                    "delta object; it was left out."))
                continue
            index = choice.get("index", number)
            state = choices.setdefault(index if isinstance(index, (int, str)) else number, _Choice())
            state.add(delta, chunk.span, merged.notes)
            state.finished = state.finished or choice.get("finish_reason") is not None
            state.stop_reason = choice.get("finish_reason") or state.stop_reason
    values = [chunk.value for chunk in chunks]
    for number, state in enumerate(choices.values()):
        if number:
            merged.continued.add(len(merged.elements))
        merged.elements.append(state.element())
        if not state.finished:
            cut_short(merged, len(merged.elements) - 1, state.spans[-1],
                      "The stream ends before this choice's finish_reason; the answer is cut short.")
        meta = stream_meta.completion(values, state.stop_reason, usage=number == len(choices) - 1)
        stream_meta.mark(merged, len(merged.elements) - 1, meta)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
