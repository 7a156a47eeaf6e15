"""Kimi Code CLI sessions: an agent's `wire.jsonl` (`~/.kimi-code/sessions/<work dir>/<session>/agents/<agent>/`,
dialect `kimi-code`), flat records `{"type": "<dotted.name>", "agentId", …, "time": <ms>}` (wire protocol 1.x).

- Line 1 is `{"type": "metadata", "protocol_version", "created_at"}`; `config.update` holds the system prompt
  (a system message, hidden) and the model alias.
- `context.append_message` adds a message to the model's context: a user message whose `origin.kind` is `user`
  (or that has no origin) is what the user typed; any other origin (`injection` with its `variant`, compaction
  summaries, hook results, tasks, retries) is injected context, as is a `<system-reminder>`; a shell command the
  user ran (`shell_command`) is shown as typed and its output hidden.
- `context.append_loop_event` is the agent's side, one model response (a step) at a time: `content.part` (`text`,
  the answer unless a call follows in the step; `think`, analysis), `tool.call`, `tool.result` (paired by
  `toolCallId`; `isError` is a failure; its `note` is text for the model), `step.end` (the step's usage, its
  provider's message id, `finishReason`: `interrupted` after the user cancelled, `error`).
- `usage.record` names the model of the step just ended; `turn.ended` with an `error` is a failed turn;
  `context.apply_compaction` is W-SESSION-COMPACTED with its summary as context. Everything else (prompts echoed
  by `turn.prompt`, requests, permissions, tasks, cancellations) is bookkeeping (frame); `task.started` names the
  sub-agent an `Agent` call started (its own wire is `agents/<agentId>/wire.jsonl`: read alone, it is its own
  conversation, whose header names it), recorded in the header. What a usage record says beside the step's
  model and counts (its scope) is its step's last message's details, and so is what a request (`llm.request`: the
  prompt's hashes, how many messages it sent) or a turn's end (its reason, duration) says, on the message read
  last before it: one of each a turn, they would otherwise pile up in the header's `unread`.
No cost is recorded.

A wire is read a line at a time by `KimiCodeReader` (viewer/parse/agents/online.py): whole by `parse_kimi_code`,
and a big upload a piece at a time, in memory that follows the piece. A step's end and the usage record after it,
which may come after messages of the step were handed on, amend them (usage, response id, finish reason, model).
The reader keeps the last STEPS_KEPT steps (an event names its step by uuid; a step's events come together), and
of every message only the number of its model (the header's list of models).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from array import array
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.parse.agents.lines import Claims, Line, claims, claims_by, unclaimed
from viewer.parse.agents.meta import NOTHING, between, summed_totals
from viewer.parse.agents.online import Ended, LineReader, read_whole
from viewer.parse.agents.records import rest_details
from viewer.parse.agents.session import Change, Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.media import placeholder
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

DIALECT = "kimi-code"
REMINDER = "<system-reminder>"
TYPED_ORIGINS = ("user",)
IMAGE_PARTS = {"image_url": "image_url", "audio_url": "input_audio", "video_url": "file"}
"""Kimi's media parts, as the media placeholder knows them."""


_ENVELOPE = ("type", "time", "agentId")
STEPS_KEPT = 256
"""How many of the last steps the reader knows by uuid: a step's events come together, before the next step
begins (a sub-agent's steps are in its own wire)."""
ATTACHED = ("llm.request", "turn.ended", "usage.record")
"""Bookkeeping lines whose unread members are a message's details (one of each a turn or a step)."""
USAGE_READ = claims(*_ENVELOPE, "model", *(f"usage.{key}" for key in ("inputOther", "output", "inputCacheRead",
                                                                        "inputCacheCreation")))
