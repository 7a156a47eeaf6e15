"""The Python Kimi CLI's `wire.jsonl` (`~/.kimi/sessions/<md5 of the work dir>/<session>/wire.jsonl`, dialect
`kimi-cli`): the UI's events, one `{"timestamp": <seconds>, "message": {"type": <PascalCase>, "payload": …}}` per
line after a `{"type": "metadata", "protocol_version"}` line (missing in the oldest files).

- `TurnBegin` (and `SteerInput`) carry what the user typed; `StepBegin` starts one model response.
- `ContentPart` is the model's `text` (the answer unless a call follows in the step) or `think` (analysis,
  `encrypted` opaque); `ToolCall` a call whose arguments may arrive in pieces (`ToolCallPart`, joined onto it);
  `ToolResult` its result (`return_value`: `output`, `is_error`, `message` for the model).
- `StatusUpdate` gives the step's usage and the provider's message id; `StepInterrupted` an interruption;
  `CompactionEnd` a compaction.
- `SubagentEvent` wraps an event of a sub-agent that an `Agent` (formerly `Task`) call started
  (`parent_tool_call_id`): its events are a thread of their own, named by `agent_id`.
- Approvals, questions, notifications, plans, hooks, retries and MCP loading are bookkeeping (frame); anything
  else is kept hidden, with W-JSON-UNKNOWN-ITEM. The system prompt is in `context.jsonl`, not here.

Every line is accounted for (docs/architecture.md, "Nothing lost"): what a call's and a result's payloads say
beside the call and the output (the UI's display of a result, extras) is their details, what a status update
says of the context window its step's; a bookkeeping event's payload (an approval asked, a question, a plan) is
kept in the header's `bookkeeping`; a member no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Thread, Transcript, Usage, make_diagnostic
from viewer.parse.agents.kimi_code import kimi_usage
from viewer.parse.agents.lines import Claims, Line, claims
from viewer.parse.agents.meta import NOTHING, between, summed_totals
from viewer.parse.agents.online import Ended, LineReader, Reread, read_whole
from viewer.parse.agents.records import rest_details, text_of
from viewer.parse.agents.session import Change, Session
from viewer.parse.common import Pending, qualified_tool_name
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.fields import object_in
from viewer.parse.json.media import placeholder
from viewer.parse.json.source import Draft, type_phrase
from viewer.parse.options import ParseOptions

DIALECT = "kimi-cli"
BOOKKEEPING = ("TurnEnd", "StepRetry", "CompactionBegin", "ApprovalRequest", "ApprovalResponse", "QuestionRequest",
               "QuestionResponse", "Notification", "PlanDisplay", "BtwBegin", "BtwEnd", "HookTriggered",
               "HookResolved", "MCPLoadingBegin", "MCPLoadingEnd", "MCPLoadingProgress", "ApprovalRequestResolved")
CALL_DETAILS = ("extras",)
RESULT_DETAILS = ("display", "extras")
"""What a result's `return_value` holds beside the output and the message for the model: what the UI displayed."""
STATUS_DETAILS = ("context_usage", "context_tokens", "max_context_tokens", "plan_mode", "mcp_status")
"""What a status update says beside the step's usage: how full the context window was, the plan mode."""
PAYLOAD_CLAIMS: dict[str, tuple[str, ...]] = {
    "TurnBegin": ("user_input",),
    "SteerInput": ("user_input",),
    "StepBegin": ("n",),
    "ContentPart": ("type", "text", "think", "encrypted", "image_url"),
    "ToolCall": ("type", "function.name", "function.arguments", *CALL_DETAILS),
    "ToolCallPart": ("arguments_part",),
    "ToolResult": ("return_value.is_error", "return_value.output", "return_value.message",
                   *(f"return_value.{key}" for key in RESULT_DETAILS)),
    "StatusUpdate": ("token_usage.input_other", "token_usage.output", "token_usage.input_cache_read",
                     "token_usage.input_cache_creation", *STATUS_DETAILS),
    "StepInterrupted": (),
    "CompactionEnd": (),
    **dict.fromkeys(BOOKKEEPING, ("*",)),
}
"""What the reader reads of each event's payload (a step's number is the turn's; ids are the source's); a
bookkeeping event's payload is kept whole in the header."""
SUB_AGENT = ("agent_id", "parent_tool_call_id", "task_tool_call_id", "subagent_type", "event.type")


