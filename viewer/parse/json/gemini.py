"""The Gemini API (generateContent): requests `{"systemInstruction", "contents", "tools"}` and responses
`{"candidates": [{"content"}], "usageMetadata"}`, in the REST API's camelCase and in the Python SDK's snake_case
dumps (`model_dump()`: every field present, most null; a request's system prompt and tools under `config`; a
response's `automatic_function_calling_history` holds the turns the SDK ran before the answer). Each content is
an element, read by gemini_content.py; the system instruction is the system prompt, the function declarations
declared tools, and a blocked prompt W-API-ERROR.
"""
from __future__ import annotations

from typing import Any

from viewer.model import make_diagnostic
from viewer.parse.common import shown_json
from viewer.parse.json import gemini_chunks, stream_meta
from viewer.parse.json.gemini_content import snake
from viewer.parse.json.positions import Member, Node
from viewer.parse.json.record_helpers import envelope, items, member
from viewer.parse.json.unpacked import Unpacked

HISTORY = ("automatic_function_calling_history", "automaticFunctionCallingHistory")
SYSTEM = ("systemInstruction", "system_instruction")


def is_record(value: dict) -> bool:
    return isinstance(value.get("contents"), list) or isinstance(value.get("candidates"), list)


def in_datasets(value: dict) -> bool:
    """A request or a whole answer (a chunk before its answer's last is a piece of a stream)."""
    return is_record(value) and not gemini_chunks.is_partial(value)


def reading(node: Node, text: str, inner: object = None) -> Unpacked:
    found = Unpacked([], envelope(node, "contents", "candidates", "config", *HISTORY, *SYSTEM), prompts_first=True)
    config = member(text, node, "config")
    holders = [node] + ([config] if config is not None and isinstance(config.value, dict) else [])
    for holder in holders[1:]:
        found.envelope.update(envelope(holder, *SYSTEM))
    for holder in holders:
        _system(holder, found)
        _declared(holder, found)
    for key in ("contents", *HISTORY):
        found.elements.extend(items(text, member(text, node, key, 1), 0))
    candidates = items(text, member(text, node, "candidates", 1), 1)
    for number, candidate in enumerate(candidates):
        content = candidate.members.get("content")
        if content is not None and isinstance(content.node.value, dict):
            found.elements.append(content.node)
            _candidate_meta(found, node.value, candidate, number == len(candidates) - 1)
    _blocked(node, found)
    return found


CANDIDATE_READ = ("content", "finishReason", "finish_reason", "index")


def _candidate_meta(found: Unpacked, response: dict, candidate: Node, last: bool) -> None:
    """A response's model, id and usage (`last`: for its last candidate) and the candidate's finish reason as the
    meta of the candidate's messages; the candidate's other members (safety ratings, citations, grounding) in the
    header, under `candidate <index>`."""
    value = candidate.value
    stop = value.get("finishReason", value.get("finish_reason"))
    stream_meta.mark(found, len(found.elements) - 1, stream_meta.gemini([response], stop, last))
    rest = {key: item for key, item in value.items() if key not in CANDIDATE_READ and item is not None}
    if rest:
        found.envelope[f"candidate {value.get('index', len(found.elements) - 1)}"] = Member(
            Node(rest, candidate.span), candidate.span)


def _system(holder: Node, found: Unpacked) -> None:
    """The system instruction (a content, its parts, or text) as the envelope's `system` prompt."""
    for key in SYSTEM:
        written = holder.members.get(key)
        if written is None or written.node.value is None:
            continue
        value = written.node.value
        parts = value.get("parts") if isinstance(value, dict) else value
        found.envelope["system"] = Member(Node(parts, written.node.span), written.span)


def _declared(holder: Node, found: Unpacked) -> None:
    """`tools: [{"functionDeclarations": [{name, parameters}]}]` as declared tools (conversation.py reads the
    envelope's `declared`; the `tools` as written stay in the header), each schema as JSON Schema: the OpenAPI
    subset's `OBJECT` is `object`, and the nulls of an SDK dump are left out."""
    written = holder.members.get("tools")
    if written is None or not isinstance(written.node.value, list):
        return
    declared = []
    for tool in written.node.value:
        listed = snake(tool).get("function_declarations") if isinstance(tool, dict) else None
        for function in listed if isinstance(listed, list) else []:
            function = snake(function)
            schema = function.get("parameters_json_schema", function.get("parameters"))
            if isinstance(function.get("name"), str) and isinstance(schema, dict):
                declared.append({"name": function["name"], "parameters": _json_schema(schema)})
    if declared:
        found.envelope["declared"] = Member(Node(declared, written.node.span), written.span)


def _json_schema(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: value.lower() if key == "type" and isinstance(value, str) else _json_schema(value)
            for key, value in schema.items() if value is not None}


def _blocked(node: Node, found: Unpacked) -> None:
    """A prompt the API blocked has no candidates, only `promptFeedback.blockReason`."""
    for key in ("promptFeedback", "prompt_feedback"):
        feedback = node.members.get(key)
        if feedback is None:
            continue
        value = feedback.node.value
        reason = value.get("blockReason", value.get("block_reason")) if isinstance(value, dict) else None
        if reason:
            found.notes.append(make_diagnostic("W-API-ERROR", feedback.span,
                                               f"The API blocked the prompt: {shown_json(reason)[:200]}."))
