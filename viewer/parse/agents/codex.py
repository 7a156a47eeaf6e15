"""Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), dialect `codex`; `codex exec --json`
streams are read by codex_exec.py.

Each line is `{"timestamp", "type", "payload"}` (codex-rs/protocol's RolloutLine and RolloutItem):
- `session_meta` (`id`, `cwd`, `originator`, `cli_version`, `instructions` or `base_instructions`, `git`,
  `source`, `model_provider` …): the session's facts go in the header; its instructions are a system message.
- `response_item`: a Responses API item (`message`, `reasoning` with `summary` and `encrypted_content`,
  `function_call` / `function_call_output`, `custom_tool_call` such as `apply_patch`, `local_shell_call`,
  `web_search_call` …), read by the JSON package's Responses reader. The items the model wrote between two
  inputs (a user message, a tool's output) are one response, one turn; an assistant's `commentary` phase, or its
  text before a call in the same response, is a preamble. User or developer messages that Codex writes for the
  model (`<user_instructions>`, `<environment_context>`, AGENTS.md, permission notes) are injected context.
- `event_msg`: the UI's events, which repeat the items (`user_message`, `agent_message`): frame, so each thing
  is shown once. `agent_reasoning` (a reasoning summary) and `agent_reasoning_raw_content` repeat the text of the
  reasoning item that follows them, when it carries its text (then they are frame); a reasoning item whose
  `summary` is empty (Codex 0.5x writes the summary only as these events) leaves their text to them, shown as
  reasoning (hidden by default) before the item. `token_count` gives the last response's usage, `turn_aborted`
  is W-SESSION-INTERRUPTED; any other event that carries members is kept (W-JSON-UNREAD).
- `turn_context` (`cwd`, `model`, policies): frame; its `model` is the model of the messages that follow, and
  each distinct context is kept in the header (`turn_contexts`).
- `compacted` (`message`): the summary that replaced the history, a hidden system message, W-SESSION-COMPACTED.

A rollout is read a line at a time by `CodexReader` (viewer/parse/agents/online.py): whole by `parse_codex`, and
a big upload a piece at a time, in memory that follows the piece. Reasoning events wait for the line after them;
a response's usage, given after it, may be for a message finished in an earlier batch: an amendment. A `codex
exec --json` stream is read whole: its first line tells it apart, and the reader gives it up (`Reread`).
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.parse.agents.codex_exec import EXEC_TYPES, parse_codex_exec
from viewer.parse.agents.lines import Line, read_lines
from viewer.parse.agents.meta import NOTHING, between, openai_usage, summed_totals
from viewer.parse.agents.online import Ended, LineReader, Reread, read_whole
from viewer.parse.agents.session import Change, Session
from viewer.parse.common import Pending
from viewer.parse.json import drafts, elements, responses
from viewer.parse.json.content_text import flat_text, part_text
from viewer.parse.json.responses import read_item
from viewer.parse.json.source import JsonObject, Draft, type_phrase
from viewer.parse.options import ParseOptions

ROLLOUT_TYPES = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
INJECTED_OPENINGS = ("<user_instructions>", "<environment_context>", "# AGENTS.md instructions", "<INSTRUCTIONS>",
                     "<permissions instructions>", "<user_shell_command>", "<turn_aborted>")
"""How text that Codex, not the user, writes into a user or developer message begins."""
INPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output", "message")
"""Items that end the model's response (a message ends it only when it is not the assistant's)."""
HEADER_KEYS = {"id": "session_id"}
"""session_meta members kept in the header under another name; the others (but its instructions and time) keep
their own."""
REASONING_EVENTS = {"agent_reasoning": "summary", "agent_reasoning_raw_content": None}
"""Events that carry reasoning text, and the intent of the analysis message each gives when no item carries it."""
QUIET_EVENTS = ("user_message", "agent_message", "token_count", "context_compacted", "task_started", "task_complete")
"""Events whose members are read elsewhere (copies of items and of the last answer, usage, the context window) or
that carry none."""


class CodexReader(LineReader):
    """Reads a rollout's lines in order into the session. Reasoning events wait for the line after them (an item
    that repeats their text makes them frame); a response's usage, which a `token_count` event after it gives,
    goes on its last message, by an amendment when that message was finished in an earlier batch."""

    dialect = "codex"

    def __init__(self, session: Session | None = None) -> None:
        super().__init__(session or Session("", kept=_kept))
        self.header: dict[str, Any] = {"producer": "codex"}
        self.model: str | None = None
        self.response: int | None = None
        """The turn of the model's response being read; None after an input."""
        self.answered: int | None = None
        """The last message the model wrote, unless an input followed it: a response's usage goes on it."""
        self.models: dict[int, str] = {}
        """Message index -> the model that wrote it, until the message is finished."""
        self.named: dict[str, None] = {}
        """Every model named, in order (the header's totals)."""
        self.usage: dict[int, Usage] = {}
        """Message index -> the usage of the response it ends, until the message is finished."""
        self.counted = _Counted()
        self.called: dict[str, str] = {}
        """call_id -> the time of its first call (a reply's duration is counted from it)."""
        self.reasoning: list[Line] = []
        """Reasoning events not yet known to repeat an item's text."""
        self.first = True
        """Whether no line is read yet (the first tells a rollout from a `codex exec --json` stream)."""

    def line(self, line: Line) -> None:
        kind, value = line.get("type"), line.get("payload")
        if self.first:
            self.first = False
            if kind in EXEC_TYPES:  # read whole, by codex_exec.py (parse_codex tells them apart)
                raise Reread("a `codex exec --json` stream, not a rollout")
        if kind == "event_msg" and isinstance(value, dict) and value.get("type") in REASONING_EVENTS:
            self.reasoning.append(line)
            return
        if self.reasoning and not (kind == "response_item" and isinstance(value, dict)
                                   and value.get("type") == "reasoning"):
            self.flush_reasoning()
        if kind not in ROLLOUT_TYPES or not isinstance(value, dict):
            what = f"A line {type_phrase(kind, line.value)}"
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM", what)])
            return
        if kind == "response_item":
            self._item(line, value)
        elif kind == "session_meta":
            self._meta(line, value)
        elif kind == "compacted":
            problem = Pending("W-SESSION-COMPACTED", "Codex compacted its context here: the summary below replaced "
                                                     "the history the model saw next.", line.span)
            self._add(line, [_system(value.get("message"), "compacted")], [problem])
            self.response = None
        elif kind == "turn_context":
            self.model = value.get("model") if isinstance(value.get("model"), str) else self.model
            contexts = self.header.setdefault("turn_contexts", [])
            if value not in contexts:
                contexts.append(value)
            self.quiet.append(line.span)
        else:
            self._event(line, value)

    def waits_from(self) -> int | None:
        return self.reasoning[0].number if self.reasoning else None

    def _item(self, line: Line, value: dict[str, Any]) -> None:
        kind = value.get("type")
        assistant_side = kind != "message" and kind not in INPUTS or value.get("role") == "assistant"
        if assistant_side:
            if self.response is None:
                self.response = self.session.next_turn()
            turn = self.response
        else:
            turn, self.response = self.session.next_turn(), None
        source, found = self.session.read(line, "payload", lambda source: _item_pieces(source, self.session))
        if kind == "reasoning":
            self._reasoning_events(found)
            if assistant_side and self.response is not None:
                turn = self.response  # the events may have begun the response
        first = len(self.session.messages)
        self._add(line, found, source.problems, turn)
        self.session.keep_unread(source, turn)
        if assistant_side:
            self._written(first)

    def _reasoning_events(self, found: list[Draft]) -> None:
        """The reasoning events before a reasoning item: those repeating its text are frame, the others (an item
        with an empty summary) are its text, shown before it."""
        said = {piece.fields.get("content") for piece in found if piece.fields.get("channel") == "analysis"}
        self.quiet.extend(line.span for line in self.reasoning if line.get("payload").get("text") in said)
        self.reasoning = [line for line in self.reasoning if line.get("payload").get("text") not in said]
        self.flush_reasoning()

    def all_read(self) -> None:
        self.flush_reasoning()  # no reasoning item follows the last events

    def flush_reasoning(self) -> None:
        """The reasoning events that no item repeated (the line after them is no reasoning item, or none is),
        as the reasoning of the response they belong to."""
        for line in self.reasoning:
            value = line.get("payload")
            text = value.get("text")
            if not isinstance(text, str) or not text:
                self.quiet.append(line.span)
                continue
            if self.response is None:
                self.response = self.session.next_turn()
            first = len(self.session.messages)
            self._add(line, [drafts.analysis("assistant", text, None, REASONING_EVENTS[value["type"]])],
                      turn=self.response)
            self._written(first)
        self.reasoning = []

    def _written(self, first: int) -> None:
        """The messages from index `first` on were written by the model of the turn context."""
        if self.model:
            for index in range(first, len(self.session.messages)):
                self.models[index] = self.model
            self.named[self.model] = None

    def _meta(self, line: Line, value: dict[str, Any]) -> None:
        for key, item in value.items():
            if key not in ("instructions", "base_instructions", "timestamp") and item not in (None, "", [], {}):
                self.header.setdefault(HEADER_KEYS.get(key, key), item)
        instructions = value.get("instructions") or value.get("base_instructions")
        if isinstance(instructions, dict):
            instructions = instructions.get("text")
        if isinstance(instructions, str) and instructions:
            self._add(line, [_system(instructions, "instructions")])
        else:
            self.quiet.append(line.span)

    def _event(self, line: Line, value: dict[str, Any]) -> None:
        kind = value.get("type")
        if kind == "token_count":
            usage = _usage(value)
            if usage is not None and self.answered is not None:
                self._response_usage(self.answered, usage)
        if kind == "turn_aborted":
            reason = value.get("reason")
            said = f", reason: {reason}" if isinstance(reason, str) and reason else ""
            self.session.diagnostics.append(make_diagnostic(
                "W-SESSION-INTERRUPTED", line.span, f"The user interrupted Codex here (the turn was aborted{said})."))
            return
        if kind not in QUIET_EVENTS:
            self._unread_event(line, value)
        self.quiet.append(line.span)

    def _unread_event(self, line: Line, value: dict[str, Any]) -> None:
        """An event whose members no reader reads (review mode, undo, a later version's): kept, and said."""
        source = JsonObject(value, line.span)
        source.account(("type",), f"{value.get('type')!r} event")
        if source.unread:
            self.session.unread.append({"line": line.number, "members": source.unread})
            self.session.diagnostics.extend(problem.at(None) for problem in source.problems)

    def _response_usage(self, index: int, usage: Usage) -> None:
        """The usage of the response message `index` ends: on the message when it is finished, or by an
        amendment to it when it was finished in an earlier batch (a later count for it replaces this one)."""
        self.counted.add(index, usage)
        if self.session.messages.holds(index):
            self.usage[index] = usage
        else:
            self.session.amend(index, _with_usage(usage))

    def _add(self, line: Line, found: list[Draft], problems=(), turn: int | None = None) -> None:
        first = len(self.session.messages)
        self.session.add_line(line, found, self.session.next_turn() if turn is None else turn, problems)
        for index in range(first, len(self.session.messages)):
            role = self.session.messages[index].role
            if role == "assistant":
                self.answered = index
            elif role == "user":
                self.answered = None

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """Each message with its time, model, usage and, for a tool's reply, the time since its call."""
        done = []
        for message, line in zip(messages, lines):
            timestamp = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
            if message.is_call and message.call_id and timestamp:
                self.called.setdefault(message.call_id, timestamp)
            duration = between(self.called.get(message.call_id or ""), timestamp) if message.is_reply else None
            meta = Meta(timestamp=timestamp, model=self.models.pop(message.index, None),
                        usage=self.usage.pop(message.index, None), duration_ms=duration)
            done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
        return done

    def header_now(self) -> dict[str, Any]:
        # Lists copied too: the reader goes on adding turn contexts while this batch is masked and stored.
        return {key: list(value) if isinstance(value, list) else value for key, value in self.header.items()}

    def end(self) -> Ended:
        totals = summed_totals(self.counted.total(), self.counted.responses(), self.named)
        return Ended(self.session.with_unread(self.header | totals))


