"""Small agent stores (Goose, Crush, OpenCode, Cursor) made of a list of kinds of event, with a canary in every
part the default view hides: for the leak test (tests/system/test_leaks.py) and the property tests of each store's
reader (tests/parse/agents/test_store_canaries.py). The shown parts say `SHOWN-<n>`.

Kinds: `typed` (the user's text), `answer`, `thinking`, `call` (a tool call and its result), `injected` (context
the agent adds), `subagent` (a sub-agent's whole conversation), `system` (a system prompt, where the store keeps
one), `unknown` (a part of a type no reader knows). Each database is made in memory and serialized."""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

Canary = Callable[[str], str]
Shown = Callable[[int], str]
"""The text of the n-th event, when it is shown."""
KINDS = ("typed", "answer", "thinking", "call", "injected", "subagent", "system", "unknown")
T0 = 1774084442


def _database(schema: str, rows: list[tuple[str, tuple]]) -> bytes:
    """The rows inserted last first: SQLite fills a page from its end, so the first event's text comes first in the
    file, as in the other dialects' canary transcripts (the leak test looks for the first canary on the first page
    of the debug view). Every reader orders by the times the rows record, not by where they are."""
    connection = sqlite3.connect(":memory:")
    connection.executescript(schema)
    for statement, values in reversed(rows):
        connection.execute(statement, values)
    connection.commit()
    data = connection.serialize()
    connection.close()
    return data


def goose(kinds: Sequence[str], c: Canary, shown: Shown = "SHOWN-{}".format) -> bytes:
    schema = """CREATE TABLE schema_version (version INTEGER PRIMARY KEY);
        CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, session_type TEXT, working_dir TEXT, recipe_json TEXT,
                               parent_session_id TEXT, parent_delegation TEXT, created_at TEXT);
        CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT, session_id TEXT, role TEXT,
                               content_json TEXT, created_timestamp INTEGER, metadata_json TEXT);"""
    recipe = json.dumps({"instructions": c("system")}) if "system" in kinds else None
    rows = [("INSERT INTO schema_version VALUES (17)", ()),
            ("INSERT INTO sessions VALUES ('s1', 'A title', 'user', '/w', ?, NULL, NULL, '2026-03-21 09:00:00')",
             (recipe,))]
    visible, injected = json.dumps({"userVisible": True, "agentVisible": True}), json.dumps(
        {"userVisible": False, "agentVisible": True})

    def said(session, number, role, items, metadata=visible):
        rows.append(("INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, "
                     "metadata_json) VALUES (?, ?, ?, ?, ?, ?)",
                     (f"m{session}{number}", session, role, json.dumps(items), T0 + len(rows), metadata)))
    for number, kind in enumerate(kinds):
        text = lambda value: {"type": "text", "text": value}  # noqa: E731
        if kind == "typed":
            said("s1", number, "user", [text(shown(number))])
        elif kind == "answer":
            said("s1", number, "assistant", [text(shown(number))])
        elif kind == "thinking":
            said("s1", number, "assistant", [{"type": "thinking", "thinking": c("analysis"), "signature": "c2ln"}])
        elif kind in ("call", "subagent"):
            said("s1", number, "assistant", [{"type": "toolRequest", "id": f"t{number}", "toolCall": {
                "status": "success", "value": {"name": "developer__shell", "arguments": {"command": f"make\n{c('arguments')}"}}}}])
            said("s1", number, "user", [{"type": "toolResponse", "id": f"t{number}", "toolResult": {
                "status": "success", "value": {"content": [{"type": "text", "text": c("reply")}]}}}])
            if kind == "subagent":
                child = f"sub{number}"
                rows.append(("INSERT INTO sessions VALUES (?, 'agent', 'sub_agent', '/w', NULL, 's1', ?, NULL)",
                             (child, json.dumps({"parent_delegate_message_id": f"ms1{number}"}))))
                said(child, number, "user", [text(c("subagent"))])
                said(child, number, "assistant", [text(c("subagent-answer"))])
        elif kind == "injected":
            said("s1", number, "user", [text(c("context"))], injected)
        elif kind == "unknown":
            said("s1", number, "assistant", [{"type": "mystery", "payload": c("unknown")}])
    return _database(schema, rows)


