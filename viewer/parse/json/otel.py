"""OpenTelemetry GenAI traces: the spans an instrumented client writes, read as one conversation in time order.

Three containers (facts from open-telemetry/semantic-conventions, `docs/gen-ai/`, and OpenLLMetry):
- OTLP JSON, `{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}`, one document or one per line (the
  collector's file exporter); attributes are `[{"key", "value": {"stringValue" | "intValue" | …}}]`.
- The Python SDK's console exporter: span objects one after another (`name`, `context.trace_id`, `start_time`,
  `attributes` as a plain object).
- In either, the conventions' messages are JSON text inside attribute values: `gen_ai.system_instructions`
  (a list of parts), `gen_ai.input.messages` and `gen_ai.output.messages` (lists of `{"role", "parts"}`; parts
  are otel_parts.py's). OpenLLMetry writes them flat instead: `gen_ai.prompt.<i>.role` / `.content` /
  `.tool_call_id` / `.tool_calls.<j>.name|arguments|id`, and the same under `gen_ai.completion.<i>`.

A trace is one conversation, its spans read in time order; a file of several traces is a dataset of their
conversations, in the order the traces first appear (json/__init__.py). A chat span's input repeats the history
its trace's earlier spans already gave: a message of an input is new only when the history holds fewer of it than
the input does (so a user who says "yes" twice keeps both). Tool replies and calls are known by their call id, so
an `execute_tool` span (`gen_ai.tool.call.id`, `.arguments`, `.result`) and the next chat span's
`tool_call_response` give one reply. Each span is one turn (numbered by its source position among its trace's
spans); its messages span the attribute they came from. A span with no GenAI content (an HTTP call, an agent's
wrapper) gives no message: it stays in the frame.

What a span says besides its messages is kept: its response's model (`gen_ai.response.model`, else the request's),
id, finish reasons and token counts (`gen_ai.usage.*`) are the meta of the messages it answered with; the tools
a request declared (`gen_ai.tool.definitions`, JSON text) are declared and kept in the header (`tools`); and each
span's name, its scope's name and every attribute not read as a message are in the header, in time order
(`otel.span_details`), with the resource's attributes (`otel.resources`).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from viewer.model import Meta, Span, Transcript, Usage, make_diagnostic
from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.json import drafts, response_meta
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.elements import read_message
from viewer.parse.json.fields import object_in
from viewer.parse.json.otel_parts import instruction_pieces, message_pieces
from viewer.parse.json.positions import Node, read_value
from viewer.parse.json.source import JsonObject, Draft
from viewer.parse.json.tools import declared_tools
from viewer.parse.json.unpacked import Unpacked, conversation_transcript, frame, with_unread_text

MESSAGE_KEYS = ("gen_ai.system_instructions", "gen_ai.input.messages", "gen_ai.output.messages")
_FLAT = re.compile(r"gen_ai\.(prompt|completion)\.(\d{1,9})\.(.+)")
_FLAT_CALL = re.compile(r"tool_calls\.(\d{1,9})\.(?:function\.)?(name|arguments|id)")
TOOL_KEYS = ("gen_ai.tool.call.arguments", "gen_ai.tool.call.result")
SHOWN_KEYS = (*MESSAGE_KEYS, *TOOL_KEYS, "gen_ai.tool.definitions")
"""Attributes shown as messages or tool definitions: the rest of a span's attributes go in the header."""
OTLP_DEPTH = 8
"""Levels of an OTLP document read with spans: resourceSpans, scopeSpans, spans, down to each attribute."""


@dataclass(slots=True)
class TraceSpan:
    """One span of a trace: where it stands, when it started, and its attributes with their spans."""

    turn: int
    """Its position in the source (the turn its messages belong to)."""
    start: int
    """Start time in nanoseconds (0 when not written)."""
    trace: str | None
    span: Span
    failed: str | None
    """The status's description when the span failed (empty when it says none), else None."""
    attributes: dict[str, tuple[Any, Span]] = field(default_factory=dict)
    name: str | None = None
    scope: str | None = None
    """The name of the instrumentation scope that wrote it."""

    def get(self, key: str) -> Any:
        return self.attributes[key][0] if key in self.attributes else None


