"""Tool calls in a JSON message: OpenAI / OpenChatML 2.0 `tool_calls` and OpenChatML 2.2 `tool_call`."""
from __future__ import annotations

from typing import Any

from viewer.model import Span
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.json.source import JsonObject, Draft, kind_of

CONSTRAIN = "<|constrain|>"
LOOK_BACK = 1000
"""Messages looked back over for the calls a reply without an id answers."""


def call_pieces(source: JsonObject, role: str, channel: str | None) -> list[Draft]:
    """A message per tool call of the element, 2.0 calls first."""
    call_channel = channel if channel in ("analysis", "commentary") else "commentary"
    calls = _listed_calls(source)
    node = source.node_of("tool_calls")
    items = node.items if node is not None and node.items else ()
    pieces: list[Draft] = []
    for at, call in enumerate(calls):
        span = items[at].span if at < len(items) else source.span_of("tool_calls")
        pieces.extend(_call_piece(call, span, role, call_channel, source, openai=True))
    single = source.get("tool_call")
    if single is not None:
        if calls:
            source.problem("W-JSON-MIXED-CALLS", "This message has both 'tool_calls' (2.0) and 'tool_call' (2.2), "
                                                 "which OpenChatML 2.2 forbids in one turn; both were read.")
        pieces.extend(_call_piece(single, source.span_of("tool_call"), role, call_channel, source, openai=False))
    return pieces


def _listed_calls(source: JsonObject) -> list[Any]:
    """The OpenAI-shaped `tool_calls` as a list (a single object is a list of one); anything else is reported
    and read as none."""
    calls = source.get("tool_calls")
    if calls is None:
        return []
    if isinstance(calls, dict):
        return [calls]
    if not isinstance(calls, list):
        source.problem("W-JSON-FIELD-TYPE",
                       f"The field 'tool_calls' should be a list but is {kind_of(calls)}; it was skipped.",
                       source.span_of("tool_calls"))
        return []
    return calls


def _call_piece(call: Any, span: Span, role: str, channel: str, source: JsonObject, openai: bool) -> list[Draft]:
    if not isinstance(call, dict):
        source.problem("W-JSON-SHAPE", f"A tool call is {kind_of(call)}, not an object; it was skipped.", span)
        return []
    holder = JsonObject(call, span)
    content_type: str | None
    if openai:
        function = JsonObject(call["function"], span) if isinstance(call.get("function"), dict) else holder
        name = function.text("name")
        recipient = qualified_tool_name(name) if name else None
        content_type, constrained = "json", True
    else:
        function = holder
        recipient = holder.text("recipient")
        content_type, constrained = read_content_type(holder.text("content_type"))
        constrained = constrained or (content_type or "").lower() == "json"
    if recipient is None:
        holder.problem("W-JSON-SHAPE", "This tool call does not say which tool it calls.")
    fields = dict(role=role, recipient=recipient, channel=channel, channel_explicit=True,
                  content_type=content_type, constrained=constrained,
                  call_id=holder.text("id") or holder.text("call_id"),
                  content=_arguments(function), end="call")
    return [Draft(fields, span, holder.problems + (function.problems if function is not holder else []))]


def _arguments(function: JsonObject) -> str:
    """Arguments are JSON text by contract; some producers (Ollama) write the object itself."""
    arguments = function.get("arguments")
    if arguments is None:
        return ""
    if isinstance(arguments, (dict, list)):
        return shown_json(arguments)
    return function.text("arguments") or ""


def read_content_type(written: str | None) -> tuple[str | None, bool]:
    """`<|constrain|>json` (openai-harmony's form) is the type json, constrained."""
    if written is None:
        return None, False
    stripped = written.strip()
    if stripped.startswith(CONSTRAIN):
        return stripped[len(CONSTRAIN):].strip() or None, True
    return stripped or None, False


def awaiting_replies(messages: list[Any]) -> list[str | None]:
    """The tools of the calls of the last calling turn that no reply has answered yet, in order: what the next
    replies answer when a format's replies name neither call nor tool (ShareGPT's observations, LLaMA-Factory's
    tool messages). Nothing when something other than reasoning, calls and replies came after those calls."""
    calls: list[str | None] = []
    replies = 0
    for message in reversed(messages[-LOOK_BACK:]):
        if message.end == "call" and message.role == "assistant":
            calls.append(message.recipient)
        elif calls:
            break
        elif message.role == "tool":
            replies += 1
        elif message.channel != "analysis":
            return []
    calls.reverse()
    return calls[replies:] if replies < len(calls) else calls[-1:]
