"""LLaMA-Factory's v1 data rows (hiyouga/LLaMA-Factory, `src/llamafactory/v1/utils/types.py`): `{"messages":
[...], "tools": "<JSON text>"}`, each message `{"role": "system" | "user" | "assistant" | "tool", "content":
[{"type", "value"}, ...], "loss_weight"?}`. Its content parts, in order:

- `text`: the message's text (consecutive text and media parts make one message);
- `reasoning`: the model's reasoning, analysis (hidden by default);
- `tool_call`: a call, its `value` the JSON text of `{"name", "arguments"}`; calls carry no id, so a tool
  message answers the calls of the last calling turn in order. A tool message whose text is a JSON list with one
  entry per call still waiting (LLaMA-Factory's demo writes parallel results so) is one reply per entry;
- `image_url`, `video_url`, `audio_url`: a placeholder naming the path or address (never fetched);
- any other part: hidden with W-JSON-UNKNOWN-PART.

A message's `loss_weight` (how much its tokens count in training) is kept in the header, by turn (`per_turn`). The
row's `tools` text is read by conversation.py (declared, and kept in the header); `extra_info` and
`_dataset_name` are the header's. Preference rows (`chosen_messages`, `rejected_messages`) are read by
preference.py, their messages here.
"""
from __future__ import annotations

import json
from typing import Any

from viewer.model import Span
from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.json import drafts
from viewer.parse.json.calls import awaiting_replies
from viewer.parse.json.content_text import join
from viewer.parse.json.elements import author
from viewer.parse.json.media import worded
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.source import Draft, JsonObject, type_phrase

MEDIA = {"image_url": "image", "video_url": "video", "audio_url": "audio"}
"""Media part types and the word their placeholder starts with."""
CLAIMED = ("role", "content", "loss_weight")


def is_element(value: dict[str, Any]) -> bool:
    """A message whose content is a list of `{"type", "value"}` parts (never OpenAI's `text` parts)."""
    content = value.get("content")
    return "role" in value and isinstance(content, list) and bool(content) and all(
        isinstance(part, dict) and "value" in part and "type" in part and "text" not in part for part in content)


def claimed(value: dict[str, Any]) -> tuple[str, ...]:
    return CLAIMED


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    role, _ = author(source)
    weight = source.get("loss_weight")
    if weight is not None:
        source.kept["loss_weight"] = weight
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found: list[Draft] = []
    run: list[tuple[str, bool, Span]] = []
    for at, part in enumerate(source.get("content")):
        span = spans[at] if at < len(spans) else source.span_of("content")
        read = _part(part, span, role)
        if isinstance(read, tuple):
            run.append((*read, span))
            continue
        found.extend(_run(run, role, builder))
        run = []
        found.extend(read)
    return found + _run(run, role, builder) or [Draft(dict(role=role, channel="final", content="", end="end"),
                                                      source.span)]


def _part(part: dict[str, Any], span: Span, role: str) -> tuple[str, bool] | list[Draft]:
    """A text or media part as (text, is a placeholder); any other part as its messages."""
    kind, value = part.get("type"), part.get("value")
    if kind == "text" and isinstance(value, str):
        return value, False
    if isinstance(kind, str) and kind in MEDIA and isinstance(value, str):
        addressed = value.startswith(("https://", "http://", "data:"))  # else a path in the dataset's folder
        return worded(MEDIA[kind], {"url": value} if addressed else {"filename": value}), True
    if kind == "reasoning" and isinstance(value, str):
        return [drafts.analysis(role, value, span)]
    if kind == "tool_call" and isinstance(value, str):
        return [_call(value, span)]
    return [drafts.unclassified(role, kind, part, span, "W-JSON-UNKNOWN-PART",
                                f"A content part {type_phrase(kind, part)}")]


def _call(value: str, span: Span) -> Draft:
    """A `tool_call` part: `{"name", "arguments"}` as JSON text; anything else an unnamed call, reported."""
    try:
        written = json.loads(value)
    except (ValueError, RecursionError):
        written = None
    name = written.get("name") if isinstance(written, dict) else None
    if not isinstance(name, str) or not name:
        piece = drafts.call(None, value, span, None, json_arguments=False)
        piece.problems.append(Pending("W-JSON-SHAPE", "This tool_call part is not JSON naming a tool and its "
                                                      "arguments; it was kept as an unnamed call.", span))
        return piece
    return drafts.call(qualified_tool_name(name), drafts.arguments_text(written.get("arguments")), span, None)


def _run(run: list[tuple[str, bool, Span]], role: str, builder: Any) -> list[Draft]:
    """A run of text and placeholders: the message's text, or, for a tool, its replies."""
    if not run:
        return []
    text = join([(piece, alone) for piece, alone, _ in run])
    span = (run[0][2][0], run[-1][2][1])
    if role == "tool":
        return _replies(text, span, builder)
    return text_pieces(text, dict(role=role, channel="final", end="end"), span)


def _replies(text: str, span: Span, builder: Any) -> list[Draft]:
    """A tool message's text as the reply to the next call waiting, or, when it is a JSON list with one entry per
    call waiting (parallel calls answered together), one reply per entry, each named after its call."""
    waiting = awaiting_replies(builder.messages)
    entries = _entries(text)
    if entries is not None and len(waiting) > 1 and len(entries) == len(waiting):
        return [drafts.reply(tool, entry, span, None) for tool, entry in zip(waiting, entries)]
    return [drafts.reply(waiting[0] if waiting else None, text, span, None)]


def _entries(text: str) -> list[str] | None:
    """The entries of a JSON list, each as its JSON text; None when the text is no JSON list."""
    try:
        written = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(written, list):
        return None
    return [json.dumps(entry, ensure_ascii=False) for entry in written]
