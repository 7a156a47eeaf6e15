"""OpenHands conversations (dialect `openhands`): the events of one conversation as one text, a JSON array (V0's
trajectory export, an `event_cache` page) or one object after another (JSON Lines, or the event files of a
conversation folder joined in order, its `base_state.json` or `metadata.json` among them).

V1 (the agent SDK and its CLI, `~/.openhands/conversations/<id>/events/event-*.json`): each event has `kind`,
`id`, `timestamp` and `source`.
- `SystemPromptEvent`: the system prompt (hidden) and its `dynamic_context` (the repository, the runtime, the
  date: injected context).
- `MessageEvent`: `llm_message` from the user (what they typed) or the agent (its answer, its reasoning);
  `extended_content` is what the agent context appended for the model (skills, `<EXTRA_INFO>`): context.
- `ActionEvent`: one tool call (`tool_call.arguments` as the model wrote them) with the response's `thought`
  before it (a preamble) and its reasoning (`reasoning_content`, `thinking_blocks`, a Responses reasoning item);
  the calls of one response (`llm_response_id`) are one turn. A `finish` call is how the agent gives its
  answer: its `message` is the answer, and the finish observation that echoes it is frame.
- `ObservationEvent`, `AgentErrorEvent` (W-TOOL-ERROR) and `UserRejectObservation` (E-TOOL-CANCELLED): the
  call's reply, paired by `tool_call_id`.
- `Condensation` (W-SESSION-COMPACTED) and `CondensationSummaryEvent`: hidden system messages; `PauseEvent`
  and `InterruptEvent`: W-SESSION-INTERRUPTED; state updates, token and log events: frame.
- `base_state.json` (ConversationState): the model, the working folder, the usage per response and in total.

V0 (OpenHands ≤ 0.x, `sessions/<id>/events/<n>.json`): each event has an integer `id`, `source` and either
`action` + `args` or `observation` + `content` + `extras`; an agent action carries `tool_call_metadata` (the
call's id and the whole model response: its reasoning, its text, its usage) and `llm_metrics`. Actions are calls
(the `system` prompt, a `message`, `finish` and `recall` excepted), observations their replies (by the call's id,
else by `cause`); a `recall` observation is injected context; `metadata.json` gives the title.

Any other event is kept as a hidden message with W-JSON-UNKNOWN-ITEM.

Every event and state file is accounted for (openhands_accounting.py): what an event records beside what is read
(the UI's one-line message, a command's metadata, an edit's old and new content and diff, the parsed action, the
summary an action was given) is its first message's details; what an event with no message says (a state change,
a title) is kept in the header's `bookkeeping`; the tools declared are the header's `tools`, as written, and the
transcript's; the state file's and V0 metadata's other facts the header's `state` and `metadata`.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.bundles import read_bundle
from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.documents import located, read_events, read_located
from viewer.parse.agents.lines import Line
from viewer.parse.agents.meta import NOTHING, between, usage_totals
from viewer.parse.agents.openhands_accounting import claimed, family, kept, plan_of
from viewer.parse.agents.openhands_folder import read_folders
from viewer.parse.agents.pieces import (
    call, context, cost_of, count, failed, litellm_usage, reasoning, reply, said, shown)
from viewer.parse.agents.records import by_reference, shown_by_reference
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.json.tools import declared_tools
from viewer.parse.options import ParseOptions

V1_QUIET = ("ConversationStateUpdateEvent", "CondensationRequest", "TokenEvent", "LLMCompletionLogEvent",
            "HookExecutionEvent", "StreamingDeltaEvent", "ConversationTitleEvent")
"""V1 events that carry no conversation: the state machine, token ids, raw LLM logs, hooks, streaming."""
V1_INTERRUPTIONS = ("PauseEvent", "InterruptEvent")
V0_QUIET_ACTIONS = ("recall", "change_agent_state", "null")
V0_QUIET_OBSERVATIONS = ("null",)
V0_STOPPED = {"paused": "The user paused the agent here.", "stopped": "The user stopped the agent here.",
              "rejected": "The agent rejected the task here."}
MODEL_MESSAGE = ("tool_call_metadata", "model_response", "choices", 0, "message")
"""Where a V0 action keeps the model's message that made it."""


