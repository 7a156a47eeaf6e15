"""Crush's per-project store (`<project>/.crush/crush.db`, SQLite, its migrations applied by pressly/goose), read as
a bundle (viewer/bundles/database.py), dialect `crush`.

- `sessions`: `id`, `parent_session_id`, `title`, `prompt_tokens`, `completion_tokens`, `cost`, `created_at`,
  `updated_at` (seconds), `summary_message_id`. A sub-agent's session (the `agent` or `agentic_fetch` tool) is
  named `<assistant message id>$$<tool call id>`; the title generator's `title-<session>` is not a conversation.
- `messages`: `session_id`, `role` (`user`, `assistant`, `tool`, `system`), `parts` (a list of `{"type", "data"}`:
  `text`, `reasoning` with its `thinking` and signatures, `image_url`, `binary`, `tool_call` whose `input` is a JSON
  string, `tool_result`, `finish` with the stop `reason`, `shell_command` the user ran), `model`, `provider`,
  `created_at`, `is_summary_message`.

Messages are read by `created_at`, then row order; each row is one turn. A tool result's `metadata` (what the
screen shows: diffs, the file) is the debug view's only. A compaction's summary, which the model read as the
user's, is injected context; a `canceled` finish is an interruption. A sub-agent's session is a thread started by
the call its id names.

Every row is accounted for (docs/architecture.md, "Nothing lost"): what a session's row says beside what is read
(its title as Crush wrote it, its todo list, its message count) is its header's `session`, the files it read (the
`read_files` table) its `read_files`, the versions of the files it wrote (the `files` table) its `files`, and the
title generator's exchange that titled it (its `title-<session>` row and that session's messages, as written) its
`title_generation`; what a message's row says beside its parts (its provider, when it finished) and a tool
result's `metadata` are the message's details. A row of no session the store holds is named as not read and kept
as written in the header's `unread`, as is a column no table here names.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.bundles import read_bundle
from viewer.model import Diagnostic, Meta, Transcript, Usage, make_diagnostic
from viewer.parse.agents.lines import Line, claims
from viewer.parse.agents.meta import NOTHING
from viewer.parse.agents.pieces import shown
from viewer.parse.agents.records import rest_details, text_of
from viewer.parse.agents.session import Session
from viewer.parse.agents.stores import (Sessions, call_with_id, decoded, item_spans, iso_time, kept_unread,
                                        not_a_database, owner, rows, table, unreadable)
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.fields import object_in
from viewer.parse.json.source import Draft, type_phrase
from viewer.parse.options import ParseOptions

TITLE_SESSION = "title-"
AGENT_SESSION = "$$"
ROLES = ("user", "assistant", "tool", "system")
SESSION_FACTS = ("title", "message_count", "updated_at", "todos")
SESSION_CLAIMS = claims("id", "parent_session_id", "prompt_tokens", "completion_tokens", "cost", "created_at",
                        "summary_message_id", *SESSION_FACTS)
"""What the reader reads of a session's row, and the facts it keeps in the header's `session`."""
FILE_TABLES = ("read_files", "files")
"""The tables of the files a session read and of the versions of those it wrote: kept, less the session's id, in its
header under their names."""
MESSAGE_DETAILS = ("provider", "updated_at", "finished_at")
MESSAGE_CLAIMS = claims("id", "session_id", "role", "parts", "model", "created_at", "is_summary_message",
                        *MESSAGE_DETAILS)
"""What it reads of a message's row (its parts by their kinds), and what it keeps in its first message's
details."""


def parse_crush(text: str, options: ParseOptions) -> Transcript:
    """Read a Crush store. Never raises on user input."""
    bundle = read_bundle(text)
    if bundle is None:
        return not_a_database("crush", text, "A Crush store is a SQLite database (crush.db)")
    problems: list[Diagnostic] = []
    sessions_member, messages_member = table(bundle, "sessions"), table(bundle, "messages")
    sessions = {line.get("id"): line for line in rows(text, sessions_member, problems)
                if isinstance(line.get("id"), str)}
    by_session: dict[Any, list[Line]] = {}
    for line in rows(text, messages_member, problems):
        by_session.setdefault(owner(line.get("session_id")), []).append(line)
    unread: list[dict[str, Any]] = []
    for id, lines in by_session.items():
        if id not in sessions:
            problems += [make_diagnostic("W-BUNDLE-MEMBER", line.span, "This message belongs to no session of the "
                                                                     f"store; it was not read ({KEPT}).")
                         for line in lines]
            unread += [kept_unread(line, "messages row") for line in lines]
    facts: dict[Any, dict[str, list[Line]]] = {}
    members = {name: table(bundle, name) for name in FILE_TABLES}
    for name, member in members.items():
        for line in rows(text, member, problems):
            facts.setdefault(owner(line.get("session_id")), {}).setdefault(name, []).append(line)
    titles = {id[len(TITLE_SESSION):]: session for id, session in sessions.items() if id.startswith(TITLE_SESSION)}
    read = Sessions()
    for id, session in sessions.items():
        if id.startswith(TITLE_SESSION):  # the title generator's exchange: Crush never shows it
            continue
        parent = session.get("parent_session_id") if isinstance(session.get("parent_session_id"), str) else None
        title = session.get("title") if isinstance(session.get("title"), str) and session.get("title") else None
        generated = titles.pop(id, None)
        kept: dict[str, Any] = {name: [{key: value for key, value in line.value.items() if key != "session_id"}
                                       for line in found] for name, found in facts.pop(id, {}).items()}
        if generated is not None:  # as written: the generator's session row and its messages' rows
            kept["title_generation"] = {"session": generated.value, "messages": [
                line.value for line in sorted(by_session.get(generated.get("id"), []), key=_created)]}
        read.add(id, _session(text, session, sorted(by_session.get(id, []), key=_created), kept), parent,
                 title if parent is None else _agent_title(title))
    for generated in titles.values():  # titles of sessions the store does not hold
        lines = [generated, *by_session.get(generated.get("id"), [])]
        problems += [make_diagnostic("W-BUNDLE-MEMBER", line.span, "The title generator's message for a session the "
                                                                 f"store does not hold; it was not read ({KEPT}).")
                     for line in lines]
        unread += [kept_unread(line, "sessions row" if line is generated else "messages row") for line in lines]
    for id, found in facts.items():  # files of sessions the store does not hold
        for name, lines in found.items():
            problems += [make_diagnostic("W-BUNDLE-MEMBER", line.span, f"This {name} row belongs to no session of "
                                                                     f"the store; it was not read ({KEPT}).")
                         for line in lines]
            unread += [kept_unread(line, f"{name} row") for line in lines]
    understood = [member for member in bundle.members if member.path.endswith(("#sqlite_schema", "#goose_db_version"))]
    return read.assembled("crush", text, bundle, _agent_call, read=[m for m in (sessions_member, messages_member,
                          *members.values()) if m is not None], understood=understood, problems=problems,
                          unread=unread)


KEPT = "it is kept as written in the header's unread"


def _created(line: Line) -> int:
    created = line.get("created_at")
    return created if isinstance(created, int) and not isinstance(created, bool) else 0


def _agent_title(title: str | None) -> str | None:
    return None if title in (None, "New Session", "Untitled Session", "New Agent Session") else title


def _agent_call(parent: Transcript, child: str) -> int | None:
    """A sub-agent session's id names its call: `<assistant message id>$$<tool call id>`."""
    _, found, call_id = child.partition(AGENT_SESSION)
    return call_with_id(parent, call_id) if found else None


