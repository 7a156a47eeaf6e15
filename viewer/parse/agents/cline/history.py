"""A Cline, Roo Code or Kilo Code task's `api_conversation_history.json`: what the model saw, one JSON array of
Anthropic Messages with the agent's own fields (dialects `cline`, `roo-code`, `kilo-code`; the three write the
same shape, Roo Code and Kilo Code being forks of Cline).

- An assistant message is one response: `thinking`, `redacted_thinking`, Roo's `reasoning` and
  `thoughtSignature` blocks, `reasoning_details` and `reasoning_content` are reasoning; `tool_use` blocks are
  calls; its text is the answer, or the plan before a call (a preamble). Before native tool calling the calls are
  XML in the text, with `<thinking>` beside them (xml_calls.py). `attempt_completion`'s `result`,
  `ask_followup_question`'s `question` and `plan_mode_respond`'s `response` are what the user was shown as the
  agent's answer: each is a message of its own before its call, or in its place when nothing answers the call
  (the task ended there). A text ending `[Response interrupted by user]`
  was cut by the user (W-SESSION-INTERRUPTED), `… by API Error]` by a failed stream (W-API-ERROR): the mark is
  Cline's, not the model's, and is left out of the text.
- A user message holds what the agent wrote for the model: tool results (`tool_result` blocks paired by id, or
  text blocks behind a `[read_file for 'x'] Result:` header, paired with the latest call to that tool), the
  `<environment_details>` that end every turn, notes; and, wrapped, what the user typed (turns.py).
- Cline writes `ts` (ms) on every message, and on an assistant's its response id, `modelInfo` and `metrics`
  (tokens and cost); Roo Code and Kilo Code name the model in their environment details. Roo's condensing keeps
  every message and appends a summary (`isSummary`), which the model saw instead: injected context,
  W-SESSION-COMPACTED.

Every element is accounted for (docs/architecture.md, "Nothing lost"): what a response says of its model beside
its id (the provider, the mode) and of its metrics beside the counts read is its last message's details; a call
the agent showed as its answer and that nothing answered keeps its tool's name and its other arguments in the
answer's details; a mark the agent appended is quoted by the diagnostic that says it. Any member no table here
names is kept in the header's `unread`.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Any, NamedTuple

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage
from viewer.model.collector import collector_paused
from viewer.parse.agents.arrays import read_elements
from viewer.parse.agents.cline import turns
from viewer.parse.agents.cline.xml_calls import split_calls
from viewer.parse.agents.lines import Claims, Line, claims
from viewer.parse.agents.meta import NOTHING, between, usage_totals
from viewer.parse.agents.records import rest_details
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.anthropic import BLOCKS, block_reader
from viewer.parse.json.completions import details_pieces
from viewer.parse.json.content_text import flat_text, part_text
from viewer.parse.json.fields import object_in
from viewer.parse.json.media import MEDIA_PARTS, placeholder
from viewer.parse.json.source import Draft, JsonObject, type_phrase

SHOWN_ARGUMENTS = {"attempt_completion": "result", "ask_followup_question": "question",
                   "plan_mode_respond": "response"}
"""Tools whose argument the agent shows the user as its own message: the task's result, a question, a plan."""
INTERRUPTED = {"\n\n[Response interrupted by user]": ("W-SESSION-INTERRUPTED", "The user interrupted the "
                                                       "response here; the text before it is what had streamed."),
               "\n\n[Response interrupted by API Error]": ("W-API-ERROR", "The response broke off: the API failed "
                                                           "while it streamed; the text before it is what had "
                                                           "arrived.")}
"""The marks the agent appends to a response it saved cut short, and what each means."""
NO_RESPONSE = "Failure: I did not provide a response."
SUB_TASK = re.compile(r"\ASubtask (\S+) completed\.")
"""The result Roo Code writes into a `new_task` call's reply when the sub-task it delegated to finishes."""
"""What Cline saves as the answer when the model answered nothing."""


