"""Gemini API contents (gemini.py reads the requests and responses around them): `{"role": "user" | "model",
"parts": […]}`, one turn (no role: the user's, as the API reads it), in the REST API's camelCase or the Python
SDK's snake_case dumps (every field written, most null); its parts, in order:
- `text` is the content; with `thought: true` it is reasoning (analysis);
- `thoughtSignature` is opaque data (W-JSON-OPAQUE-DATA), on whichever part carries it;
- `functionCall` (`name`, `args`, `id`) calls `functions.<name>`; `functionResponse` (`name`, `response`, `id`)
  is its reply (paired by id, else by name); a `response` holding `error` is W-TOOL-ERROR;
- `executableCode` calls the built-in `code_execution` with the code; `codeExecutionResult` is its reply (an
  outcome other than OUTCOME_OK is W-TOOL-ERROR);
- `inlineData` and `fileData` are media placeholders; `videoMetadata` and other metadata say nothing;
- any other part is hidden with W-JSON-UNKNOWN-PART.
"""
from __future__ import annotations

import functools
import re
from typing import Any

from viewer.model import Role, Span
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import join
from viewer.parse.json.media import placeholder
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.source import JsonObject, Draft

ROLES: dict[str, Role] = {"user": "user", "model": "assistant", "function": "tool", "tool": "tool"}
CONTENT_KINDS = ("text", "function_call", "function_response", "executable_code", "code_execution_result",
                 "inline_data", "file_data")
METADATA = ("thought", "thought_signature", "video_metadata", "media_resolution", "part_metadata")
"""Part fields that describe a part rather than being its content."""
CODE_TOOL = "code_execution"
_CAPITAL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def is_content(value: dict) -> bool:
    """A Gemini content: `parts` where a message has `content`."""
    return "parts" in value and "content" not in value and "type" not in value


def is_element(value: dict) -> bool:
    return is_content(value)


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    return read_content(source, builder)


def claimed(value: dict) -> tuple[str, ...]:
    return ("role", "parts")


def may_split(value: dict) -> bool:
    """Whether a content may give several messages or a diagnostic about one part (then the importer reads its
    parts' spans at once rather than reading it twice)."""
    parts = value.get("parts")
    return isinstance(parts, list) and (len(parts) > 1 or any(
        isinstance(part, dict) and (part.get("thoughtSignature") or part.get("thought_signature")) for part in parts))


def read_content(source: JsonObject, builder: Any) -> list[Draft]:
    """One content's messages, part by part (see the module docstring)."""
    role = _role(source)
    parts = source.get("parts")
    if not isinstance(parts, list):
        source.problem("W-JSON-MISSING-CONTENT", "This content has no list of parts.")
        return [Draft(dict(role=role, channel="final", content="", end="end"), None)]
    node = source.node_of("parts")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    base = dict(role=role, channel="commentary" if role == "tool" else "final", end="end")
    found: list[Draft] = []
    run: list[tuple[str, bool, Span]] = []
    for at, part in enumerate(parts):
        span = spans[at] if at < len(spans) else source.span_of("parts")
        read = _part(snake(part), span, role, builder, source)
        if isinstance(read, tuple):
            run.append((*read, span))
            continue
        found.extend(_run(run, base))
        run = []
        found.extend(read)
    found.extend(_run(run, base))
    return found or [Draft({**base, "content": ""}, source.span_of("parts"))]


def _role(source: JsonObject) -> str:
    role = source.get("role")
    if role is None:
        return "user"
    if isinstance(role, str) and role in ROLES:
        return ROLES[role]
    shown = role if isinstance(role, str) else shown_json(role)
    source.problem("W-UNKNOWN-ROLE", f"Unknown role {shown!r}; it was kept as written.", source.span_of("role"))
    return shown


def _part(part: Any, span: Span, role: str, builder: Any, source: JsonObject) -> tuple[str, bool] | list[Draft]:
    """A text or media part as (text, is a placeholder); any other part as its messages."""
    if not isinstance(part, dict):
        return [_unknown(role, part, span)]
    kind = next((key for key in CONTENT_KINDS if key in part), None)
    signature = part.get("thought_signature")
    if kind is None:
        if signature and not set(part) - set(METADATA):
            return [drafts.opaque(role, "thought signature", signature, "thoughtSignature", span)]
        return [_unknown(role, part, span)]
    thought = part.get("thought") is True
    if kind in ("inline_data", "file_data"):
        shown = placeholder(*_media(snake(part[kind])))
        _keep_address(snake(part[kind]), source)
        found = [drafts.analysis(role, shown, span)] if thought else None
    elif kind == "text" and not thought:
        if not isinstance(part["text"], str):
            return [_unknown(role, part, span)]
        shown, found = part["text"], None
    else:
        found = _READERS.get(kind, _thought)(snake(part[kind]) if kind != "text" else part[kind], span, role,
                                             builder)
    if found is None:  # the answer itself (Gemini 3 signs answers too: the signature is opaque, the text shown)
        if signature:
            source.problems.append(drafts.opaque_problem("thought signature", signature, "thoughtSignature", span))
        return shown, kind != "text"
    if signature and found:
        found[0].problems.append(drafts.opaque_problem("thought signature", signature, "thoughtSignature", span))
    return found


