"""Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json`, and `.jsonl` from 0.39), dialect
`gemini-cli`, read as the CLI's own loader (chatRecordingService.ts) replays them.

A whole file is one `ConversationRecord`: `{sessionId, projectHash, startTime, lastUpdated, messages[], summary?,
kind?}`. A `.jsonl` file is its log: the first line is that record without its messages (or with them, a legacy
file on one line), and then
- a message record (`id`): appended; a record whose `id` was seen replaces the earlier one where it stood (the CLI
  writes a response when it ends and again, whole, when its tool calls finish): the earlier copy is frame;
- `{"$set": {…}}`: metadata (`lastUpdated`, `summary`, …), frame; a `$set` of `messages` is a checkpoint written
  by `/compress` (the list the model goes on from, with the `<session_context>` turn and the compression summary):
  hidden context, W-SESSION-COMPACTED, while the messages before it stay as the user saw them;
- `{"$rewindTo": id}`: that message and every later one were rewound: kept aside (hidden), W-SESSION-FORK.
- A second metadata line starts a sub-agent's own log joined after the session's (`kind: "subagent"`, its
  `sessionId` the `agentId` of the call that started it): a thread under that call.

Messages (`type`): `user` (what the user typed: `displayContent` when the CLI expanded `@file` references into
`content`, whose expansion is context; `<session_context>` and `<hook_context>` turns are context; from 0.44 the
tool responses sent back to the model are also user records of `functionResponse` parts, which repeat the tool
calls' results and are frame when they do), `gemini` (`thoughts` are reasoning; `content` the answer, a preamble
when the record calls tools; `toolCalls[{id, name, args, result, status}]` the calls and their replies, a status
of `error` W-TOOL-ERROR and `cancelled` W-SESSION-INTERRUPTED; `tokens` and `model`), `info`, `warning` and
`error` (the CLI's notes: hidden system messages; "Request cancelled." is W-SESSION-INTERRUPTED, an error
W-API-ERROR). No system prompt is recorded.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewer.model import Diagnostic, Meta, Thread, Transcript, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Line, claims, claims_by, read_lines
from viewer.parse.agents.meta import between, usage_totals
from viewer.parse.agents.records import (
    details, finished, gemini_parts, gemini_usage, item_objects, read_record, record_line, text_of, threads_of)
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.positions import JsonError, Member, Node, Partial, read_value, skip_blank
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

INJECTED_OPENINGS = ("<session_context>", "<hook_context>", "<state_snapshot>")
"""How a user turn the CLI wrote for the model begins (the environment, a hook's output, a compression summary)."""
REFERENCED_FILES = "\n--- Content from referenced files ---"
"""Where the CLI appended the files an `@path` in the prompt names."""
CANCELLED = "Request cancelled."
NOTE_TYPES = ("info", "warning", "error")
HEADER_KEYS = {"sessionId": "session_id", "projectHash": "project_hash", "startTime": "started",
               "lastUpdated": "last_updated", "kind": "kind"}
CALL_DETAILS = ("displayName", "description", "renderOutputAsMarkdown")
"""What a tool call record says of the call beside its name and arguments: the CLI's own words for it."""
REPLY_DETAILS = ("resultDisplay",)
"""What it says of the result beside what the model got: what the CLI showed (a diff, the file before and after)."""
MESSAGE_CLAIMS = claims_by("type", {
    "gemini": ("model", "tokens.input", "tokens.cached", "tokens.output", "tokens.thoughts", "tokens.tool",
               "tokens.total", "thoughts[].subject", "thoughts[].description", "thoughts[].timestamp", "content",
               *(f"toolCalls[].{key}" for key in ("name", "args", "result", "status", "timestamp", "agentId",
                                                  *CALL_DETAILS, *REPLY_DETAILS))),
    "user": ("content", "displayContent"),
    **dict.fromkeys(NOTE_TYPES, ("content",)),
}, common=("type", "timestamp"))
"""What the reader reads of a message record (`tokens.total` is the sum it shows in parts)."""
METADATA_CLAIMS = claims("sessionId", "projectHash", "startTime", "lastUpdated", "kind", "summary", "directories",
                         "messages")
"""What it reads of a metadata record (its messages are records of their own)."""
PATCH_CLAIMS = claims("$set.summary", "$set.lastUpdated", "$set.messages", "$rewindTo")


@dataclass(slots=True)
class _Record:
    """One message record as it stands in the file, and what became of it."""

    line: Line
    scope: str | None
    """The sub-agent whose log holds it (None: the session's own)."""
    checkpoint: bool = False
    """Written inside a `$set` of `messages`: the model's context after a compression."""
    status: str = "live"
    """`live`, `superseded` (a later record with its id replaced it) or `rewound`."""
    first: int | None = None
    """The index of its first message, once read."""


@dataclass(slots=True)
class _Rewind:
    line: Line
    removed: list[_Record] = field(default_factory=list)


def parse_gemini_cli(text: str, options: ParseOptions) -> Transcript:
    """Read a Gemini CLI recording, whole file or log. Never raises on user input."""
    with collector_paused:
        problems: list[Diagnostic] = []
        entries = _document_entries(text, problems) if _is_document(text) else _log_entries(text, problems)
        reader = _Reader(Session(text))
        reader.replay(entries)
        for number, entry in enumerate(entries):
            reader.entry(number, entry)
        session = reader.session
        messages = finished(session.messages, reader.metas, reader.thread_of, reader.aside)
        threads, unnamed = reader.threads()
        diagnostics = [*problems, *session.diagnostics, *reader.rewinds(), *unnamed]
        return Transcript(dialect="gemini-cli", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=session.with_unread(reader.header | usage_totals(reader.usages, reader.models)),
                          threads=threads, frame=session.frame(reader.quiet, diagnostics))


# ---- the file's entries, in order ---------------------------------------------------------------------------------

def _is_document(text: str) -> bool:
    """A whole file pretty-printed (its first line is no whole object); a file on one line reads as a log."""
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return False
    first = stripped.split("\n", 1)[0].strip()
    try:
        read_value(first, 0, 0)
    except JsonError:
        return True
    return False


def _log_entries(text: str, problems: list[Diagnostic]) -> list[Line]:
    lines, unreadable = read_lines(text)
    found = list(lines)
    problems.extend(unreadable)
    return found


def _document_entries(text: str, problems: list[Diagnostic]) -> list[Line]:
    """The whole file as one entry; a file cut short keeps the messages read before the cut."""
    start = skip_blank(text, 0)
    partial = Partial(("messages",))
    try:
        node = read_value(text, start, 2, into=partial)
        if text[node.span[1]:].strip():
            problems.append(make_diagnostic("W-JSON-SYNTAX", (node.span[1], len(text.rstrip())),
                                            "Text follows the recording's closing brace; it was not read."))
        line = Line(1, node.span, node.value, text)
        line._members = dict(node.members)
        return [line]
    except JsonError as error:
        ends = [item.span[1] for item in partial.items] or [member.span[1] for member in partial.members.values()]
        cut = max(ends, default=start)
        reason = error.reason.removesuffix(" at").removesuffix(" starting")
        problems.append(make_diagnostic(
            "E-STREAM-TRUNCATED", (cut, len(text.rstrip())),
            f"The recording breaks off mid-JSON ({reason}): it was cut short while it was written; the messages "
            "before the cut are read."))
        members = dict(partial.members)
        if partial.key == "messages" and "messages" not in members:  # the list the cut fell in: its whole items
            items = tuple(partial.items)
            span = (items[0].span[0], cut) if items else (cut, cut)
            members["messages"] = Member(Node([item.value for item in items], span, items=items), span)
        line = Line(1, (start, cut), {key: member.node.value for key, member in members.items()}, text)
        line._members = members
        return [line]


# ---- reading ------------------------------------------------------------------------------------------------------

class _Reader:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.header: dict[str, Any] = {"producer": "gemini-cli"}
        self.quiet: list[tuple[int, int]] = []
        self.metas: dict[int, Meta] = {}
        self.thread_of: dict[int, str] = {}
        self.aside: set[int] = set()
        self.usages: list = []
        self.models: list[str] = []
        self._records: dict[int, list[_Record]] = {}
        """Entry number -> the records it holds."""
        self._rewinds: dict[int, _Rewind] = {}
        self._scopes: dict[int, str | None] = {}
        """Entry number -> the sub-agent whose log it belongs to."""
        self._answered: set[str] = set()
        """Call ids whose replies were read from a `toolCalls` result."""
        self._agent_calls: dict[str, int] = {}
        """A sub-agent's id -> the index of the call that started it."""
        self._main: str | None = None

    # ---- pass 1: what became of each record, as the CLI replays the log

    def replay(self, entries: list[Line]) -> None:
        live: dict[str | None, dict[str, _Record]] = {}
        scope: str | None = None
        for number, line in enumerate(entries):
            value = line.value
            if isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str) \
                    and not isinstance(value.get("id"), str):
                scope = self._metadata(value)
            self._scopes[number] = scope
            current = live.setdefault(scope, {})
            if isinstance(value.get("$rewindTo"), str):
                rewind = self._rewinds[number] = _Rewind(line)
                ids = list(current)
                target = value["$rewindTo"]
                for id in ids[ids.index(target):] if target in ids else ids:
                    record = current.pop(id)
                    record.status = "rewound"
                    rewind.removed.append(record)
            elif isinstance(value.get("$set"), dict) and isinstance(value["$set"].get("messages"), list):
                current.clear()
                self._records[number] = self._held(line, ("$set", "messages"), scope, current, checkpoint=True)
            elif isinstance(value.get("messages"), list) and not isinstance(value.get("id"), str):
                self._records[number] = self._held(line, ("messages",), scope, current)
            elif isinstance(value.get("id"), str):
                record = _Record(line, scope)
                earlier = current.get(value["id"])
                if earlier is not None:
                    earlier.status = "superseded"
                current[value["id"]] = record
                self._records[number] = [record]

    def _metadata(self, value: dict[str, Any]) -> str | None:
        """The facts of the first metadata record; a later one starts a sub-agent's log."""
        if self._main is None:
            self._main = value["sessionId"]
            for key, name in HEADER_KEYS.items():
                if text_of(value.get(key)):
                    self.header[name] = value[key]
            if text_of(value.get("summary")):
                self.header["session_title"] = value["summary"]
            directories = value.get("directories")
            if isinstance(directories, list) and directories and text_of(directories[0]):
                self.header["cwd"] = directories[0]
            return None
        return None if value["sessionId"] == self._main else value["sessionId"]

    def _held(self, line: Line, path: tuple[str, ...], scope: str | None, current: dict[str, _Record],
              checkpoint: bool = False) -> list[_Record]:
        """The message records inside a line (a whole file's `messages`, a checkpoint's), each a line of its own."""
        node = read_value(line.text, line.span[0], len(path) + 1) if line._members is None else None
        members = line._members if node is None else node.members
        held = members.get(path[0]) if members else None
        for key in path[1:]:
            held = held.node.members.get(key) if held is not None else None
        items = held.node.items if held is not None else ()
        records = []
        for at, item in enumerate(items):
            if isinstance(item.value, dict) and isinstance(item.value.get("id"), str):
                record = _Record(record_line(line.text, item, line.number), scope, checkpoint)
                earlier = current.get(item.value["id"])
                if earlier is not None:
                    earlier.status = "superseded"
                current[item.value["id"]] = record
                records.append(record)
        return records

    # ---- pass 2: the messages, in the file's order

    def entry(self, number: int, line: Line) -> None:
        value = line.value
        records = self._records.get(number)
        if "$set" in value or "$rewindTo" in value:
            self.session.account(line, PATCH_CLAIMS)
        elif isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str):
            self.session.account(line, METADATA_CLAIMS)
        if number in self._rewinds:
            self.quiet.append(line.span)
        elif records is not None:
            for record in records:
                self._record(record)
            if records and records[0].checkpoint:
                self.session.diagnostics.append(make_diagnostic(
                    "W-SESSION-COMPACTED", line.span,
                    "Gemini CLI compressed the chat here: the messages below replaced the history the model saw "
                    "next; the messages before stay as the user saw them."))
            if not records and "messages" not in value and "$set" not in value:
                self.quiet.append(line.span)
        elif isinstance(value.get("$set"), dict):
            if self._scopes.get(number) is None:
                for key, name in (("summary", "session_title"), ("lastUpdated", "last_updated")):
                    if text_of(value["$set"].get(key)):
                        self.header[name] = value["$set"][key]
            self.quiet.append(line.span)
        elif isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str):
            self.quiet.append(line.span)
        else:
            what = f"A line {type_phrase(value.get('type'), value)}"
            self.session.shown_whole(line)
            self.session.add_line(line, [drafts.unclassified("unknown", value.get("type"), value, line.span,
                                                             "W-JSON-UNKNOWN-ITEM", what)], self.session.next_turn())

    def _record(self, record: _Record) -> None:
        line, value = record.line, record.line.value
        if record.status == "superseded":
            self.quiet.append(line.span)
            return
        self.session.account(line, MESSAGE_CLAIMS(line))
        first = len(self.session.messages)
        record.first = first
        if record.checkpoint:
            self.session.add_line(line, [_checkpointed(value)], self.session.next_turn())
        else:
            kind = value.get("type")
            if kind == "gemini":
                self._response(record)
            elif kind == "user":
                self._user(record)
            elif kind in NOTE_TYPES:
                self._note(record, kind)
            else:
                what = f"A message record {type_phrase(kind, value)}"
                self.session.shown_whole(line)
                self.session.add_line(line, [drafts.unclassified("unknown", kind, value, line.span,
                                                                 "W-JSON-UNKNOWN-ITEM", what)],
                                      self.session.next_turn())
        timestamp = text_of(value.get("timestamp"))
        for index in range(first, len(self.session.messages)):
            self.metas.setdefault(index, Meta(timestamp=timestamp))
            if record.scope is not None:
                self.thread_of[index] = record.scope
            if record.status == "rewound":
                self.aside.add(index)

    def _response(self, record: _Record) -> None:
        line, value = record.line, record.line.value
        source, found = read_record(line.text, line, lambda source: _response_pieces(source, self.session))
        first = len(self.session.messages)
        self.session.add_line(line, found, self.session.next_turn(), source.problems)
        model = text_of(value.get("model"))
        tokens = value.get("tokens")
        usage = gemini_usage(tokens.get("input"), tokens.get("cached"), tokens.get("output"), tokens.get("thoughts"),
                             tokens.get("tool")) if isinstance(tokens, dict) else None
        if usage is not None:
            self.usages.append(usage)
        if model:
            self.models.append(model)
        timestamp = text_of(value.get("timestamp"))
        calls = {call.get("id"): call for call in item_objects(source, "toolCalls")}
        last = len(self.session.messages) - 1
        for index in range(first, last + 1):
            message = self.session.messages[index]
            call = calls.get(message.call_id) if message.call_id else None
            if message.is_reply and call is not None:
                done = text_of(call.get("timestamp"))
                self.metas[index] = Meta(timestamp=done or timestamp, duration_ms=between(timestamp, done),
                                         details=details(call, REPLY_DETAILS))
                if message.call_id:
                    self._answered.add(message.call_id)
                continue
            if message.is_call and call is not None and text_of(call.get("agentId")):
                self._agent_calls.setdefault(call.get("agentId"), index)
            self.metas[index] = Meta(timestamp=timestamp, model=model, usage=usage if index == last else None,
                                     details=details(call, CALL_DETAILS) if message.is_call and call else None)

    def _user(self, record: _Record) -> None:
        line, value = record.line, record.line.value
        content = value.get("content")
        responses = _response_ids(content)
        if responses and responses <= self._answered:
            self.quiet.append(line.span)  # the tool calls' results again, as the model got them
            return
        source, found = read_record(line.text, line, lambda source: _user_pieces(source, self.session))
        self.session.add_line(line, found, self.session.next_turn(), source.problems)
        if not found:
            self.quiet.append(line.span)

    def _note(self, record: _Record, kind: str) -> None:
        line, value = record.line, record.line.value
        text = flat_text(value.get("content"))
        problems = []
        if kind == "error":
            problems.append(Pending("W-API-ERROR", f"Gemini CLI reported an error: {_short(text)}", line.span))
        elif text.strip() == CANCELLED:
            problems.append(Pending("W-SESSION-INTERRUPTED", "The user cancelled the request here.", line.span))
        self.session.add_line(line, [Draft(dict(role="system", name=kind, channel="final", content=text, end="end"),
                                           None)], self.session.next_turn(), problems)

    # ---- after

    def rewinds(self) -> list[Diagnostic]:
        found = []
        for rewind in self._rewinds.values():
            first = next((record.first for record in rewind.removed if record.first is not None), None)
            found.append(make_diagnostic(
                "W-SESSION-FORK", rewind.line.span,
                f"The user rewound the chat here to message {rewind.line.value.get('$rewindTo')!s:.60}: it and the "
                "messages after it are kept, hidden from the default view, which follows what came next.", first))
        return found

    def threads(self) -> tuple[tuple[Thread, ...], list[Diagnostic]]:
        return threads_of(self.session.messages, self.thread_of, self._agent_calls.get,
                          "This sub-agent's recording names no call of the session that started it; it is kept, "
                          "hidden from the default view.")