_COUNTED = ("modelInfo.modelId", "metrics.tokens.prompt", "metrics.tokens.completion", "metrics.tokens.cached",
            "metrics.cost")
RESPONSE_DETAILS = ("modelInfo", "metrics")
"""What a response says of itself beside what is read of it (`_COUNTED`), kept in its last message's details."""
CLAIMS: dict[str, Claims] = {
    "user": claims("role", "ts", "content", "isSummary", "isTruncationMarker", "condenseParent",
                   "truncationParent"),
    "assistant": claims("role", "ts", "content", "reasoning_content", "reasoning_details", *RESPONSE_DETAILS),
    "reasoning": claims("type", "ts", "text", "summary", "encrypted_content"),
}
"""What the reader reads of an element, by its role (Roo's reasoning items by their type); the content's blocks
are read by their kinds (a block of a kind no reader knows is shown whole). `condenseParent` and
`truncationParent` name the summary or marker that replaced a message, as an id does."""


def element_claims(line: Line) -> Claims:
    role = line.get("role")
    if role in CLAIMS:
        return CLAIMS[role]
    if line.get("type") == "reasoning":
        return CLAIMS["reasoning"]
    return claims("*")  # an element of an unknown role is shown whole


class Producer(NamedTuple):
    """Which agent wrote the history."""

    dialect: str
    agent: str


def read_history(text: str, producer: Producer) -> Transcript:
    """Read a task's API history. Never raises on user input."""
    with collector_paused:  # see viewer/model/collector.py
        elements, unreadable = read_elements(text, "This history")
        session = Session(text)
        reader = _History(session, producer, _Replies(elements))
        for line in session.accounted(elements, element_claims, "element"):
            reader.element(line)
        messages, totals = reader.finished()
        diagnostics = [*unreadable, *session.diagnostics]
        return Transcript(dialect=producer.dialect, source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=session.with_unread(reader.header | totals), frame=session.frame([], diagnostics))


class _Replies:
    """Which calls the history answers: the ids its `tool_result` blocks name, and the tools each user message
    writes a text result of. A call that the agent shows as its answer (SHOWN_ARGUMENTS) and that nothing
    answers is that answer alone: the task ended there (a completion the user accepted)."""

    def __init__(self, elements: list[Line]) -> None:
        self.ids: set[str] = set()
        self.texts: dict[int, set[str]] = {}
        for line in elements:
            content = line.get("content")
            if line.get("role") != "user" or not isinstance(content, (str, list)):
                continue
            for block in [{"type": "text", "text": content}] if isinstance(content, str) else content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                    self.ids.add(block["tool_use_id"])
                elif block.get("type") == "text" and isinstance(block.get("text"), str):
                    header = turns.result_header(block["text"])
                    if header is not None:
                        self.texts.setdefault(line.number, set()).add(header[0])

    def answered(self, call_id: str | None, tool: str, number: int) -> bool:
        """Whether the call (made in element `number`) has a result: by its id, else in the next element."""
        return call_id in self.ids if call_id is not None else tool in self.texts.get(number + 1, ())


