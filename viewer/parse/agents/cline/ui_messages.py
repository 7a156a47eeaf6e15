"""A Cline, Roo Code or Kilo Code task's `ui_messages.json` read alone (dialect `cline-ui`): the rows the agent's
chat panel showed, one JSON array of `{ts, type: "say"|"ask", say|ask, text, …}` records.

- What the user typed: the first record (`say: "task"` in Cline; Roo Code and Kilo Code write the task as a first
  `say: "text"`) and `user_feedback`, with their attached `images` and `files` as placeholders.
- The agent: `text` (its prose, the answer unless a tool follows in the same request), `reasoning` (analysis),
  `completion_result` (the answer), a `followup` question or a `plan_mode_respond` plan (shown as it said them).
- Tools: `tool` (a JSON description of a file operation), `command`, `use_mcp_server`, `browser_action*`,
  `use_subagents` are calls; `command_output`, `mcp_server_response`, `browser_action_result`, Roo's
  `subtask_result`, `subagent` and the error rows of a tool (`diff_error`, `clineignore_error` …) are the
  replies. A file operation's output is not in this file (the API history holds it): such a call has no reply.
- `api_req_started` opens each request to the model: its JSON `text` gives the tokens and cost of the response
  that follows (usage on its last message), and in Cline the `request` sent, the user's turn as the model got
  it (tool results, environment details): hidden context. `cancelReason` is an interruption or a failed stream.
- Errors (`error`, `api_req_failed` …) are hidden notes with W-API-ERROR; checkpoints, progress lists, hook
  status, retries and resumption prompts are the panel's bookkeeping (frame). Any other row is kept hidden, with
  W-JSON-UNKNOWN-ITEM.

Every row is accounted for (docs/architecture.md, "Nothing lost"): what a row says beside its text (the model's
provider and mode, a checkpoint, whether a command completed; what a request's or a question's JSON holds beside
what is read of it) is its message's details; what a bookkeeping row says (a progress list, a checkpoint's state)
is kept in the header's `bookkeeping`, by row. A member no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

import json
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.arrays import read_elements
from viewer.parse.agents.cline.history import milliseconds
from viewer.parse.agents.lines import Line, claims
from viewer.parse.agents.meta import NOTHING, usage_totals
from viewer.parse.agents.records import rest_details
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.fields import list_in
from viewer.parse.json.media import placeholder
from viewer.parse.json.source import Draft, type_phrase

DIALECT = "cline-ui"
CALLS = {"tool": None, "command": "execute_command", "use_mcp_server": None, "browser_action_launch": "browser_action",
         "browser_action": "browser_action", "use_subagents": "use_subagents", "new_task": "new_task"}
"""Rows that are a tool's call, and the tool (None: the row's JSON names it)."""
REPLIES = {"command_output": "execute_command", "mcp_server_response": None, "browser_action_result": "browser_action",
           "subtask_result": None, "subagent": "use_subagents"}
"""Rows that are a tool's reply, and the tool (None: the latest call's)."""
TOOL_ERRORS = ("diff_error", "clineignore_error", "rooignore_error", "command_permission_denied")
"""Rows that say a tool failed: the latest call's reply, W-TOOL-ERROR."""
ERRORS = ("error", "error_retry", "api_req_failed", "mistake_limit_reached", "condense_context_error",
          "auto_approval_max_req_reached")
BOOKKEEPING = ("api_req_finished", "api_req_retried", "api_req_retry_delayed", "api_req_rate_limit_wait",
               "api_req_deleted", "deleted_api_reqs", "checkpoint_created", "checkpoint_saved", "task_progress",
               "hook_status", "hook_output_stream", "conditional_rules_applied", "info", "shell_integration_warning",
               "resume_task", "resume_completed_task", "subagent_usage", "user_edit_todos", "too_many_tools_warning",
               "mcp_server_request_started", "sliding_window_truncation", "codebase_search_result",
               "load_mcp_documentation", "user_feedback_diff")
