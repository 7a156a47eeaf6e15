"""Gemini contents read the fast way: a content of text and thought parts and signed function calls, or of one
function response (the bulk of a Gemini conversation), straight into messages, exactly as gemini_content.py's
general reader makes them (tests/parse/json/test_records_plain.py reads contents both ways and compares); any
other content is left to that reader."""
from __future__ import annotations

import re
from typing import Any, cast

from viewer.model import Message, Role, Span
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.drafts import hidden_role
from viewer.parse.json.gemini_content import ROLES, snake
from viewer.parse.json.plain import member_spans
from viewer.parse.json.positions import SCAN
from viewer.parse.patterns import always_matching

PLAIN_ROLES: dict[str | None, Role] = dict([(None, "user"), *ROLES.items()])
"""A content's role as written -> its messages' role: a content without one is the user's."""


def read_plain(value: dict, span: Span, builder: Any, turn: int) -> bool:
    """A content of text and thought parts and signed function calls, or of one function response (the bulk of a
    conversation), added as its messages, as read_content would make them, without its machinery; False (nothing
    added) for any other content. tests/parse/json/test_records_plain.py reads contents both ways and compares."""
    role, parts = value.get("role"), value["parts"]
    if len(value) != 1 + ("role" in value) or type(parts) is not list or not parts \
            or not (role is None or type(role) is str) or role not in PLAIN_ROLES:
        return False
    plain_parts = _plain_drafts(parts, PLAIN_ROLES[role], builder)
    if plain_parts is None:
        return False
    spans = None
    if (len(plain_parts) > 1 or any(signature for *_, signature in plain_parts)) and (
            spans := _part_spans(builder.text, span[0], value)) is None:
        return False
    messages = builder.messages
    for fields, first, last, signature in plain_parts:
        role, content, name, recipient, channel, explicit, content_type, constrained, call_id, end = fields
        at = span if spans is None or len(plain_parts) == 1 else (spans[first][0], spans[last][1])
        message = Message(len(messages), turn, role, content, at[0], at[1], name, recipient, channel, explicit,
                          content_type, constrained, None, call_id, end)
        messages.append(message)
        if signature:
            assert spans is not None  # read above, since a part is signed
            builder.diagnostics.append(drafts.opaque_problem("thought signature", signature, "thoughtSignature",
                                                             spans[first]).at(message.index))
        if end == "call":
            builder.note_call(call_id, recipient)
    return True


# A message before its index and span: Message's role, content, name, recipient, channel, channel_explicit,
# content_type, constrained, call_id and end; the numbers of the first and last part it comes from; and the
# signature its part carries (opaque data, reported).
_Draft = tuple[tuple, int, int, Any]
_TEXT_PART = frozenset(("text", "thought"))
_CALL_PART = frozenset(("function_call", "thought_signature"))
_BLANK = r"[ \t\n\r]*"
_HEAD = re.compile(rf'\{{{_BLANK}(?P<role>"role"{_BLANK}:{_BLANK}(?:"[a-z]*"|null){_BLANK},{_BLANK})?'
                   rf'"parts"{_BLANK}:{_BLANK}\[{_BLANK}')
"""A content's text up to its first part, as written without escapes: its role (if any) first, then `parts`."""
_AFTER_PART = always_matching(rf"{_BLANK}(,?){_BLANK}")
_TAIL = re.compile(rf"\]{_BLANK}\}}")


def _part_spans(text: str, start: int, value: dict) -> dict[Any, Span] | None:
    """member_spans' spans of the parts of the content at `start`, under their numbers."""
    spans = _written_part_spans(text, start, value)
    return spans if spans is not None else member_spans(text, start, value, listed="parts")


