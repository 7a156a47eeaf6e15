"""Inspect AI's chat messages (`inspect_ai.model`: ChatMessageSystem, User, Assistant, Tool) into messages.

- `content` is text or a list of Content (`inspect_ai._util.content`): `text` (`text`, `refusal`), `reasoning`
  (`reasoning`, `summary`, `signature`, `redacted`), media (`image`, `audio`, `video`, `document`), `tool_use`
  (a provider's server-side tool: `name`, `arguments`, `result`, `error`) and `data` (a provider's payload).
- An assistant's `tool_calls` are `{"id", "function": name, "arguments": {...}, "parse_error"}`.
- A tool message names its call (`tool_call_id`) and function, and reports a failure in `error`
  (`{"type", "message"}`).

Reasoning is analysis; redacted reasoning is opaque (its data stays in the source), as are signatures. Media
are placeholders; `data` and unknown types are hidden with W-JSON-UNKNOWN-PART. An assistant's `model` is its
messages' meta; a message's other members (its `metadata`) are kept (JsonObject.account).
"""
from __future__ import annotations

from typing import Any, cast

from viewer.model import Message, Meta, Span
from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.elements import author
from viewer.parse.json.media import placeholder
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.plain import items_recorded, walk_object
from viewer.parse.json.source import JsonObject, Draft, kind_of, type_phrase

MEDIA = {"image": ("image", "image"), "audio": ("input_audio", "audio"), "video": ("file", "video"),
         "document": ("document", "document")}
"""Media content types: the shared placeholder's kind, and the key of their address or data."""


CLAIMED = ("id", "content", "source", "role", "tool_calls", "model", "tool_call_id", "function", "error", "name")
"""A message's members the readers here read, or its id and `source` (input, generate), Inspect's bookkeeping."""
ATTACHMENT = "attachment://"
"""Inspect's log writer moves large values (images above all) into the sample's `attachments`, leaving
`attachment://<id>` in their place."""


def read_inspect_message(source: JsonObject, builder: Any, attachments: dict[str, Any] | None = None
                         ) -> list[Draft]:
    """One message: its content part by part, then its tool calls (a tool's message is one reply). References
    to the sample's `attachments` are read as the values they stand for."""
    role, _ = author(source)
    if role == "tool":
        return [_reply(source, builder)]
    base = dict(role=role, channel="final", end="end", attachments=attachments or {})
    found = _content(source, base, builder)
    found.extend(_calls(source, builder))
    if not found:
        found = [Draft({**base, "content": ""}, source.span_of("content"))]
    return found


def read_accounted(source: JsonObject, builder: Any, attachments: dict[str, Any] | None = None) -> list[Draft]:
    """read_inspect_message, the model of an assistant's message its meta, and what else it holds kept."""
    found = read_inspect_message(source, builder, attachments)
    model = source.get("model")
    if isinstance(model, str) and model:
        for piece in found:
            piece.fields["meta"] = Meta(model=model)
    source.account(CLAIMED, "message")
    return found


def _plain_members(value: dict[str, Any]) -> bool:
    """Whether a message holds nothing the fast readers leave out: every member claimed (or empty)."""
    return all(key in CLAIMED or item is None or item == {} or item == [] or item == "" for key, item in value.items())


def plain_view(value: dict[str, Any]) -> dict[str, Any] | None:
    """The OpenAI chat message of a message of plain text with no calls, error, attachment, model or other member
    (plain.py reads it fast, to the messages `read_accounted` makes); None for any other."""
    content = value.get("content")
    if type(content) is not str or content.startswith(ATTACHMENT) or value.get("tool_calls") or value.get("error") \
            or value.get("model") or not _plain_members(value):
        return None
    if value.get("role") == "tool":
        return {"role": "tool", "content": content, "tool_call_id": value.get("tool_call_id"),
                "name": value.get("function")}
    return {"role": value.get("role"), "content": content}


