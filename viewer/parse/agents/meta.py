"""What Claude Code recorded about each message: its time, and for an assistant's its model, stop reason and the
API response it belongs to; token usage once per response; the time from a call to its reply.

A response written as several lines repeats its `usage` on each, growing as it streams: the last line of a
`message.id` holds the final figures, so usage goes on that line's last message only and a sum over messages
counts each response once. The totals go in the transcript's header (shown by the debug view).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Usage
from viewer.parse.agents.lines import Line
from viewer.parse.agents.session import Change
from viewer.parse.json.fields import object_in

USAGE_KEYS = {"input": "input_tokens", "output": "output_tokens", "cache_read": "cache_read_input_tokens",
              "cache_write": "cache_creation_input_tokens"}
"""Usage fields of the Anthropic API, by the model's names."""


NOTHING = Meta()


class ClaudeMeta:
    """Claude Code's metadata, read online: each batch's as it is finished, the usage of a response moved to its
    latest line as its lines come (an amendment when the line that held it was finished in an earlier batch), the
    usage counted so far per response id, and the calls' times for their replies."""

    def __init__(self) -> None:
        self.called: dict[str, str] = {}
        """call_id -> the time of the latest call with it."""
        self.holders: dict[str, int] = {}
        """Response id -> the message that holds its usage (the last of its lines so far)."""
        self.counted: dict[str, Usage] = {}
        """Response id -> its usage counted in the totals (its latest line's)."""
        self.loose: list[Usage] = []
        """The usage of lines that name no response, each counted."""
        self.models: dict[str, None] = {}

    def metas(self, messages: Sequence[Message], lines: Sequence[Line],
              amend: Callable[[int, Change], None]) -> list[Meta | None]:
        """Each message's Meta, in order."""
        last_of_response: dict[str, int] = {}
        for at, line in enumerate(lines):
            response = _response(line)
            if response is not None:
                last_of_response[response] = at
        metas: list[Meta | None] = []
        for at, (message, line) in enumerate(zip(messages, lines)):
            value = line.value
            timestamp = _text(value.get("timestamp"))
            response = _response(line)
            said = value.get("type") == "assistant"
            body = object_in(value, "message") if said else {}
            usage = None
            if said and response is not None and last_of_response[response] == at:
                usage = self._hold(response, message.index, _usage(body.get("usage")), amend)
            elif said and response is None and (at + 1 == len(lines) or lines[at + 1] is not line):
                usage = _usage(body.get("usage"))
                if usage is not None:
                    self.loose.append(usage)
            model = _text(body.get("model"))
            if model is not None:
                self.models[model] = None
            if message.is_call and message.call_id and timestamp:
                self.called[message.call_id] = timestamp
            duration = between(self.called.get(message.call_id), timestamp) \
                if message.is_reply and message.call_id else None
            meta = Meta(timestamp=timestamp, model=model, stop_reason=_text(body.get("stop_reason")), usage=usage,
                        response=response, duration_ms=duration)
            metas.append(None if meta == NOTHING else meta)
        return metas

    def _hold(self, response: str, index: int, usage: Usage | None, amend: Callable[[int, Change], None]) \
            -> Usage | None:
        """Message `index` holds its response's usage now: the one that held it before no longer does."""
        before = self.holders.get(response)
        if before is not None:
            amend(before, without_usage)
        self.holders[response] = index
        if usage is None:
            self.counted.pop(response, None)
        else:
            self.counted[response] = usage
        return usage

    def totals(self) -> dict[str, Any]:
        return usage_totals([*self.counted.values(), *self.loose], self.models)


def without_usage(message: Message) -> Message:
    """A message whose response's usage went on to a later line of it: what the usage says beside the counts
    (its `details`' `usage`, claude_code.py) goes on with it."""
    meta = message.meta
    if meta is None or meta.usage is None:
        return message
    details = meta.details
    if details is not None and "usage" in details:
        details = {key: value for key, value in details.items() if key != "usage"} or None
    kept = dataclasses.replace(meta, usage=None, details=details)
    return replace_fields(message, meta=None if kept == NOTHING else kept)


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
    return summed_totals(total, counted, models)


def summed_totals(total: Usage, counted: int, models: Iterable[str] = ()) -> dict[str, Any]:
    """`usage_totals` of `counted` responses whose usage sums to `total` (a reader that sums as it goes)."""
    if not counted:
        return {}
    named = list(dict.fromkeys(models))
    return {"usage": total.to_json(), "responses": counted} | ({"models": named} if named else {})