"""Rows of the panel's own bookkeeping: no message (frame)."""
ROW_DETAILS = ("modelInfo", "reasoning", "commandCompleted", "isCheckpointCheckedOut", "isOperationOutsideWorkspace",
               "checkpoint", "progressStatus", "contextCondense", "isProtected", "isAnswered", "apiProtocol",
               "metadata")
"""What a row may say beside its text (Cline's and Roo Code's ClineMessage): kept in its message's details."""
_ROW_READ = ("type", "say", "ask", "ts", "text", "images", "files", "partial", "modelInfo.modelId",
             "conversationHistoryIndex", "conversationHistoryDeletedRange", "lastCheckpointHash")
"""What the reader reads of a row, or leaves as the panel's state (a row still streaming), or as a pointer into
the task's other files (the API history's index, a checkpoint's commit), as an id does."""
ROW_CLAIMS = claims(*_ROW_READ, *ROW_DETAILS)
READ = claims(*_ROW_READ)
REQUEST_READ = claims("request", "tokensIn", "tokensOut", "cacheReads", "cacheWrites", "cost", "cancelReason",
                      "streamingFailedMessage")
"""What the reader reads of an `api_req_started` row's JSON."""
SHOWN_READ = {"followup": claims("question", "options"), "plan_mode_respond": claims("response", "options")}
"""What the reader shows of a question's and a plan's JSON."""
CANCELLED = {"user_cancelled": ("W-SESSION-INTERRUPTED", "The user cancelled this request."),
             "streaming_failed": ("W-API-ERROR", "The response broke off: the stream failed"),
             "retries_exhausted": ("W-API-ERROR", "The request failed after every retry")}


def parse_cline_ui(text: str, options: Any) -> Transcript:
    """Read a task's `ui_messages.json`. Never raises on user input."""
    with collector_paused:  # see viewer/model/collector.py
        rows, unreadable = read_elements(text, "This file of chat rows", depth=1)
        session = Session(text)
        reader = _Rows(session)
        for row in session.accounted(rows, lambda row: ROW_CLAIMS, "row"):
            reader.row(row)
        messages, totals = reader.finished()
        session = reader.session
        diagnostics = [*unreadable, *session.diagnostics]
        return Transcript(dialect=DIALECT, source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=session.with_unread(reader.header | totals),
                          frame=session.frame(reader.quiet, diagnostics))