class _Counted:
    """The usage of every response so far, summed as it comes: a response's count may be given again (a later
    `token_count` before the model writes on), which replaces the one before, so the latest is kept apart."""

    def __init__(self) -> None:
        self.settled = Usage()
        self.settled_responses = 0
        self.latest: tuple[int, Usage] | None = None
        """The message the latest count is for, and the count."""

    def add(self, index: int, usage: Usage) -> None:
        if self.latest is not None and self.latest[0] != index:  # the model wrote on: the count before is final
            self.settled, self.settled_responses = self.settled + self.latest[1], self.settled_responses + 1
        self.latest = (index, usage)

    def total(self) -> Usage:
        return self.settled + self.latest[1] if self.latest is not None else self.settled

    def responses(self) -> int:
        return self.settled_responses + (self.latest is not None)


def _with_usage(usage: Usage) -> Change:
    def change(message: Message) -> Message:
        return replace_fields(message, meta=dataclasses.replace(message.meta or Meta(), usage=usage))
    return change


def _kept(value: dict[str, Any]) -> dict[str, Any]:
    """What is read of a line once its messages are: its time."""
    return {"timestamp": value["timestamp"]} if "timestamp" in value else {}


def _item_pieces(source: JsonObject, session: Session) -> list[Draft]:
    """A Responses item's messages; a user or developer message's injected parts marked as context."""
    found = read_item(source, session)
    source.account(responses.claimed(source.value) if responses.is_item(source.value)
                   else elements.claimed(source.value), "item")
    if source.get("type") != "message" or source.get("role") not in ("user", "developer"):
        return found
    if _mixes_injected(source.get("content")):
        return _parts_one_by_one(source)
    for piece in found:
        if piece.fields.get("role") in ("user", "developer") and _injected(piece.fields.get("content", "")):
            piece.fields["intent"] = "context"
    return found


