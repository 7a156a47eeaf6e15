"""OpenAI Batch output lines read the fast way: a line that succeeded, whose Chat Completions response's choices
are plain messages (plain.py), straight into its conversation, exactly as the general reading (batches.py, then
completions.py and plain.py through the builder) makes it; any other line is left to that reading.

A batch output file is a dataset of short lines (one answer each), so what the general reading spends on every
record (reading the line with spans, again the response's body, a Reading, the framework checks) is most of its
time. Here the line is decoded once (by msgspec, as viewer/analysis/jsontext.py does), its shape checked on the decoded value, and the text walked once to find
each choice's message (plain.walk_object: the same spans positions.read_value gives).
tests/parse/json/test_batch_plain.py reads generated lines both ways and compares.
"""
from __future__ import annotations

import json
from typing import Any

import msgspec

from viewer.model import Span, Transcript
from viewer.parse.json import batches, completions, langchain, preference
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.container import frame
from viewer.parse.json.conversation import ENVELOPE_KEYS
from viewer.parse.json.plain import Walker, read_plain, walk_items, walk_object

_MARK = '"custom_id"'
_HEAD = 256
"""How far into a line its `custom_id` key is looked for before the line is decoded (OpenAI writes it second)."""
_SCAN = json.JSONDecoder().scan_once
_DECODE = msgspec.json.Decoder().decode
_CONSUMED = frozenset((*batches.INNER, "error"))
"""The members of a line the general reading takes its conversation from rather than its header."""
_READ_KEYS = frozenset(ENVELOPE_KEYS)
_WRAPPER_CONSUMED = frozenset(("body", "message", "error", "type"))
"""The members of a `response` wrapper that do not go to the header."""


def read_line(text: str, span: Span) -> Transcript | None:
    """The conversation of the batch output line at `span` (one whole JSON object), or None when the line is not
    the plain, successful form read here (then nothing was read)."""
    start, end = span
    if text.find(_MARK, start, min(end, start + _HEAD)) == -1:
        return None
    try:  # msgspec refuses wherever it could disagree with `json` (viewer/analysis/jsontext.py)
        value = _DECODE(text[start:end])
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, the general reading decides
        return None
    body = _body(value) if text.startswith("}", end - 1) and type(value) is dict else None
    header = _header(value, body) if body is not None else None
    if header is None:
        return None
    elements: list[Span] = []
    if walk_object(text, start, value, {}, inner={"response": _response_walker(elements)}) is None:
        return None
    builder = MessageBuilder(text)
    for choice, element in zip(body["choices"], elements):
        turn, builder.turn = builder.turn, builder.turn + 1
        message = choice["message"]
        if langchain.is_message(message) or not read_plain(message, element, text, builder, turn):
            return None
    claimed = [message.span for message in builder.messages]
    return Transcript(dialect="json", source=text, messages=tuple(builder.messages), header=header,
                      tools=builder.tools, frame=frame(text, claimed, span))


def _body(value: dict[str, Any]) -> dict[str, Any] | None:
    """The Chat Completions response of a line that succeeded, whose choices all hold a message object; None for
    any other line (a request, an error, another record, a legacy completion)."""
    response = value.get("response")
    if type(response) is not dict or "body" in value or "params" in value or value.get("error") is not None \
            or preference.is_record(value) or not batches.is_record(value) or batches.failed(response):
        return None
    body = response.get("body")
    if type(body) is not dict or preference.is_record(body) or batches.is_record(body) \
            or not completions.is_record(body):
        return None
    return body if all(type(choice["message"]) is dict for choice in body["choices"]) else None


def _header(value: dict[str, Any], body: dict[str, Any]) -> dict[str, Any] | None:
    """The header the general reading gives: the response's members, then the line's (its `id` where the
    response's stood), then the wrapper's; None when one of them is an envelope key the general reading reads
    (a system prompt, tools)."""
    header = {key: item for key, item in body.items() if key != "choices"}
    header.update((key, item) for key, item in value.items() if key not in _CONSUMED)
    header.update((key, item) for key, item in value["response"].items() if key not in _WRAPPER_CONSUMED)
    return header if _READ_KEYS.isdisjoint(header) else None


def _response_walker(elements: list[Span]) -> Walker:
    """Walks `response` down to each choice's message, whose span it appends to `elements`."""
    def message(text: str, at: int, _: Any) -> int:
        end = _SCAN(text, at)[1]
        elements.append((at, end))
        return end

    def choice(text: str, at: int, value: Any) -> int | None:
        return walk_object(text, at, value, {}, inner={"message": message})

    def choices(text: str, at: int, value: Any) -> int | None:
        return walk_items(text, at, value, choice)

    def body(text: str, at: int, value: Any) -> int | None:
        return walk_object(text, at, value, {}, inner={"choices": choices})

    def response(text: str, at: int, value: Any) -> int | None:
        return walk_object(text, at, value, {}, inner={"body": body})

    return response
