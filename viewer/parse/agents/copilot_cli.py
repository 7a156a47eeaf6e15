"""GitHub Copilot CLI sessions (`~/.copilot/session-state/<session>/events.jsonl`), dialect `copilot-cli`: one event
per line, `{"type", "data", "id", "timestamp", "parentId"}` (and `agentId` on a sub-agent's events), as the Copilot
SDK's generated schema (`session-events.ts`) names them; ephemeral events (deltas, per-call usage) never reach
the file.

- `user.message`: `content` is what the user typed (shown); `transformedContent`, the copy the model got with the
  date, reminders and tagged files, is injected context. A message the CLI injected (`source` `skill-…` or
  `agent-…`, an autopilot continuation) is context as a whole.
- `assistant.message`: `reasoningText` is reasoning (`assistant.reasoning` events carry the same text: read once),
  `reasoningOpaque` and `encryptedContent` are opaque (never text), `content` the answer, and each of
  `toolRequests` a call (`toolCallId`, `name`, `arguments`; an MCP tool is addressed `<server>.<tool>`). The
  messages of one `turnId` are one API call, so their text before a call is its preamble.
- `tool.execution_complete`: the reply to the call of its `toolCallId` (`result.content`, what the model got; a
  failure's `error.message`, W-TOOL-ERROR); `result.detailedContent`, what the CLI showed of it (a diff, the
  output in full), and `toolTelemetry`, what it recorded of the call (the command, the result's length, an exit
  code), are the reply's `Meta.details`, a long one kept as its span; `tool.execution_start` repeats the call and is bookkeeping, unless no
  assistant message asked for the call (a tool the user ran): then it is the call.
- `system.message` (the system prompt), `system.notification`, `skill.invoked` (a skill's instructions given to
  the model) and `session.compaction_complete` (the summary that replaced the history, W-SESSION-COMPACTED) are
  hidden; `session.error` and `session.warning` are hidden system messages (an error is W-API-ERROR too);
  `abort` is W-SESSION-INTERRUPTED.
- Sub-agents: every event of a sub-agent carries its `agentId` (older files: `data.parentToolCallId`), and
  `subagent.started` names the call (`toolCallId`) that started it: a thread under that call.
- `session.start` (version, working folder, repository, branch, model) and `session.shutdown` (the session's
  token totals per model, premium requests, code changes) fill the header; they and the other events that carry
  no conversation are frame. Any other type is a hidden message of its own with W-JSON-UNKNOWN-ITEM.

A log is read a line at a time by `CopilotReader` (viewer/parse/agents/online.py): whole by `parse_copilot_cli`,
and a big upload a piece at a time, in memory that follows the piece. What a line says of its messages (time,
model, usage, thread) is known when it is read; a sub-agent's call may be named later than its first messages
(thread_calls.py), and the header's totals are summed as the lines come.
"""
from __future__ import annotations

from typing import Any

from viewer.model import Meta, Transcript, Usage, make_diagnostic
from viewer.parse.agents.lines import Line, claims_by
from viewer.parse.agents.meta import between, summed_totals
from viewer.parse.agents.online import read_whole
from viewer.parse.agents.records import count, item_spans, line_details, text_of
from viewer.parse.agents.session import Session
from viewer.parse.agents.thread_calls import ThreadedReader
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

QUIET = frozenset((
    "session.start", "session.resume", "session.info", "session.model_change", "session.mode_changed",
    "session.truncation", "session.compaction_start", "session.usage_checkpoint", "session.task_complete",
    "session.shutdown", "session.handoff", "session.context_changed", "session.context_cleared",
    "session.plan_changed", "session.workspace_file_changed", "session.permissions_changed",
    "session.session_limits_changed", "session.remote_steerable_changed", "session.schedule_created",
    "session.schedule_cancelled", "session.schedule_rearmed", "session.autopilot_objective_changed",
    "session.binary_asset", "assistant.turn_start", "assistant.turn_end", "tool.user_requested",
    "tool_search.activated", "subagent.started", "subagent.completed", "subagent.failed", "subagent.selected",
    "subagent.deselected", "hook.start", "hook.end", "permission.requested", "permission.completed"))