def _response_pieces(source: JsonObject, session: Session) -> list[Draft]:
    """A `gemini` record: its thoughts, its text (or the parts of a checkpoint-era record), its calls and their
    replies."""
    found: list[Draft] = []
    for thought in item_objects(source, "thoughts"):
        subject, description = text_of(thought.get("subject")), thought.get("description")
        text = "\n\n".join(part for part in (f"**{subject}**" if subject else "",
                                             description if isinstance(description, str) else "") if part)
        found.append(drafts.analysis("assistant", text, thought.span))
    content = source.get("content")
    if isinstance(content, list):
        found.extend(gemini_parts(source, "content", "model", session))
    elif content is not None:
        text = content if isinstance(content, str) else shown_json(content)
        if text.strip():
            found.append(Draft(dict(role="assistant", channel="final", content=text, end="end"),
                               source.span_of("content")))
    for call in item_objects(source, "toolCalls"):
        found.extend(_call_and_reply(call, session))
    return found


def _call_and_reply(call: JsonObject, session: Session) -> list[Draft]:
    name = text_of(call.get("name")) or "(unnamed tool)"
    recipient = qualified_tool_name(name)
    call_id = text_of(call.get("id"))
    arguments = call.get("args")
    found = [drafts.call(recipient, shown_json(arguments if arguments is not None else {}), call.span_of("args"),
                         call_id)]
    result = call.get("result")
    status = text_of(call.get("status"))
    if result is None and status not in ("error", "cancelled"):
        return found  # still running when the session was written
    reply = drafts.reply(recipient, _result_text(result), call.span_of("result") if result is not None
                         else call.span_of("status"), call_id)
    if status == "error" or _has_error(result):
        reply.problems.append(Pending("W-TOOL-ERROR", f"The tool {name} reported an error.", reply.span or call.span))
    elif status == "cancelled":
        reply.problems.append(Pending("W-SESSION-INTERRUPTED", f"The call to {name} was cancelled.",
                                      reply.span or call.span))
    found.append(reply)
    return found