def read_plain(value: dict[str, Any], span: Span, builder: Any, turn: int) -> bool:
    """An assistant's message of reasoning and text parts and tool calls (the bulk of a log), added as its
    messages, as read_inspect_message makes them, without its machinery; False (nothing added) for any other
    message, or one that needs more (an attachment, `<think>`, redacted reasoning, a call that is reported).
    tests/parse/json/test_inspect_plain.py reads messages both ways and compares."""
    content, calls, model = value.get("content"), value.get("tool_calls"), value.get("model")
    if value.get("role") != "assistant" or "author" in value or type(value.get("name")) not in _TEXT \
            or type(content) is not list or calls is not None and type(calls) is not list \
            or type(model) not in _TEXT or not _plain_members(value):
        return False
    parts_read = [(_plain_part(part), "content", number) for number, part in enumerate(content)]
    parts_read += [(_plain_call(call), "tool_calls", number) for number, call in enumerate(calls or ())]
    if not parts_read or any(draft is None for draft, _, _ in parts_read):
        return False
    plain_parts = cast("list[tuple[tuple[tuple, Any], str, int]]", parts_read)  # none is None, as just checked
    spans: dict[str, list[Span]] = {}
    if len(plain_parts) > 1 or any(signature for (_, signature), _, _ in plain_parts):
        spans = {"content": [], "tool_calls": []}  # the items of both lists, in one walk of the message
        walkers = {key: items_recorded(listed) for key, listed in spans.items()}
        if walk_object(builder.text, span[0], value, {}, inner=walkers) is None:
            return False
    messages = builder.messages
    meta = Meta(model=model) if model else None
    for (fields, signature), key, number in plain_parts:
        role, content, recipient, channel, explicit, content_type, constrained, call_id, end = fields
        at = span if len(plain_parts) == 1 else spans[key][number]
        message = Message(len(messages), turn, role, content, at[0], at[1], None, recipient, channel, explicit,
                          content_type, constrained, None, call_id, end, meta=meta)
        messages.append(message)
        if signature:
            builder.diagnostics.append(drafts.opaque_problem("reasoning block", signature, "signature",
                                                             spans[key][number]).at(message.index))
        if end == "call":
            builder.note_call(call_id, recipient)
    return True


_TEXT = (str, type(None))


def _plain_part(part: Any) -> tuple[tuple, Any] | None:
    """A text or reasoning part's message fields (role, content, recipient, channel, channel_explicit,
    content_type, constrained, call_id, end) and its signature; None for any other part."""
    if type(part) is not dict:
        return None
    kind, text = part.get("type"), part.get("text") if part.get("type") == "text" else part.get("reasoning")
    if type(text) is not str or not text:
        return None
    if kind == "text" and not text.startswith(ATTACHMENT) and "<think>" not in text and "</think>" not in text:
        return ("assistant", text, None, "final", False, None, False, None, "end"), None
    if kind == "reasoning" and part.get("redacted") is not True:
        return ("assistant", text, None, "analysis", True, None, False, None, "end"), part.get("signature")
    return None


def _plain_call(call: Any) -> tuple[tuple, None] | None:
    """A tool call's message fields, as _calls makes them; None when it would be reported."""
    if type(call) is not dict or type(name := call.get("function")) is not str or not name \
            or isinstance(call.get("parse_error"), str):
        return None
    call_id = call.get("id") if isinstance(call.get("id"), str) else None
    return ("assistant", drafts.arguments_text(call.get("arguments")), qualified_tool_name(name), "commentary",
            True, "json", True, call_id, "call"), None


def _content(source: JsonObject, base: dict[str, Any], builder: Any) -> list[Draft]:
    attachments = base.pop("attachments")
    value = _resolved(source.get("content"), attachments)
    if isinstance(value, str):
        return text_pieces(value, base, source.span_of("content"))
    if not isinstance(value, list):
        if value is not None:
            source.problem("W-JSON-FIELD-TYPE", f"The content is {kind_of(value)}, not text or a list; it was "
                                                "not read.", source.span_of("content"))
        return []
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found: list[Draft] = []
    for at, part in enumerate(value):
        span = spans[at] if at < len(spans) else source.span_of("content")
        found.extend(_part(part, span, base, builder, attachments))
    return found


def _resolved(value: Any, attachments: dict[str, Any]) -> Any:
    if isinstance(value, str) and value.startswith(ATTACHMENT):
        return attachments.get(value[len(ATTACHMENT):], value)
    return value