def read_file(text: str, reading: Unpacked) -> Transcript | None:
    """OpenTelemetry spans: one trace is a conversation, several a dataset of one conversation each (the file's
    frame and unread text are the dataset's); None when the file holds no span."""
    if not is_trace(reading):
        return None
    found = traces(reading, text)
    resources = _resources(reading, text)
    if len(found) <= 1:
        builder = MessageBuilder(text)
        header = read_trace(found[0] if found else [], builder, resources)
        return conversation_transcript(text, reading, builder, header)
    conversations = []
    claimed = [diagnostic.span for diagnostic in (*reading.unread, *reading.notes)]
    for spans in found:
        builder = MessageBuilder(text)
        header = read_trace(spans, builder, resources)
        claimed += [message.span for message in builder.messages] + [d.span for d in builder.diagnostics]
        conversations.append(Transcript(dialect="json", source=text, messages=tuple(builder.messages),
                                        diagnostics=tuple(builder.diagnostics), header=header, tools=builder.tools))
    return Transcript(dialect="json", source=text, diagnostics=(*reading.unread, *reading.notes),
                      header=with_unread_text({}, text, reading.unread), frame=frame(text, claimed),
                      conversations=tuple(conversations))


def is_trace(reading: Unpacked) -> bool:
    """OTLP JSON documents, or the console exporter's span objects."""
    values = [element.value for element in reading.elements]
    return bool(values) and not reading.envelope and all(
        isinstance(value, dict) and (isinstance(value.get("resourceSpans"), list) or _is_console_span(value))
        for value in values)


def _is_console_span(value: dict[str, Any]) -> bool:
    return isinstance(value.get("context"), dict) and isinstance(value.get("attributes"), dict) and "name" in value


def traces(reading: Unpacked, text: str) -> list[list[TraceSpan]]:
    """The spans of every trace, in the order the traces first appear (grouped in one pass: a file may hold
    thousands); each trace's spans numbered in source order, then put in time order."""
    by_trace: dict[str | None, list[TraceSpan]] = {}
    for span in (span for element in reading.elements for span in _spans(element, text)):
        by_trace.setdefault(span.trace, []).append(span)
    for spans in by_trace.values():
        for turn, span in enumerate(spans):
            span.turn = turn
    return [sorted(spans, key=lambda span: span.start) for spans in by_trace.values()]


def read_trace(spans: list[TraceSpan], builder: Any, resources: list[Any] | None = None) -> dict[str, Any]:
    """One trace's messages; returns its header (the trace's id, its number of spans, what each span says besides
    its messages, the resources' attributes, and the tools its requests declared)."""
    _Conversation(builder).read(spans)
    trace = spans[0].trace if spans else None
    said = {"traces": [trace] if trace else [], "spans": len(spans), "span_details": [_details(span) for span in spans]}
    if resources:
        said["resources"] = resources
    header: dict[str, Any] = {"otel": said}
    definitions = [tool for span in spans for tool in _definitions(span)]
    if definitions:
        header["tools"] = list({json.dumps(tool, sort_keys=True): tool for tool in definitions}.values())
        builder.tools.update(declared_tools({"tools": definitions}))
    return header


def _details(span: TraceSpan) -> dict[str, Any]:
    attributes = {key: value for key, (value, _) in span.attributes.items() if _unshown(key, value)}
    found = {"name": span.name, "scope": span.scope, "attributes": attributes}
    if span.failed:
        found["status"] = span.failed
    return {key: value for key, value in found.items() if value}


def _unshown(key: str, value: Any) -> bool:
    """An attribute no message shows: any but the messages and tool calls read, and messages that are no JSON
    text (W-JSON-SYNTAX says so; their text is kept here)."""
    if key in MESSAGE_KEYS:
        return _json_text(value) is None
    return key not in SHOWN_KEYS and not _FLAT.fullmatch(key)


def _definitions(span: TraceSpan) -> list[Any]:
    """`gen_ai.tool.definitions`: JSON text of a list of definitions (an exporter may have kept the list)."""
    found = _json_text(span.get("gen_ai.tool.definitions"))
    return found if found is not None else []


def _resources(reading: Unpacked, text: str) -> list[Any]:
    """The attributes of each resource of an OTLP document (`service.name` …), once each."""
    found: list[Any] = []
    for element in reading.elements:
        resources = element.value.get("resourceSpans") if isinstance(element.value, dict) else None
        for resource in resources if isinstance(resources, list) else []:
            described = resource.get("resource") if isinstance(resource, dict) else None
            attributes = described.get("attributes") if isinstance(described, dict) else None
            if isinstance(attributes, list) and attributes:
                said = {item["key"]: _any_value(item.get("value")) for item in attributes
                        if isinstance(item, dict) and isinstance(item.get("key"), str)}
                if said and said not in found:
                    found.append(said)
    return found


