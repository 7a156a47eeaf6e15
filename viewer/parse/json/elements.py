"""One element of a JSON transcript (a message object of any of the shapes the package docstring lists) made
into its messages: reasoning, content, then tool calls."""
from __future__ import annotations

from typing import Any

from viewer.model import CHANNELS, ROLES, Diagnostic, Message, Span, is_tool_address, make_diagnostic
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json.calls import call_pieces, read_content_type
from viewer.parse.json.harmony_text import developer_text, system_text
from viewer.parse.json.positions import Node, read_value
from viewer.parse.json.source import JsonObject, Piece, kind_of
from viewer.parse.json.tools import namespace_tools

ELEMENT_DEPTH = 2
"""Levels of a message element read with spans (its members and the items of its arrays) when it gives
several messages or a diagnostic about one of its fields; other elements are decoded whole, which is ten times
faster."""
REASONING_KEYS = ("thinking", "reasoning_content", "reasoning")
SPLITTING_KEYS = (*REASONING_KEYS, "tool_calls", "tool_call")
"""Keys that may make one element give several messages."""
TEXT_PART_KEYS = {"text": "text", "input_text": "text", "output_text": "text", "reasoning_text": "text",
                  "summary_text": "text", "thinking": "thinking", "refusal": "refusal"}


class Importer:
    """Turns message elements into messages, in order, remembering call ids to name the replies."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.messages: list[Message] = []
        self.diagnostics: list[Diagnostic] = []
        self.tools: dict[str, Any] = {}
        self._call_names: dict[str, str] = {}

    def add(self, element: Node, turn: int) -> None:
        if not isinstance(element.value, dict):
            self.diagnostics.append(make_diagnostic(
                "W-JSON-SHAPE", element.span,
                f"Element {turn} is {kind_of(element.value)}, not a message object; it was skipped."))
            return
        # Messages that share an element span its members, and diagnostics point at a member: then the element
        # is read again, keeping the spans of its members.
        if not element.members and any(element.value.get(key) for key in SPLITTING_KEYS):
            element = self._located(element)
        source, pieces = self._read_pieces(element)
        if not element.members and (source.problems or any(piece.problems for piece in pieces)):
            element = self._located(element)
            source, pieces = self._read_pieces(element)
        first_index = len(self.messages)
        for piece in pieces:
            span = element.span if len(pieces) == 1 else (piece.span or element.span)
            message = Message(index=len(self.messages), turn=turn, span=span, **piece.fields)
            self.messages.append(message)
            self._note(piece.problems, message.index)
            if message.end == "call" and message.call_id is not None and message.recipient is not None:
                self._call_names.setdefault(message.call_id, message.recipient)
        self._note(source.problems, first_index)

    def _located(self, element: Node) -> Node:
        return read_value(self.text, element.span[0], ELEMENT_DEPTH)

    def _read_pieces(self, element: Node) -> tuple[JsonObject, list[Piece]]:
        source = JsonObject(element.value, element.span, element.members)
        return source, self._pieces(source)

    def _note(self, problems: list[Pending], index: int) -> None:
        self.diagnostics.extend(problem.at(index) for problem in problems)

    def _pieces(self, source: JsonObject) -> list[Piece]:
        role, name = _author(source)
        channel = _channel(source)
        reasoning = self._reasoning_pieces(source, role)
        calls = call_pieces(source, role, channel)
        content = self._content_piece(source, role, name, channel)
        text = content.fields["content"]
        alone = not (reasoning or calls)
        if text is None:
            content.fields["content"] = ""
            if alone:
                source.problem("W-JSON-MISSING-CONTENT", "This message has no content.")
        # Empty content beside reasoning or calls (OpenAI writes "" or null there) is not a message of its own.
        return [*reasoning, *([content] if text or alone else []), *calls]

    def _reasoning_pieces(self, source: JsonObject, role: str) -> list[Piece]:
        pieces: list[Piece] = []
        seen: set[str] = set()
        for key in REASONING_KEYS:
            if source.get(key) is None:
                continue
            # Some producers write the same reasoning under two keys; show it once.
            text = self._text_value(source, key)
            if text and text not in seen:
                seen.add(text)
                pieces.append(Piece(dict(role=role, channel="analysis", channel_explicit=True, content=text,
                                         end="end"), source.span_of(key)))
        return pieces

    def _content_piece(self, source: JsonObject, role: str, name: str | None, channel: str | None) -> Piece:
        recipient = source.text("recipient")
        content_type, constrained = read_content_type(source.text("content_type"))
        call_id = source.text("tool_call_id") or source.text("call_id")
        if role == "tool":
            name = qualified_tool_name(name) if name else self._call_names.get(call_id or "")
        to_tool = role == "assistant" and is_tool_address(recipient)
        default_channel = "commentary" if role == "tool" or to_tool else "final"
        fields = dict(role=role, name=name, recipient=recipient, channel=channel or default_channel,
                      channel_explicit=channel is not None, content_type=content_type, constrained=constrained,
                      intent=source.text("intent"), call_id=call_id, content=self._text_value(source, "content"),
                      end="call" if to_tool else "end")
        return Piece(fields, source.span_of("content") if "content" in source.members else None)

    def _text_value(self, source: JsonObject, key: str) -> str | None:
        """The text of a content-like field: a string, or a list of parts whose text is joined."""
        value = source.get(key)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list):
            return source.text(key)
        node = source.node_of(key)
        spans = [item.span for item in node.items] if node is not None and node.items else []
        texts = [self._part_text(part, spans[at] if at < len(spans) else source.span_of(key), source)
                 for at, part in enumerate(value)]
        return "".join(texts)

    def _part_text(self, part: Any, span: Span, source: JsonObject) -> str:
        if isinstance(part, str):
            return part
        kind = part.get("type") if isinstance(part, dict) else None
        if isinstance(part, dict):
            key = "text" if kind is None else TEXT_PART_KEYS.get(kind) if isinstance(kind, str) else None
            if key is not None and isinstance(part.get(key), str):
                return part[key]
            if kind == "system_content":
                self.tools.update(namespace_tools(part.get("tools")))
                return system_text(part)
            if kind == "developer_content":
                self.tools.update(namespace_tools(part.get("tools")))
                return developer_text(part)
        what = f"of type {kind!r}" if isinstance(kind, str) else f"that is {kind_of(part)}"
        source.problem("W-JSON-CONTENT-PART", f"A content part {what} has no text to show; it was left out.", span)
        return ""


def _author(source: JsonObject) -> tuple[str, str | None]:
    """The role and name, from `author: {role, name}` or flat keys. A role naming a tool (`functions.x`,
    `browser.search`) is the tool speaking, as in Harmony text."""
    author = source.get("author")
    holder = JsonObject(author, source.span_of("author")) if isinstance(author, dict) else source
    role, name = holder.get("role"), holder.text("name")
    source.problems.extend(holder.problems if holder is not source else [])
    role_span = holder.span_of("role")
    if role is None:
        source.problem("W-UNKNOWN-ROLE", "This message has no role.", role_span)
        return "unknown", name
    if not isinstance(role, str):
        shown = shown_json(role)
        source.problem("W-UNKNOWN-ROLE", f"The role {shown} is not a word; it was kept as written.", role_span)
        return shown, name
    if role in ROLES:
        return role, name
    if role == "function":  # OpenAI's legacy name for a tool reply
        return "tool", name
    if "." in role:
        return "tool", role
    source.problem("W-UNKNOWN-ROLE", f"Unknown role {role!r}; it was kept as written.", role_span)
    return role, name


def _channel(source: JsonObject) -> str | None:
    channel = source.text("channel")
    if channel is not None and channel not in CHANNELS:
        source.problem("W-UNKNOWN-CHANNEL", f"Unknown channel {channel!r}; it was kept as written.",
                       source.span_of("channel"))
    return channel