def parse_openhands(text: str, options: ParseOptions) -> Transcript:
    """Read an OpenHands conversation's events, or conversation folders uploaded together (openhands_folder.py).
    Never raises on user input."""
    bundle = read_bundle(text)
    if bundle is not None:
        return read_folders(text, bundle, _events_of)
    return _events_of(text)


def _events_of(text: str, files: list[tuple[int, int]] | None = None) -> Transcript:
    """The conversation the events of the text make (of the stretches `files` of it, in that order: a folder's
    files)."""
    with collector_paused:  # see viewer/model/collector.py
        if files is None:
            events, unreadable, _ = read_events(text)
        else:
            events, unreadable = [], []
            for span in files:
                found, problems, _ = read_events(text, span)
                events += found
                unreadable += problems
        reader = _Reader(Session(text))
        for event in events:
            reader.event(event)
        messages = tuple(shown_by_reference(reader.finished(), text))
        diagnostics = [*unreadable, *reader.session.diagnostics]
        tools = reader.facts.get("tools")
        return Transcript(dialect="openhands", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=reader.session.with_unread(reader.header(messages)),
                          tools=declared_tools({"tools": tools}) if isinstance(tools, list) else {},
                          frame=reader.session.frame(reader.quiet, diagnostics))


class _Reader:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.text = session.text
        self.quiet: list[tuple[int, int]] = []
        self.facts: dict[str, Any] = {"producer": "openhands"}
        self.state: dict[str, Any] = {}
        self._turns: dict[str, int] = {}
        """The turn of each model response read so far."""
        self.response_of: dict[int, str] = {}
        """Message index -> the id of the model response it belongs to."""
        self.model_of: dict[str, str] = {}
        """Response id -> its model (V0 records it on each response)."""
        self.usage_of: dict[str, Usage] = {}
        self._answered: set[str] = set()
        """The call ids of `finish` calls read as the agent's answer: their observations only echo it."""
        self._responses_read: set[str] = set()
        """V0 responses whose reasoning and text were read (each of their calls repeats them)."""
        self._cost = 0.0
        self._call_of_event: dict[int, str] = {}
        """V0: the call id of each action event, by its `id` (an observation names it as its `cause`)."""
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its event records beside what is read."""

    # ---- dispatch -------------------------------------------------------------------------------------------

    def event(self, line: Line) -> None:
        value = line.value
        plan, envelope = plan_of(value)
        self.session.account(line, claimed(plan, envelope), "event")
        first = len(self.session.messages)
        what, kind = family(value)
        if what == "v1":
            self._v1(line, kind)
        elif what == "action":
            self._v0_action(line, kind)
        elif what == "observation":
            self._v0_observation(line, kind)
        elif what == "state":
            self._state(line)
        elif what == "metadata":
            self._metadata(line)
        else:
            self._unknown(line, kind)
        self._keep(line, by_reference(line, kept(value, plan, envelope)), what, first,
                   plan is not None and plan.quiet)

    def _keep(self, line: Line, said: dict[str, Any], what: str, first: int, quiet: bool) -> None:
        """What an event records beside what is read: its first message's details; of an event with no message,
        an entry of the header's `bookkeeping` (always for a bookkeeping event: what it is); of a state file, the
        header's `state` or `metadata`."""
        if not said and not (quiet and len(self.session.messages) == first):
            return
        if what in ("state", "metadata"):
            self.facts[what] = said
        elif len(self.session.messages) > first:
            self.details[first] = {**self.details.get(first, {}), **said}
        else:
            tag: dict[str, Any] = {key: line.value[key] for key in ("kind", "action", "observation")
                                   if key in line.value}
            self.facts.setdefault("bookkeeping", []).append({"event": line.number, **tag, **said})

    def _unknown(self, line: Line, kind: Any) -> None:
        what = f"An event {type_phrase(kind, line.value)}"
        self.session.shown_whole(line)
        self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM", what)])

    def _add(self, line: Line, found: list[Draft], problems=(), turn: int | None = None,
             response: str | None = None) -> None:
        first = len(self.session.messages)
        self.session.add_line(line, found, self.session.next_turn() if turn is None else turn, problems)
        if response is not None:
            for index in range(first, len(self.session.messages)):
                self.response_of[index] = response

    def _turn(self, response: Any) -> int:
        """The messages of one model response are one turn."""
        if not isinstance(response, str) or not response:
            return self.session.next_turn()
        if response not in self._turns:
            self._turns[response] = self.session.next_turn()
        return self._turns[response]

    def _read(self, line: Line, reader, depth: int = 3) -> tuple[JsonObject, list[Draft]]:
        return read_located(self.text, line, reader, depth)

    # ---- V1 -------------------------------------------------------------------------------------------------

    def _v1(self, line: Line, kind: str) -> None:
        value = line.value
        if kind == "SystemPromptEvent":
            if isinstance(value.get("tools"), list) and value["tools"]:
                self.facts.setdefault("tools", value["tools"])  # as written: names, descriptions, schemas
            source, found = self._read(line, _system_prompt)
            self._add(line, found, source.problems)
        elif kind == "MessageEvent":
            agent = value.get("source") == "agent"
            response = value.get("llm_response_id") if agent else None
            source, found = self._read(line, _message)
            self._add(line, found, source.problems, self._turn(response) if agent else None,
                      response if isinstance(response, str) else None)
        elif kind == "ActionEvent":
            self._action(line)
        elif kind in ("ObservationEvent", "UserRejectObservation", "AgentErrorEvent"):
            call_id = value.get("tool_call_id")
            if kind == "ObservationEvent" and isinstance(call_id, str) and call_id in self._answered:
                self.quiet.append(line.span)  # the finish tool's observation repeats the answer
                return
            source, found = self._read(line, lambda source: _reply_v1(source, kind, self.session), depth=2)
            self._add(line, found, source.problems)
        elif kind in ("Condensation", "CondensationSummaryEvent"):
            self._condensation(line, kind)
        elif kind in V1_INTERRUPTIONS:
            self.session.diagnostics.append(make_diagnostic("W-SESSION-INTERRUPTED", line.span,
                                                            "The user paused or interrupted the agent here."))
        elif kind == "ConversationErrorEvent":
            detail = value.get("detail") or value.get("error") or value.get("code")
            self._add(line, [said("system", shown(detail or ""), None, name="error")],
                      [Pending("W-API-ERROR", f"The conversation stopped on an error: {shown(detail or '')[:200]}",
                               line.span)])
        elif kind in V1_QUIET:
            self.quiet.append(line.span)
        else:
            self._unknown(line, kind)

    def _action(self, line: Line) -> None:
        value = line.value
        action = object_in(value, "action")
        finish = action.get("kind") == "FinishAction" or value.get("tool_name") == "finish"
        response = value.get("llm_response_id") if isinstance(value.get("llm_response_id"), str) else None
        source, found = self._read(line, lambda source: _action_v1(source, finish))
        self._add(line, found, source.problems, self._turn(response), response)
        if finish and isinstance(value.get("tool_call_id"), str):
            self._answered.add(value["tool_call_id"])

    def _condensation(self, line: Line, kind: str) -> None:
        value = line.value
        summary = value.get("summary")
        forgotten = value.get("forgotten_event_ids")
        text = summary if isinstance(summary, str) and summary else (
            f"({len(forgotten)} earlier events were dropped from what the model saw)" if isinstance(forgotten, list)
            else "")
        problems = []
        if kind == "Condensation":
            problems.append(Pending("W-SESSION-COMPACTED", "OpenHands condensed its context here: the model saw a "
                                                           "summary instead of the events before it.", line.span))
        self._add(line, [said("system", text, None, name="condensation")], problems)

    def _state(self, line: Line) -> None:
        """`base_state.json`: the conversation's model, folder, status and usage."""
        self.state = line.value
        self.quiet.append(line.span)

    def _metadata(self, line: Line) -> None:
        """V0's `metadata.json`: the conversation's title, model and totals."""
        value = line.value
        for key, name in (("title", "title"), ("llm_model", "model"), ("selected_repository", "repository"),
                          ("created_at", "created"), ("conversation_id", "session_id")):
            if isinstance(value.get(key), str) and value[key]:
                self.facts.setdefault(name, value[key])
        self.quiet.append(line.span)

    # ---- V0 -------------------------------------------------------------------------------------------------

    def _v0_action(self, line: Line, action: str) -> None:
        value = line.value
        args = object_in(value, "args")
        metadata = object_in(value, "tool_call_metadata")
        response = _response_id(metadata)
        if action == "system":
            for key, name in (("openhands_version", "version"), ("agent_class", "agent")):
                if isinstance(args.get(key), str):
                    self.facts.setdefault(name, args[key])
            if isinstance(args.get("tools"), list) and args["tools"]:
                self.facts.setdefault("tools", args["tools"])
            source, found = self._read(line, lambda source: [said("system", shown(args.get("content") or ""),
                                                                  located(source, "args", "content"),
                                                                  name="system_prompt")])
            self._add(line, found, source.problems)
            return
        if action in V0_QUIET_ACTIONS:
            self.quiet.append(line.span)
            return
        if action == "condensation":
            self._add(line, [said("system", shown_json(args), None, name="condensation")],
                      [Pending("W-SESSION-COMPACTED", "OpenHands condensed its context here: the model saw a summary "
                                                      "instead of the events before it.", line.span)])
            return
        if action == "message" and value.get("source") == "user":
            source, found = self._read(line, _user_message_v0)
            self._add(line, found, source.problems)
            return
        first_of_response = response is None or response not in self._responses_read
        source, found = self._read(line, lambda source: _action_v0(source, action, first_of_response),
                                   depth=len(MODEL_MESSAGE) + 2)
        if response is not None:
            self._responses_read.add(response)
            model = _model(metadata)
            if model:
                self.model_of.setdefault(response, model)
            if first_of_response:
                self._v0_usage(value, metadata, response)
        self._add(line, found, source.problems, self._turn(response), response)
        calls = [piece.fields["call_id"] for piece in found if piece.fields.get("end") == "call"]
        if calls and isinstance(value.get("id"), int):
            self._call_of_event[value["id"]] = calls[-1]

    def _v0_usage(self, value: dict[str, Any], metadata: dict[str, Any], response: str) -> None:
        """A response's usage from its model response; its cost from the growth of the accumulated metrics."""
        metrics = value.get("llm_metrics")
        accumulated = cost_of(metrics.get("accumulated_cost")) if isinstance(metrics, dict) else None
        cost = None
        if accumulated is not None:
            cost, self._cost = round(max(accumulated - self._cost, 0.0), 10), max(accumulated, self._cost)
        model_response = metadata.get("model_response")
        usage = litellm_usage(model_response.get("usage") if isinstance(model_response, dict) else None, cost=cost)
        if usage is not None:
            self.usage_of[response] = usage

    def _v0_observation(self, line: Line, kind: str) -> None:
        value = line.value
        extras = object_in(value, "extras")
        if kind == "agent_state_changed":
            state = extras.get("agent_state")
            if state in V0_STOPPED:
                self.session.diagnostics.append(make_diagnostic("W-SESSION-INTERRUPTED", line.span, V0_STOPPED[state]))
            elif state == "error":
                reason = extras.get("reason") if isinstance(extras.get("reason"), str) else ""
                self.session.diagnostics.append(make_diagnostic(
                    "W-API-ERROR", line.span, f"The agent stopped on an error{': ' + reason if reason else ''}."))
            else:
                self.quiet.append(line.span)
            return
        if kind in V0_QUIET_OBSERVATIONS:
            self.quiet.append(line.span)
            return
        if kind == "recall":
            if isinstance(extras.get("working_dir"), str) and extras["working_dir"]:
                self.facts.setdefault("cwd", extras["working_dir"])
            source, found = self._read(line, lambda source: [context(shown_json(extras), located(source, "extras"),
                                                                     name="recall")])
            self._add(line, found, source.problems)
            return
        if kind == "condense":
            self._add(line, [said("system", shown(value.get("content") or ""), None, name="condensation")])
            return
        source, found = self._read(line, lambda source: _observation_v0(source, kind, self.session,
                                                                        self._call_of_event), depth=2)
        self._add(line, found, source.problems)

    # ---- metadata -------------------------------------------------------------------------------------------

    def finished(self) -> list[Message]:
        """The messages with their time, model, usage (on a response's last message) and a reply's duration."""
        messages, lines = self.session.messages, self.session.lines
        last_of: dict[str, int] = {}
        for index, response_id in self.response_of.items():
            last_of[response_id] = max(index, last_of.get(response_id, -1))
        state_model = _state_model(self.state)
        state_usage = _state_usages(self.state)
        called: dict[str, str] = {}
        done = []
        for message, line in zip(messages, lines):
            timestamp = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
            response = self.response_of.get(message.index)
            if message.is_call and message.call_id and timestamp:
                called.setdefault(message.call_id, timestamp)
            usage = None
            if response is not None and last_of[response] == message.index:
                usage = self.usage_of.get(response) or state_usage.get(response)
            model = (self.model_of.get(response or "") or state_model) if message.role == "assistant" else None
            duration = between(called.get(message.call_id or ""), timestamp) if message.is_reply else None
            meta = Meta(timestamp=timestamp, model=model, usage=usage, response=response, duration_ms=duration,
                        details=self.details.get(message.index))
            done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
        return done

    def header(self, messages: tuple[Message, ...]) -> dict[str, Any]:
        header = dict(self.facts)
        state = self.state
        workspace = state.get("workspace")
        if isinstance(workspace, dict) and isinstance(workspace.get("working_dir"), str):
            header.setdefault("cwd", workspace["working_dir"])
        for key, name in (("id", "session_id"), ("execution_status", "status")):
            if isinstance(state.get(key), str) and state[key]:
                header.setdefault(name, state[key])
        usages = [message.meta.usage for message in messages if message.meta and message.meta.usage]
        models = [message.meta.model for message in messages if message.meta and message.meta.model]
        totals = _state_totals(state, len(set(self.response_of.values()))) or usage_totals(usages, models)
        if isinstance(totals.get("usage", {}).get("cost"), float):  # a sum of prices: no float noise in the header
            totals["usage"]["cost"] = round(totals["usage"]["cost"], 10)
        if models and "models" not in totals:
            totals["models"] = list(dict.fromkeys(models))
        return header | totals


