"""Dataset lines whose conversation is a few plain messages inside a record, read the fast way: an OpenAI Batch
output line that succeeded (batch_plain.py) and a TRL preference pair in the conversational form
(preference_plain.py), straight into their conversation, exactly as the general reading (shapes.py, the shape's
module, conversation.py and plain.py through the builder) makes it; any other line is left to that reading.

Such files are datasets of short lines, so what the general reading spends on every record (reading the line with
spans, again the part that holds the messages, a Reading, the framework checks) is most of their time. Here a line
is decoded once (by msgspec, which refuses wherever it could disagree with `json`: viewer/analysis/jsontext.py),
its shape checked on the decoded value, and each message found in its text, by its key or by one walk of the
line (plain.key_pattern, plain.walk_object: the spans positions.read_value gives). Each shape module gives
`read_line` its `marked(text, start, end)` (whether a line shows its marks where its producer writes them, asked
before the line is decoded: a search of a whole long line costs as much as reading a short one) and
`elements(text, span, value)`: its messages with their spans and marks (the fields set on their messages, as a
record shape's marks), and the header; None when the line is not its plain form. tests/parse/json/test_batch_plain.py and
test_preference_plain.py read generated lines both ways and compare.
"""
from __future__ import annotations

from typing import Any, Callable

import msgspec

from viewer.model import Span, Transcript
from viewer.parse.json import langchain
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.plain import read_plain
from viewer.parse.json.unpacked import frame

_DECODE = msgspec.json.Decoder().decode
Element = tuple[dict[str, Any], Span, "dict[str, Any] | None"]
"""A plain message of a record, its span, and the fields its messages are marked with."""
Marked = Callable[[str, int, int], bool]
Elements = Callable[[str, Span, dict[str, Any]], "tuple[list[Element], dict[str, Any]] | None"]


def read_line(text: str, span: Span, marked: Marked, elements: Elements) -> Transcript | None:
    """The conversation of the record at `span` (one whole JSON object), or None when it is not the shape's plain
    form (then nothing was read)."""
    start, end = span
    if not marked(text, start, end) or not text.startswith("}", end - 1):
        return None
    try:
        value = _DECODE(text[start:end])
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, the general reading decides
        return None
    found = elements(text, span, value) if type(value) is dict else None
    return _conversation(text, span, *found) if found is not None else None


def _conversation(text: str, span: Span, elements: list[Element], header: dict[str, Any]) -> Transcript | None:
    builder = MessageBuilder(text)
    for message, where, mark in elements:
        turn, builder.turn = builder.turn, builder.turn + 1
        first = len(builder.messages)
        if type(message) is not dict or langchain.is_message(message) \
                or not read_plain(message, where, text, builder, turn):
            return None
        if mark is not None:
            builder.mark(first, mark)
    claimed = [message.span for message in builder.messages]
    return Transcript(dialect="json", source=text, messages=tuple(builder.messages), header=header,
                      tools=builder.tools, frame=frame(text, claimed, span))
