"""A tool's output written as content parts (Anthropic's `tool_result` blocks, a Responses API
`function_call_output` list) as one text: a reply is one message, hidden behind a marker by default."""
from __future__ import annotations

from typing import Any

from viewer.parse.common import shown_json
from viewer.parse.json.media import MEDIA_PARTS, placeholder

TEXT_KEYS = {"text": "text", "input_text": "text", "output_text": "text", "refusal": "refusal"}
"""Content part types that are text, and the key that holds it."""


def part_text(part: Any) -> str | None:
    """The text of a text part (`{"type": "text", "text": …}`, or `{"text": …}` with no type), else None."""
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return None
    kind = part.get("type")
    key = "text" if kind is None else TEXT_KEYS.get(kind) if isinstance(kind, str) else None
    text = part.get(key) if key is not None else None
    return text if isinstance(text, str) else None


def flat_text(value: Any) -> str:
    """Text, a part, or a list of parts as one text: text parts as written, media as placeholders, anything else
    as its JSON (a reply's body is shown only in the debug view)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    parts = value if isinstance(value, list) else [value]
    return join([_flat_part(part) for part in parts])


def _flat_part(part: Any) -> tuple[str, bool]:
    text = part_text(part)
    if text is not None:
        return text, False
    kind = part.get("type") if isinstance(part, dict) else None
    if isinstance(kind, str) and kind in MEDIA_PARTS:
        return placeholder(kind, part), True
    if kind == "logs" and isinstance(part.get("logs"), str):  # the Responses API's code interpreter output
        return part["logs"], False
    return shown_json(without_opaque(part)), True


OPAQUE_KEYS = ("signature", "encrypted_content", "encrypted_index", "data")
"""Keys of opaque data (Anthropic's signatures and encrypted search results, encrypted reasoning, redacted
thinking): never message text, only counted."""


def without_opaque(part: Any) -> Any:
    """A part with each opaque string replaced by its length, so that no body shows it."""
    if not isinstance(part, dict):
        return part
    return {key: f"({len(value):,} characters of opaque data)" if key in OPAQUE_KEYS and isinstance(value, str)
            else value for key, value in part.items()}


def join(texts: list[tuple[str, bool]]) -> str:
    """Texts joined as written; a placeholder (flagged True) stands on a line of its own."""
    joined, after_placeholder = "", False
    for text, alone in texts:
        if joined and (alone or after_placeholder) and not joined.endswith("\n") and not text.startswith("\n"):
            joined += "\n"
        joined += text
        after_placeholder = alone
    return joined
