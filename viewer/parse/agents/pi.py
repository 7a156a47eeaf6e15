"""Pi coding agent sessions (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`, dialect `pi`), as pi's own
docs/session.md describes them: one JSON object per line.

- Line 1 is the header `{type: "session", version, id, timestamp, cwd, parentSession?}`; the older linear layout
  (no `version`) names the model there (`provider`/`modelId`, or `model` and a `systemPrompt`, a system message).
- `message` lines hold an agent message: `user` (text and images; a `/skill` invocation's expanded `<skill>`
  block is context, the text after it typed), `assistant` (one whole response: `text`, `thinking` with an opaque
  `thinkingSignature`, `toolCall`; its `model`, `usage` with the cost pi priced it at, `stopReason`:
  `aborted` is an interruption, `error` a failed request), `toolResult` (paired by `toolCallId`; `isError` is a
  failure), `bashExecution` (a shell command the user ran with `!`: shown as typed, its output hidden context),
  `custom` (an extension's message for the model: context).
- `compaction` (the summary the model saw instead of what came before, W-SESSION-COMPACTED), `branch_summary`
  (a summary of the branch left) and `custom_message` are context; `model_change`, `thinking_level_change`,
  `label`, `session_info` (the session's name, its title) and `custom` (extension state) are bookkeeping
  (frame). Any other line is kept hidden, with W-JSON-UNKNOWN-ITEM.
- Since layout 2 every line but the header has an `id` and a `parentId`: the session is a tree (`/tree` moves back
  to an earlier point). The view follows the branch that ends at the file's last line, as pi does; the other
  branches are kept, aside (W-SESSION-FORK).

A session is read a line at a time by `PiReader` (viewer/parse/agents/online.py): whole by `parse_pi`, and a big
upload a piece at a time, in memory that follows the piece. What a line says of its messages (time, model, usage,
stop) is known when it is read, and the totals are summed as the lines come; the tree of entries is kept in a
compact form (a slot per id, its parent's slot and its last message), and each message is finished with the parent
the entries met so far give it. The end decides the rest, as amendments and notes: a parent a later entry changed
(an id met again, a parent met after its child), the branch that ends at the last line, and the others aside.
"""
from __future__ import annotations

import re
from array import array
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Note, Transcript, Usage, make_diagnostic
from viewer.model.branches import FORKS_KEY, ROOT, Fork, aside_for
from viewer.parse.agents.lines import Claims, Line, claims_by
from viewer.parse.agents.meta import NOTHING, between, summed_totals
from viewer.parse.agents.online import Ended, LineReader, read_whole
from viewer.parse.agents.session import Change, Session
from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.media import MEDIA_PARTS, placeholder
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

DIALECT = "pi"
CONTEXT_LINES = {"compaction": "compaction", "branch_summary": "branch summary", "custom_message": "extension"}
"""Lines whose text the model saw though no one typed it, and the name of the message each gives."""
SKILL = re.compile(r"\A\s*<skill\b[^>]*>.*?</skill>", re.DOTALL)
QUIET = ("model_change", "thinking_level_change", "label", "session_info", "custom")
"""Lines of pi's bookkeeping: no message."""
ASSISTANT_DETAILS = ("provider", "api", "errorMessage")
"""What an assistant message says of its request beside the model and usage: the provider, the API pi spoke to
it, and its error."""
RESULT_DETAILS = ("details",)
"""What a tool's result says beside what the model got (an edit's diff)."""
_USAGE = ("input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost")
_ENVELOPE = ("type", "id", "parentId", "timestamp")
LINE_CLAIMS = claims_by("type", {
    "session": ("version", "cwd", "parentSession", "branchedFrom", "provider", "modelId", "model", "systemPrompt",
                "thinkingLevel"),
    **dict.fromkeys(QUIET, ()),
    "model_change": ("modelId",),
    "session_info": ("name",),
    "compaction": ("summary", "tokensBefore", "firstKeptEntryId"),
    "branch_summary": ("summary", "fromId"),
    "custom_message": ("content", "customType"),
}, common=_ENVELOPE)
"""What the reader reads of a line that holds no agent message (`firstKeptEntryId` and `fromId` are ids)."""
MESSAGE_CLAIMS = claims_by("message.role", {
    "user": ("message.content",),
    "assistant": ("message.content", "message.model", *(f"message.usage.{key}" for key in _USAGE),
                  "message.stopReason", *(f"message.{key}" for key in ASSISTANT_DETAILS)),
    "toolResult": ("message.toolCallId", "message.toolName", "message.content", "message.isError",
                   *(f"message.{key}" for key in RESULT_DETAILS)),
    "bashExecution": ("message.command", "message.excludeFromContext", "message.output", "message.exitCode",
                      "message.cancelled"),
    "custom": ("message.customType", "message.content"),
    "hookMessage": ("message.customType", "message.content"),
}, common=(*_ENVELOPE, "message.role", "message.timestamp"))
"""What it reads of an agent message, by its role (its own `timestamp`, in milliseconds, is the line's again)."""
STOPS = {"aborted": ("W-SESSION-INTERRUPTED", "The user interrupted this response"),
         "error": ("W-API-ERROR", "The request failed")}