def crush(kinds: Sequence[str], c: Canary, shown: Shown = "SHOWN-{}".format) -> bytes:
    schema = """CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY, version_id INTEGER, is_applied INTEGER);
        CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, prompt_tokens INTEGER,
                               completion_tokens INTEGER, cost REAL, updated_at INTEGER, created_at INTEGER);
        CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT,
                               created_at INTEGER, is_summary_message INTEGER DEFAULT 0);"""
    rows = [("INSERT INTO goose_db_version VALUES (1, 20250424200609, 1)", ()),
            ("INSERT INTO sessions VALUES ('s1', NULL, 'A title', 10, 5, 0.01, ?, ?)", (T0, T0))]

    def said(session, id, role, parts, summary=0):
        rows.append(("INSERT INTO messages VALUES (?, ?, ?, ?, 'm', ?, ?)",
                     (id, session, role, json.dumps(parts), T0 + len(rows), summary)))
    part = lambda kind, **data: {"type": kind, "data": data}  # noqa: E731
    for number, kind in enumerate(kinds):
        if kind == "typed":
            said("s1", f"u{number}", "user", [part("text", text=shown(number)), part("finish", reason="stop")])
        elif kind == "answer":
            said("s1", f"a{number}", "assistant", [part("text", text=shown(number)),
                                                   part("finish", reason="end_turn")])
        elif kind == "thinking":
            said("s1", f"a{number}", "assistant", [part("reasoning", thinking=c("analysis"), signature="c2ln")])
        elif kind in ("call", "subagent"):
            said("s1", f"a{number}", "assistant", [part("tool_call", id=f"t{number}", name="agent" if kind ==
                                                        "subagent" else "bash", input=json.dumps({"c": c("arguments")}))])
            said("s1", f"r{number}", "tool", [part("tool_result", tool_call_id=f"t{number}", name="bash",
                                                   content=c("reply"), metadata=json.dumps({"ui": c("metadata")}))])
            if kind == "subagent":
                child = f"a{number}$$t{number}"
                rows.append(("INSERT INTO sessions VALUES (?, 's1', 'New Agent Session', 0, 0, 0, ?, ?)",
                             (child, T0, T0)))
                said(child, f"su{number}", "user", [part("text", text=c("subagent"))])
                said(child, f"sa{number}", "assistant", [part("text", text=c("subagent-answer"))])
        elif kind == "injected":
            said("s1", f"y{number}", "assistant", [part("text", text=c("summary"))], summary=1)
        elif kind == "system":  # Crush keeps no system prompt: its title generator's exchange, never a conversation
            rows.append(("INSERT OR IGNORE INTO sessions VALUES ('title-s1', 's1', 'x', 0, 0, 0, ?, ?)", (T0, T0)))
            said("title-s1", f"g{number}", "user", [part("text", text=c("title-prompt"))])
        elif kind == "unknown":
            said("s1", f"x{number}", "assistant", [part("mystery", payload=c("unknown"))])
    return _database(schema, rows)


def _opencode_events(kinds: Sequence[str], c: Canary, shown: Shown) -> tuple[list[dict], list[tuple[dict, list]]]:
    """OpenCode's sessions, and its messages each with their parts, in the order they were written."""
    sessions = [{"id": "ses_1", "title": "A title", "directory": "/w", "version": "1.2.17", "parentID": None}]
    messages: list[tuple[dict, list]] = []

    def message(session, id, role, parts, **extra):
        at = (T0 + len(messages)) * 1000
        messages.append(({"id": id, "sessionID": session, "role": role, "time": {"created": at}, **extra},
                         [{"id": f"prt_{id}_{n}", "messageID": id, "sessionID": session, **part}
                          for n, part in enumerate(parts)]))
    for number, kind in enumerate(kinds):
        id = f"msg_{number:04d}"
        if kind == "typed":
            message("ses_1", id, "user", [{"type": "text", "text": shown(number)}])
        elif kind == "answer":
            message("ses_1", id, "assistant", [{"type": "text", "text": shown(number)}], finish="stop")
        elif kind == "thinking":
            message("ses_1", id, "assistant", [{"type": "reasoning", "text": c("analysis"),
                                                "metadata": {"anthropic": {"signature": "c2ln"}}}])
        elif kind in ("call", "subagent"):
            state = {"status": "completed", "input": {"c": c("arguments")}, "output": c("reply"),
                     "metadata": {"sessionId": f"ses_sub{number}"} if kind == "subagent" else {"out": c("metadata")}}
            message("ses_1", id, "assistant", [{"type": "tool", "callID": f"t{number}", "tool": "task" if kind ==
                                                "subagent" else "bash", "state": state}])
            if kind == "subagent":
                sessions.append({"id": f"ses_sub{number}", "title": "sub", "directory": "/w", "version": "1.2.17",
                                 "parentID": "ses_1"})
                message(f"ses_sub{number}", f"msg_s{number}", "user", [{"type": "text", "text": c("subagent")}])
                message(f"ses_sub{number}", f"msg_t{number}", "assistant", [{"type": "text",
                                                                              "text": c("subagent-answer")}])
        elif kind == "injected":
            message("ses_1", id, "user", [{"type": "text", "text": c("context"), "synthetic": True}])
        elif kind == "system":
            message("ses_1", id, "user", [], system=c("system"))
        elif kind == "unknown":
            message("ses_1", id, "assistant", [{"type": "mystery", "payload": c("unknown")}])
    return sessions, messages


