"""What the families' bodies share: reasoning at the start of an answer, tokens found outside backticks, tool
calls made of JSON, tool replies, and tool definitions.

Where a block may stand is part of the grammar: reasoning is read only at the start of an assistant turn
(where templates put it), so an answer that later quotes `<think>` keeps it as text; and a token between
backticks (`` `[THINK]` ``) is being talked about, as in ChatML.
"""
from __future__ import annotations

from typing import Any

from viewer.model import Span
from viewer.parse.chatml.scanning import DECODER, SPACE, UNREADABLE, declare, whole_json
from viewer.parse.common import qualified_tool_name, shown_json, trim_newline
from viewer.parse.templates.build import LEAD, TurnBuilder, segment


def quoted(text: str, start: int, stop: int, end: int) -> bool:
    """Whether the token at [start, stop) stands between backticks (inside a body ending at `end`)."""
    return start > 0 and text[start - 1] == "`" and text.startswith("`", stop, end)


def find_token(text: str, token: str, start: int, end: int) -> int:
    """Where `token` next stands in [start, end) outside backticks, or -1."""
    while (at := text.find(token, start, end)) != -1:
        if not quoted(text, at, at + len(token), end):
            return at
        start = at + len(token)
    return -1


def reasoning(b: TurnBuilder, start: int, end: int, opener: str, closer: str, *, prompt_opens: bool = False,
              opened_in_prompt: bool = False) -> int:
    """The reasoning block at the start of an assistant body, as an `analysis` message; returns where the answer
    starts. With `prompt_opens` (a family whose generation prompt may write the opener, DeepSeek), a body starting
    with the closer has an empty block (nothing to show); with `opened_in_prompt` too (a completion with no opener
    of its own), a body whose first block token is the closer has its reasoning before it. An unclosed block runs
    to the end (W-UNCLOSED-BLOCK)."""
    text = b.source
    lead = LEAD.match(text, start, end).end()
    if text.startswith(opener, lead, end):
        inner = lead + len(opener)
        close = text.find(closer, inner, end)
        if close == -1:
            b.note("W-UNCLOSED-BLOCK", f"The {opener} block has no {closer}; it runs to the end of the turn.",
                   (lead, end))
            _analysis(b, (lead, end), inner, end)
            return end
        _analysis(b, (lead, close + len(closer)), inner, close)
        return close + len(closer)
    if not prompt_opens:
        return start
    if text.startswith(closer, lead, end):  # the prompt wrote the opener and the model thought nothing (V3.1)
        return lead + len(closer)
    if not opened_in_prompt:
        return start
    close = find_token(text, closer, start, end)
    if close == -1 or find_token(text, opener, start, close) != -1:
        return start
    if text[start:close].strip():
        _analysis(b, (lead, close + len(closer)), start, close)
    return close + len(closer)


def _analysis(b: TurnBuilder, span: Span, inner_start: int, inner_end: int) -> None:
    inner = trim_newline(b.source[inner_start:inner_end], lead=True, tail=True)
    b.add(span, inner, role="assistant", channel="analysis", segments=segment("think", inner, span))


def json_call(b: TurnBuilder, span: Span, value: Any, raw: str, *, arguments_keys: tuple[str, ...] = ("arguments",),
              call_id: str | None = None, kind: str = "tool_call") -> None:
    """A call written as a JSON object `{"name": …, <arguments key>: {…}}`; anything else is a call of an unknown
    tool with E-CALL-SCHEMA, whose content is the text as written."""
    name = value.get("name") if isinstance(value, dict) else None
    arguments = next((value[key] for key in arguments_keys if isinstance(value, dict) and key in value), UNREADABLE)
    if isinstance(arguments, str):  # some producers write the arguments as a JSON string
        decoded = whole_json(arguments)
        arguments = decoded if isinstance(decoded, dict) else arguments
    if call_id is None and isinstance(value, dict) and isinstance(value.get("id"), str):
        call_id = value["id"]
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        why = "is not readable JSON" if value is UNREADABLE else (
            f'needs a string "name" and an object "{arguments_keys[0]}"')
        b.note("E-CALL-SCHEMA", f"This call {why}; it is kept as a call of an unknown tool.", span)
        call(b, span, None, raw, call_id=call_id, kind=kind)
        return
    call(b, span, qualified_tool_name(name), shown_json(arguments), call_id=call_id, kind=kind, raw=raw)


def call(b: TurnBuilder, span: Span, recipient: str | None, content: str, *, call_id: str | None = None,
         kind: str = "tool_call", raw: str | None = None, content_type: str | None = "json") -> None:
    """A call message: commentary to `recipient` (None for a call whose tool cannot be read), ending `call`."""
    b.add(span, content, role="assistant", recipient=recipient, channel="commentary",
          content_type=content_type if recipient is not None else None, call_id=call_id, end="call",
          segments=segment(kind, content if raw is None else raw, span))


def reply(b: TurnBuilder, span: Span, content: str, *, name: str | None = None, call_id: str | None = None,
          kind: str = "tool_response") -> None:
    """A tool's reply: role tool, to the assistant, `json` when its text is one JSON value."""
    content_type = None if whole_json(content) is UNREADABLE else "json"
    b.add(span, content, role="tool", name=qualified_tool_name(name) if name else None, recipient="assistant",
          channel="commentary", content_type=content_type, call_id=call_id, segments=segment(kind, content, span))


def declare_all(b: TurnBuilder, tools: dict[str, Any], value: Any, span: Span, where: str) -> None:
    """Declare the tool definitions of a JSON value (a list of them, or one) in the transcript's tools."""
    if value is UNREADABLE:
        b.note("W-JSON-SYNTAX", f"The tool definitions {where} are not readable JSON.", span)
        return
    notes: list = []
    for definition in value if isinstance(value, list) else [value]:
        declare(definition, tools, notes, span, where)
    b.notes.extend(notes)


def item_spans(items: list[Span], start: int, end: int) -> list[Span]:
    """The spans of several calls written in one block [start, end): each from its own start (the first from the
    block's) to the next one's start (the last to the block's end), so the separators between them are inside a
    message."""
    starts = [start] + [item[0] for item in items[1:]]
    return [(first, starts[number + 1] if number + 1 < len(items) else end) for number, first in enumerate(starts)]


def json_list_items(text: str, start: int, end: int) -> list[tuple[Any, Span]] | None:
    """The items of the JSON list at `start` with their spans, when that list is all of [start, end) but blanks;
    else None."""
    chunk = text[start:end]
    if not chunk.startswith("["):
        return None
    items: list[tuple[Any, Span]] = []
    position = SPACE.match(chunk, 1).end()
    while not chunk.startswith("]", position):
        try:
            value, stop = DECODER.raw_decode(chunk, position)
        except (ValueError, RecursionError):
            return None
        items.append((value, (start + position, start + stop)))
        position = SPACE.match(chunk, stop).end()
        if chunk.startswith(",", position):
            position = SPACE.match(chunk, position + 1).end()
        elif not chunk.startswith("]", position):
            return None
    return items if items and not chunk[position + 1:].strip() else None
