"""Anthropic Messages API content blocks that are not text: thinking, redacted thinking, tool use and tool
results (the client's tools, Anthropic's server tools such as web search, and MCP connectors).

- `thinking` (`thinking`, `signature`) is analysis; the signature is opaque data (W-JSON-OPAQUE-DATA). A block
  with a signature and no text is omitted thinking (the request's `thinking.display: "omitted"`, or the model's
  default): the model thought, the API withheld the text; its message says so rather than being empty.
- `redacted_thinking` (`data`, encrypted) is an analysis message saying so; the data stays in the source.
- `tool_use` (`id`, `name`, `input`) is a call to `functions.<name>` (qualified_tool_name), arguments the input
  as JSON, `call_id` the id. `server_tool_use` calls Anthropic's built-in tool by its own name (`web_search`);
  `mcp_tool_use` calls `<server_name>.<name>`.
- `tool_result` (`tool_use_id`, `content` text or blocks, `is_error`) and every `*_tool_result` is the tool's
  reply with that `call_id`, named after the call; `is_error: true` is W-TOOL-ERROR.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from viewer.model import Span
from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.source import Draft

BlockReader = Callable[[dict[str, Any], Span, str, Any], list[Draft]]
"""(block, its span, the role of its message, the MessageBuilder) -> its messages."""


def _thinking(block: dict[str, Any], span: Span, role: str, builder: Any) -> list[Draft]:
    text = block.get("thinking")
    signature = block.get("signature")
    if not (isinstance(text, str) and text.strip()) and isinstance(signature, str) and signature:
        return [_omitted(role, signature, span)]
    piece = drafts.analysis(role, text if isinstance(text, str) else "", span)
    if signature:
        piece.problems.append(drafts.opaque_problem("thinking block", signature, "signature", span))
    return [piece]


OMITTED = ("(omitted thinking: the API returned this thinking block without its text, only its signature, "
           "{size:,} characters of opaque data kept in the source)")


def _omitted(role: str, signature: str, span: Span) -> Draft:
    piece = drafts.analysis(role, OMITTED.format(size=len(signature)), span)
    piece.problems.append(drafts.opaque_problem("omitted thinking block", signature, "signature", span))
    return piece


def _redacted(block: dict[str, Any], span: Span, role: str, builder: Any) -> list[Draft]:
    return [drafts.opaque(role, "redacted thinking", block.get("data") or "", "data", span)]


def _tool_use(block: dict[str, Any], span: Span, role: str, builder: Any) -> list[Draft]:
    name = block.get("name")
    if not isinstance(name, str) or not name:
        recipient = None
    elif block.get("type") == "server_tool_use":
        recipient = name  # Anthropic's own tools keep their names: web_search, code_execution …
    elif block.get("type") == "mcp_tool_use" and isinstance(block.get("server_name"), str):
        recipient = f"{block['server_name']}.{name}"
    else:
        recipient = qualified_tool_name(name)
    call_id = block.get("id") if isinstance(block.get("id"), str) else None
    piece = drafts.call(recipient, drafts.arguments_text(block.get("input")), span, call_id)
    if recipient is None:
        piece.problems.append(Pending("W-JSON-SHAPE", "This tool_use block does not say which tool it calls.", span))
    builder.note_call(call_id, recipient)
    return [piece]


def _tool_result(block: dict[str, Any], span: Span, role: str, builder: Any) -> list[Draft]:
    call_id = block.get("tool_use_id") if isinstance(block.get("tool_use_id"), str) else None
    name = builder.tool_named(call_id)
    piece = drafts.reply(name, flat_text(block.get("content")), span, call_id)
    if block.get("is_error") is True:
        tool = f"The tool {name} " if name else "The tool "
        piece.problems.append(Pending("W-TOOL-ERROR", f"{tool}reported a failure (is_error: true).", span))
    return [piece]


BLOCKS: dict[str, BlockReader] = {
    "thinking": _thinking,
    "redacted_thinking": _redacted,
    "tool_use": _tool_use,
    "server_tool_use": _tool_use,
    "mcp_tool_use": _tool_use,
    "tool_result": _tool_result,
    "mcp_tool_result": _tool_result,
}


def block_reader(kind: Any) -> BlockReader | None:
    """The reader of an Anthropic block type; every server tool's result (`web_search_tool_result`,
    `code_execution_tool_result` …) is a tool result."""
    if not isinstance(kind, str):
        return None
    if kind in BLOCKS:
        return BLOCKS[kind]
    return _tool_result if kind.endswith("_tool_result") else None
