"""Qwen Code sessions (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`), dialect `qwen-code`: one `ChatRecord` per
line, as QwenLM/qwen-code's chatRecordingService writes it. The envelope is Claude Code's (`uuid`, `parentUuid`,
`sessionId`, `timestamp`, `cwd`, `version`, `gitBranch`), the message a Gemini API content (`{role: "user" |
"model", parts}`), read by the JSON package's Gemini reader.

- `user`: what the user typed; parts the CLI wrote (`<system-reminder>`, files an `@path` appended) and records
  whose `provenance` is not the user's (`system`, goals) are context.
- `assistant` (`role: "model"`): `thought` parts are reasoning, text the answer (a preamble when the response
  calls a tool), `functionCall` parts the calls; `usageMetadata` and `model` its usage. Records sharing a `uuid`
  are fragments of one response (the CLI streams the thought first): one turn, its usage once, on the last.
- `tool_result`: the `functionResponse` parts of the replies, paired by id; `toolCallResult.status` `error` is
  W-TOOL-ERROR and `cancelled` W-SESSION-INTERRUPTED; `resultDisplay` is the UI's copy (left in the source).
- `system` (`subtype`, `systemPayload`): the title (`custom_title`), the model, telemetry and file snapshots are
  frame; a slash command's invocation is what the user typed; a compression (`chat_compression`) is a hidden
  system message with W-SESSION-COMPACTED; every other subtype is a hidden system message.
- The `parentUuid` tree as tree.py reads Claude Code's (a branch left by `/branch` or a resume is aside); a
  sub-agent's records (`isSidechain`, `agentId`) are a thread under the call that started it: the one an
  `agent_session_ready` record names by its `callId`, else the `task` call whose prompt its first message is.

A session is read a line at a time by `QwenCodeReader` (viewer/parse/agents/online.py): whole by `parse_qwen_code`,
and a big upload a piece at a time, in memory that follows the piece. What a later line decides about a message
finished before is an amendment: a response's usage (on its last fragment, which may come later), a parent met
late or passed through (a record that gave no message), a branch aside, a thread's call.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Thread, Transcript, Usage, make_diagnostic
from viewer.model.branches import FORKS_KEY
from viewer.parse.agents.lines import Claims, Line, claims, claims_by
from viewer.parse.agents.meta import between, usage_totals
from viewer.parse.agents.online import Ended, LineReader, read_whole
from viewer.parse.agents.records import gemini_parts, gemini_usage, line_details, read_record, text_of
from viewer.parse.agents.session import Change, Session
from viewer.parse.agents.threads import Threads, prompt_of
from viewer.parse.agents.tree import HANGS, GrowingTree, Kinds, branches_ended, chased
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

RECORD_TYPES = ("user", "assistant", "tool_result", "system")
QUIET_SUBTYPES = frozenset(("custom_title", "ui_telemetry", "file_history_snapshot", "session_model",
                            "session_approval_mode", "branch_checkpoint", "parent_session", "session_source",
                            "session_execution_engine", "attribution_snapshot", "session_artifact_event",
                            "session_artifact_snapshot", "session_sources_snapshot", "agent_session_ready",
                            "agent_retry", "session_notes"))
"""System records that describe the session or the UI, not the conversation."""
INJECTED_OPENINGS = ("<system-reminder>", "<system_reminder>", "--- Content from referenced files ---",
                     "\n--- Content from referenced files ---")
USER_PROVENANCE = ("real_user", None)
HEADER_KEYS = {"sessionId": "session_id", "cwd": "cwd", "gitBranch": "git_branch", "version": "version"}
REPLY_DETAILS = ("resultDisplay",)
"""What a tool result record says beside what the model got: what the UI showed (a diff, a sub-agent's run)."""
_ENVELOPE = ("type", "timestamp", "uuid", "parentUuid", *HEADER_KEYS, "isSidechain", "agentId", "agentName",
             "provenance")
"""Every record's envelope (`provenance` says whose a user record is; on the others it repeats the type)."""
CLAIMS = claims_by("type", {
    "user": ("message.role", "message.parts"),
    "assistant": ("message.role", "message.parts", "model", "contextWindowSize",
                  *(f"usageMetadata.{key}" for key in ("promptTokenCount", "cachedContentTokenCount",
                                                       "candidatesTokenCount", "thoughtsTokenCount",
                                                       "totalTokenCount"))),
    "tool_result": ("message.role", "message.parts", "toolCallResult.status", "toolCallResult.responseParts",
                    *(f"toolCallResult.{key}" for key in REPLY_DETAILS)),
    "system": ("subtype", "systemPayload"),
}, common=_ENVELOPE)
"""What the reader reads of a record: `totalTokenCount` is the sum it shows in parts, `responseParts` the parts
of the message again; a system record's payload is its message's body."""
QUIET_CLAIMS = claims(*_ENVELOPE, "subtype", "systemPayload.customTitle", "systemPayload.callId")
"""What it reads of a system record that gives no message (the title, the call a sub-agent answers)."""


def is_qwen_line(first: dict[str, Any]) -> bool:
    """A first line of a Qwen Code session rather than Claude Code's, whose envelope it shares: a Gemini content
    (`parts`, role `model`), or a field only Qwen Code writes."""
    if first.get("type") == "tool_result" or any(key in first for key in ("provenance", "systemPayload",
                                                                          "usageMetadata", "toolCallResult")):
        return True
    message = first.get("message")
    return isinstance(message, dict) and ("parts" in message or message.get("role") == "model")


def parse_qwen_code(text: str, options: ParseOptions) -> Transcript:
    """Read a Qwen Code session. Never raises on user input."""
    return read_whole(QwenCodeReader(), text)


def _claims(line: Line) -> Claims:
    if line.get("type") == "system" and line.get("subtype") in QUIET_SUBTYPES:
        return QUIET_CLAIMS
    return CLAIMS(line)


KEPT_KEYS = ("type", "uuid", "parentUuid", "logicalParentUuid", "timestamp", "model", "isSidechain", "agentId")


def _kept(value: dict[str, Any]) -> dict[str, Any]:
    """What a record's messages are finished with (its links, time, model and thread; tree.py's `Kinds` reads its
    message's id and the types of its blocks): a big session's decoded records are most of what its parse holds."""
    kept = {key: value[key] for key in KEPT_KEYS if key in value}
    body = value.get("message")
    if isinstance(body, dict):
        kept["message"] = {"id": body["id"]} if "id" in body else {}
        if isinstance(body.get("content"), list):
            kept["message"]["content"] = [{"type": block.get("type")} if isinstance(block, dict) else None
                                          for block in body["content"]]
    return kept


class QwenCodeReader(LineReader):
    """Reads records in order into the session; their messages are finished with their thread, parent and
    metadata a batch at a time, and the end decides the branches left aside and the threads' calls."""

    dialect = "qwen-code"

    def __init__(self, session: Session | None = None) -> None:
        super().__init__(session or Session("", kept=_kept))
        self.header: dict[str, Any] = {"producer": "qwen-code"}
        self._wanted = dict(HEADER_KEYS)
        self._turns: dict[str, int] = {}
        """Each assistant uuid's turn: its fragments are one response."""
        self._usage: dict[str, Usage] = {}
        """Each assistant uuid's last usage."""
        self._holders: dict[str, int] = {}
        """Each assistant uuid's message that holds its usage: the last of its last record that gave messages."""
        self._models: dict[str, None] = {}
        self._called: dict[str, str] = {}
        """call_id -> the time of its first call (a reply's duration is counted from it)."""
        self._details: dict[int, dict[str, Any]] = {}
        """Record number -> what its `toolCallResult` says beside its replies (REPLY_DETAILS), until they are
        finished."""
        self._skipped: dict[str, str | None] = {}
        """A record that gave no message -> its parent: the chain goes through it."""
        self._threads = _QwenThreads()
        self._trees: dict[str | None, GrowingTree] = {None: GrowingTree()}
        """The tree of the main conversation (None) and of each thread, in the order they start."""
        self._kinds = Kinds()

    def line(self, line: Line) -> None:
        self.session.account(line, _claims(line))
        value = line.value
        if self._wanted:
            for key in list(self._wanted):
                if text_of(value.get(key)):
                    self.header[self._wanted.pop(key)] = value[key]
        if text_of(value.get("agentId")) and text_of(value.get("agentName")):
            self.header.setdefault("agents", {}).setdefault(value["agentId"], value["agentName"])
        if isinstance(value.get("contextWindowSize"), int):
            self.header["context_window"] = value["contextWindowSize"]
        said = line_details(line, ("toolCallResult",), REPLY_DETAILS)
        if said is not None:
            self._details[line.number] = said
        kind = value.get("type")
        if kind == "assistant":
            self._assistant(line)
        elif kind in ("user", "tool_result"):
            self._input(line, kind)
        elif kind == "system":
            self._system(line)
        else:
            what = f"A line {type_phrase(kind, value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, value, line.span, "W-JSON-UNKNOWN-ITEM", what)])

    def _assistant(self, line: Line) -> None:
        value = line.value
        uuid = text_of(value.get("uuid"))
        if not isinstance(value.get("message"), dict):
            return self._shapeless(line)
        source, found = read_record(line.text, line, lambda source: _content(source, "model", self.session))
        turn = self._turns.get(uuid) if uuid else None
        if turn is None:
            turn = self.session.next_turn()
            if uuid:
                self._turns[uuid] = turn
        self._add(line, found, source.problems, turn)
        metadata = value.get("usageMetadata")
        if uuid and isinstance(metadata, dict):
            usage = gemini_usage(metadata.get("promptTokenCount"), metadata.get("cachedContentTokenCount"),
                                 metadata.get("candidatesTokenCount"), metadata.get("thoughtsTokenCount"))
            self._usage[uuid] = usage
            if uuid in self._holders:  # its holder was finished: a later fragment's usage replaces the one it has
                self.session.amend(self._holders[uuid], _with_usage(usage))

    def _input(self, line: Line, kind: str) -> None:
        value = line.value
        if not isinstance(value.get("message"), dict):
            return self._shapeless(line)
        injected = kind == "user" and value.get("provenance") not in USER_PROVENANCE
        result = object_in(value, "toolCallResult")
        source, found = read_record(line.text, line, lambda source: _content(source, "user", self.session))
        for piece in found:
            fields = piece.fields
            if fields.get("role") == "user" and (injected or kind == "tool_result"
                                                 or _injected(fields.get("content", ""))):
                fields["intent"] = "context"
            if fields.get("role") == "tool":
                fields["content"] = _output(fields.get("content", ""))
                _result_status(piece, result.get("status"), fields.get("name"), line.span)
        self._add(line, found, source.problems)

    def _system(self, line: Line) -> None:
        value = line.value
        subtype = text_of(value.get("subtype")) or "system"
        payload = object_in(value, "systemPayload")
        if subtype == "custom_title" and text_of(payload.get("customTitle")):
            self.header["session_title"] = payload["customTitle"]
        if subtype == "agent_session_ready" and text_of(payload.get("callId")) and text_of(value.get("agentId")):
            self._threads.ready.setdefault(value["agentId"], payload["callId"])
        if subtype in QUIET_SUBTYPES:
            return self._silent(line)
        problems = []
        if subtype == "slash_command" and payload.get("phase", "invocation") == "invocation" \
                and text_of(payload.get("rawCommand")) and payload.get("hiddenInvocation") is not True:
            piece = Draft(dict(role="user", channel="final", content=payload["rawCommand"], end="end"), None)
        else:
            if subtype == "chat_compression":
                problems.append(Pending("W-SESSION-COMPACTED", "Qwen Code compressed the chat here: the history the "
                                                               "model saw next is this record's summary and the "
                                                               "turns it kept.", line.span))
            shown = payload.get("info") if subtype == "chat_compression" else payload
            piece = Draft(dict(role="system", name=subtype, channel="final",
                               content=shown_json(shown) if shown else "", end="end"), None)
        self._add(line, [piece], problems)

    def _shapeless(self, line: Line) -> None:
        self.session.diagnostics.append(make_diagnostic(
            "W-JSON-SHAPE", line.span, f"This {line.value.get('type')} record has no message object; it was "
                                       "skipped."))
        self._silent(line, quiet=False)

    def _silent(self, line: Line, quiet: bool = True) -> None:
        """A record that gives no message: the chain of parents goes through it."""
        if quiet:
            self.quiet.append(line.span)
        uuid = text_of(line.value.get("uuid"))
        if uuid is not None:
            self._skipped[uuid] = text_of(line.value.get("parentUuid"))

    def _add(self, line: Line, found: list[Draft], problems=(), turn: int | None = None) -> None:
        if not found:
            self.session.diagnostics.extend(problem.at(None) for problem in problems)
            return self._silent(line)
        self.session.add_line(line, found, self.session.next_turn() if turn is None else turn, problems)

    # ---- a batch at a time, and at the end

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """Each message with its thread, parent (in its thread's tree) and metadata."""
        names = self._threads.place(messages, lines, self.session.lines)
        holders = self._usage_holders(messages, lines)
        done = []
        for message, line, name in zip(messages, lines, names):
            tree = self._trees.get(name)
            if tree is None:
                tree = self._trees[name] = GrowingTree()
            value = line.value
            parent_id = chased(text_of(value.get("parentUuid")), self._skipped) \
                or text_of(value.get("logicalParentUuid"))
            kind, response = self._kinds.of(value)
            parent = tree.add(message.index, line.number, text_of(value.get("uuid")), parent_id,
                              HANGS if value.get("type") == "tool_result" else kind, response)
            done.append(replace_fields(message, thread=name, parent=parent, meta=self._meta(message, line, holders)))
        if lines:  # what records with no message said goes with them
            last = lines[-1].number
            for number in [number for number in self._details if number <= last]:
                del self._details[number]
        return done

    def _usage_holders(self, messages: list[Message], lines: list[Line]) -> set[int]:
        """The messages of the batch that hold their response's usage now (the last of the last record of its
        uuid that gave messages); the messages of earlier batches that held it no longer do."""
        last: dict[str, int] = {}
        for message, line in zip(messages, lines):
            uuid = text_of(line.get("uuid"))
            if uuid and line.get("type") == "assistant":
                last[uuid] = message.index
        for uuid, index in last.items():
            before = self._holders.get(uuid)
            if before is not None and uuid in self._usage:
                self.session.amend(before, _with_usage(None))
            self._holders[uuid] = index
        return set(last.values())

    def _meta(self, message: Message, line: Line, holders: set[int]) -> Meta:
        timestamp = text_of(line.get("timestamp"))
        usage = model = None
        if line.get("type") == "assistant":
            model = text_of(line.get("model"))
            if message.index in holders:
                usage = self._usage.get(line.get("uuid"))
            if model:
                self._models[model] = None
        if message.is_call and message.call_id and timestamp:
            self._called.setdefault(message.call_id, timestamp)
        duration = between(self._called.get(message.call_id or ""), timestamp) if message.is_reply else None
        return Meta(timestamp=timestamp, model=model, usage=usage, duration_ms=duration,
                    details=self._details.get(line.number) if message.is_reply else None)

    def header_now(self) -> dict[str, Any]:
        header = dict(self.header)
        if "agents" in header:  # the reader goes on adding to it
            header["agents"] = dict(header["agents"])
        return header

    def threads_now(self) -> tuple[Thread, ...]:
        return self._threads.now()

    def end(self) -> Ended:
        threads, notes = self._threads.ended(lambda index: self.session.amend(index, _same))
        trees = (self._trees[None], *(self._trees[thread.id] for thread in threads))
        for tree in trees:
            tree.skipping(self._skipped)
        branches = branches_ended(trees, self.session.amend)
        totals = usage_totals([self._usage[uuid] for uuid in self._holders if uuid in self._usage], self._models)
        if branches.forks:
            totals[FORKS_KEY] = [fork.to_json() for fork in branches.forks]
        return Ended(self.session.with_unread(self.header | totals), threads, [*notes, *branches.notes],
                     frozenset(branches.aside))


class _QwenThreads(Threads):
    """threads.py's placing of sidechain messages with Qwen Code's names and calls: a sub-agent is named by its
    `agentId`; its call is the one its `agent_session_ready` record names by id, else the call whose `prompt` is
    its first message. A thread has no title."""

    def __init__(self) -> None:
        super().__init__()
        self.ready: dict[str, str] = {}
        """A sub-agent's id -> the call id its `agent_session_ready` record names."""

    def _name(self, line: Line) -> str:
        return text_of(line.get("agentId")) or "sidechain"

    def _main(self, message: Message, line: Line) -> None:
        if not message.is_call:
            return
        if message.call_id:
            self._calls[message.call_id] = message.index
        if '"prompt"' in message.content:
            prompt = prompt_of(message.content)
            if prompt is not None:
                self._by_prompt.setdefault(prompt.strip(), message.index)

    def call_of(self, name: str) -> int | None:
        call = self._calls.get(self.ready.get(name, ""))
        opening = self.opening.get(name)
        return call if call is not None or opening is None else self._by_prompt.get(opening)

    def now(self) -> tuple[Thread, ...]:
        return tuple(Thread(name, self.call_of(name)) for name in self.first)


def _with_usage(usage: Usage | None) -> Change:
    def change(message: Message) -> Message:
        return replace_fields(message, meta=dataclasses.replace(message.meta or Meta(), usage=usage))
    return change


def _same(message: Message) -> Message:
    """No change to the message itself: what is stored beside it (its thread's call) changed."""
    return message


def _content(source: JsonObject, role: str, session: Session) -> list[Draft]:
    """A record's message: a Gemini content; each text part of a user's is its own message, so what the CLI wrote
    beside what the user typed is told apart."""
    message = source.get("message")
    located = source.members.get("message")
    inner = JsonObject(message, source.span_of("message"), dict(located.node.members) if located else None)
    if role == "user" and isinstance(message.get("parts"), list):
        found = _user_parts(inner, session)
    else:
        found = gemini_parts(inner, "parts", role, session)
    source.problems.extend(inner.problems)
    return found


def _user_parts(inner: JsonObject, session: Session) -> list[Draft]:
    parts = inner.get("parts")
    node = inner.node_of("parts")
    spans = [item.span for item in node.items] if node is not None and len(node.items) == len(parts) \
        else [inner.span_of("parts")] * len(parts)
    found: list[Draft] = []
    for part, span in zip(parts, spans):
        if isinstance(part, dict) and set(part) <= {"text"} and isinstance(part.get("text"), str):
            found.append(Draft(dict(role="user", channel="final", content=part["text"], end="end"), span))
            continue
        one = JsonObject({"parts": [part]}, span, None)
        found.extend(gemini_parts(one, "parts", "user", session))
        inner.problems.extend(one.problems)
    return found


def _result_status(piece: Draft, status: Any, name: Any, span) -> None:
    tool = name or "the tool"
    if status == "error" and not any(problem.code == "W-TOOL-ERROR" for problem in piece.problems):
        piece.problems.append(Pending("W-TOOL-ERROR", f"The call to {tool} failed.", piece.span or span))
    elif status == "cancelled":
        piece.problems.append(Pending("W-SESSION-INTERRUPTED", f"The call to {tool} was cancelled.",
                                      piece.span or span))


def _output(content: str) -> str:
    """A function response's `output` (or `error`) text, as the model read it, rather than its JSON wrapper."""
    if not content.startswith("{"):
        return content
    try:
        response = json.loads(content)
    except ValueError:
        return content
    if isinstance(response, dict) and len(response) == 1:
        inner = response.get("output", response.get("error"))
        if isinstance(inner, str):
            return inner
    return content


def _injected(text: str) -> bool:
    return text.lstrip(" \t").startswith(INJECTED_OPENINGS)
