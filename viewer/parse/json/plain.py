"""Plain OpenAI chat messages, the bulk of big JSON transcripts and of datasets, read without the general
machinery.

An element whose keys are all `PLAIN_KEYS`, each of the type OpenAI writes (a known `role`; `content` text or
null; `reasoning_content` and `name` text; `tool_call_id` text; `tool_calls` a list of
`{id, function: {name, arguments}}`), gives here exactly the messages the general reader (elements.py) gives it,
about ten times faster: no JsonObject, no pieces, no `Message(**fields)`, and the positions of its members read
only when it gives several messages (`member_spans`, one pass over the element's text). Anything else (another
key, another type, `<think>` in an answer, anything the general reader would report) is left to the general
reader. tests/parse/json/test_plain.py reads generated elements both ways and compares.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from viewer.model import ROLES, Message, Span
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.json.drafts import hidden_role
from viewer.parse.json.positions import SCAN  # the text was decoded already: SCAN never fails here
from viewer.parse.json.think import CLOSE, OPEN
from viewer.parse.patterns import always_matching

PLAIN_KEYS = frozenset(("role", "content", "reasoning_content", "tool_calls", "tool_call_id", "name", "thinking",
                        "tool_name"))
"""OpenAI's keys, and Ollama's `thinking` (reasoning) and `tool_name` (the tool a reply comes from)."""
_ROLES = frozenset(ROLES)
_BLANKS = r"[ \t\n\r]*"
_BLANK = always_matching(_BLANKS)
# A member's key, its colon and, when it is text or a constant, its value (a list or object is left to the
# decoder); then (group 2) what may follow a value, so that one match reads a whole member of text. The text was
# decoded already, so it is JSON: a number ends at the first character that cannot continue it, and a comma is
# optional only where the decoder saw none.
_MEMBER = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"[ \t\n\r]*:[ \t\n\r]*'
                     r'(?:"[^"\\]*(?:\\.[^"\\]*)*"|null|true|false|-?[0-9][0-9.eE+-]*)?'
                     r'([ \t\n\r]*,?[ \t\n\r]*)', re.DOTALL)
_AFTER = always_matching(r"[ \t\n\r]*,?[ \t\n\r]*")
_UNREAD = object()

# A message before its index and span: `Message`'s role, content, name, recipient, channel, channel_explicit,
# content_type, constrained, call_id and end; and where its span comes from when the element gives several (a
# member's key, or the number of a `tool_calls` item).
Draft = tuple[tuple, Any]
_TEXT = frozenset((str, type(None)))
"""The types of a value that is text or null."""


def read_plain(value: dict[str, Any], span: Span, text: str, builder: Any, turn: int,
               located: Callable[[], "dict[Any, Span] | None"] | None = None) -> bool:
    """Add the messages of a plain element to the importer; False (nothing added) when it is not plain. When
    `value` is the plain view of a framework's element, `located` gives the spans of its members under the plain
    message's names (member_spans gives those of an element as written)."""
    drafts = _drafts(value, builder)
    if drafts is None:
        return False
    spans = None
    if len(drafts) > 1 and (spans := member_spans(text, span[0], value) if located is None else located()) is None:
        return False
    messages = builder.messages
    for (role, content, name, recipient, channel, explicit, content_type, constrained, call_id, end), where in drafts:
        at = span if spans is None else spans[where]
        messages.append(Message(len(messages), turn, role, content, at[0], at[1], name, recipient, channel, explicit,
                                content_type, constrained, None, call_id, end))
        if end == "call":
            builder.note_call(call_id, recipient)
    return True


