"""mini-swe-agent trajectories (`last_mini_run.traj.json`, `<instance>/<instance>.traj.json`; dialect
`mini-swe-agent`): `{"info", "messages", "trajectory_format"}`, saved after every step.

`trajectory_format` "mini-swe-agent-1.1" (2.x): each message is the model's or the harness's, with `extra`.
- `system`: hidden. The first `user` message is the instance template: the task told apart by the template the
  run recorded (`info.config.agent.instance_template`, the text around `{{task}}`) or its tags (instance.py).
- `assistant` (LiteLLM's message): `reasoning_content` and `thinking_blocks` are analysis, `content` the plan
  before the call, `tool_calls` the calls; text-based models write the command in a fenced block
  (`extra.actions`), which is the call, the text before it the plan. `extra`: `timestamp`, `cost` and the raw
  `response` (its usage).
- `tool` messages (and, text-based, `user` messages holding a command's output: `extra.raw_output`,
  `<returncode>`) are the calls' replies; a `user` message with `extra.interrupt_type` is the harness's:
  `FormatError` (the model's answer had no command: context), the user's interruption or new task (shown, what
  they typed is in it), a declined command; a human-mode command (`extra.actions`) is what the user typed.
- `exit`: how the run ended: the submission is its answer; any other status (limits, errors) is said
  (W-SESSION-INTERRUPTED).
"mini-swe-agent-1" (1.x): plain `{role, content}`: the observations and the harness's notes are `user`
messages (told by their shape), the assistant's command is its ```` ```bash ```` block, and the submission is
the last `user` message (`info.submission`).
`info`: `model_stats` (`instance_cost`, `api_calls`), `config.model.model_name`, `mini_version`, `exit_status`.

Nothing is lost (docs/architecture.md, "Nothing lost"): what a message's `extra` records beside what is read (the
raw response's model and id, an interruption's type, a format error's model answer) is its first message's
details; what the model wrote whole, shown cut into its plan and its command, and the first user message, shown cut
into the task and its template, are kept as written there too (as text: the message's source panel shows only its
piece, records.shown_by_reference); `info`'s other members (the run's configuration: its templates, its classes,
its environment) are the header's `info`. A member no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.documents import Document, located, node_at, read_document, read_located
from viewer.parse.agents.instance import task_pieces
from viewer.parse.agents.lines import Line, claims, unclaimed
from viewer.parse.agents.meta import NOTHING, between, usage_totals
from viewer.parse.agents.pieces import (
    call, context, cost_of, epoch_time, failed, litellm_usage, reasoning, reply, said, shown)
from viewer.parse.agents.pieces import submission as answer
from viewer.parse.agents.records import by_reference, shown_by_reference, text_of
from viewer.parse.agents.session import Session
from viewer.parse.agents.strings import StringOffsets
from viewer.parse.common import Pending
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft, JsonObject
from viewer.parse.options import ParseOptions

SHELL = "bash"
COMMAND_FENCES = ("```bash", "```sh", "```mswea_bash_command")
"""How the fenced block a text-based model writes its command in opens."""
OBSERVATION = re.compile(r'\A\s*(?:<returncode>|\{\s*"returncode"\s*:)')
"""How the harness's observation templates begin (1.x's `<returncode>`, 2.x's JSON)."""
SHOWN_INTERRUPTIONS = {"UserInterruption": "The user interrupted the agent here.",
                       "UserNewTask": None}
"""Harness messages that carry what the user typed (and whether they interrupted the agent to type it)."""
SUBMITTED = "Submitted"
ITEM_DEPTH = 3
DOCUMENT = claims("info", "messages", "trajectory_format", "instance_id")
MESSAGE_READ = ("role", "content", "tool_calls", "tool_call_id", "reasoning_content", "reasoning", "thinking_blocks",
                "extra.timestamp", "extra.cost", "extra.response.usage")
"""What the reader reads of a message; the rest of its `extra` is its details (of an assistant's, less the raw
response's choices, which are the message again: a format error's keep the answer the harness refused)."""
MESSAGE_KEPT = ("extra", "provider_specific_fields", "function_call", "annotations")
"""A message's members kept in its details, less what is read: the harness's `extra`, and what LiteLLM's message
holds beside the OpenAI fields."""
INFO_READ = claims("mini_version", "exit_status", "submission", "model_stats.instance_cost", "model_stats.api_calls",
                   "config.model.model_name")