class _History:
    def __init__(self, session: Session, producer: Producer, replies: _Replies) -> None:
        self.session = session
        self.replies = replies
        self.header: dict[str, Any] = {"producer": producer.dialect, "agent": producer.agent}
        self.model: str | None = None
        """The model the latest environment details named (Roo Code, Kilo Code)."""
        self.models: dict[int, str] = {}
        """Element number -> the model of its response."""
        self.details: dict[int, dict[str, Any]] = {}
        """Message index -> what the element recorded of it beside its text (Meta.details)."""

    def element(self, line: Line) -> None:
        role = line.get("role")
        source = JsonObject(line.value, line.span, line.members())
        if role == "assistant":
            response = _Response(source, self.session, self.replies, line.number)
            found = response.pieces()
            model = _model_info(line.value) or self.model
            if model:
                self.models[line.number] = model
        elif role == "user":
            found = _UserTurn(source, self.session).pieces()
            self._environment(found)
            if line.get("isSummary") is True or line.get("isTruncationMarker") is True:
                for piece in found:
                    piece.fields["intent"] = "context"
                source.problem("W-SESSION-COMPACTED", "The agent condensed the conversation here: the messages "
                                                      "before this summary stay, the model saw the summary instead.")
        elif line.get("type") == "reasoning":
            found = [_reasoning_item(source)]
        else:
            what = f"An element {type_phrase(line.get('type'), line.value)}"
            found = [drafts.unclassified("unknown", role if isinstance(role, str) else line.get("type"),
                                         line.value, line.span, "W-JSON-UNKNOWN-ITEM", what)]
        first = len(self.session.messages)
        noted = [piece.fields.pop("details", None) for piece in found]
        self.session.add_line(line, found, self.session.next_turn(), source.problems)
        for offset, details in enumerate(noted):
            if details:
                self.details[first + offset] = details
        if role == "assistant":
            self._keep_answers(first, found, response.answers)
            said = rest_details(line.value, RESPONSE_DETAILS, _READ)
            if said and len(self.session.messages) > first:
                last = len(self.session.messages) - 1
                self.details[last] = {**self.details.get(last, {}), **said}

    def _keep_answers(self, first: int, found: list[Draft], answers: list[Draft]) -> None:
        """An argument the agent showed as its answer stays the answer though its call follows it (the session
        makes text before a call a preamble)."""
        for offset, piece in enumerate(found):
            if any(piece is answer for answer in answers):
                at = first + offset
                self.session.messages[at] = replace_fields(self.session.messages[at], channel="final")

    def _environment(self, found: list[Draft]) -> None:
        """What the environment details of a user turn say of the session (the working folder, the model), and the
        sub-tasks whose results come back in it (Roo Code's `Subtask <id> completed.`)."""
        for piece in found:
            content = piece.fields.get("content", "")
            sub_task = SUB_TASK.match(content) if piece.fields.get("role") == "tool" else None
            if sub_task is not None:
                self.header.setdefault("sub_tasks", []).append(sub_task[1])
            if piece.fields.get("intent") == "context" and turns.is_environment(content):
                self.model = turns.model_named(content) or self.model
                folder = turns.working_folder(content)
                if folder:
                    self.header.setdefault("cwd", folder)

    def finished(self) -> tuple[tuple[Message, ...], dict[str, Any]]:
        """The messages with their metadata, and the session's totals."""
        messages, lines = self.session.messages, self.session.lines
        called: dict[str, str] = {}
        usages: list[Usage] = []
        done = []
        for index, (message, line) in enumerate(zip(messages, lines)):
            timestamp = milliseconds(line.get("ts"))
            last_of_line = index + 1 == len(lines) or lines[index + 1] is not line
            usage = _usage(line.get("metrics")) if last_of_line and line.get("role") == "assistant" else None
            if usage is not None:
                usages.append(usage)
            if message.is_call and message.call_id and timestamp:
                called.setdefault(message.call_id, timestamp)
            duration = between(called.get(message.call_id), timestamp) if message.is_reply and message.call_id \
                else None
            said = line.get("role") == "assistant"
            meta = Meta(timestamp=timestamp, model=self.models.get(line.number) if said else None, usage=usage,
                        response=_text(line.get("id")) if said else None, duration_ms=duration,
                        details=self.details.get(index))
            done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
        return tuple(done), usage_totals(usages, self.models.values())


_READ = claims(*_COUNTED)


def _model_info(value: dict[str, Any]) -> str | None:
    info = value.get("modelInfo")
    return _text(info.get("modelId")) if isinstance(info, dict) else None


