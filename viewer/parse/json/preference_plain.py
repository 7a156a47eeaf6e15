"""TRL preference pairs in the plain form plain_records.py reads the fast way: the conversational form, whose
`prompt`, `chosen` and `rejected` are lists of plain messages (the chosen answer not repeating the prompt); its
messages, marks and header as the general reading (preference.py) gives them."""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Span, Transcript
from viewer.parse.json import plain_records, preference
from viewer.parse.json.plain import items_recorded, walk_object
from viewer.parse.json.unpacked import ENVELOPE_KEYS

FIRST_KEYS = ("prompt", "chosen")
"""How a TRL record starts: with its prompt, or (the implicit-prompt form) its chosen answer."""
_FIRST_KEY = re.compile(r'\{[ \t\n\r]*"(?:prompt|chosen)"')
_MARKS = (("prompt", None), ("chosen", preference.CHOSEN), ("rejected", preference.REJECTED))
"""The members that hold the messages, in the order the general reading takes them, and their marks."""
_READ_KEYS = frozenset(ENVELOPE_KEYS)


def read_record(text: str, span: Span) -> Transcript | None:
    return plain_records.read_line(text, span, marked, elements)


def marked(text: str, start: int, end: int) -> bool:
    return _FIRST_KEY.match(text, start) is not None and text.find('"rejected"', start, end) != -1


def elements(text: str, span: Span, value: dict[str, Any]) -> tuple[list, dict[str, Any]] | None:
    """The prompt's, the chosen and the rejected answer's messages with their spans and marks, and the header;
    None when the record is not the plain form."""
    if "chosen" not in value or "rejected" not in value or preference.repeats_prompt(value["chosen"]) \
            or any(value.get(key) is not None and type(value[key]) is not list for key, _ in _MARKS):
        return None
    header = {key: item for key, item in value.items() if key not in preference.TRL}
    if not _READ_KEYS.isdisjoint(header):
        return None  # a prompt read from `messages` or `conversations`, a system prompt, tools: the general way
    spans: dict[str, list[Span]] = {key: [] for key, _ in _MARKS}
    walkers = {key: items_recorded(spans[key]) for key, _ in _MARKS}
    if walk_object(text, span[0], value, {}, inner=walkers) is None:
        return None
    return [(message, where, mark) for key, mark in _MARKS
            for message, where in zip(value.get(key) or (), spans[key])], header