def _mixes_injected(content: Any) -> bool:
    """Whether some text part of a message is injected and some is not (then each part is a message)."""
    if not isinstance(content, list):
        return False
    kinds = {_injected(text) for text in map(part_text, content) if text is not None}
    return kinds == {True, False}


def _parts_one_by_one(source: JsonObject) -> list[Draft]:
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found = []
    for at, part in enumerate(source.get("content")):
        text = part_text(part)
        span = spans[at] if at < len(spans) else source.span
        if text is None:
            found.append(drafts.unclassified("unknown", part.get("type") if isinstance(part, dict) else None, part,
                                             span, "W-JSON-UNKNOWN-PART", "A content part beside injected context"))
            continue
        found.append(Draft(dict(role=source.get("role"), channel="final", content=text, end="end",
                                intent="context" if _injected(text) else None), span))
    return found


def _injected(text: str) -> bool:
    return text.lstrip().startswith(INJECTED_OPENINGS)


def _system(value: Any, name: str) -> Draft:
    return Draft(dict(role="system", name=name, channel="final", content=flat_text(value), end="end"), None)


def _usage(value: dict[str, Any]) -> Usage | None:
    """The last response's usage from a `token_count` event (`info.last_token_usage`, or the event's own figures
    in early versions)."""
    info = value.get("info")
    return openai_usage(info.get("last_token_usage") if isinstance(info, dict) else value)




def parse_codex(text: str, options: ParseOptions) -> Transcript:
    """Read a Codex rollout or a `codex exec --json` stream, whichever the first line that is an object shows.
    Never raises on user input."""
    lines, unreadable = read_lines(text)
    first = next(lines, None)
    if first is not None and first.get("type") in EXEC_TYPES:
        return parse_codex_exec(text, itertools.chain((first,), lines), unreadable)
    return read_whole(CodexReader(), text)