# ---- V1 events' pieces ------------------------------------------------------------------------------------------

def _system_prompt(source: JsonObject) -> list[Draft]:
    found = [said("system", flat_text(source.get("system_prompt")), located(source, "system_prompt"),
                  name="system_prompt")]
    dynamic = source.get("dynamic_context")
    if dynamic:
        found.append(context(flat_text(dynamic), located(source, "dynamic_context"), name="dynamic_context",
                             role="system"))
    return found


def _message(source: JsonObject) -> list[Draft]:
    """A user's message, or the agent's answer with its reasoning; text the agent context appended is context."""
    message = source.get("llm_message") if isinstance(source.get("llm_message"), dict) else {}
    origin = source.get("source")
    text = flat_text(message.get("content"))
    span = located(source, "llm_message", "content")
    if origin == "agent":
        found = [*reasoning(source, "llm_message"), said("assistant", text, span)]
    else:  # a hook's or the environment's message is not what the user typed
        found = [said("user", text, span) if origin == "user" else context(text, span, name=origin)]
    extended = source.get("extended_content")
    if extended:
        found.append(context(flat_text(extended), located(source, "extended_content"), name="extended_content"))
    return found


def _action_v1(source: JsonObject, finish: bool) -> list[Draft]:
    """The call's reasoning, the text the response wrote before it, and the call (a finish call: the answer)."""
    found = reasoning(source)
    thought = flat_text(source.get("thought")) if source.get("thought") else ""
    if thought.strip():
        found.append(said("assistant", thought, located(source, "thought")))
    action = source.get("action") if isinstance(source.get("action"), dict) else {}
    if finish:
        message = action.get("message")
        found.append(said("assistant", shown(message if message is not None else ""),
                          located(source, "action", "message")))
        return found
    tool_call = source.get("tool_call") if isinstance(source.get("tool_call"), dict) else None
    call_id = source.get("tool_call_id") if isinstance(source.get("tool_call_id"), str) else None
    if tool_call is not None and "arguments" in tool_call:
        found.append(call(source.get("tool_name") or tool_call.get("name"), tool_call["arguments"],
                          located(source, "tool_call"), call_id or tool_call.get("id")))
    else:  # no model call recorded: the parsed action is what was run
        arguments = {key: item for key, item in action.items() if key != "kind"}
        found.append(call(source.get("tool_name"), arguments, located(source, "action"), call_id))
    return found