class _Rows:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.header: dict[str, Any] = {"producer": DIALECT}
        self.quiet: list[tuple[int, int]] = []
        self.response: int | None = None
        """The turn of the request being answered."""
        self.usage: dict[int, Usage] = {}
        """Row number of an `api_req_started` -> the usage of its request."""
        self.request_of: dict[int, int] = {}
        """Message index -> the row number of the request it answers."""
        self.last_call: str | None = None
        self.request: int | None = None
        """The row number of the latest `api_req_started`."""
        self.rows = 0
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its row said beside its text."""

    def row(self, line: Line) -> None:
        self.rows += 1
        kind = line.get("say") if line.get("type") == "say" else line.get("ask") if line.get("type") == "ask" \
            else None
        if self.rows == 1:
            self.header["agent"] = "Cline" if kind == "task" or "modelInfo" in line.value else "Roo Code or Kilo Code"
        if not isinstance(kind, str):
            what = f"A row {type_phrase(line.get('type'), line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", line.get("type"), line.value, line.span,
                                                 "W-JSON-UNKNOWN-ITEM", what)], user=True)
            return
        text = line.get("text") if isinstance(line.get("text"), str) else ""
        if kind == "task" or kind == "user_feedback" or kind == "text" and self.rows == 1:
            self._add(line, [_said("user", _with_attachments(text, line.value), line.span)], user=True)
        elif kind == "api_req_started":
            self._request(line, text)
        elif kind in ("text", "completion_result") or kind == "followup" or kind == "plan_mode_respond":
            if not text.strip():  # the button row after a result; a text row the tool call that followed emptied
                self._quiet(line, kind)
                return
            shown = SHOWN_READ.get(kind)
            facts = _json(text) if shown is not None else None
            self._add(line, [_said("assistant", _shown(kind, text), line.span)],
                      extra=rest_details({"text": facts}, ("text",), {"text": shown}) if isinstance(facts, dict)
                      and isinstance(facts.get("question" if kind == "followup" else "response"), str) else None)
        elif kind == "reasoning":
            self._add(line, [drafts.analysis("assistant", text, line.span)])
        elif kind in CALLS:
            self._call(line, kind, text)
        elif kind in REPLIES or kind in TOOL_ERRORS:
            self._reply(line, kind, text)
        elif kind in ERRORS:
            piece = Draft(dict(role="assistant", channel="final", content=text, intent="context", end="end"),
                          line.span)
            piece.problems.append(Pending("W-API-ERROR", f"The agent reported an error ({kind}).", line.span))
            self._add(line, [piece])
        elif kind == "condense_context":
            self.session.diagnostics.append(make_diagnostic(
                "W-SESSION-COMPACTED", line.span, "The agent condensed the conversation here: the model saw a "
                                                  "summary of the messages before it."))
            self._quiet(line, kind)
        elif kind in BOOKKEEPING:
            self._quiet(line, kind)
        else:
            what = f"A {line.get('type')} row of kind {kind!r}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 what)])

    def _request(self, line: Line, text: str) -> None:
        facts = _json(text)
        facts = facts if isinstance(facts, dict) else {}
        usage = _usage(facts)
        if usage is not None:
            self.usage[line.number] = usage
        reason = facts.get("cancelReason")
        cancelled = CANCELLED.get(reason) if isinstance(reason, str) else None
        if cancelled is not None:
            code, said = cancelled
            failure = facts.get("streamingFailedMessage")
            said += f": {failure}" if isinstance(failure, str) and failure and code == "W-API-ERROR" else ""
            self.session.diagnostics.append(make_diagnostic(code, line.span, said.rstrip(".") + "."))
        request = facts.get("request")
        rest = rest_details({"text": facts}, ("text",), {"text": REQUEST_READ})
        if isinstance(request, str) and request.strip():
            piece = Draft(dict(role="user", name="api_req_started", channel="final", content=request,
                               intent="context", end="end"), line.span)
            self._add(line, [piece], user=True, extra=rest)
        else:
            self._quiet(line, "api_req_started", rest if facts else None)
        self.response = self.session.next_turn()
        self.request = line.number

    def _call(self, line: Line, kind: str, text: str) -> None:
        facts = _json(text)
        tool = CALLS[kind]
        arguments: Any = facts if isinstance(facts, (dict, list)) else {"command": text} if kind == "command" \
            else {"text": text}
        if kind == "tool" and isinstance(facts, dict) and isinstance(facts.get("tool"), str):
            tool = facts["tool"]
        recipient = qualified_tool_name(tool) if tool else None
        if kind == "use_mcp_server" and isinstance(facts, dict):
            server, name = facts.get("serverName"), facts.get("toolName") or facts.get("uri")
            recipient = f"{server}.{name}" if isinstance(server, str) and isinstance(name, str) else "mcp"
            arguments = facts.get("arguments", facts)
        recipient = recipient or "functions.tool"
        self.last_call = recipient
        self._add(line, [drafts.call(recipient, arguments if isinstance(arguments, str) else shown_json(arguments),
                                     line.span, None)])

    def _reply(self, line: Line, kind: str, text: str) -> None:
        tool = REPLIES.get(kind)
        name = qualified_tool_name(tool) if tool else self.last_call
        piece = drafts.reply(name, text, line.span, None)
        if kind in TOOL_ERRORS:
            tool_named = f"The tool {name}" if name else "The tool"
            piece.problems.append(Pending("W-TOOL-ERROR", f"{tool_named} reported a failure ({kind}).", line.span))
        self._add(line, [piece], user=True)

    def _quiet(self, line: Line, kind: str, extra: dict[str, Any] | None = None) -> None:
        """A row of the panel's bookkeeping: frame; what it says (its text, its details) kept in the header's
        `bookkeeping` under its row's number."""
        self.quiet.append(line.span)
        text = line.get("text")
        said = {**({"text": text} if text not in (None, "") else {}),
                **(rest_details(line.value, ROW_DETAILS, READ) or {}), **(extra or {})}
        if said:
            self.header.setdefault("bookkeeping", []).append({"row": line.number, line.get("type") or "row": kind,
                                                              **said})

    def _add(self, line: Line, found: list[Draft], user: bool = False,
             extra: dict[str, Any] | None = None) -> None:
        said = {**(rest_details(line.value, ROW_DETAILS, READ) or {}), **(extra or {})}
        if said and found:
            self.details[len(self.session.messages)] = said
        if user:
            turn = self.session.next_turn()
            self.response = None
        else:
            if self.response is None:
                self.response = self.session.next_turn()
            turn = self.response
        first = len(self.session.messages)
        self.session.add_line(line, found, turn)
        if not user and self.request is not None:
            for index in range(first, len(self.session.messages)):
                self.request_of[index] = self.request

    def finished(self) -> tuple[tuple[Message, ...], dict[str, Any]]:
        last_of_request = {request: index for index, request in self.request_of.items()}
        usage_at = {index: self.usage[request] for request, index in last_of_request.items() if request in self.usage}
        done = []
        models: dict[str, None] = {}
        for message, line in zip(self.session.messages, self.session.lines):
            info = line.get("modelInfo")
            model = info.get("modelId") if isinstance(info, dict) and message.role == "assistant" else None
            if isinstance(model, str):
                models[model] = None
            meta = Meta(timestamp=milliseconds(line.get("ts")), model=model if isinstance(model, str) else None,
                        usage=usage_at.get(message.index), details=self.details.get(message.index))
            done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
        return tuple(done), usage_totals(self.usage.values(), models)


