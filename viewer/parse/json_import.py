"""Import chat messages written as JSON into the one model (dialect `json`).

Containers: a bare list of messages; an envelope `{"messages": [...], ...}` whose `tools` (OpenAI function
tools, or legacy `functions`) give `Transcript.tools` and whose other keys give `header`; a single message
object; JSON Lines (one message object per line).

Message shapes (one object each; their keys may mix):
- OpenChatML 2.0 §10: `role`, `thinking`, `content`, `tool_calls: [{id, function: {name, arguments}}]`.
- OpenChatML 2.2 §10: `role`, `channel`, `content`, `intent`, `thinking`,
  `tool_call: {id, recipient, content_type, arguments}`; also `recipient`, `call_id`, `content_type`.
- OpenAI chat: `name`, `tool_calls`, `tool_call_id` on `role: "tool"` replies (legacy `role: "function"` too),
  `reasoning_content` / `reasoning` / `thinking`, content as text or a list of parts `{"type": "text", "text"}`.
- openai-harmony message dicts: `author: {role, name}` (or `role`/`name` flat, as `Message.to_dict()` writes),
  `recipient`, `channel`, `content_type` (`<|constrain|>json` marks a constraint), `content` parts, including
  `system_content` and `developer_content`, whose tool namespaces are read into `Transcript.tools`.

One element is one turn and gives its messages in this order: each distinct reasoning text (analysis), the
content, then each tool call (assistant `commentary` to `functions.<name>` — names with a dot are kept — content
type json, constrained, `call_id` = the call's id, end `call`). Content written beside tool calls comes before
them: producers emit it first (OpenAI's "let me check", a Harmony preamble), while the final answer of the
spec's invocation sequence (§8) arrives in a later element, after the tool's reply. A tool reply (`role: tool`)
is named `functions.<name>` (or, when it names nothing, after the call its `tool_call_id` answers). JSON records
no stop token, so messages end `end`, calls `call`: nothing else is invented. Channels the source does not
name default to `final`, or `commentary` for tool replies and messages addressed to a tool.

Spans: an element that gives one message spans the whole element; otherwise each message spans its own
member (`"thinking": …`, `"content": …`, `"tool_call": …`) or `tool_calls` item. Everything between messages
that was read (brackets, commas, `"role": …`, other envelope keys) is frame (kind `json`).

Defects are diagnostics: W-JSON-SYNTAX (a document keeps the elements before the error and the diagnostic
covers the rest; JSON Lines skip just the bad lines), W-JSON-SHAPE (an element or tool call that is not an
object), W-JSON-FIELD-TYPE (a number where text belongs, read as its JSON text), W-UNKNOWN-ROLE,
W-UNKNOWN-CHANNEL, W-JSON-MISSING-CONTENT, W-JSON-CONTENT-PART (a part with no text, such as an image), and
W-JSON-MIXED-CALLS (2.0 `tool_calls` beside a 2.2 `tool_call`: both are read, though 2.2 §6 forbids the mix).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from viewer.model import CHANNELS, Diagnostic, Message, Segment, Span, Transcript
from viewer.parse.json_positions import JsonError, Member, Node, line_and_column, line_spans, read_value, skip_blank
from viewer.parse.options import ParseOptions

ELEMENT_DEPTH = 2
"""Levels of a message element read with spans (its members and the items of its arrays) when it gives
several messages or a diagnostic about one of its fields; other elements are decoded whole, which is ten times
faster."""
KNOWN_ROLES = ("system", "developer", "user", "assistant", "tool")
REASONING_KEYS = ("thinking", "reasoning_content", "reasoning")
SPLITTING_KEYS = (*REASONING_KEYS, "tool_calls", "tool_call")
"""Keys that may make one element give several messages."""
ENVELOPE_KEYS = ("messages", "tools", "functions")
TEXT_PART_KEYS = {"text": "text", "input_text": "text", "output_text": "text", "reasoning_text": "text",
                  "summary_text": "text", "thinking": "thinking", "refusal": "refusal"}
CONSTRAIN = "<|constrain|>"


def parse_json(text: str, options: ParseOptions) -> Transcript:
    """Read a JSON or JSON Lines transcript. Never raises on user input."""
    reading = _read(text)
    importer = _Importer(text)
    for turn, element in enumerate(reading.elements):
        importer.add(element, turn)
    envelope = {key: member.node.value for key, member in reading.envelope.items()}
    claimed = [message.span for message in importer.messages]
    claimed += [diagnostic.span for diagnostic in (*reading.unread, *importer.diagnostics)]
    return Transcript(
        dialect="json", source=text, messages=tuple(importer.messages),
        diagnostics=(*reading.unread, *importer.diagnostics),
        header={key: value for key, value in envelope.items() if key not in ENVELOPE_KEYS},
        tools={**_declared_tools(envelope), **importer.tools},
        frame=_frame(text, claimed))


# ---------------------------------------------------------------------------------------------------------
# Reading the container


@dataclass(frozen=True, slots=True)
class _Reading:
    elements: list[Node]
    """The message elements, in order."""
    envelope: dict[str, Member] = field(default_factory=dict)
    """Top-level members of a `{"messages": …}` envelope other than the list itself."""
    unread: list[Diagnostic] = field(default_factory=list)
    """W-JSON-SYNTAX diagnostics over text that could not be read."""

    @property
    def unread_size(self) -> int:
        return sum(end - start for start, end in (diagnostic.span for diagnostic in self.unread))


def _read(text: str) -> _Reading:
    start = skip_blank(text, 0)
    if start == len(text):
        return _Reading([])
    if text.startswith("[", start):
        return _read_document(text, start)
    if not text.startswith("{", start):
        return _read_lines(text)
    if _first_line_is_whole(text, start):
        return _read_lines(text) if _has_more_lines(text, start) else _read_document(text, start)
    # A pretty-printed document, or JSON Lines whose first line is broken: keep the reading that leaves less
    # of the text unread.
    document = _read_document(text, start)
    if not document.unread:
        return document
    lines = _read_lines(text)
    return lines if lines.unread_size < document.unread_size else document


def _first_line_is_whole(text: str, start: int) -> bool:
    end = text.find("\n", start)
    line = text[start:] if end == -1 else text[start:end]
    try:
        node = read_value(line, 0, 0)
    except JsonError:
        return False
    return not line[node.span[1]:].strip()


def _has_more_lines(text: str, start: int) -> bool:
    end = text.find("\n", start)
    return end != -1 and bool(text[end:].strip())


def _read_document(text: str, start: int) -> _Reading:
    elements: list[Node] = []
    depth = 1 if text[start] == "[" else 2
    try:
        top = read_value(text, start, depth, into=elements, list_key="messages")
    except JsonError as error:
        resume = elements[-1].span[1] if elements else start
        return _Reading(elements, unread=[_syntax_to_end(text, resume, error)])
    unread = []
    if text[top.span[1]:].strip():
        unread.append(_syntax_diagnostic(text, (skip_blank(text, top.span[1]), len(text.rstrip())),
                                         "Extra text follows the JSON document; it was not read."))
    if isinstance(top.value, list):
        return _Reading(elements, unread=unread)
    listed = top.members.get("messages")
    if listed is not None and isinstance(listed.node.value, list):
        envelope = {key: member for key, member in top.members.items() if key != "messages"}
        return _Reading(elements, envelope, unread)
    return _Reading([top], unread=unread)


def _syntax_to_end(text: str, resume: int, error: JsonError) -> Diagnostic:
    line, column = line_and_column(text, error.position)
    return _syntax_diagnostic(
        text, (skip_blank(text, resume), len(text.rstrip())),
        f"Invalid JSON at line {line}, column {column}: {_reason(error)}; the rest of the input was not read.")


def _syntax_diagnostic(text: str, span: Span, message: str) -> Diagnostic:
    start, end = span
    return Diagnostic(code="W-JSON-SYNTAX", severity="warning", message=message, span=(min(start, end), end))


def _read_lines(text: str) -> _Reading:
    elements: list[Node] = []
    unread: list[Diagnostic] = []
    bad: list[tuple[int, int, int, JsonError]] = []
    for number, start, end in line_spans(text):
        line = text[start:end]
        try:
            node = read_value(line, 0, 0, base=start)
            if node.span[1] != end:
                raise JsonError("extra text after the value", node.span[1] - start)
        except JsonError as error:
            bad.append((number, start, end, error))
            continue
        if bad:
            unread.append(_bad_lines(bad))
            bad = []
        elements.append(node)
    if bad:
        unread.append(_bad_lines(bad))
    return _Reading(elements, unread=unread)


def _bad_lines(run: list[tuple[int, int, int, JsonError]]) -> Diagnostic:
    """One diagnostic for a run of consecutive bad lines, so a text that is not JSON Lines at all stays short."""
    first, start, _, error = run[0]
    last, _, end, _ = run[-1]
    where = f"{_reason(error)} at column {error.position + 1}"
    if first == last:
        message = f"Line {first} is not valid JSON: {where}; it was skipped."
    else:
        message = f"Lines {first}–{last} are not valid JSON (line {first}: {where}); they were skipped."
    return Diagnostic(code="W-JSON-SYNTAX", severity="warning", message=message, span=(start, end))


def _reason(error: JsonError) -> str:
    """Python's wording without its dangling "at" ("Unterminated string starting at")."""
    return error.reason.removesuffix(" starting at").removesuffix(" at")


