"""Small helpers for the record shapes (shapes.py, level `record`): reading a nested value again with its members' spans, an
envelope without the members a record consumed, a message element made from a text member, and a streamed
answer marked cut short."""
from __future__ import annotations

from typing import Any

from viewer.model import Span, make_diagnostic
from viewer.parse.json.positions import Member, Node, read_value
from viewer.parse.json.unpacked import Unpacked

CUT = {"end": "eof"}
"""The mark of the messages of an answer whose stream ends before the answer does."""


def located(text: str, node: Node, depth: int = 2) -> Node:
    """The node read again with spans `depth` levels down (an element read whole has none)."""
    return read_value(text, node.span[0], depth)


def member(text: str, node: Node, key: str, depth: int = 2) -> Node | None:
    """The value of `node`'s member `key`, with spans `depth` levels down; None when it is absent or null. One
    level is there already when `node` was read two levels down: then the value is not read again (reading is
    most of the cost of a record)."""
    found = node.members.get(key)
    if found is None or found.node.value is None:
        return None
    value = found.node
    if not isinstance(value.value, (dict, list)) or depth <= 1 and (value.members or value.items or not value.value):
        return value
    return located(text, value, depth)


def items(text: str, node: Node | None, depth: int = 1) -> list[Node]:
    """The items of an array node, each with spans `depth` levels down (none: read whole)."""
    if node is None or not isinstance(node.value, list):
        return []
    listed = node.items if node.items or not node.value else located(text, node, 1).items
    return [located(text, item, depth) if depth and isinstance(item.value, dict) and not item.members else item
            for item in listed]


def envelope(node: Node, *consumed: str) -> dict[str, Member]:
    """The members of a record other than those it was read from: they give the header."""
    return {key: value for key, value in node.members.items() if key not in consumed}


def said(role: str, found: Member, **fields: Any) -> Node:
    """A message element made of a member whose value is the message's text (a preference pair's `"chosen":
    "…"`): the member's span is the element's, and the text keeps its own span."""
    value = {"role": role, "content": found.node.value, **fields}
    return Node(value, found.span, {"content": found})


def cut_short(found: Unpacked, position: int, span: Span, sentence: str) -> None:
    """Mark the element at `position` as an answer whose stream was cut (its messages end `eof`) and say so with
    E-STREAM-TRUNCATED over `span` (the last chunk read)."""
    found.marks[position] = CUT
    found.notes.append(make_diagnostic("E-STREAM-TRUNCATED", span, sentence))


def spanning(spans: list[Span]) -> Span:
    """From the start of the first span to the end of the last: a value gathered from the chunks of a stream."""
    return spans[0][0], spans[-1][1]
