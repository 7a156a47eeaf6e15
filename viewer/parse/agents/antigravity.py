"""Antigravity CLI transcripts (`~/.gemini/antigravity-cli/brain/<conversation>/.system_generated/logs/
transcript.jsonl`, and the IDE's `~/.gemini/antigravity/brain/…`), dialect `antigravity`: one step per line,
`{step_index, source, type, status, created_at, content?}`. The agent is closed source: what is known of the format
comes from the tools that read it, and what they leave uncertain is reported rather than guessed.

- `USER_INPUT` (source `USER_EXPLICIT`): the request inside `<USER_REQUEST>` is what the user typed; the blocks the
  agent appends (`<ADDITIONAL_METADATA>`, `<USER_SETTINGS_CHANGE>`, the only place the model is named) are context.
- `PLANNER_RESPONSE` (source `MODEL`): `thinking` is reasoning, `content` the answer (a preamble when the step
  calls tools), each of `tool_calls[{name, args}]` a call (`default_api:` dropped from the name; each argument
  value is JSON text, decoded where it decodes). Calls carry no ids.
- The other `MODEL` steps (`VIEW_FILE`, `RUN_COMMAND`, `CODE_ACTION` …) are the tools' results, in the order of the
  calls before them: each is named after the call it answers by that order (the pairing reports any result or
  call left over); their `Created At` / `Completed At` lines give the time the tool took.
- `SYSTEM` steps: `EPHEMERAL_MESSAGE`, `CHECKPOINT` (a summary that replaced the history: W-SESSION-COMPACTED) and
  any other with content are context; a `SYSTEM_MESSAGE` from the user (`from=user content=…`, sent with `agy
  send-message` while the agent ran) is what the user typed; steps without content are frame.

A transcript is read a line at a time by `AntigravityReader` (viewer/parse/agents/online.py): whole by
`parse_antigravity`, and a big upload a piece at a time, in memory that follows the piece. What a step says of its
messages (time, model, usage, a result's duration) is known when it is read; the reader keeps only the calls of the
latest response not answered yet (a result is named after the next of them, and timed from it), the model the
user chose, and the header's totals, summed as the responses come. The results are paired with their calls by
order where the messages are stored (the record's `pairing`), a batch at a time (viewer/parse/streamed.py).
"""
from __future__ import annotations

import json
import re
from collections import deque
from typing import Any

from viewer.model import Message, Meta, Transcript, Usage
from viewer.parse.agents.lines import Line, claims
from viewer.parse.agents.meta import between, summed_totals
from viewer.parse.agents.online import Ended, LineReader, read_whole
from viewer.parse.agents.records import count, finished_now, item_objects, read_record, text_of
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

SOURCES = ("USER_EXPLICIT", "MODEL", "SYSTEM")
_REQUEST = re.compile(r"<USER_REQUEST>\s*(.*?)\s*</USER_REQUEST>", re.DOTALL)
_MODEL = re.compile(r"setting `Model Selection` from .*? to (.+?)\. ", re.DOTALL)
_TIMES = re.compile(r"\ACreated At: (\S+)\nCompleted At: (\S+)\n")
_FROM_USER = re.compile(r"\[Message\] from=user content=(.*?)\s*(?:</SYSTEM_MESSAGE>\s*)?\Z", re.DOTALL)
FAILED = ("ERROR", "FAILED")
CANCELLED = ("CANCELLED", "CANCELED", "ABORTED")


def is_step(first: dict[str, Any]) -> bool:
    """A first line that is an Antigravity step."""
    return first.get("source") in SOURCES and isinstance(first.get("step_index"), int) \
        and not isinstance(first.get("step_index"), bool)


CLAIMS = claims("step_index", "source", "type", "status", "created_at", "content", "thinking", "tool_calls[].name",
                "tool_calls[].args", "model", "usage.cached_content_token_count", "usage.input_tokens",
                "usage.output_tokens")
"""What the reader reads of a step (each type reads what it holds of these); anything else is kept in the header's
`unread`."""