def span_meta(span: TraceSpan) -> Meta | None:
    """A chat span's response: the model that answered, its id, why it stopped, and its tokens."""
    model = span.get("gen_ai.response.model") or span.get("gen_ai.request.model")
    reasons = span.get("gen_ai.response.finish_reasons")
    stop = ", ".join(map(str, reasons)) if isinstance(reasons, list) else reasons
    counts = [span.get(key) for key in ("gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens")]
    usage = Usage(*(count if isinstance(count, int) and count >= 0 else 0 for count in counts)) \
        if any(isinstance(count, int) for count in counts) else None
    meta = Meta(model=model if isinstance(model, str) and model else None,
                stop_reason=stop if isinstance(stop, str) and stop else None, usage=usage,
                response=_text(span.get("gen_ai.response.id")))
    return None if meta == response_meta.NOTHING else meta


# ---- spans ----------------------------------------------------------------------------------------------------

def _spans(element: Node, text: str) -> list[TraceSpan]:
    if isinstance(element.value.get("resourceSpans"), list):
        return _otlp_spans(read_value(text, element.span[0], OTLP_DEPTH))
    located = read_value(text, element.span[0], 2)
    value = located.value
    context = value["context"]
    attributes = located.members["attributes"].node.members if "attributes" in located.members else {}
    status, scope = object_in(value, "status"), object_in(value, "instrumentation_scope")
    return [TraceSpan(0, _iso_nanos(value.get("start_time")), _text(context.get("trace_id")), located.span,
                      _failure(status, status.get("status_code") == "ERROR", "description"),
                      {key: (member.node.value, member.span) for key, member in attributes.items()},
                      _text(value.get("name")), _text(scope.get("name")))]


def _otlp_spans(document: Node) -> list[TraceSpan]:
    found = []
    for resource in _items(document, "resourceSpans"):
        for scope in _items(resource, "scopeSpans", "instrumentationLibrarySpans"):
            described = scope.value.get("scope", scope.value.get("instrumentationLibrary")) \
                if isinstance(scope.value, dict) else None
            scope_name = _text(described.get("name")) if isinstance(described, dict) else None
            for node in _items(scope, "spans"):
                if not isinstance(node.value, dict):
                    continue
                status = object_in(node.value, "status")
                attributes = {}
                for item in _items(node, "attributes"):
                    if isinstance(item.value, dict) and isinstance(item.value.get("key"), str):
                        attributes[item.value["key"]] = (_any_value(item.value.get("value")), item.span)
                found.append(TraceSpan(0, _nanos(node.value.get("startTimeUnixNano")),
                                       _text(node.value.get("traceId")), node.span,
                                       _failure(status, status.get("code") in (2, "STATUS_CODE_ERROR"), "message"),
                                       attributes, _text(node.value.get("name")), scope_name))
    return found


def _failure(status: dict[str, Any], failed: bool, key: str) -> str | None:
    if not failed:
        return None
    return status[key] if isinstance(status.get(key), str) else ""


def _items(node: Node, *keys: str) -> tuple[Node, ...]:
    for key in keys:
        member = node.members.get(key)
        if member is not None:
            return member.node.items
    return ()


def _any_value(value: Any) -> Any:
    """An OTLP AnyValue as the value it holds."""
    if not isinstance(value, dict):
        return None
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        try:
            return int(value["intValue"])
        except (TypeError, ValueError):
            return value["intValue"]
    for key in ("doubleValue", "boolValue", "bytesValue"):
        if key in value:
            return value[key]
    if isinstance(value.get("arrayValue"), dict):
        values = value["arrayValue"].get("values")
        return [_any_value(item) for item in values] if isinstance(values, list) else None
    if isinstance(value.get("kvlistValue"), dict):
        entries = value["kvlistValue"].get("values")
        return {entry["key"]: _any_value(entry.get("value")) for entry in entries if isinstance(entry, dict)
                and isinstance(entry.get("key"), str)} if isinstance(entries, list) else None
    return None


