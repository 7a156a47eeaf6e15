"""Guess the dialect of a transcript from its first structural marks."""
from __future__ import annotations

import json
import re

_CHATML_MARKS = ("<|im_start|>", "<|im_end|>", "<|fim_prefix|>", "<|file_separator|>", "<|function_call|>")
_HARMONY_MARKS = ("<|start|>", "<|channel|>", "<|message|>")
_YAML_VERSION = re.compile(r"\A\s*(?:---\s*\n)?(?:#[^\n]*\n|\s*\n)*version\s*:", re.MULTILINE)
_EVENT_PREFIXES = ("response.", "tool.")
_CLAUDE_CODE_KEYS = ("sessionId", "parentUuid", "leafUuid", "isSidechain")
"""Keys only a Claude Code session line has (beside its `type`)."""
_CODEX_ROLLOUT = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
_CODEX_EXEC = ("thread.started", "turn.started", "item.started", "item.completed")
_SNIFF_LINES = 5
_SNIFF = 65536


def detect(text: str) -> str:
    """The name of one of the importers (importers.py). Plain text with no marks reads as Harmony (it becomes
    stray text there)."""
    head = text[:_SNIFF].lstrip()
    if head.startswith(("{", "[")) and not head.startswith("[BOS]"):
        return _json_kind(head)
    if _YAML_VERSION.match(text[:_SNIFF]):
        return "openchatml"
    first_harmony = _first_index(head, _HARMONY_MARKS)
    first_chatml = _first_index(head, _CHATML_MARKS)
    if first_chatml < first_harmony:
        return "chatml"
    if first_harmony < len(head):
        return "harmony"
    if head.startswith(("<s>", "[BOS]", "<|begin_of_text|>")):
        return "chatml"
    return "harmony"


def _json_kind(head: str) -> str:
    """An event log is JSON Lines whose objects carry a `type` (or `event`) like `response.delta` or
    `tool.cancel`. The first of the first few lines that is a whole object decides, so a broken first line does
    not turn a log into plain JSON; a message list (`[`) is never an event log."""
    if head.startswith("["):
        return "json"
    for line in head.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]:
        # JSON Lines start at the margin; an indented object is part of a pretty-printed document.
        event = _json_object(line) if line.startswith("{") else None
        if event is not None:
            return _line_kind(event)
    return "json"


def _line_kind(event: dict) -> str:
    kind = event.get("type", event.get("event"))
    if not isinstance(kind, str):
        return "json"
    if kind.startswith(_EVENT_PREFIXES):
        return "events"
    if "role" not in event and any(key in event for key in _CLAUDE_CODE_KEYS):
        return "claude-code"
    if kind == "file-history-snapshot" and "snapshot" in event:
        return "claude-code"
    if kind in _CODEX_ROLLOUT and isinstance(event.get("payload"), dict) or kind in _CODEX_EXEC:
        return "codex"
    return "json"


def _json_object(line: str) -> dict | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _first_index(text: str, marks: tuple[str, ...]) -> int:
    found = [at for at in (text.find(mark) for mark in marks) if at != -1]
    return min(found, default=len(text))