def _thought(text: Any, span: Span, role: str, builder: Any) -> list[Draft]:
    """A text part that is reasoning (`thought: true`)."""
    return [drafts.analysis(role, text if isinstance(text, str) else shown_json(text), span)]


def _call(call: Any, span: Span, role: str, builder: Any) -> list[Draft]:
    name = call.get("name") if isinstance(call, dict) else None
    recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
    call_id = call.get("id") if isinstance(call, dict) and isinstance(call.get("id"), str) else None
    piece = drafts.call(recipient, shown_json(call.get("args") or {}) if isinstance(call, dict) else "", span,
                        call_id)
    if recipient is None:
        piece.problems.append(Pending("W-JSON-SHAPE", "This functionCall does not say which function it calls.",
                                      span))
    return [piece]


def _response(reply: Any, span: Span, role: str, builder: Any) -> list[Draft]:
    reply = reply if isinstance(reply, dict) else {}
    call_id = reply.get("id") if isinstance(reply.get("id"), str) else None
    name = reply.get("name")
    tool = qualified_tool_name(name) if isinstance(name, str) and name else builder.tool_named(call_id)
    response = reply.get("response")
    piece = drafts.reply(tool, shown_json(response) if response is not None else "", span, call_id)
    if isinstance(response, dict) and response.get("error") is not None:
        piece.problems.append(Pending("W-TOOL-ERROR", f"The function {tool or '(unnamed)'} reported an error.",
                                      span))
    return [piece]


def _code(code: Any, span: Span, role: str, builder: Any) -> list[Draft]:
    written = code.get("code") if isinstance(code, dict) else None
    return [drafts.call(CODE_TOOL, written if isinstance(written, str) else shown_json(code), span, None,
                        json_arguments=False)]


def _result(result: Any, span: Span, role: str, builder: Any) -> list[Draft]:
    result = result if isinstance(result, dict) else {}
    output = result.get("output")
    piece = drafts.reply(CODE_TOOL, output if isinstance(output, str) else "", span, None)
    if result.get("outcome") not in (None, "OUTCOME_OK"):
        piece.problems.append(Pending("W-TOOL-ERROR", f"The code execution ended with {result['outcome']!r}.",
                                      span))
    return [piece]


_READERS = {"function_call": _call, "function_response": _response, "executable_code": _code,
            "code_execution_result": _result}


def _media(data: Any) -> tuple[str, dict[str, Any]]:
    """Inline data or a file reference as a media placeholder's kind and facts."""
    data = data if isinstance(data, dict) else {}
    mime = data.get("mime_type")
    kind = "image" if isinstance(mime, str) and mime.startswith("image/") else "file"
    return kind, {"mime_type": mime, "data": data.get("data"), "file_url": data.get("file_uri"),
                  "filename": data.get("display_name")}


def _keep_address(data: Any, source: JsonObject) -> None:
    """A file's address the placeholder does not name (a `gs://` one: only web addresses are named where the
    default view may show them) is kept for the debug view, in the header (`per_turn`)."""
    address = data.get("file_uri") if isinstance(data, dict) else None
    if isinstance(address, str) and address and not address.startswith(("https://", "http://")):
        source.kept.setdefault("file_uris", []).append(address)


def _unknown(role: str, part: Any, span: Span) -> Draft:
    keys = sorted(key for key in part if key not in METADATA) if isinstance(part, dict) else []
    what = f"A Gemini part with {', '.join(map(repr, keys))}" if keys else "A Gemini part with no content"
    shown = {key: value for key, value in part.items() if key != "thought_signature"} if keys else part
    return drafts.unclassified(role, keys[0] if keys else None, shown, span, "W-JSON-UNKNOWN-PART", what)


def _run(run: list[tuple[str, bool, Span]], base: dict[str, Any]) -> list[Draft]:
    if not run:
        return []
    return text_pieces(join([(text, alone) for text, alone, _ in run]), base, (run[0][2][0], run[-1][2][1]))


def snake(value: Any) -> Any:
    """An object's keys in snake_case with its null members left out: the REST API's camelCase and the SDK's
    dumps (every field written, most null) read the same."""
    if not isinstance(value, dict):
        return value
    return {_snake_key(key): item for key, item in value.items() if item is not None}


@functools.lru_cache(maxsize=1024)
def _snake_key(key: str) -> str:
    return _CAPITAL.sub(r"_\1", key).lower()