def _frame(text: str, claimed: list[Span]) -> tuple[Segment, ...]:
    """What lies between the claimed spans and is not blank: the JSON envelope the importer understood."""
    frame = []
    position = 0
    for start, end in sorted(claimed) + [(len(text), len(text))]:
        if start > position:
            frame.extend(_trimmed_segment(text, position, start))
        position = max(position, end)
    return tuple(frame)


def _trimmed_segment(text: str, start: int, end: int) -> list[Segment]:
    gap = text[start:end]
    stripped = gap.strip()
    if not stripped:
        return []
    first = start + len(gap) - len(gap.lstrip())
    return [Segment(kind="json", text=stripped, span=(first, first + len(stripped)))]


# ---------------------------------------------------------------------------------------------------------
# Tools


def _declared_tools(envelope: dict[str, Any]) -> dict[str, Any]:
    """`tools: [{"type": "function", "function": {name, parameters}}]` (or flat `{name, parameters}`), and
    legacy `functions: [{name, parameters}]`, as tool name -> argument schema."""
    tools = {}
    for entry in [*_as_list(envelope.get("tools")), *_as_list(envelope.get("functions"))]:
        if not isinstance(entry, dict):
            continue
        function = entry.get("function") if isinstance(entry.get("function"), dict) else entry
        name, schema = function.get("name"), function.get("parameters")
        if isinstance(name, str) and isinstance(schema, dict):
            tools[_qualified(name)] = schema
    return tools


