"""What the readers of agents' JSON documents and event files make over and over: a message of some text, the
reasoning a model message carries in any of LiteLLM's spellings, tool calls and replies whose arguments or
output are given as values, and usage as LiteLLM and the harnesses built on it count it."""
from __future__ import annotations

import datetime as dt
from typing import Any

from viewer.model import Span, Usage
from viewer.parse.agents.documents import located
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.source import Draft, JsonObject


def said(role: str, text: str, span: Span | None, **fields: Any) -> Draft:
    """A message of `text`: the user's, the assistant's answer (`final`), or any other role's."""
    return Draft(dict(role=role, channel="final", content=text, end="end", **fields), span)


def submission(text: str, span: Span | None) -> Draft:
    """A run's submission, its answer: a patch is shown as one (content type `diff`), anything else as text."""
    patch = text.lstrip().startswith(("diff --git ", "--- ", "Index: "))
    return said("assistant", text, span, name="submission", **({"content_type": "diff"} if patch else {}))


def context(text: str, span: Span | None, name: str | None = None, role: str = "user") -> Draft:
    """Text the harness wrote for the model, not the user (an environment, a template, a skill): hidden."""
    return Draft(dict(role=role, name=name, channel="final", content=text, end="end", intent="context"), span)


def call(tool: str | None, arguments: Any, span: Span | None, call_id: str | None, *,
         json_arguments: bool = True) -> Draft:
    """A tool call to `functions.<tool>` (a dotted name as written); its arguments as JSON text."""
    recipient = qualified_tool_name(tool) if isinstance(tool, str) and tool else None
    piece = drafts.call(recipient, drafts.arguments_text(arguments), span, call_id, json_arguments=json_arguments)
    if recipient is None and span is not None:
        piece.problems.append(Pending("W-JSON-SHAPE", "This tool call does not say which tool it calls.", span))
    return piece


def reply(name: str | None, output: Any, span: Span | None, call_id: str | None) -> Draft:
    """A tool's reply, its output as text (parts joined, anything else as its JSON)."""
    return drafts.reply(name, output if isinstance(output, str) else flat_text(output), span, call_id)


def failed(piece: Draft, what: str, span: Span, code: str = "W-TOOL-ERROR") -> Draft:
    """A reply the tool (or the user, E-TOOL-CANCELLED) marked as failed."""
    piece.problems.append(Pending(code, what, span))
    return piece


REASONING_PATHS = ("reasoning_content", "reasoning", "thinking_blocks", "responses_reasoning_item")


def reasoning(source: JsonObject, *path: str | int) -> list[Draft]:
    """The reasoning of the model message at `path` under `source` (nothing when the path is not an object):
    `reasoning_content` or `reasoning` text, Anthropic `thinking_blocks` (a signature is opaque data), a
    Responses API reasoning item (`summary` and `content` texts; `encrypted_content` opaque). The same text
    written under two keys is one message."""
    holder: Any = source.value
    for key in path:
        if isinstance(key, int):
            holder = holder[key] if isinstance(holder, list) and 0 <= key < len(holder) else None
        else:
            holder = holder.get(key) if isinstance(holder, dict) else None
    if not isinstance(holder, dict):
        return []
    found: list[Draft] = []
    seen: dict[str, Draft] = {}

    def add(text: Any, span: Span) -> Draft | None:
        """The analysis message of this text (the one made already when the text was seen under another key)."""
        if not isinstance(text, str) or not text.strip():
            return None
        if text not in seen:
            seen[text] = drafts.analysis("assistant", text, span)
            found.append(seen[text])
        return seen[text]

    for key in ("reasoning_content", "reasoning"):
        add(holder.get(key), located(source, *path, key))
    blocks = holder.get("thinking_blocks")
    for at, block in enumerate(blocks if isinstance(blocks, list) else ()):
        span = located(source, *path, "thinking_blocks", at)
        if not isinstance(block, dict):
            continue
        if block.get("type") == "redacted_thinking":
            found.append(drafts.opaque("assistant", "redacted thinking", block.get("data") or "", "data", span))
            continue
        piece = add(block.get("thinking"), span)
        if block.get("signature"):
            problem = drafts.opaque_problem("thinking block", block["signature"], "signature", span)
            (piece or _carrier(found, span)).problems.append(problem)
    item = holder.get("responses_reasoning_item")
    if isinstance(item, dict):
        span = located(source, *path, "responses_reasoning_item")
        texts = [flat_text(part.get("text")) for key in ("summary", "content")
                 for part in (item.get(key) or ()) if isinstance(part, dict) and isinstance(part.get("text"), str)]
        piece = add("\n\n".join(text for text in texts if text), span)
        encrypted = item.get("encrypted_content")
        if encrypted and piece is None:
            found.append(drafts.opaque("assistant", "encrypted reasoning", encrypted, "encrypted_content", span))
        elif encrypted and piece is not None:
            piece.problems.append(drafts.opaque_problem("reasoning item", encrypted, "encrypted_content", span))
    return found


def _carrier(found: list[Draft], span: Span) -> Draft:
    """A thinking block with a signature and no text: the signature is said on an empty analysis message."""
    piece = drafts.analysis("assistant", "", span)
    found.append(piece)
    return piece


def count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def litellm_usage(figures: Any, *, prompt: str = "prompt_tokens", completion: str = "completion_tokens",
                  cache_read: tuple[str, ...] = ("cache_read_input_tokens",),
                  cache_write: tuple[str, ...] = ("cache_creation_input_tokens",),
                  cost: float | None = None) -> Usage | None:
    """Usage as LiteLLM counts it: `prompt_tokens` holds the cached input too, which the model keeps apart."""
    if not isinstance(figures, dict) or not isinstance(figures.get(prompt), int):
        return None
    read = max((count(figures.get(key)) for key in cache_read), default=0)
    details = figures.get("prompt_tokens_details")
    if not read and isinstance(details, dict):
        read = count(details.get("cached_tokens"))
    write = max((count(figures.get(key)) for key in cache_write), default=0)
    return Usage(input=max(count(figures[prompt]) - read - write, 0), output=count(figures.get(completion)),
                 cache_read=read, cache_write=write, cost=cost)


def epoch_time(value: Any) -> str | None:
    """Seconds since the epoch as ISO 8601 (UTC)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e11:
        return dt.datetime.fromtimestamp(value, dt.timezone.utc).isoformat().replace("+00:00", "Z")
    return None


def cost_of(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else None


def shown(value: Any) -> str:
    return value if isinstance(value, str) else shown_json(value)