def opencode(kinds: Sequence[str], c: Canary, shown: Shown = "SHOWN-{}".format) -> bytes:
    """OpenCode's `opencode.db`."""
    schema = """CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT,
                                      title TEXT, version TEXT, time_created INTEGER, time_updated INTEGER);
        CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER,
                              data TEXT);
        CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER,
                           time_updated INTEGER, data TEXT);"""
    sessions, messages = _opencode_events(kinds, c, shown)
    rows = [("INSERT INTO session VALUES (?, 'p', ?, 's', ?, ?, ?, ?, ?)",
             (s["id"], s["parentID"], s["directory"], s["title"], s["version"], T0 * 1000, T0 * 1000))
            for s in sessions]
    for info, parts in messages:
        at = info["time"]["created"]
        data = {key: value for key, value in info.items() if key not in ("id", "sessionID")}
        rows.append(("INSERT INTO message VALUES (?, ?, ?, ?, ?)", (info["id"], info["sessionID"], at, at,
                                                                    json.dumps(data))))
        rows += [("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", (part["id"], info["id"], info["sessionID"], at, at,
                  json.dumps({k: v for k, v in part.items() if k not in ("id", "messageID", "sessionID")})))
                 for part in parts]
    return _database(schema, rows)


def opencode_export(kinds: Sequence[str], c: Canary, shown: Shown = "SHOWN-{}".format) -> str:
    """`opencode export` of the main session (its sub-agents' sessions are exports of their own)."""
    sessions, messages = _opencode_events(kinds, c, shown)
    return json.dumps({"info": sessions[0], "messages": [{"info": info, "parts": parts} for info, parts in messages
                                                          if info["sessionID"] == "ses_1"]}, indent=2)


def cursor(kinds: Sequence[str], c: Canary, shown: Shown = "SHOWN-{}".format) -> bytes:
    schema = """CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
        CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);"""
    chats: dict[str, list[dict]] = {"c1": []}
    context: list[tuple[str, str]] = []
    subs: list[str] = []
    for number, kind in enumerate(kinds):
        bubble = {"bubbleId": f"b{number}", "type": 2, "createdAt": "2026-08-03T14:20:02.417Z", "text": ""}
        if kind == "typed":
            chats["c1"].append({**bubble, "type": 1, "text": shown(number)})
        elif kind == "answer":
            chats["c1"].append({**bubble, "text": shown(number)})
        elif kind == "thinking":
            chats["c1"].append({**bubble, "thinking": {"text": c("analysis"), "signature": "c2ln"}})
        elif kind in ("call", "subagent"):
            sub = f"sub{number}"
            chats["c1"].append({**bubble, "toolFormerData": {
                "name": "task_v2" if kind == "subagent" else "run_terminal_command_v2", "toolCallId": f"t{number}",
                "status": "completed", "rawArgs": json.dumps({"c": c("arguments")}),
                "params": json.dumps({"subComposerId": sub} if kind == "subagent" else {"c": c("arguments")}),
                "result": json.dumps({"output": c("reply")})}})
            if kind == "subagent":
                subs.append(sub)
                chats[sub] = [{"bubbleId": "s0", "type": 1, "text": c("subagent")},
                              {"bubbleId": "s1", "type": 2, "text": c("subagent-answer")}]
        elif kind == "injected":
            typed = next((b["bubbleId"] for b in reversed(chats["c1"]) if b["type"] == 1), None)
            if typed is not None:
                context.append((f"messageRequestContext:c1:{typed}", json.dumps({"cursorRules": [c("context")]})))
        elif kind == "system":
            context.append((f"checkpointId:c1:x{number}", json.dumps({"files": [c("checkpoint")]})))
        elif kind == "unknown":
            chats["c1"].append({**bubble, "type": 7, "text": c("unknown")})
    rows = [("INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', ?)", (c("token"),))]
    for chat, bubbles in chats.items():
        composer = {"composerId": chat, "name": "A title", "createdAt": T0 * 1000,
                    "fullConversationHeadersOnly": [{"bubbleId": b["bubbleId"], "type": b["type"]} for b in bubbles],
                    "subComposerIds": subs if chat == "c1" else []}
        rows.append(("INSERT INTO cursorDiskKV VALUES (?, ?)", (f"composerData:{chat}", json.dumps(composer))))
        for b in bubbles:  # each bubble, then the context sent with it
            rows.append(("INSERT INTO cursorDiskKV VALUES (?, ?)", (f"bubbleId:{chat}:{b['bubbleId']}", json.dumps(b))))
            rows += [("INSERT INTO cursorDiskKV VALUES (?, ?)", pair) for pair in context
                     if chat == "c1" and pair[0].endswith(f":{b['bubbleId']}")]
    rows += [("INSERT INTO cursorDiskKV VALUES (?, ?)", pair) for pair in context
             if not pair[0].startswith("messageRequestContext:")]
    return _database(schema, rows)


BUILDERS = {"goose": goose, "crush": crush, "opencode": opencode, "cursor": cursor}