def parse_pi(text: str, options: ParseOptions) -> Transcript:
    """Read a pi session. Never raises on user input."""
    return read_whole(PiReader(), text)


def _claims(line: Line) -> Claims:
    return MESSAGE_CLAIMS(line) if line.get("type") == "message" else LINE_CLAIMS(line)


NONE = -1
"""No entry, no message (a parent that is none), as the arrays keep it."""
SAME_LINE = -2
"""A message that follows the one before it on its line (its parent), as `_entry_of` keeps it."""

FORKED = ("The session branches here (pi's /tree went back to an earlier point): this branch was left for another; "
          "its messages are kept, hidden from the default view, which follows the branch that ends at the file's "
          "last line.")


class PiReader(LineReader):
    """Reads a session's entries in order: each message's metadata, known when its line is read, is held until it
    is finished, with its parent as the entries met so far tell; the tree of entries is kept compactly, and the end
    decides the parents that a later entry changed, the branch followed and the branches left aside."""

    dialect = DIALECT

    def __init__(self, session: Session | None = None) -> None:
        # The session keeps nothing of a line once read: what later lines need is kept here.
        super().__init__(session or Session("", kept=lambda value: {}))
        self.header: dict[str, Any] = {"producer": DIALECT, "agent": "pi"}
        self.metas: dict[int, Meta] = {}
        """Message index -> its metadata, until the message is finished."""
        self._called: dict[str, str] = {}
        """call id -> the time of its first call (a reply's duration is counted from it)."""
        self._usage, self._responses = Usage(), 0
        """The usage the responses recorded, summed, and how many recorded one."""
        self._models: dict[str, None] = {}
        """The models the responses name, in the order each is first named."""
        # The tree: each entry id (or `line N` for an entry with none) has a slot, in the order first named.
        self._slots: dict[str, int] = {}
        self._up = array("i")
        """A slot's parent slot (NONE: none, or not an entry: an id only named as a parent)."""
        self._last = array("i")
        """A slot's last message (NONE: it gave none so far)."""
        self._entry = NONE
        """The slot of the last entry met (the linear layout's next entry follows it)."""
        self._entry_of = array("i")
        """Message index -> the slot of its line's entry (NONE: the header; SAME_LINE: the message before's)."""
        self._given = array("i")
        """Message index -> the parent it was finished with (NONE: none)."""
        self._ids = False
        """Whether a line that gave messages has an `id` (else the linear layout: no branches)."""

    def line(self, line: Line) -> None:
        self.session.account(line, _claims(line))
        kind = line.get("type")
        if kind == "session" and self._entry == NONE and "session_id" not in self.header:
            self._session(line)
            return
        entry = self._place(line)
        if kind == "message":
            self._message(line, entry)
        elif kind in CONTEXT_LINES:
            self._context(line, kind, entry)
        elif kind in QUIET:
            if kind == "session_info" and isinstance(line.get("name"), str) and line.get("name").strip():
                self.header["title"] = line.get("name").strip()
            self.quiet.append(line.span)
        else:
            what = f"A line {type_phrase(kind, line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 what)], entry=entry)

    def _session(self, line: Line) -> None:
        value = line.value
        for key, name in (("id", "session_id"), ("cwd", "cwd"), ("timestamp", "started"),
                          ("parentSession", "parent_session"), ("branchedFrom", "parent_session"),
                          ("provider", "provider"), ("thinkingLevel", "thinking_level")):
            if isinstance(value.get(key), str) and value[key]:
                self.header.setdefault(name, value[key])
        if isinstance(value.get("version"), int):
            self.header["layout"] = value["version"]
        prompt = value.get("systemPrompt")
        if isinstance(prompt, str) and prompt:
            self._add(line, [Draft(dict(role="system", channel="final", content=prompt, end="end"), None)])
        else:
            self.quiet.append(line.span)

    def _slot(self, entry: str) -> int:
        slot = self._slots.get(entry)
        if slot is None:
            slot = self._slots[entry] = len(self._up)
            self._up.append(NONE)
            self._last.append(NONE)
        return slot

    def _place(self, line: Line) -> int:
        """The entry's slot, its parent's noted: the entry's id and its parent's (the layout 1 has none: each entry
        follows the one before)."""
        value = line.value
        entry: str = value["id"] if isinstance(value.get("id"), str) else f"line {line.number}"
        if "id" in value:
            parent = value.get("parentId")
            above = self._slot(parent) if isinstance(parent, str) else NONE
        else:
            above = self._entry
        slot = self._entry = self._slot(entry)
        self._up[slot] = above
        return slot

    def _message(self, line: Line, entry: int) -> None:
        body = line.get("message")
        if not isinstance(body, dict):
            self.session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", line.span,
                                                            "This message line has no message object; it was "
                                                            "skipped."))
            return
        role = body.get("role")
        readers = {"user": _user, "assistant": _assistant, "toolResult": _tool_result, "bashExecution": _shell,
                   "custom": _custom, "hookMessage": _custom}
        reader = readers.get(role) if isinstance(role, str) else None  # a role that is no text names no reader
        if reader is None:
            what = f"A message whose role is {role!r}" if isinstance(role, str) else "A message with no role"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", role, body, line.span, "W-JSON-UNKNOWN-ITEM", what)],
                      entry=entry)
            return
        source, found = self.session.read(line, "message", lambda source: reader(source, self.session))
        problems = list(source.problems)
        if role == "assistant":
            reason = body.get("stopReason")
            stop = STOPS.get(reason) if isinstance(reason, str) else None
            if stop is not None:
                code, said = stop
                error = body.get("errorMessage")
                detail = f": {error}" if isinstance(error, str) and error and code == "W-API-ERROR" else ""
                problems.append(Pending(code, f"{said}{detail}.", line.span))
        self._add(line, found, problems, entry)

    def _context(self, line: Line, kind: str, entry: int) -> None:
        value = line.value
        said = value.get("summary") if kind != "custom_message" else flat_text(value.get("content"))
        problems = []
        if kind == "compaction":
            before = value.get("tokensBefore")
            size = f" ({before:,} tokens before)" if isinstance(before, int) and not isinstance(before, bool) else ""
            problems.append(Pending("W-SESSION-COMPACTED", f"Pi compacted its context here{size}: the messages "
                                                           "before it stay, the model saw this summary of them.",
                                    line.span))
        piece = Draft(dict(role="user", name=CONTEXT_LINES[kind], channel="final", intent="context", end="end",
                           content=said if isinstance(said, str) else flat_text(said)), None)
        self._add(line, [piece], problems, entry)

    def _add(self, line: Line, found: list[Draft], problems=(), entry: int = NONE) -> None:
        """The line's messages, each with its metadata (held until finished) and its place in the tree."""
        value = line.value  # the session keeps nothing of it once its messages are added
        session = self.session
        first = len(session.messages)
        session.add_line(line, found, session.next_turn(), problems)
        last = len(session.messages) - 1
        if last < first:
            return
        if "id" in value:
            self._ids = True
        if entry != NONE:
            self._last[entry] = last
        self._entry_of.append(entry)
        for _ in range(first, last):
            self._entry_of.append(SAME_LINE)
        timestamp = value.get("timestamp") if isinstance(value.get("timestamp"), str) else None
        body: dict[str, Any] = value["message"] if isinstance(value.get("message"), dict) else {}
        said = body.get("role") == "assistant"
        model = body.get("model") if said and isinstance(body.get("model"), str) else None
        stop = body.get("stopReason") if said and isinstance(body.get("stopReason"), str) else None
        for index in range(first, last + 1):
            message = session.messages[index]
            usage = _usage(body.get("usage")) if said and index == last else None
            if usage is not None:
                self._usage, self._responses = self._usage + usage, self._responses + 1
            if model:
                self._models[model] = None
            if message.is_call and message.call_id and timestamp:
                self._called.setdefault(message.call_id, timestamp)
            duration = between(self._called.get(message.call_id), timestamp) \
                if message.is_reply and message.call_id else None
            meta = Meta(timestamp=timestamp, model=model, stop_reason=stop, usage=usage, duration_ms=duration,
                        details=_details(body, ASSISTANT_DETAILS if said and index == last else
                                         RESULT_DETAILS if message.is_reply else ()))
            if meta != NOTHING:
                self.metas[index] = meta

    # ---- a batch at a time, and at the end

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """Each message with its metadata and its parent as the entries met so far tell (the last message of the
        nearest entry above its own that gave messages)."""
        done = []
        for message in messages:
            index = message.index
            parent = self._parent(index)
            self._given.append(NONE if parent is None else parent)
            done.append(replace_fields(message, meta=self.metas.pop(index, None), parent=parent))
        return done

    def _parent(self, index: int) -> int | None:
        entry = self._entry_of[index]
        if entry == SAME_LINE:
            return index - 1
        return self._message_above(entry) if entry != NONE else None

    def _message_above(self, slot: int, include: bool = False) -> int | None:
        """The last message of the nearest entry above the entry in `slot` (or that entry itself) that gave
        messages."""
        up, last = self._up, self._last
        seen: set[int] = set()
        node = slot if include else up[slot]
        while node != NONE and node not in seen:
            seen.add(node)
            if last[node] != NONE:
                return last[node]
            node = up[node]
        return None

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def end(self) -> Ended:
        """The parents a later entry changed, the forks, the branch that ends at the file's last line followed and
        the others aside (each noted on its first message, W-SESSION-FORK); the header with the session's totals."""
        amend = self.session.amend
        parents = self._given
        for index in range(len(parents)):
            parent = self._parent(index)
            found = NONE if parent is None else parent
            if found != parents[index]:
                parents[index] = found
                amend(index, _with_parent(parent))
        header = self.header | summed_totals(self._usage, self._responses, self._models)
        notes: list[Note] = []
        aside: set[int] = set()
        if self._entry != NONE and self._ids:  # else the linear layout: no branches
            forks, aside = _branches(parents, self._message_above(self._entry, include=True))
            forks = [fork for fork in forks if fork.parent == ROOT or fork.parent not in aside]
            if forks:
                header[FORKS_KEY] = [fork.to_json() for fork in forks]
            notes = [Note("W-SESSION-FORK", FORKED, branch) for fork in forks for branch in fork.branches
                     if branch in aside]
            for index in sorted(aside):
                amend(index, _aside)
        return Ended(self.session.with_unread(header), notes=notes, aside=frozenset(aside))


