"""SWE-agent trajectories (`<run>/<instance>/<instance>.traj`, dialect `swe-agent`): one JSON document per run.

`history` is the conversation the model saw, in order, and is what is read; `trajectory` repeats it step by step
(`thought`, `action`, `observation`, `response`, `execution_time`, `state`, the whole `query`), so it is frame,
except for each step's execution time (its reply's duration) and when a file has no history (then its steps are
read).
- `system` (`message_type: system_prompt`): hidden; demonstrations (`is_demo`, `message_type: demonstration`):
  injected context.
- The first `user` message is the instance template: the task (the issue's text) wrapped in boilerplate, told
  apart by the task's text the run recorded (`replay_config.problem_statement.text`) or by the template's tags
  (instance.py); the boilerplate is context.
- `assistant`: `thinking_blocks` are analysis; its text (`content`, or 0.x's `thought`) the plan before the call;
  the call is each of `tool_calls` (function calling) or the `action` text (text-based configurations, to `bash`).
- Replies: `tool` messages by `tool_call_ids`; in text-based runs the `user` observation that follows a call.
- `info`: `submission` (the patch) is the run's answer; an `exit_status` other than `submitted` is said
  (W-SESSION-INTERRUPTED); `model_stats` (tokens sent and received, `instance_cost`, `api_calls`) and the versions
  go in the header.
A retrying agent writes `{"attempts": [{trajectory, history, info}, …], "info"}`: each attempt is read in turn,
the one whose submission the run kept is followed and the others are aside (W-SESSION-FORK where each starts).

Nothing is lost (docs/architecture.md, "Nothing lost"): a history item's members are accounted for by its role;
what the model wrote whole, which the reader shows cut into its reasoning and its call, and the first user message,
shown cut into the task and its template, are kept as written in their first message's details (as text: the
message's source panel shows only its piece, records.shown_by_reference); an item's other members (a call's
rendered command line) are its details too, the agents' names the header's; a step of `trajectory` keeps what the
history does not hold (its raw observation, its response, the state) in its call's reply's details; `info`'s other
members (the edited files' excerpts, versions), the run's configuration (`replay_config`) and `environment` are the
header's. A member no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

import json
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.documents import Document, line_of, located, node_at, read_document, read_located
from viewer.parse.agents.instance import task_pieces
from viewer.parse.agents.lines import Line, claims, unclaimed
from viewer.parse.agents.pieces import call, context, cost_of, count, reasoning, reply, said, shown
from viewer.parse.agents.pieces import submission as answer
from viewer.parse.agents.records import by_reference, shown_by_reference
from viewer.parse.agents.session import Session
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.positions import read_value
from viewer.parse.json.source import Draft, JsonObject
from viewer.parse.options import ParseOptions

TEXT_TOOL = "bash"
"""A text-based configuration's action is a shell command line (SWE-agent's tools are shell functions)."""
SUBMITTED = "submitted"
ITEM_DEPTH = 4
"""A history item's members, its content parts and their members keep spans when it gives several messages."""
DOCUMENT = claims("trajectory", "history", "info", "replay_config", "environment", "attempts")
ITEM_READ = ("role", "content", "message_type", "is_demo", "agent", "tool_calls", "tool_call_ids", "thought",
             "action", "thinking_blocks", "reasoning_content", "reasoning")
"""What the reader reads of a history item (whose agent the header names), or keeps in its details (a call's
rendered command line beside its tool calls)."""
STEP_READ = claims("execution_time", "query", "messages")
"""What a step of `trajectory` holds that the reader reads (its time) or that is the history again (the whole
conversation the model was sent at that step)."""
INFO_READ = ("submission", "exit_status", "swe_agent_version", "model_stats.tokens_sent",
             "model_stats.tokens_received", "model_stats.instance_cost", "model_stats.api_calls")


def parse_swe_agent(text: str, options: ParseOptions) -> Transcript:
    """Read a SWE-agent trajectory. Never raises on user input."""
    with collector_paused:  # see viewer/model/collector.py
        document = read_document(text, 2, ("history",))
        if document.diagnostics and not document.items and document.partial is None:
            document = read_document(text, 2, ("trajectory",))
        reader = _Reader(Session(text), document)
        if document.members:
            reader.session.account(Line(1, document.span, {key: member.node.value for key, member in
                                                          document.members.items()}, text), DOCUMENT, "document")
        attempts = _attempts(text, document)
        if attempts:
            reader.attempts(attempts)
        else:
            reader.read()
        messages = tuple(shown_by_reference(reader.finished(), text))
        diagnostics = [*document.diagnostics, *reader.session.diagnostics]
        return Transcript(dialect="swe-agent", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=reader.session.with_unread(reader.header()),
                          frame=reader.session.frame([], diagnostics))


