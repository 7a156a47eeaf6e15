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

A log is read a line at a time by `GeminiCliReader` (viewer/parse/agents/online.py): whole by `parse_gemini_cli`,
and a big upload a piece at a time, in memory that follows the piece. What a line does to the records is replayed
when it is read; a record's messages are made once the next record with another id is read (the CLI rewrites a
response when its calls end), and the records a rewind sets aside are amended so. A record rewritten after later
records' messages were made (its messages go where its last copy stands) is read whole again with every line held
to the end (`Reread`; a big upload is then parsed whole), as is a whole recording (the `.json` form).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Line, claims, claims_by
from viewer.parse.agents.meta import between, summed_totals
from viewer.parse.agents.online import Ended, Reread, read_whole
from viewer.parse.agents.records import (
    details, gemini_parts, gemini_usage, item_objects, read_record, record_line, text_of)
from viewer.parse.agents.session import Session
from viewer.parse.agents.thread_calls import ThreadedReader
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.positions import JsonError, Member, Node, Partial, read_value, skip_blank
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.pieces import Piece
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
UNNAMED = ("This sub-agent's recording names no call of the session that started it; it is kept, hidden from the "
           "default view.")


@dataclass(slots=True)
class _Record:
    """One message record as it stands in the file, and what became of it."""

    line: Line | None
    """Its line, until its messages are made."""
    scope: str | None
    """The sub-agent whose log holds it (None: the session's own)."""
    checkpoint: bool = False
    """Written inside a `$set` of `messages`: the model's context after a compression."""
    superseded: bool = False
    """A later record with its id replaced it (before its messages were made): it gives none, it is frame."""
    first: int = -1
    """The index of its first message, once its messages are made (-1: not yet)."""
    end: int = -1
    """The index after its last message, once made."""


@dataclass(slots=True)
class _Entry:
    """A line read whose messages are not made yet, with what the replay of the log found of it when it was read."""

    line: Line
    scope: str | None
    records: list[_Record] | None = None
    """The message records it holds (a message record's line, a checkpoint's, a whole record's `messages`)."""
    removed: list[_Record] | None = None
    """A `$rewindTo`: the records it set aside, in the CLI's order."""

    @property
    def waits(self) -> bool:
        """Whether a later line may still replace its records (a line holding message records)."""
        return self.records is not None


def parse_gemini_cli(text: str, options: ParseOptions) -> Transcript:
    """Read a Gemini CLI recording, whole file or log. Never raises on user input."""
    if _is_document(text):
        with collector_paused:
            problems: list[Diagnostic] = []
            entries = _document_entries(text, problems)
        return read_whole(GeminiCliReader(held=True), text, (entries, problems))
    try:
        return read_whole(GeminiCliReader(), text)
    except Reread:  # a record rewritten after later messages were made: read with every line held to the end
        return read_whole(GeminiCliReader(held=True), text)


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

