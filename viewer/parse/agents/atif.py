"""ATIF, the Agent Trajectory Interchange Format (Harbor's `trajectory.json`, dialect `atif`): one JSON object
with `schema_version` "ATIF-v1.x", `session_id`, `agent {name, version, model_name}`, `steps`, `final_metrics`;
written by Harbor's agent adapters, NeMo tooling and other agents' exporters.

Each step has `step_id`, `timestamp`, `source` and `message` (text, or text and image parts):
- `system`: the system prompt (hidden); with an `observation`, an event of the harness (a compaction, a reset):
  hidden system messages.
- `user`: what the user typed; its `extra` (what the converter kept beside it, injected context) is hidden.
- `agent`: one model response: `reasoning_content` is analysis, `message` the plan before the calls (the answer
  when it calls nothing), each of `tool_calls` a call, and each of `observation.results` the reply to the call
  its `source_call_id` names (a result naming no call is the harness's, hidden); `metrics` the response's tokens
  (`prompt_tokens` counts the cached ones) and `cost_usd`.
- `is_copied_context` steps repeat an earlier trajectory's history: context.
A result's `subagent_trajectory_ref` names the sub-agent that call started: its trajectory, embedded in
`subagent_trajectories` (v1.7) or given beside this one (a JSON array of trajectories, the main one first), is
read as that call's thread; a trajectory only named (`trajectory_path` of a file not given) is W-SESSION-THREAD.

Nothing is lost (docs/architecture.md, "Nothing lost"): what a step says beside what is read (its reasoning
effort, its count of model calls, the rest of its metrics, of its calls and of its results) is its first message's
details; what a trajectory says of its agent and its totals beside what is read (the tools it declared, its
steps' count, its extra) is the header's `trajectory`, a sub-agent's under `thread_headers`. A member no table
here names is kept in the header's `unread`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Thread, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.documents import broken_off, line_of, located, read_document, read_located
from viewer.parse.agents.lines import Line, claims, unclaimed
from viewer.parse.agents.meta import NOTHING
from viewer.parse.agents.pieces import call, context, cost_of, count, failed, reasoning, reply, said
from viewer.parse.agents.session import Session
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.fields import object_in
from viewer.parse.json.positions import JsonError, Node, read_value, skip_blank
from viewer.parse.json.source import Draft, JsonObject
from viewer.parse.options import ParseOptions

STEP_DEPTH = 5
"""A step's members, its calls and results, and theirs keep spans when it gives several messages."""
SOURCES = ("system", "user", "agent")
TRAJECTORY_READ = ("schema_version", "session_id", "trajectory_id", "notes", "continued_trajectory_ref", "steps",
                   "subagent_trajectories", "agent.name", "agent.version", "agent.model_name", "agent.extra.cwd",
                   *(f"final_metrics.total_{key}" for key in ("prompt_tokens", "cached_tokens", "completion_tokens",
                                                              "cost_usd")))
TRAJECTORY_KEPT = ("agent", "final_metrics", "extra")
"""What a trajectory says beside what is read: the header's `trajectory`, less what is read."""
STEP_READ = ("step_id", "timestamp", "source", "message", "model_name", "reasoning_content", "is_copied_context",
             "tool_calls[].tool_call_id", "tool_calls[].function_name", "tool_calls[].arguments",
             "observation.results[].source_call_id", "observation.results[].content",
             "observation.results[].subagent_trajectory_ref", "observation.results[].extra.is_error",
             *(f"metrics.{key}" for key in ("prompt_tokens", "completion_tokens", "cached_tokens", "cost_usd",
                                            "extra.cache_creation_input_tokens")))
STEP_KEPT = ("reasoning_effort", "llm_call_count", "metrics", "tool_calls", "observation", "extra")
"""What a step says beside what is read: its first message's details, less what is read (a user's `extra` is
read as context)."""


@dataclass(slots=True)
class _Trajectory:
    """One trajectory of the text: its members (read with spans) and steps."""

    node: Node
    members: dict[str, Any] = field(default_factory=dict)
    steps: list[Node] = field(default_factory=list)

    def get(self, key: str) -> Any:
        member = self.members.get(key)
        return member.node.value if member is not None else None

    @property
    def ids(self) -> set[str]:
        return {value for value in (self.get("trajectory_id"), self.get("session_id")) if isinstance(value, str)}