def _reply_v1(source: JsonObject, kind: str, session: Session) -> list[Draft]:
    call_id = source.get("tool_call_id") if isinstance(source.get("tool_call_id"), str) else None
    tool = source.get("tool_name")
    name = session.tool_named(call_id) or (qualified_tool_name(tool) if isinstance(tool, str) and tool else None)
    if kind == "AgentErrorEvent":
        error = shown(source.get("error") or "")
        return [failed(reply(name, error, None, call_id), f"OpenHands could not run this call: {error[:200]}",
                       source.span)]
    if kind == "UserRejectObservation":
        reason = shown(source.get("rejection_reason") or "")
        return [failed(reply(name, reason, None, call_id), f"The user declined this call: {reason[:200]}",
                       source.span, "E-TOOL-CANCELLED")]
    observation = source.get("observation") if isinstance(source.get("observation"), dict) else {}
    output = observation.get("content") if "content" in observation else {
        key: item for key, item in observation.items() if key != "kind"}
    piece = reply(name, output, None, call_id)
    if observation.get("is_error") is True:
        failed(piece, f"The tool {name or ''} reported a failure (is_error: true).".replace("  ", " "), source.span)
    return [piece]


# ---- V0 events' pieces ------------------------------------------------------------------------------------------

def _user_message_v0(source: JsonObject) -> list[Draft]:
    args = source.get("args") if isinstance(source.get("args"), dict) else {}
    text = shown(args.get("content") or "")
    images = [url for url in args.get("image_urls") or () if isinstance(url, str)]
    if images:
        text += "".join(f"\n[image: {url[:80]}{'…' if len(url) > 80 else ''}]" for url in images)
    return [said("user", text, located(source, "args", "content"))]


