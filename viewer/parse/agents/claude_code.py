"""Claude Code sessions (`~/.claude/projects/<project>/<session>.jsonl`): one JSON object per line, one session
per file (dialect `claude-code`).

Lines (fields as Claude Code writes them; any may be missing in some version):
- `user` and `assistant`: `uuid`, `parentUuid`, `sessionId`, `timestamp`, `cwd`, `gitBranch`, `version`,
  `isSidechain`, `isMeta`, and `message` in the Anthropic Messages shape. An assistant response is written as
  several lines, one content block each, sharing `message.id`: they are one turn. A `user` line made of
  `tool_result` blocks (with a `toolUseResult` copy beside) holds tool replies, paired with their calls by
  `tool_use_id`; the rest of a user line's text is classified by wrappers.py (typed, a command, or injected).
- `system` (`subtype`: `compact_boundary`, `api_error`, `local_command`, hook summaries …) and `summary`
  (`summary`, `leafUuid`): system messages, hidden by default; a compaction is also W-SESSION-COMPACTED.
- `file-history-snapshot` and `queue-operation` carry no conversation: frame (kind `event`).
- Any other type is kept as a hidden message with W-JSON-UNKNOWN-ITEM.

`isMeta` lines and compaction summaries (`isCompactSummary`) are injected context (intent `context`). The
messages of sub-agents and the tree of `parentUuid` are read by threads.py and tree.py; metadata by meta.py.

Every line is accounted for (docs/architecture.md, "Nothing lost"): the session's facts (working folder, git
branch, version, user type, permission mode) are the header's from the first line that has them, and a line
whose fact differs keeps it in its first message's details, as it keeps its flags, a system line's level and a
compaction's metadata beyond what its diagnostic says; what a response's usage says beside the counts is the
details of the message that carries it; a queued input is kept in the header's `bookkeeping`. File-history
snapshots (the app's backups: names, versions and times) are frame. A member no table here names is kept in the
header's `unread`.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Thread, Transcript, make_diagnostic
from viewer.model.branches import FORKS_KEY
from viewer.parse.agents.claude_code_web import document_lines, is_document
from viewer.parse.agents.lines import Line, claims, claims_by
from viewer.parse.agents.meta import ClaudeMeta
from viewer.parse.agents.online import Ended, LineReader, read_whole
from viewer.parse.agents.records import details, rest_details
from viewer.parse.agents.session import Session
from viewer.parse.agents.threads import Threads
from viewer.parse.agents.tree import GrowingTree, Kinds, branches_ended
from viewer.parse.agents.wrappers import user_text
from viewer.parse.common import Pending
from viewer.parse.json import drafts
from viewer.parse.json.anthropic import BLOCKS, block_reader
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.elements import read_message
from viewer.parse.json.media import MEDIA_PARTS, placeholder
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.positions import JsonError, Member, read_value
from viewer.parse.json.source import JsonObject, Draft, empty, type_phrase
from viewer.parse.options import ParseOptions

_RESULT_KEY = re.compile(r'"toolUseResult"[ \t\n\r]*:[ \t\n\r]*')
QUIET_LINES = ("file-history-snapshot", "queue-operation")
"""Line types that record the agent's bookkeeping (file backups, queued input), no conversation."""
HEADER_KEYS = {"sessionId": "session_id", "cwd": "cwd", "gitBranch": "git_branch", "version": "version",
               "userType": "user_type", "permissionMode": "permission_mode"}