def parse_atif(text: str, options: ParseOptions) -> Transcript:
    """Read an ATIF trajectory (or an array of them, the main one first). Never raises on user input."""
    with collector_paused:  # see viewer/model/collector.py
        main, others, problems = _trajectories(text)
        reader = _Reader(Session(text), others)
        if main is not None:
            reader.trajectory(main, None)
            reader.unreferenced()
        messages = tuple(reader.finished())
        diagnostics = [*problems, *reader.session.diagnostics]
        return Transcript(dialect="atif", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=reader.session.with_unread(reader.header(main)), threads=tuple(reader.threads),
                          frame=reader.session.frame([], diagnostics))


def _trajectories(text: str) -> tuple[_Trajectory | None, list[_Trajectory], list]:
    """The main trajectory, the others the text holds (embedded, or after it in an array), the problems."""
    start = skip_blank(text, 0)
    if text.startswith("[", start):
        try:
            top = read_value(text, start, 1)
        except JsonError as error:
            return None, [], [broken_off(text, start, error)]
        found = [_trajectory(text, item) for item in top.items if isinstance(item.value, dict)]
        if not found:
            return None, [], [make_diagnostic("W-JSON-SHAPE", top.span, "The array holds no trajectory.")]
        main, others = found[0], found[1:]
    else:
        document = read_document(text, 2, ("steps",))
        main = _Trajectory(Node({}, document.span), document.members, document.listed("steps"))
        others = []
        if document.diagnostics:
            return main, [], document.diagnostics
    embedded = main.members.get("subagent_trajectories")
    if embedded is not None and isinstance(embedded.node.value, list):
        others = [_trajectory(text, item) for item in embedded.node.items if isinstance(item.value, dict)] + others
    return main, others, []


def _trajectory(text: str, node: Node) -> _Trajectory:
    located_node = read_value(text, node.span[0], 2)
    steps = located_node.members.get("steps")
    listed = list(steps.node.items) if steps is not None and isinstance(steps.node.value, list) else []
    return _Trajectory(located_node, dict(located_node.members), listed)