def _part(part: Any, span: Span, base: dict[str, Any], builder: Any, attachments: dict[str, Any]) -> list[Draft]:
    kind = part.get("type") if isinstance(part, dict) and isinstance(part.get("type"), str) else None
    role = base["role"]
    if kind == "text" and isinstance(part.get("text"), str):
        return text_pieces(_resolved(part["text"], attachments), base, span)
    if kind == "reasoning":
        return [_reasoning(part, span, role)]
    if kind in MEDIA and isinstance(part.get(MEDIA[kind][1]), str):
        word, key = MEDIA[kind]
        address = _resolved(part[key], attachments)
        address = address if isinstance(address, str) else part[key]
        described = {"url": address} if address.startswith(("http", "data:")) else {"filename": address}
        described.update(mime_type=part.get("mime_type"), format=part.get("format"))
        return [Draft({**base, "content": placeholder(word, described)}, span)]
    if kind == "tool_use":
        return _server_tool(part, span, builder)
    return [drafts.unclassified(role, kind, part, span, "W-JSON-UNKNOWN-PART",
                                f"A content part {type_phrase(kind, part)}")]


def _reasoning(part: dict[str, Any], span: Span, role: str) -> Draft:
    if part.get("redacted") is True:
        piece = drafts.opaque(role, "redacted reasoning", part.get("reasoning") or "", "reasoning", span)
        if isinstance(part.get("summary"), str) and part["summary"]:
            piece.fields["content"] += "\n\n" + part["summary"]
        return piece
    text = part.get("reasoning")
    piece = drafts.analysis(role, text if isinstance(text, str) else "", span)
    if part.get("signature"):
        piece.problems.append(drafts.opaque_problem("reasoning block", part["signature"], "signature", span))
    return piece


def _server_tool(part: dict[str, Any], span: Span, builder: Any) -> list[Draft]:
    """A tool the provider ran (web search, code execution, an MCP call): its call and its result."""
    name = part.get("name") if isinstance(part.get("name"), str) else part.get("tool_type")
    context = part.get("context")
    recipient = f"{context}.{name}" if isinstance(context, str) and isinstance(name, str) else \
        name if isinstance(name, str) else None
    call_id = part.get("id") if isinstance(part.get("id"), str) else None
    call = drafts.call(recipient, drafts.arguments_text(part.get("arguments")), span, call_id)
    builder.note_call(call_id, recipient)
    reply = drafts.reply(recipient, flat_text(part.get("result")), span, call_id)
    if part.get("error"):
        reply.problems.append(Pending("W-TOOL-ERROR", f"The tool {recipient or ''} reported an error: "
                                                      f"{flat_text(part['error'])[:200]}", span))
    return [call, reply]


def _calls(source: JsonObject, builder: Any) -> list[Draft]:
    calls = source.get("tool_calls")
    if not isinstance(calls, list):
        return []
    node = source.node_of("tool_calls")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found = []
    for at, call in enumerate(calls):
        span = spans[at] if at < len(spans) else source.span_of("tool_calls")
        if not isinstance(call, dict):
            source.problem("W-JSON-SHAPE", f"A tool call is {kind_of(call)}, not an object; it was skipped.", span)
            continue
        name = call.get("function")
        recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        piece = drafts.call(recipient, drafts.arguments_text(call.get("arguments")), span, call_id)
        if recipient is None:
            piece.problems.append(Pending("W-JSON-SHAPE", "This tool call does not say which function it calls.",
                                          span))
        if isinstance(call.get("parse_error"), str):
            piece.problems.append(Pending("W-JSON-SHAPE", "Inspect could not parse the model's arguments: "
                                                          f"{call['parse_error'][:200]}", span))
        builder.note_call(call_id, recipient)
        found.append(piece)
    return found


def _reply(source: JsonObject, builder: Any) -> Draft:
    call_id = source.text("tool_call_id")
    function = source.text("function")
    name = qualified_tool_name(function) if function else builder.tool_named(call_id)
    content = flat_text(source.get("content"))
    error = source.get("error")
    message = error.get("message") if isinstance(error, dict) else None
    if isinstance(message, str) and not content:
        content = message
    piece = drafts.reply(name, content, source.span, call_id)
    if error:
        kind = error.get("type") if isinstance(error, dict) else None
        code = "E-TOOL-TIMEOUT" if kind == "timeout" else "W-TOOL-ERROR"
        piece.problems.append(Pending(code, f"The tool {name or ''} failed ({kind or 'error'}): "
                                            f"{(message or '')[:200]}", source.span))
    return piece