def parse_mini_swe_agent(text: str, options: ParseOptions) -> Transcript:
    """Read a mini-swe-agent trajectory. Never raises on user input."""
    with collector_paused:  # see viewer/model/collector.py
        document = read_document(text, 2, ("messages",))
        reader = _Reader(Session(text), document)
        if document.members:
            reader.session.account(Line(1, document.span, {key: member.node.value for key, member in
                                                          document.members.items()}, text), DOCUMENT, "document")
        for number, item in enumerate(document.listed("messages")):
            reader.message(Line(number + 1, item.span, item.value, text))
        messages = tuple(shown_by_reference(reader.finished(), text))
        diagnostics = [*document.diagnostics, *reader.session.diagnostics]
        return Transcript(dialect="mini-swe-agent", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=reader.session.with_unread(reader.header(messages)),
                          frame=reader.session.frame([], diagnostics))


class _Reader:
    def __init__(self, session: Session, document: Document) -> None:
        self.session = session
        self.text = session.text
        self.document = document
        info = document.value("info")
        self.info = info if isinstance(info, dict) else {}
        self.items = document.listed("messages")
        self._task_read = False
        self._waiting: list[tuple[str, str | None]] = []
        """Calls of a text-based model waiting for their output: (call id, tool)."""
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what its message records beside what is read."""

    def message(self, line: Line) -> None:
        value = line.value
        if not isinstance(value, dict):
            self.session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", line.span, "This message is not an "
                                                                                      "object; it was skipped."))
            return
        self.session.account(line, claims(*MESSAGE_READ, *MESSAGE_KEPT), "message")
        first = len(self.session.messages)
        was_read = self._task_read
        self._message(line, value)
        read = claims(*MESSAGE_READ, *(("extra.response.choices",) if value.get("role") == "assistant" else ()))
        said = by_reference(line, unclaimed({key: value.get(key) for key in MESSAGE_KEPT}, read))
        cut = value.get("role") == "assistant" and not value.get("tool_calls") and bool(
            command_blocks(flat_text(value.get("content")))) or (not was_read and self._task_read)
        member = line.member("content") if cut and value.get("content") else None
        if member is not None:
            said = {"content": {"$source": list(member.node.span)}, **said}
        if said and len(self.session.messages) > first:
            self.details[first] = said

    def _message(self, line: Line, value: dict[str, Any]) -> None:
        role = value.get("role")
        extra = object_in(value, "extra")
        if role == "system":
            self._add(line, *self._read(line, lambda source: [context(
                flat_text(source.get("content")), located(source, "content"), name="system_prompt", role="system")]))
        elif role == "user" and not self._task_read:
            self._task_read = True
            self._add(line, *self._read(line, self._task))
        elif role == "assistant":
            found = self._read(line, lambda source: _assistant(source, self.text, f"action-{line.number}"))
            self._add(line, *found)
            self._waiting.extend((piece.fields["call_id"], piece.fields["recipient"]) for piece in found[1]
                                 if piece.fields.get("end") == "call"
                                 and piece.fields.get("call_id", "").startswith(f"action-{line.number}"))
        elif role == "tool":
            self._add(line, *self._read(line, lambda source: [self._reply(source, source.get("tool_call_id"))]))
        elif role == "user":
            self._user(line, extra)
        elif role == "exit":
            self._add(line, *self._read(line, _exit))
        else:
            self.session.shown_whole(line)
            self._add(line, JsonObject(value, line.span), [drafts.unclassified(
                "unknown", role, value, line.span, "W-JSON-UNKNOWN-ITEM", f"A message whose role is {role!r}")])

    def _task(self, source: JsonObject) -> list[Draft]:
        config = self.info.get("config")
        agent = config.get("agent") if isinstance(config, dict) else None
        template = agent.get("instance_template") if isinstance(agent, dict) else None
        return task_pieces(self.text, flat_text(source.get("content")), node_at(source, "content"),
                           located(source, "content"), template=template if isinstance(template, str) else None)

    def _user(self, line: Line, extra: dict[str, Any]) -> None:
        """A `user` message after the task: the harness's (an observation, a format error, a note), or what the
        user typed when they interrupted the agent or drove it by hand."""
        value = line.value
        interruption = extra.get("interrupt_type")
        content = flat_text(value.get("content"))
        if interruption in SHOWN_INTERRUPTIONS or content.startswith(("Interrupted by user:",
                                                                       "The user added a new task:")):
            interrupted = "The user interrupted the agent here."  # by a type the harness shows, or by its words
            note = SHOWN_INTERRUPTIONS.get(interruption, interrupted) if isinstance(interruption, str) else interrupted
            problems = [Pending("W-SESSION-INTERRUPTED", note, line.span)] if note else []
            self._add(line, JsonObject(value, line.span), [said("user", content, None)], problems)
        elif isinstance(interruption, str):
            problems = []
            if interruption == "UserRejection":
                problems.append(Pending("W-SESSION-INTERRUPTED", "The user declined the agent's commands here.",
                                        line.span))
            self._add(line, JsonObject(value, line.span), [context(content, None, name=_snake(interruption))],
                      problems)
        elif "actions" in extra:  # human mode: the user typed the command
            self._add(line, JsonObject(value, line.span), [said("user", content, None)])
        elif self._waiting and ("raw_output" in extra or "returncode" in extra or OBSERVATION.match(content)):
            call_id, tool = self._waiting.pop(0)
            self._add(line, *self._read(line, lambda source: [self._reply(source, call_id, tool)]))
        elif self._is_submission(line, content):
            self._add(line, *self._read(line, lambda source: [answer(content, located(source, "content"))]))
        else:  # 1.x's notes to the model: format errors, timeouts, limits
            self._add(line, JsonObject(value, line.span), [context(content, None, name="harness")])

    def _is_submission(self, line: Line, content: str) -> bool:
        """1.x ends a submitted run with a `user` message holding the submission."""
        submission = self.info.get("submission")
        return (line.number == len(self.items) and isinstance(submission, str) and bool(submission.strip())
                and content.strip() == submission.strip())

    def _reply(self, source: JsonObject, call_id: Any, tool: str | None = None) -> Draft:
        call_id = call_id if isinstance(call_id, str) else None
        piece = reply(tool or self.session.tool_named(call_id), source.get("content"), None, call_id)
        extra = source.get("extra") if isinstance(source.get("extra"), dict) else {}
        if extra.get("exception_info"):
            failed(piece, f"The command failed to run: {shown(extra['exception_info'])[:200]}", source.span)
        return piece

    def _read(self, line: Line, reader) -> tuple[JsonObject, list[Draft]]:
        return read_located(self.text, line, reader, ITEM_DEPTH)

    def _add(self, line: Line, source: JsonObject, found: list[Draft], problems=()) -> None:
        self.session.add_line(line, found, self.session.next_turn(), [*source.problems, *problems])

    # ---- metadata -------------------------------------------------------------------------------------------

    def finished(self) -> list[Message]:
        """Each message's time, an answer's model and usage (its cost as the run priced it), a reply's
        duration."""
        model = self._model()
        last_of_line: dict[int, int] = {}
        for message, line in zip(self.session.messages, self.session.lines):
            last_of_line[id(line)] = message.index
        called: dict[str, str] = {}
        done = []
        for message, line in zip(self.session.messages, self.session.lines):
            extra = object_in(line.value, "extra")
            timestamp = epoch_time(extra.get("timestamp"))
            if message.is_call and message.call_id and timestamp:
                called.setdefault(message.call_id, timestamp)
            usage = None
            if last_of_line[id(line)] == message.index and ("cost" in extra or "response" in extra):
                response = object_in(extra, "response")
                usage = litellm_usage(response.get("usage"), cost=cost_of(extra.get("cost")))
                if usage is None and cost_of(extra.get("cost")) is not None:
                    usage = Usage(cost=cost_of(extra.get("cost")))
            said_model = model if message.role == "assistant" and line.value.get("role") == "assistant" else None
            duration = between(called.get(message.call_id or ""), timestamp) if message.is_reply else None
            meta = Meta(timestamp=timestamp, model=said_model, usage=usage, duration_ms=duration,
                        details=self.details.get(message.index))
            done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
        return done

    def _model(self) -> str | None:
        config = self.info.get("config")
        model = config.get("model") if isinstance(config, dict) else None
        name = model.get("model_name") if isinstance(model, dict) else None
        return name if isinstance(name, str) and name else None

    def header(self, messages: tuple[Message, ...]) -> dict[str, Any]:
        header: dict[str, Any] = {"producer": "mini-swe-agent"}
        for key, name in (("mini_version", "version"), ("exit_status", "exit_status")):
            if isinstance(self.info.get(key), str) and self.info[key]:
                header[name] = self.info[key]
        instance = self.document.value("instance_id")
        if isinstance(instance, str) and instance:
            header["title"] = instance
        format_ = self.document.value("trajectory_format")
        if isinstance(format_, str):
            header["trajectory_format"] = format_
        rest = unclaimed(self.info, INFO_READ)
        if rest:
            header["info"] = rest
        usages = [message.meta.usage for message in messages if message.meta and message.meta.usage]
        model = self._model()
        totals = usage_totals(usages, [model] if model else [])
        stats = object_in(self.info, "model_stats")
        cost = cost_of(stats.get("instance_cost"))
        if cost is not None:
            totals.setdefault("usage", Usage().to_json())
            totals["usage"]["cost"] = cost
        if isinstance(stats.get("api_calls"), int) and stats["api_calls"] > 0:
            totals["responses"] = stats["api_calls"]
        if model and "models" not in totals:
            totals["models"] = [model]
        return header | totals


def _assistant(source: JsonObject, text: str, action_id: str) -> list[Draft]:
    """Reasoning, the plan, and the calls: `tool_calls`, else the command of a text-based model (its fenced
    block, named `action_id`)."""
    found = reasoning(source)
    content = source.get("content")
    content_text = flat_text(content)
    tool_calls = source.get("tool_calls")
    if isinstance(tool_calls, list) and tool_calls:
        if content_text.strip():
            found.append(said("assistant", content_text, located(source, "content")))
        for at, tool_call in enumerate(tool_calls):
            tool_call = tool_call if isinstance(tool_call, dict) else {}
            function = object_in(tool_call, "function")
            call_id = tool_call.get("id") if isinstance(tool_call.get("id"), str) else None
            found.append(call(function.get("name"), function.get("arguments"), located(source, "tool_calls", at),
                              call_id))
        return found
    blocks = command_blocks(content_text)
    if not blocks:
        found.append(said("assistant", content_text, located(source, "content")))
        return found
    literal = node_at(source, "content")
    offsets = StringOffsets(text, literal.span) if literal is not None and isinstance(literal.value, str) else None

    def where(start: int, end: int):
        return offsets.span(start, end) if offsets is not None else located(source, "content")

    plan = content_text[:blocks[0].start]
    if plan.strip():
        found.append(said("assistant", plan, where(0, blocks[0].start)))
    for at, block in enumerate(blocks):
        found.append(call(SHELL, content_text[block.command_start:block.command_end], where(block.start, block.end),
                          f"{action_id}.{at}", json_arguments=False))
    after = content_text[blocks[-1].end:]
    if after.strip():
        found.append(said("assistant", after, where(blocks[-1].end, len(content_text))))
    return found


class Block(NamedTuple):
    start: int
    end: int
    command_start: int
    command_end: int


def command_blocks(text: str) -> list[Block]:
    """The fenced command blocks of a text-based model's answer, read a line at a time: a fence that opens a
    command block, the lines of the command, the fence that closes it (an unclosed block is no command)."""
    found: list[Block] = []
    opened: int | None = None
    command = 0
    position = 0
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end == -1 else end
        line = text[position:end].strip()
        if opened is None and line in COMMAND_FENCES:
            opened, command = position, min(end + 1, len(text))
        elif opened is not None and line == "```":
            found.append(Block(opened, end, command, max(position - 1, command)))
            opened = None
        position = end + 1
    return found


def _exit(source: JsonObject) -> list[Draft]:
    """How the run ended: a submission is its answer; any other end is said, hidden."""
    extra = object_in(source.value, "extra")
    status = extra.get("exit_status") if isinstance(extra.get("exit_status"), str) else None
    content = flat_text(source.get("content"))
    submission = text_of(extra.get("submission")) or ""
    if status == SUBMITTED and (submission or content).strip():
        return [answer(content or submission, located(source, "content"))]
    piece = said("system", content, None, name="exit")
    piece.problems.append(Pending("W-SESSION-INTERRUPTED", f"The run ended with exit status {status or 'unknown'!r}"
                                                           f"{': ' + content[:200] if content and content != status else ''}.",
                                  source.span))
    return [piece]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
