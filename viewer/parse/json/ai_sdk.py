"""Vercel AI SDK messages (vercel/ai, `UIMessage` in packages/ai/src/ui): what `useChat` keeps and apps store.

v5: `{"id", "role": "system" | "user" | "assistant", "parts": [...], "metadata"?}` with parts
- `text` (`text`, `state`: `streaming` while it arrives) — the message's content;
- `reasoning` (`text`, `state`) — analysis;
- `tool-<name>` and `dynamic-tool` (`toolName`): `toolCallId`, `state` (`input-streaming`, `input-available`,
  `approval-requested`, `output-available`, `output-error`, `output-denied`), `input`, `output`, `errorText` —
  a call to `functions.<name>` and, once there is an outcome, the tool's reply;
- `source-url` (`url`, `title`) and `source-document` (`title`, `mediaType`) — citations, hidden as commentary;
- `file` (`mediaType`, `url`, `filename`) — a placeholder in the content; `step-start` — a boundary, no message;
- `data-<name>` (an app's own payload) and anything else — hidden with W-JSON-UNKNOWN-PART.

v4: `{"id", "role", "content": text, "reasoning"?, "toolInvocations"?: [{"state": "partial-call" | "call" |
"result", "toolCallId", "toolName", "args", "result"}], "experimental_attachments"?, "parts"?}`; its parts are
`text`, `reasoning` (`reasoning`, `details` with `text` or `redacted` entries), `tool-invocation`
(`toolInvocation`), `source` (`source`), `file` (`mimeType`, `data`), `step-start`. When a v4 message has parts,
they are read and its `content` (their text again) stays in the source.

A part still streaming (`state: streaming`, `input-streaming`, `partial-call`) was cut: E-STREAM-TRUNCATED.
"""
from __future__ import annotations

from typing import Any

from viewer.model import Span
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts, response_meta
from viewer.parse.json.elements import author
from viewer.parse.json.media import placeholder
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.source import JsonObject, Draft, type_phrase

KNOWN_PARTS = frozenset(("text", "reasoning", "dynamic-tool", "source-url", "source-document", "file", "step-start",
                         "tool-invocation", "source"))
STREAMING = frozenset(("streaming", "input-streaming", "partial-call"))
OUTCOMES = {"output-available": "output", "output-error": "errorText", "output-denied": None, "result": "result"}
"""Tool states that end a call, and the key of the outcome (a denied call has none)."""


def is_ui_message(value: dict[str, Any]) -> bool:
    """A v5 UIMessage (typed parts) or a v4 message with tool invocations."""
    if "role" not in value:
        return False
    if isinstance(value.get("toolInvocations"), list) or isinstance(value.get("experimental_attachments"), list):
        return True
    parts = value.get("parts")
    return isinstance(parts, list) and any(_is_sdk_part(part) for part in parts)


def _is_sdk_part(part: Any) -> bool:
    kind = part.get("type") if isinstance(part, dict) else None
    return isinstance(kind, str) and (kind in KNOWN_PARTS or kind.startswith(("tool-", "data-")))


def is_element(value: dict[str, Any]) -> bool:
    return is_ui_message(value)


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    return read_ui_message(source, builder)


CLAIMED = ("id", "role", "parts", "content", "reasoning", "toolInvocations", "experimental_attachments",
           "createdAt")
"""A message's members that read_ui_message reads (a v4 message's `content` repeats its parts' text), or its id
and time, which the SDK writes for its own bookkeeping."""


def claimed(value: dict[str, Any]) -> tuple[str, ...]:
    return CLAIMED


def read_ui_message(source: JsonObject, builder: Any) -> list[Draft]:
    role, _ = author(source)
    if isinstance(source.get("parts"), list):
        found = _parts(source, role, builder)
    else:
        found = _v4(source, role, builder)
    found = found or [Draft(dict(role=role, channel="final", content="", end="end"), source.span)]
    return response_meta.on_drafts(found, response_meta.of_message(source.value))  # a v4 message's `createdAt`


def _parts(source: JsonObject, role: str, builder: Any) -> list[Draft]:
    node = source.node_of("parts")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found: list[Draft] = []
    for at, part in enumerate(source.get("parts")):
        span = spans[at] if at < len(spans) else source.span_of("parts")
        found.extend(_part(part, span, role, builder))
    return found


