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
"""
from __future__ import annotations

import re
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.branches import FORKS_KEY, ROOT, Fork, aside_for, children_of
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Claims, Line, claims_by, read_lines
from viewer.parse.agents.meta import NOTHING, between, usage_totals
from viewer.parse.agents.session import Session
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
    with collector_paused:  # see viewer/model/collector.py
        lines, unreadable = read_lines(text)
        session = Session(text)
        reader = _Reader(session)
        for line in session.accounted(lines, _claims):
            reader.line(line)
        messages, header = reader.finished()
        header = session.with_unread(header)
        diagnostics = [*unreadable, *session.diagnostics]
        return Transcript(dialect=DIALECT, source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=header, frame=session.frame(reader.quiet, diagnostics))


def _claims(line: Line) -> Claims:
    return MESSAGE_CLAIMS(line) if line.get("type") == "message" else LINE_CLAIMS(line)


class _Reader:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.header: dict[str, Any] = {"producer": DIALECT, "agent": "pi"}
        self.quiet: list[tuple[int, int]] = []
        self.parents: dict[str, str | None] = {}
        """Entry id -> the id of the entry it follows (every entry, messages or not)."""
        self.entries: list[str] = []
        """Entry ids in file order."""
        self.entry_of: dict[int, str] = {}
        """Line number -> its entry id."""
        self.model: str | None = None

    def line(self, line: Line) -> None:
        kind = line.get("type")
        if kind == "session" and not self.entries and "session_id" not in self.header:
            self._session(line)
            return
        self._place(line)
        if kind == "message":
            self._message(line)
        elif kind in CONTEXT_LINES:
            self._context(line, kind)
        elif kind in QUIET:
            if kind == "model_change" and isinstance(line.get("modelId"), str):
                self.model = line.get("modelId")
            if kind == "session_info" and isinstance(line.get("name"), str) and line.get("name").strip():
                self.header["title"] = line.get("name").strip()
            self.quiet.append(line.span)
        else:
            what = f"A line {type_phrase(kind, line.value)}"
            self.session.shown_whole(line)
            self._add(line, [drafts.unclassified("unknown", kind, line.value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                 what)])

    def _session(self, line: Line) -> None:
        value = line.value
        for key, name in (("id", "session_id"), ("cwd", "cwd"), ("timestamp", "started"),
                          ("parentSession", "parent_session"), ("branchedFrom", "parent_session"),
                          ("provider", "provider"), ("thinkingLevel", "thinking_level")):
            if isinstance(value.get(key), str) and value[key]:
                self.header.setdefault(name, value[key])
        if isinstance(value.get("version"), int):
            self.header["layout"] = value["version"]
        self.model = next((value[key] for key in ("modelId", "model") if isinstance(value.get(key), str)), None)
        prompt = value.get("systemPrompt")
        if isinstance(prompt, str) and prompt:
            self._add(line, [Draft(dict(role="system", channel="final", content=prompt, end="end"), None)])
        else:
            self.quiet.append(line.span)

    def _place(self, line: Line) -> None:
        """The entry's place in the tree: its id and its parent's (the layout 1 has none: each entry follows the
        one before)."""
        entry = line.get("id") if isinstance(line.get("id"), str) else f"line {line.number}"
        parent = line.get("parentId") if "id" in line.value else (self.entries[-1] if self.entries else None)
        self.parents[entry] = parent if isinstance(parent, str) else None
        self.entries.append(entry)
        self.entry_of[line.number] = entry

    def _message(self, line: Line) -> None:
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
            self._add(line, [drafts.unclassified("unknown", role, body, line.span, "W-JSON-UNKNOWN-ITEM", what)])
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
        self._add(line, found, problems)

    def _context(self, line: Line, kind: str) -> None:
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
        self._add(line, [piece], problems)

    def _add(self, line: Line, found: list[Draft], problems=()) -> None:
        self.session.add_line(line, found, self.session.next_turn(), problems)

    def finished(self) -> tuple[tuple[Message, ...], dict[str, Any]]:
        """The messages with their metadata, parents and branches; the header with the session's totals."""
        session = self.session
        messages, lines = session.messages, session.lines
        parents, aside, forks = self._tree(messages, lines)
        called: dict[str, str] = {}
        usages: list[Usage] = []
        models: dict[str, None] = {}
        done = []
        for index, (message, line) in enumerate(zip(messages, lines)):
            timestamp = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
            body = line.get("message") if isinstance(line.get("message"), dict) else {}
            said = body.get("role") == "assistant"
            last_of_line = index + 1 == len(lines) or lines[index + 1] is not line
            usage = _usage(body.get("usage")) if said and last_of_line else None
            if usage is not None:
                usages.append(usage)
            model = body.get("model") if said and isinstance(body.get("model"), str) else None
            if model:
                models[model] = None
            if message.is_call and message.call_id and timestamp:
                called.setdefault(message.call_id, timestamp)
            duration = between(called.get(message.call_id), timestamp) if message.is_reply and message.call_id \
                else None
            stop = body.get("stopReason") if said and isinstance(body.get("stopReason"), str) else None
            meta = Meta(timestamp=timestamp, model=model, stop_reason=stop, usage=usage, duration_ms=duration,
                        details=_details(body, ASSISTANT_DETAILS if said and last_of_line else
                                         RESULT_DETAILS if message.is_reply else ()))
            done.append(replace_fields(message, meta=None if meta == NOTHING else meta, parent=parents.get(index),
                                       aside=index in aside))
        header = self.header | usage_totals(usages, models)
        if forks:
            header[FORKS_KEY] = [fork.to_json() for fork in forks]
        for fork in forks:
            for branch in fork.branches:
                if branch in aside:
                    session.diagnostics.append(make_diagnostic(
                        "W-SESSION-FORK", messages[branch].span,
                        "The session branches here (pi's /tree went back to an earlier point): this branch was "
                        "left for another; its messages are kept, hidden from the default view, which follows the "
                        "branch that ends at the file's last line.", branch))
        return tuple(done), header

    def _tree(self, messages, lines) -> tuple[dict[int, int], set[int], list[Fork]]:
        """Each message's parent (the last message of the nearest entry above it that gave messages), the
        messages off the branch that ends at the last entry, and the forks on the way."""
        last: dict[str, int] = {}
        for index, line in enumerate(lines):
            entry = self.entry_of.get(line.number)
            if entry is not None:
                last[entry] = index
        parents: dict[int, int] = {}
        for index, line in enumerate(lines):
            entry = self.entry_of.get(line.number)
            if index > 0 and lines[index - 1] is line:
                parents[index] = index - 1
            elif entry is not None:
                above = self._message_above(entry, last)
                if above is not None:
                    parents[index] = above
        if not self.entries or not any("id" in line.value for line in lines):
            return parents, set(), []  # the linear layout: no branches
        chosen = self._message_above(self.entries[-1], last, include=True)
        children = children_of(parents, range(len(messages)))
        forks = [Fork(parent, tuple(below)) for parent, below in children.items() if len(below) > 1]
        aside = aside_for(forks, parents, range(len(messages)), chosen=chosen)
        return parents, aside, [fork for fork in forks if fork.parent == ROOT or fork.parent not in aside]

    def _message_above(self, entry: str, last: dict[str, int], include: bool = False) -> int | None:
        """The last message of the nearest entry above `entry` (or `entry` itself) that gave messages."""
        seen: set[str] = set()
        node = entry if include else self.parents.get(entry)
        while node is not None and node not in seen:
            seen.add(node)
            if node in last:
                return last[node]
            node = self.parents.get(node)
        return None


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