def _written_part_spans(text: str, start: int, value: dict) -> dict[Any, Span] | None:
    """The spans of the parts of a content written as producers write it (its role, if any, then its parts, keys
    without escapes), in half the time of member_spans' general walk; None for any other writing (a key written
    twice, the role after the parts), which that walk reads."""
    head = _HEAD.match(text, start)
    if head is None or (head["role"] is None) == ("role" in value):
        return None
    spans: dict[Any, Span] = {}
    at, last = head.end(), len(value["parts"]) - 1
    for number in range(last + 1):
        end = SCAN(text, at)[1]
        spans[number] = (at, end)
        after = _AFTER_PART.match(text, end)
        if bool(after[1]) == (number == last):  # a comma after the last part, or none before the next
            return None
        at = after.end()
    return spans if _TAIL.match(text, at) else None


def _plain_drafts(parts: list[Any], role: str, builder: Any) -> list[_Draft] | None:
    """The messages of the parts in read_content's order, or None when a part is anything else, or would be
    reported otherwise, or is read read_content's longer way (an empty text, `<think>`). A part of text and
    thought keys alone reads the same as snake() makes it (a null `thought` is no thought, a null `text` no
    text), so only the other parts are copied in snake_case (a copy of each part was a tenth of the reading)."""
    if len(parts) == 1 and type(parts[0]) is dict and not _TEXT_PART.issuperset(parts[0]) \
            and (only := snake(parts[0])).keys() == {"function_response"}:
        reply = _plain_reply(only["function_response"], builder)
        return None if reply is None else [(reply, 0, 0, None)]
    plain_parts: list[_Draft | None] = []
    run: list[int] = []
    for number, part in enumerate(parts):
        if type(part) is not dict:
            return None
        if not _TEXT_PART.issuperset(part):
            part = snake(part)
            if "function_call" in part and _CALL_PART.issuperset(part):
                call = _plain_call(part["function_call"])
                if call is None:
                    return None
                plain_parts += [_plain_run(parts, run, role)] if run else []
                plain_parts.append((call, number, number, part.get("thought_signature")))
                run = []
                continue
        if type(part.get("text")) is not str or not part["text"] or not _TEXT_PART.issuperset(part):
            return None
        if part.get("thought") is not True:
            run.append(number)
            continue
        plain_parts += [_plain_run(parts, run, role)] if run else []
        plain_parts.append(((hidden_role(role), part["text"], None, None, "analysis", True, None, False, None, "end"),
                       number, number, None))
        run = []
    plain_parts += [_plain_run(parts, run, role)] if run else []
    return None if None in plain_parts else cast("list[_Draft]", plain_parts)


def _plain_run(parts: list[dict], run: list[int], role: str) -> _Draft | None:
    content = "".join(parts[number]["text"] for number in run)
    if role == "assistant" and ("<think>" in content or "</think>" in content):
        return None
    channel = "commentary" if role == "tool" else "final"
    return (role, content, None, None, channel, False, None, False, None, "end"), run[0], run[-1], None


def _plain_call(call: Any) -> tuple | None:
    """A function call's message, as _call makes it; None when it would report one that names no function."""
    call = snake(call)
    name = call.get("name") if isinstance(call, dict) else None
    if not isinstance(name, str) or not name:
        return None
    call_id = call.get("id") if isinstance(call.get("id"), str) else None
    return ("assistant", shown_json(call.get("args") or {}), None, qualified_tool_name(name), "commentary", True,
            "json", True, call_id, "call")


def _plain_reply(response: Any, builder: Any) -> tuple | None:
    """A function response's reply, as _response makes it; None when it would report an error."""
    response = snake(response)
    if not isinstance(response, dict) or isinstance(response.get("response"), dict) and \
            response["response"].get("error") is not None:
        return None
    call_id = response.get("id") if isinstance(response.get("id"), str) else None
    name = response.get("name")
    tool = qualified_tool_name(name) if isinstance(name, str) and name else builder.tool_named(call_id)
    content = shown_json(response["response"]) if response.get("response") is not None else ""
    return "tool", content, tool, None, "commentary", False, None, False, call_id, "end"