def _result_text(result: Any) -> str:
    """What the model got back: each function response's output (or error), and any other part as text."""
    if result is None:
        return ""
    parts = result if isinstance(result, list) else [result]
    texts = []
    for part in parts:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        if isinstance(response, dict):
            answer = response.get("response")
            output = answer.get("output", answer.get("error")) if isinstance(answer, dict) else answer
            texts.append(output if isinstance(output, str) else shown_json(answer))
        else:
            texts.append(flat_text(part))
    return "\n".join(texts)


def _has_error(result: Any) -> bool:
    for part in result if isinstance(result, list) else [result]:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        answer = response.get("response") if isinstance(response, dict) else None
        if isinstance(answer, dict) and answer.get("error") is not None:
            return True
    return False


def _user_pieces(source: JsonObject, session: Session) -> list[Draft]:
    """A `user` record: what the user typed (`displayContent` when the CLI expanded it), what the CLI wrote into
    the turn, and tool responses."""
    display = source.get("displayContent")
    content = source.get("content")
    if display is not None and content is not None:
        shown = flat_text(display)
        found = [Draft(dict(role="user", channel="final", content=shown, end="end",
                            intent="context" if _injected(shown) else None), source.span_of("displayContent"))]
        expanded = flat_text(content) if not isinstance(content, str) else content
        if expanded.strip() != shown.strip():
            found.append(_context(expanded, source.span_of("content"), "expanded prompt"))
        return found
    if isinstance(content, list):
        found = gemini_parts(source, "content", "user", session)
    else:
        text = content if isinstance(content, str) else flat_text(content)
        found = [Draft(dict(role="user", channel="final", content=text, end="end"), source.span_of("content"))]
    return [piece for found_piece in found for piece in _classified(found_piece)]


