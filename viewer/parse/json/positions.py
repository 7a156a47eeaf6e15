"""Read JSON while keeping the character span of each value, down to a chosen depth.

Python's `json` module gives values but no positions. Here the outer levels (the message list, each message
object, its `tool_calls` array) are walked by hand, and every value below `depth` is handed whole to the C
decoder (`raw_decode`), so the cost stays close to `json.loads` while spans come out for the parts a
transcript needs. Errors of every kind (syntax, nesting too deep, integers too long) surface as one
`JsonError` with the position where reading stopped; nothing else escapes.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, NamedTuple

from viewer.model import Span
from viewer.parse.patterns import always_matching

_DECODER = json.JSONDecoder()
# The C functions behind `raw_decode`, called without its Python frame: internals of `json` that typeshed does not
# declare, so they are typed here (at run time they are the functions `raw_decode` itself calls).
SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
"""The value that starts at an offset, and where it ends; StopIteration when none starts there."""
_SCANSTRING: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_BLANK = always_matching(r"[ \t\n\r]*")
_BLANK_CHARS = (" ", "\t", "\n", "\r")
_AFTER_ITEM = always_matching(r"[ \t\n\r]*(,?)[ \t\n\r]*")
_PLAIN_KEY = re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*')
"""A key without escapes or control characters (which the decoder refuses in strict mode), and its colon."""
_AFTER_MEMBER = re.compile(r"[ \t\n\r]*(?:,[ \t\n\r]*|(\}))")
"""What follows a member's value: a comma and the blanks after it, or the object's closing brace (group 1)."""
_OPENERS = ("{", "[")


class JsonError(Exception):
    """Reading stopped at `position` (an offset into the text that was read) for `reason`."""

    def __init__(self, reason: str, position: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.position = position


# Named tuples rather than frozen dataclasses: a big transcript makes one per message, and a tuple is made in a
# quarter of the time.
class Member(NamedTuple):
    """One `"key": value` pair of an object read with positions."""

    node: Node
    """The value."""
    span: Span
    """From the key's opening quote to the value's end."""


class Node(NamedTuple):
    """A decoded JSON value and where it stands in the source."""

    value: Any
    """The value as `json.loads` would give it."""
    span: Span
    """`[start, end)` of the value in the source."""
    members: Mapping[str, Member] = MappingProxyType({})
    """For an object read with positions: each key's member (empty when read whole)."""
    items: tuple[Node, ...] = ()
    """For an array read with positions: each item (empty when read whole)."""


_NO_MEMBERS = Node._field_defaults["members"]
_new_tuple = tuple.__new__
"""Node(value, span) without the Python frame of a named tuple's `__new__`: one per message of a long list."""


def skip_blank(text: str, at: int) -> int:
    """The first offset at or after `at` that is not JSON whitespace."""
    if text[at:at + 1] not in _BLANK_CHARS:
        return at
    return _BLANK.match(text, at).end()


@dataclass(slots=True)
class Partial:
    """What a read of a whole document keeps as it goes, so that a caller still has it when a later part fails:
    the items of the top array, or of the first of `list_keys` whose value is an array, and the members of the
    top object finished so far."""

    list_keys: tuple[str, ...] = ()
    items: list[Node] = field(default_factory=list)
    key: str | None = None
    """The member whose array gave `items` (None: the top value is the array, or no listed member was read)."""
    members: dict[str, Member] = field(default_factory=dict)


def read_value(text: str, at: int, depth: int, base: int = 0, into: Partial | None = None) -> Node:
    """Read the value starting at `at` (no leading blanks). Objects and arrays less than `depth` levels down
    keep the spans of their members and items. Spans are offset by `base` (the text may be one line of a
    larger source); `JsonError.position` is not.

    `into` receives the items of the value's array, or of its first listed member's array, as each completes,
    and the value's members as each completes, so a caller keeps them when a later part fails."""
    if depth > 0 and at < len(text):
        opener = text[at]
        if opener == "{":
            return _read_object(text, at, depth, base, into)
        if opener == "[":
            return _read_array(text, at, depth, base, into.items if into is not None else None)
    value, end = _decoded(text, at)
    return Node(value, (base + at, base + end))