"""What is read of a usage record whose counts are its step's (read there)."""
ALL = {"*": True}
_BOOKKEEPING = claims_by("type", {
    "metadata": ("protocol_version", "created_at"),
    "config.update": ("modelAlias", "profileName", "systemPrompt"),
    "usage.record": ("model",),
    "llm.request": ("model",),
    "turn.ended": ("error",),
    "task.started": ("info",),
    "turn.prompt": ("input", "origin"),
}, common=_ENVELOPE)
"""What the reader reads of the bookkeeping lines (a prompt's input is the user message the context appends next:
shown there); of any other line its envelope, the rest kept in the header's `unread` (a line of an unknown type
that is not dotted is shown whole)."""
ORIGIN_READ = ("kind", "variant", "phase")
MESSAGE_CLAIMS = claims(*_ENVELOPE, "message.role", "message.content", "message.toolCallId", "message.origin",
                        *(f"message.toolCalls[].{key}" for key in ("type", "name", "arguments", "function.name",
                                                                   "function.arguments")))
"""What the reader reads of a message the context appends (its origin's other members are its details)."""
STEP_DETAILS = ("providerFinishReason", "rawFinishReason", "llmFirstTokenLatencyMs", "llmStreamDurationMs")
"""What a step's end says beside its usage, id and finish reason: kept in its last message's details."""
_STEPPED = ("event.uuid", "event.turnId", "event.step", "event.stepUuid")
EVENT_CLAIMS = claims_by("event.type", {
    "step.begin": _STEPPED,
    "content.part": (*_STEPPED, "event.part"),
    "tool.call": (*_STEPPED, "event.name", "event.args"),
    "tool.result": ("event.parentUuid", "event.result.output", "event.result.note", "event.result.isError"),
    "step.end": (*_STEPPED, "event.finishReason", *(f"event.usage.{key}" for key in (
        "inputOther", "output", "inputCacheRead", "inputCacheCreation")), *(f"event.{key}" for key in STEP_DETAILS)),
}, common=(*_ENVELOPE, "event.type"))
"""What it reads of an event of the agent's loop, by its type (uuids name other events, as ids do; a part is read
by its kind, an unknown one shown whole); an event of an unknown type is shown whole."""
COMPACTION_CLAIMS = claims(*_ENVELOPE, "summary.content")


def _claims(line: Line) -> Claims:
    kind = line.get("type")
    if kind == "context.append_message":
        return MESSAGE_CLAIMS
    if kind == "context.append_loop_event":
        return EVENT_CLAIMS(line)
    if kind == "context.apply_compaction":
        return COMPACTION_CLAIMS
    return _BOOKKEEPING(line)


def parse_kimi_code(text: str, options: ParseOptions) -> Transcript:
    """Read a Kimi Code agent's wire. Never raises on user input."""
    return read_whole(KimiCodeReader(), text)


def milliseconds(value: Any) -> str | None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 1e14:
        return None
    return dt.datetime.fromtimestamp(value / 1000, dt.timezone.utc).isoformat(timespec="milliseconds") \
        .replace("+00:00", "Z")


def kimi_usage(value: Any, other: str = "inputOther", read: str = "inputCacheRead",
               creation: str = "inputCacheCreation") -> Usage | None:
    """A step's usage: the input that was not cached, the output, and the cache read and written."""
    if not isinstance(value, dict):
        return None
    written = [value.get(key) for key in (other, "output", read, creation)]
    counts = [count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
              for count in written]
    return Usage(input=counts[0], output=counts[1], cache_read=counts[2], cache_write=counts[3])


def _kept(value: dict[str, Any]) -> dict[str, Any]:
    """What is read of a line once its messages are: its time."""
    return {"time": value["time"]} if "time" in value else {}


@dataclasses.dataclass(slots=True)
class _Step:
    """A model response the reader still knows: its turn, its messages that are the model's, its usage."""

    turn: int
    messages: array[int] = dataclasses.field(default_factory=lambda: array("i"))
    usage: Usage | None = None


