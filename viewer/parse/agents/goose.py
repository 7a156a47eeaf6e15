"""Goose's session store (`~/.local/share/goose/sessions/sessions.db`, SQLite, schema versions up to 17), read as a
bundle (viewer/bundles/database.py: a table's rows are JSON lines), dialect `goose`.

- `sessions`: `id` (`YYYYMMDD_N`), `name` (the title), `session_type` (`user`, `scheduled`, `sub_agent`, `hidden`
  …), `working_dir`, `recipe_json` (a recipe's `instructions`: the system prompt it adds), `model_config_json`,
  `provider_name`, the last turn's and accumulated tokens and `accumulated_cost`, `parent_session_id` and
  `parent_delegation` (`parent_delegate_message_id`: the parent's message whose delegate call started it).
- `messages`: `session_id`, `role` (`user` or `assistant`), `content_json` (a list of `text`, `image`,
  `toolRequest`, `toolResponse`, `thinking`, `redactedThinking`, `systemNotification`, confirmation and
  frontend-tool items), `created_timestamp` (seconds), `metadata_json` (`userVisible`, `agentVisible`).

A session's messages are read in the app's order (`created_timestamp`, then row id), each row one turn. What
Goose sends the model and never shows (`userVisible` false: the `<turn-context>` it injects, a compaction's
summary) is injected context; a notification shown to the user alone is a hidden system message. Tool results
come back in `user` rows of `toolResponse` items, paired with their `toolRequest` by id; an MCP tool's content
carries an audience, and what the model read is the reply. A sub-agent session is a thread of its parent,
started by the call in the parent's delegating message; hidden sessions are not read.

Every row is accounted for (docs/architecture.md, "Nothing lost"): what a session's row says beside what is read
(its description, type, mode, extensions' data such as the todo list, the recipe's other fields, the model's
configuration, the last turn's tokens) is its header's `session`; the `usage_ledger`'s rows, each request's model,
tokens and cost, its header's `usage_ledger`; what a message's row says beside its content (its tokens, its
metadata) and what a tool's result showed the user alone are the message's details. A message whose session has
no row (or is one Goose keeps hidden) is named as not read and kept as written in the header's `unread`, with a
hidden session's row. A column no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.bundles import read_bundle
from viewer.model import Diagnostic, Meta, Span, Transcript, Usage
from viewer.parse.agents.lines import Line, claims
from viewer.parse.agents.meta import NOTHING
from viewer.parse.agents.records import rest_details
from viewer.parse.agents.session import Session
from viewer.parse.agents.stores import (Sessions, call_with_id, decoded, item_spans, iso_time, kept_unread,
                                        not_a_database, owner, rows, table, unreadable)
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.fields import object_in
from viewer.parse.json.media import placeholder
from viewer.parse.json.source import Draft, type_phrase
from viewer.parse.options import ParseOptions

HIDDEN_SESSIONS = ("hidden",)
"""Session types Goose itself never lists or shows (a terminal's background session is still the user's)."""
TABLES = ("sessions", "messages", "sqlite_schema")
SESSION_READ = ("id", "name", "working_dir", "recipe_json.instructions", "model_config_json.model_name",
                "provider_name", "created_at", "parent_session_id", "parent_delegation.parent_delegate_message_id",
                *(f"accumulated_{key}" for key in ("input_tokens", "output_tokens", "cache_read_tokens",
                                                   "cache_write_tokens", "total_tokens", "cost")))
"""What the reader reads of a session's row (the accumulated total is the sum of the counts read)."""
SESSION_FACTS = ("description", "user_set_name", "session_type", "updated_at", "extension_data", "total_tokens",
                 "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "schedule_id",
                 "recipe_json", "user_recipe_values_json", "model_config_json", "goose_mode", "archived_at",
                 "project_id", "parent_delegation")
"""The rest of a session's row that Goose writes (schema 17): kept in the header's `session`, less what is
read."""
SESSION_CLAIMS = claims(*SESSION_READ, *SESSION_FACTS)
MESSAGE_DETAILS = ("tokens", "metadata_json")
MESSAGE_CLAIMS = claims("id", "message_id", "session_id", "role", "content_json", "created_timestamp", "timestamp",
                        *MESSAGE_DETAILS)
"""What it reads of a message's row (`timestamp` is `created_timestamp` again, as SQLite's text); its tokens and
its metadata beside what is read are its first message's details."""
METADATA_READ = claims("metadata_json.userVisible", "metadata_json.agentVisible")


