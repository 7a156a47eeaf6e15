"""The importers: one per dialect the viewer reads, with what `parse` and the upload form need to know of it.

A new importer (another JSON shape, a dataset format) is a parser function `(text, ParseOptions) -> Transcript`
and a row here; `detect` learns to recognise it in detect.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from viewer.analysis import BY_NAME, BY_ORDER
from viewer.model import Transcript
from viewer.parse.agents import parse_claude_code, parse_codex
from viewer.parse.chatml import parse_chatml
from viewer.parse.events import parse_events
from viewer.parse.harmony import parse_harmony
from viewer.parse.json import parse_json
from viewer.parse.options import ParseOptions

DialectParser = Callable[[str, ParseOptions], Transcript]


@dataclass(frozen=True, slots=True)
class Importer:
    """One dialect: its parser, how it is described to a person, and how its replies find their calls."""

    read: DialectParser
    description: str
    """One line for a person choosing the dialect."""
    example: str
    """A short transcript in the dialect (detected as it, and parsed without diagnostics)."""
    replies_without_id: str = BY_NAME
    """How a tool reply without a call id finds its call (viewer.analysis.pairing): by the tool's name, or
    (ChatML, whose outputs may not name their tool) in order."""


IMPORTERS: dict[str, Importer] = {
    "openchatml": Importer(
        parse_harmony, "OpenChatML 2.x: Harmony tokens after a YAML header with version: 2.x",
        "---\nversion: 2.2\n---\n<|start|>user<|message|>What is 2+2?<|end|>"),
    "harmony": Importer(
        parse_harmony, "Harmony (gpt-oss): <|start|>role<|channel|>…<|message|>…<|end|>",
        "<|start|>user<|message|>What is 2+2?<|end|>"),
    "chatml": Importer(
        parse_chatml, "ChatML and OpenChatML 0.1: <|im_start|>role … <|im_end|>",
        "<|im_start|>user\nWhat is 2+2?<|im_end|>", replies_without_id=BY_ORDER),
    "json": Importer(
        parse_json, "JSON messages: OpenAI chat and Responses API, Anthropic Messages, ShareGPT, OpenChatML 2.x "
                    "interchange, openai-harmony dicts, JSON Lines",
        '[{"role": "user", "content": "What is 2+2?"}]'),
    "events": Importer(
        parse_events, "A streaming event log (JSON Lines of response.* and tool.* events)",
        '{"type": "response.output_text.delta", "delta": "4"}\n{"type": "response.done"}'),
    "claude-code": Importer(
        parse_claude_code, "A Claude Code session (~/.claude/projects/…/<session>.jsonl)",
        '{"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s1", '
        '"message": {"role": "user", "content": "What is 2+2?"}}'),
    "codex": Importer(
        parse_codex, "A Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl) or a `codex exec --json` stream",
        '{"timestamp": "2025-09-14T09:00:00Z", "type": "response_item", "payload": {"type": "message", '
        '"role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]}}'),
}

DIALECTS = tuple(IMPORTERS)
"""The dialect names, in the order a person is offered them."""