def _action_v0(source: JsonObject, action: str, first_of_response: bool) -> list[Draft]:
    """An agent action: its response's reasoning and text (once per response), then the call, or for a message
    or a finish, the answer."""
    args = source.get("args") if isinstance(source.get("args"), dict) else {}
    metadata = source.get("tool_call_metadata") if isinstance(source.get("tool_call_metadata"), dict) else {}
    model = _model_message(metadata)
    found: list[Draft] = []
    if first_of_response and model is not None:
        found.extend(reasoning(source, *MODEL_MESSAGE))
    if action == "message":
        found.append(said("assistant", shown(args.get("content") or ""), located(source, "args", "content")))
        return found
    if action in ("finish", "reject"):
        thought = args.get("thought")
        if isinstance(thought, str) and thought.strip() and first_of_response:
            found.append(said("assistant", thought, located(source, "args", "thought")))
        answer = args.get("final_thought") if action == "finish" else args.get("reason") or args.get("outputs")
        answer = answer or source.get("message") or args.get("outputs") or ""
        found.append(said("assistant", shown(answer), located(source, "args", "final_thought")))
        return found
    text = model.get("content") if model is not None else args.get("thought")
    if isinstance(text, str) and text.strip() and (first_of_response or model is None):
        found.append(said("assistant", text, located(source, *MODEL_MESSAGE, "content") if model is not None
                          else located(source, "args", "thought")))
    call_id = metadata.get("tool_call_id") if isinstance(metadata.get("tool_call_id"), str) else None
    if call_id is None and isinstance(source.get("id"), int):
        call_id = f"event-{source.get('id')}"
    arguments: str | dict[str, Any] | None = _model_arguments(model, call_id)
    if arguments is None:
        arguments = {key: item for key, item in args.items() if key != "thought"}
    tool = metadata.get("function_name") if isinstance(metadata.get("function_name"), str) else action
    found.append(call(tool, arguments, located(source, "args"), call_id))
    return found