@dataclass(slots=True)
class _Agent:
    """The state of one agent's events: the main one's, or a sub-agent's."""

    thread: str | None
    step: int | None = None
    """The turn of the response being read."""
    said: list[int] = field(default_factory=list)
    """The response's messages so far."""
    answers: list[int] = field(default_factory=list)
    """Those of them that are the model's (a status update's usage goes on the last)."""
    last_call: int | None = None
    open: int | None = None
    """The line of its last call while pieces of the call's arguments may still come (no other event of its
    since)."""


def parse_kimi_cli(text: str, options: ParseOptions) -> Transcript:
    """Read a Kimi CLI wire. Never raises on user input."""
    return read_whole(KimiCliReader(), text)


def _claims(line: Line) -> Claims:
    """What the reader reads of a line: the metadata's version; an event's payload by its type, a sub-agent's
    event's by its own."""
    if line.get("type") == "metadata":
        return _METADATA
    message = line.get("message")
    kind = message.get("type") if isinstance(message, dict) else None
    payload = message.get("payload") if isinstance(message, dict) else None
    event = payload.get("event") if kind == "SubagentEvent" and isinstance(payload, dict) else None
    inner = event.get("type") if isinstance(event, dict) else None
    return _event_claims(kind if isinstance(kind, str) else None, inner if isinstance(inner, str) else None)


_METADATA = claims("type", "protocol_version")


@functools.cache
def _event_claims(kind: str | None, inner: str | None) -> Claims:
    if kind == "SubagentEvent":
        paths = (*SUB_AGENT, *(f"event.payload.{path}" for path in PAYLOAD_CLAIMS.get(inner or "", ())))
    else:
        paths = PAYLOAD_CLAIMS.get(kind or "", ())
    return claims("timestamp", "message.type", *(f"message.payload.{path}" for path in paths))


