"""A JSON object being read into messages: its values, the spans of its members, the problems found; and the
messages it gives before they are numbered."""
from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from typing import Any

from viewer.model import Span
from viewer.parse.common import Pending, shown_json
from viewer.parse.json.positions import Member, Node


@dataclass(slots=True)
class Draft:
    """A message before it has an index: its Message fields and the sub-value it came from."""

    fields: dict[str, Any]
    span: Span | None
    problems: list[Pending] = field(default_factory=list)


class JsonObject:
    """A JSON object being read: its values, the spans of its members when known, and the problems found."""

    def __init__(self, value: dict[str, Any], span: Span, members: Mapping[str, Member] | None = None) -> None:
        self.value = value
        self.span = span
        self.members = members or {}
        self.problems: list[Pending] = []
        self.unread: dict[str, Any] = {}
        """Its members that no reader claimed (`account`), kept as they were written."""
        self.kept: dict[str, Any] = {}
        """What its reader read of it that belongs to no message (a training weight), for the header."""

    def get(self, key: str) -> Any:
        return self.value.get(key)

    def span_of(self, key: str) -> Span:
        member = self.members.get(key)
        return member.span if member is not None else self.span

    def node_of(self, key: str) -> Node | None:
        member = self.members.get(key)
        return member.node if member is not None else None

    def problem(self, code: str, message: str, span: Span | None = None) -> None:
        """Report something wrong with the object, at one of its members or (by default) the whole object."""
        self.problems.append(Pending(code, message, span or self.span))

    def account(self, claimed: Container[str], what: str = "element", within: str | None = None) -> None:
        """The accounting rule: a member that holds something and that the object's reader neither read nor
        knowingly left in the source (its `claimed` keys: what it read, and tags it shows otherwise; any id) is
        kept raw in `unread`, which the importer puts in the transcript's header, and named by W-JSON-UNREAD.
        `within`: the members of that member's object are accounted for instead (a framework's metadata)."""
        holder = self.value.get(within) if within is not None else self.value
        if not isinstance(holder, dict):
            return
        left = {key: value for key, value in holder.items()
                if key not in claimed and not empty(value) and not an_id(key, value)}
        if not left:
            return
        if within is None:
            self.unread.update(left)
        else:
            self.unread.setdefault(within, {}).update(left)
        names = ", ".join(repr(key) for key in left)
        members = "members" if len(left) > 1 else "member"
        where = f"{within!r} of this {what}" if within is not None else f"this {what}"
        self.problem("W-JSON-UNREAD", f"The {members} {names} of {where} {'are' if len(left) > 1 else 'is'} not "
                                      "read by the importer; kept as raw JSON in the header's 'unread'.",
                     self.span_of(within if within is not None else next(iter(left))))

    def text(self, key: str) -> str | None:
        """A field meant to be text; anything else is reported and read as its JSON text."""
        value = self.value.get(key)
        if value is None or isinstance(value, str):
            return value
        shown = shown_json(value)
        self.problem("W-JSON-FIELD-TYPE",
                     f"The field {key!r} should be text but is {kind_of(value)}; it was read as {shown}.",
                     self.span_of(key))
        return shown


def an_id(key: str, value: Any) -> bool:
    """An id (`container_id`, `requestId`): what it names is elsewhere, and the source keeps it."""
    return isinstance(value, (str, int)) and (key == "id" or key.endswith(("_id", "Id")))


def empty(value: Any) -> bool:
    """A member that says nothing: null, or an empty text, list or object."""
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def kind_of(value: Any) -> str:
    """What a JSON value is, for a sentence: "a number", "a list" …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def type_phrase(kind: Any, value: Any) -> str:
    """How a diagnostic names what a part or item is: "of type 'x'", "with no type", "that is a number"."""
    if isinstance(kind, str):
        return f"of type {kind!r}"
    if isinstance(value, dict):
        return "with no type" if kind is None else f"whose type is {kind_of(kind)}"
    return f"that is {kind_of(value)}"
