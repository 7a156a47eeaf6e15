"""What the body scanners share: a piece of a body, reading JSON after a token or inside a tag, tool calls and
tool definitions. (A module of its own so that body.py and tags.py can both use it without importing each
other.)"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from viewer.analysis.jsontext import loads
from viewer.model import Span
from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.patterns import always_matching

UNREADABLE = object()
"""The value of a function token or tag whose JSON could not be read, or of a call without a name and
arguments."""
SPACE = always_matching(r"\s*")
DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Stretch:
    """One stretch of a body: plain text, or a token or tag block with what belongs to it."""

    kind: str
    span: Span
    content: str = ""
    """What the piece adds to its message's content."""
    shown: str = ""
    """The text of its segment."""
    value: Any = None
    """The JSON read after a function token or inside a tool tag, or UNREADABLE."""


def json_values(chunk: str) -> tuple[list[Any], int, bool]:
    """The JSON objects and lists at the start of `chunk`, one after another; where reading stopped; and
    whether it stopped at unreadable JSON."""
    values: list[Any] = []
    position = stop = 0
    # Each round reads one value and moves past it, so the loop ends.
    while position < len(chunk) and chunk[position] in "{[":
        try:
            value, stop = DECODER.raw_decode(chunk, position)
        except (ValueError, RecursionError):
            return values, len(chunk.rstrip()), True
        values.append(value)
        position = SPACE.match(chunk, stop).end()
    return values, stop, False


def whole_json(text: str) -> Any:
    """The one JSON value `text` holds (blank edges allowed), or UNREADABLE when it holds anything else."""
    try:  # `json.loads` of the stripped text is `raw_decode` reading it to its end: msgspec reads it faster
        return loads(text.strip())
    except (ValueError, RecursionError):
        return UNREADABLE


def declare(definition: Any, tools: dict[str, Any], notes: list[Pending], span: Span, where: str) -> None:
    """Record one tool definition's parameter schema under the tool's address (`functions.<name>`); `where`
    names the place the definitions were written (`after <|function_list|>`) for the warning."""
    function = definition.get("function", definition) if isinstance(definition, dict) else None
    if not isinstance(function, dict):
        function = {}
    name = function.get("name")
    if not isinstance(name, str) or not name:
        notes.append(Pending("W-TOOL-DEFINITION", f"A tool definition {where} has no function name.", span))
        return
    parameters = function.get("parameters")
    if isinstance(parameters, dict):
        tools[qualified_tool_name(name)] = parameters


def call_target(call: Any) -> tuple[str | None, Any]:
    """The address of the tool a well-formed call goes to, and its arguments; else (None, UNREADABLE)."""
    if not isinstance(call, dict):
        return None, UNREADABLE
    name, arguments = call.get("name"), call.get("arguments")
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return None, UNREADABLE
    return qualified_tool_name(name), arguments