class _Reader:
    def __init__(self, session: Session, others: list[_Trajectory]) -> None:
        self.session = session
        self.text = session.text
        self.others = others
        self.threads: list[Thread] = []
        self.thread_of: dict[int, str] = {}
        self.model_of: dict[int, str] = {}
        self.usage_of: dict[int, Usage] = {}
        self._read: set[int] = set()
        """The trajectories (by their place in `others`) read as threads."""
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its step says beside what is read."""
        self.kept: dict[str | None, dict[str, Any]] = {}
        """What each trajectory (None: the main one; else by its thread) says beside what is read."""

    def trajectory(self, trajectory: _Trajectory, thread: str | None) -> None:
        value = {key: member.node.value for key, member in trajectory.members.items()}
        self.session.account(Line(1, trajectory.node.span, value, self.text),
                             claims(*TRAJECTORY_READ, *TRAJECTORY_KEPT), "trajectory")
        rest = unclaimed({key: value[key] for key in TRAJECTORY_KEPT if key in value}, claims(*TRAJECTORY_READ))
        if rest:
            self.kept[thread] = rest
        agent = trajectory.get("agent")
        model = agent.get("model_name") if isinstance(agent, dict) else None
        for number, step in enumerate(trajectory.steps):
            if isinstance(step.value, dict):
                self._step(Line(number + 1, step.span, step.value, self.text), thread,
                           model if isinstance(model, str) else None)
            else:
                self.session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", step.span,
                                                                "This step is not an object; it was skipped."))

    def _step(self, line: Line, thread: str | None, model: str | None) -> None:
        value = line.value
        kind = value.get("source")
        self.session.account(line, claims(*STEP_READ, *STEP_KEPT), "step")
        first = len(self.session.messages)
        self._step_messages(line, thread, model)
        read = claims(*STEP_READ, *(("extra",) if kind == "user" else ()))
        said = unclaimed({key: value[key] for key in STEP_KEPT if key in value}, read)
        if said and len(self.session.messages) > first and kind in SOURCES:
            self.details[first] = said

    def _step_messages(self, line: Line, thread: str | None, model: str | None) -> None:
        value = line.value
        kind = value.get("source")
        copied = value.get("is_copied_context") is True
        first = len(self.session.messages)
        if kind not in SOURCES:
            self.session.shown_whole(line)
            self._add(line, JsonObject(value, line.span), [drafts.unclassified(
                "unknown", kind, value, line.span, "W-JSON-UNKNOWN-ITEM", f"A step whose source is {kind!r}")])
        else:
            if _has_results(value):  # its results are read apart: its own messages span their own members
                node = read_value(self.text, line.span[0], STEP_DEPTH)
                source = JsonObject(node.value, node.span, dict(node.members))
                found = _said(source, kind)
                own = line_of(line, found)
            else:
                source, found = read_located(self.text, line, lambda source: _said(source, kind), STEP_DEPTH)
                own = line
            if copied:
                for piece in found:
                    piece.fields["intent"] = "context"
            if kind == "system" and _has_results(value) and "compact" in flat_text(value.get("message")).lower():
                source.problem("W-SESSION-COMPACTED", "The agent compacted its context here: the model saw the "
                                                      "summary below instead of the steps before it.")
            self._add(own, source, found)
            said_last = len(self.session.messages) - 1
            if kind == "agent" and len(self.session.messages) > first:
                step_model = value.get("model_name") if isinstance(value.get("model_name"), str) else model
                for index in range(first, len(self.session.messages)):
                    if step_model:
                        self.model_of[index] = step_model
                usage = _usage(value.get("metrics"))
                if usage is not None:
                    self.usage_of[said_last] = usage
            self._results(line, kind, copied, thread)
        for index in range(first, len(self.session.messages)):
            if thread is not None:
                self.thread_of.setdefault(index, thread)

    def _results(self, line: Line, kind: str, copied: bool, thread: str | None) -> None:
        observation = line.value.get("observation")
        results = observation.get("results") if isinstance(observation, dict) else None
        if not isinstance(results, list) or not results:
            return
        node = read_value(self.text, line.span[0], STEP_DEPTH)
        step = JsonObject(node.value, node.span, dict(node.members))
        for at, result in enumerate(results):
            span = located(step, "observation", "results", at)
            piece = self._result(result, span, kind)
            if copied:
                piece.fields["intent"] = "context"
            self._add(Line(line.number, span, result if isinstance(result, dict) else {}, self.text),
                      JsonObject({}, span), [piece])
            refs = result.get("subagent_trajectory_ref") if isinstance(result, dict) else None
            for ref in refs if isinstance(refs, list) else ():
                self._sub_agent(ref, result.get("source_call_id"), span)

    def _result(self, result: Any, span, kind: str) -> Draft:
        if not isinstance(result, dict):
            return drafts.unclassified("unknown", None, result, span, "W-JSON-UNKNOWN-ITEM", "A result that is not "
                                                                                         "an object")
        content = flat_text(result.get("content"))
        call_id = result.get("source_call_id") if isinstance(result.get("source_call_id"), str) else None
        if call_id is None or kind != "agent":  # the harness's own operation, not a tool's reply
            return said("system", content, None, name="observation")
        name = self.session.tool_named(call_id)
        piece = reply(name, content, None, call_id)
        extra = object_in(result, "extra")
        if extra.get("is_error") is True:
            failed(piece, f"The tool {name or ''} reported a failure (is_error: true).".replace("  ", " "), span)
        return piece

    def _sub_agent(self, ref: Any, call_id: Any, span) -> None:
        """The sub-agent a call started: its trajectory read as the call's thread."""
        if not isinstance(ref, dict):
            return
        names = {ref[key] for key in ("trajectory_id", "session_id") if isinstance(ref.get(key), str)}
        path = ref.get("trajectory_path") if isinstance(ref.get("trajectory_path"), str) else None
        for place, other in enumerate(self.others):
            if place not in self._read and other.ids & names:
                self._read.add(place)
                thread = next(iter(sorted(other.ids & names)))
                self.threads.append(Thread(thread, self._call_index(call_id)))
                self.trajectory(other, thread)
                return
        what = f"in {path}, a file of its own that was not read with this one" if path else "not in this text"
        self.session.diagnostics.append(make_diagnostic(
            "W-SESSION-THREAD", span, f"This call started a sub-agent ({', '.join(sorted(names)) or 'unnamed'}) "
                                      f"whose trajectory is {what}."))

    def unreferenced(self) -> None:
        """Sub-agent trajectories no result names: threads without a call."""
        for place, other in enumerate(self.others):
            if place in self._read:
                continue
            self._read.add(place)
            thread = next(iter(sorted(other.ids)), f"trajectory-{place + 1}")
            self.threads.append(Thread(thread, None))
            first = len(self.session.messages)
            self.trajectory(other, thread)
            if len(self.session.messages) > first:
                self.session.diagnostics.append(make_diagnostic(
                    "W-SESSION-THREAD", self.session.messages[first].span,
                    "This sub-agent's trajectory is named by no call's result; it is kept, hidden from the default "
                    "view.", first))

    def _call_index(self, call_id: Any) -> int | None:
        for message in reversed(self.session.messages):
            if message.is_call and message.call_id == call_id:
                return message.index
        return None

    def _add(self, line: Line, source: JsonObject, found: list[Draft]) -> None:
        self.session.add_line(line, found, self.session.next_turn(), source.problems)

    def finished(self) -> list[Message]:
        done = []
        for message, line in zip(self.session.messages, self.session.lines):
            timestamp = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
            meta = Meta(timestamp=timestamp, model=self.model_of.get(message.index),
                        usage=self.usage_of.get(message.index), details=self.details.get(message.index))
            message = replace_fields(message, thread=self.thread_of.get(message.index),
                                     meta=None if meta == NOTHING else meta)
            done.append(message)
        return done

    def header(self, main: _Trajectory | None) -> dict[str, Any]:
        header: dict[str, Any] = {"producer": "atif"}
        if main is None:
            return header
        for key, name in (("schema_version", "schema_version"), ("session_id", "session_id"), ("notes", "notes"),
                          ("continued_trajectory_ref", "continued_in")):
            if isinstance(main.get(key), str) and main.get(key):
                header[name] = main.get(key)
        written = main.get("agent")  # not object_in: a trajectory is read from its node, member by member
        agent = written if isinstance(written, dict) else {}
        for key, name in (("name", "agent"), ("version", "version")):
            if isinstance(agent.get(key), str) and agent[key]:
                header[name] = agent[key]
        extra = object_in(agent, "extra")
        if isinstance(extra.get("cwd"), str):
            header["cwd"] = extra["cwd"]
        models = list(dict.fromkeys(self.model_of.values()))
        if models:
            header["models"] = models
        metrics = main.get("final_metrics")
        if isinstance(metrics, dict):
            prompt, cached = count(metrics.get("total_prompt_tokens")), count(metrics.get("total_cached_tokens"))
            header["usage"] = Usage(input=max(prompt - cached, 0), output=count(metrics.get("total_completion_tokens")),
                                    cache_read=cached, cost=cost_of(metrics.get("total_cost_usd"))).to_json()
        responses = sum(1 for index in self.usage_of if index not in self.thread_of)
        if responses:
            header["responses"] = responses
        if self.kept.get(None):
            header["trajectory"] = self.kept[None]
        threads = {thread: {"trajectory": kept} for thread, kept in self.kept.items() if thread is not None}
        if threads:
            header["thread_headers"] = threads
        return header


