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
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from viewer.model import Diagnostic, Meta, Thread, Transcript, Usage, make_diagnostic
from viewer.model.branches import FORKS_KEY
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Claims, Line, claims, claims_by, read_lines
from viewer.parse.agents.meta import between, usage_totals
from viewer.parse.agents.records import (
    finished, gemini_parts, gemini_usage, line_details, read_record, text_of, threads_of)
from viewer.parse.agents.session import Session
from viewer.parse.agents.tree import Tree
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
    with collector_paused:
        lines, unreadable = read_lines(text)
        session = Session(text)
        reader = _Reader(session)
        for line in session.accounted(lines, _claims):
            reader.line(line)
        session = reader.session
        messages, totals, structure_problems, threads = reader.structure()
        diagnostics = [*unreadable, *session.diagnostics, *structure_problems]
        return Transcript(dialect="qwen-code", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=session.with_unread(reader.header | totals), threads=threads,
                          frame=session.frame(reader.quiet, diagnostics))


def _claims(line: Line) -> Claims:
    if line.get("type") == "system" and line.get("subtype") in QUIET_SUBTYPES:
        return QUIET_CLAIMS
    return CLAIMS(line)


class _Reader:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.header: dict[str, Any] = {"producer": "qwen-code"}
        self.quiet: list[tuple[int, int]] = []
        self._wanted = dict(HEADER_KEYS)
        self._turns: dict[str, int] = {}
        """Each assistant uuid's turn: its fragments are one response."""
        self._usage: dict[str, tuple[Usage, str | None]] = {}
        """Each assistant uuid's last usage and model."""
        self._last_line: dict[str, Line] = {}
        self._quiet_parents: dict[str, str | None] = {}
        """A record that gave no message -> its parent: the chain goes through it."""
        self._ready: dict[str, str] = {}
        """A sub-agent's id -> the call id its `agent_session_ready` record names."""

    def line(self, line: Line) -> None:
        value = line.value
        if self._wanted:
            for key in list(self._wanted):
                if text_of(value.get(key)):
                    self.header[self._wanted.pop(key)] = value[key]
        if text_of(value.get("agentId")) and text_of(value.get("agentName")):
            self.header.setdefault("agents", {}).setdefault(value["agentId"], value["agentName"])
        if isinstance(value.get("contextWindowSize"), int):
            self.header["context_window"] = value["contextWindowSize"]
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
            self._usage[uuid] = (usage, text_of(value.get("model")))
        if uuid and found:
            self._last_line[uuid] = line

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
            self._ready.setdefault(value["agentId"], payload["callId"])
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
            self._quiet_parents[uuid] = text_of(line.value.get("parentUuid"))

    def _add(self, line: Line, found: list[Draft], problems=(), turn: int | None = None) -> None:
        if not found:
            self.session.diagnostics.extend(problem.at(None) for problem in problems)
            return self._silent(line)
        self.session.add_line(line, found, self.session.next_turn() if turn is None else turn, problems)

    # ---- after every line

    def structure(self) -> tuple[tuple, dict[str, Any], list[Diagnostic], tuple[Thread, ...]]:
        messages, lines = self.session.messages, self.session.lines
        self._through_silent_records(lines)
        side = {index for index, line in enumerate(lines) if line.get("isSidechain") is True}
        if len(side) == len(messages):
            side = set()  # a sub-agent's own log: its conversation is the main one
        thread_of = {index: text_of(lines[index].get("agentId")) or "sidechain" for index in side}
        main = [index for index in range(len(messages)) if index not in side]
        trees = [_QwenTree(messages, lines, main)]
        for name in dict.fromkeys(thread_of[index] for index in sorted(thread_of)):
            trees.append(_QwenTree(messages, lines, [index for index, agent in thread_of.items() if agent == name]))
        parents = {index: at for tree in trees for index, at in tree.parent.items()}
        aside = set().union(*(tree.aside for tree in trees))
        metas, usages, models = self._metas(messages, lines)
        totals = usage_totals(usages, models)
        forks = [fork.to_json() for tree in trees for fork in tree.forks]
        if forks:
            totals[FORKS_KEY] = forks
        threads, problems = self._threads(messages, thread_of)
        problems.extend(diagnostic for tree in trees for diagnostic in tree.diagnostics)
        return finished(messages, metas, thread_of, aside, parents), totals, problems, threads

    def _through_silent_records(self, lines: Sequence[Line]) -> None:
        """A record's parent that gave no message (a title, a snapshot) is replaced by the nearest that did."""
        for line in {id(line): line for line in lines}.values():
            parent = text_of(line.value.get("parentUuid"))
            seen = set()
            while parent in self._quiet_parents and parent not in seen:
                seen.add(parent)
                parent = self._quiet_parents[parent]
            if parent != line.value.get("parentUuid"):
                line.value["parentUuid"] = parent

    def _metas(self, messages, lines) -> tuple[dict[int, Meta], list[Usage], list[str]]:
        metas: dict[int, Meta] = {}
        called: dict[str, str] = {}
        usages, models = [], []
        last_of: dict[str, int] = {}
        for index, line in enumerate(lines):
            uuid = text_of(line.get("uuid"))
            if uuid in self._usage and self._last_line.get(uuid) is line:
                last_of[uuid] = index
        for index, (message, line) in enumerate(zip(messages, lines)):
            timestamp = text_of(line.get("timestamp"))
            uuid = text_of(line.get("uuid"))
            usage = model = None
            if line.get("type") == "assistant":
                model = text_of(line.get("model"))
                if uuid in last_of and last_of[uuid] == index:
                    usage, _ = self._usage[uuid]
                    usages.append(usage)
                if model:
                    models.append(model)
            if message.is_call and message.call_id and timestamp:
                called.setdefault(message.call_id, timestamp)
            duration = between(called.get(message.call_id or ""), timestamp) if message.is_reply else None
            metas[index] = Meta(timestamp=timestamp, model=model, usage=usage, duration_ms=duration,
                                details=line_details(line, ("toolCallResult",), REPLY_DETAILS)
                                if message.is_reply else None)
        return metas, usages, models

    def _threads(self, messages, thread_of: dict[int, str]) -> tuple[tuple[Thread, ...], list[Diagnostic]]:
        calls = {message.call_id: message.index for message in messages
                 if message.is_call and message.call_id and message.index not in thread_of}
        prompts = _calls_by_prompt(messages, thread_of)
        first: dict[str, int] = {}
        for index in sorted(thread_of):
            first.setdefault(thread_of[index], index)

        def call_of(name: str) -> int | None:
            call = calls.get(self._ready.get(name, ""))
            opening = messages[first[name]]
            return call if call is not None or opening.role != "user" else prompts.get(opening.content.strip())

        return threads_of(messages, thread_of, call_of, "This sub-agent's conversation names no call that started "
                                                        "it; it is kept, hidden from the default view.")


class _QwenTree(Tree):
    """tree.py's reading of the parentUuid tree, where a `tool_result` record hangs off its call like a Claude
    Code user line of tool results, and a response's fragments share their uuid."""

    def _is_branch(self, uuid: str, parent: str) -> bool:
        if self._lines[self._first[uuid]].value.get("type") == "tool_result":
            return False
        return super()._is_branch(uuid, parent)


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


def _calls_by_prompt(messages, thread_of: dict[int, str]) -> dict[str, int]:
    """A sub-agent's first message -> the session's call that gave it as its `prompt`."""
    found: dict[str, int] = {}
    for message in messages:
        if message.is_call and message.index not in thread_of and '"prompt"' in message.content:
            try:
                arguments = json.loads(message.content)
            except ValueError:
                continue
            prompt = arguments.get("prompt") if isinstance(arguments, dict) else None
            if isinstance(prompt, str):
                found.setdefault(prompt.strip(), message.index)
    return found