"""Events the CLI persists that carry no message of the conversation: the session's and the UI's bookkeeping."""
INJECTED_SOURCES = ("skill-", "agent-", "system")
"""How the `source` of a user message the CLI wrote itself begins (a skill's hidden prompt, another agent's)."""
HEADER_KEYS = {"sessionId": "session_id", "copilotVersion": "version", "producer": "copilot_producer",
               "selectedModel": "model"}
CONTEXT_KEYS = {"cwd": "cwd", "gitRoot": "git_root", "branch": "git_branch", "repository": "repository"}
_CALL = ("name", "arguments", "type", "mcpServerName", "mcpToolName")
CLAIMS = claims_by("type", {
    **dict.fromkeys(QUIET, ()),
    "session.start": ("data.copilotVersion", "data.producer", "data.selectedModel",
                      *(f"data.context.{key}" for key in CONTEXT_KEYS)),
    "session.resume": ("data.copilotVersion", "data.producer", "data.selectedModel",
                       *(f"data.context.{key}" for key in CONTEXT_KEYS)),
    "session.model_change": ("data.newModel",),
    "assistant.turn_start": ("data.model", "data.turnId"),
    "assistant.turn_end": ("data.model", "data.turnId"),
    "subagent.started": ("data.model",),
    "session.shutdown": ("data.modelMetrics.*.usage.inputTokens", "data.modelMetrics.*.usage.outputTokens",
                         "data.modelMetrics.*.usage.cacheReadTokens", "data.modelMetrics.*.usage.cacheWriteTokens",
                         "data.modelMetrics.*.requests.count", "data.totalPremiumRequests",
                         "data.totalApiDurationMs", "data.codeChanges.linesAdded", "data.codeChanges.linesRemoved"),
    "user.message": ("data.content", "data.transformedContent", "data.source", "data.isAutopilotContinuation"),
    "assistant.message": ("data.reasoningText", "data.reasoningOpaque", "data.encryptedContent", "data.content",
                          *(f"data.toolRequests[].{key}" for key in _CALL), "data.model", "data.outputTokens",
                          "data.turnId"),
    "assistant.reasoning": ("data.content", "data.turnId"),
    "tool.execution_start": ("data.toolName", "data.arguments", "data.mcpServerName", "data.mcpToolName",
                             "data.turnId", "data.model"),
    "tool.execution_complete": ("data.toolName", "data.result.content", "data.result.contents",
                                "data.result.detailedContent", "data.toolTelemetry", "data.success",
                                "data.error.message", "data.error.code", "data.model"),
    "system.message": ("data.role", "data.content"),
    "system.notification": ("data.content",),
    "skill.invoked": ("data.name", "data.content"),
    "session.compaction_complete": ("data.summaryContent",),
    "session.error": ("data.message", "data.errorType"),
    "session.warning": ("data.message",),
    "abort": ("data.reason",),
}, common=("type", "timestamp"))
"""What the reader reads of each event (ids are the source's: `id`, `parentId`, `agentId`, `toolCallId` …); any
other member is kept in the header's `unread`. A bookkeeping event's facts that no view needs (telemetry, the
UI's notices) are kept there too."""


SHOWN_RESULT = ((("data", "result"), ("detailedContent",)), (("data",), ("toolTelemetry",)))
"""Where a tool's result says more than what the model got (what the CLI showed, what it recorded of the call)."""
UNNAMED = ("This sub-agent's conversation names no call that started it; it is kept, hidden from the default "
           "view.")


def parse_copilot_cli(text: str, options: ParseOptions) -> Transcript:
    """Read a Copilot CLI session log. Never raises on user input."""
    return read_whole(CopilotReader(), text)


