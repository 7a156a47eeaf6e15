"""Factory Droid sessions (`~/.factory/sessions/<cwd>/<session>.jsonl`), dialect `factory-droid`: a `session_start`
line (`id`, `title`, `sessionTitle`, `cwd`, and for a sub-agent `callingSessionId` / `callingToolUseId`), then
`message` lines (`id`, `timestamp`, `parentId`, `message: {role, content}` with Anthropic blocks, one whole API
message a line), `todo_state` and `compaction_state` lines.

- A user message's text is what the user typed; the `<system-reminder>` blocks Droid writes into it (working
  folder, git status, date, AGENTS.md) are context; its `tool_result` blocks are the replies to the calls of the
  same id (`is_error` is W-TOOL-ERROR).
- An assistant message: `thinking` is reasoning (its signature opaque), text the answer (a preamble when the
  message calls a tool), `tool_use` the calls; `model` and `usage` where a build writes them.
- `compaction_state`: the summary that replaced the history, hidden context (W-SESSION-COMPACTED); `todo_state`
  (the UI's todo list) is frame; any other line is a hidden message with W-JSON-UNKNOWN-ITEM.
- A sub-agent writes a session of its own beside its parent's, whose `session_start` names the parent session and
  the `Task` call that started it: joined after the parent's lines, its messages are a thread under that call.

A session is read a line at a time by `DroidReader` (viewer/parse/agents/online.py): whole by
`parse_factory_droid`, and a big upload a piece at a time, in memory that follows the piece. What a line says of
its messages (time, model, usage, thread) is known when it is read (a sub-agent's session follows the call that
started it); the header's totals are summed as the lines come, and the end notes a sub-agent whose call the file
does not hold (thread_calls.py).
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Meta, Transcript, Usage
from viewer.parse.agents.lines import Line, claims_by
from viewer.parse.agents.meta import between, summed_totals
from viewer.parse.agents.online import read_whole
from viewer.parse.agents.records import (
    anthropic_blocks, count, member_object, read_record, text_of)
from viewer.parse.agents.session import Session
from viewer.parse.agents.thread_calls import ThreadedReader
from viewer.parse.common import Pending
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

LINE_TYPES = ("session_start", "message", "todo_state", "compaction_state")
_REMINDER = re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.DOTALL)
ANSWER = dict(role="assistant", channel="final", end="end")
USAGE = {"input": ("input_tokens", "inputTokens"), "output": ("output_tokens", "outputTokens"),
         "cache_read": ("cache_read_input_tokens", "cacheReadTokens"),
         "cache_write": ("cache_creation_input_tokens", "cacheCreationTokens")}


CLAIMS = claims_by("type", {
    "session_start": ("cwd", "model", "callingSessionId", "callingToolUseId", "sessionTitle", "title", "version"),
    "message": ("message.role", "message.content", "message.model", "message.usage"),
    "todo_state": (),
    "compaction_state": ("summary.body",),
}, common=("type", "timestamp", "id", "parentId"))
"""What the reader reads of each line; the rest (the UI's todo list, a summary's title) is kept in the header's
`unread`."""


def is_droid_message(first: dict[str, Any]) -> bool:
    """A `message` line of a Droid session whose first line is not its `session_start` (a copy cut at its
    start): an Anthropic message nested under `message` (Claude Code's lines have `uuid`), with a block only
    Droid writes there: `tool_use`, `tool_result`, a signed `thinking`, or a `<system-reminder>` (Pi's messages
    nest the same way, with blocks of its own)."""
    message = first.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if "uuid" in first or not isinstance(content, list):
        return False
    for block in content:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind in ("tool_use", "tool_result") or kind == "thinking" and "signature" in block \
                or kind == "text" and str(block.get("text", "")).lstrip().startswith("<system-reminder>"):
            return True
    return False


UNNAMED = ("This sub-agent's session names no call of this session that started it; it is kept, hidden from the "
           "default view.")


def parse_factory_droid(text: str, options: ParseOptions) -> Transcript:
    """Read a Factory Droid session (with its sub-agents' sessions after it). Never raises on user input."""
    return read_whole(DroidReader(), text)


class DroidReader(ThreadedReader):
    """Reads a session's lines in order into the session; each message's metadata and thread, known when its line
    is read, are held until it is finished."""

    dialect = "factory-droid"

    def __init__(self, session: Session | None = None) -> None:
        super().__init__(session, UNNAMED)
        self._usage, self._responses = Usage(), 0
        """The usage the messages recorded, summed, and how many recorded one."""
        self._models: dict[str, None] = {}
        """The models the messages name, in the order each is first named."""
        self._main: str | None = None
        self._scope: str | None = None
        """The sub-agent whose session the lines now read belong to (None: the main one)."""
        self._callers: dict[str, str] = {}
        """A sub-agent's session id -> the id of the call that started it."""
        self._calls: dict[str, int] = {}
        self._called: dict[str, str] = {}
        """call id -> when it was made, until its reply (which is timed from it)."""

    def line(self, line: Line) -> None:
        self.session.account(line, CLAIMS(line))
        value = line.value
        kind = value.get("type")
        timestamp = text_of(value.get("timestamp"))
        first = len(self.session.messages)
        if kind == "session_start":
            self._start(value)
            self.quiet.append(line.span)
        elif kind == "message" and isinstance(value.get("message"), dict):
            self._message(line)
        elif kind == "todo_state":
            self.quiet.append(line.span)
        elif kind == "compaction_state":
            summary = value.get("summary")
            body = summary.get("body") if isinstance(summary, dict) else summary
            self._add(line, [Draft(dict(role="user", name="compaction summary", channel="final",
                                        content=flat_text(body), end="end", intent="context"), None)],
                      [Pending("W-SESSION-COMPACTED", "Droid compacted its context here: this summary replaced the "
                                                      "history the model saw next.", line.span)])
        else:
            what = f"A line {type_phrase(kind, value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, value, line.span, "W-JSON-UNKNOWN-ITEM", what)])
        for index in range(first, len(self.session.messages)):
            self.metas.setdefault(index, Meta(timestamp=timestamp))

    def _start(self, value: dict[str, Any]) -> None:
        session = text_of(value.get("id")) or text_of((value.get("session") or {}).get("id")
                                                      if isinstance(value.get("session"), dict) else None)
        if self._main is None:
            self._main = session or ""
            for key, name in (("id", "session_id"), ("cwd", "cwd"), ("model", "model"),
                              ("callingSessionId", "calling_session_id")):
                if text_of(value.get(key)):
                    self.header[name] = value[key]
            if isinstance(value.get("version"), int):
                self.header["format_version"] = value["version"]
            title = text_of(value.get("sessionTitle")) or text_of(value.get("title"))
            if title:
                self.header["session_title"] = title
            if text_of(value.get("title")) and value["title"] != title:
                self.header["first_title"] = value["title"]  # the title Droid gave the session at its start
            self._scope = None
            return
        self._scope = session if session != self._main else None
        if self._scope is not None and text_of(value.get("callingToolUseId")):
            self._callers[self._scope] = value["callingToolUseId"]

    def _message(self, line: Line) -> None:
        value = line.value
        role = value["message"].get("role")
        if role not in ("user", "assistant"):
            what = f"A message of role {role!r}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", role, value, line.span, "W-JSON-UNKNOWN-ITEM", what)])
            return
        source, found = read_record(line.text, line, lambda source: _pieces(source, role, self.session))
        first = len(self.session.messages)
        self._add(line, found, source.problems)
        body = value["message"]
        timestamp = text_of(value.get("timestamp"))
        model = text_of(body.get("model"))
        usage = _usage(body.get("usage"))
        if usage is not None:
            self._usage, self._responses = self._usage + usage, self._responses + 1
        if model:
            self._models[model] = None
        last = len(self.session.messages) - 1
        for index in range(first, last + 1):
            message = self.session.messages[index]
            if message.is_call and message.call_id:
                self._calls.setdefault(message.call_id, index)
                self._called.setdefault(message.call_id, timestamp or "")
            duration = between(self._called.pop(message.call_id or "", None) or None, timestamp) \
                if message.is_reply else None
            self.metas[index] = Meta(timestamp=timestamp, model=model if role == "assistant" else None,
                                     usage=usage if index == last else None, duration_ms=duration)

    def _add(self, line: Line, found: list[Draft], problems=()) -> None:
        first = len(self.session.messages)
        self.session.add_line(line, found, self.session.next_turn(), problems)
        if not found:
            self.quiet.append(line.span)
        if self._scope is not None:
            for index in range(first, len(self.session.messages)):
                self.thread_of[index] = self._scope

    def _call_of(self, scope: str) -> int | None:
        """The call that started a sub-agent's session, as known now."""
        return self._calls.get(self._callers.get(scope, ""))

    # ---- what the reader decides ------------------------------------------------------------------------------

    def totals(self) -> dict[str, Any]:
        return summed_totals(self._usage, self._responses, self._models)


def _pieces(source: JsonObject, role: str, session: Session) -> list[Draft]:
    message = member_object(source, "message")
    assert message is not None  # a message line is read only when its message is an object
    found = anthropic_blocks(message, "content", role, session, _user_texts if role == "user" else _answer)
    source.problems.extend(message.problems)
    return found


def _answer(text: str, span) -> list[Draft]:
    return text_pieces(text, ANSWER, span) if text.strip() else []


def _user_texts(text: str, span) -> list[Draft]:
    """What the user typed, and the `<system-reminder>` blocks Droid wrote around it (context)."""
    reminders = [match[0] for match in _REMINDER.finditer(text)]
    typed = _REMINDER.sub("", text).strip()
    found = [Draft(dict(role="user", channel="final", content=typed, end="end"), span)] if typed else []
    found += [Draft(dict(role="user", name="system reminder", channel="final", content=reminder, end="end",
                         intent="context"), span) for reminder in reminders]
    return found


def _usage(value: Any) -> Usage | None:
    if not isinstance(value, dict):
        return None
    figures = {name: next((count(value.get(key)) for key in keys if key in value), 0) for name, keys in USAGE.items()}
    return Usage(**figures) if any(figures.values()) else None