def _said(source: JsonObject, kind: str) -> list[Draft]:
    """A step's own messages (its results are read after): the system's, the user's, or the agent's reasoning,
    text and calls."""
    message = flat_text(source.get("message")) if source.get("message") is not None else ""
    span = located(source, "message")
    if kind == "system":
        return [said("system", message, span, name="system_prompt" if "observation" not in source.value
                     else "system_event")]
    if kind == "user":
        found = [said("user", message, span)]
        if source.get("extra"):
            found.append(context(_extra_text(source.get("extra")), located(source, "extra"), name="extra"))
        return found
    found = reasoning(source)
    if message.strip():
        found.append(said("assistant", message, span))
    calls = source.get("tool_calls")
    for at, tool_call in enumerate(calls if isinstance(calls, list) else ()):
        tool_call = tool_call if isinstance(tool_call, dict) else {}
        call_id = tool_call.get("tool_call_id") if isinstance(tool_call.get("tool_call_id"), str) else None
        found.append(call(tool_call.get("function_name"), tool_call.get("arguments"),
                          located(source, "tool_calls", at), call_id))
    if not found:
        found.append(said("assistant", message, span))
    return found


def _has_results(step: dict[str, Any]) -> bool:
    observation = step.get("observation")
    return isinstance(observation, dict) and isinstance(observation.get("results"), list) and bool(
        observation["results"])


def _extra_text(extra: Any) -> str:
    if isinstance(extra, dict) and all(isinstance(value, str) for value in extra.values()):
        return "\n\n".join(extra.values())
    return flat_text(extra) if not isinstance(extra, dict) else drafts.arguments_text(extra)


def _usage(metrics: Any) -> Usage | None:
    """A response's tokens: `prompt_tokens` counts the cached ones, which the model keeps apart."""
    if not isinstance(metrics, dict) or not isinstance(metrics.get("prompt_tokens"), int):
        return None
    cached = count(metrics.get("cached_tokens"))
    written = count(object_in(metrics, "extra").get("cache_creation_input_tokens"))
    return Usage(input=max(count(metrics["prompt_tokens"]) - cached - written, 0),
                 output=count(metrics.get("completion_tokens")), cache_read=cached, cache_write=written,
                 cost=cost_of(metrics.get("cost_usd")))

