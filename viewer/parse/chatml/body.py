"""A ChatML body cut into pieces: plain text, each body token with what belongs to it (a thought block's text,
the JSON after a function token), and each template tag block (tags.py). Declared tools are recorded on the
way."""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Span
from viewer.parse.chatml.marks import next_body_token
from viewer.parse.chatml.scanning import DECODER, SPACE, UNREADABLE, Stretch, call_target, declare, json_values
from viewer.parse.chatml.tags import LookAhead, declare_tool_blocks, reasoning_opened_in_prompt, tag_finder, tag_piece
from viewer.parse.common import Pending, trim_newline

THOUGHTS = ("reflect", "introspect", "reason")
FIM_KINDS = ("fim_prefix", "fim_middle", "fim_suffix")
FILE_SEPARATOR = "file_separator"
__all__ = ["FILE_SEPARATOR", "FIM_KINDS", "THOUGHTS", "scan_body"]


def scan_body(text: str, start: int, end: int, role: str, tools: dict[str, Any], *,
              read_tags: bool = True) -> tuple[list[Stretch], list[Pending]]:
    """Cut a body into text, token and tag pieces; record declared tools. `read_tags` False leaves template
    tags as text (a document between envelopes is one user message, whatever it holds)."""
    pieces: list[Stretch] = []
    notes: list[Pending] = []
    position = text_from = _template_prelude(text, start, end, role if read_tags else "", tools, pieces, notes)
    tags = tag_finder(text, end, role if read_tags else "")
    tokens = LookAhead(lambda at: next_body_token(text, at, end))
    while True:
        match, tag = tokens.next(position), tags.next(position)
        if tag is not None and (match is None or tag.start() < match.start()):
            made, position = tag_piece(text, tag, text_from, start, end, role, notes)
            if made:
                _add(pieces, text, text_from, made[0])
                pieces.extend(made[1:])
                text_from = position
            continue
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
        piece = _token_piece(text, name, match, end, tools, notes)
        _add(pieces, text, text_from, piece)
        position = text_from = piece.span[1]
    if end > text_from:
        pieces.append(_text_piece(text, text_from, end))
    return pieces, notes


def _template_prelude(text: str, start: int, end: int, role: str, tools: dict[str, Any], pieces: list[Stretch],
                      notes: list[Pending]) -> int:
    """What a template's tags say about a whole body before it is cut: a system prompt's `<tools>`, and an
    assistant body that starts inside reasoning opened in the prompt. Returns where cutting starts."""
    if role == "system":
        declare_tool_blocks(text, start, end, tools, notes)
    if role != "assistant":
        return start
    reasoning, position = reasoning_opened_in_prompt(text, start, end, notes)
    pieces.extend(reasoning)
    return position


def _add(pieces: list[Stretch], text: str, text_from: int, piece: Stretch) -> None:
    """Add a token or tag piece, after the text since the last piece."""
    if piece.span[0] > text_from:
        pieces.append(_text_piece(text, text_from, piece.span[0]))
    pieces.append(piece)


def _text_piece(text: str, start: int, end: int) -> Stretch:
    chunk = text[start:end]
    return Stretch("text", (start, end), content=chunk, shown=chunk)


def _token_piece(text: str, name: str, match: re.Match[str], end: int, tools: dict[str, Any],
                 notes: list[Pending]) -> Stretch:
    if name in THOUGHTS:
        return Stretch("flag", match.span(), shown=name)
    if name.startswith("start_"):
        return _thought_block(text, name[len("start_"):], match, end, notes)
    if name == "function_list":
        return _function_list(text, match, end, tools, notes)
    if name in ("function_call", "function_output"):
        return _function_piece(text, name, match, end, notes)
    return Stretch(name, match.span())


def _function_piece(text: str, name: str, match: re.Match[str], end: int, notes: list[Pending]) -> Stretch:
    """A function call or output: the token and the JSON after it."""
    value, (json_start, json_end) = _json_after(text, match.end(), end)
    if value is UNREADABLE and name == "function_output":
        notes.append(Pending("W-JSON-SYNTAX", "The text after <|function_output|> is not readable JSON.",
                             (match.start(), json_end)))
    if name == "function_call" and call_target(value)[1] is UNREADABLE:
        notes.append(Pending("E-CALL-SCHEMA", _call_problem(value), (match.start(), json_end)))
    raw = text[json_start:json_end]
    return Stretch(name, (match.start(), json_end), content=raw, shown=raw, value=value)


def _thought_block(text: str, kind: str, match: re.Match[str], end: int, notes: list[Pending]) -> Stretch:
    closer = f"<|end_{kind}|>"
    close = text.find(closer, match.end(), end)
    if close == -1:
        notes.append(Pending("W-UNCLOSED-BLOCK", f"The {kind} block has no {closer}; it runs to the end of the "
                                                 "message.", (match.start(), end)))
        inner, block_end = text[match.end():end], end
    else:
        inner, block_end = text[match.end():close], close + len(closer)
    inner = trim_newline(inner, lead=True, tail=True)
    return Stretch(kind, (match.start(), block_end), content=inner, shown=inner)


def _json_text_after(text: str, start: int, end: int) -> tuple[int, str]:
    """Where the JSON after a token starts, and the text up to the next body token (a value whose strings hold
    a token is unreadable: that keeps reading linear)."""
    at = SPACE.match(text, start, end).end()
    following = next_body_token(text, at, end)
    return at, text[at:following.start() if following else end]


def _json_after(text: str, start: int, end: int) -> tuple[Any, Span]:
    """The JSON value written after a token (or UNREADABLE) and the span of its text."""
    at, chunk = _json_text_after(text, start, end)
    try:
        value, stop = DECODER.raw_decode(chunk)
    except (ValueError, RecursionError):
        return UNREADABLE, (at, at + len(chunk.rstrip()))
    return value, (at, at + stop)


def _function_list(text: str, match: re.Match[str], end: int, tools: dict[str, Any],
                   notes: list[Pending]) -> Stretch:
    at, chunk = _json_text_after(text, match.end(), end)
    values, stop, failed = json_values(chunk)
    span = (match.start(), at + stop)
    if failed or not values:
        notes.append(Pending("W-JSON-SYNTAX", "The tool definitions after <|function_list|> are not readable JSON.",
                             span))
    for value in values:
        for definition in value if isinstance(value, list) else [value]:
            declare(definition, tools, notes, span, "after <|function_list|>")
    raw = text[match.end():at + stop]
    return Stretch("function_list", span, content=raw, shown=raw.strip(), value=values)


def _call_problem(call: Any) -> str:
    if call is UNREADABLE:
        return "The function call after <|function_call|> is not readable JSON."
    return ("The function call needs a string \"name\" and an object \"arguments\" "
            "(the spec's FunctionCall schema).")