def _namespace_tools(namespaces: Any) -> dict[str, Any]:
    """openai-harmony `tools: {namespace: {name, tools: [{name, parameters}]}}` as tool name -> schema."""
    tools = {}
    if not isinstance(namespaces, dict):
        return tools
    for key, namespace in namespaces.items():
        if not isinstance(namespace, dict):
            continue
        prefix = namespace.get("name") if isinstance(namespace.get("name"), str) else key
        for tool in _as_list(namespace.get("tools")):
            if not isinstance(tool, dict):
                continue
            name, schema = tool.get("name"), tool.get("parameters")
            if isinstance(name, str) and isinstance(schema, dict):
                tools[f"{prefix}.{name}"] = schema
    return tools


def _qualified(name: str) -> str:
    """Function tools are addressed as `functions.<name>`; a name that has a namespace keeps it."""
    return name if "." in name else f"functions.{name}"


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# ---------------------------------------------------------------------------------------------------------
# Elements to messages


@dataclass(frozen=True, slots=True)
class _Problem:
    code: str
    severity: str
    message: str
    span: Span


@dataclass(slots=True)
class _Piece:
    """A message before it has an index: its Message fields and the sub-value it came from."""

    fields: dict[str, Any]
    span: Span | None
    problems: list[_Problem] = field(default_factory=list)