def _branches(parents: array, chosen: int | None) -> tuple[list[Fork], set[int]]:
    """The forks of the messages' tree (`parents` by index, NONE: none, `ROOT`'s children), and the messages aside
    when the reading follows the branches that lead to message `chosen` and elsewhere each fork's last branch
    (branches.py's `aside_for`, over arrays: a message's children are listed only at a fork)."""
    count = len(parents)
    children = array("i", bytes(4 * (count + 1)))  # by parent + 1: ROOT's first
    for parent in parents:
        children[parent + 1] += 1
    below: dict[int, list[int]] = {}
    for index, parent in enumerate(parents):
        if children[parent + 1] > 1:
            below.setdefault(parent, []).append(index)
    forks = [Fork(parent, tuple(branches)) for parent, branches in below.items()]
    if not forks:
        return forks, set()
    by_index = {index: (None if parent == NONE else parent) for index, parent in enumerate(parents)} \
        if any(parent >= index for index, parent in enumerate(parents)) else None
    if by_index is not None:  # a parent after its child: the general reading
        return forks, aside_for(forks, by_index, range(count), chosen=chosen)
    picked: dict[int, int] = {}
    branch_of = {branch: fork.parent for fork in forks for branch in fork.branches}
    node = chosen
    while node is not None:  # parents come before their children: no cycle
        if node in branch_of:
            picked[branch_of[node]] = node
        node = None if parents[node] == NONE else parents[node]
    heads = bytearray(count)
    for fork in forks:
        follow = picked.get(fork.parent)
        if follow not in fork.branches:
            follow = fork.branches[-1]
        for branch in fork.branches:
            if branch != follow:
                heads[branch] = 1
    for index, parent in enumerate(parents):  # below a branch left: aside too
        if not heads[index] and parent != NONE and heads[parent]:
            heads[index] = 1
    return forks, {index for index, flag in enumerate(heads) if flag}