def parse_antigravity(text: str, options: ParseOptions) -> Transcript:
    """Read an Antigravity CLI transcript. Never raises on user input."""
    return read_whole(AntigravityReader(), text)


class AntigravityReader(LineReader):
    """Reads a transcript's steps in order into the session; each message's metadata, known when its step is read,
    is held until the message is finished."""

    dialect = "antigravity"

    def __init__(self, session: Session | None = None) -> None:
        # The session keeps nothing of a line once read: what later lines need is kept here.
        super().__init__(session or Session("", kept=lambda value: {}))
        self.header: dict[str, Any] = {"producer": self.dialect}
        self.metas: dict[int, Meta] = {}
        """Message index -> its metadata, until the message is finished."""
        self._usage, self._responses = Usage(), 0
        """The usage the responses recorded, summed, and how many recorded one."""
        self._models: dict[str, None] = {}
        """The models of the responses, in the order each is first named."""
        self._model: str | None = None
        """The model the user last chose (a response that names none was answered by it)."""
        self._ordered = False
        """Whether the first result paired by order was reported."""
        self._waiting: deque[tuple[str | None, str | None]] = deque()
        """The calls of the latest response not answered yet: (their tool, when named; when they were made)."""

    def line(self, line: Line) -> None:
        self.session.account(line, CLAIMS)
        value = line.value
        source, kind = value.get("source"), value.get("type")
        content = value.get("content")
        text = content if isinstance(content, str) else text_of(content.get("text")) if isinstance(content, dict) \
            else None
        timestamp = text_of(value.get("created_at"))
        first = len(self.session.messages)
        if not isinstance(kind, str) or source not in SOURCES:
            what = f"A line {type_phrase(kind, value)}" + ("" if source in SOURCES else " from an unknown source")
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, value, line.span, "W-JSON-UNKNOWN-ITEM", what)])
        elif kind == "USER_INPUT":
            self._user_input(line, text or "")
            for index in range(first, len(self.session.messages)):
                self.metas[index] = Meta(timestamp=timestamp, details={"source": source})
        elif kind == "PLANNER_RESPONSE":
            self._response(line, timestamp)
        elif source == "MODEL":
            self._result(line, kind, text)
        elif text is None:
            self.quiet.append(line.span)
        elif kind == "SYSTEM_MESSAGE" and (from_user := _FROM_USER.search(text)) is not None:
            said = from_user[1]
            self._add(line, [Draft(dict(role="user", channel="final", content=said, end="end"), None)],
                      [Pending("W-SESSION-INTERRUPTED", "The user sent this message while the agent worked.",
                               line.span)])
            self.metas[first] = Meta(timestamp=timestamp, details={"content": text})  # as the model got it
        else:
            problems = [Pending("W-SESSION-COMPACTED", "Antigravity summarized the conversation here: the model "
                                                       "saw this summary in place of what came before.",
                                line.span)] if kind == "CHECKPOINT" else []
            self._add(line, [_context(text, kind.lower())], problems)
        for index in range(first, len(self.session.messages)):
            self.metas.setdefault(index, Meta(timestamp=timestamp))

    def _user_input(self, line: Line, text: str) -> None:
        request = _REQUEST.search(text)
        model = _MODEL.search(text)
        if model is not None:
            self._model = model[1].strip()
            self.header.setdefault("model", self._model)
        if request is None:
            self._add(line, [Draft(dict(role="user", channel="final", content=text, end="end"), None)])
            return
        rest = (text[:request.start()] + text[request.end():]).strip()
        pieces = [Draft(dict(role="user", channel="final", content=request[1], end="end"), None)]
        if rest:
            pieces.append(_context(rest, "metadata"))
        source, found = read_record(line.text, line, lambda source: _spanned(pieces, source.span_of("content")))
        self._add(line, found)

    def _response(self, line: Line, timestamp: str | None) -> None:
        value = line.value
        source, found = read_record(line.text, line, _response_pieces)
        first = len(self.session.messages)
        self._add(line, found, source.problems)
        model = text_of(value.get("model")) or self._model
        figures = value.get("usage")
        usage = _usage(figures) if isinstance(figures, dict) else None
        if usage is not None:
            self._usage, self._responses = self._usage + usage, self._responses + 1
        if model:
            self._models[model] = None
        last = len(self.session.messages) - 1
        self._waiting.clear()  # a new response: results of calls before it that never came are not its
        for index in range(first, last + 1):
            message = self.session.messages[index]
            if message.is_call:
                self._waiting.append((message.recipient, timestamp))
            self.metas[index] = Meta(timestamp=timestamp, model=model, usage=usage if index == last else None)

    def _result(self, line: Line, kind: str, text: str | None) -> None:
        body = text or ""  # its `Created At` / `Completed At` lines too: the model got them
        times = _TIMES.match(body)
        tool, called = self._waiting.popleft() if self._waiting else (None, None)
        problems = []
        status, created = line.value.get("status"), text_of(line.value.get("created_at"))  # not kept once read
        if status in FAILED:
            problems.append(Pending("W-TOOL-ERROR", f"The step {kind} ended with status {status}.", line.span))
        elif status in CANCELLED:
            problems.append(Pending("W-SESSION-INTERRUPTED", f"The step {kind} was cancelled.", line.span))
        if not self._ordered:
            self._ordered = True
            problems.append(Pending("W-PAIRED-BY-ORDER", "Antigravity writes no call ids: each result step is taken "
                                                         "to answer the next unanswered call of the response before "
                                                         "it, in order.", line.span))
        first = len(self.session.messages)
        self._add(line, [drafts.reply(tool, body, None, None)], problems)
        started, done = (times[1], times[2]) if times is not None else (called, created)
        self.metas[first] = Meta(timestamp=done, duration_ms=between(started, done))

    def _add(self, line: Line, found: list[Draft], problems=()) -> None:
        turn = self.session.next_turn()
        self.session.add_line(line, found, turn, problems)
        self.session.turn_ended(turn)  # a step is a turn: a call of a later step makes no answer of it a preamble
        if not found:
            self.quiet.append(line.span)

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """Each message with its metadata."""
        return finished_now(messages, self.metas, {}, _nowhere)

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def end(self) -> Ended:
        return Ended(self.session.with_unread(self.header | summed_totals(self._usage, self._responses,
                                                                          self._models)))


