"""ShareGPT turns: `{"from": …, "value": …}` in a record's `conversations` (LLaMA-Factory adds `system` and a
`tools` text beside it, read by conversation.py).

- `human`, `user`: the user's message.
- `gpt`, `assistant`, `chatgpt`, `bing`, `bard`, `model`: the assistant's answer; `<think>` in it is analysis.
- `system`, `developer`: the system (developer) prompt.
- `function_call`: tool calls; the value is JSON `{"name", "arguments"}` or a list of them (after any `<think>`).
- `observation`, `tool`, `function`: the tool's reply, named after the earliest call of the last calling turn
  that no reply answered yet.
- anything else: kept as written with W-UNKNOWN-ROLE (hidden).

ShareGPT has no call ids: replies pair with their calls by tool name, in order.
"""
from __future__ import annotations

import json
from typing import Any

from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.json import drafts
from viewer.parse.json.calls import awaiting_replies
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.source import JsonObject, Draft, kind_of
from viewer.parse.json.think import split_think

SPEAKERS = {"human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant", "chatgpt": "assistant",
            "bing": "assistant", "bard": "assistant", "model": "assistant", "system": "system",
            "developer": "developer"}
REPLIES = ("observation", "tool", "function")


def is_turn(value: dict[str, Any]) -> bool:
    """Whether an element is a ShareGPT turn: `from` and `value` where a message has `role` and `content`."""
    return "from" in value and "role" not in value and "author" not in value


def is_element(value: dict[str, Any]) -> bool:
    return is_turn(value)


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    return read_turn(source, builder)


def claimed(value: dict[str, Any]) -> tuple[str, ...]:
    return ("from", "value")


def read_turn(source: JsonObject, builder: Any) -> list[Draft]:
    speaker = source.get("from")
    text = _value(source)
    if speaker == "function_call":
        return _calls(source, text)
    if speaker in REPLIES:
        return [drafts.reply(_answered_tool(builder), text, source.span_of("value"), None)]
    role = SPEAKERS.get(speaker) if isinstance(speaker, str) else None
    if role is None:
        shown = speaker if isinstance(speaker, str) else kind_of(speaker)
        source.problem("W-UNKNOWN-ROLE", f"Unknown speaker {shown!r} in 'from'; it was kept as written.",
                       source.span_of("from"))
        role = speaker if isinstance(speaker, str) else "unknown"
    base = dict(role=role, channel="final", end="end")
    return text_pieces(text, base, source.span_of("value")) or [Draft({**base, "content": ""}, None)]


def _value(source: JsonObject) -> str:
    if source.get("value") is None:
        source.problem("W-JSON-MISSING-CONTENT", "This turn has no value.")
        return ""
    return source.text("value") or ""


def _calls(source: JsonObject, text: str) -> list[Draft]:
    """A function_call turn: any reasoning before the calls, then a call per `{"name", "arguments"}`."""
    span = source.span_of("value")
    found: list[Draft] = []
    calls_text = ""
    runs, _ = split_think(text)
    for reasoning, run in runs:
        if reasoning:
            found.append(drafts.analysis("assistant", run, span))
        else:
            calls_text += run
    try:
        written = json.loads(calls_text)
    except (ValueError, RecursionError):
        written = None
    if not isinstance(written, (dict, list)):
        piece = drafts.call(None, calls_text, span, None, json_arguments=False)
        piece.problems.append(Pending("W-JSON-SHAPE", "This function_call value is not JSON naming a tool and its "
                                                      "arguments; it was kept as an unnamed call.", span))
        return [*found, piece]
    for call in written if isinstance(written, list) else [written]:
        found.append(_call(call, span))
    return found


def _call(call: Any, span: tuple[int, int]) -> Draft:
    name = call.get("name") if isinstance(call, dict) else None
    recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
    piece = drafts.call(recipient, drafts.arguments_text(call.get("arguments") if isinstance(call, dict) else call),
                        span, None)
    if recipient is None:
        piece.problems.append(Pending("W-JSON-SHAPE", "This tool call does not say which tool it calls.", span))
    return piece


def _answered_tool(builder: Any) -> str | None:
    """The tool an observation answers: the earliest call of the last calling turn that no reply answered."""
    waiting = awaiting_replies(builder.messages)
    return waiting[0] if waiting else None