def _nanos(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return 0


def _iso_nanos(value: Any) -> int:
    try:
        return int(datetime.fromisoformat(value).timestamp() * 1_000_000) * 1000
    except (TypeError, ValueError, OverflowError, OSError):
        return 0


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# ---- messages ---------------------------------------------------------------------------------------------------

class _Conversation:
    """The messages of a trace's spans, each new message once."""

    def __init__(self, builder: Any) -> None:
        self.builder = builder
        self.history: Counter = Counter()

    def read(self, spans: list[TraceSpan]) -> None:
        for span in spans:
            self.builder.turn = span.turn
            if span.get("gen_ai.operation.name") == "execute_tool" or "gen_ai.tool.call.result" in span.attributes:
                self._tool(span)
                continue
            for key in MESSAGE_KEYS:
                if key in span.attributes:
                    self._attribute(span, key)
            self._flat(span)

    def _attribute(self, span: TraceSpan, key: str) -> None:
        value, at = span.attributes[key]
        parsed = _json_text(value)
        if parsed is None:
            self._problem("W-JSON-SYNTAX", f"The attribute {key!r} is not JSON text of a list; it was not read.", at)
            return
        builder = self.builder
        found = instruction_pieces(parsed, at) if key == "gen_ai.system_instructions" \
            else [piece for message in parsed for piece in message_pieces(message, at, builder)]
        if key == "gen_ai.output.messages":
            response_meta.on_drafts(found, span_meta(span))
        self._add(found, at, repeats_history=key != "gen_ai.output.messages")

    def _flat(self, span: TraceSpan) -> None:
        """OpenLLMetry's `gen_ai.prompt.<i>.*` and `gen_ai.completion.<i>.*` attributes."""
        messages: dict[tuple[str, int], dict[str, tuple[Any, Span]]] = {}
        for key, (value, at) in span.attributes.items():
            named = _FLAT.fullmatch(key)
            if named:
                messages.setdefault((named[1], int(named[2])), {})[named[3]] = (value, at)
        for (kind, _), fields in sorted(messages.items(), key=lambda item: (item[0][0] != "prompt", item[0][1])):
            at = (min(span[0] for _, span in fields.values()), max(span[1] for _, span in fields.values()))
            source = JsonObject(_flat_message(fields, kind), at)
            found = read_message(source, self.builder)
            for piece in found:
                piece.span = at
            if source.problems:
                found[0].problems.extend(source.problems)
            if kind == "completion":
                response_meta.on_drafts(found, span_meta(span))
            self._add(found, at, repeats_history=kind == "prompt")

    def _tool(self, span: TraceSpan) -> None:
        """An `execute_tool` span: the call (unless a chat span gave it) and the tool's reply."""
        name = span.get("gen_ai.tool.name")
        call_id = _text(span.get("gen_ai.tool.call.id"))
        recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
        found = []
        if "gen_ai.tool.call.arguments" in span.attributes:
            arguments, at = span.attributes["gen_ai.tool.call.arguments"]
            found.append(drafts.call(recipient, drafts.arguments_text(arguments), at, call_id))
        if "gen_ai.tool.call.result" in span.attributes or span.failed is not None:
            result, at = span.attributes.get("gen_ai.tool.call.result", (span.failed, span.span))
            reply = drafts.reply(recipient, drafts.arguments_text(result), at, call_id)
            if span.failed is not None:
                tool = f"The tool {name} " if isinstance(name, str) else "The tool "
                reply.problems.append(Pending("W-TOOL-ERROR", f"{tool}failed (the span's status is an error).", at))
            found.append(reply)
        if found:
            self._add(found, span.span, repeats_history=True)

    def _add(self, found: list[Draft], at: Span, repeats_history: bool) -> None:
        """The pieces that are new: an input's copy of earlier messages is left out."""
        here: Counter = Counter()
        new = []
        for piece in found:
            key = _key(piece)
            here[key] += 1
            if repeats_history and here[key] <= self.history[key]:
                continue
            self.history[key] += 1
            new.append(piece)
        if new:
            turn = self.builder.turn
            self.builder.add_pieces(new, at)
            self.builder.turn = turn

    def _problem(self, code: str, message: str, at: Span) -> None:
        self.builder.diagnostics.append(make_diagnostic(code, at, message))


def _key(piece: Draft) -> tuple:
    fields = piece.fields
    if fields.get("call_id"):
        return ("call" if fields.get("end") == "call" else "reply", fields["call_id"])
    return fields.get("role"), fields.get("channel"), fields.get("recipient"), fields.get("content")


def _json_text(value: Any) -> list | None:
    """An attribute's messages: JSON text of a list (a console exporter may have kept the list itself)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return None
    return value if isinstance(value, list) else None


def _flat_message(fields: dict[str, tuple[Any, Span]], kind: str) -> dict[str, Any]:
    """OpenLLMetry's flat attributes of one message as an OpenAI chat message."""
    value = {key: found for key, (found, _) in fields.items() if key in ("role", "content", "tool_call_id", "name")}
    if value.get("role") == "model":  # Gemini's instrumentation keeps Gemini's word for the assistant
        value["role"] = "assistant"
    value.setdefault("role", "user" if kind == "prompt" else "assistant")
    content = value.get("content")
    if isinstance(content, str) and content.startswith("[") and isinstance(_json_text(content), list):
        value["content"] = _json_text(content)  # content parts (Anthropic blocks) written as JSON text
    calls: dict[int, dict[str, Any]] = {}
    for key, (found, _) in fields.items():
        call = _FLAT_CALL.fullmatch(key)
        if call:
            calls.setdefault(int(call[1]), {})[call[2]] = found
    if calls:
        value["tool_calls"] = [{"id": call.get("id"), "function": {"name": call.get("name"),
                                                                    "arguments": call.get("arguments")}}
                               for _, call in sorted(calls.items())]
    return value