def parse_goose(text: str, options: ParseOptions) -> Transcript:
    """Read a Goose session store. Never raises on user input."""
    bundle = read_bundle(text)
    if bundle is None:
        return not_a_database("goose", text, "A Goose store is a SQLite database (sessions.db)")
    problems: list[Diagnostic] = []
    sessions_member, messages_member = table(bundle, "sessions"), table(bundle, "messages")
    every = [line for line in rows(text, sessions_member, problems) if isinstance(line.get("id"), str)]
    sessions = {line.get("id"): line for line in every if line.get("session_type") not in HIDDEN_SESSIONS}
    hidden = {line.get("id"): line for line in every if line.get("session_type") in HIDDEN_SESSIONS}
    by_session: dict[str, list[Line]] = {}
    for line in rows(text, messages_member, problems):
        by_session.setdefault(owner(line.get("session_id")), []).append(line)
    unread = [kept_unread(line, "sessions row") for line in hidden.values()]
    for id, orphan in ((id, lines) for id, lines in by_session.items() if id not in sessions):
        whose = "a session Goose keeps hidden" if id in hidden else "no session of the store"
        problems.extend(Pending("W-BUNDLE-MEMBER", f"This message belongs to {whose}; it was not read (it is kept "
                                                   "as written in the header's unread).", line.span).at(None)
                        for line in orphan)
        unread += [kept_unread(line, "messages row") for line in orphan]
    ledger: dict[str, list[dict[str, Any]]] = {}
    ledger_member = table(bundle, "usage_ledger")
    for line in rows(text, ledger_member, problems):
        kept = {key: value for key, value in line.value.items() if key not in ("id", "session_id")
                and value is not None}
        ledger.setdefault(owner(line.get("session_id")), []).append(kept)
    read, started_by = Sessions(), {}
    requests = _requests(line for lines in by_session.values() for line in lines)
    for id, session in sessions.items():
        delegation = decoded(session.get("parent_delegation"))
        delegated = delegation.get("parent_delegate_message_id") if isinstance(delegation, dict) else None
        started_by[id] = requests.get(delegated) if isinstance(delegated, str) else None  # requests' keys are ids
        parent = session.get("parent_session_id") if isinstance(session.get("parent_session_id"), str) else None
        title = session.get("name") if isinstance(session.get("name"), str) and session.get("name") else None
        read.add(id, _session(text, session, _ordered(by_session.get(id, [])), ledger.get(id)), parent, title)
    understood = [member for member in bundle.members if member.path.endswith(("#sqlite_schema", "#schema_version"))]
    return read.assembled("goose", text, bundle, lambda parent, child: call_with_id(parent, started_by.get(child)),
                          read=[m for m in (sessions_member, messages_member, ledger_member) if m is not None],
                          understood=understood, problems=problems, unread=unread)


def _ordered(lines: list[Line]) -> list[Line]:
    def key(line: Line) -> tuple:
        created = line.get("created_timestamp")
        return (created if isinstance(created, (int, float)) else 0, line.get("id") or 0)
    return sorted(lines, key=key)


def _session(text: str, session: Line, lines: list[Line], ledger: list[dict[str, Any]] | None) -> Transcript:
    builder = Session(text)
    builder.account(session, SESSION_CLAIMS, "sessions row")
    config = decoded(session.get("model_config_json"))
    model = config.get("model_name") if isinstance(config, dict) and isinstance(config.get("model_name"), str) else None
    recipe = decoded(session.get("recipe_json"))
    instructions = recipe.get("instructions") if isinstance(recipe, dict) else None
    if isinstance(instructions, str) and instructions:
        builder.add_line(session, [Draft(dict(role="system", name="recipe", channel="final", content=instructions,
                                              end="end"), None)], builder.next_turn())
    noted: dict[int, dict[str, Any]] = {}
    for line in lines:
        builder.account(line, MESSAGE_CLAIMS, "messages row")
        pieces = _pieces(line, builder)
        first = len(builder.messages)
        notes = [piece.fields.pop("details", None) for piece in pieces]
        builder.add_line(line, pieces, builder.next_turn())
        said = rest_details(line.value, MESSAGE_DETAILS, METADATA_READ)
        for offset, note in enumerate(notes):
            if note or said and offset == 0:
                noted[first + offset] = {**((said or {}) if offset == 0 else {}), **(note or {})}
    messages = []
    for message, line in zip(builder.messages, builder.lines):
        meta = Meta(timestamp=iso_time(line.get("created_timestamp")) if line is not session else None,
                    model=model if message.role == "assistant" else None, details=noted.get(message.index))
        messages.append(message if meta == NOTHING else replace_fields(message, meta=meta))
    header = {"producer": "goose", "session_id": session.get("id"), "cwd": session.get("working_dir"),
              "provider": session.get("provider_name"), "created": iso_time(session.get("created_at")),
              **_totals(session, model), "session": rest_details(session.value, SESSION_FACTS,
                                                                 claims(*SESSION_READ)),
              "usage_ledger": ledger}
    return Transcript(dialect="goose", source=text, messages=tuple(messages), diagnostics=tuple(builder.diagnostics),
                      header=builder.with_unread({key: value for key, value in header.items() if value is not None}),
                      frame=builder.frame([], builder.diagnostics))


def _pieces(line: Line, builder: Session) -> list[Draft]:
    content = decoded(line.get("content_json"))
    role = line.get("role") if line.get("role") in ("user", "assistant") else "unknown"
    if not isinstance(content, list):
        return [unreadable(line, "content_json")]
    metadata = decoded(line.get("metadata_json"))
    metadata = metadata if isinstance(metadata, dict) else {}
    injected = metadata.get("userVisible") is False and metadata.get("agentVisible") is not False
    spans = item_spans(line, "content_json") if len(content) > 1 else []
    found = []
    for at, item in enumerate(content):
        span = spans[at] if at < len(spans) else None
        for piece in _item(item, role, injected, span or line.span, builder):
            piece.span = span
            found.append(piece)
    return found