"""Line fields that describe the session, kept in the header (shown in the debug view) from the first line; a
later line whose value differs keeps it in its details."""
LINE_DETAILS = ("isVisibleInTranscriptOnly", "isApiErrorMessage", "level", "compactMetadata")
"""What a line says of its message beside it: kept in its first message's details (a compaction's metadata less
what W-SESSION-COMPACTED says)."""
MESSAGE_DETAILS = ("stop_sequence", "container", "context_management")
"""What an API message says beside what the metadata reads."""
USAGE_READ = claims("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
_ENVELOPE = ("type", "uuid", "parentUuid", "logicalParentUuid", "sessionId", "timestamp", "isSidechain", "agentId",
             "requestId", *HEADER_KEYS)
_MESSAGE = ("message.role", "message.type", "message.content", "message.id", "message.model", "message.stop_reason",
            "message.usage", "isMeta", "isCompactSummary", "toolUseResult", *(f"message.{key}" for key in
                                                                              MESSAGE_DETAILS))
CLAIMS = claims_by("type", {
    "user": _MESSAGE,
    "assistant": _MESSAGE,
    "system": ("content", "subtype", "isMeta", "toolUseID"),
    "summary": ("summary", "leafUuid"),
    "file-history-snapshot": ("*",),
    "queue-operation": ("operation", "content"),
}, common=(*_ENVELOPE, *LINE_DETAILS))
"""What the reader reads of a line, by its type: a response's usage is read on its last line (its earlier lines'
are the same response's usage as it streamed); a summary's `leafUuid` and a system line's `toolUseID` name other
lines, as ids do."""
USER_INTENTS = {"typed": None, "command": None, "injected": "context", "interrupted": "context"}


def parse_claude_code(text: str, options: ParseOptions) -> Transcript:
    """Read a Claude Code session: a log, or the web's session document (its entries read as a log's lines).
    Never raises on user input."""
    if not is_document(text):
        return read_whole(ClaudeCodeReader(), text)
    reader = ClaudeCodeReader()
    return read_whole(reader, text, document_lines(text, reader.session))


KEPT_KEYS = ("type", "uuid", "parentUuid", "logicalParentUuid", "timestamp", "isSidechain", "agentId")
KEPT_MESSAGE_KEYS = ("id", "model", "stop_reason", "usage")


def _kept(value: dict[str, Any]) -> dict[str, Any]:
    """What tree.py, threads.py and meta.py read of a line: its links and time, its response's id, model, stop
    reason and usage, the types of its blocks, and the agentId its tool result names."""
    kept = {key: value[key] for key in KEPT_KEYS if key in value}
    body = value.get("message")
    if isinstance(body, dict):
        kept["message"] = {key: body[key] for key in KEPT_MESSAGE_KEYS if key in body}
        if isinstance(body.get("content"), list):
            kept["message"]["content"] = [{"type": block.get("type")} if isinstance(block, dict) else None
                                          for block in body["content"]]
    result = value.get("toolUseResult")
    if isinstance(result, dict) and "agentId" in result:
        kept["toolUseResult"] = {"agentId": result["agentId"]}
    return kept


class ClaudeCodeReader(LineReader):
    """Reads lines in order into the session; their messages are finished with their thread, parent and
    metadata a batch at a time, and the end decides the branches left aside."""

    dialect = "claude-code"

    @classmethod
    def reads(cls, head: str) -> bool:
        """A log, not the web's session document (one JSON object: read whole)."""
        return not is_document(head)

    def __init__(self, session: Session | None = None) -> None:
        super().__init__(session or Session("", kept=_kept))
        self.header: dict[str, Any] = {"producer": "claude-code"}
        self._responses: dict[str, int] = {}
        """The turn of each API response (`message.id`) read so far."""
        self.results: dict[int, Any] = {}
        """Line number -> what its `toolUseResult` holds that its replies' text does not (`_result_left`), until
        its first reply is finished."""
        self.details: dict[int, dict[str, Any]] = {}
        """Line number -> what it says of its first message beside it (LINE_DETAILS, a session fact changed),
        until that message is finished."""
        self._threads = Threads()
        self._meta = ClaudeMeta()
        self._trees: dict[str | None, GrowingTree] = {None: GrowingTree()}
        """The tree of the main conversation (None) and of each thread, in the order they start."""
        self._kinds = Kinds()

    def line(self, line: Line) -> None:
        self.session.account(line, CLAIMS(line))
        kind = line.value.get("type")
        self._facts(line)
        if kind == "assistant" or kind == "user":
            self._message_line(line, kind)
        elif kind == "system":
            self._system(line)
        elif kind == "summary":
            self._add(line, [_text_piece("system", line.get("summary"), name="summary")])
        elif kind in QUIET_LINES:
            self.quiet.append(line.span)
            if kind == "queue-operation":
                kept = {key: line.value[key] for key in ("operation", "content") if not empty(line.value.get(key))}
                if kept:
                    self.header.setdefault("bookkeeping", []).append({"line": line.number, "type": kind, **kept})
        else:
            what = f"A line {type_phrase(kind, line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 what)])

    def _facts(self, line: Line) -> None:
        """The session's facts from the first line that has each; what a line says beside its message, and a fact
        it gives otherwise than the header, kept in its details."""
        value = line.value
        said: dict[str, Any] = {}
        for key, name in HEADER_KEYS.items():
            fact = value.get(key)
            if not isinstance(fact, str) or not fact:
                continue
            if name not in self.header:
                self.header[name] = fact
            elif fact != self.header[name] and key != "sessionId":
                said[key] = fact
        said.update(rest_details(value, LINE_DETAILS, {"compactMetadata": _COMPACTION_READ}) or {})
        body = value.get("message")
        rest = rest_details(body, MESSAGE_DETAILS, {}) if isinstance(body, dict) else None
        if rest:
            said["message"] = rest
        if said:
            self.details[line.number] = said

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """Each message with its thread, parent (in its thread's tree) and metadata."""
        names = self._threads.place(messages, lines, self.session.lines)
        metas = self._meta.metas(messages, lines, self.session.amend)
        done = []
        for message, line, name, meta in zip(messages, lines, names, metas):
            tree = self._trees.get(name)
            if tree is None:
                tree = self._trees[name] = GrowingTree()
            value = line.value
            parent = tree.add(message.index, line.number, _text(value.get("uuid")),
                              _text(value.get("parentUuid")) or _text(value.get("logicalParentUuid")),
                              *self._kinds.of(value))
            done.append(replace_fields(message, thread=name, parent=parent, meta=self._said(message, line, meta)))
        if lines:  # what lines with no message (or none finished) said goes with them, as the whole parse drops it
            last = lines[-1].number
            for kept in (self.details, self.results):
                for number in [number for number in kept if number <= last]:
                    del kept[number]
        return done

    def _said(self, message: Message, line: Line, meta: Meta | None) -> Meta | None:
        """The message's metadata with what its line says of it beside its text (`details`): the line's details
        on its first message, what its `toolUseResult` holds beside the replies' text on its first reply, what a
        response's usage says beside the counts on the message that holds the usage."""
        held = self.details.pop(line.number, None)
        said: dict[str, Any] = dict(held) if held else {}
        kept = self.results.pop(line.number, None) if message.is_reply else None
        if kept is not None:
            said["toolUseResult"] = kept
        if meta is not None and meta.usage is not None:
            body = line.value.get("message")
            rest = rest_details(body, ("usage",), {"usage": USAGE_READ}) if isinstance(body, dict) else None
            said.update(rest or {})
        return dataclasses.replace(meta or Meta(), details=said) if said else meta

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def threads_now(self) -> tuple[Thread, ...]:
        return self._threads.now()

    def end(self) -> Ended:
        threads, notes = self._threads.ended(lambda index: self.session.amend(index, _same))
        totals = self._meta.totals()
        trees = (self._trees[None], *(self._trees[thread.id] for thread in threads))
        branches = branches_ended(trees, self.session.amend)
        if branches.forks:  # the debug view's branch switcher reads them (viewer/web/branching.py)
            totals = {**totals, FORKS_KEY: [fork.to_json() for fork in branches.forks]}
        return Ended(self.session.with_unread(self.header | totals), threads, [*notes, *branches.notes],
                     frozenset(branches.aside))

    def _message_line(self, line: Line, kind: str) -> None:
        if not isinstance(line.get("message"), dict):
            self.session.diagnostics.append(make_diagnostic(
                "W-JSON-SHAPE", line.span, f"This {kind} line has no message object; it was skipped."))
            return
        if kind == "assistant":
            source, found = self.session.read(line, "message", lambda source: _assistant_pieces(source, self.session))
            self._add(line, found, source.problems, self._response_turn(line.value["message"].get("id")))
            return
        injected = line.get("isMeta") is True or line.get("isCompactSummary") is True
        source, found = self.session.read(line, "message",
                                          lambda source: _user_pieces(source, self.session, injected))
        if not empty(line.get("toolUseResult")):
            left = _result_left(line, found)
            if left is not None:
                self.results[line.number] = left
        self._add(line, found, source.problems)

    def _response_turn(self, response: Any) -> int:
        """Lines of one API response are one turn."""
        if not isinstance(response, str):
            return self.session.next_turn()
        turn = self._responses.get(response)
        if turn is None:
            turn = self._responses[response] = self.session.next_turn()
        return turn

    def _system(self, line: Line) -> None:
        subtype = line.get("subtype") if isinstance(line.get("subtype"), str) else None
        problems = []
        if subtype == "compact_boundary":
            problems.append(Pending("W-SESSION-COMPACTED", _compaction(line.get("compactMetadata")), line.span))
        self._add(line, [_text_piece("system", line.get("content"), name=subtype)], problems)

    def _add(self, line: Line, found: list[Draft], problems=(), turn: int | None = None) -> None:
        self.session.add_line(line, found, self.session.next_turn() if turn is None else turn, problems)


def _result_left(line: Line, found: list[Draft]) -> Any:
    """What a line's `toolUseResult` (the tool's result as the app showed it: a command's stdout and stderr, an
    edit's `structuredPatch` and `originalFile`, a read's `file`) holds that the text of its replies does not: a
    member whose text a reply holds is left out; a long one is kept as its span in the source, never copied (a
    big session's file copies would be held twice). None when the replies hold it all."""
    if "toolUseResult" not in line.value:
        return None
    said = "\n".join(piece.fields.get("content") or "" for piece in found if piece.fields.get("role") == "tool")
    result = line.value["toolUseResult"]
    if not isinstance(result, dict):
        kept = None if _held(result, said) else details(JsonObject({"result": result}, line.span, {
            "result": _result_member(line, 0)}), ("result",))
        return kept["result"] if kept else None
    keys = [key for key, value in result.items() if not empty(value) and not _held(value, said)]
    if not keys:
        return None
    node = _result_member(line, 1).node
    return details(JsonObject(result, node.span, dict(node.members)), keys)


def _result_member(line: Line, depth: int) -> Member:
    """A line's `toolUseResult` member, read `depth` levels down with spans. Claude Code writes it last, so it is
    looked for from the line's end: the members before it (the reply's text again, in `message`) are not read a
    second time. Read from the line's start when what stands there is not it."""
    text, (start, end) = line.text, line.span
    at = text.rfind('"toolUseResult"', start, end)
    key = _RESULT_KEY.match(text, at) if at > start and text[at - 1] != "\\" else None
    if key is not None:
        try:
            node = read_value(text, key.end(), depth)
        except JsonError:  # a string's text, not the member
            node = None
        if node is not None and node.value == line.value["toolUseResult"]:
            return Member(node, (at, node.span[1]))
    member = line.members()["toolUseResult"]
    return Member(read_value(text, member.node.span[0], depth), member.span)


def _held(value: Any, said: str) -> bool:
    """Whether a reply's text holds a value: a text it contains, a number or flag (which says nothing apart)."""
    if isinstance(value, str):
        return value.strip() in said
    if isinstance(value, dict) and "base64" in value:
        return True  # an image read: the reply holds it as its image (inline_media), never as text again
    if isinstance(value, list) and all(isinstance(block, dict) and block.get("type") == "text" for block in value):
        return flat_text(value).strip() in said  # an MCP tool's text blocks, which the reply joins
    return isinstance(value, (bool, int, float)) or value is None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _same(message: Message) -> Message:
    """No change to the message itself: what is stored beside it (its thread's call) changed."""
    return message


ASSISTANT_KEYS = frozenset(("id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage",
                            "container", "context_management"))
"""The keys of an assistant's API message as Claude Code writes it: one of these with one block is read directly."""
ONE_BLOCK_READERS = {"thinking": BLOCKS["thinking"], "redacted_thinking": BLOCKS["redacted_thinking"],
                     "tool_use": BLOCKS["tool_use"]}
ANSWER = dict(role="assistant", name=None, recipient=None, channel="final", channel_explicit=False, content_type=None,
              constrained=False, intent=None, call_id=None, end="end")
"""The fields the general reader gives an assistant's text."""


MCP_PREFIX = "functions.mcp__"
"""Claude Code names an MCP server's tool `mcp__<server>__<tool>`."""


def _assistant_pieces(source: JsonObject, session: Session) -> list[Draft]:
    """An assistant's API message, its MCP tools addressed as `<server>.<tool>` (as Anthropic's own
    `mcp_tool_use` blocks are read)."""
    found = _response_pieces(source, session)
    for piece in found:
        recipient = piece.fields.get("recipient")
        if piece.fields.get("end") == "call" and recipient and recipient.startswith(MCP_PREFIX):
            server, _, tool = recipient[len(MCP_PREFIX):].partition("__")
            if server and tool:
                piece.fields["recipient"] = f"{server}.{tool}"
                session.rename_call(piece.fields.get("call_id"), piece.fields["recipient"])
    return found


def _response_pieces(source: JsonObject, session: Session) -> list[Draft]:
    """Claude Code writes most API messages with one block: read here with the block readers the general reader
    (elements.py) uses, to the same messages, without its search for other shapes' keys."""
    value = source.value
    content = value.get("content")
    if value.get("role") == "assistant" and isinstance(content, list) and len(content) == 1 \
            and isinstance(content[0], dict) and value.keys() <= ASSISTANT_KEYS:
        block = content[0]
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            return text_pieces(block["text"], ANSWER, source.span)
        if kind in ONE_BLOCK_READERS:
            return ONE_BLOCK_READERS[kind](block, source.span, "assistant", session)
    return read_message(source, session)


def _user_pieces(source: JsonObject, session: Session, injected: bool) -> list[Draft]:
    """A user line's message: its text (typed, a command, or injected), tool replies and images, in order."""
    content = source.get("content")
    if isinstance(content, str) or content is None:
        if content is None:
            source.problem("W-JSON-MISSING-CONTENT", "This message has no content.")
        return [_user_text(content or "", source.span_of("content"), injected, source)]
    if not isinstance(content, list):
        return [_user_text(source.text("content") or "", source.span_of("content"), injected, source)]
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found: list[Draft] = []
    for at, block in enumerate(content):
        span = spans[at] if at < len(spans) else source.span_of("content")
        found.extend(_user_block(block, span, session, injected, source))
    return _one_turn(found)


def _one_turn(found: list[Draft]) -> list[Draft]:
    """What the user typed and pasted in one line (text blocks, images) is one message, its parts in order: the
    user wrote one turn."""
    merged: list[Draft] = []
    for piece in found:
        last = merged[-1] if merged else None
        if last is not None and _typed(last) and _typed(piece) and last.span and piece.span:
            merged[-1] = Draft({**last.fields, "content": f"{last.fields['content']}\n\n{piece.fields['content']}"},
                               (last.span[0], piece.span[1]), [*last.problems, *piece.problems])
        else:
            merged.append(piece)
    return merged


def _typed(piece: Draft) -> bool:
    fields = piece.fields
    return fields.get("role") == "user" and fields.get("intent") is None and fields.get("end", "end") == "end" \
        and fields.get("call_id") is None


def _user_block(block: Any, span, session: Session, injected: bool, source: JsonObject) -> list[Draft]:
    kind = block.get("type") if isinstance(block, dict) else None
    if kind == "text":
        text = block.get("text")
        return [_user_text(text if isinstance(text, str) else flat_text(text), span, injected, source)]
    if kind in MEDIA_PARTS:
        piece = _text_piece("user", placeholder(kind, block))
        piece.span = span
        if injected:
            piece.fields["intent"] = "context"
        return [piece]
    reader = block_reader(kind)
    if reader is not None:
        return reader(block, span, "user", session)
    return [drafts.unclassified("user", kind, block, span, "W-JSON-UNKNOWN-PART",
                                f"A content block {type_phrase(kind, block)}")]


def _user_text(text: str, span, injected: bool, source: JsonObject) -> Draft:
    what = user_text(text)
    piece = Draft(dict(role="user", channel="final", content=what.text, end="end",
                       intent="context" if injected else USER_INTENTS[what.kind]), span)
    if what.kind == "interrupted":
        source.problem("W-SESSION-INTERRUPTED", "The user interrupted the agent here.", span)
    return piece


def _text_piece(role: str, value: Any, name: str | None = None) -> Draft:
    return Draft(dict(role=role, name=name, channel="final", content=flat_text(value) if value is not None else "",
                      end="end"), None)


_COMPACTION_READ = claims("trigger", "preTokens")
"""What W-SESSION-COMPACTED says of a compaction's metadata."""


def _compaction(metadata: Any) -> str:
    said = "The agent compacted its context here"
    if isinstance(metadata, dict):
        facts = [f"trigger {metadata['trigger']}" if isinstance(metadata.get("trigger"), str) else "",
                 f"{metadata['preTokens']:,} tokens before" if isinstance(metadata.get("preTokens"), int) else ""]
        facts = [fact for fact in facts if fact]
        if facts:
            said += f" ({', '.join(facts)})"
    return said + ": the messages before it stay, the model saw a summary of them afterwards."
