"""A ChatML body cut into pieces: plain text, and each body token with what belongs to it (a thought block's
text, the JSON after a function token). Declared tools are recorded on the way."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from viewer.model import Span
from viewer.parse.chatml.marks import next_body_token
from viewer.parse.common import Pending, qualified_tool_name, trim_newline

THOUGHTS = ("reflect", "introspect", "reason")
FIM_KINDS = ("fim_prefix", "fim_middle", "fim_suffix")
FILE_SEPARATOR = "file_separator"
UNREADABLE = object()
"""The value of a function token whose JSON could not be read, or of a call without a name and arguments."""
_SPACE = re.compile(r"\s*")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Piece:
    """One stretch of a body: plain text, or a token with what belongs to it."""

    kind: str
    span: Span
    content: str = ""
    """What the piece adds to its message's content."""
    shown: str = ""
    """The text of its segment."""
    value: Any = None
    """The JSON read after a function token, or UNREADABLE."""


def scan_body(text: str, start: int, end: int, role: str, tools: dict[str, Any]) -> tuple[list[Piece], list[Pending]]:
    """Cut a body into text and token pieces; record declared tools."""
    pieces: list[Piece] = []
    notes: list[Pending] = []
    position = text_from = start
    while True:
        match = next_body_token(text, position, end)
        if match is None:
            break
        name = match.group()[2:-2]
        position = match.end()
        if name.startswith("end_"):
            notes.append(Pending("W-UNMATCHED-TOKEN",
                                 f"{match.group()} closes no open <|start_{name[4:]}|> block; it is kept as text.",
                                 match.span()))
            continue
        if (name == "function_call" and role != "assistant") or (name == "function_output" and role != "tool"):
            continue
        if match.start() > text_from:
            pieces.append(_text_piece(text, text_from, match.start()))
        piece = _token_piece(text, name, match, end, tools, notes)
        pieces.append(piece)
        position = text_from = piece.span[1]
    if end > text_from:
        pieces.append(_text_piece(text, text_from, end))
    return pieces, notes


def _text_piece(text: str, start: int, end: int) -> Piece:
    chunk = text[start:end]
    return Piece("text", (start, end), content=chunk, shown=chunk)


def _token_piece(text: str, name: str, match: re.Match[str], end: int, tools: dict[str, Any],
                 notes: list[Pending]) -> Piece:
    if name in THOUGHTS:
        return Piece("flag", match.span(), shown=name)
    if name.startswith("start_"):
        return _thought_block(text, name[len("start_"):], match, end, notes)
    if name == "function_list":
        return _function_list(text, match, end, tools, notes)
    if name in ("function_call", "function_output"):
        return _function_piece(text, name, match, end, notes)
    return Piece(name, match.span())


def _function_piece(text: str, name: str, match: re.Match[str], end: int, notes: list[Pending]) -> Piece:
    """A function call or output: the token and the JSON after it."""
    value, (json_start, json_end) = _json_after(text, match.end(), end)
    if value is UNREADABLE and name == "function_output":
        notes.append(Pending("W-JSON-SYNTAX", "The text after <|function_output|> is not readable JSON.",
                             (match.start(), json_end)))
    if name == "function_call" and call_target(value)[1] is UNREADABLE:
        notes.append(Pending("E-CALL-SCHEMA", _call_problem(value), (match.start(), json_end)))
    raw = text[json_start:json_end]
    return Piece(name, (match.start(), json_end), content=raw, shown=raw, value=value)


def _thought_block(text: str, kind: str, match: re.Match[str], end: int, notes: list[Pending]) -> Piece:
    closer = f"<|end_{kind}|>"
    close = text.find(closer, match.end(), end)
    if close == -1:
        notes.append(Pending("W-UNCLOSED-BLOCK", f"The {kind} block has no {closer}; it runs to the end of the "
                                                 "message.", (match.start(), end)))
        inner, block_end = text[match.end():end], end
    else:
        inner, block_end = text[match.end():close], close + len(closer)
    inner = trim_newline(inner, lead=True, tail=True)
    return Piece(kind, (match.start(), block_end), content=inner, shown=inner)


def _json_text_after(text: str, start: int, end: int) -> tuple[int, str]:
    """Where the JSON after a token starts, and the text up to the next body token (a value whose strings hold
    a token is unreadable: that keeps reading linear)."""
    at = _SPACE.match(text, start, end).end()
    following = next_body_token(text, at, end)
    return at, text[at:following.start() if following else end]


def _json_after(text: str, start: int, end: int) -> tuple[Any, Span]:
    """The JSON value written after a token (or UNREADABLE) and the span of its text."""
    at, chunk = _json_text_after(text, start, end)
    try:
        value, stop = _DECODER.raw_decode(chunk)
    except (ValueError, RecursionError):
        return UNREADABLE, (at, at + len(chunk.rstrip()))
    return value, (at, at + stop)


def _function_list(text: str, match: re.Match[str], end: int, tools: dict[str, Any],
                   notes: list[Pending]) -> Piece:
    at, chunk = _json_text_after(text, match.end(), end)
    values, stop, failed = _json_values(chunk)
    span = (match.start(), at + stop)
    if failed or not values:
        notes.append(Pending("W-JSON-SYNTAX", "The tool definitions after <|function_list|> are not readable JSON.",
                             span))
    for value in values:
        for definition in value if isinstance(value, list) else [value]:
            _declare(definition, tools, notes, span)
    raw = text[match.end():at + stop]
    return Piece("function_list", span, content=raw, shown=raw.strip(), value=values)


def _json_values(chunk: str) -> tuple[list[Any], int, bool]:
    """The JSON objects and lists at the start of `chunk`, one after another; where reading stopped; and
    whether it stopped at unreadable JSON."""
    values: list[Any] = []
    position = stop = 0
    # Each round reads one value and moves past it, so the loop ends.
    while position < len(chunk) and chunk[position] in "{[":
        try:
            value, stop = _DECODER.raw_decode(chunk, position)
        except (ValueError, RecursionError):
            return values, len(chunk.rstrip()), True
        values.append(value)
        position = _SPACE.match(chunk, stop).end()
    return values, stop, False


def _declare(definition: Any, tools: dict[str, Any], notes: list[Pending], span: Span) -> None:
    """Record one tool definition's parameter schema under the tool's address (`functions.<name>`)."""
    function = definition.get("function", definition) if isinstance(definition, dict) else None
    name = function.get("name") if isinstance(function, dict) else None
    if not isinstance(name, str) or not name:
        notes.append(Pending("W-TOOL-DEFINITION", "A tool definition after <|function_list|> has no function name.",
                             span))
        return
    parameters = function.get("parameters")
    if isinstance(parameters, dict):
        tools[qualified_tool_name(name)] = parameters


def _call_problem(call: Any) -> str:
    if call is UNREADABLE:
        return "The function call after <|function_call|> is not readable JSON."
    return ("The function call needs a string \"name\" and an object \"arguments\" "
            "(the spec's FunctionCall schema).")


def call_target(call: Any) -> tuple[str | None, Any]:
    """The address of the tool a well-formed call goes to, and its arguments; else (None, UNREADABLE)."""
    if not isinstance(call, dict):
        return None, UNREADABLE
    name, arguments = call.get("name"), call.get("arguments")
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return None, UNREADABLE
    return qualified_tool_name(name), arguments