def _nowhere(index: int, thread: str) -> None:
    """No message of a transcript is a sub-agent's."""


def _response_pieces(source: JsonObject) -> list[Draft]:
    found: list[Draft] = []
    thinking = source.get("thinking")
    if isinstance(thinking, str) and thinking.strip():
        found.append(drafts.analysis("assistant", thinking.strip(), source.span_of("thinking")))
    content = source.get("content")
    if isinstance(content, str) and content.strip():
        found.append(Draft(dict(role="assistant", channel="final", content=content, end="end"),
                           source.span_of("content")))
    for call in item_objects(source, "tool_calls"):
        name = text_of(call.get("name")) or "(unnamed tool)"
        name = name.removeprefix("default_api:")
        arguments = call.get("args")
        decoded = {key: _decoded(item) for key, item in arguments.items()} if isinstance(arguments, dict) \
            else arguments
        found.append(drafts.call(qualified_tool_name(name), shown_json(decoded if decoded is not None else {}),
                                 call.span, None))
    return found


def _usage(figures: dict[str, Any]) -> Usage:
    """The Gemini API's counts: the input includes the cached tokens (apart in the model)."""
    cached = count(figures.get("cached_content_token_count"))
    return Usage(input=max(count(figures.get("input_tokens")) - cached, 0), output=count(figures.get("output_tokens")),
                 cache_read=cached)


def _decoded(value: Any) -> Any:
    """An argument's value, written as JSON text (`"\\"/w/a.py\\""`, `"188"`): decoded, or kept as written."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _spanned(pieces: list[Draft], span) -> list[Draft]:
    return [Draft(dict(piece.fields), span) for piece in pieces]


def _context(text: str, name: str) -> Draft:
    return Draft(dict(role="user", name=name, channel="final", content=text, end="end", intent="context"), None)