class CopilotReader(ThreadedReader):
    """Reads a log's events in order into the session; each message's metadata and thread, known when its line
    is read, are held until it is finished."""

    dialect = "copilot-cli"

    def __init__(self, session: Session | None = None) -> None:
        super().__init__(session, UNNAMED)
        self._model: str | None = None
        self._turns: dict[tuple[str | None, str], int] = {}
        """The session turn of each (agent, `turnId`) since the last prompt: the messages of one API call."""
        self._current: dict[str | None, str | None] = {}
        """Each agent's `turnId` of its latest `assistant.turn_start`: the API call its next events belong to."""
        self._reasoning: dict[str | None, str] = {}
        """Each agent's last `assistant.reasoning` text, which its next message may repeat."""
        self._started: dict[str, str] = {}
        """toolCallId -> when its execution started."""
        self._calls: dict[str, int] = {}
        """toolCallId -> the index of its call."""
        self._agents: dict[str, str] = {}
        """A sub-agent's id -> the toolCallId that started it."""
        self._shutdown: dict[str, Any] | None = None
        self._now: str | None = None
        """The time of the line being read."""
        self._usage, self._responses = Usage(), 0
        """The output tokens the messages recorded, summed, and how many recorded them (the totals when the
        session did not end normally)."""
        self._models: dict[str, None] = {}
        """The models of the messages, in the order of the first message of each."""

    # ---- dispatch ----------------------------------------------------------------------------------------------

    def line(self, line: Line) -> None:
        self.session.account(line, CLAIMS(line))
        kind, data = line.get("type"), line.get("data")
        self._now = text_of(line.get("timestamp"))  # read now: the session keeps nothing of a line once read
        if not isinstance(kind, str) or not isinstance(data, dict):
            what = f"A line {type_phrase(kind, line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 what + " (a Copilot CLI event has a type and a data object)")])
            return
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, line, data)
        elif kind in QUIET:
            self._quiet(line, kind, data)
        else:
            what = f"A Copilot CLI event {type_phrase(kind, line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, data, line.span, "W-JSON-UNKNOWN-ITEM", what)])

    def _quiet(self, line: Line, kind: str, data: dict[str, Any]) -> None:
        self.quiet.append(line.span)
        if kind in ("session.start", "session.resume"):
            self._facts(data)
        elif kind == "session.model_change":
            self._model = text_of(data.get("newModel")) or self._model
        elif kind == "assistant.turn_start":
            self._model = text_of(data.get("model")) or self._model
            self._current[_agent(line, data)] = text_of(data.get("turnId"))
        elif kind == "session.shutdown":
            self._shutdown = data
        elif kind == "subagent.started" and isinstance(line.get("agentId"), str) and text_of(data.get("toolCallId")):
            self._agents.setdefault(line.get("agentId"), data["toolCallId"])
            self._forget_turns(line.get("agentId"))

    def _facts(self, data: dict[str, Any]) -> None:
        for key, name in HEADER_KEYS.items():
            if text_of(data.get(key)):
                self.header.setdefault(name, data[key])
        context = data.get("context")
        if isinstance(context, dict):
            for key, name in CONTEXT_KEYS.items():
                if text_of(context.get(key)):
                    self.header.setdefault(name, context[key])
        self._model = text_of(data.get("selectedModel")) or self._model

    # ---- the conversation --------------------------------------------------------------------------------------

    def _user(self, line: Line, data: dict[str, Any]) -> None:
        if _agent(line, data) is None:
            self._forget_turns(None)
        source = text_of(data.get("source"))
        injected = data.get("isAutopilotContinuation") is True or bool(source and source.startswith(INJECTED_SOURCES))
        _, found = self.session.read(line, "data", lambda data: _user_pieces(data, injected))
        self._add(line, found)

    def _assistant(self, line: Line, data: dict[str, Any]) -> None:
        agent = _agent(line, data)
        turn_id = text_of(data.get("turnId")) or self._current.get(agent)
        repeated = self._reasoning.pop(agent, None)
        reasoning = data.get("reasoningText")
        skip = isinstance(reasoning, str) and repeated is not None and reasoning.strip() == repeated.strip()
        source, found = self.session.read(line, "data", lambda data: _assistant_pieces(data, skip))
        first = len(self.session.messages)
        self._add(line, found, source.problems, self._turn(agent, turn_id))
        model = text_of(data.get("model")) or self._model
        output = data.get("outputTokens")
        usage = Usage(output=count(output)) if isinstance(output, int) and not isinstance(output, bool) else None
        if usage is not None:
            self._usage, self._responses = self._usage + usage, self._responses + 1
        last = len(self.session.messages) - 1
        for index in range(first, last + 1):
            message = self.session.messages[index]
            if message.end == "call" and message.call_id:
                self._calls.setdefault(message.call_id, index)
            self._meta(index, Meta(timestamp=self._now, model=model, usage=usage if index == last else None,
                                   response=text_of(data.get("apiCallId")) or text_of(data.get("requestId"))))

    def _reasoning_event(self, line: Line, data: dict[str, Any]) -> None:
        agent = _agent(line, data)
        turn_id = text_of(data.get("turnId")) or self._current.get(agent)
        content = data.get("content")
        text = content if isinstance(content, str) else flat_text(content)
        self._reasoning[agent] = text
        first = len(self.session.messages)
        self._add(line, [drafts.analysis("assistant", text, None)], (), self._turn(agent, turn_id))
        self._timed(line, first, model=self._model)

    def _tool_start(self, line: Line, data: dict[str, Any]) -> None:
        call_id = text_of(data.get("toolCallId"))
        if call_id is not None:
            self._started.setdefault(call_id, self._now or "")
        if call_id is not None and call_id in self._calls:
            self.quiet.append(line.span)  # the call was read from the assistant's message
            return
        # No assistant message asked for it: a tool the user ran, or a log that begins mid-session.
        name = text_of(data.get("toolName")) or "(unnamed tool)"
        piece = _call(_tool_address(data, name), data.get("arguments"), None, call_id)
        first = len(self.session.messages)
        agent = _agent(line, data)
        self._add(line, [piece], (), self._turn(agent, text_of(data.get("turnId")) or self._current.get(agent)))
        if call_id is not None:
            self._calls[call_id] = first
        self._timed(line, first, model=text_of(data.get("model")))

    def _tool_complete(self, line: Line, data: dict[str, Any]) -> None:
        call_id = text_of(data.get("toolCallId"))
        name = self.session.tool_named(call_id) or (qualified_tool_name(data["toolName"])
                                                    if text_of(data.get("toolName")) else None)
        result, error = data.get("result"), data.get("error")
        content = _result_text(result)
        problems: list[Pending] = []
        if data.get("success") is False or error is not None:
            message = error.get("message") if isinstance(error, dict) else error
            if not content and message is not None:
                content = message if isinstance(message, str) else shown_json(message)
            code = error.get("code") if isinstance(error, dict) else None
            if code in ("cancelled", "canceled", "aborted"):
                problems.append(Pending("W-SESSION-INTERRUPTED", f"The call to {name or 'the tool'} was cancelled "
                                                                 "before it finished.", line.span))
            else:
                problems.append(Pending("W-TOOL-ERROR", f"The tool {name or '(unnamed)'} reported a failure"
                                                        + (f": {_short(message)}" if message else "."), line.span))
        shown = _shown_result(line)  # before the session keeps nothing of the line
        first = len(self.session.messages)
        self._add(line, [drafts.reply(name, content, None, call_id)], problems)
        timestamp = self._now
        started = self._started.get(call_id or "") or None
        self._meta(first, Meta(timestamp=timestamp, model=text_of(data.get("model")),
                               duration_ms=between(started, timestamp), details=shown))

    def _system(self, line: Line, data: dict[str, Any]) -> None:
        role = data.get("role") if data.get("role") in ("system", "developer") else "system"
        self._context(line, data, Draft(dict(role=role, channel="final", content=_text(data.get("content")),
                                             end="end"), None))

    def _notification(self, line: Line, data: dict[str, Any]) -> None:
        self._context(line, data, _injected(_text(data.get("content")), "notification"))

    def _skill(self, line: Line, data: dict[str, Any]) -> None:
        name = text_of(data.get("name"))
        self._context(line, data, _injected(_text(data.get("content")), f"skill {name}" if name else "skill"))

    def _compaction(self, line: Line, data: dict[str, Any]) -> None:
        problem = Pending("W-SESSION-COMPACTED", "Copilot compacted its context here: the summary replaced the "
                                                 "history the model saw next.", line.span)
        self._context(line, data, _injected(_text(data.get("summaryContent")), "compaction summary"), [problem])

    def _error(self, line: Line, data: dict[str, Any]) -> None:
        message = _text(data.get("message"))
        kind = text_of(data.get("errorType")) or "error"
        problem = Pending("W-API-ERROR", f"Copilot reported an error ({kind}): {_short(message)}", line.span)
        self._context(line, data, Draft(dict(role="system", name="error", channel="final", content=message,
                                             end="end"), None), [problem])

    def _warning(self, line: Line, data: dict[str, Any]) -> None:
        self._context(line, data, Draft(dict(role="system", name="warning", channel="final",
                                             content=_text(data.get("message")), end="end"), None))

    def _abort(self, line: Line, data: dict[str, Any]) -> None:
        reason = text_of(data.get("reason"))
        self.session.diagnostics.append(make_diagnostic(
            "W-SESSION-INTERRUPTED", line.span,
            "The user interrupted Copilot here" + (f" ({reason})." if reason else ".")))

    # ---- helpers -----------------------------------------------------------------------------------------------

    def _context(self, line: Line, data: dict[str, Any], piece: Draft, problems=()) -> None:
        first = len(self.session.messages)
        self._add(line, [piece], problems)
        self._timed(line, first)

    def _add(self, line: Line, found: list[Draft], problems=(), turn: int | None = None) -> None:
        first = len(self.session.messages)
        agent = _agent(line, line.get("data"))  # before the session keeps nothing of the line
        self.session.add_line(line, found, self.session.next_turn() if turn is None else turn, problems)
        if agent is not None:
            for index in range(first, len(self.session.messages)):
                self.thread_of[index] = agent
        if not found:
            self.quiet.append(line.span)

    def _timed(self, line: Line, first: int, model: str | None = None) -> None:
        for index in range(first, len(self.session.messages)):
            if index not in self.metas:
                self._meta(index, Meta(timestamp=self._now, model=model))

    def _meta(self, index: int, meta: Meta) -> None:
        """Message `index` (the newest) has `meta`: its model counts among the session's."""
        self.metas[index] = meta
        if meta.model:
            self._models[meta.model] = None

    def _turn(self, agent: str | None, turn_id: str | None) -> int:
        if turn_id is None:
            return self.session.next_turn()
        turn = self._turns.get((agent, turn_id))
        if turn is None:
            turn = self._turns[(agent, turn_id)] = self.session.next_turn()
        return turn

    def _forget_turns(self, agent: str | None) -> None:
        """A new prompt (or a new sub-agent) numbers its API calls from 0 again."""
        for key in [key for key in self._turns if key[0] == agent]:
            del self._turns[key]
        self._reasoning.pop(agent, None)
        self._current.pop(agent, None)

    def _call_of(self, agent: str) -> int | None:
        """The call that started a sub-agent, as known now."""
        return self._calls.get(self._agents.get(agent, agent))

    # ---- what the reader decides ------------------------------------------------------------------------------

    def totals(self) -> dict[str, Any]:
        """The session's totals: `session.shutdown`'s per model when the session ended normally, else what the
        messages recorded (their output tokens)."""
        if self._shutdown is None:
            return summed_totals(self._usage, self._responses, self._models)
        metrics = self._shutdown.get("modelMetrics")
        total, responses, models = Usage(), 0, []
        for model, figures in (metrics.items() if isinstance(metrics, dict) else ()):
            figures = figures if isinstance(figures, dict) else {}
            usage, requests = object_in(figures, "usage"), object_in(figures, "requests")
            total += Usage(input=count(usage.get("inputTokens")), output=count(usage.get("outputTokens")),
                           cache_read=count(usage.get("cacheReadTokens")),
                           cache_write=count(usage.get("cacheWriteTokens")))
            responses += count(requests.get("count"))
            models.append(model)
        totals: dict[str, Any] = {"usage": total.to_json(), "responses": responses,
                                  "models": list(dict.fromkeys([*models, *self._models]))}
        for key, name in (("totalPremiumRequests", "premium_requests"), ("totalApiDurationMs", "api_duration_ms")):
            if isinstance(self._shutdown.get(key), (int, float)) and not isinstance(self._shutdown[key], bool):
                totals[name] = self._shutdown[key]
        changes = self._shutdown.get("codeChanges")
        if isinstance(changes, dict):
            totals["code_changes"] = {"lines_added": count(changes.get("linesAdded")),
                                      "lines_removed": count(changes.get("linesRemoved"))}
        return totals


