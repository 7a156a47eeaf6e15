"""Guess the dialect of a transcript from its first structural marks."""
from __future__ import annotations

import json
import re

DIALECTS = ("openchatml", "harmony", "chatml", "json", "events")

_CHATML_MARKS = ("<|im_start|>", "<|im_end|>", "<|fim_prefix|>", "<|file_separator|>", "<|function_call|>")
_HARMONY_MARKS = ("<|start|>", "<|channel|>", "<|message|>")
_YAML_VERSION = re.compile(r"\A\s*(?:---\s*\n)?(?:#[^\n]*\n|\s*\n)*version\s*:", re.MULTILINE)
_EVENT_TYPE = re.compile(r'"(?:type|event)"\s*:\s*"(?:response|tool)\.')
_SNIFF = 65536


def detect(text: str) -> str:
    """One of DIALECTS. Plain text with no marks reads as Harmony (it becomes stray text there)."""
    head = text[:_SNIFF].lstrip()
    if head.startswith(("{", "[")):
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
    first_line = head.split("\n", 1)[0]
    if _EVENT_TYPE.search(first_line) and _is_json_object(first_line):
        return "events"
    return "json"


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _first_index(text: str, marks: tuple[str, ...]) -> int:
    found = [at for at in (text.find(mark) for mark in marks) if at != -1]
    return min(found, default=len(text))