def _decoded(text: str, at: int) -> tuple[Any, int]:
    """The value at `at`, read whole by the C decoder, and where it ends."""
    try:
        return SCAN(text, at)  # `raw_decode` without its Python frame: one per message of a long list
    except StopIteration as stop:  # what `raw_decode` reports as "Expecting value"
        raise JsonError("Expecting value", stop.value) from None
    except json.JSONDecodeError as error:
        raise JsonError(error.msg, error.pos) from None
    except RecursionError:
        raise JsonError("values nest too deeply to read", at) from None
    except ValueError as error:  # e.g. an integer longer than Python's digit limit
        raise JsonError(str(error), at) from None


def _read_object(text: str, at: int, depth: int, base: int, into: Partial | None) -> Node:
    value: dict[str, Any] = {}
    members: dict[str, Member] = {}
    position = skip_blank(text, at + 1)
    if text.startswith("}", position):
        return Node(value, (base + at, base + position + 1), members)
    plain_key, after_member = _PLAIN_KEY.match, _AFTER_MEMBER.match
    while True:
        key_start = position
        # Most keys have no escapes: one match reads the key, its colon and the blanks around it.
        found = plain_key(text, position)
        if found is not None:
            key, position = found[1], found.end()
        else:
            key, position = _read_key(text, position)
        if depth == 1 and into is None or text[position:position + 1] not in _OPENERS:
            decoded, end = _decoded(text, position)  # read whole: a leaf, or the deepest level read with spans
            node = Node(decoded, (base + position, base + end))
        else:
            node = read_value(text, position, depth - 1, base, _listed(into, key, text, position))
        value[key] = node.value
        members[key] = Member(node, (base + key_start, node.span[1]))
        if into is not None:
            into.members[key] = members[key]
        found = after_member(text, node.span[1] - base)
        if found is None:
            raise JsonError("Expecting ',' delimiter", skip_blank(text, node.span[1] - base))
        if found[1]:
            return Node(value, (base + at, base + found.end()), members)
        position = found.end()


def _listed(into: Partial | None, key: str, text: str, position: int) -> Partial | None:
    """The Partial that collects this member's items: the first listed member whose value is an array."""
    if into is None or into.key is not None or key not in into.list_keys or not text.startswith("[", position):
        return None
    into.key = key
    return Partial(items=into.items)


def _read_array(text: str, at: int, depth: int, base: int, into: list[Node] | None) -> Node:
    items: list[Node] = [] if into is None else into
    position = skip_blank(text, at + 1)
    if text.startswith("]", position):
        return Node([], (base + at, base + position + 1), items=())
    if depth == 1:
        return _read_items_whole(text, at, position, base, items)
    while True:
        node = read_value(text, position, depth - 1, base)
        items.append(node)
        position = skip_blank(text, node.span[1] - base)
        if text.startswith(",", position):
            position = skip_blank(text, position + 1)
        elif text.startswith("]", position):
            return Node([item.value for item in items], (base + at, base + position + 1), items=tuple(items))
        else:
            raise JsonError("Expecting ',' delimiter", position)


def _read_items_whole(text: str, at: int, position: int, base: int, items: list[Node]) -> Node:
    """`_read_array` for items read whole (a transcript's list of messages): the same, in one tight loop, since
    a long list is most of the reading."""
    scan, after, add = SCAN, _AFTER_ITEM.match, items.append
    try:  # the C decoder called directly, not through _decoded: a frame less per item
        while True:
            value, end = scan(text, position)
            add(_new_tuple(Node, (value, (base + position, base + end), _NO_MEMBERS, ())))  # Node(value, span)
            found = after(text, end)
            position = found.end()
            if found[1]:
                continue
            if text.startswith("]", position):
                return Node([item.value for item in items], (base + at, base + position + 1), items=tuple(items))
            raise JsonError("Expecting ',' delimiter", position)
    except (StopIteration, ValueError, RecursionError):
        _decoded(text, position)  # the same failure again, as the JsonError that _decoded makes of it
        raise


def _read_key(text: str, position: int) -> tuple[str, int]:
    """A key written with escapes (or not written well), its colon, and where its value starts."""
    if not text.startswith('"', position):
        raise JsonError("Expecting property name enclosed in double quotes", position)
    key, position = _read_string(text, position)
    position = skip_blank(text, position)
    if not text.startswith(":", position):
        raise JsonError("Expecting ':' delimiter", position)
    return key, skip_blank(text, position + 1)


def _read_string(text: str, quote: int) -> tuple[str, int]:
    try:
        return _SCANSTRING(text, quote + 1, True)
    except json.JSONDecodeError as error:
        raise JsonError(error.msg, error.pos) from None