def _drafts(value: dict[str, Any], builder: Any) -> list[Draft] | None:
    """The element's messages in the general reader's order (reasoning, content, calls), or None."""
    if not PLAIN_KEYS.issuperset(value):
        return None
    get = value.get
    role, name, content, reasoning = get("role"), get("name"), get("content"), get("reasoning_content")
    tool_name = get("tool_name")
    reasoning_key = "reasoning_content"
    if "thinking" in value:
        if reasoning is not None:
            return None  # two reasoning keys: the general way, which shows each distinct text once
        reasoning, reasoning_key = get("thinking"), "thinking"
    calls, call_id = get("tool_calls"), get("tool_call_id")
    if (type(role) is not str or role not in _ROLES or type(name) not in _TEXT or type(content) not in _TEXT
            or type(reasoning) not in _TEXT or type(call_id) not in _TEXT or type(tool_name) not in _TEXT
            or calls is not None and type(calls) is not list):
        return None
    if content and role == "assistant" and (OPEN in content or CLOSE in content):
        return None  # reasoning left in the answer: think.py splits it, the general way
    drafts: list[Draft] = []
    if reasoning:
        drafts.append(((hidden_role(role), reasoning, None, None, "analysis", True, None, False, None, "end"),
                       reasoning_key))
    call_id = call_id or None
    if role == "tool":
        name = name or tool_name
        name = qualified_tool_name(name) if name else builder.tool_named(call_id)
    said = (role, content or "", name, None, "commentary" if role == "tool" else "final", False, None, False,
            call_id, "end")
    if content:
        drafts.append((said, "content"))
    if calls:
        for number, call in enumerate(calls):
            if (fields := _call(role, call)) is None:
                return None
            drafts.append((fields, number))
    if not drafts:
        if content is None:
            return None  # W-JSON-MISSING-CONTENT: the general way
        drafts.append((said, "content"))  # empty content is a message when there is nothing else
    return drafts


def _call(role: str, call: Any) -> tuple | None:
    """A `tool_calls` item's message, as calls.py makes it; None when that would report anything."""
    if type(call) is not dict or type(function := call.get("function")) is not dict:
        return None
    name, arguments, id = function.get("name"), function.get("arguments"), call.get("id")
    call_id = id if id else call.get("call_id")
    if type(name) is not str or not name or type(id) not in _TEXT or type(call_id) not in _TEXT:
        return None
    if arguments is None:
        arguments = ""
    elif isinstance(arguments, (dict, list)):
        arguments = shown_json(arguments)
    elif type(arguments) is not str:
        return None
    return role, arguments, None, qualified_tool_name(name), "commentary", True, "json", True, call_id, "call"


def member_spans(text: str, start: int, value: dict[str, Any],
                 listed: str | None = "tool_calls") -> dict[Any, Span] | None:
    """The span of each member of the object at `start` whose decoded value is `value` (from its key's opening
    quote to its value's end, as positions.read_value gives it), and of each item of its `listed` list
    (under the item's number). None when the text is not the plain form read here: a key written with escapes
    (its text is then longer than the key), or written twice (then `value` has fewer keys than the text)."""
    if listed not in value and len(value) <= _FLAT_MEMBERS and (spans := _flat_spans(text, start, value)) is not None:
        return spans
    spans = {}
    return spans if walk_object(text, start, value, spans, listed) is not None else None


_VALUE = r'(?:"[^"\\]*(?:\\.[^"\\]*)*"|null|true|false|-?[0-9][0-9.eE+-]*)'
_FLAT_MEMBER = rf'("([^"\\]*)"{_BLANKS}:{_BLANKS}{_VALUE})'
_FLAT_MEMBERS = 4
_FLAT = re.compile(r"\{%s%s(?:%s,%s%s(?:%s,%s%s(?:%s,%s%s)?)?)?%s\}" % (
    _BLANKS, _FLAT_MEMBER, *(_BLANKS, _BLANKS, _FLAT_MEMBER) * 3, _BLANKS))
"""An object of up to four members whose values are text or constants (a message of text and reasoning), each
member (from its key's quote to its value's end) and its key (written without escapes) a group."""


def _flat_spans(text: str, start: int, value: dict[str, Any]) -> dict[Any, Span] | None:
    """member_spans of an object of text and constants, in one match rather than a walk member by member (a fifth
    less time); None when the object at `start` is not such an object with the keys of `value` in their order
    (then the walk decides)."""
    found = _FLAT.match(text, start)
    if found is None:
        return None
    spans, group = {}, 1
    for key in value:
        if found[group + 1] != key:
            return None
        spans[key] = found.span(group)
        group += 2
    return spans if group > 2 * _FLAT_MEMBERS or found[group] is None else None


