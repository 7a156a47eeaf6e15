"""Guess the dialect of a transcript from its first structural marks."""
from __future__ import annotations

import json
import re

import msgspec

_CHATML_MARKS = ("<|im_start|>", "<|im_end|>", "<|fim_prefix|>", "<|file_separator|>", "<|function_call|>")
_HARMONY_MARKS = ("<|start|>", "<|channel|>", "<|message|>")
# The marks that say which family wrote a text: the first of them in the text decides, so a template quoted
# inside a prompt (a Llama system prompt showing `<|im_start|>`) does not. Tokens every family shares in
# spelling (`<|end|>` is Harmony's and Phi's, `<s>` Mistral's and old ChatML's) decide nothing.
_FAMILY_MARKS = (
    ("chatml", _CHATML_MARKS),
    ("harmony", _HARMONY_MARKS),
    ("llama3", ("<|start_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|python_tag|>")),
    ("gemma", ("<start_of_turn>", "<end_of_turn>")),
    ("mistral", ("[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[TOOL_CALLS]")),
    ("deepseek", ("<\uff5cbegin\u2581of\u2581sentence\uff5c>", "<\uff5cUser\uff5c>", "<\uff5cAssistant\uff5c>",
                  "<\uff5cend\u2581of\u2581sentence\uff5c>")),
    ("phi", ("<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|tool_call|>")),
)
_PHI_CHATML = re.compile(r"<\|im_start\|>[^<\n]*<\|im_sep\|>")
"""Phi-4 writes ChatML's envelope with `<|im_sep|>` after the role."""
_BRACKET_TEXT = re.compile(r"\[(?:BOS|INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_RESULTS)\]")
"""Texts that start with `[` but are not JSON: ChatML's `[BOS]`, Mistral's control tokens."""
_YAML_VERSION = re.compile(r"\A\s*+(?:---[^\S\n]*\n)?(?:#[^\n]*\n|[^\S\n]*\n)*version\s*:", re.MULTILINE)
r"""Blank lines are one line at a time (`[^\S\n]*\n`) and the leading white space is taken whole: with `\s*\n`
inside the repeat, a run of newlines could be split in exponentially many ways (30 newlines: minutes)."""
_EVENT_PREFIXES = ("response.", "tool.")
_CLAUDE_CODE_KEYS = ("sessionId", "parentUuid", "leafUuid", "isSidechain")
"""Keys only a Claude Code session line has (beside its `type`)."""
_CODEX_ROLLOUT = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
_CODEX_EXEC = ("thread.started", "turn.started", "item.started", "item.completed")
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_VALUE = msgspec.json.Decoder().decode
_KIND_KEYS = frozenset(("type", "event", "payload"))
"""The members whose values `_line_kind` reads (of the others, it asks only whether they are there)."""
_CHATGPT_EXPORT = (re.compile(r'(?<!\\)"mapping"\s*:\s*\{'), re.compile(r'(?<!\\)"current_node"\s*:'))
_CLAUDE_AI_EXPORT = (re.compile(r'(?<!\\)"chat_messages"\s*:\s*\['), re.compile(r'(?<!\\)"sender"\s*:'))
"""Keys of a chat app's export (unescaped quotes: not inside a string), found together in the sniffed head."""
_SNIFF_LINES = 5
_SSE_START = re.compile(r"(?:data|event|id|retry):|:")
_SSE_DATA = re.compile(r"^data:[ \t]*(\{.*)$", re.MULTILINE)
_SNIFF = 65536
_LONGEST_FIRST_LINE = 64 * 1024 * 1024
"""How far a first line longer than the sniffed head is read to decide (a session line holding a pasted
screenshot is several hundred kilobytes)."""


def detect(text: str) -> str:
    """The name of one of the importers (importers.py). Plain text with no marks reads as Harmony (it becomes
    stray text there)."""
    head = text[:_SNIFF].lstrip()
    if head.startswith(("{", "[")) and not _BRACKET_TEXT.match(head):
        return _json_kind(head, text)
    if _sse_kind(head) == "json":
        return "json"
    if _YAML_VERSION.match(text[:_SNIFF]):
        return "openchatml"
    first, family = min((_first_index(head, marks), family) for family, marks in _FAMILY_MARKS)
    if first < len(head):
        if family == "chatml" and _PHI_CHATML.match(head, first):
            return "phi"
        return family
    if head.startswith("<|begin_of_text|>"):
        return "llama3"
    if head.startswith("<bos>"):
        return "gemma"
    if head.startswith(("<s>", "[BOS]")):
        return "chatml"
    return "harmony"


def _json_kind(head: str, text: str) -> str:
    """An event log is JSON Lines whose objects carry a `type` (or `event`) like `response.delta` or
    `tool.cancel`. The first of the first few lines that is a whole object decides, so a broken first line does
    not turn a log into plain JSON; a message list (`[`) is never an event log. A first line longer than the
    head (an image pasted into it) is read whole, up to `_LONGEST_FIRST_LINE`."""
    for kind, marks in (("chatgpt", _CHATGPT_EXPORT), ("claude-ai", _CLAUDE_AI_EXPORT)):
        if all(mark.search(head) for mark in marks):
            return kind
    if head.startswith("["):
        return "json"
    lines = head.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]
    if len(lines) == 1 and head.startswith("{"):
        start = len(text) - len(text.lstrip())
        end = text.find("\n", start, start + _LONGEST_FIRST_LINE)
        lines = [text[start:end if end >= 0 else start + _LONGEST_FIRST_LINE]]
    for line in lines:
        # JSON Lines start at the margin; an indented object is part of a pretty-printed document.
        event = _json_object(line) if line.startswith("{") else None
        if event is not None:
            return _line_kind(event)
    return "json"


def _sse_kind(head: str) -> str | None:
    """Server-sent events whose first `data:` line holds a JSON object (a streamed Chat Completion, a Gemini
    stream): the kind of that object; None for any other text. (Event logs streamed so stay unread here.)"""
    if not _SSE_START.match(head):
        return None
    data = _SSE_DATA.search(head)
    event = _json_object(data[1]) if data is not None else None
    return _line_kind(event) if event is not None else None


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
    """The object `json.loads(line)` gives, or None. Only its members that decide the kind (`_KIND_KEYS`) are
    decoded: the others stay msgspec.Raw, so that a one-line document of many megabytes is checked, not built
    (eight times faster). msgspec refuses wherever it could disagree with `json` (viewer/analysis/jsontext.py):
    then `json.loads` decides."""
    try:
        members = _MEMBERS(line)
        for key in _KIND_KEYS.intersection(members):
            members[key] = _VALUE(members[key])
        return members
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, json.loads decides
        pass
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _first_index(text: str, marks: tuple[str, ...]) -> int:
    found = [at for at in (text.find(mark) for mark in marks) if at != -1]
    return min(found, default=len(text))