class KimiCodeReader(LineReader):
    """Reads a wire's records in order into the session. What a record says of its messages is held until they are
    finished; a step's end (its usage, response id, finish reason) and the usage record after it (its model) may
    come after messages of the step were finished: an amendment to each. Kept to the end: the usage of the steps
    forgotten and the number of each answer's model (the header's totals); until its reply, each call's time (a
    reply's duration)."""

    dialect = DIALECT

    def __init__(self, session: Session | None = None) -> None:
        # The session keeps nothing of a line once read but its time: what later lines need is kept here.
        super().__init__(session or Session("", kept=_kept))
        self.header: dict[str, Any] = {"producer": DIALECT, "agent": "Kimi Code"}
        self.steps: dict[str, _Step] = {}
        """The last STEPS_KEPT steps by uuid, oldest first."""
        self.forgotten_usage, self.forgotten_responses = Usage(), 0
        """The usage of the steps no longer kept, summed, and how many they were."""
        self.last_step: str | None = None
        self.model: str | None = None
        self.models: list[str] = []
        self.model_numbers: dict[str, int] = {}
        """A model's name -> its place in `models`."""
        self.model_of = array("i")
        """Message index -> the place of its model in `models` (-1: none)."""
        self.usage: dict[int, Usage] = {}
        """Message index -> its step's usage, until it is finished (as `responses`, `stops`, `details`)."""
        self.attached: dict[str, int] = {}
        """A bookkeeping line's type -> the message its members were last attached to."""
        self.responses: dict[int, str] = {}
        """Message index -> its response's id, until it is finished (as `stops`, `details`)."""
        self.stops: dict[int, str] = {}
        self.sub_agents: dict[str, str] = {}
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its line said beside it (a step's latencies, a message's origin)."""
        self.called: dict[str, str] = {}
        """A call id -> when it was first made (a reply's duration is counted from it)."""

    def line(self, line: Line) -> None:
        kind = line.get("type")
        attachment = self._attachment(line) if kind in ATTACHED else None
        self.session.account(line, ALL if attachment else _claims(line))
        if attachment:
            self._attach(kind, *attachment)
        if kind == "metadata":
            if isinstance(line.get("protocol_version"), str):
                self.header.setdefault("protocol_version", line.get("protocol_version"))
            created = milliseconds(line.get("created_at"))
            if created:
                self.header.setdefault("created", created)
            self.quiet.append(line.span)
        elif kind == "config.update":
            self._config(line)
        elif kind == "context.append_message":
            self._message(line)
        elif kind == "context.append_loop_event":
            self._event(line)
        elif kind == "usage.record":
            self._model_of_step(line.get("model"))
            self.quiet.append(line.span)
        elif kind == "llm.request":
            self.model = line.get("model") if isinstance(line.get("model"), str) else self.model
            self.quiet.append(line.span)
        elif kind == "context.apply_compaction":
            self._compaction(line)
        elif kind == "turn.ended" and isinstance(line.get("error"), (dict, str)):
            error = line.get("error")
            said = error.get("message") if isinstance(error, dict) else error
            self.session.diagnostics.append(make_diagnostic(
                "W-API-ERROR", line.span, f"The turn failed: {said}." if isinstance(said, str) else "The turn "
                                                                                                    "failed."))
            self.quiet.append(line.span)
        elif isinstance(kind, str) and "." in kind:
            if kind == "task.started":
                self._task(line.get("info"))
            if isinstance(line.get("agentId"), str):
                self.header.setdefault("agent_id", line.get("agentId"))
            self.quiet.append(line.span)
        else:
            what = f"A line {type_phrase(kind, line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 what)], self.session.next_turn())

    def _config(self, line: Line) -> None:
        for key, name in (("modelAlias", "model_alias"), ("profileName", "profile")):
            if isinstance(line.get(key), str) and line.get(key):
                self.header.setdefault(name, line.get(key))
        if isinstance(line.get("agentId"), str):
            self.header.setdefault("agent_id", line.get("agentId"))
        prompt = line.get("systemPrompt")
        if isinstance(prompt, str) and prompt:
            self._add(line, [Draft(dict(role="system", name="systemPrompt", channel="final", content=prompt,
                                        end="end"), None)], self.session.next_turn())
        else:
            self.quiet.append(line.span)

    def _message(self, line: Line) -> None:
        body = line.get("message")
        if not isinstance(body, dict):
            self.session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", line.span, "This line has no message "
                                                                                       "object; it was skipped."))
            return
        origin = rest_details(body, ("origin",), claims(*(f"origin.{key}" for key in ORIGIN_READ)))
        source, found = self.session.read(line, "message", lambda source: _context_message(source, self.session))
        first = len(self.session.messages)
        self._add(line, found, self.session.next_turn(), source.problems)
        if origin and len(self.session.messages) > first:
            self.details[first] = origin

    def _event(self, line: Line) -> None:
        event = line.get("event")
        kind = event.get("type") if isinstance(event, dict) else None
        step = event.get("stepUuid") if isinstance(event, dict) and isinstance(event.get("stepUuid"), str) else None
        if kind == "step.begin":
            uuid = event.get("uuid") if isinstance(event.get("uuid"), str) else f"line {line.number}"
            self._begin(uuid, self.session.next_turn())
            self.last_step = uuid
            self.quiet.append(line.span)
            return
        if kind == "step.end":
            self._step_end(line, event)
            return
        if kind not in ("content.part", "tool.call", "tool.result"):
            what = f"A loop event {type_phrase(kind, event)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, event, line.span, "W-JSON-UNKNOWN-ITEM", what)],
                      self.session.next_turn())
            return
        step = step or self.last_step  # a result names its call's event (`parentUuid`), not its step
        known = self.steps.get(step) if step is not None else None
        turn = known.turn if known is not None else self.session.next_turn()
        source, found = self.session.read(line, "event", lambda source: _loop_event(source, self.session))
        first = len(self.session.messages)
        self._add(line, found, turn, source.problems)
        answers = [index for index in range(first, len(self.session.messages))
                   if self.session.messages[index].role == "assistant"]
        if step is not None:
            (known or self._begin(step, turn)).messages.extend(answers)  # a step whose beginning was not read
            if self.model:
                for index in answers:
                    self._name_model(index, self.model)

    def _step_end(self, line: Line, event: dict[str, Any]) -> None:
        uuid = event.get("uuid") if isinstance(event.get("uuid"), str) else self.last_step
        step = self.steps.get(uuid) if uuid is not None else None
        said = step.messages if step is not None else ()
        usage = kimi_usage(event.get("usage"))
        reason = event.get("finishReason")
        if step is not None and said:
            last = said[-1]
            if usage is not None:
                step.usage = usage
                if self.session.messages.holds(last):
                    self.usage[last] = usage
            ended = rest_details(event, STEP_DETAILS, {})
            response = event["messageId"] if isinstance(event.get("messageId"), str) else None
            stop = reason if isinstance(reason, str) else None
            for index in said:
                if self.session.messages.holds(index):
                    if index == last and ended:
                        self.details[last] = {**self.details.get(last, {}), **ended}
                    if response is not None:
                        self.responses[index] = response
                    if stop is not None:
                        self.stops[index] = stop
                elif response is not None or stop is not None or index == last and (ended or usage is not None):
                    self.session.amend(index, _with_meta(
                        usage=usage if index == last else None, response=response, stop_reason=stop,
                        ended=ended if index == last else None))
        if reason == "interrupted":
            self.session.diagnostics.append(make_diagnostic(
                "W-SESSION-INTERRUPTED", line.span, "The user cancelled this response; what it had written is kept.",
                said[-1] if said else None))
        elif reason == "error":
            self.session.diagnostics.append(make_diagnostic(
                "W-API-ERROR", line.span, "The model's response failed.", said[-1] if said else None))
        self.last_step = uuid
        self.quiet.append(line.span)

    def _model_of_step(self, model: Any) -> None:
        if not isinstance(model, str) or not model:
            return
        for index in self._messages_of(self.last_step):
            self._name_model(index, model)
            if not self.session.messages.holds(index):
                self.session.amend(index, _with_meta(model=model))

    def _messages_of(self, step: str | None) -> array[int] | tuple[()]:
        """The model's messages of a step; none when no step is known."""
        known = self.steps.get(step) if step is not None else None
        return known.messages if known is not None else ()

    def _begin(self, uuid: str, turn: int) -> _Step:
        """A new step known by its uuid; the one it replaces, and the oldest known past STEPS_KEPT, are forgotten
        (their usage summed)."""
        self._forget(self.steps.pop(uuid, None))
        step = self.steps[uuid] = _Step(turn)
        if len(self.steps) > STEPS_KEPT:
            self._forget(self.steps.pop(next(iter(self.steps))))
        return step

    def _forget(self, step: _Step | None) -> None:
        if step is not None and step.usage is not None:
            self.forgotten_usage += step.usage
            self.forgotten_responses += 1

    def _name_model(self, index: int, model: str) -> None:
        if model not in self.model_numbers:
            self.model_numbers[model] = len(self.models)
            self.models.append(model)
        if index >= len(self.model_of):
            self.model_of.extend([-1] * (index + 1 - len(self.model_of)))
        self.model_of[index] = self.model_numbers[model]

    def _model(self, index: int) -> str | None:
        number = self.model_of[index] if index < len(self.model_of) else -1
        return self.models[number] if number >= 0 else None

    def _models_named(self) -> list[str]:
        """The models that answered, in the order they were first named."""
        named = set(self.model_of)
        return [model for number, model in enumerate(self.models) if number in named]

    def _attachment(self, line: Line) -> tuple[int, dict[str, Any]] | None:
        """The message a bookkeeping line's unread members are attached to, and those members: a usage record's on
        its step's last message (its counts read there when they are the step's), a request's or a turn's end on
        the message read last. None when there is no such message, nothing is left, or the message has that type's
        members already (they stay the header's `unread`)."""
        kind = line.get("type")
        if kind == "usage.record":
            said = self._messages_of(self.last_step)
            target = said[-1] if said else None
            step = self.steps.get(self.last_step) if self.last_step is not None else None
            same = step is not None and step.usage is not None and kimi_usage(line.get("usage")) == step.usage
            read = USAGE_READ if same else _claims(line)
        else:
            target = len(self.session.messages) - 1 if len(self.session.messages) else None
            read = _claims(line)
        if target is None or self.attached.get(kind) == target:
            return None
        members = unclaimed(line.value, read)
        return (target, members) if members else None

    def _attach(self, kind: str, index: int, members: dict[str, Any]) -> None:
        self.attached[kind] = index
        if self.session.messages.holds(index):
            self.details[index] = {**self.details.get(index, {}), kind: members}
        else:
            self.session.amend(index, _with_meta(ended={kind: members}))

    def _compaction(self, line: Line) -> None:
        summary = line.get("summary")
        content = summary if isinstance(summary, str) else flat_text(summary.get("content")) \
            if isinstance(summary, dict) else ""
        problem = Pending("W-SESSION-COMPACTED", "Kimi compacted its context here: the messages before it stay, the "
                                                 "model saw this summary of them instead.", line.span)
        self._add(line, [Draft(dict(role="user", name="compaction", channel="final", content=content,
                                    intent="context", end="end"), None)], self.session.next_turn(), [problem])

    def _task(self, info: Any) -> None:
        """An `Agent` call's sub-agent: its agent id, by the call that started it."""
        if isinstance(info, dict) and isinstance(info.get("agentId"), str) \
                and isinstance(info.get("parentToolCallId"), str):
            self.sub_agents[info["agentId"]] = info["parentToolCallId"]
            self.header["sub_agents"] = dict(self.sub_agents)

    def _add(self, line: Line, found: list[Draft], turn: int, problems=()) -> None:
        self.session.add_line(line, found, turn, problems)

    # ---- what the reader decides ------------------------------------------------------------------------------

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        done = []
        for message, line in zip(messages, lines):
            timestamp = milliseconds(line.get("time"))
            if message.is_call and message.call_id and timestamp:
                self.called.setdefault(message.call_id, timestamp)
            duration = between(self.called.pop(message.call_id, None), timestamp) \
                if message.is_reply and message.call_id else None
            index = message.index
            meta = Meta(timestamp=timestamp, model=self._model(index), usage=self.usage.pop(index, None),
                        response=self.responses.pop(index, None), stop_reason=self.stops.pop(index, None),
                        duration_ms=duration, details=self.details.pop(index, None))
            done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
        return done

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def end(self) -> Ended:
        kept = [step.usage for step in self.steps.values() if step.usage is not None]
        totals = summed_totals(sum(kept, self.forgotten_usage), self.forgotten_responses + len(kept),
                               self._models_named())
        return Ended(self.session.with_unread(self.header | totals))


