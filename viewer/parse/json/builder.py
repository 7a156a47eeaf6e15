"""Numbering what the shape readers make: each element of a conversation (a message object, a Responses API
item, a ShareGPT turn) becomes a turn of messages, in source order, with its diagnostics; tool calls are
remembered by id so that replies can be named after the tool they answer."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Message, Span, make_diagnostic
from viewer.parse.common import Pending
from viewer.parse.json import gemini_content, gemini_plain, langchain
from viewer.parse.json.plain import read_plain
from viewer.parse.json.positions import Node, read_value
from viewer.parse.json.source import JsonObject, Draft, kind_of

ELEMENT_DEPTH = 2
"""Levels of an element read with spans (its members and the items of its arrays) when it gives several
messages or a diagnostic about one of its fields; other elements are decoded whole, which is ten times
faster."""
SPLITTING_KEYS = ("thinking", "reasoning_content", "reasoning", "tool_calls", "tool_call", "summary", "parts",
                  "toolInvocations")
"""Keys that may make one element give several messages (a content list may too)."""

Reader = Callable[[JsonObject, "MessageBuilder"], list[Draft]]
"""A shape's reader of one element: its messages before they are numbered."""
FastReader = Callable[[dict[str, Any], Span, "MessageBuilder", int], bool]
"""A shape's reader of its common elements straight into messages (False: not such an element, nothing added)."""
PlainView = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""The plain OpenAI chat message a framework's element stands for (None: it stands for none), so that plain.py
reads it too."""
ViewSpans = Callable[[str, int, dict[str, Any]], "dict[Any, Span] | None"]
"""The spans of the members of the element at an offset, under the names of its plain view (None: not known)."""


class MessageBuilder:
    """Turns elements into messages, in order, remembering call ids to name the replies. One builder reads a
    whole transcript: call it once per conversation when a file holds several."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.messages: list[Message] = []
        self.diagnostics: list[Diagnostic] = []
        self.tools: dict[str, Any] = {}
        self.turn = 0
        """The turn the next element gives."""
        self.unread: list[dict[str, Any]] = []
        """The members of elements that no reader claimed, by the turn the element gave (JsonObject.account)."""
        self.per_turn: list[dict[str, Any]] = []
        """What readers kept of elements that belongs to no message (JsonObject.kept), by turn."""
        self._call_names: dict[str, str] = {}

    def add(self, element: Node, read: Reader, plain: PlainView | None = None,
            fast: FastReader | None = None, view_spans: ViewSpans | None = None) -> None:
        """One element as one turn (an element that is not an object is reported and skipped). `plain` gives the
        plain message a framework's element stands for, when the shape has such elements, and `view_spans` the
        spans of its members under that message's names; `fast` reads the shape's common elements as `read`
        would, faster (False: it added nothing)."""
        turn, self.turn = self.turn, self.turn + 1
        if not isinstance(element.value, dict):
            self.diagnostics.append(make_diagnostic(
                "W-JSON-SHAPE", element.span,
                f"Element {turn} is {kind_of(element.value)}, not a message object; it was skipped."))
            return
        if not element.members and "parts" in element.value and len(element.value) <= 2 \
                and gemini_plain.read_plain(element.value, element.span, self, turn):
            return  # a Gemini content (`parts` and a role alone): no framework's element, no chat message
        value = element.value if plain is None or element.members else plain(element.value)
        located = None
        if view_spans is not None and value is not element.value:
            def located() -> dict[Any, Span] | None:
                return view_spans(self.text, element.span[0], element.value)
        if not element.members and (
                (value is not None and read_plain(value, element.span, self.text, self, turn, located))
                or (fast is not None and fast(element.value, element.span, self, turn))):
            return  # most elements of big files: plain.py reads them ten times faster, to the same messages
        # Messages that share an element span its members or items, and diagnostics point at a member: then the
        # element is read again, keeping the spans of its members. A framework's message may split as the plain
        # message it stands for does: asked of that, it is read with spans at once rather than twice.
        if not element.members and _may_split(element.value if value is None else value):
            element = self._located(element, _depth(element.value))
        source, pieces = self._read(element, read)
        if not element.members and (len(pieces) > 1 or source.problems or any(p.problems for p in pieces)):
            element = self._located(element)
            source, pieces = self._read(element, read)
        self._number(pieces, element.span, turn)
        self._note(source.problems, len(self.messages) - len(pieces) if pieces else None)
        self.keep_unread(source, turn)

    def keep_unread(self, source: JsonObject, turn: int) -> None:
        """What of an element its reader did not claim, and what it kept that belongs to no message, for the
        header (`with_unread`)."""
        if source.unread:
            self.unread.append({"turn": turn, "members": source.unread})
        if source.kept:
            self.per_turn.append({"turn": turn, **source.kept})

    def with_unread(self, header: dict[str, Any]) -> dict[str, Any]:
        """The header, with the members of elements that no reader claimed under `unread` (shown collapsed in the
        debug view, each named by W-JSON-UNREAD where it stands) and what readers kept per turn (`per_turn`)."""
        if not self.unread and not self.per_turn:
            return header
        header = dict(header)
        if self.unread:
            header["unread"] = [*header.get("unread", ()), *self.unread]
        if self.per_turn:
            header["per_turn"] = [*header.get("per_turn", ()), *self.per_turn]
        return header

    def add_plain(self, element: Node, plain: PlainView | None = None) -> bool:
        """`add(element, read, plain)` of an element whose plain view (`plain` gives it; None: the element itself)
        is a plain chat message, read by plain.py at once, without add's dispatch (a fifth of reading a big file's
        plain messages). False, with nothing added and no turn taken, for any other element: then `add` reads it.
        With no `plain`, as add reads conversation.py's elements: a framework's plain view of a plain message (no
        `type`, no `lc`) is the message itself. A Gemini content, which add reads before any plain view, is never
        such a message: `parts` is no plain key, and a content holds no text `content` to view."""
        value = element.value
        if element.members or type(value) is not dict \
                or plain is not None and (value := plain(value)) is None \
                or not read_plain(value, element.span, self.text, self, self.turn):
            return False
        self.turn += 1
        return True

    def add_pieces(self, pieces: list[Draft], span: Span) -> None:
        """Messages read from the envelope (a system prompt beside the list): one turn."""
        turn, self.turn = self.turn, self.turn + 1
        self._number(pieces, span, turn)

    def mark(self, first: int, fields: dict[str, Any]) -> None:
        """Set `fields` (`intent`, `end`, `meta`) on the messages from index `first` on (a record shape's marks); a call
        keeps its end, and only the last message keeps the meta's usage (a sum over messages counts it once)."""
        meta = fields.get("meta")
        last = len(self.messages) - 1
        for at in range(first, len(self.messages)):
            message = self.messages[at]
            end = message.end if message.end == "call" else fields.get("end", message.end)
            changes = {"intent": fields.get("intent", message.intent), "end": end}
            if meta is not None:
                changes["meta"] = meta if at == last or meta.usage is None else dataclasses.replace(meta, usage=None)
            self.messages[at] = replace_fields(message, **changes)

    def note_call(self, call_id: str | None, recipient: str | None) -> None:
        if call_id is not None and recipient is not None:
            self._call_names.setdefault(call_id, recipient)

    def tool_named(self, call_id: str | None) -> str | None:
        """The tool of the call with this id, when one was read."""
        return self._call_names.get(call_id) if call_id is not None else None

    def _located(self, element: Node, depth: int = ELEMENT_DEPTH) -> Node:
        return read_value(self.text, element.span[0], depth)

    def _read(self, element: Node, read: Reader) -> tuple[JsonObject, list[Draft]]:
        source = JsonObject(element.value, element.span, element.members)
        return source, read(source, self)

    def _number(self, pieces: list[Draft], span: Span, turn: int) -> None:
        for piece in pieces:
            at = span if len(pieces) == 1 else (piece.span or span)
            fields = piece.fields  # numbered once: its fields become the message's, its `content` the `body`
            content = fields.pop("content")
            message = Message(index=len(self.messages), turn=turn, body=content, span_start=at[0], span_end=at[1],
                              **fields)
            self.messages.append(message)
            self._note(piece.problems, message.index)
            if message.end == "call":
                self.note_call(message.call_id, message.recipient)

    def _note(self, problems: list[Pending], index: int | None) -> None:
        self.diagnostics.extend(problem.at(index) for problem in problems)


def _depth(value: dict[str, Any]) -> int:
    """Levels of an element read with spans: one for a LangChain message whose fields are wrapped (its reader
    reads the wrapped fields with theirs), else ELEMENT_DEPTH."""
    return 1 if langchain.is_message(value) and langchain.wrapped_key(value) else ELEMENT_DEPTH


def _may_split(value: dict[str, Any]) -> bool:
    return (isinstance(value.get("content"), list) or any(value.get(key) for key in SPLITTING_KEYS)
            or "parts" in value and gemini_content.may_split(value))