def _observation_v0(source: JsonObject, kind: str, session: Session, calls: dict[int, str]) -> list[Draft]:
    """An observation: the reply to the call it names (its `tool_call_metadata`, else the action that caused
    it); an error no call caused is the agent's own."""
    metadata = source.get("tool_call_metadata") if isinstance(source.get("tool_call_metadata"), dict) else {}
    call_id = metadata.get("tool_call_id") if isinstance(metadata.get("tool_call_id"), str) else None
    cause = source.get("cause")
    if call_id is None and isinstance(cause, int) and not isinstance(cause, bool):
        call_id = calls.get(cause, f"event-{cause}")
    content = shown(source.get("content") or "")
    if call_id is None:  # an error no call caused: the agent's own failure
        piece = said("system", content, None, name=kind)
        if kind == "error":
            piece.problems.append(Pending("W-API-ERROR", f"OpenHands reported an error: {content[:200]}",
                                          source.span))
        return [piece]
    function = metadata.get("function_name")
    name = session.tool_named(call_id) or qualified_tool_name(function if isinstance(function, str) and function
                                                               else kind)
    piece = reply(name, content, None, call_id)
    if kind == "error" or source.get("success") is False:
        failed(piece, f"The tool {name} reported a failure: {content[:200]}", source.span)
    elif kind == "user_rejected":
        failed(piece, "The user declined this call.", source.span, "E-TOOL-CANCELLED")
    return [piece]