Walker = Callable[[str, int, Any], "int | None"]
"""Walks the object or list at an offset whose decoded value it is given; returns where it ends (None: the text
is not the plain form member_spans reads)."""


def walk_object(text: str, start: int, value: dict[str, Any], spans: dict[Any, Span], listed: str | None = None,
                inner: dict[str, Walker] | None = None) -> int | None:
    """member_spans' walk of the object at `start`, its spans into `spans`; a member named in `inner` whose value
    is an object or a list is walked by its walker (so that a record's nested message is found in one pass,
    each value decoded once). Returns where the object ends, or None."""
    member, after = _MEMBER.match, _AFTER.match
    at = after(text, start + 1).end()
    for key, item in value.items():
        found = member(text, at)
        if found is None or found[1] != key:
            return None
        end: int | None
        if type(item) is list and key == listed:
            end = _items(text, found.start(2), spans)
        elif type(item) is dict or type(item) is list:
            walker = inner.get(key) if inner else None
            end = SCAN(text, found.start(2))[1] if walker is None else walker(text, found.start(2), item)
            if end is None:
                return None
        else:  # text or a constant: the match holds the value and what follows it
            spans[key] = (at, found.start(2))
            at = found.end()
            continue
        spans[key] = (at, end)
        at = after(text, end).end()
    return at + 1 if text.startswith("}", at) else None


def walk_items(text: str, bracket: int, items: list[Any], walker: Walker) -> int | None:
    """The list at `bracket` whose decoded value is `items`, each item walked by `walker`; where it ends, or None."""
    after = _AFTER.match
    at = _BLANK.match(text, bracket + 1).end()
    for item in items:
        end = walker(text, at, item)
        if end is None:
            return None
        at = after(text, end).end()
    return at + 1 if text.startswith("]", at) else None


def key_pattern(key: str) -> re.Pattern[str]:
    """Finds every member whose key is `key` (of letters, digits and `_`), however its characters are written
    (as themselves or as `\\u` escapes), at any depth; the match ends where the value starts. In JSON that was
    decoded (so is valid) only a key can match: a quote inside a string is escaped, and what stands outside
    strings has no backslash."""
    def spelled(character: str) -> str:
        escape = "".join(f"[{digit.lower()}{digit.upper()}]" if digit.isalpha() else digit
                         for digit in f"{ord(character):04x}")
        return f"(?:{character}|\\\\u{escape})"
    if not key.replace("_", "").isalnum() or not key.isascii():
        raise ValueError(f"not a plain key: {key!r}")
    # The quote first, then the look behind it (a quote with no backslash before it): a pattern that starts with
    # a quote is searched for far faster (1.2 us rather than 5.5 in a batch line).
    return re.compile(rf'"(?<!\\"){"".join(map(spelled, key))}"[ \t\n\r]*:[ \t\n\r]*')


def recorded(spans: list[Span]) -> Walker:
    """A walker that appends the span of the value it is given to `spans` (a message found inside a record)."""
    def record(text: str, at: int, _: Any) -> int:
        end = SCAN(text, at)[1]
        spans.append((at, end))
        return end
    return record


def items_recorded(spans: list[Span]) -> Walker:
    """A walker of a list that appends the span of each of its items to `spans`."""
    item = recorded(spans)
    return lambda text, at, items: walk_items(text, at, items, item)


def _items(text: str, bracket: int, spans: dict[Any, Span]) -> int:
    """Record the span of each item of the list at `bracket` under its number; return where the list ends."""
    after = _AFTER.match
    at = _BLANK.match(text, bracket + 1).end()
    number = 0
    while not text.startswith("]", at):
        end = SCAN(text, at)[1]
        spans[number] = (at, end)
        number += 1
        at = after(text, end).end()
    return at + 1


__all__ = ["Message", "PLAIN_KEYS", "Walker", "items_recorded", "key_pattern", "member_spans", "read_plain", "recorded",
           "walk_items", "walk_object"]