def _usage(metrics: Any) -> Usage | None:
    """Cline's `metrics`: `tokens.prompt` counts every input token, `tokens.cached` those of them read from the
    cache; `cost` in US dollars."""
    if not isinstance(metrics, dict):
        return None
    tokens = object_in(metrics, "tokens")
    prompt, completion, cached = (_count(tokens.get(key)) for key in ("prompt", "completion", "cached"))
    cost = metrics.get("cost")
    cost = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None
    if not (prompt or completion or cached) and cost is None:
        return None
    return Usage(input=max(prompt - cached, 0), output=completion, cache_read=cached, cost=cost)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def milliseconds(value: Any) -> str | None:
    """A time in milliseconds since the epoch as ISO 8601 (UTC), or None."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 1e14:
        return None
    moment = dt.datetime.fromtimestamp(value / 1000, dt.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


# ---- the assistant's side -------------------------------------------------------------------------------------

class _Response:
    """An assistant message's messages in the order written: its reasoning first, then its blocks."""

    def __init__(self, source: JsonObject, session: Session, replies: _Replies, number: int) -> None:
        self.source = source
        self.session = session
        self.replies = replies
        self.number = number
        self.answers: list[Draft] = []
        """The arguments shown as the agent's answer (SHOWN_ARGUMENTS)."""

    def pieces(self) -> list[Draft]:
        source = self.source
        found: list[Draft] = []
        reasoning = source.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning.strip():
            found.append(drafts.analysis("assistant", reasoning, source.span_of("reasoning_content")))
        if isinstance(source.get("reasoning_details"), list):
            found.extend(details_pieces(source, "assistant"))
        content = source.get("content")
        if isinstance(content, str):
            found.extend(self._said(content, source.span_of("content")))
        elif isinstance(content, list):
            for block, span in _blocks(source):
                found.extend(self._block(block, span))
        else:
            source.problem("W-JSON-MISSING-CONTENT", "This response has no content.")
        if not found:
            found.append(Draft(dict(role="assistant", channel="final", content="", end="end"), source.span))
        return found

    def _block(self, block: Any, span) -> list[Draft]:
        kind = block.get("type") if isinstance(block, dict) else None
        found: list[Draft] = []
        if isinstance(block, dict) and isinstance(block.get("reasoning_details"), list):
            found.extend(details_pieces(JsonObject(block, span), "assistant"))
        if kind == "text":
            text = block.get("text")
            found.extend(self._said(text if isinstance(text, str) else flat_text(text), span))
        elif kind == "tool_use":
            found.extend(self._tool_use(block, span))
        elif kind in ("thinking", "redacted_thinking"):
            found.extend(BLOCKS[kind](block, span, "assistant", self.session))
        elif kind == "reasoning":
            found.append(_reasoning_item(JsonObject(block, span)))
        elif kind == "thoughtSignature":
            found.append(drafts.opaque("assistant", "thought signature", block.get("thoughtSignature") or "",
                                       "thoughtSignature", span))
        elif kind in MEDIA_PARTS:
            found.append(Draft(dict(role="assistant", channel="final", content=placeholder(kind, block), end="end"),
                               span))
        else:
            reader = block_reader(kind)
            found.extend(reader(block, span, "assistant", self.session) if reader is not None else [
                drafts.unclassified("assistant", kind, block, span, "W-JSON-UNKNOWN-PART",
                                    f"A content block {type_phrase(kind, block)}")])
        if isinstance(block, dict) and block.get("signature") and kind in ("text", "tool_use"):
            self.source.problem("W-JSON-OPAQUE-DATA", drafts.opaque_problem("block", block["signature"], "signature",
                                                                            span).message, span)
        return found

    def _tool_use(self, block: dict[str, Any], span) -> list[Draft]:
        name = block.get("name")
        shown = self._shown(name, block.get("input"), span)
        call_id = block.get("id") if isinstance(block.get("id"), str) else None
        # an argument is shown only for a tool named by text (SHOWN_ARGUMENTS)
        if shown and isinstance(name, str) and not self.replies.answered(call_id, name, self.number):
            return _in_place_of_call(shown, name, block.get("input"))
        return [*shown, *BLOCKS["tool_use"](block, span, "assistant", self.session)]

    def _shown(self, tool: Any, arguments: Any, span) -> list[Draft]:
        shown = _shown_argument(tool, arguments, span)
        self.answers.extend(shown)
        return shown

    def _said(self, text: str, span) -> list[Draft]:
        """A text the model wrote: prose (the answer, or a plan before a call), reasoning, and XML calls."""
        for mark, (code, said) in INTERRUPTED.items():
            if text.rstrip().endswith(mark.strip()):
                text = text.rstrip()[:-len(mark.strip())]
                self.source.problem(code, f"{said.removesuffix('.')} (the agent's mark {mark.strip()!r} is left out "
                                          "of the text).", span)
        if text.strip() == NO_RESPONSE:
            self.source.problem("W-API-ERROR", "The model answered nothing: the agent wrote this placeholder in "
                                               "its place.", span)
            return [Draft(dict(role="assistant", channel="final", content=text, intent="context", end="end"), span)]
        found: list[Draft] = []
        for piece in split_calls(text):
            if piece.kind == "text":
                found.append(Draft(dict(role="assistant", channel="final", content=piece.text, end="end"), span))
            elif piece.kind == "thinking":
                found.append(drafts.analysis("assistant", piece.text, span))
                if not piece.closed:
                    found[-1].problems.append(Pending("W-UNCLOSED-BLOCK", "A <thinking> block is not closed: the "
                                                                          "rest of the text was read as reasoning.",
                                                      span))
            else:
                found.extend(self._xml_call(piece, span))
        return found

    def _xml_call(self, piece, span) -> list[Draft]:
        shown = self._shown(piece.tool, piece.arguments, span)
        if shown and piece.closed and not self.replies.answered(None, piece.tool, self.number):
            return _in_place_of_call(shown, piece.tool, piece.arguments)
        recipient = qualified_tool_name(piece.tool)
        call = drafts.call(recipient, shown_json(piece.arguments), span, None)
        self.session.note_call(None, recipient)
        if not piece.closed:
            call.problems.append(Pending("W-UNCLOSED-BLOCK", f"The <{piece.tool}> call is not closed: the response "
                                                             "broke off inside it.", span))
        return [*shown, call]