def _said(role: str, text: str, span) -> Draft:
    return Draft(dict(role=role, channel="final", content=text, end="end"), span)


def _shown(kind: str, text: str) -> str:
    """What the panel showed of a row: a follow-up's question and a plan's response are JSON in newer versions."""
    if kind in ("followup", "plan_mode_respond"):
        facts = _json(text)
        if isinstance(facts, dict):
            said = facts.get("question") if kind == "followup" else facts.get("response")
            options = facts.get("options")
            if isinstance(said, str):
                listed = [f"- {option}" for option in options if isinstance(option, str)] \
                    if isinstance(options, list) else []
                return "\n".join([said, *listed]) if listed else said
    return text


def _with_attachments(text: str, row: dict[str, Any]) -> str:
    """The typed text with a placeholder for each attached image (a data URL, never shown) and file."""
    images, files = list_in(row, "images"), list_in(row, "files")
    notes = [placeholder("image_url", {"image_url": {"url": image}}) for image in images if isinstance(image, str)]
    notes += [f"[file: {name}]" for name in files if isinstance(name, str)]
    return "\n\n".join([text, *notes]) if notes else text


def _json(text: str) -> Any:
    try:
        return json.loads(text) if text.lstrip().startswith(("{", "[")) else None
    except (ValueError, RecursionError):
        return None


def _usage(facts: dict[str, Any]) -> Usage | None:
    """An `api_req_started` row's figures: `tokensIn` counts the input that was not read from the cache."""
    written = {name: facts.get(key) for name, key in (("input", "tokensIn"), ("output", "tokensOut"),
                                                       ("cache_read", "cacheReads"), ("cache_write", "cacheWrites"))}
    counts = {name: value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
              for name, value in written.items()}
    cost = facts.get("cost")
    cost = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None
    if not any(counts.values()) and cost is None:
        return None
    return Usage(**counts, cost=cost)
