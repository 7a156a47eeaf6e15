"""VS Code chat sessions (GitHub Copilot Chat; `workspaceStorage/<workspace>/chatSessions/<session>.json` or
`.jsonl`), dialect `vscode-chat`. VS Code writes the session (`version: 3`, `requests[]`) whole as `.json`, or, in
newer builds, as a `.jsonl` log of changes (ObjectMutationLog: line 1 `{"kind": 0, "v": <the session>}`, then
`{"kind": 1, "k": path, "v": value}` sets, `{"kind": 2, "k": path, "v": [items], "i": cut}` appends, `{"kind": 3,
"k": path}` deletes), replayed here into the same session; a message then points at the line that wrote it. The log
is read a line at a time (`VSCodeChatReader`, viewer/parse/agents/online.py), each request read out once a later
one is appended, and a big one a piece at a time; a log that changes a request read out already is replayed whole.

Each request is one exchange:
- `message.text` is what the user typed. What the model got with it, `result.metadata.renderedUserMessage` and
  `renderedGlobalContext` (the date, the editor's state, reminders, the workspace), is context.
- `response[]` is what the chat showed, in order: markdown parts are the answer (text before a tool call of the
  request is a preamble), `thinking` parts reasoning, `toolInvocationSerialized` parts the tool calls. A call's
  name and arguments are in the request's `result.metadata.toolCallRounds` (one per model call) and its result
  in `toolCallResults`, both by the call's id; without them (another agent, a failure) the call is named by its
  `toolId`, its text is the chat's line for it, and its result comes from the part (a terminal's output).
  The tool calls of a sub-agent (`subAgentInvocationId`) are a thread under the `runSubagent` call.
- The other parts (edits, code block links, progress, undo stops …) are the chat's UI: frame.
- `result.errorDetails` "Canceled" (or `modelState` 2) is W-SESSION-INTERRUPTED; another error (or `modelState`
  3) a hidden system message with W-API-ERROR. `result.usage` is the request's tokens; `customTitle` the title.

Nothing is lost (docs/architecture.md, "Nothing lost"): what the chat drew for a tool call (its invocation and
past-tense messages, how it was confirmed, its tool's source and tool-specific data) is the call's `Meta.details`;
what a request says of what was sent (the files attached, the mode) its user message's; what its result says beside
the tokens (the model's label, the prompt's breakdown by category, timings, follow-ups, references) the details of
the message that carries its usage; the agents that answered, the session's requester and what its input box held
(the model selected, a draft) are in the header. Every request, and every line of a log, is accounted for: what
no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from viewer.model import Diagnostic, Message, Meta, Span, Thread, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Claims, Line, claims, read_lines, unclaimed
from viewer.parse.agents.meta import summed_totals
from viewer.parse.agents.online import Ended, LineReader, Reread, read_whole
from viewer.parse.agents.records import (
    INLINE_DETAIL, count, details_read, finished, finished_now, shown_by_reference, text_of, threads_of)
from viewer.parse.agents.replayed import At, Where, replay
from viewer.parse.agents.session import Session, unread_names
from viewer.parse.agents.thread_calls import ThreadCalls
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.positions import JsonError, Member, Node, Partial, read_value, skip_blank
from viewer.parse.json.source import Draft, type_phrase
from viewer.parse.options import ParseOptions

DEPTH = 2
"""Levels of a session (or a change's value) read with spans at once: its members and their items; deeper values
are read with spans only when a message needs them (replayed.Where)."""
UI_PARTS = frozenset((
    "textEditGroup", "notebookEditGroup", "codeblockUri", "progressMessage",
    "progressTaskSerialized", "progressTask", "undoStop", "clearToPreviousToolInvocation", "mcpServersStarting",
    "command", "treeData", "multiDiffData", "workspaceEdit", "pullRequest", "extensions", "confirmation",
    "elicitationSerialized", "elicitation", "questionCarousel", "hook", "codeCitation", "references",
    "prepareToolInvocation", "toolInvocation"))
"""Response parts that draw the chat's UI (edits, links, progress, prompts) rather than say anything."""
CANCELLED = 2
FAILED = 3

SESSION_HEADER = {"sessionId": "session_id", "customTitle": "session_title", "responderUsername": "responder",
                  "initialLocation": "location", "requesterUsername": "requester",
                  "requesterAvatarIconUri": "requester_avatar", "responderAvatarIconUri": "responder_avatar",
                  "isImported": "imported", "hasPendingEdits": "pending_edits"}
"""Members of the session kept in the header as written, under these names."""
SESSION_CLAIMS = claims(*SESSION_HEADER, "version", "creationDate", "lastMessageDate", "inputState", "requests")
"""What the reader reads of the session (its requests are accounted for one by one)."""
REQUEST_DETAILS = ("variableData", "modeInfo", "attachedContext", "editedFileEvents")
"""What a request says of what was sent beside the text: kept in its user message's details."""
RESULT_DETAILS = ("details", "timings", "errorDetails", "usage", "metadata")
"""What a request's result says beside what the reader reads of it (the model's label and its multiplier, the
prompt's breakdown, the timings), kept in the details of the message that carries its usage, less what is read."""
RESPONSE_DETAILS = ("followups", "contentReferences", "codeCitations", "timeSpentWaiting", "responseMarkdownInfo")
"""What a request says of its response beside its parts, kept there too."""
RESULT_READ = claims(
    "errorDetails.message", "usage.promptTokens", "usage.completionTokens", "usage.totalTokens",
    "metadata.renderedUserMessage", "metadata.renderedGlobalContext", "metadata.toolCallRounds[].response",
    "metadata.toolCallRounds[].toolCalls[].name", "metadata.toolCallRounds[].toolCalls[].arguments",
    "metadata.toolCallRounds[].thinking.text", "metadata.toolCallResults", "metadata.resolvedModel",
    "metadata.promptTokens", "metadata.outputTokens")
"""What the reader reads of a result (a round's `response` is the text its markdown parts show; the total is the
sum of the counts read), which its details leave out."""
REQUEST_CLAIMS = claims("message.text", "message.parts", "response", "result", "isCanceled", "agent", "timestamp",
                        "modelId", "modelState.value", "modelState.completedAt", *REQUEST_DETAILS,
                        *RESPONSE_DETAILS)
"""What the reader reads of a request or keeps in its messages' details (a message's parts are its text cut at the
references it makes; the response's parts are accounted for by their kinds; the agent is kept in the header)."""
CALL_DETAILS = ("invocationMessage", "pastTenseMessage", "originMessage", "isConfirmed", "source",
                "toolSpecificData", "resultDetails", "presentation", "generatedTitle")
"""What the chat drew for a tool call beside its name, arguments and result: kept in the call's details."""
PART_CLAIMS: dict[str, Claims] = {
    "markdown": claims("kind", "value", "content", "supportThemeIcons", "supportHtml", "supportAlertSyntax",
                       "isTrusted", "baseUri", "uris", "inlineReference", "name", "resolveId"),
    "thinking": claims("kind", "value", "metadata.vscodeReasoningDone", "generatedTitle"),
    "tool": claims("kind", "toolId", "isComplete", *CALL_DETAILS),
    "warning": claims("kind", "content"),
}
"""What the reader reads of a response part of each kind (a UI part is drawn from what the messages hold: read
whole as the chat's frame; a part of a kind no reader knows is shown whole)."""
LOG_CLAIMS = claims("kind", "k", "v", "i")
"""A line of the log of changes: its kind, path, value and cut, all replayed."""


def is_mutation_log(head: str) -> bool:
    return head.lstrip().startswith('{"kind"')


def parse_vscode_chat(text: str, options: ParseOptions) -> Transcript:
    """Read a VS Code chat session, whole or as its log of changes. Never raises on user input."""
    if is_mutation_log(text):
        try:
            return read_whole(VSCodeChatReader(), text)
        except Reread:
            pass  # a log that changes a request read out already: replayed whole
    return _parse_replayed(text)


def _parse_replayed(text: str) -> Transcript:
    """The session read whole: the document, or the log of changes replayed into it first."""
    with collector_paused:
        problems: list[Diagnostic] = []
        where = Where(text)
        session = Session(text)
        root = _from_log(text, where, problems, session) if is_mutation_log(text) \
            else _from_document(text, where, problems)
        reader = _Reader(session)
        if root is not None:
            reader.session_facts(root)
            for number, request in enumerate(root.items("requests"), 1):
                reader.request(request, number)
        messages = tuple(shown_by_reference(finished(session.messages, reader.metas, reader.thread_of), text))
        threads, unnamed = reader.threads()
        diagnostics = [*problems, *session.diagnostics, *unnamed]
        return Transcript(dialect="vscode-chat", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=session.with_unread(reader.header | reader.totals()),
                          threads=threads, frame=session.frame([], diagnostics))


# ---- the session, whole or replayed -------------------------------------------------------------------------------

def _from_document(text: str, where: Where, problems: list[Diagnostic]) -> At | None:
    start = skip_blank(text, 0)
    if not text.startswith("{", start):
        if text.strip():
            problems.append(make_diagnostic("W-JSON-SYNTAX", (start, len(text.rstrip())),
                                            "This is not a VS Code chat session (a JSON object); it was not read."))
        return None
    partial = Partial(("requests",))
    try:
        node = read_value(text, start, DEPTH, into=partial)
    except JsonError as error:
        done = [item.span[1] for item in partial.items] or [member.span[1] for member in partial.members.values()]
        cut = max(done, default=start)
        problems.append(make_diagnostic(
            "E-STREAM-TRUNCATED", (cut, len(text.rstrip())),
            f"The session breaks off mid-JSON ({error.reason.removesuffix(' at').removesuffix(' starting')}): it "
            "was cut short while it was written; the requests before the cut are read."))
        members = dict(partial.members)
        if "requests" not in members:
            items = [*partial.items, *_cut_request(text, partial, cut)]
            span = (items[0].span[0], items[-1].span[1]) if items else (cut, cut)
            members["requests"] = Member(Node([item.value for item in items], span, items=tuple(items)), span)
        node = Node({key: member.node.value for key, member in members.items()}, (start, cut), members)
    else:
        if text[node.span[1]:].strip():
            problems.append(make_diagnostic("W-JSON-SYNTAX", (node.span[1], len(text.rstrip())),
                                            "Text follows the session's closing brace; it was not read."))
    if not isinstance(node.value, dict):
        problems.append(make_diagnostic("W-JSON-SHAPE", node.span, "The session is not a JSON object."))
        return None
    where.adopt(node)
    return At(node.value, node.span, where)


def _cut_request(text: str, partial: Partial, cut: int) -> list[Node]:
    """The request the session was cut in: what of it was written whole (its message, the response parts before
    the cut), so that a session cut while it answered still shows the question and what was answered."""
    after = partial.items[-1].span[1] if partial.items else None
    if after is None:
        opened = _REQUESTS.search(text, max((member.span[1] for member in partial.members.values()), default=0))
        if opened is None:
            return []
        after = opened.end()
    position = skip_blank(text, after)
    if text.startswith(",", position):
        position = skip_blank(text, position + 1)
    if not text.startswith("{", position):
        return []
    inner = Partial(("response",))
    try:
        return [read_value(text, position, DEPTH, into=inner)]
    except JsonError:
        pass
    members = dict(inner.members)
    if "response" not in members and inner.items:
        items = tuple(inner.items)
        span = (items[0].span[0], items[-1].span[1])
        members["response"] = Member(Node([item.value for item in items], span, items=items), span)
    if not members:
        return []
    end = max(member.span[1] for member in members.values())
    return [Node({key: member.node.value for key, member in members.items()}, (position, end), members)]


_REQUESTS = re.compile(r'(?<!\\)"requests"\s*:\s*\[')


def _from_log(text: str, where: Where, problems: list[Diagnostic], session: Session) -> At | None:
    lines, unreadable = read_lines(text)
    root: At | None = None
    for line in session.accounted(lines, lambda line: LOG_CLAIMS):
        kind = line.get("kind")
        value_member = line.member("v") if "v" in line.value else None
        node = read_value(text, value_member.node.span[0], DEPTH) if value_member is not None else None
        if kind == 0 and node is not None:
            if root is not None:
                problems.append(make_diagnostic(
                    "W-JSON-SHAPE", line.span, f"Line {line.number} writes the whole session again; the log is read "
                                               "from it on."))
            where.adopt(node)
            root = At(node.value, node.span, where)
            continue
        if kind not in (1, 2, 3) or not isinstance(line.get("k"), list):
            problems.append(make_diagnostic(
                "W-JSON-UNKNOWN-ITEM", line.span,
                f"Line {line.number} is no change VS Code writes ({type_phrase(kind, line.value)}); it was skipped."))
            continue
        if root is None:
            problems.append(make_diagnostic(
                "W-JSON-SHAPE", line.span, f"Line {line.number} changes a session the log has not written yet; it "
                                           "was skipped."))
            continue
        why = replay(root.value, where, kind, line.get("k"), node.value if node is not None else None, node,
                     line.get("i"))
        if why is not None:
            problems.append(make_diagnostic("W-JSON-SHAPE", line.span,
                                            f"Line {line.number} cannot be applied: {why}; it was skipped."))
    problems[:0] = unreadable
    if root is None and not unreadable:
        problems.append(make_diagnostic("W-JSON-SHAPE", (0, len(text.rstrip())),
                                        "The log never writes the whole session (its first line, kind 0)."))
    return root


# ---- the log read a line at a time --------------------------------------------------------------------------------

STARTS = re.compile(rb'\{\s*"kind"\s*:\s*2\s*,\s*"k"\s*:\s*\[\s*"requests"\s*\]')
"""A line that appends a request (a piece of a log read online starts at one, so that it holds whole requests)."""
UNNAMED = ("This sub-agent's calls name no runSubagent call of the session; they are kept, hidden from the default "
           "view.")


@dataclass(slots=True)
class _Open:
    """The request still being answered (the log's last): where it stands and the line that wrote it first."""

    index: int
    number: int
    where: Where


class VSCodeChatReader(LineReader):
    """Reads a log of changes a line at a time, replaying each into the session as `_parse_replayed` does. A
    request becomes messages once it can no longer change, when a later one is appended (or at the end): only
    the session's own members and the last request are held. A log that changes a request read out already,
    writes the whole session again, changes what the session leaves unread, or does not start with the session
    (kind 0) is read whole instead (`Reread`): what it says of a request read out is no longer what was read.

    Read a piece at a time, a piece holds whole requests (`starts`): a request's messages point into the lines
    that wrote it, which one piece's text holds; its messages wait for it (`waits_from`), and what reading it
    found goes with its piece."""

    dialect = "vscode-chat"
    starts = STARTS

    @classmethod
    def reads(cls, head: str) -> bool:
        return is_mutation_log(head)

    def __init__(self, session: Session | None = None) -> None:
        super().__init__(session or Session("", kept=lambda value: {}))
        self.read = _Reader(self.session)
        self.threads = ThreadCalls(self.read._calls.get, UNNAMED)
        self.root: dict[str, Any] | None = None
        self.root_span: Span = (0, 0)
        self.where: Where | None = None
        """Where the values of the piece being read were written (the text of a piece is its own)."""
        self.open: _Open | None = None
        self.closed = 0
        """How many requests were read out (the first ones: each is None in the session held)."""
        self.version: dict[str, Any] = {}
        """What the first request says of the extension's version."""
        self.document: tuple[dict[str, Any], dict[str, Any]] | None = None
        """What the session leaves unread as its first line wrote it (a copy), and its entry in `unread`."""
        self.held: list[Diagnostic] = []
        """What reading a request of the piece before found (its batch takes them)."""

    def line(self, line: Line) -> None:
        session = self.session
        session.account(line, LOG_CLAIMS)
        if self.root is None and (line.number != 1 or line.get("kind") != 0 or not isinstance(line.get("v"), dict)):
            raise Reread("not a log of changes that starts with the session")
        if self.where is None or self.where.text is not line.text:
            self.where = Where(line.text)
        kind = line.get("kind")
        value_member = line.member("v") if "v" in line.value else None
        node = read_value(line.text, value_member.node.span[0], DEPTH) if value_member is not None else None
        if kind == 0 and node is not None:
            if self.root is not None:
                raise Reread("the log writes the whole session again")
            self._start(line, node)
            return
        path = line.get("k")
        if kind not in (1, 2, 3) or not isinstance(path, list):
            session.diagnostics.append(make_diagnostic(
                "W-JSON-UNKNOWN-ITEM", line.span,
                f"Line {line.number} is no change VS Code writes ({type_phrase(kind, line.value)}); it was skipped."))
            return
        where = self._where_for(path, kind, line.get("i"))
        assert self.root is not None  # the first line wrote it
        held = self.open
        replaced = path == ["requests"] and (kind != 2 or held is not None and _cuts(line.get("i"), held.index))
        why = replay(self.root, where, kind, path, node.value if node is not None else None, node, line.get("i"))
        if why is not None:
            session.diagnostics.append(make_diagnostic(
                "W-JSON-SHAPE", line.span, f"Line {line.number} cannot be applied: {why}; it was skipped."))
        if path[:1] == ["requests"]:
            self._requests(line, replaced)

    def _start(self, line: Line, node: Node) -> None:
        """The session, as the log's first line writes it."""
        assert self.where is not None
        self.where.adopt(node)
        self.root, self.root_span = node.value, node.span
        before = len(self.session.unread)
        self.session.account(Line(1, node.span, node.value, line.text), SESSION_CLAIMS, "document")
        entry = self.session.unread[before] if len(self.session.unread) > before else {}
        self.document = (copy.deepcopy(unclaimed(node.value, SESSION_CLAIMS)), entry)
        self._requests(line)

    def _where_for(self, path: list, kind: int, cut: Any) -> Where:
        """Where a change writes: the piece's; a request read out already, or the last one from another piece,
        cannot change any more (the log is read whole)."""
        assert self.where is not None
        if path[:1] != ["requests"]:
            return self.where  # a change to what the session leaves unread is weighed at the end
        if len(path) == 1:
            if self.closed and (kind != 2 or _cuts(cut, self.closed - 1)):
                raise Reread("a change to the requests read out already")
            return self.where
        step = path[1]
        if isinstance(step, int) and not isinstance(step, bool) and 0 <= step < self.closed:
            raise Reread(f"a change to request {step + 1}, read out already")
        if self.open is not None and step == self.open.index and self.open.where is not self.where:
            raise Reread(f"a change to request {step + 1} after a piece ended in it")
        return self.where

    def _requests(self, line: Line, replaced: bool = False) -> None:
        """After a change to the requests (`replaced`: the last one held among them): each before the last is read
        out; the last is held."""
        assert self.root is not None and self.where is not None
        requests = self.root.get("requests")
        count = len(requests) if isinstance(requests, list) else 0
        opened = None if replaced or self.open is None or self.open.index >= count else self.open
        if opened is not None and opened.index < count - 1:
            self._close(opened, line)
            opened = None
        for index in range(self.closed, count - 1):
            self._close(_Open(index, line.number, self.where), line)
        if count > self.closed:
            self.open = opened if opened is not None else _Open(count - 1, line.number, self.where)
        else:
            self.open = None

    def _close(self, request: _Open, line: Line | None) -> None:
        """A request that can change no more, read out: its messages added and made final but for their threads;
        what reading it found goes with its piece's batch."""
        assert self.root is not None
        session = self.session
        before, first = len(session.diagnostics), len(session.messages)
        at = At(self.root, self.root_span, request.where).at("requests").at(request.index)
        self.read.number = request.number
        if request.index == 0:
            self.version = _version(at.value)
        self.read.request(at, request.index + 1)
        text = request.where.text
        for index in range(first, len(session.messages)):
            meta = self.read.metas.get(index)
            if meta is not None and meta.details:
                read = details_read(meta.details, session.messages[index].span, text)
                if read is not meta.details:
                    self.read.metas[index] = dataclasses.replace(meta, details=read)
        if line is not None and line.text is not text:
            self.held += session.taken_since(before)
        self.root["requests"][request.index] = None  # nothing of it is read again
        self.closed = request.index + 1

    def waits_from(self) -> int | None:
        return self.open.number if self.open is not None else None

    def all_read(self) -> None:
        if self.root is None:
            raise Reread("no session written")
        if self.open is not None:
            self._close(self.open, None)
            self.open = None

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        self.session.diagnostics += self.held
        self.held = []
        return finished_now(messages, self.read.metas, self.read.thread_of, self.threads.place)

    def header_now(self) -> dict[str, Any]:
        return {"producer": self.dialect, **(_session_header(self.root) if self.root is not None else {})}

    def threads_now(self) -> tuple[Thread, ...]:
        return self.threads.now()

    def end(self) -> Ended:
        assert self.root is not None and self.document is not None
        kept, entry = self.document
        left = unclaimed(self.root, SESSION_CLAIMS)
        if left != kept:
            if not entry or unread_names(left) != unread_names(kept):
                raise Reread("the log changes what the session leaves unread")
            entry["members"] = left
        threads, notes = self.threads.ended(self.session)
        order = {"line": 0, "document": 1, "request": 2}
        self.session.unread.sort(key=lambda kept: order.get(next(iter(kept), ""), 3))
        header = {"producer": self.dialect, **_session_header(self.root), **self.version}
        header.update(self.read.header)
        return Ended(self.session.with_unread(header | self.read.totals()), threads, notes)


def _cuts(cut: Any, index: int) -> bool:
    """Whether an append that cuts the list at `cut` first (ObjectMutationLog's `i`) cuts item `index` away."""
    return isinstance(cut, int) and not isinstance(cut, bool) and 0 <= cut <= index


# ---- reading ------------------------------------------------------------------------------------------------------

class _Reader:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.header: dict[str, Any] = {"producer": "vscode-chat"}
        self.metas: dict[int, Meta] = {}
        self.thread_of: dict[int, str] = {}
        self.usage, self.responses = Usage(), 0
        """The requests' usage summed, and how many requests had one."""
        self.models: dict[str, None] = {}
        """The models that answered, in the order each first did."""
        self._calls: dict[str, int] = {}
        """call id -> the index of its call."""
        self.number = 0
        """The number of the line the messages being added are counted with (read online: the line that wrote
        their request; read whole: 0)."""

    def session_facts(self, root: At) -> None:
        if isinstance(root.value, dict):
            self.session.account(Line(1, root.span, root.value, self.session.text), SESSION_CLAIMS, "document")
        self.header.update(_session_header(root.value))
        for request in root.items("requests")[:1]:
            self.header.update(_version(request.value))

    def totals(self) -> dict[str, Any]:
        return summed_totals(self.usage, self.responses, self.models)

    def request(self, request: At, number: int) -> None:
        if not isinstance(request.value, dict):
            self._add([drafts.unclassified("unknown", None, request.value, request.span, "W-JSON-SHAPE",
                                           "A request that is not an object")], [None])
            return
        self._account(request, number)
        self._agent(request.get("agent"))
        metadata = request.at("result").at("metadata")
        user = self._user(request, metadata)
        first = len(self.session.messages)
        self._add(user, [None] * len(user))
        timestamp = _time(request.get("timestamp"))
        sent = _details(request, REQUEST_DETAILS)
        for index in range(first, len(self.session.messages)):
            self.metas[index] = Meta(timestamp=timestamp, details=sent if index == first else None)
        pieces, threads, problems = _response(request, metadata, self.session)
        first = len(self.session.messages)
        notes = {id(piece): piece.fields.pop("details") for piece in pieces if "details" in piece.fields}
        self._add(pieces, threads, problems)
        self._response_meta(request, metadata, first, [notes.get(id(piece)) for piece in pieces])

    def _account(self, request: At, number: int) -> None:
        """The accounting rule for one request: its members by REQUEST_CLAIMS, its response's parts by their
        kinds; what is left is kept in the header's `unread` under the request's number."""
        left = unclaimed(request.value, REQUEST_CLAIMS)
        parts = request.get("response")
        if isinstance(parts, list):
            rests = {f"[{at}]": rest for at, part in enumerate(parts) if isinstance(part, dict)
                     and (rest := unclaimed(part, _part_claims(part)))}
            if rests:
                left["response"] = rests
        self.session.keep_left(Line(number, request.span, request.value, self.session.text), left, "request")

    def _agent(self, agent: Any) -> None:
        """The chat agent that answered a request (its extension, name, description, modes), once per agent."""
        if isinstance(agent, dict) and agent:
            agents = self.header.setdefault("agents", [])
            if agent not in agents:
                agents.append(agent)

    def _user(self, request: At, metadata: At) -> list[Draft]:
        message = request.at("message")
        text = message.get("text") if isinstance(message.get("text"), str) else flat_text(message.get("parts"))
        found = [Draft(dict(role="user", channel="final", content=text, end="end"), message.at("text").span)]
        for key in ("renderedUserMessage", "renderedGlobalContext"):
            rendered = metadata.at(key)
            said = _prompt_text(rendered.value)
            if said.strip():
                found.append(Draft(dict(role="user", name=key, channel="final", content=said, end="end",
                                        intent="context"), rendered.span))
        return found

    def _response_meta(self, request: At, metadata: At, first: int, notes: list[dict[str, Any] | None]) -> None:
        model = text_of(metadata.get("resolvedModel")) or (text_of(request.get("modelId")) or "").removeprefix(
            "copilot/") or None
        figures = request.at("result").get("usage")
        usage = None
        if isinstance(figures, dict):
            usage = Usage(input=count(figures.get("promptTokens")), output=count(figures.get("completionTokens")))
        elif isinstance(metadata.get("promptTokens"), int):
            usage = Usage(input=count(metadata.get("promptTokens")), output=count(metadata.get("outputTokens")))
        done = _time(request.at("modelState").get("completedAt"))
        last = max((index for index in range(first, len(self.session.messages))
                    if self.session.messages[index].role == "assistant" and index not in self.thread_of), default=None)
        if usage is not None and last is not None:
            self.usage, self.responses = self.usage + usage, self.responses + 1
        if model and last is not None:
            self.models[model] = None
        said = _result_details(request)
        carrier = last if last is not None else len(self.session.messages) - 1
        for index in range(first, len(self.session.messages)):
            message = self.session.messages[index]
            if message.is_call and message.call_id:
                self._calls.setdefault(message.call_id, index)
            assistant = message.role == "assistant"
            details = notes[index - first] if index - first < len(notes) else None
            if index == carrier and said:
                details = {**(details or {}), **said}
            self.metas[index] = Meta(timestamp=done, model=model if assistant else None,
                                     usage=usage if index == last else None,
                                     response=text_of(request.get("responseId")) if assistant else None,
                                     details=details or None)
        if said and carrier < first:  # nothing was answered: the request's user message keeps them
            meta = self.metas.get(carrier) or Meta()
            self.metas[carrier] = Meta(timestamp=meta.timestamp, details={**(meta.details or {}), **said})

    def _add(self, found: list[Draft], threads: list[str | None], problems: Sequence[Pending] = ()) -> None:
        first = len(self.session.messages)
        if not found:
            self.session.diagnostics.extend(problem.at(None) for problem in problems)
            return
        span = found[0].span or (0, 0)
        self.session.add_line(Line(self.number, span, {}, self.session.text), found, self.session.next_turn(),
                              problems)
        for at, thread in enumerate(threads):
            if thread is not None:
                self.thread_of[first + at] = thread

    def threads(self) -> tuple[tuple[Thread, ...], list[Diagnostic]]:
        return threads_of(self.session.messages, self.thread_of, self._calls.get,
                          "This sub-agent's calls name no runSubagent call of the session; they are kept, hidden "
                          "from the default view.")


def _response(request: At, metadata: At, session: Session) -> tuple[list[Draft], list[str | None], list[Pending]]:
    """What the model did for a request, in the order the chat showed it."""
    rounds = metadata.items("toolCallRounds")
    planned = {call.get("id"): call for turn in rounds for call in turn.items("toolCalls")
               if isinstance(call.get("id"), str)}
    results = dict(metadata.at("toolCallResults").entries())
    found: list[Draft] = []
    threads: list[str | None] = []
    problems: list[Pending] = []
    seen: set[str] = set()
    run: list[At] = []
    run_kind: str | None = None

    def close_run() -> None:
        nonlocal run, run_kind
        if run:
            texts = [_part_text(part) for part in run]
            text = "".join(texts) if run_kind == "markdown" else "\n\n".join(t for t in texts if t.strip())
            span = (run[0].span[0], run[-1].span[1])
            if text.strip():
                found.append(drafts.analysis("assistant", text, span) if run_kind == "thinking"
                             else Draft(dict(role="assistant", channel="final", content=text, end="end"), span))
                threads.append(None)
        run, run_kind = [], None

    for part in request.items("response"):
        kind = _kind(part)
        if kind in ("markdown", "thinking"):
            if kind != run_kind:
                close_run()
            run.append(part)
            run_kind = kind
            continue
        if kind in UI_PARTS:
            continue  # drawn beside the text (a code block's file, an undo stop): the text goes on
        close_run()
        if kind == "tool":
            call_id = text_of(part.get("toolCallId"))
            if call_id:
                seen.add(call_id)
            # the call the model planned and its result, by the part's call id (a part with none has neither)
            known = (planned.get(call_id), results.get(call_id)) if call_id is not None else (None, None)
            made = _call_and_reply(part, *known, session)
            found.extend(made)
            threads.extend([text_of(part.get("subAgentInvocationId"))] * len(made))
        elif kind == "warning":
            content = part.get("content")
            text = content.get("value") if isinstance(content, dict) else flat_text(content)
            found.append(Draft(dict(role="system", name="warning", channel="final", content=text or "", end="end"),
                               part.span))
            threads.append(None)
        else:
            what = f"A response part {type_phrase(part.get('kind'), part.value)}"
            found.append(drafts.unclassified("assistant", part.get("kind"), part.value, part.span,
                                             "W-JSON-UNKNOWN-PART", what))
            threads.append(None)
    close_run()
    if not any(piece.fields.get("channel") == "analysis" for piece in found):
        for turn in rounds:  # no thinking part shown: the rounds keep what the model thought
            thinking = turn.at("thinking")
            if text_of(thinking.get("text")):
                found.insert(0, drafts.analysis("assistant", thinking.get("text"), thinking.span))
                threads.insert(0, None)
    for call_id, call in planned.items():  # calls the chat drew no part for
        if call_id not in seen:
            made = _call_and_reply(None, call, results.get(call_id), session)
            found.extend(made)
            threads.extend([None] * len(made))
    problems.extend(_ending(request, found))
    return found, threads, problems


def _session_header(root: Any) -> dict[str, Any]:
    """What the session says of itself, for the header."""
    if not isinstance(root, dict):
        return {}
    header: dict[str, Any] = {}
    for key, name in SESSION_HEADER.items():
        value = root.get(key)
        if value not in (None, "", {}, [], False):
            header[name] = value
    for key, name in (("creationDate", "started"), ("lastMessageDate", "last_message")):
        moment = _time(root.get(key))
        if moment:
            header[name] = moment
    state = root.get("inputState")
    if isinstance(state, dict):
        kept = {key: value for key, value in state.items() if value not in (None, "", {}, [])}
        if kept:
            header["input_state"] = kept  # the model selected, the mode, what was typed but not sent
    return header


def _version(request: Any) -> dict[str, Any]:
    """The extension's version, as the session's first request names it."""
    agent = request.get("agent") if isinstance(request, dict) else None
    if isinstance(agent, dict) and text_of(agent.get("extensionVersion")):
        return {"version": agent["extensionVersion"]}
    return {}


def _kind(part: At) -> str | None:
    kind = part.get("kind")
    if kind is None and isinstance(part.get("value"), str):
        return "markdown"
    if kind in ("markdownContent", "markdownVuln", "inlineReference"):
        return "markdown"  # an inline reference is a file named in the middle of the answer's text
    if kind == "thinking":
        return "thinking"
    if kind == "toolInvocationSerialized" or kind is None and "toolCallId" in (part.value or {}):
        return "tool"
    if kind == "warning":
        return "warning"
    return kind if isinstance(kind, str) else "unknown"


def _part_claims(part: dict[str, Any]) -> Claims:
    """What the reader reads of a response part, by its kind; a UI part and a part of a kind it does not know are
    read whole (drawn as frame, or shown whole as a hidden message)."""
    kind = part.get("kind")
    if kind is None and isinstance(part.get("value"), str) or kind in ("markdownContent", "markdownVuln",
                                                                         "inlineReference"):
        return PART_CLAIMS["markdown"]
    if kind == "toolInvocationSerialized" or kind is None and "toolCallId" in part:
        return PART_CLAIMS["tool"]
    return PART_CLAIMS.get(kind, _WHOLE) if isinstance(kind, str) else _WHOLE


_WHOLE = claims("*")


def _details(holder: At, keys: tuple[str, ...], leave: Claims | None = None) -> dict[str, Any] | None:
    """The `keys` of a value as written, for a message's details (less what `leave` names, which the reader
    reads); a long one whose span is its own kept as that span (`{"$source": [start, end]}`), never a second
    copy."""
    found: dict[str, Any] = {}
    for key in keys:
        child = holder.at(key)
        value = child.value
        if leave is not None and isinstance(value, dict) and isinstance(leave.get(key), dict):
            value = unclaimed(value, leave[key])
            whole = value == child.value
        else:
            whole = True
        if value is None or value == "" or value == {} or value == [] or value is False:
            continue
        own = child.span != holder.span
        long = child.span[1] - child.span[0] > INLINE_DETAIL
        found[key] = {"$source": list(child.span)} if whole and own and long else value
    return found or None


def _result_details(request: At) -> dict[str, Any] | None:
    """What a request's result and response say beside what the reader reads of them."""
    said = _details(request.at("result"), RESULT_DETAILS, RESULT_READ) or {}
    said.update(_details(request, RESPONSE_DETAILS) or {})
    return said or None


def _part_text(part: At) -> str:
    value = part.get("value")
    if part.get("kind") in ("markdownContent", "markdownVuln"):
        content = part.get("content")
        value = content.get("value") if isinstance(content, dict) else content
    elif part.get("kind") == "inlineReference":
        return f"`{_reference_name(part.value)}`"
    if isinstance(value, list):
        return "".join(item for item in value if isinstance(item, str))
    return value if isinstance(value, str) else ""


def _reference_name(part: dict) -> str:
    """What an inline reference names: its name, else the last segment of its file's path."""
    if text_of(part.get("name")):
        return part["name"]
    reference = part.get("inlineReference")
    if isinstance(reference, dict) and isinstance(reference.get("uri"), dict):
        reference = reference["uri"]
    path = (reference.get("path") or reference.get("fsPath") or "") if isinstance(reference, dict) else ""
    return path.rstrip("/").rsplit("/", 1)[-1] if isinstance(path, str) and path else "(a reference)"


def _call_and_reply(part: At | None, planned: At | None, result: At | None, session: Session) -> list[Draft]:
    """A tool call and its reply, from the part the chat drew for it, the call the model planned (its round's), or
    both: the planned call's arguments, else what the part said of the call."""
    drawn_name = text_of(part.get("toolId")) if part is not None else None
    if planned is not None:
        call_id = text_of(part.get("toolCallId")) if part is not None else text_of(planned.get("id"))
        recipient = qualified_tool_name(text_of(planned.get("name")) or drawn_name or "(unnamed tool)")
        arguments = planned.at("arguments")
        text = arguments.value if isinstance(arguments.value, str) else shown_json(arguments.value or {})
        call = drafts.call(recipient, text, arguments.span, call_id)
    elif part is not None:
        call_id = text_of(part.get("toolCallId"))
        recipient = qualified_tool_name(drawn_name or "(unnamed tool)")
        said = part.get("pastTenseMessage") or part.get("invocationMessage")
        shown = said.get("value") if isinstance(said, dict) else said
        call = drafts.call(recipient, shown if isinstance(shown, str) else "", part.span, call_id,
                           json_arguments=False)
    else:
        return []  # neither drawn nor planned: no call (the response reader always gives one of them)
    if part is not None:
        noted = _details(part, CALL_DETAILS)
        if noted:
            call.fields["details"] = noted
    session.note_call(call_id, recipient)
    found = [call]
    reply = _reply(part, result, recipient, call_id)
    if reply is not None:
        found.append(reply)
    return found


def _reply(part: At | None, result: At | None, recipient: str, call_id: str | None) -> Draft | None:
    details = part.get("resultDetails") if part is not None else None
    specific = part.get("toolSpecificData") if part is not None else None
    specific = specific if isinstance(specific, dict) else {}
    span: Span
    if result is not None and result.value is not None:
        content = result.get("content") if isinstance(result.value, dict) else result.value
        items = content if isinstance(content, list) else [content]
        text = "\n".join(item["value"] if isinstance(item, dict) and isinstance(item.get("value"), str)
                         else flat_text(item) for item in items if item is not None)
        span = result.span
    elif part is None:  # no result, and no part that shows one
        return None
    elif isinstance(specific.get("terminalCommandOutput"), dict):
        text, span = _text(specific["terminalCommandOutput"].get("text")), part.span
    elif specific.get("kind") == "subagent" and specific.get("result") is not None:
        text, span = _text(specific.get("result")), part.span
    elif isinstance(details, dict) and details.get("output") is not None:
        text, span = flat_text(details.get("output")), part.span
    else:
        return None
    piece = drafts.reply(recipient, text, span, call_id)
    if isinstance(details, dict) and details.get("isError") is True:
        piece.problems.append(Pending("W-TOOL-ERROR", f"The tool {recipient} reported an error.", span))
    return piece


def _ending(request: At, found: list[Draft]) -> list[Pending]:
    """How the request ended, when it did not end well."""
    result = request.at("result")
    error = result.at("errorDetails")
    state = request.get("modelState")
    state = state.get("value") if isinstance(state, dict) else None
    message = text_of(error.get("message"))
    cancelled = state == CANCELLED or request.get("isCanceled") is True or message == "Canceled"
    if cancelled:
        return [Pending("W-SESSION-INTERRUPTED", "The user stopped this request before it finished.", error.span
                        if error.value is not None else request.span)]
    if message or state == FAILED:
        said = message or "The request failed."
        found.append(Draft(dict(role="system", name="error", channel="final", content=said, end="end"),
                           error.span if error.value is not None else request.span))
        return [Pending("W-API-ERROR", f"The request failed: {said[:200]}", error.span if error.value is not None
                        else request.span)]
    return []


def _prompt_text(parts: Any) -> str:
    """The text of prompt-tsx parts (`{type: 1, text}`; cache breakpoints and the rest say nothing)."""
    if isinstance(parts, str):
        return parts
    if not isinstance(parts, list):
        return ""
    return "\n".join(part["text"] for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else flat_text(value)


def _time(value: Any) -> str | None:
    """Milliseconds since the epoch as ISO 8601."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 1e14:
        return None
    moment = datetime.fromtimestamp(value / 1000, tz=timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