_HANDLERS = {
    "user.message": CopilotReader._user,
    "assistant.message": CopilotReader._assistant,
    "assistant.reasoning": CopilotReader._reasoning_event,
    "tool.execution_start": CopilotReader._tool_start,
    "tool.execution_complete": CopilotReader._tool_complete,
    "system.message": CopilotReader._system,
    "system.notification": CopilotReader._notification,
    "skill.invoked": CopilotReader._skill,
    "session.compaction_complete": CopilotReader._compaction,
    "session.error": CopilotReader._error,
    "session.warning": CopilotReader._warning,
    "abort": CopilotReader._abort,
}


def _user_pieces(data: JsonObject, injected: bool) -> list[Draft]:
    content = data.get("content")
    text = content if isinstance(content, str) else flat_text(content)
    if content is None:
        data.problem("W-JSON-MISSING-CONTENT", "This user message has no content.")
    found = [Draft(dict(role="user", channel="final", content=text, end="end",
                        intent="context" if injected else None), data.span_of("content"))]
    transformed = data.get("transformedContent")
    if isinstance(transformed, str) and transformed.strip() and transformed.strip() != text.strip():
        found.append(_injected(transformed, "transformed content", data.span_of("transformedContent")))
    return found


def _assistant_pieces(data: JsonObject, skip_reasoning: bool) -> list[Draft]:
    found: list[Draft] = []
    reasoning = data.get("reasoningText")
    if isinstance(reasoning, str) and reasoning.strip() and not skip_reasoning:
        found.append(drafts.analysis("assistant", reasoning, data.span_of("reasoningText")))
    for key in ("reasoningOpaque", "encryptedContent"):
        if data.get(key):
            data.problems.append(drafts.opaque_problem("encrypted reasoning", data.get(key), key, data.span_of(key)))
    content = data.get("content")
    text = content if isinstance(content, str) else flat_text(content)
    if text.strip():
        found.append(Draft(dict(role="assistant", channel="final", content=text, end="end"),
                           data.span_of("content")))
    requests = data.get("toolRequests")
    if requests is not None and not isinstance(requests, list):
        data.problem("W-JSON-SHAPE", "toolRequests is not a list; it was not read.", data.span_of("toolRequests"))
    for request, span in zip(requests if isinstance(requests, list) else [], item_spans(data, "toolRequests")):
        if not isinstance(request, dict):
            found.append(drafts.unclassified("assistant", None, request, span, "W-JSON-UNKNOWN-PART",
                                             "A tool request that is not an object"))
            continue
        name = text_of(request.get("name")) or "(unnamed tool)"
        found.append(_call(_tool_address(request, name), request.get("arguments"), span,
                           text_of(request.get("toolCallId")), request.get("type") == "custom"))
    return found