def _with_meta(usage: Usage | None = None, model: str | None = None, response: str | None = None,
               stop_reason: str | None = None, ended: dict[str, Any] | None = None) -> Change:
    """What a step's end or its usage record says of a message of the step finished before: the fields given
    (`ended`: what the step's end adds to its last message's details)."""
    fields: dict[str, Any] = {name: value for name, value in (("usage", usage), ("model", model),
                                                              ("response", response), ("stop_reason", stop_reason))
                              if value is not None}

    def change(message: Message) -> Message:
        meta = message.meta or Meta()
        details = {**(meta.details or {}), **ended} if ended else meta.details
        return replace_fields(message, meta=dataclasses.replace(meta, **fields, details=details))
    return change


def _context_message(source: JsonObject, session: Session) -> list[Draft]:
    """A message the context received: what the user typed, injected context, a system or tool message."""
    role = source.get("role")
    origin = source.get("origin") if isinstance(source.get("origin"), dict) else {}
    kind = origin.get("kind")
    if role == "system":
        return [_said("system", _text(source), source.span)]
    if role == "tool":
        return [drafts.reply(session.tool_named(source.get("toolCallId")), _text(source), source.span,
                             source.get("toolCallId") if isinstance(source.get("toolCallId"), str) else None)]
    if role == "assistant":
        return _assistant_message(source, session)
    if role != "user":
        return [drafts.unclassified("unknown", role, source.value, source.span, "W-JSON-UNKNOWN-ITEM",
                                    f"A context message whose role is {role!r}")]
    found: list[Draft] = []
    for part, span in _parts(source):
        part_kind = part.get("type") if isinstance(part, dict) else None
        if part_kind == "text" and isinstance(part.get("text"), str):
            text = part["text"]
            if kind == "shell_command":
                typed = origin.get("phase") == "input"
                found.append(_said("user", text, span, intent=None if typed else "context",
                                   name=None if typed else "shell output"))
                continue
            typed = (kind is None or kind in TYPED_ORIGINS) and not text.lstrip().startswith(REMINDER)
            found.append(_said("user", text, span, intent=None if typed else "context",
                               name=None if typed else _origin_name(origin)))
        elif part_kind in IMAGE_PARTS:
            typed = kind is None or kind in TYPED_ORIGINS
            found.append(_said("user", placeholder(IMAGE_PARTS[part_kind], _media(part)), span,
                               intent=None if typed else "context"))
        else:
            found.append(drafts.unclassified("user", part_kind, part, span, "W-JSON-UNKNOWN-PART",
                                             f"A content part {type_phrase(part_kind, part)}"))
    return found or [_said("user", "", source.span, intent="context")]


