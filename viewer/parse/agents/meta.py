"""What Claude Code recorded about each message: its time, and for an assistant's its model, stop reason and the
API response it belongs to; token usage once per response; the time from a call to its reply.

A response written as several lines repeats its `usage` on each, growing as it streams: the last line of a
`message.id` holds the final figures, so usage goes on that line's last message only and a sum over messages
counts each response once. The totals go in the transcript's header (shown by the debug view).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from viewer.model import Message, Meta, Usage
from viewer.parse.agents.lines import Line
from viewer.parse.json.fields import object_in

USAGE_KEYS = {"input": "input_tokens", "output": "output_tokens", "cache_read": "cache_read_input_tokens",
              "cache_write": "cache_creation_input_tokens"}
"""Usage fields of the Anthropic API, by the model's names."""


NOTHING = Meta()


def claude_meta(messages: Sequence[Message], lines: Sequence[Line]) -> tuple[list[Meta | None], dict[str, Any]]:
    """Each message's Meta, and the session's totals for the header."""
    last_of_response: dict[str, int] = {}
    for index, line in enumerate(lines):
        response = _response(line)
        if response is not None:
            last_of_response[response] = index
    called: dict[str, str] = {}
    metas: list[Meta | None] = []
    usages: list[Usage] = []
    models: dict[str, None] = {}
    for index, (message, line) in enumerate(zip(messages, lines)):
        value = line.value
        timestamp = _text(value.get("timestamp"))
        response = _response(line)
        said = value.get("type") == "assistant"
        body = object_in(value, "message") if said else {}
        last_of_line = index + 1 == len(lines) or lines[index + 1] is not line
        usage = None
        if said and (response is not None and last_of_response[response] == index or response is None
                     and last_of_line):
            usage = _usage(body.get("usage"))
        if usage is not None:
            usages.append(usage)
        model = _text(body.get("model"))
        if model is not None:
            models[model] = None
        if message.is_call and message.call_id and timestamp:
            called[message.call_id] = timestamp
        duration = between(called.get(message.call_id), timestamp) if message.is_reply and message.call_id else None
        meta = Meta(timestamp=timestamp, model=model, stop_reason=_text(body.get("stop_reason")), usage=usage,
                    response=response, duration_ms=duration)
        metas.append(None if meta == NOTHING else meta)
    return metas, usage_totals(usages, models)


def _response(line: Line) -> str | None:
    value = line.value
    body = value.get("message")
    return _text(body.get("id")) if value.get("type") == "assistant" and isinstance(body, dict) else None


def _usage(value: Any) -> Usage | None:
    if not isinstance(value, dict):
        return None
    counts = {name: value.get(key) for name, key in USAGE_KEYS.items()}
    return Usage(**{name: count if isinstance(count, int) and not isinstance(count, bool) else 0
                    for name, count in counts.items()})


def between(start: str | None, end: str | None) -> int | None:
    """Milliseconds from one ISO 8601 time to another; None when either cannot be read."""
    if not start or not end:
        return None
    try:
        return round((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds() * 1000)
    except (ValueError, TypeError, OverflowError):
        return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def openai_usage(figures: Any) -> Usage | None:
    """Usage as OpenAI counts it (`input_tokens`, `cached_input_tokens`, `output_tokens`): cached input is
    counted inside `input_tokens` there, apart in the model."""
    if not isinstance(figures, dict) or not isinstance(figures.get("input_tokens"), int):
        return None
    cached, output = _number(figures.get("cached_input_tokens")), _number(figures.get("output_tokens"))
    return Usage(input=max(figures["input_tokens"] - cached, 0), output=output, cache_read=cached)


def _number(value: Any) -> int:
    """A count as written, or 0 when it is no whole number."""
    return value if isinstance(value, int) else 0


def usage_totals(usages: Iterable[Usage], models: Iterable[str] = ()) -> dict[str, Any]:
    """The header's totals: tokens over every response, how many responses, which models."""
    total, counted = Usage(), 0
    for usage in usages:
        total, counted = total + usage, counted + 1
    if not counted:
        return {}
    named = list(dict.fromkeys(models))
    return {"usage": total.to_json(), "responses": counted} | ({"models": named} if named else {})