def _call(recipient: str, arguments: Any, span, call_id: str | None, custom: bool = False) -> Draft:
    """A call; a custom (grammar-based) tool's input is text, not JSON."""
    if custom and isinstance(arguments, str):
        return drafts.call(recipient, arguments, span, call_id, json_arguments=False)
    return drafts.call(recipient, shown_json(arguments if arguments is not None else {}), span, call_id)


def _tool_address(data: dict[str, Any], name: str) -> str:
    """`functions.<name>`, or `<server>.<tool>` for an MCP server's tool."""
    server, tool = text_of(data.get("mcpServerName")), text_of(data.get("mcpToolName"))
    if server and tool:
        return f"{server}.{tool}"
    return qualified_tool_name(name)


def _shown_result(line: Line) -> dict[str, Any] | None:
    """A result's `Meta.details`: what the CLI showed of it and recorded of its call (`SHOWN_RESULT`)."""
    found: dict[str, Any] = {}
    for path, keys in SHOWN_RESULT:
        found |= line_details(line, path, keys) or {}
    return found or None


def _result_text(result: Any) -> str:
    """What the model got back: `result.content`, else the text of `contents`."""
    if not isinstance(result, dict):
        return "" if result is None else _text(result)
    if isinstance(result.get("content"), str):
        return result["content"]
    contents = result.get("contents")
    if isinstance(contents, list):
        return flat_text(contents)
    return shown_json(result)


def _injected(text: str, name: str, span=None) -> Draft:
    return Draft(dict(role="user", name=name, channel="final", content=text, end="end", intent="context"), span)


def _agent(line: Line, data: Any) -> str | None:
    """The sub-agent an event belongs to (None: the main agent)."""
    agent = line.get("agentId")
    if isinstance(agent, str) and agent:
        return agent
    parent = data.get("parentToolCallId") if isinstance(data, dict) else None
    return parent if isinstance(parent, str) and parent else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else flat_text(value)


def _short(value: Any, limit: int = 200) -> str:
    text = value if isinstance(value, str) else shown_json(value)
    return text if len(text) <= limit else text[:limit] + "…"