class _Object:
    """A JSON object being read: its values, the spans of its members when known, and the problems found."""

    def __init__(self, value: dict[str, Any], span: Span, members: dict[str, Member] | None = None) -> None:
        self.value = value
        self.span = span
        self.members = members or {}
        self.problems: list[_Problem] = []

    def get(self, key: str) -> Any:
        return self.value.get(key)

    def span_of(self, key: str) -> Span:
        member = self.members.get(key)
        return member.span if member is not None else self.span

    def node_of(self, key: str) -> Node | None:
        member = self.members.get(key)
        return member.node if member is not None else None

    def problem(self, code: str, severity: str, message: str, span: Span | None = None) -> None:
        self.problems.append(_Problem(code, severity, message, span or self.span))

    def text(self, key: str) -> str | None:
        """A field meant to be text; anything else is reported and read as its JSON text."""
        value = self.value.get(key)
        if value is None or isinstance(value, str):
            return value
        shown = _dumps(value)
        self.problem("W-JSON-FIELD-TYPE", "warning",
                     f"The field {key!r} should be text but is {_kind(value)}; it was read as {shown}.",
                     self.span_of(key))
        return shown


class _Importer:
    """Turns message elements into messages, in order, remembering call ids to name the replies."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.messages: list[Message] = []
        self.diagnostics: list[Diagnostic] = []
        self.tools: dict[str, Any] = {}
        self._call_names: dict[str, str] = {}

    def add(self, element: Node, turn: int) -> None:
        if not isinstance(element.value, dict):
            self.diagnostics.append(Diagnostic(
                code="W-JSON-SHAPE", severity="warning",
                message=f"Element {turn} is {_kind(element.value)}, not a message object; it was skipped.",
                span=element.span))
            return
        # Messages that share an element span its members, and diagnostics point at a member: then the element
        # is read again, keeping the spans of its members.
        if not element.members and any(element.value.get(key) for key in SPLITTING_KEYS):
            element = self._located(element)
        source, pieces = self._read_pieces(element)
        if not element.members and (source.problems or any(piece.problems for piece in pieces)):
            element = self._located(element)
            source, pieces = self._read_pieces(element)
        first_index = len(self.messages)
        for piece in pieces:
            span = element.span if len(pieces) == 1 else (piece.span or element.span)
            message = Message(index=len(self.messages), turn=turn, span=span, **piece.fields)
            self.messages.append(message)
            self._note(piece.problems, message.index)
            if message.end == "call" and message.call_id is not None and message.recipient is not None:
                self._call_names.setdefault(message.call_id, message.recipient)
        self._note(source.problems, first_index)

    def _located(self, element: Node) -> Node:
        return read_value(self.text, element.span[0], ELEMENT_DEPTH)

    def _read_pieces(self, element: Node) -> tuple[_Object, list[_Piece]]:
        source = _Object(element.value, element.span, element.members)
        return source, self._pieces(source)

    def _note(self, problems: list[_Problem], index: int) -> None:
        self.diagnostics.extend(Diagnostic(code=problem.code, severity=problem.severity, message=problem.message,
                                           span=problem.span, message_index=index) for problem in problems)

    def _pieces(self, source: _Object) -> list[_Piece]:
        role, name = _author(source)
        channel = _channel(source)
        reasoning = self._reasoning_pieces(source, role)
        calls = _call_pieces(source, role, channel)
        content = self._content_piece(source, role, name, channel)
        text = content.fields["content"]
        alone = not (reasoning or calls)
        if text is None:
            content.fields["content"] = ""
            if alone:
                source.problem("W-JSON-MISSING-CONTENT", "warning", "This message has no content.")
        # Empty content beside reasoning or calls (OpenAI writes "" or null there) is not a message of its own.
        return [*reasoning, *([content] if text or alone else []), *calls]

    def _reasoning_pieces(self, source: _Object, role: str) -> list[_Piece]:
        pieces: list[_Piece] = []
        seen: set[str] = set()
        for key in REASONING_KEYS:
            if source.get(key) is None:
                continue
            # Some producers write the same reasoning under two keys; show it once.
            text = self._text_value(source, key)
            if text and text not in seen:
                seen.add(text)
                pieces.append(_Piece(dict(role=role, channel="analysis", channel_explicit=True, content=text,
                                          end="end"), source.span_of(key)))
        return pieces

    def _content_piece(self, source: _Object, role: str, name: str | None, channel: str | None) -> _Piece:
        recipient = source.text("recipient")
        content_type, constrained = _content_type(source.text("content_type"))
        call_id = source.text("tool_call_id") or source.text("call_id")
        if role == "tool":
            name = _qualified(name) if name else self._call_names.get(call_id or "")
        to_tool = role == "assistant" and recipient not in (None, "assistant", "user", "all")
        default_channel = "commentary" if role == "tool" or to_tool else "final"
        fields = dict(role=role, name=name, recipient=recipient, channel=channel or default_channel,
                      channel_explicit=channel is not None, content_type=content_type, constrained=constrained,
                      intent=source.text("intent"), call_id=call_id, content=self._text_value(source, "content"),
                      end="call" if to_tool else "end")
        return _Piece(fields, source.span_of("content") if "content" in source.members else None)

    def _text_value(self, source: _Object, key: str) -> str | None:
        """The text of a content-like field: a string, or a list of parts whose text is joined."""
        value = source.get(key)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list):
            return source.text(key)
        node = source.node_of(key)
        spans = [item.span for item in node.items] if node is not None and node.items else []
        texts = [self._part_text(part, spans[at] if at < len(spans) else source.span_of(key), source)
                 for at, part in enumerate(value)]
        return "".join(texts)

    def _part_text(self, part: Any, span: Span, source: _Object) -> str:
        if isinstance(part, str):
            return part
        kind = part.get("type") if isinstance(part, dict) else None
        if isinstance(part, dict):
            key = "text" if kind is None else TEXT_PART_KEYS.get(kind) if isinstance(kind, str) else None
            if key is not None and isinstance(part.get(key), str):
                return part[key]
            if kind == "system_content":
                self.tools.update(_namespace_tools(part.get("tools")))
                return _system_text(part)
            if kind == "developer_content":
                self.tools.update(_namespace_tools(part.get("tools")))
                return _developer_text(part)
        what = f"of type {kind!r}" if isinstance(kind, str) else f"that is {_kind(part)}"
        source.problem("W-JSON-CONTENT-PART", "info", f"A content part {what} has no text to show; it was left out.",
                       span)
        return ""


def _author(source: _Object) -> tuple[str, str | None]:
    """The role and name, from `author: {role, name}` or flat keys. A role naming a tool (`functions.x`,
    `browser.search`) is the tool speaking, as in Harmony text."""
    author = source.get("author")
    holder = _Object(author, source.span_of("author")) if isinstance(author, dict) else source
    role, name = holder.get("role"), holder.text("name")
    source.problems.extend(holder.problems if holder is not source else [])
    role_span = holder.span_of("role")
    if role is None:
        source.problem("W-UNKNOWN-ROLE", "warning", "This message has no role.", role_span)
        return "unknown", name
    if not isinstance(role, str):
        shown = _dumps(role)
        source.problem("W-UNKNOWN-ROLE", "warning", f"The role {shown} is not a word; it was kept as written.",
                       role_span)
        return shown, name
    if role in KNOWN_ROLES:
        return role, name
    if role == "function":  # OpenAI's legacy name for a tool reply
        return "tool", name
    if "." in role:
        return "tool", role
    source.problem("W-UNKNOWN-ROLE", "warning", f"Unknown role {role!r}; it was kept as written.", role_span)
    return role, name


def _channel(source: _Object) -> str | None:
    channel = source.text("channel")
    if channel is not None and channel not in CHANNELS:
        source.problem("W-UNKNOWN-CHANNEL", "warning",
                       f"Unknown channel {channel!r}; it was kept as written.", source.span_of("channel"))
    return channel


def _content_type(written: str | None) -> tuple[str | None, bool]:
    """`<|constrain|>json` (openai-harmony's form) is the type json, constrained."""
    if written is None:
        return None, False
    stripped = written.strip()
    if stripped.startswith(CONSTRAIN):
        return stripped[len(CONSTRAIN):].strip() or None, True
    return stripped or None, False


def _call_pieces(source: _Object, role: str, channel: str | None) -> list[_Piece]:
    calls = source.get("tool_calls")
    single = source.get("tool_call")
    pieces: list[_Piece] = []
    call_channel = channel if channel in ("analysis", "commentary") else "commentary"
    if calls is not None:
        node = source.node_of("tool_calls")
        items = node.items if node is not None and node.items else ()
        if isinstance(calls, dict):
            calls = [calls]
        if not isinstance(calls, list):
            source.problem("W-JSON-FIELD-TYPE", "warning",
                           f"The field 'tool_calls' should be a list but is {_kind(calls)}; it was skipped.",
                           source.span_of("tool_calls"))
            calls = []
        for at, call in enumerate(calls):
            span = items[at].span if at < len(items) else source.span_of("tool_calls")
            pieces.extend(_call_piece(call, span, role, call_channel, source, openai=True))
    if single is not None:
        if calls:
            source.problem("W-JSON-MIXED-CALLS", "warning",
                           "This message has both 'tool_calls' (2.0) and 'tool_call' (2.2), which OpenChatML 2.2 "
                           "forbids in one turn; both were read.")
        pieces.extend(_call_piece(single, source.span_of("tool_call"), role, call_channel, source, openai=False))
    return pieces


def _call_piece(call: Any, span: Span, role: str, channel: str, source: _Object, openai: bool) -> list[_Piece]:
    if not isinstance(call, dict):
        source.problem("W-JSON-SHAPE", "warning", f"A tool call is {_kind(call)}, not an object; it was skipped.",
                       span)
        return []
    holder = _Object(call, span)
    if openai:
        function = _Object(call["function"], span) if isinstance(call.get("function"), dict) else holder
        name = function.text("name")
        recipient = _qualified(name) if name else None
        content_type, constrained = "json", True
    else:
        function = holder
        recipient = holder.text("recipient")
        content_type, constrained = _content_type(holder.text("content_type"))
        constrained = constrained or (content_type or "").lower() == "json"
    if recipient is None:
        holder.problem("W-JSON-SHAPE", "warning", "This tool call does not say which tool it calls.")
    fields = dict(role=role, recipient=recipient, channel=channel, channel_explicit=True,
                  content_type=content_type, constrained=constrained,
                  call_id=holder.text("id") or holder.text("call_id"),
                  content=_arguments(function), end="call")
    return [_Piece(fields, span, holder.problems + (function.problems if function is not holder else []))]


def _arguments(function: _Object) -> str:
    """Arguments are JSON text by contract; some producers (Ollama) write the object itself."""
    arguments = function.get("arguments")
    if arguments is None:
        return ""
    if isinstance(arguments, (dict, list)):
        return _dumps(arguments)
    return function.text("arguments") or ""


def _system_text(part: dict[str, Any]) -> str:
    """openai-harmony's system content, written the way its renderer lays it out."""
    lines = []
    if isinstance(part.get("model_identity"), str):
        lines.append(part["model_identity"])
    for key, label in (("knowledge_cutoff", "Knowledge cutoff"), ("conversation_start_date", "Current date"),
                       ("reasoning_effort", "Reasoning")):
        if isinstance(part.get(key), str):
            lines.append(f"{label}: {part[key].lower() if key == 'reasoning_effort' else part[key]}")
    config = part.get("channel_config")
    if isinstance(config, dict) and _as_list(config.get("valid_channels")):
        channels = ", ".join(str(channel) for channel in config["valid_channels"])
        lines.append(f"# Valid channels: {channels}.")
    lines.extend(_tool_lines(part.get("tools")))
    return "\n".join(lines)


def _developer_text(part: dict[str, Any]) -> str:
    lines = [part["instructions"]] if isinstance(part.get("instructions"), str) else []
    lines.extend(_tool_lines(part.get("tools")))
    return "\n".join(lines)


def _tool_lines(namespaces: Any) -> list[str]:
    names = sorted(_namespace_tools(namespaces))
    return [f"# Tools: {', '.join(names)}"] if names else []


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        return "(a value too deeply nested to show)"
