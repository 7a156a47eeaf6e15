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
from viewer.parse.exports import parse_chatgpt, parse_claude_ai
from viewer.parse.harmony import parse_harmony
from viewer.parse.json import parse_json
from viewer.parse.options import ParseOptions
from viewer.parse.templates import parse_deepseek, parse_gemma, parse_llama3, parse_mistral, parse_phi

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
    "llama3": Importer(
        parse_llama3, "Llama 3.x raw prompt: <|start_header_id|>role<|end_header_id|> … <|eot_id|>",
        "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>",
        replies_without_id=BY_ORDER),
    "gemma": Importer(
        parse_gemma, "Gemma 2/3 and FunctionGemma raw prompt: <start_of_turn>user|model … <end_of_turn>",
        "<bos><start_of_turn>user\nWhat is 2+2?<end_of_turn>\n"),
    "mistral": Importer(
        parse_mistral, "Mistral raw prompt (mistral-common V1 to V13): [INST] … [/INST] … </s>, [TOOL_CALLS], [THINK]",
        "<s>[INST]What is 2+2?[/INST]4</s>", replies_without_id=BY_ORDER),
    "deepseek": Importer(
        parse_deepseek,
        "DeepSeek R1/V3/V3.1 raw prompt: <\uff5cUser\uff5c> … <\uff5cAssistant\uff5c> … <think>, tool-call tokens",
        "<\uff5cbegin\u2581of\u2581sentence\uff5c><\uff5cUser\uff5c>What is 2+2?<\uff5cAssistant\uff5c>4"
        "<\uff5cend\u2581of\u2581sentence\uff5c>", replies_without_id=BY_ORDER),
    "phi": Importer(
        parse_phi, "Phi-3/3.5/4/4-mini/4-reasoning raw prompt: <|user|> … <|end|>, or <|im_start|>user<|im_sep|>",
        "<|user|>\nWhat is 2+2?<|end|>\n", replies_without_id=BY_ORDER),
    "claude-code": Importer(
        parse_claude_code, "A Claude Code session (~/.claude/projects/…/<session>.jsonl)",
        '{"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s1", '
        '"message": {"role": "user", "content": "What is 2+2?"}}'),
    "codex": Importer(
        parse_codex, "A Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl) or a `codex exec --json` stream",
        '{"timestamp": "2025-09-14T09:00:00Z", "type": "response_item", "payload": {"type": "message", '
        '"role": "user", "content": [{"type": "input_text", "text": "What is 2+2?"}]}}'),
    "chatgpt": Importer(
        parse_chatgpt, "A ChatGPT data export (conversations.json): conversations with their branches",
        '{"title": "Sums", "create_time": 1700000000.0, "current_node": "b", "mapping": {'
        '"a": {"id": "a", "parent": null, "children": ["b"], "message": {"author": {"role": "user"}, '
        '"content": {"content_type": "text", "parts": ["What is 2+2?"]}}}, '
        '"b": {"id": "b", "parent": "a", "children": [], "message": {"author": {"role": "assistant"}, '
        '"recipient": "all", "content": {"content_type": "text", "parts": ["4"]}}}}}'),
    "claude-ai": Importer(
        parse_claude_ai, "A Claude.ai data export (conversations.json): conversations with their branches",
        '{"uuid": "c1", "name": "Sums", "created_at": "2025-01-01T00:00:00Z", "chat_messages": ['
        '{"uuid": "m1", "sender": "human", "text": "What is 2+2?", "content": [{"type": "text", '
        '"text": "What is 2+2?"}], "parent_message_uuid": "00000000-0000-4000-8000-000000000000"}, '
        '{"uuid": "m2", "sender": "assistant", "text": "4", "content": [{"type": "text", "text": "4"}], '
        '"parent_message_uuid": "m1"}]}'),
}

DIALECTS = tuple(IMPORTERS)
"""The dialect names, in the order a person is offered them."""
