"""The container of a JSON transcript: a list of messages or items, an envelope whose list member holds them
(`{"messages": […], …}`, a Responses API request's `input` or response's `output`, ShareGPT's `conversations`),
a single message object, JSON Lines, or server-sent events (`data: {…}` lines, as streaming APIs answer); which
one the text is; and what of it was not read."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from viewer.model import Diagnostic, LineIndex, Span, make_diagnostic
from viewer.model.lines import line_spans
from viewer.parse.json import shapes
from viewer.parse.json.positions import JsonError, Node, Partial, read_value, skip_blank
from viewer.parse.json.unpacked import ITEM_LISTS, LIST_KEYS, Unpacked, is_element, list_key

_NOT_BLANK = re.compile(r"\S")


def read_container(text: str) -> Unpacked:
    """Read the text as the container it looks like; when it could be either a document or JSON Lines, as the
    one that reads more of it. The chunks of a streamed answer are one element per answer (shapes.streamed)."""
    return shapes.streamed(_read_container(text))


def _read_container(text: str) -> Unpacked:
    start = skip_blank(text, 0)
    if start == len(text):
        return Unpacked([])
    if text.startswith("[", start):
        return _read_document(text, start)
    if is_event_stream(text, start):
        return _read_events(text)
    if not text.startswith("{", start):
        return _read_lines(text)
    if _has_more_lines(text, start) and _first_line_is_whole(text, start):
        return _read_lines(text)
    # One line (a whole document, unless it is broken), a pretty-printed document, or JSON Lines whose first line
    # is broken: keep the reading that leaves less of the text unread. (A whole line reads as a document with
    # nothing unread; asking first whether it is whole read a one-line document twice.)
    document = _read_document(text, start)
    if not document.unread:
        return document
    # Pretty-printed objects one after another (OpenTelemetry's console exporter writes spans so) read as a
    # sequence of documents; the reading that leaves least unread wins, the document's on a tie.
    readings = (document, _read_lines(text), _read_sequence(text, start))
    return min(readings, key=lambda reading: reading.unread_size)


def _first_line_is_whole(text: str, start: int) -> bool:
    end = text.find("\n", start)
    line = text[start:] if end == -1 else text[start:end]
    try:
        node = read_value(line, 0, 0)
    except JsonError:
        return False
    return not line[node.span[1]:].strip()


def _has_more_lines(text: str, start: int) -> bool:
    end = text.find("\n", start)
    return end != -1 and _NOT_BLANK.search(text, end) is not None


def _read_document(text: str, start: int) -> Unpacked:
    depth = 1 if text[start] == "[" else 2
    partial = Partial(LIST_KEYS)
    try:
        top = read_value(text, start, depth, into=partial)
    except JsonError as error:
        return _partial_reading(text, start, partial, error)
    unread = []
    if text[top.span[1]:].strip():
        unread.append(_syntax_diagnostic(text, (skip_blank(text, top.span[1]), len(text.rstrip())),
                                         "Extra text follows the JSON document; it was not read."))
    reading = conversation_of(top, text)
    reading.unread.extend(unread)
    return reading


def conversation_of(node: Node, text: str) -> Unpacked:
    """One conversation's node (read with spans two levels down, see positions.read_value) as its elements and
    envelope: a list's items, the array of the envelope's list member, a record's parts (shapes.record), or the
    object itself as one element. A list holding one whole conversation (a dataset trimmed to one record) is
    that conversation."""
    if isinstance(node.value, list):
        if len(node.items) == 1 and shapes.is_conversation(node.items[0].value):
            return conversation_of(read_value(text, node.items[0].span[0], 2), text)
        return Unpacked(list(node.items))
    record = shapes.record(node, text, conversation_of) if isinstance(node.value, dict) else None
    if record is not None:
        return record
    key = list_key(node.value) if isinstance(node.value, dict) else None
    if key is None and isinstance(node.value, dict) and _is_text_request(node.value):
        return Unpacked([], dict(node.members))
    if key is None:
        return Unpacked([node])
    envelope = {name: member for name, member in node.members.items() if name != key}
    return Unpacked(list(node.members[key].node.items), envelope, key=key)


def _is_text_request(value: dict) -> bool:
    """A Responses API request whose `input` is the user's text: an envelope with no list, all prompts."""
    return isinstance(value.get("input"), str) and not is_element(value)


def _partial_reading(text: str, start: int, partial: Partial, error: JsonError) -> Unpacked:
    """A document that breaks off: the elements read so far and the envelope members finished before the error
    are kept, the rest is one W-JSON-SYNTAX diagnostic."""
    members = partial.members
    if partial.key is None and not partial.items or partial.key in ITEM_LISTS and is_element(members):
        # A single object that breaks off is not read at all: nothing of it was made into messages.
        return Unpacked([], unread=[_syntax_to_end(text, start, error)])
    ends = [member.span[1] for member in members.values()] + [node.span[1] for node in partial.items[-1:]]
    envelope = {key: member for key, member in members.items() if key != partial.key}
    return Unpacked(partial.items, envelope, [_syntax_to_end(text, max(ends, default=start), error)], partial.key)