def _aside(message: Message) -> Message:
    return replace_fields(message, aside=True)


def _with_parent(parent: int | None) -> Change:
    return lambda message: replace_fields(message, parent=parent)


def _details(body: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any] | None:
    found = {key: body[key] for key in keys if body.get(key) not in (None, "", {}, [])}
    return found or None


def _usage(value: Any) -> Usage | None:
    """A response's usage as pi records it: input without the cached tokens, and the cost it priced them at."""
    if not isinstance(value, dict):
        return None
    written = {name: value.get(key) for name, key in (("input", "input"), ("output", "output"),
                                                       ("cache_read", "cacheRead"), ("cache_write", "cacheWrite"))}
    counts = {name: count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
              for name, count in written.items()}
    cost = value.get("cost")
    total = cost.get("total") if isinstance(cost, dict) else cost
    total = float(total) if isinstance(total, (int, float)) and not isinstance(total, bool) else None
    return Usage(**counts, cost=total)


def _blocks(source: JsonObject) -> list[tuple[Any, tuple[int, int]]]:
    content = source.get("content")
    if isinstance(content, str):
        return [({"type": "text", "text": content}, source.span_of("content"))]
    if not isinstance(content, list):
        return []
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    return [(block, spans[at] if at < len(spans) else source.span_of("content")) for at, block in enumerate(content)]