class GeminiCliReader(ThreadedReader):
    """Reads a log's lines in order, replaying what each does to the records as the CLI's loader does when it is
    read (`_replay`), and makes the messages of each line once no later line can replace its records (`_made`).

    A message record is held until the next record with another id (a note, `info` `warning` or `error`, after a
    response leaves the response held: the CLI rewrites a response when its tool calls end); what comes with the
    same id replaces it, and it gives no message. A record rewritten after its messages were made raises `Reread`
    (the file is read whole, with every line `held` to the end: the messages of a record replaced stand where the
    record replacing it does, which renumbers those between). A log that does not begin on its first line (a
    whole recording, pretty-printed) raises `Reread` too."""

    dialect = "gemini-cli"

    def __init__(self, session: Session | None = None, held: bool = False) -> None:
        super().__init__(session, UNNAMED)
        self.held = held
        """Every line held until all are read (the whole parse of a log whose records are rewritten late)."""
        self._set: dict[str, Any] = {}
        """The header's facts the `$set` lines gave (after the metadata's)."""
        self._usage, self._responses = Usage(), 0
        self._models: dict[str, None] = {}
        self._main: str | None = None
        self._scope: str | None = None
        """The sub-agent whose log the lines now read belong to (None: the session's own)."""
        self._live: dict[str | None, dict[str, _Record]] = {}
        """Per log: its records by id, in the CLI's order (what a later record replaces, what a rewind removes)."""
        self._waiting: deque[_Entry] = deque()
        """The lines read whose messages are not made yet."""
        self._answered: set[str] = set()
        """Call ids whose replies were read from a `toolCalls` result."""
        self._agent_calls: dict[str, int] = {}
        """A sub-agent's id -> the index of the call that started it."""
        self._aside: set[int] = set()
        self._late: list[tuple[str, list[Diagnostic]]] = []
        """The diagnostics of lines whose messages were made while a later piece was read, with their piece's text."""
        self._started = False

    def _call_of(self, thread: str) -> int | None:
        return self._agent_calls.get(thread)

    def totals(self) -> dict[str, Any]:
        return summed_totals(self._usage, self._responses, self._models)

    def line(self, line: Line) -> None:
        if not self._started:
            self._started = True
            if not self.held and line.number != 1:
                raise Reread("the recording does not begin with a line of its log")
        entry = self._replay(line)
        waiting = self._waiting
        waiting.append(entry)
        if self.held:
            return
        if entry.records is not None:
            if not (_is_note(line.value) and _is_response(waiting[0])):
                self._make(len(waiting) - 1)
        elif not (waiting[0].waits and _is_patch(line.value)):
            self._make(len(waiting))

    def waits_from(self) -> int | None:
        return self._waiting[0].line.number if self._waiting else None

    def all_read(self) -> None:
        self._begun()
        self._make(len(self._waiting))

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        self._begun()  # the first piece (a whole recording's lines are no log's: none of the first piece is read)
        return super().finish(messages, lines)

    def _begun(self) -> None:
        if not self._started and not self.held:
            raise Reread("the recording has no line of a log")

    def late(self, piece: Piece) -> list[Diagnostic]:
        found = [diagnostic for text, made in self._late if text is piece.text for diagnostic in made]
        self._late = [(text, made) for text, made in self._late if text is not piece.text]
        return found

    def header_now(self) -> dict[str, Any]:
        return {**self.header, **self._set}

    def end(self) -> Ended:
        threads, notes = self.threads.ended(self.session)
        return Ended(self.session.with_unread(self.header_now() | self.totals()), threads, notes,
                     frozenset(self._aside))

    # ---- what a line does to the records, when it is read (as the CLI replays the log)

    def _replay(self, line: Line) -> _Entry:
        value = line.value
        if _is_metadata(value) and not isinstance(value.get("id"), str):
            self._scope = self._metadata(value)
        scope = self._scope
        entry = _Entry(line, scope)
        current = self._live.setdefault(scope, {})
        if isinstance(value.get("$rewindTo"), str):
            ids = list(current)
            target = value["$rewindTo"]
            entry.removed = [current.pop(id) for id in (ids[ids.index(target):] if target in ids else ids)]
        elif isinstance(value.get("$set"), dict) and isinstance(value["$set"].get("messages"), list):
            current.clear()
            entry.records = self._held(line, ("$set", "messages"), scope, current, checkpoint=True)
        elif isinstance(value.get("messages"), list) and not isinstance(value.get("id"), str):
            entry.records = self._held(line, ("messages",), scope, current)
        elif isinstance(value.get("id"), str):
            record = _Record(line, scope)
            self._replace(current, value["id"], record)
            entry.records = [record]
        return entry

    def _replace(self, current: dict[str, _Record], id: str, record: _Record) -> None:
        earlier = current.get(id)
        if earlier is not None:
            if earlier.first >= 0:
                raise Reread("a message record rewritten after later messages")
            earlier.superseded = True
        current[id] = record

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
        for item in items:
            if isinstance(item.value, dict) and isinstance(item.value.get("id"), str):
                record = _Record(record_line(line.text, item, line.number), scope, checkpoint)
                self._replace(current, item.value["id"], record)
                records.append(record)
        return records

    # ---- the messages, in the file's order

    def _make(self, upto: int) -> None:
        """The messages of the first `upto` lines waiting."""
        session = self.session
        for _ in range(upto):
            entry = self._waiting.popleft()
            late = entry.line.text is not session.text  # a line of an earlier piece: its diagnostics are its piece's
            mark = len(session.diagnostics)
            self._entry(entry)
            if late and len(session.diagnostics) > mark:
                self._late.append((entry.line.text, session.taken_since(mark)))

    def _entry(self, entry: _Entry) -> None:
        line, value = entry.line, entry.line.value
        records = entry.records
        if "$set" in value or "$rewindTo" in value:
            self.session.account(line, PATCH_CLAIMS)
        elif _is_metadata(value):
            self.session.account(line, METADATA_CLAIMS)
        if entry.removed is not None:
            self.quiet.append(line.span)
            self._rewound(entry)
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
            if entry.scope is None:
                for key, name in (("summary", "session_title"), ("lastUpdated", "last_updated")):
                    if text_of(value["$set"].get(key)):
                        self._set[name] = value["$set"][key]
            self.quiet.append(line.span)
        elif _is_metadata(value):
            self.quiet.append(line.span)
        else:
            what = f"A line {type_phrase(value.get('type'), value)}"
            self.session.shown_whole(line)
            self.session.add_line(line, [drafts.unclassified("unknown", value.get("type"), value, line.span,
                                                             "W-JSON-UNKNOWN-ITEM", what)], self.session.next_turn())

    def _rewound(self, entry: _Entry) -> None:
        """A rewind: the messages of the records it removed (all made by now) aside."""
        removed = entry.removed or []
        for record in removed:
            for index in range(record.first, record.end):
                self.session.amend(index, _aside)
                self._aside.add(index)
        line = entry.line
        self.session.diagnostics.append(make_diagnostic(
            "W-SESSION-FORK", line.span,
            f"The user rewound the chat here to message {line.value.get('$rewindTo')!s:.60}: it and the "
            "messages after it are kept, hidden from the default view, which follows what came next.",
            removed[0].first if removed else None))

    def _record(self, record: _Record) -> None:
        line = record.line
        assert line is not None  # a record's messages are made once
        value = line.value
        record.line = None
        if record.superseded:
            self.quiet.append(line.span)
            return
        self.session.account(line, MESSAGE_CLAIMS(line))
        first = record.first = len(self.session.messages)
        if record.checkpoint:
            self.session.add_line(line, [_checkpointed(value)], self.session.next_turn())
        else:
            kind = value.get("type")
            if kind == "gemini":
                self._response(line, value)
            elif kind == "user":
                self._user(line, value)
            elif kind in NOTE_TYPES:
                self._note(line, value, kind)
            else:
                what = f"A message record {type_phrase(kind, value)}"
                self.session.shown_whole(line)
                self.session.add_line(line, [drafts.unclassified("unknown", kind, value, line.span,
                                                                 "W-JSON-UNKNOWN-ITEM", what)],
                                      self.session.next_turn())
        record.end = len(self.session.messages)
        timestamp = text_of(value.get("timestamp"))
        for index in range(first, record.end):
            self.metas.setdefault(index, Meta(timestamp=timestamp))
            if record.scope is not None:
                self.thread_of[index] = record.scope

    def _response(self, line: Line, value: dict[str, Any]) -> None:
        source, found = read_record(line.text, line, lambda source: _response_pieces(source, self.session))
        first = len(self.session.messages)
        self.session.add_line(line, found, self.session.next_turn(), source.problems)
        model = text_of(value.get("model"))
        tokens = value.get("tokens")
        usage = gemini_usage(tokens.get("input"), tokens.get("cached"), tokens.get("output"), tokens.get("thoughts"),
                             tokens.get("tool")) if isinstance(tokens, dict) else None
        if usage is not None:
            self._usage, self._responses = self._usage + usage, self._responses + 1
        if model:
            self._models[model] = None
        timestamp = text_of(value.get("timestamp"))
        calls = {call.get("id"): call for call in item_objects(source, "toolCalls")}
        # The response's usage goes on the last message the model wrote: the calls' results the record holds after
        # it are the tools', and a usage on one of them would count for no response.
        last = len(self.session.messages) - 1
        written = next((index for index in range(last, first - 1, -1) if not self.session.messages[index].is_reply),
                       last)
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
            self.metas[index] = Meta(timestamp=timestamp, model=model, usage=usage if index == written else None,
                                     details=details(call, CALL_DETAILS) if message.is_call and call else None)

    def _user(self, line: Line, value: dict[str, Any]) -> None:
        responses = _response_ids(value.get("content"))
        if responses and responses <= self._answered:
            self.quiet.append(line.span)  # the tool calls' results again, as the model got them
            return
        source, found = read_record(line.text, line, lambda source: _user_pieces(source, self.session))
        self.session.add_line(line, found, self.session.next_turn(), source.problems)
        if not found:
            self.quiet.append(line.span)

    def _note(self, line: Line, value: dict[str, Any], kind: str) -> None:
        text = flat_text(value.get("content"))
        problems = []
        if kind == "error":
            problems.append(Pending("W-API-ERROR", f"Gemini CLI reported an error: {_short(text)}", line.span))
        elif text.strip() == CANCELLED:
            problems.append(Pending("W-SESSION-INTERRUPTED", "The user cancelled the request here.", line.span))
        self.session.add_line(line, [Draft(dict(role="system", name=kind, channel="final", content=text, end="end"),
                                           None)], self.session.next_turn(), problems)


def _is_metadata(value: dict[str, Any]) -> bool:
    return isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str)


def _is_note(value: dict[str, Any]) -> bool:
    return value.get("type") in NOTE_TYPES and isinstance(value.get("id"), str)


def _is_response(entry: _Entry) -> bool:
    """A response's record, waiting (the CLI may yet rewrite it)."""
    return entry.records is not None and entry.line.value.get("type") == "gemini" \
        and isinstance(entry.line.value.get("id"), str)


def _is_patch(value: dict[str, Any]) -> bool:
    """A `$set` of the metadata (no checkpoint): frame, which waits with the record before it."""
    return isinstance(value.get("$set"), dict) and "$rewindTo" not in value and not _is_metadata(value)


def _aside(message: Message) -> Message:
    return replace_fields(message, aside=True)


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
