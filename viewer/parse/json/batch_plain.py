"""OpenAI Batch output lines in the plain form plain_records.py reads the fast way: a line that succeeded, whose
Chat Completions response's choices each hold a message object; its messages and header as the general reading
(batches.py, then completions.py) gives them."""
from __future__ import annotations

from typing import Any

from viewer.model import Meta, Span, Transcript
from viewer.parse.json import batches, completions, plain_records, preference
from viewer.parse.json.plain import key_pattern
from viewer.parse.json.positions import SCAN
from viewer.parse.json.unpacked import ENVELOPE_KEYS

FIRST_KEYS = ("id", "custom_id")
"""How OpenAI starts a batch output line: its `id`, then its `custom_id`."""
_MARK = '"custom_id"'
_HEAD = 256
"""How far into a line its `custom_id` is looked for (OpenAI writes it second, after the line's `id`)."""
_CONSUMED = frozenset((*batches.INNER, "error"))
"""The members of a line the general reading takes its conversation from rather than its header."""
_WRAPPER_CONSUMED = frozenset(("body", "message", "error", "type"))
"""The members of a `response` wrapper that do not go to the header."""
_READ_KEYS = frozenset(ENVELOPE_KEYS)
_MESSAGE_KEY = key_pattern("message")
NOTHING = Meta()


def read_record(text: str, span: Span) -> Transcript | None:
    return plain_records.read_line(text, span, marked, elements)


def marked(text: str, start: int, end: int) -> bool:
    return text.find(_MARK, start, min(end, start + _HEAD)) != -1


def elements(text: str, span: Span, value: dict[str, Any]) -> tuple[list, dict[str, Any]] | None:
    """Each choice's message with its span, and the header; None when the line is not the plain form."""
    body = _body(value)
    header = _header(value, body) if body is not None else None
    if body is None or header is None:
        return None
    # Each choice holds a `message` key, so the line holds one per choice at least; when it holds no more (none
    # written twice, none deeper, none elsewhere), they are the choices' own, in order. Finding them so is five
    # times faster than walking the line down to them.
    starts = [found.end() for found in _MESSAGE_KEY.finditer(text, *span)]
    choices = body["choices"]
    if len(starts) != len(choices):
        return None
    found = []
    for number, (choice, at) in enumerate(zip(choices, starts)):
        meta, rest = completions.choice_facts(body, choice, number, number == len(choices) - 1)
        header.update(rest)
        found.append((choice["message"], (at, SCAN(text, at)[1]), {"meta": meta} if meta != NOTHING else None))
    return found, header


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