def _user(source: JsonObject, session: Session) -> list[Draft]:
    found: list[Draft] = []
    for block, span in _blocks(source):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text" and isinstance(block.get("text"), str):
            text = block["text"]
            skill = SKILL.match(text)
            if skill is not None:
                found.append(_said("user", skill.group(0).strip(), span, intent="context"))
                text = text[skill.end():]
            if text.strip() or skill is None:
                found.append(_said("user", text.strip("\n"), span))
        elif kind in MEDIA_PARTS:
            found.append(_said("user", placeholder(kind, block), span))
        else:
            found.append(drafts.unclassified("user", kind, block, span, "W-JSON-UNKNOWN-PART",
                                             f"A content block {type_phrase(kind, block)}"))
    return found or [_said("user", "", source.span)]


def _assistant(source: JsonObject, session: Session) -> list[Draft]:
    found: list[Draft] = []
    for block, span in _blocks(source):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            piece = _said("assistant", block.get("text") if isinstance(block.get("text"), str) else "", span)
            if block.get("textSignature"):
                piece.problems.append(drafts.opaque_problem("text block", block["textSignature"], "textSignature",
                                                            span))
            found.append(piece)
        elif kind == "thinking":
            found.append(_thinking(block, span))
        elif kind == "toolCall":
            found.append(_call(block, span, session))
        elif kind in MEDIA_PARTS:
            found.append(_said("assistant", placeholder(kind, block), span))
        else:
            found.append(drafts.unclassified("assistant", kind, block, span, "W-JSON-UNKNOWN-PART",
                                             f"A content block {type_phrase(kind, block)}"))
    return found or [_said("assistant", "", source.span)]