def _blocks(source: JsonObject) -> list[tuple[Any, tuple[int, int]]]:
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    content = source.get("content")
    return [(block, spans[at] if at < len(spans) else source.span_of("content")) for at, block in enumerate(content)]


def _shown_argument(tool: Any, arguments: Any, span) -> list[Draft]:
    """The argument of a call that the agent shows the user as its own message (SHOWN_ARGUMENTS)."""
    key = SHOWN_ARGUMENTS.get(tool) if isinstance(tool, str) else None
    value = arguments.get(key) if key is not None and isinstance(arguments, dict) else None
    if not isinstance(value, str) or not value.strip():
        return []
    return [Draft(dict(role="assistant", channel="final", content=value.strip(), end="end"), span)]


def _in_place_of_call(shown: list[Draft], tool: str, arguments: Any) -> list[Draft]:
    """The answer a call showed, standing for the call nothing answered: the call's tool and its other arguments
    (a command to open the result with, the task's progress list) are its details."""
    key = SHOWN_ARGUMENTS[tool]
    rest = {name: value for name, value in arguments.items() if name != key} if isinstance(arguments, dict) else {}
    shown[0].fields["details"] = {"tool": tool, **({"arguments": rest} if rest else {})}
    return shown


def _reasoning_item(source: JsonObject) -> Draft:
    """Roo Code's reasoning block or item: `text` (and `summary` parts), or only `encrypted_content`."""
    text = source.get("text")
    summary = source.get("summary")
    said = [text] if isinstance(text, str) and text.strip() else []
    if isinstance(summary, list):
        said.extend(part for part in map(part_text, summary) if part)
    if said:
        piece = drafts.analysis("assistant", "\n\n".join(said), source.span)
        if source.get("encrypted_content"):
            piece.problems.append(drafts.opaque_problem("reasoning", source.get("encrypted_content"),
                                                        "encrypted_content", source.span))
        return piece
    return drafts.opaque("assistant", "encrypted reasoning", source.get("encrypted_content") or "",
                         "encrypted_content", source.span)


# ---- the user's side ------------------------------------------------------------------------------------------