def _session(text: str, session: Line, lines: list[Line], kept: dict[str, Any]) -> Transcript:
    builder = Session(text)
    builder.account(session, SESSION_CLAIMS, "sessions row")
    noted: dict[int, dict[str, Any]] = {}
    for line in lines:
        builder.account(line, MESSAGE_CLAIMS, "messages row")
        pieces = _pieces(line, builder)
        notes = [piece.fields.pop("details", None) for piece in pieces]
        first = len(builder.messages)
        builder.add_line(line, pieces, builder.next_turn())
        said = rest_details(line.value, MESSAGE_DETAILS, {}) or {}
        for offset, note in enumerate(notes):
            if note or said and offset == 0:
                noted[first + offset] = {**(said if offset == 0 else {}), **(note or {})}
    messages = []
    for message, line in zip(builder.messages, builder.lines):
        stop = _finish(decoded(line.get("parts")))
        meta = Meta(timestamp=iso_time(line.get("created_at")),
                    model=line.get("model") if isinstance(line.get("model"), str) and line.get("model") else None,
                    stop_reason=stop if message.role == "assistant" else None, details=noted.get(message.index))
        messages.append(message if meta == NOTHING else replace_fields(message, meta=meta))
    header = {"producer": "crush", "session_id": session.get("id"), "created": iso_time(session.get("created_at")),
              **_totals(session, messages), "session": rest_details(session.value, SESSION_FACTS, {}),
              **{name: kept.get(name) for name in (*FILE_TABLES, "title_generation")}}
    return Transcript(dialect="crush", source=text, messages=tuple(messages), diagnostics=tuple(builder.diagnostics),
                      header=builder.with_unread({key: value for key, value in header.items() if value is not None}),
                      frame=builder.frame([], builder.diagnostics))


def _finish(parts: Any) -> str | None:
    for part in parts if isinstance(parts, list) else ():
        data = part.get("data") if isinstance(part, dict) else None
        if part.get("type") == "finish" and isinstance(data, dict) and isinstance(data.get("reason"), str):
            return data["reason"]
    return None