def _thinking(block: dict[str, Any], span) -> Draft:
    signature = block.get("thinkingSignature")
    if block.get("redacted") is True:
        return drafts.opaque("assistant", "redacted thinking", signature or "", "thinkingSignature", span)
    text = block.get("thinking")
    piece = drafts.analysis("assistant", text if isinstance(text, str) else "", span)
    if signature:
        piece.problems.append(drafts.opaque_problem("thinking block", signature, "thinkingSignature", span))
    return piece


def _call(block: dict[str, Any], span, session: Session) -> Draft:
    name = block.get("name")
    recipient = qualified_tool_name(name) if isinstance(name, str) and name else None
    call_id = block.get("id") if isinstance(block.get("id"), str) else None
    arguments = block.get("arguments")
    piece = drafts.call(recipient, arguments if isinstance(arguments, str) else shown_json(arguments)
                        if arguments is not None else "", span, call_id)
    if recipient is None:
        piece.problems.append(Pending("W-JSON-SHAPE", "This tool call does not say which tool it calls.", span))
    if block.get("thoughtSignature"):
        piece.problems.append(drafts.opaque_problem("tool call", block["thoughtSignature"], "thoughtSignature", span))
    session.note_call(call_id, recipient)
    return piece


def _tool_result(source: JsonObject, session: Session) -> list[Draft]:
    call_id = source.get("toolCallId") if isinstance(source.get("toolCallId"), str) else None
    name = source.get("toolName")
    name = qualified_tool_name(name) if isinstance(name, str) and name else session.tool_named(call_id)
    piece = drafts.reply(name, flat_text(source.get("content")), source.span, call_id)
    if source.get("isError") is True:
        tool = f"The tool {name}" if name else "The tool"
        piece.problems.append(Pending("W-TOOL-ERROR", f"{tool} reported a failure (isError).", source.span))
    return [piece]


def _shell(source: JsonObject, session: Session) -> list[Draft]:
    """A command the user ran with `!` (`!!` keeps it from the model): the command as typed, its output hidden."""
    command = source.get("command") if isinstance(source.get("command"), str) else ""
    typed = ("!!" if source.get("excludeFromContext") is True else "!") + command
    output = source.get("output") if isinstance(source.get("output"), str) else flat_text(source.get("output"))
    code = source.get("exitCode")
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        output += f"\n\n(exit code {code})"
    if source.get("cancelled") is True:
        output += "\n\n(cancelled)"
    return [_said("user", typed, source.span_of("command")),
            _said("user", output, source.span_of("output"), intent="context", name="bash output")]


def _custom(source: JsonObject, session: Session) -> list[Draft]:
    kind = source.get("customType")
    return [_said("user", flat_text(source.get("content")), source.span, intent="context",
                  name=kind if isinstance(kind, str) and kind else "extension")]


def _said(role: str, text: str, span, intent: str | None = None, name: str | None = None) -> Draft:
    return Draft(dict(role=role, name=name, channel="final", content=text, intent=intent, end="end"), span)