def _item(item: Any, role: str, injected: bool, span, builder: Session) -> list[Draft]:
    kind = item.get("type") if isinstance(item, dict) else None
    if kind == "text" and isinstance(item.get("text"), str):
        return [Draft(dict(role=role, channel="final", content=item["text"], end="end",
                           intent="context" if injected else None), None)]
    if kind == "thinking" or kind == "reasoning":
        piece = drafts.analysis(role, item.get("thinking") or item.get("text") or "", None)
        if item.get("signature"):
            piece.problems.append(drafts.opaque_problem("thinking", item["signature"], "signature", span))
        return [piece]
    if kind == "redactedThinking":
        return [drafts.opaque(role, "redacted thinking", item.get("data"), "data", span)]
    if kind in ("toolRequest", "frontendToolRequest"):
        return [_request(item, span)]
    if kind == "toolResponse":
        return [_response(item, span, builder)]
    if kind == "image":
        return [Draft(dict(role=role, channel="final", content=placeholder("image", item), end="end",
                           intent="context" if injected else None), None)]
    if kind == "systemNotification":
        piece = Draft(dict(role="system", name="notification", channel="final", content=str(item.get("msg", "")),
                           end="end"), None)
        if isinstance(item.get("notificationType"), str):
            piece.fields["details"] = {"notificationType": item["notificationType"]}
        return [piece]
    what = f"A content item {type_phrase(kind, item)}"
    return [drafts.unclassified(role, kind, item, span, "W-JSON-UNKNOWN-PART", what)]


def _request(item: dict, span: Span) -> Draft:
    call = object_in(item, "toolCall")
    value = object_in(call, "value")
    name = value.get("name")
    piece = drafts.call(tool_address(name if isinstance(name, str) else "tool"),
                        shown_json(value.get("arguments", {})), None,
                        item.get("id") if isinstance(item.get("id"), str) else None)
    if call.get("status") == "error":
        piece.problems.append(Pending("W-TOOL-ERROR", f"Goose could not read this tool call: "
                                                      f"{shown_json(call.get('error'))[:200]}", span))
    return piece


def tool_address(name: str) -> str:
    """An MCP extension's tool, which Goose names `<extension>__<tool>`, as `<extension>.<tool>`."""
    extension, _, tool = name.partition("__")
    return f"{extension}.{tool}" if extension and tool else f"functions.{name}"


def _response(item: dict, span: Span, builder: Session) -> Draft:
    call_id = item.get("id") if isinstance(item.get("id"), str) else None
    result = object_in(item, "toolResult")
    value = result.get("value")
    failed = result.get("status") == "error" or isinstance(value, dict) and value.get("isError") is True
    shown_to_user: list[Any] = []
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        text = _for_the_model(value["content"])
        shown_to_user = [part for part in value["content"] if isinstance(part, dict)
                         and isinstance(part.get("text"), str) and part["text"] not in text]
    else:
        error = result.get("error")
        text = error if isinstance(error, str) else shown_json(value)
    piece = drafts.reply(builder.tool_named(call_id), text, None, call_id)
    if shown_to_user:  # what the tool showed the user alone (an MCP result's `audience: ["user"]`)
        piece.fields["details"] = {"content": shown_to_user}
    if failed:
        piece.problems.append(Pending("W-TOOL-ERROR", f"The tool reported a failure: {text[:200]}", span))
    return piece


def _for_the_model(content: list) -> str:
    """An MCP result's text for the assistant (what the model read), else all of it."""
    texts = [(part["text"], (part.get("annotations") or {}).get("audience"))
             for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)]
    model = [text for text, audience in texts if not isinstance(audience, list) or "assistant" in audience]
    return "\n".join(model or [text for text, _ in texts])


def _requests(lines: Iterable[Line]) -> dict[str, str]:
    """Each message's last tool call id, by the message's `message_id`: a sub-agent's delegation names the
    message whose call started it."""
    found: dict[str, str] = {}
    for line in lines:
        content = decoded(line.get("content_json"))
        ids = [item["id"] for item in content if isinstance(item, dict) and item.get("type") == "toolRequest"
               and isinstance(item.get("id"), str)] if isinstance(content, list) else []
        message_id = line.get("message_id")
        if ids and isinstance(message_id, str):
            found[message_id] = ids[-1]
    return found


def _totals(session: Line, model: str | None) -> dict[str, Any]:
    """The session's accumulated tokens and cost, as the header's totals."""
    def number(key: str) -> int:
        value = session.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0
    if not any(number(f"accumulated_{key}_tokens") for key in ("input", "output")):
        return {}
    cost = session.get("accumulated_cost")
    usage = Usage(number("accumulated_input_tokens"), number("accumulated_output_tokens"),
                  number("accumulated_cache_read_tokens"), number("accumulated_cache_write_tokens"),
                  cost if isinstance(cost, float) else None)
    return {"usage": usage.to_json()} | ({"models": [model]} if model else {})