def _pieces(line: Line, builder: Session) -> list[Draft]:
    parts = decoded(line.get("parts"))
    if not isinstance(parts, list):
        return [unreadable(line, "parts")]
    role = line.get("role") if line.get("role") in ROLES else "unknown"
    summary = line.get("is_summary_message") in (1, True)
    spans = item_spans(line, "parts")
    found = []
    for at, part in enumerate(parts):
        span = spans[at] if at < len(spans) else line.span
        for piece in _part(part, role, summary, span, builder):
            piece.span = span if len(parts) > 1 else None
            found.append(piece)
    return found


def _part(part: Any, role: str, summary: bool, span, builder: Session) -> list[Draft]:
    kind = part.get("type") if isinstance(part, dict) else None
    data = object_in(part, "data") if isinstance(part, dict) else {}
    if kind == "text" and isinstance(data.get("text"), str):
        if summary:  # what the model read as the user's message after a compaction
            return [Draft(dict(role="user", name="summary", channel="final", content=data["text"], end="end",
                               intent="context"), None)]
        return [Draft(dict(role=role if role != "tool" else "unknown", channel="final", content=data["text"],
                           end="end"), None)]
    if kind == "reasoning":
        piece = drafts.analysis(role, text_of(data.get("thinking")) or "", None)
        for key in ("signature", "thought_signature", "responses_data"):
            if data.get(key):
                piece.problems.append(drafts.opaque_problem("reasoning", data[key], key, span))
        return [piece]
    if kind == "tool_call":
        name = data.get("name") if isinstance(data.get("name"), str) else "tool"
        arguments = data.get("input")
        return [drafts.call(f"functions.{name}", arguments if isinstance(arguments, str) else shown_json(arguments),
                            None, data.get("id") if isinstance(data.get("id"), str) else None)]
    if kind == "tool_result":
        return [_result(data, span, builder)]
    if kind == "finish":
        return _finished(data, span)
    if kind == "shell_command":
        return _shell(data)
    if kind in ("image_url", "binary"):
        what = data.get("url") if kind == "image_url" else data.get("Path")
        return [Draft(dict(role=role, channel="final", content=f"[attachment: {what or kind}]", end="end"), None)]
    return [drafts.unclassified(role, kind, part, span, "W-JSON-UNKNOWN-PART", f"A part {type_phrase(kind, part)}")]


def _result(data: dict, span, builder: Session) -> Draft:
    call_id = data.get("tool_call_id") if isinstance(data.get("tool_call_id"), str) else None
    content = shown(data.get("content"))
    reply = drafts.reply(builder.tool_named(call_id) or (f"functions.{data['name']}" if isinstance(
        data.get("name"), str) else None), content, None, call_id)
    metadata = decoded(data.get("metadata")) if data.get("metadata") else None
    if metadata is not None:  # what Crush's screen shows of the result (a diff, the file), never the model's
        reply.fields["details"] = {"metadata": metadata}
    if data.get("is_error") is True:
        reply.problems.append(Pending("W-TOOL-ERROR", f"The tool reported a failure: {content[:200]}", span))
    return reply


def _finished(data: dict, span) -> list[Draft]:
    """A finish part is the response's stop reason (kept in the message's meta): no message; a cancel is an
    interruption, an error a hidden note."""
    reason = data.get("reason")
    if reason == "canceled":
        return [Draft(dict(role="system", name="interrupted", channel="final", content=str(data.get("message") or
                      "canceled"), end="end"), None, [Pending("W-SESSION-INTERRUPTED", "The user canceled Crush's "
                                                                                      "answer here.", span)])]
    if reason == "error":
        detail = " ".join(str(data.get(key) or "") for key in ("message", "details")).strip()
        return [Draft(dict(role="system", name="error", channel="final", content=detail or "error", end="end"), None)]
    return []


def _shell(data: dict) -> list[Draft]:
    """A command the user ran in Crush (`!cmd`): what they typed, and its output, which Crush puts in the
    conversation for the model (injected context)."""
    command = data.get("command") if isinstance(data.get("command"), str) else ""
    output = data.get("output") if isinstance(data.get("output"), str) else ""
    return [Draft(dict(role="user", channel="final", content=f"!{command}", end="end"), None),
            Draft(dict(role="user", name="shell", channel="final", content=output, end="end", intent="context"),
                  None)]


def _totals(session: Line, messages: list) -> dict[str, Any]:
    """The session's tokens and cost (Crush keeps totals only)."""
    prompt, completion, cost = (session.get(key) for key in ("prompt_tokens", "completion_tokens", "cost"))
    if not any(isinstance(value, (int, float)) and value for value in (prompt, completion, cost)):
        return {}
    usage = Usage(prompt if isinstance(prompt, int) else 0, completion if isinstance(completion, int) else 0,
                  cost=cost if isinstance(cost, float) else None)
    models = list(dict.fromkeys(m.meta.model for m in messages if m.meta is not None and m.meta.model))
    return {"usage": usage.to_json()} | ({"models": models} if models else {})