class _Reader:
    def __init__(self, session: Session, document: Document) -> None:
        self.session = session
        self.text = session.text
        self.document = document
        """The trajectory being read (the file's, or one attempt of a retrying agent's)."""
        self.top = document
        self.config = _replay_config(document.value("replay_config"))
        self._seconds: dict[str, Any] = {}
        """Each call's execution time, as its step recorded it (by call id)."""
        self._waiting: list[tuple[str, str | None]] = []
        """The calls of a text-based run waiting for their observation: (call id, tool)."""
        self._task_read = False
        self.aside: set[int] = set()
        """The messages of attempts the run did not keep (a retrying agent's others)."""
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its history item or step records beside it."""
        self.agents: list[str] = []
        """The agents the history's items name (SWE-agent's `primary`, `main`, a sub-routine's)."""

    def attempts(self, attempts: list[Document]) -> None:
        """A retrying agent's attempts, one after another: the one whose submission the run kept is followed,
        the others are aside, each said where it starts (W-SESSION-FORK)."""
        info = self.document.value("info")
        kept = info.get("submission") if isinstance(info, dict) else None
        chosen = max((at for at, attempt in enumerate(attempts) if isinstance(attempt.value("info"), dict)
                      and attempt.value("info").get("submission") == kept), default=len(attempts) - 1)
        for at, attempt in enumerate(attempts):
            first = len(self.session.messages)
            self.document, self._task_read, self._waiting = attempt, False, []
            self.read()
            if at != chosen and len(self.session.messages) > first:
                self.aside.update(range(first, len(self.session.messages)))
                self.session.diagnostics.append(make_diagnostic(
                    "W-SESSION-FORK", self.session.messages[first].span,
                    f"Attempt {at + 1} of {len(attempts)}: the run tried again, and kept attempt {chosen + 1}; this "
                    "one is kept, hidden from the default view.", first))

    def read(self) -> None:
        first = len(self.session.messages)
        self._conversation()
        listed = self.document.listed("trajectory")
        steps = [step.value.get("execution_time") if isinstance(step.value, dict) else None for step in listed]
        calls = [message for message in self.session.messages[first:] if message.is_call and message.call_id]
        self._seconds.update({message.call_id: seconds for message, seconds in zip(calls, steps) if message.call_id})
        for message, step in zip(calls, listed):
            self._step_kept(message, step)

    def _step_kept(self, called: Message, step) -> None:
        """What a step holds that its call's history item does not (its raw observation, its response, the
        state): kept in its call's reply's details (the call's when it has none)."""
        if not isinstance(step.value, dict):
            return
        item = self.session.lines[called.index].value
        rest = unclaimed(step.value, STEP_READ)
        for key, same in (("thought", "thought"), ("action", "action"), ("response", "content")):
            if isinstance(item, dict) and key in rest and _same(rest[key], item.get(same)):
                del rest[key]
        replies = [message.index for message in self.session.messages if message.is_reply
                   and message.call_id == called.call_id]
        observed = rest.get("observation")
        if replies and isinstance(observed, str) and observed.strip() in self.session.messages[replies[0]].content:
            del rest["observation"]  # the reply shows it (after the harness's `OBSERVATION:`)
        if not rest:
            return
        at = replies[0] if replies else called.index
        kept = by_reference(Line(0, step.span, step.value, self.text), rest, 1)
        self.details[at] = {**self.details.get(at, {}), "step": kept}

    def _conversation(self) -> None:
        """The trajectory's history (or its steps, where the history is missing or breaks off), then its end."""
        history = self.document.listed("history")
        for number, item in enumerate(history):
            self._history_item(Line(number + 1, item.span, item.value, self.text))
        # Without history, or with a history that broke off, the steps the history does not reach are read.
        actions = sum(1 for item in history if isinstance(item.value, dict) and item.value.get("role") == "assistant")
        if not history or self.document.partial == "history":
            for number, step in enumerate(self.document.listed("trajectory")[actions:], start=actions):
                self._step(Line(number + 1, step.span, step.value, self.text))
        self._info()

    # ---- history ----------------------------------------------------------------------------------------------

    def _history_item(self, line: Line) -> None:
        value = line.value
        if not isinstance(value, dict):
            self.session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", line.span, "This history item is not "
                                                                                      "an object; it was skipped."))
            return
        self.session.account(line, claims(*ITEM_READ), "history item")
        if isinstance(value.get("agent"), str) and value["agent"] not in self.agents:
            self.agents.append(value["agent"])
        first = len(self.session.messages)
        was_read = self._task_read
        self._history_message(line, value)
        said = self._item_kept(line, value, first_user=not was_read and self._task_read)
        if said and len(self.session.messages) > first:
            self.details[first] = {**self.details.get(first, {}), **said}

    def _item_kept(self, line: Line, value: dict[str, Any], first_user: bool) -> dict[str, Any]:
        """What a history item holds beside what its messages show: what the model wrote whole, when the reader
        shows it cut (text-based reasoning and action; the task out of its template), by its span (read back as
        written when the reader is done, records.shown_by_reference); a call's
        rendered command line beside its tool calls."""
        said: dict[str, Any] = {}
        text_call = value.get("role") == "assistant" and not value.get("tool_calls") and isinstance(
            value.get("action"), str) and value["action"].strip()
        if (text_call or first_user) and value.get("content"):
            member = line.member("content")
            if member is not None:
                said["content"] = {"$source": list(member.node.span)}
        if value.get("role") == "assistant" and value.get("tool_calls") and isinstance(value.get("action"), str):
            said["action"] = value["action"]
        thought = value.get("thought")
        if isinstance(thought, str) and thought.strip() and not text_call and not _same(thought, value.get("content")):
            said["thought"] = thought
        return said

    def _history_message(self, line: Line, value: dict[str, Any]) -> None:
        role = value.get("role")
        demo = value.get("is_demo") is True or value.get("message_type") == "demonstration"
        if demo or role == "system":
            name = "demonstration" if demo else value.get("message_type") or "system_prompt"
            source, found = self._read(line, lambda source: [
                context(flat_text(source.get("content")), located(source, "content"), name=name,
                        role="system" if role == "system" else "user")])
            self._add(line, found, source.problems)
        elif role == "assistant":
            source, found = self._read(line, lambda source: self._assistant(source, f"action-{line.number}"))
            self._add(line, found, source.problems)
            self._waiting.extend((piece.fields["call_id"], piece.fields["recipient"]) for piece in found
                                 if piece.fields.get("call_id") == f"action-{line.number}")
        elif role == "tool":
            source, found = self._read(line, self._tool_reply)
            self._add(line, found, source.problems)
        elif role == "user" and not self._task_read:
            self._task_read = True
            source, found = self._read(line, self._task)
            self._add(line, found, source.problems)
        elif role == "user" and self._waiting:
            call_id, tool = self._waiting.pop(0)
            source, found = self._read(line, lambda source: [reply(tool, source.get("content"), None, call_id)])
            self._add(line, found, source.problems)
        elif role == "user":
            source, found = self._read(line, lambda source: [said("user", flat_text(source.get("content")), None)])
            self._add(line, found, source.problems)
        else:
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", role, value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 f"A history item whose role is {role!r}")])

    def _task(self, source: JsonObject) -> list[Draft]:
        content = source.get("content")
        literal = node_at(source, "content")
        if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
            literal = node_at(source, "content", 0, "text")
        problem = self.config.get("problem_statement")
        known = problem.get("text") if isinstance(problem, dict) else None
        return task_pieces(self.text, flat_text(content), literal, located(source, "content"),
                           known if isinstance(known, str) else None)

    def _assistant(self, source: JsonObject, action_id: str) -> list[Draft]:
        """Reasoning, the text before the call, and the call (a text-based one named `action_id`, which the
        observation that follows answers)."""
        found = reasoning(source)
        tool_calls = source.get("tool_calls")
        if isinstance(tool_calls, list) and tool_calls:
            text = flat_text(source.get("content"))
            if text.strip():
                found.append(said("assistant", text, located(source, "content")))
            for at, tool_call in enumerate(tool_calls):
                function = tool_call.get("function") if isinstance(tool_call, dict) else None
                function = function if isinstance(function, dict) else {}
                call_id = tool_call.get("id") if isinstance(tool_call, dict) else None
                found.append(call(function.get("name"), function.get("arguments"), located(source, "tool_calls", at),
                                  call_id if isinstance(call_id, str) else None))
            return found
        action = source.get("action")
        thought = source.get("thought")
        if isinstance(action, str) and action.strip():
            if isinstance(thought, str) and thought.strip():
                found.append(said("assistant", thought, located(source, "thought")))
            found.append(call(TEXT_TOOL, action.strip(), located(source, "action"), action_id, json_arguments=False))
            return found
        found.append(said("assistant", flat_text(source.get("content")), located(source, "content")))
        return found

    def _tool_reply(self, source: JsonObject) -> list[Draft]:
        ids = source.get("tool_call_ids")
        call_id = ids[0] if isinstance(ids, list) and ids and isinstance(ids[0], str) else None
        return [reply(self.session.tool_named(call_id), source.get("content"), None, call_id)]

    # ---- steps (a trajectory without history) -----------------------------------------------------------------

    def _step(self, line: Line) -> None:
        """A step's thought and action (a call to the shell), then its observation, each spanning its member."""
        if not isinstance(line.value, dict):
            self.session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", line.span, "This step is not an "
                                                                                      "object; it was skipped."))
            return
        node = read_value(self.text, line.span[0], 1)
        source = JsonObject(node.value, node.span, dict(node.members))
        call_id = f"step-{line.number}"
        found = []
        thought, action = source.get("thought"), source.get("action")
        if isinstance(thought, str) and thought.strip():
            found.append(said("assistant", thought, located(source, "thought")))
        if isinstance(action, str) and action.strip():
            found.append(call(TEXT_TOOL, action.strip(), located(source, "action"), call_id, json_arguments=False))
        if found:
            self._add(line_of(line, found), found)
        if "observation" in source.value:
            answer = reply(self.session.tool_named(call_id), shown(source.get("observation") or ""),
                           located(source, "observation"), call_id)
            self._add(line_of(line, [answer]), [answer])

    # ---- info -------------------------------------------------------------------------------------------------

    def _info(self) -> None:
        info = self.document.node("info")
        if info is None or not isinstance(info.value, dict):
            return
        source = JsonObject(info.value, info.span, dict(info.members))
        submission = info.value.get("submission")
        if isinstance(submission, str) and submission.strip():
            span = located(source, "submission")
            self._add(Line(0, span, {}, self.text), [answer(submission, span)])
        status = info.value.get("exit_status")
        if isinstance(status, str) and status and status != SUBMITTED:
            self.session.diagnostics.append(make_diagnostic(
                "W-SESSION-INTERRUPTED", located(source, "exit_status"),
                f"The run ended with exit status {status!r}"
                f"{' (what it had was submitted)' if status.startswith(SUBMITTED) else ''}."))

    def _read(self, line: Line, reader) -> tuple[JsonObject, list[Draft]]:
        return read_located(self.text, line, reader, ITEM_DEPTH)

    def _add(self, line: Line, found: list[Draft], problems=()) -> None:
        self.session.add_line(line, found, self.session.next_turn(), problems)

    # ---- metadata ---------------------------------------------------------------------------------------------

    def finished(self) -> list[Message]:
        """Each reply with its step's execution time; the messages of the attempts not kept aside."""
        done = []
        for message in self.session.messages:
            seconds = self._seconds.get(message.call_id or "") if message.is_reply else None
            timed = isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds >= 0
            duration = round(seconds * 1000) if timed and seconds is not None else None
            said = self.details.get(message.index)
            if timed or said:
                message = replace_fields(message, meta=Meta(duration_ms=duration, details=said))
            if message.index in self.aside:
                message = replace_fields(message, aside=True)
            done.append(message)
        return done

    def header(self) -> dict[str, Any]:
        header: dict[str, Any] = {"producer": "swe-agent"}
        info = self.top.value("info")
        info = info if isinstance(info, dict) else {}
        for key, name in (("swe_agent_version", "version"), ("exit_status", "exit_status")):
            if isinstance(info.get(key), str) and info[key]:
                header[name] = info[key]
        problem = self.config.get("problem_statement")
        if isinstance(problem, dict) and isinstance(problem.get("id"), str):
            header["title"] = problem["id"]
        agent = self.config.get("agent")
        model = agent.get("model") if isinstance(agent, dict) else None
        if isinstance(model, dict) and isinstance(model.get("name"), str):
            header["models"] = [model["name"]]
        rest = unclaimed(info, claims(*INFO_READ))
        if rest:
            header["info"] = rest
        if self.config:
            header["replay_config"] = self.config
        environment = self.top.value("environment")
        if environment not in (None, "", {}, []):
            header["environment"] = environment
        if self.agents:
            header["agent_names"] = self.agents
        stats = info.get("model_stats")
        if isinstance(stats, dict):
            usage = Usage(input=count(stats.get("tokens_sent")), output=count(stats.get("tokens_received")),
                          cost=cost_of(stats.get("instance_cost")))
            header["usage"] = usage.to_json()
            if count(stats.get("api_calls")):
                header["responses"] = stats["api_calls"]
        return header


def _attempts(text: str, document: Document) -> list[Document]:
    """A retrying agent's attempts (`{"attempts": [{trajectory, history, info}, …], "info": …}`), each read as
    a trajectory of its own."""
    node = document.node("attempts")
    if node is None or not isinstance(node.value, list) or document.node("history") is not None:
        return []
    found = []
    for item in node.items:
        if isinstance(item.value, dict):
            located_node = read_value(text, item.span[0], 2)
            found.append(Document(text, located_node.span, dict(located_node.members)))
    return found


def _same(written: Any, shown: Any) -> bool:
    """Whether two texts of a run are one (the history trims what a step keeps as written)."""
    return isinstance(written, str) and isinstance(shown, str) and written.strip() == shown.strip()


def _replay_config(value: Any) -> dict[str, Any]:
    """The run's configuration, which SWE-agent stores as a JSON string."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return {}
    return value if isinstance(value, dict) else {}

