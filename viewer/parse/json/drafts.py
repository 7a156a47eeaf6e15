"""The messages every JSON shape makes, before they are numbered: reasoning, tool calls and replies, and the
hidden message that stands for whatever an importer cannot classify."""
from __future__ import annotations

from typing import Any

from viewer.model import CHANNELS, Span
from viewer.parse.common import Pending, shown_json
from viewer.parse.json.content_text import without_opaque
from viewer.parse.json.source import Draft

REVEALING_ROLES = ("user", "tool")
"""Roles the policy shows (user) or marks (tool) whatever their channel: an unclassified part of such a message
cannot keep its role, or the policy would not hide it."""


def hidden_role(role: str) -> str:
    """The role a hidden piece of a message keeps: its own, unless the policy would show (user) or mark (tool)
    the piece for its role alone; then `unknown`, which the policy hides."""
    return "unknown" if role in REVEALING_ROLES else role


def analysis(role: str, content: str, span: Span | None, intent: str | None = None) -> Draft:
    """Reasoning in any spelling: the `analysis` channel (a reasoning summary has intent `summary`)."""
    return Draft(dict(role=hidden_role(role), channel="analysis", channel_explicit=True, content=content,
                      intent=intent, end="end"), span)


def opaque(role: str, what: str, data: Any, key: str, span: Span) -> Draft:
    """Reasoning the provider withheld (Anthropic's `redacted_thinking`, an encrypted reasoning item): an
    analysis message that says so; the data itself stays in the source, which only the debug view shows."""
    size = len(data) if isinstance(data, str) else len(shown_json(data))
    piece = analysis(role, f"({what}: {size:,} characters of opaque data, kept in the source only)", span)
    piece.problems.append(opaque_problem(what, data, key, span))
    return piece


def opaque_problem(what: str, data: Any, key: str, span: Span) -> Pending:
    """Opaque data (a signature, redacted or encrypted reasoning) is never message text: the debug view says it
    is there and how long it is."""
    size = len(data) if isinstance(data, str) else len(shown_json(data))
    return Pending("W-JSON-OPAQUE-DATA", f"The {what} carries {size:,} characters of opaque data in {key!r}; "
                                         "they are kept in the source, not shown as text.", span)


def call(recipient: str | None, content: str, span: Span | None, call_id: str | None, *,
         json_arguments: bool = True) -> Draft:
    """A tool call: the assistant on `commentary` to the tool's address, ended by `call`."""
    return Draft(dict(role="assistant", recipient=recipient, channel="commentary", channel_explicit=True,
                      content_type="json" if json_arguments else None, constrained=json_arguments,
                      call_id=call_id, content=content, end="call"), span)


def reply(name: str | None, content: str, span: Span | None, call_id: str | None) -> Draft:
    """A tool's reply: role `tool` on `commentary`, named after the tool."""
    return Draft(dict(role="tool", name=name, channel="commentary", content=content, call_id=call_id, end="end"),
                 span)


def arguments_text(value: Any) -> str:
    """Call arguments as text: JSON text stays as written, an object (Anthropic's `input`) becomes JSON."""
    if value is None:
        return ""
    return value if isinstance(value, str) else shown_json(value)


def unclassified(role: str, kind: Any, value: Any, span: Span, code: str, what: str) -> Draft:
    """A part or item the importer cannot positively classify as visible: its own message, which the policy's
    `unknown` rule hides (its channel is the type's name, never a channel the policy shows), shown in the debug
    view, and named by a diagnostic (`code`: W-JSON-UNKNOWN-PART or W-JSON-UNKNOWN-ITEM) that says `what` it is
    ("A content part of type 'x'")."""
    channel = kind if isinstance(kind, str) and kind and kind not in CHANNELS else "unknown"
    content = shown_json(without_opaque(value))
    piece = Draft(dict(role=hidden_role(role), channel=channel, content=content, end="end"), span)
    piece.problems.append(Pending(code, f"{what} is not one the importer knows; it is kept as a message of its "
                                        "own, hidden from the default view.", span))
    return piece