def _part(part: Any, span: Span, role: str, builder: Any) -> list[Draft]:
    kind = part.get("type") if isinstance(part, dict) else None
    base = dict(role=role, channel="final", end="end")
    if kind == "text" and isinstance(part.get("text"), str):
        return _streaming(text_pieces(part["text"], base, span), part.get("state"), span)
    if kind == "reasoning":
        text = part.get("text", part.get("reasoning"))
        found = [drafts.analysis(role, text if isinstance(text, str) else "", span)]
        details = part.get("details")
        for detail in details if isinstance(details, list) else []:  # v4: redacted reasoning is opaque
            if isinstance(detail, dict) and detail.get("type") == "redacted":
                found.append(drafts.opaque(role, "redacted reasoning", detail.get("data") or "", "data", span))
        return _streaming(found, part.get("state"), span)
    if isinstance(kind, str) and (kind.startswith("tool-") and kind != "tool-invocation" or kind == "dynamic-tool"):
        name = part.get("toolName") if kind == "dynamic-tool" else kind.removeprefix("tool-")
        return _tool(part, name, part.get("input", part.get("rawInput")), span, builder)
    if kind == "tool-invocation" and isinstance(part.get("toolInvocation"), dict):
        invocation = part["toolInvocation"]
        return _tool(invocation, invocation.get("toolName"), invocation.get("args"), span, builder)
    if kind in ("source-url", "source-document", "source"):
        described = part.get("source") if isinstance(part.get("source"), dict) else part
        facts = [described.get(key) for key in ("title", "url", "mediaType", "filename")]
        text = "[source: " + ", ".join(fact for fact in facts if isinstance(fact, str)) + "]"
        return [Draft(dict(role=drafts.hidden_role(role), channel="commentary", content=text, end="end"), span)]
    if kind == "file":
        described = {"url": part.get("url", part.get("data")), "filename": part.get("filename"),
                     "mime_type": part.get("mediaType", part.get("mimeType"))}
        return [Draft({**base, "content": placeholder("file", described)}, span)]
    if kind == "step-start":
        return []
    return [drafts.unclassified(role, kind, part, span, "W-JSON-UNKNOWN-PART",
                                f"A message part {type_phrase(kind, part)}")]


def _tool(part: dict[str, Any], name: Any, arguments: Any, span: Span, builder: Any) -> list[Draft]:
    """A tool part: its call, and its reply once the call has an outcome."""
    recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
    call_id = part.get("toolCallId") if isinstance(part.get("toolCallId"), str) else None
    state = part.get("state") if isinstance(part.get("state"), str) else None
    call = drafts.call(recipient, drafts.arguments_text(arguments), span, call_id)
    builder.note_call(call_id, recipient)
    if recipient is None:
        call.problems.append(Pending("W-JSON-SHAPE", "This tool part does not say which tool it calls.", span))
    found = _streaming([call], state, span)
    if state in OUTCOMES:
        key = OUTCOMES[state]
        outcome = part.get(key) if key else "(the user denied this call)"
        reply = drafts.reply(recipient, outcome if isinstance(outcome, str) else shown_json(outcome), span, call_id)
        if state == "output-error":
            reply.problems.append(Pending("W-TOOL-ERROR", f"The tool {name} reported an error.", span))
        found.append(reply)
    return found


def _streaming(found: list[Draft], state: Any, span: Span) -> list[Draft]:
    """A part saved while it was still streaming is cut: its message ends `eof`."""
    if isinstance(state, str) and state in STREAMING and found:
        found[-1].fields["end"] = "eof"
        found[-1].problems.append(Pending("E-STREAM-TRUNCATED", f"This part was saved while still streaming "
                                                                f"(state {state!r}); it may be incomplete.", span))
    return found


def _v4(source: JsonObject, role: str, builder: Any) -> list[Draft]:
    """A v4 message without parts: reasoning, content, attachments, then tool invocations."""
    base = dict(role=role, channel="final", end="end")
    found: list[Draft] = []
    if isinstance(source.get("reasoning"), str) and source.get("reasoning"):
        found.append(drafts.analysis(role, source.get("reasoning"), source.span_of("reasoning")))
    found.extend(text_pieces(source.text("content") or "", base, source.span_of("content")))
    attachments = source.get("experimental_attachments")
    for attachment in attachments if isinstance(attachments, list) else []:
        if isinstance(attachment, dict):
            described = {"url": attachment.get("url"), "filename": attachment.get("name"),
                         "mime_type": attachment.get("contentType")}
            found.append(Draft({**base, "content": placeholder("file", described)},
                               source.span_of("experimental_attachments")))
    node = source.node_of("toolInvocations")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    invocations = source.get("toolInvocations")
    for at, invocation in enumerate(invocations if isinstance(invocations, list) else []):
        span = spans[at] if at < len(spans) else source.span_of("toolInvocations")
        if isinstance(invocation, dict):
            found.extend(_tool(invocation, invocation.get("toolName"), invocation.get("args"), span, builder))
    return found
