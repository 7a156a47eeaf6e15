"""OpenCode's sessions, dialect `opencode`, in each of the three forms it keeps them:

- `opencode export [session]`: one JSON document, `{"info": Session, "messages": [{"info": Message, "parts":
  [Part, …]}]}`;
- the storage folder of releases up to 1.1 (`storage/session/<project>/<session>.json`,
  `storage/message/<session>/<message>.json`, `storage/part/<message>/<part>.json`), uploaded as a bundle;
- `opencode.db` of 1.2 and later (SQLite: tables `session`, `message` and `part`, whose `data` column holds the
  object without the ids its columns hold), read as a bundle (viewer/bundles/database.py).

Every form holds the same objects. A message is one model call (its `step-start` … `step-finish` parts), one turn;
its parts are read in id order: `text` (what the user typed, or the assistant's answer or preamble; `synthetic`
text is what OpenCode added for the model: the file an `@` mention pulled in), `reasoning` (its provider
`metadata` opaque), `tool` (the call, and from its `state` the reply: `completed` output or `error`), `file`
(an attachment), `compaction`, `retry`, `agent`, `subtask`, and the step, patch and snapshot bookkeeping (frame).
A user message's custom `system` prompt, a compaction's `summary` answer and an assistant's `error` are said as
such; tokens and cost are the assistant message's. A sub-agent's session (the `task` tool, which names it in its
`state.metadata.sessionId`) is a thread of its parent.

Every session, message and part is accounted for (docs/architecture.md, "Nothing lost"): what a session says
beside what is read (its slug, the lines it changed, its totals) is its header's `session`, its project (the
`project` file or table) its `project`; what a message says beside its text (its provider, mode, agent and
paths, when it completed, the rest of its error) and what a part says beside it (its times, a file's source, a
retry's attempt) are the details of its first message (the message's under `message`); a message's bookkeeping
parts (its steps' snapshots, tokens and cost, the files a step patched) the details of its last. A member no
table here names is kept in the header's `unread`; a message or part whose owner is not in the upload is named as
not read and kept there as written.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.bundles import read_bundle
from viewer.model import Diagnostic, Message, Meta, Span, Transcript, Usage, make_diagnostic
from viewer.parse.agents.lines import Claims, Line, claims, claims_by
from viewer.parse.agents.meta import NOTHING, usage_totals
from viewer.parse.agents.pieces import shown
from viewer.parse.agents.records import line_details, rest_details, text_of
from viewer.parse.agents.opencode_forms import Store, database_store, export_store, storage_store, task_calls
from viewer.parse.agents.session import Session
from viewer.parse.agents.stores import Sessions, iso_time, kept_unread, owner, table
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft, type_phrase
from viewer.parse.options import ParseOptions

QUIET_PARTS = ("step-start", "step-finish", "patch", "snapshot")
"""Parts that record the agent's bookkeeping (a model call's start and end, the files a step changed): frame."""
SESSION_READ = ("id", "directory", "title", "version", "time.created", "time_created", "parentID", "parent_id",
                "projectID", "project_id")
SESSION_FACTS = ("slug", "summary", "summary_additions", "summary_deletions", "summary_files", "time", "time_updated",
                 "agent", "model", "cost", "tokens_input", "tokens_output", "tokens_reasoning", "tokens_cache_read",
                 "tokens_cache_write", "share", "revert", "permission")
"""What a session says beside what is read (a database's row spells some of it in columns of its own)."""
MESSAGE_READ = ("id", "sessionID", "role", "time.created", "parentID", "modelID", "cost", "finish", "system",
                *(f"tokens.{key}" for key in ("input", "output", "reasoning", "cache.read", "cache.write")),
                "error.name", "error.data.message")
MESSAGE_FACTS = ("summary", "time", "providerID", "mode", "agent", "path", "model", "error", "tools")
"""What a message says beside what is read: its first message's details, less what is read (a compaction's
`summary: true` is read)."""
PART_READ = claims_by("type", {
    "text": ("text", "synthetic", "ignored"),
    "reasoning": ("text", "metadata"),
    "tool": ("callID", "tool", "state.status", "state.input", "state.output", "state.error", "state.title",
             "state.metadata", "state.time"),
    "file": ("filename", "url"),
    "compaction": ("auto",),
    "retry": ("error",),
    "agent": ("name",),
    "subtask": ("description",),
    **dict.fromkeys(QUIET_PARTS, ("*",)),
}, common=("id", "sessionID", "messageID", "type", "_message", "time", "mime", "source", "attempt", "prompt", "agent",
           "model", "command"))
"""What the reader reads of a part, by its type (a bookkeeping part is kept whole in details; `_message` is its
message, which the reader sets beside it)."""
PART_FACTS = ("time", "mime", "source", "attempt", "prompt", "agent", "model", "command")
"""What a part says beside that (claimed with the common paths above): its first message's details."""
def parse_opencode(text: str, options: ParseOptions) -> Transcript:
    """Read an OpenCode export, storage folder or database. Never raises on user input."""
    bundle = read_bundle(text)
    if bundle is None:  # no bundle: an export
        return _export(text)
    store = database_store(text, bundle) if table(bundle, "part") is not None else storage_store(text, bundle)
    sessions = _read(text, store)
    understood = [member for member in bundle.members if member.path.endswith("#sqlite_schema")]
    return sessions.assembled("opencode", text, bundle, task_calls(store), read=store.read, understood=understood,
                              problems=store.problems, unread=store.unread)


def _export(text: str) -> Transcript:
    """One session, as `opencode export` writes it."""
    store = export_store(text)
    if isinstance(store, Diagnostic):
        return Transcript(dialect="opencode", source=text, diagnostics=(store,))
    transcript = next(iter(_read(text, store).read.values()))
    title = next(iter(store.sessions.values())).get("title")
    header = {**transcript.header, **({"title": title} if isinstance(title, str) and title else {})}
    if store.unread:
        header["unread"] = [*header.get("unread", ()), *store.unread]
    return Transcript(dialect="opencode", source=text, messages=transcript.messages, header=header,
                      diagnostics=tuple(sorted((*transcript.diagnostics, *store.problems), key=lambda d: d.span)),
                      frame=transcript.frame)


def _read(text: str, store: Store) -> Sessions:
    sessions = Sessions()
    for id, info in store.sessions.items():
        parent = info.get("parentID") if isinstance(info.get("parentID"), str) else None
        title = info.get("title") if isinstance(info.get("title"), str) and info.get("title") else None
        sessions.add(id, _session(text, info, store), parent, title)
    known = set(store.sessions)
    for session, lines in store.messages.items():
        if session not in known:
            store.problems += [make_diagnostic("W-BUNDLE-MEMBER", line.span, "This message belongs to no session of "
                                                                              f"the upload; it was not read ({KEPT}).")
                               for line in lines]
            store.unread += [kept_unread(line, "message") for line in lines]
    messages = {owner(line.get("id")) for lines in store.messages.values() for line in lines}
    for message, lines in store.parts.items():
        if message not in messages:
            store.problems += [make_diagnostic("W-BUNDLE-MEMBER", line.span, "This part belongs to no message of "
                                                                              f"the upload; it was not read ({KEPT}).")
                               for line in lines]
            store.unread += [kept_unread(line, "part") for line in lines]
    return sessions


KEPT = "it is kept as written in the header's unread"


def _ordered(lines: list[Line]) -> list[Line]:
    def key(line: Line) -> tuple:
        time = line.get("time") if isinstance(line.get("time"), dict) else {}
        created = time.get("created")
        return (created if isinstance(created, (int, float)) else 0, str(line.get("id")))
    return sorted(lines, key=key)


def _session(text: str, info: Line, store: Store) -> Transcript:
    builder = Session(text)
    _account(builder, info, claims(*SESSION_READ, *SESSION_FACTS), "session", 1)
    quiet: list[Span] = []
    usages: dict[int, Usage] = {}
    models: list[str] = []
    noted: dict[int, dict[str, Any]] = {}
    counted = {"message": 0, "part": 0}
    for message in _ordered(store.messages.get(owner(info.get("id")), [])):
        turn = builder.next_turn()
        first = len(builder.messages)
        parts = sorted(store.parts.get(owner(message.get("id")), []), key=lambda part: str(part.get("id")))
        counted["message"] += 1
        _account(builder, message, claims(*MESSAGE_READ, *MESSAGE_FACTS), "message", counted["message"])
        bookkeeping: list[dict[str, Any]] = []
        for line, pieces in _message_pieces(message, parts, builder):
            if line is not message:
                counted["part"] += 1
                _account(builder, line, PART_READ(line), "part", counted["part"])
            said = rest_details(line.value, PART_FACTS, {}) if line is not message else None
            at = len(builder.messages)
            if pieces:
                builder.add_line(line, pieces, turn)
                if said:
                    noted[at] = {**noted.get(at, {}), **said}
            else:
                quiet.append(line.span)
                if line is not message and line.get("type") in QUIET_PARTS:
                    bookkeeping.append({key: value for key, value in line.value.items()
                                        if key not in ("id", "sessionID", "messageID", "_message")})
                elif said:
                    bookkeeping.append(said)
        if len(builder.messages) > first:
            owned = rest_details(message.value, MESSAGE_FACTS, claims(*MESSAGE_READ))
            if owned:
                noted[first] = {**noted.get(first, {}), "message": owned}
            if bookkeeping:
                last = len(builder.messages) - 1
                noted[last] = {**noted.get(last, {}), "parts": bookkeeping}
        usage = _usage(message.value)
        if usage is not None and len(builder.messages) > first:
            usages[len(builder.messages) - 1] = usage
        if isinstance(message.get("modelID"), str):
            models.append(message.get("modelID"))
    metas = _with_metas(builder, usages, noted)
    time = info.get("time") if isinstance(info.get("time"), dict) else {}
    project = info.get("projectID") or info.get("project_id")
    header = {"producer": "opencode", "session_id": info.get("id"), "cwd": info.get("directory"),
              "version": info.get("version"), "created": iso_time(time.get("created")),
              **usage_totals(usages.values(), models),
              "session": rest_details(info.value, SESSION_FACTS, claims(*SESSION_READ)),
              "project": store.projects.get(project) if isinstance(project, str) else None}
    return Transcript(dialect="opencode", source=text, messages=tuple(metas), diagnostics=tuple(builder.diagnostics),
                      header=builder.with_unread({key: value for key, value in header.items()
                                                  if isinstance(value, (str, dict, int, list))}),
                      frame=builder.frame(quiet, builder.diagnostics))


def _with_metas(builder: Session, usages: dict[int, Usage], noted: dict[int, dict[str, Any]]) -> list[Message]:
    """The session's messages with what their message object (a part's owner) recorded about each."""
    found = []
    for message, line in zip(builder.messages, builder.lines):
        owner = line.value.get("_message", line.value)
        time = owner.get("time") if isinstance(owner.get("time"), dict) else {}
        tool = line_details(line, ("state",), TOOL_DETAILS) if message.is_reply else None
        said = {**noted.get(message.index, {}), **(tool or {})} or None
        meta = Meta(timestamp=iso_time(time.get("created")), usage=usages.get(message.index),
                    model=owner.get("modelID") if message.role == "assistant" else None,
                    stop_reason=owner.get("finish") if usages.get(message.index) else None, details=said)
        found.append(message if meta == NOTHING else replace_fields(message, meta=meta))
    return found


def _account(builder: Session, line: Line, claimed: Claims, where: str, number: int) -> None:
    """The accounting rule for one object, numbered by its kind within the session (an export's objects and a
    folder's files have no line numbers of their own)."""
    builder.account(Line(number, line.span, line.value, line.text), claimed, where)



def _message_pieces(message: Line, parts: list[Line], builder: Session) -> Iterator[tuple[Line, list[Draft]]]:
    """Each line of a message (its own object, then its parts) with the messages it gives."""
    value = message.value
    role = value["role"] if value.get("role") in ("user", "assistant") else "unknown"
    said = []
    if isinstance(value.get("system"), str) and value["system"]:
        said.append(Draft(dict(role="system", name="system", channel="final", content=value["system"], end="end"),
                          None))
    error = value.get("error")
    if isinstance(error, dict):
        said.append(_error(error, message.span))
    yield message, said
    for part in parts:
        part.value = {**part.value, "_message": value}
        yield part, _part(part, role, value.get("summary") is True, builder)


def _error(error: dict, span: Span) -> Draft:
    name = error.get("name") if isinstance(error.get("name"), str) else "error"
    data = object_in(error, "data")
    said = data.get("message") if isinstance(data.get("message"), str) else shown_json(data)
    piece = Draft(dict(role="system", name="error", channel="final", content=f"{name}: {said}", end="end"), None)
    if name == "MessageAbortedError":
        piece.problems.append(Pending("W-SESSION-INTERRUPTED", "The user interrupted OpenCode here.", span))
    return piece


def _part(line: Line, role: str, summary: bool, builder: Session) -> list[Draft]:
    part = line.value
    kind = part.get("type")
    if kind in QUIET_PARTS:
        return []
    if kind == "text" and isinstance(part.get("text"), str):
        injected = part.get("synthetic") is True or part.get("ignored") is True or summary
        return [Draft(dict(role=role, channel="final", content=part["text"], end="end",
                           intent="context" if injected else None), None)]
    if kind == "reasoning":
        piece = drafts.analysis(role, text_of(part.get("text")) or "", None)
        if part.get("metadata"):
            piece.problems.append(drafts.opaque_problem("reasoning", part["metadata"], "metadata", line.span))
        return [piece]
    if kind == "tool":
        return _tool(part, line.span, builder)
    if kind == "file":
        name = part.get("filename") or part.get("url") or "file"
        return [Draft(dict(role=role, channel="final", content=f"[file: {name}]", end="end",
                           intent="context" if role == "user" else None), None)]
    if kind == "compaction":
        piece = Draft(dict(role="system", name="compaction", channel="final",
                           content="OpenCode compacted the conversation" + (" (automatically)" if part.get("auto")
                                                                            else ""), end="end"), None)
        piece.problems.append(Pending("W-SESSION-COMPACTED", "OpenCode compacted its context here: the summary that "
                                                             "follows replaced the history the model saw next.",
                                      line.span))
        return [piece]
    if kind == "retry":
        return [Draft(dict(role="system", name="retry", channel="final", content=shown_json(part.get("error")),
                           end="end"), None)]
    if kind in ("agent", "subtask"):
        what = part.get("name") or part.get("description") or kind
        return [Draft(dict(role="system", name=kind, channel="final", content=str(what), end="end"), None)]
    return [drafts.unclassified(role, kind, {k: v for k, v in part.items() if k != "_message"}, line.span,
                                "W-JSON-UNKNOWN-PART", f"A part {type_phrase(kind, part)}")]


TOOL_DETAILS = ("title", "metadata", "time")
"""What a tool part's state says beside its input and output: the UI's title of the call and the tool's own
metadata (an edit's diff, a sub-agent's session)."""


def _tool(part: dict, span: Span, builder: Session) -> list[Draft]:
    name = part.get("tool") if isinstance(part.get("tool"), str) else "tool"
    call_id = part.get("callID") if isinstance(part.get("callID"), str) else None
    state = object_in(part, "state")
    address = f"functions.{name}"
    found = [drafts.call(address, shown_json(state.get("input", {})), None, call_id)]
    status = state.get("status")
    if status == "completed":
        output = state.get("output")
        found.append(drafts.reply(address, output if isinstance(output, str) else shown_json(output), None, call_id))
    elif status == "error":
        error = shown(state.get("error"))
        reply = drafts.reply(address, error, None, call_id)
        metadata = object_in(state, "metadata")
        reply.problems.append(Pending("W-SESSION-INTERRUPTED" if metadata.get("interrupted") else "W-TOOL-ERROR",
                                      f"The tool {name} " + ("was interrupted." if metadata.get("interrupted")
                                                             else f"reported an error: {error[:200]}"), span))
        found.append(reply)
    return found


def _usage(message: dict) -> Usage | None:
    tokens = message.get("tokens")
    if message.get("role") != "assistant" or not isinstance(tokens, dict):
        return None
    cache = object_in(tokens, "cache")

    def count(value: Any) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) else 0
    cost = message.get("cost")
    return Usage(count(tokens.get("input")), count(tokens.get("output")) + count(tokens.get("reasoning")),
                 count(cache.get("read")), count(cache.get("write")),
                 float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None)
