"""The OpenTelemetry GenAI conventions' message parts (gen-ai-input-messages.json, gen-ai-output-messages.json):
`{"role", "parts": [...], "finish_reason"?}`, parts typed `text` (`content`), `reasoning` (`content`),
`tool_call` (`id`, `name`, `arguments`), `tool_call_response` (`id`, `response`; `result` in earlier versions),
and media: `blob` (inline `content`), `uri` (`uri`), `file` (`file_id`), each with `modality` and `mime_type`.

Text is the message's content, reasoning is analysis, a call goes to `functions.<name>`, a response is the reply
of the call its id names. Media are placeholders; any other part type is hidden with W-JSON-UNKNOWN-PART. All
pieces span the attribute `at` that held them (the JSON text of the attribute has no positions of its own).
"""
from __future__ import annotations

from typing import Any

from viewer.model import ROLES, Span
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.media import placeholder
from viewer.parse.json.source import Draft, type_phrase

MEDIA = {"blob": "content", "uri": "uri", "file": "file_id"}
"""Media part types and the key of their data or address."""


def instruction_pieces(parts: list[Any], at: Span) -> list[Draft]:
    """`gen_ai.system_instructions`: a list of parts, the system's."""
    return _parts("system", parts, at, None)


def message_pieces(message: Any, at: Span, builder: Any) -> list[Draft]:
    """One `{"role", "parts"}` message of `gen_ai.input.messages` or `gen_ai.output.messages`."""
    if not isinstance(message, dict):
        return [drafts.unclassified("unknown", None, message, at, "W-JSON-UNKNOWN-ITEM", "A message that is not "
                                                                                         "an object")]
    role = message.get("role")
    found = _parts(role if isinstance(role, str) else "unknown", message.get("parts"), at, builder)
    if role not in ROLES:
        for piece in found:
            piece.fields["role"] = drafts.hidden_role(str(role))
        problem = Pending("W-UNKNOWN-ROLE", f"Unknown role {role!r}; the message is hidden.", at)
        (found[0].problems if found else []).append(problem)
    return found


def _parts(role: str, parts: Any, at: Span, builder: Any) -> list[Draft]:
    if not isinstance(parts, list):
        piece = Draft(dict(role=role, channel="final", content="", end="end"), at)
        piece.problems.append(Pending("W-JSON-MISSING-CONTENT", "This message has no list of parts.", at))
        return [piece]
    found = []
    for part in parts:
        found.extend(_part(role, part, at, builder))
    return found


def _part(role: str, part: Any, at: Span, builder: Any) -> list[Draft]:
    kind = part.get("type") if isinstance(part, dict) and isinstance(part.get("type"), str) else None
    if kind == "text" and isinstance(part.get("content"), str):
        channel = "commentary" if role == "tool" else "final"
        return [Draft(dict(role=role, channel=channel, content=part["content"], end="end"), at)]
    if kind == "reasoning" and isinstance(part.get("content"), str):
        return [drafts.analysis(role, part["content"], at)]
    if kind == "tool_call":
        name = part.get("name")
        recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
        call_id = part.get("id") if isinstance(part.get("id"), str) else None
        if builder is not None:
            builder.note_call(call_id, recipient)
        return [drafts.call(recipient, drafts.arguments_text(part.get("arguments")), at, call_id)]
    if kind == "tool_call_response":
        call_id = part.get("id") if isinstance(part.get("id"), str) else None
        result = part.get("response", part.get("result"))
        name = builder.tool_named(call_id) if builder is not None else None
        return [drafts.reply(name, result if isinstance(result, str) else _shown(result), at, call_id)]
    if kind in MEDIA and role in ROLES:
        return [Draft(dict(role=role, channel="final", content=_placeholder(part), end="end"), at)]
    return [drafts.unclassified(role, kind, part, at, "W-JSON-UNKNOWN-PART",
                                f"A message part {type_phrase(kind, part)}")]


def _placeholder(part: dict[str, Any]) -> str:
    """A media part as the shared placeholder ("[image: image/png, 12 bytes]"); its data never becomes text."""
    word = "image" if part.get("modality") == "image" else "input_audio" if part.get("modality") == "audio" \
        else "file"
    described = {"mime_type": part.get("mime_type"), "file_id": part.get("file_id"), "url": part.get("uri"),
                 "data": part.get("content") if part.get("type") == "blob" else None}
    return placeholder(word, described)


def _shown(value: Any) -> str:
    return flat_text(value) if isinstance(value, list) else shown_json(value) if value is not None else ""