def _origin_name(origin: dict[str, Any]) -> str | None:
    kind, variant = origin.get("kind"), origin.get("variant")
    named = [value for value in (kind, variant) if isinstance(value, str) and value]
    return ":".join(named) or None


def _assistant_message(source: JsonObject, session: Session) -> list[Draft]:
    found: list[Draft] = []
    for part, span in _parts(source):
        found.append(_part(part, span))
    calls = source.get("toolCalls")
    for call in calls if isinstance(calls, list) else []:
        if isinstance(call, dict):
            written = call.get("function")
            function = written if isinstance(written, dict) else call  # a call written flat is its own function
            found.append(_call(call.get("id"), function.get("name"), function.get("arguments"), source.span_of(
                "toolCalls"), session))
    return found or [_said("assistant", "", source.span)]


def _loop_event(source: JsonObject, session: Session) -> list[Draft]:
    kind = source.get("type")
    if kind == "content.part":
        part = source.get("part")
        return [_part(part, source.span_of("part"))]
    if kind == "tool.call":
        return [_call(source.get("toolCallId"), source.get("name"), source.get("args"), source.span, session)]
    result = source.get("result") if isinstance(source.get("result"), dict) else {}
    call_id = source.get("toolCallId") if isinstance(source.get("toolCallId"), str) else None
    name = session.tool_named(call_id)
    output = flat_text(result.get("output"))
    note = result.get("note")
    if isinstance(note, str) and note:
        output = f"{output}\n\n{note}" if output else note
    piece = drafts.reply(name, output, source.span, call_id)
    if result.get("isError") is True:
        tool = f"The tool {name}" if name else "The tool"
        piece.problems.append(Pending("W-TOOL-ERROR", f"{tool} reported a failure (isError).", source.span))
    return [piece]