class _UserTurn:
    """A user message's blocks as typed text, injected context and tool replies. A text result is its header's
    block and the blocks after it (older versions wrote the output as blocks of its own), up to the next header,
    typed text or environment details."""

    def __init__(self, source: JsonObject, session: Session) -> None:
        self.source = source
        self.session = session
        self.found: list[Draft] = []
        self._reply: tuple[str, list[str], list[tuple[int, int]]] | None = None
        """The text result being read: its tool, its texts, their spans."""

    def pieces(self) -> list[Draft]:
        content = self.source.get("content")
        if isinstance(content, str):
            self._text(content, self.source.span_of("content"))
        elif isinstance(content, list):
            for block, span in _blocks(self.source):
                self._block(block, span)
        else:
            self.source.problem("W-JSON-MISSING-CONTENT", "This message has no content.")
        self._close_reply()
        if not self.found:
            self.found.append(Draft(dict(role="user", channel="final", content="", intent="context", end="end"),
                                    self.source.span))
        return self.found

    def _block(self, block: Any, span) -> None:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            text = block.get("text")
            self._text(text if isinstance(text, str) else flat_text(text), span)
        elif kind == "tool_result":
            self._close_reply()
            self.found.extend(BLOCKS["tool_result"](block, span, "user", self.session))
            output = flat_text(block.get("content"))
            if turns.failed(output):
                self._failed(self.found[-1], span)
            self._typed_in_result(block.get("content"), span)
        elif kind in MEDIA_PARTS:
            if self._reply is not None:  # a screenshot a browser action returned
                self._reply[1].append(placeholder(kind, block))
                self._reply[2].append(span)
            else:  # an image the user attached
                self.found.append(Draft(dict(role="user", channel="final", content=placeholder(kind, block),
                                             end="end"), span))
        else:
            self._close_reply()
            reader = block_reader(kind)
            self.found.extend(reader(block, span, "user", self.session) if reader is not None else [
                drafts.unclassified("user", kind, block, span, "W-JSON-UNKNOWN-PART",
                                    f"A content block {type_phrase(kind, block)}")])

    def _text(self, text: str, span) -> None:
        header = turns.result_header(text)
        if header is not None:
            self._close_reply()
            self._reply = (header[0], [text], [span])
            return
        if self._reply is not None and not turns.is_environment(text) and turns.typed_in_result(text) is None:
            # The output of a text result goes on in blocks of its own (a file's content may hold anything): only
            # the user's feedback on it, led in by the agent's own words, ends it.
            self._reply[1].append(text)
            self._reply[2].append(span)
            return
        self._close_reply()
        for run in turns.runs(text):
            self.found.append(Draft(dict(role="user", channel="final", content=run.text, end="end",
                                         intent="context" if run.kind == "context" else None), span))

    def _close_reply(self) -> None:
        if self._reply is None:
            return
        tool, texts, spans = self._reply
        self._reply = None
        span = (spans[0][0], spans[-1][1])
        output = "\n\n".join(text for text in texts if text.strip())
        piece = drafts.reply(qualified_tool_name(tool), output, span, None)
        self.found.append(piece)
        if turns.failed(output) or any(turns.failed(text) for text in texts):
            self._failed(piece, span)
        for text in texts:
            typed = turns.typed_in_result(text)
            if typed is not None:
                self.found.append(Draft(dict(role="user", channel="final", content=typed, end="end"), span))

    def _failed(self, piece: Draft, span) -> None:
        name = piece.fields.get("name")
        said = f"The tool {name} reported a failure." if name else "The tool reported a failure."
        piece.problems.append(Pending("W-TOOL-ERROR", said, span))

    def _typed_in_result(self, content: Any, span) -> None:
        texts = [content] if isinstance(content, str) else [part_text(part) or "" for part in content] \
            if isinstance(content, list) else []
        for text in texts:
            typed = turns.typed_in_result(text)
            if typed is not None:
                self.found.append(Draft(dict(role="user", channel="final", content=typed, end="end"), span))