def _classified(piece: Draft) -> list[Draft]:
    """A user text the CLI wrote is context; a prompt with files appended is the prompt, then the files."""
    fields = piece.fields
    if fields.get("role") != "user" or not isinstance(fields.get("content"), str):
        return [piece]
    text = fields["content"]
    if _injected(text):
        fields["intent"] = "context"
        return [piece]
    at = text.find(REFERENCED_FILES)
    if at > 0:
        fields["content"] = text[:at]
        return [piece, _context(text[at:].lstrip("\n"), piece.span, "referenced files")]
    return [piece]


def _checkpointed(value: dict[str, Any]) -> Draft:
    """A message of a checkpoint: the model's context after a compression, hidden, one message a record."""
    kind = value.get("type")
    role = {"user": "user", "gemini": "assistant"}.get(kind, "system") if isinstance(kind, str) else "system"
    content = value.get("content")
    text = content if isinstance(content, str) else flat_text(content) if isinstance(content, list) else ""
    return Draft(dict(role=role, name="checkpoint", channel="final", content=text, end="end", intent="context"),
                 None)


def _context(text: str, span, name: str) -> Draft:
    return Draft(dict(role="user", name=name, channel="final", content=text, end="end", intent="context"), span)


def _injected(text: str) -> bool:
    return text.lstrip().startswith(INJECTED_OPENINGS)


def _response_ids(content: Any) -> set[str]:
    """The ids of a user record made only of function responses (empty for any other record)."""
    if not isinstance(content, list) or not content:
        return set()
    ids = set()
    for part in content:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        if not isinstance(response, dict) or not isinstance(response.get("id"), str):
            return set()
        ids.add(response["id"])
    return ids


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