def _part(part: Any, span) -> Draft:
    """A content part of the model's: text, reasoning (`think`, its `encrypted` form opaque), media."""
    kind = part.get("type") if isinstance(part, dict) else None
    if kind == "text":
        return _said("assistant", part.get("text") if isinstance(part.get("text"), str) else "", span)
    if kind == "think":
        piece = drafts.analysis("assistant", part.get("think") if isinstance(part.get("think"), str) else "", span)
        if part.get("encrypted"):
            piece.problems.append(drafts.opaque_problem("reasoning", part["encrypted"], "encrypted", span))
        return piece
    if kind in IMAGE_PARTS:
        return _said("assistant", placeholder(IMAGE_PARTS[kind], _media(part)), span)
    return drafts.unclassified("assistant", kind, part, span, "W-JSON-UNKNOWN-PART",
                               f"A content part {type_phrase(kind, part)}")


def _call(call_id: Any, name: Any, arguments: Any, span, session: Session) -> Draft:
    recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
    call_id = call_id if isinstance(call_id, str) else None
    content = arguments if isinstance(arguments, str) else "" if arguments is None else shown_json(arguments)
    piece = drafts.call(recipient, content, span, call_id)
    if recipient is None:
        piece.problems.append(Pending("W-JSON-SHAPE", "This tool call does not say which tool it calls.", span))
    session.note_call(call_id, recipient)
    return piece


def _parts(source: JsonObject) -> list[tuple[Any, tuple[int, int]]]:
    content = source.get("content")
    if isinstance(content, str):
        return [({"type": "text", "text": content}, source.span_of("content"))]
    if not isinstance(content, list):
        return []
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    return [(part, spans[at] if at < len(spans) else source.span_of("content")) for at, part in enumerate(content)]


def _media(part: dict[str, Any]) -> dict[str, Any]:
    """A Kimi media part in the shape the placeholder reads (`imageUrl: {url}` as `image_url: {url}`)."""
    for key in ("imageUrl", "audioUrl", "videoUrl", "image_url"):
        if isinstance(part.get(key), dict):
            return {"image_url": part[key]}
    return part


def _text(source: JsonObject) -> str:
    return flat_text([{"type": "text", "text": part.get("think") or part.get("text")} if isinstance(part, dict)
                      and part.get("type") in ("text", "think") else part for part, _ in _parts(source)])


def _said(role: str, text: str, span, intent: str | None = None, name: str | None = None) -> Draft:
    return Draft(dict(role=role, name=name, channel="final", content=text, intent=intent, end="end"), span)