def seconds(value: Any) -> str | None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 1e11:
        return None
    return dt.datetime.fromtimestamp(value, dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _kept(value: dict[str, Any]) -> dict[str, Any]:
    """What is read of a line once its messages are: its time."""
    return {"timestamp": value["timestamp"]} if "timestamp" in value else {}


class KimiCliReader(LineReader):
    """Reads a wire's events in order into the session. What an event says of its messages is held until they are
    finished; a status update may still change the usage, response and context figures of its step's messages
    finished before (an amendment to each). A piece of a call's arguments changes the call: an agent's last call
    waits until the agent's next other event (`waits_from`; a sub-agent's, at the latest until the result of the
    call that started it), and a piece that comes for a call finished before makes the wire read whole
    (`Reread`)."""

    dialect = DIALECT

    def __init__(self, session: Session | None = None) -> None:
        # The session keeps nothing of a line once read but its time: what later lines need is kept here.
        super().__init__(session or Session("", kept=_kept))
        self.header: dict[str, Any] = {"producer": DIALECT, "agent": "Kimi CLI"}
        self.agents: dict[str | None, _Agent] = {None: _Agent(None)}
        self.threads: dict[str, Thread] = {}
        self.thread_of: dict[int, str] = {}
        self.usage: dict[int, Usage] = {}
        """Message index -> the usage of its step, until it is finished and its step is over."""
        self.responses: dict[int, str] = {}
        self.calls: dict[str, int] = {}
        """A call id -> the index of its call."""
        self.started: dict[str, list[str]] = {}
        """A call id -> the sub-agents it started whose events may not be over (until its result)."""
        self.called: dict[str, str] = {}
        """A call id -> when it was first made (a reply's duration is counted from it)."""
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its event said beside it."""
        self.status: dict[int, dict[str, Any]] = {}
        """Message index -> what the latest status update of its step said of the context (as `usage`)."""
        self.live: set[int] = set()
        """The messages of each agent's step being read: a status update may still change what they hold."""
        self.settled, self.counted = Usage(), 0
        """The usage of the steps that are over (and of their messages finished), summed, and how many."""

    def line(self, line: Line) -> None:
        self.session.account(line, _claims(line))
        if line.get("type") == "metadata":
            if isinstance(line.get("protocol_version"), str):
                self.header["protocol_version"] = line.get("protocol_version")
            self.quiet.append(line.span)
            return
        message = line.get("message")
        kind = message.get("type") if isinstance(message, dict) else None
        payload = message.get("payload") if isinstance(message, dict) else None
        if not isinstance(kind, str) or not isinstance(payload, dict):
            what = f"A line {type_phrase(line.get('type'), line.value)}"
            self.session.shown_whole(line)
            self._add(line, self.agents[None], [drafts.unclassified("unknown", kind, line.value, line.span,
                                                                    "W-JSON-UNKNOWN-ITEM", what)], new_turn=True)
            return
        self._event(line, kind, payload, self.agents[None], depth=0)

    def _event(self, line: Line, kind: str, payload: dict[str, Any], agent: _Agent, depth: int) -> None:
        if kind == "SubagentEvent" and depth == 0:
            self._sub_agent(line, payload)
            return
        if kind != "ToolCallPart":
            agent.open = None
        if kind in ("TurnBegin", "SteerInput"):
            said = payload.get("user_input")
            text = said if isinstance(said, str) else flat_text(_parts(said)) if said is not None else ""
            agent.step = None
            self._add(line, agent, [_said("user", text)], new_turn=True)
        elif kind == "StepBegin":
            agent.step = self.session.next_turn()
            self._step_over(agent)
            self.quiet.append(line.span)
        elif kind == "ContentPart":
            self._add(line, agent, [_part(payload, line.span)])
        elif kind == "ToolCall":
            self._call(line, agent, payload)
        elif kind == "ToolCallPart":
            self._call_part(line, agent, payload)
        elif kind == "ToolResult":
            self._result(line, agent, payload)
        elif kind == "StatusUpdate":
            self._status(line, agent, payload)
        elif kind == "StepInterrupted":
            self.session.diagnostics.append(make_diagnostic(
                "W-SESSION-INTERRUPTED", line.span, "The user interrupted this response; what it had written is "
                                                    "kept.", agent.said[-1] if agent.said else None))
            self.quiet.append(line.span)
        elif kind == "CompactionEnd":
            self.session.diagnostics.append(make_diagnostic(
                "W-SESSION-COMPACTED", line.span, "Kimi compacted its context here: the model saw a summary of the "
                                                  "messages before it."))
            self.quiet.append(line.span)
        elif kind in BOOKKEEPING:
            self.quiet.append(line.span)
            if payload:
                self.header.setdefault("bookkeeping", []).append({"line": line.number, "type": kind, **payload})
        else:
            what = f"An event of type {kind!r}"
            self.session.shown_whole(line)
            self._add(line, agent, [drafts.unclassified("unknown", kind, payload, line.span, "W-JSON-UNKNOWN-ITEM",
                                                        what)], new_turn=True)

    def _sub_agent(self, line: Line, payload: dict[str, Any]) -> None:
        """A sub-agent's event: read as its own agent's, in its thread, started by the parent's call."""
        agent_id = payload.get("agent_id")
        name = agent_id if isinstance(agent_id, str) else "sub-agent"
        call = payload.get("parent_tool_call_id") or payload.get("task_tool_call_id")
        if name not in self.threads:
            kind = payload.get("subagent_type")
            self.threads[name] = Thread(name, self.calls.get(call) if isinstance(call, str) else None,
                                        kind if isinstance(kind, str) and kind else None)
            if self.threads[name].call is None:
                self.session.diagnostics.append(make_diagnostic(
                    "W-SESSION-THREAD", line.span, "This sub-agent's events name no call of this session that "
                                                   "started it; they are kept, hidden from the default view."))
        agent = self.agents.get(name)
        if agent is None:
            agent = self.agents[name] = _Agent(name)
            if isinstance(call, str):
                self.started.setdefault(call, []).append(name)
        event = payload.get("event")
        kind = event.get("type") if isinstance(event, dict) else None
        inner = event.get("payload") if isinstance(event, dict) else None
        if not isinstance(kind, str) or not isinstance(inner, dict):
            agent.open = None
            self.session.shown_whole(line)
            self._add(line, agent, [drafts.unclassified("unknown", kind, payload, line.span, "W-JSON-UNKNOWN-ITEM",
                                                        "A sub-agent event with no type")], new_turn=True)
            return
        self._event(line, kind, inner, agent, depth=1)

    def _call(self, line: Line, agent: _Agent, payload: dict[str, Any]) -> None:
        written = payload.get("function")
        function = written if isinstance(written, dict) else payload  # a call written flat is its own function
        name = function.get("name")
        recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
        call_id = payload.get("id") if isinstance(payload.get("id"), str) else None
        arguments = function.get("arguments")
        piece = drafts.call(recipient, arguments if isinstance(arguments, str) else "" if arguments is None
                            else flat_text(arguments), None, call_id)
        self.session.note_call(call_id, recipient)
        self._add(line, agent, [piece], details=rest_details(payload, CALL_DETAILS, {}))
        agent.last_call = len(self.session.messages) - 1
        agent.open = line.number
        if call_id is not None:
            self.calls.setdefault(call_id, agent.last_call)

    def _call_part(self, line: Line, agent: _Agent, payload: dict[str, Any]) -> None:
        """A piece of the last call's arguments, streamed: joined onto the call (the line is frame)."""
        part = payload.get("arguments_part")
        if agent.last_call is not None and isinstance(part, str):
            if not self.session.messages.holds(agent.last_call):
                raise Reread("a piece of a call's arguments long after the call")
            call = self.session.messages[agent.last_call]
            self.session.messages[agent.last_call] = call.changed(content=call.content + part)
        self.quiet.append(line.span)

    def _result(self, line: Line, agent: _Agent, payload: dict[str, Any]) -> None:
        call_id = payload.get("tool_call_id") if isinstance(payload.get("tool_call_id"), str) else None
        value = object_in(payload, "return_value")
        output = flat_text(_parts(value.get("output")))
        note = value.get("message")
        if isinstance(note, str) and note:
            output = f"{output}\n\n{note}" if output else note
        name = self.session.tool_named(call_id)
        piece = drafts.reply(name, output, None, call_id)
        for started in self.started.pop(call_id, ()) if call_id is not None else ():
            self.agents[started].open = None  # the sub-agent's events are over
        if value.get("is_error") is True:
            tool = f"The tool {name}" if name else "The tool"
            piece.problems.append(Pending("W-TOOL-ERROR", f"{tool} reported a failure (is_error).", line.span))
        self._add(line, agent, [piece], details=rest_details(value, RESULT_DETAILS, {}))

    def _status(self, line: Line, agent: _Agent, payload: dict[str, Any]) -> None:
        """The usage of the step so far, on its last message (a later update of one step replaces it)."""
        usage = kimi_usage(payload.get("token_usage"), "input_other", "input_cache_read", "input_cache_creation")
        said = agent.answers
        if usage is not None and said:
            for index in said:
                self.usage.pop(index, None)
            self.usage[said[-1]] = usage
        status = rest_details(payload, STATUS_DETAILS, {})
        if status and said:
            for index in said:
                self.status.pop(index, None)
            self.status[said[-1]] = status
        if isinstance(payload.get("message_id"), str):
            for index in said:
                self.responses[index] = payload["message_id"]
        if (usage is not None or status or isinstance(payload.get("message_id"), str)) and said:
            for index in said:
                if not self.session.messages.holds(index):  # finished in an earlier batch
                    self.session.amend(index, _with_step(self.usage.get(index), self.responses.get(index),
                                                         self._details(index)))
        self.quiet.append(line.span)

    def _step_over(self, agent: _Agent) -> None:
        """A new step of `agent`'s: what its step before holds is final; of its messages finished already, it is
        no longer kept."""
        for index in agent.said:
            self.live.discard(index)
            if not self.session.messages.holds(index):
                self._settle(index)
        agent.said, agent.answers = [], []

    def _settle(self, index: int) -> None:
        """Message `index` is finished and its step over: its usage is counted, and what was held for it goes."""
        usage = self.usage.pop(index, None)
        if usage is not None:
            self.settled, self.counted = self.settled + usage, self.counted + 1
        self.responses.pop(index, None)
        self.status.pop(index, None)
        self.details.pop(index, None)

    def _details(self, index: int) -> dict[str, Any] | None:
        return {**self.details.get(index, {}), **self.status.get(index, {})} or None

    def _add(self, line: Line, agent: _Agent, found: list[Draft], new_turn: bool = False,
             details: dict[str, Any] | None = None) -> None:
        if new_turn or agent.step is None:
            turn = self.session.next_turn()
        else:
            turn = agent.step
        first = len(self.session.messages)
        self.session.add_line(line, found, turn)
        made = range(first, len(self.session.messages))
        if details and made:
            self.details[first] = details
        if not new_turn:
            agent.said.extend(made)
            self.live.update(made)
            agent.answers.extend(index for index in made if self.session.messages[index].role == "assistant")
        if agent.thread is not None:
            for index in made:
                self.thread_of[index] = agent.thread

    # ---- what the reader decides ------------------------------------------------------------------------------

    def waits_from(self) -> int | None:
        open_ = [agent.open for agent in self.agents.values() if agent.open is not None]
        return min(open_) if open_ else None

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        done = []
        for message, line in zip(messages, lines):
            timestamp = seconds(line.get("timestamp"))
            if message.is_call and message.call_id and timestamp:
                self.called.setdefault(message.call_id, timestamp)
            duration = between(self.called.get(message.call_id), timestamp) \
                if message.is_reply and message.call_id else None
            index = message.index
            meta = Meta(timestamp=timestamp, usage=self.usage.get(index), response=self.responses.get(index),
                        duration_ms=duration, details=self._details(index))
            done.append(replace_fields(message, meta=None if meta == NOTHING else meta,
                                       thread=self.thread_of.pop(index, None)))
            if index not in self.live:
                self._settle(index)
        return done

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def threads_now(self) -> tuple[Thread, ...]:
        return tuple(self.threads.values())

    def end(self) -> Ended:
        total, counted = self.settled, self.counted
        for usage in self.usage.values():
            total, counted = total + usage, counted + 1
        return Ended(self.session.with_unread(self.header | summed_totals(total, counted)),
                     tuple(self.threads.values()))


def _with_step(usage: Usage | None, response: str | None, details: dict[str, Any] | None) -> Change:
    """What a later status update says of a message of its step finished before: its usage, response and
    details as they are now."""
    def change(message: Message) -> Message:
        meta = dataclasses.replace(message.meta or Meta(), usage=usage, response=response, details=details)
        return replace_fields(message, meta=None if meta == NOTHING else meta)
    return change


def _parts(value: Any) -> Any:
    """Kimi's content parts as the text reader knows them (`think` is never text here)."""
    if isinstance(value, list):
        return [{"type": "text", "text": part["text"]} if isinstance(part, dict) and part.get("type") == "text"
                and isinstance(part.get("text"), str) else part for part in value]
    return value


def _part(payload: dict[str, Any], span: tuple[int, int]) -> Draft:
    """A content part of the model's (on its line, `span`): text, reasoning (`encrypted` opaque), an image."""
    kind = payload.get("type")
    if kind == "text":
        return _said("assistant", text_of(payload.get("text")) or "")
    if kind == "think":
        piece = drafts.analysis("assistant", text_of(payload.get("think")) or "", None)
        if payload.get("encrypted"):
            piece.problems.append(drafts.opaque_problem("reasoning", payload["encrypted"], "encrypted", span))
        return piece
    if kind == "image_url" and isinstance(payload.get("image_url"), dict):
        return _said("assistant", placeholder("image_url", payload))
    return drafts.unclassified("assistant", kind, payload, span, "W-JSON-UNKNOWN-PART",
                               f"A content part {type_phrase(kind, payload)}")


def _said(role: str, text: str) -> Draft:
    return Draft(dict(role=role, channel="final", content=text, end="end"), None)