def _model_message(metadata: dict[str, Any]) -> dict[str, Any] | None:
    response = metadata.get("model_response")
    choices = response.get("choices") if isinstance(response, dict) else None
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = first.get("message")
    return message if isinstance(message, dict) else None


def _model_arguments(model: dict[str, Any] | None, call_id: str | None) -> str | None:
    """The arguments the model wrote for this call, as it wrote them."""
    for tool_call in (model or {}).get("tool_calls") or ():
        if isinstance(tool_call, dict) and tool_call.get("id") == call_id:
            function = tool_call.get("function")
            if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                return function["arguments"]
    return None


def _response_id(metadata: dict[str, Any]) -> str | None:
    response = metadata.get("model_response")
    identifier = response.get("id") if isinstance(response, dict) else None
    return identifier if isinstance(identifier, str) and identifier else None


def _model(metadata: dict[str, Any]) -> str | None:
    response = metadata.get("model_response")
    model = response.get("model") if isinstance(response, dict) else None
    return model if isinstance(model, str) and model else None


# ---- base_state.json --------------------------------------------------------------------------------------------

def _metrics(state: dict[str, Any]) -> list[dict[str, Any]]:
    stats = state.get("stats")
    usage = stats.get("usage_to_metrics") if isinstance(stats, dict) else None
    return [metrics for metrics in (usage or {}).values() if isinstance(metrics, dict)] if isinstance(usage, dict) \
        else []


def _state_model(state: dict[str, Any]) -> str | None:
    agent = state.get("agent")
    llm = agent.get("llm") if isinstance(agent, dict) else None
    model = llm.get("model") if isinstance(llm, dict) else None
    return model if isinstance(model, str) and model else None


def _state_usages(state: dict[str, Any]) -> dict[str, Usage]:
    """Each response's tokens, as the conversation's metrics recorded them."""
    found: dict[str, Usage] = {}
    for metrics in _metrics(state):
        for usage in metrics.get("token_usages") or ():
            if isinstance(usage, dict) and isinstance(usage.get("response_id"), str) and usage["response_id"]:
                counted = _v1_usage(usage)
                if counted is not None:
                    found[usage["response_id"]] = counted
    return found


def _v1_usage(figures: Any, cost: float | None = None) -> Usage | None:
    """Usage as the SDK's Metrics record it: LiteLLM's counts, but the cache's under names of their own."""
    return litellm_usage(figures, cache_read=("cache_read_tokens",), cache_write=("cache_write_tokens",), cost=cost)


def _state_totals(state: dict[str, Any], responses: int) -> dict[str, Any]:
    """The conversation's total tokens and cost, as its metrics accumulated them."""
    total, models = Usage(), []
    seen = False
    for metrics in _metrics(state):
        accumulated = metrics.get("accumulated_token_usage")
        usage = _v1_usage(accumulated, cost_of(metrics.get("accumulated_cost")))
        if usage is not None:
            total, seen = total + usage, True
        if isinstance(metrics.get("model_name"), str):
            models.append(metrics["model_name"])
    if not seen:
        return {}
    return {"usage": total.to_json(), "responses": responses or sum(
        count(len(metrics.get("costs") or ())) for metrics in _metrics(state))} | (
        {"models": list(dict.fromkeys(models))} if models else {})