def _syntax_to_end(text: str, resume: int, error: JsonError) -> Diagnostic:
    line, column = LineIndex(text).position(error.position)
    return _syntax_diagnostic(
        text, (skip_blank(text, resume), len(text.rstrip())),
        f"Invalid JSON at line {line}, column {column}: {_reason(error)}; the rest of the input was not read.")


def _syntax_diagnostic(text: str, span: Span, message: str) -> Diagnostic:
    start, end = span
    return make_diagnostic("W-JSON-SYNTAX", (min(start, end), end), message)


def _read_sequence(text: str, start: int) -> Unpacked:
    """JSON values one after another, each an element; reading stops at the first that is not JSON."""
    elements: list[Node] = []
    position = start
    while position < len(text):
        try:
            node = read_value(text, position, 0)
        except JsonError as error:
            return Unpacked(elements, unread=[_syntax_to_end(text, position, error)])
        elements.append(node)
        position = skip_blank(text, node.span[1])
    return Unpacked(elements)


def _read_lines(text: str) -> Unpacked:
    elements: list[Node] = []
    unread: list[Diagnostic] = []
    bad: list[tuple[int, int, int, JsonError]] = []
    for number, start, end in line_spans(text):
        line = text[start:end]
        try:
            node = read_value(line, 0, 0, base=start)
            if node.span[1] != end:
                raise JsonError("extra text after the value", node.span[1] - start)
        except JsonError as error:
            bad.append((number, start, end, error))
            continue
        if bad:
            unread.append(_bad_lines(bad))
            bad = []
        elements.append(node)
    if bad:
        unread.append(_bad_lines(bad))
    return Unpacked(elements, unread=unread)


SSE_FIELD = re.compile(r"(?:data|event|id|retry)(?::|$)|:")
"""A line of server-sent events: a field (`data: …`, `event: …`, `id`, `retry`) or a comment (`: …`)."""
SSE_DATA = re.compile(r"data:[ \t]*")
SSE_DONE = "[DONE]"
"""The data OpenAI-compatible servers send after the last chunk."""


def is_event_stream(text: str, start: int) -> bool:
    """Server-sent events: the text starts with a field of one (`data:`, `event:`, `id:`, `retry:`), or a
    comment."""
    return SSE_FIELD.match(text, start) is not None


def _read_events(text: str) -> Unpacked:
    """Each `data:` line's JSON as an element (its span the JSON's); the other fields, comments and `[DONE]` are
    the stream's frame; a line that is no field, or data that is not JSON, is W-JSON-SYNTAX. (Data written over
    several lines is not used by the APIs whose streams are read here: each line is read on its own.)"""
    elements: list[Node] = []
    unread: list[Diagnostic] = []
    for number, start, end in line_spans(text):
        if not SSE_FIELD.match(text, start):
            unread.append(make_diagnostic("W-JSON-SYNTAX", (start, end), f"Line {number} is not a field of a "
                                          "server-sent event stream; it was skipped."))
            continue
        found = SSE_DATA.match(text, start)
        at = min(found.end(), end) if found is not None else end  # the line ends before blanks after `data:`
        if at == end or text.startswith(SSE_DONE, at) and at + len(SSE_DONE) == end:
            continue  # another field, a comment, empty data, the end of the stream: frame
        try:
            node = read_value(text[at:end], 0, 0, base=at)
            if node.span[1] != end:
                raise JsonError("extra text after the value", node.span[1] - at)
        except JsonError as error:
            unread.append(_bad_lines([(number, at, end, error)]))
            continue
        elements.append(node)
    return Unpacked(elements, unread=unread)


def _bad_lines(run: list[tuple[int, int, int, JsonError]]) -> Diagnostic:
    """One diagnostic for a run of consecutive bad lines, so a text that is not JSON Lines at all stays short."""
    first, start, _, error = run[0]
    last, _, end, _ = run[-1]
    where = f"{_reason(error)} at column {error.position + 1}"
    if first == last:
        message = f"Line {first} is not valid JSON: {where}; it was skipped."
    else:
        message = f"Lines {first}–{last} are not valid JSON (line {first}: {where}); they were skipped."
    return make_diagnostic("W-JSON-SYNTAX", (start, end), message)


def _reason(error: JsonError) -> str:
    """Python's wording without its dangling "at" ("Unterminated string starting at")."""
    return error.reason.removesuffix(" starting at").removesuffix(" at")
