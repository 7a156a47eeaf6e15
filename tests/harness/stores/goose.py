"""Build two Goose session stores with the real schema (goose schema version 17, as
`SessionStorage::create_schema` in crates/goose/src/session/session_manager.rs creates it):

- `sessions.db`: a user session fixing a rounding bug (text, thinking, tool requests and their
  responses with audience annotations, a failed tool call, an agent-only injected message, a
  compaction that keeps the old messages invisible, a user-only notification) and the sub-agent
  session it delegated to (`session_type = 'sub_agent'`, `parent_session_id`,
  `parent_delegation`), plus `usage_ledger` rows.
- `sessions-broken.db`: the same schema with a message whose `content_json` was cut short and a
  message that belongs to no session.

Usage: python3 make_goose.py [output-dir]   (default: the current directory)
Only the standard library is used. Goose itself keeps the file at
~/.local/share/goose/sessions/sessions.db.
"""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

SCHEMA_VERSION = 17

SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    accumulated_cache_read_tokens INTEGER,
    accumulated_cache_write_tokens INTEGER,
    accumulated_cost REAL,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT,
    provider_name TEXT,
    model_config_json TEXT,
    goose_mode TEXT NOT NULL DEFAULT 'auto',
    archived_at TIMESTAMP,
    project_id TEXT,
    parent_session_id TEXT,
    parent_delegation TEXT
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE TABLE IF NOT EXISTS usage_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_timestamp INTEGER NOT NULL,
    model TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    total_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    cost REAL,
    cost_source TEXT,
    is_compaction INTEGER DEFAULT 0
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id);
CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id);
CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id);
CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id);
"""

MAIN = "20260321_4"
CHILD = "20260321_5"
CWD = "/home/ada/code/shop"
VISIBLE = {"userVisible": True, "agentVisible": True}
AGENT_ONLY = {"userVisible": False, "agentVisible": True}
USER_ONLY = {"userVisible": True, "agentVisible": False}
ARCHIVED = {"userVisible": False, "agentVisible": False}


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def tool_request(call_id: str, name: str, arguments: dict) -> dict:
    return {"type": "toolRequest", "id": call_id,
            "toolCall": {"status": "success", "value": {"name": name, "arguments": arguments}}}


def tool_response(call_id: str, for_model: str, for_user: str, is_error: bool = False) -> dict:
    """Goose's developer tools answer twice: one text for the model, one for the screen."""
    return {"type": "toolResponse", "id": call_id,
            "toolResult": {"status": "success", "value": {
                "content": [
                    {"type": "text", "text": for_model, "annotations": {"audience": ["assistant"]}},
                    {"type": "text", "text": for_user, "annotations": {"audience": ["user"], "priority": 0.0}},
                ],
                "isError": is_error}}}


def tool_failure(call_id: str, error: str) -> dict:
    return {"type": "toolResponse", "id": call_id, "toolResult": {"status": "error", "error": error}}


MAIN_MESSAGES = [
    # (message_id, role, content, created_timestamp, metadata)
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000001", "user",
     [text("vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding")],
     1774084442, VISIBLE),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000002", "user",
     [text("<turn-context>\nworking directory: /home/ada/code/shop\ndatetime: 2026-03-21 09:14:02 UTC\n"
           "CANARY-ENV-GOOSE-4H7 open editors: shop/rates.py\n</turn-context>")],
     1774084442, AGENT_ONLY),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000003", "assistant",
     [{"type": "thinking", "thinking": "CANARY-THINK-GOOSE-8V2 float times 0.2 is inexact; read the file.",
       "signature": "EqQBCkYICxgCKkBnb29zZS1zaWduYXR1cmU="},
      text("Let me look at the rates module."),
      tool_request("toolu_01GooseView0001", "developer__text_editor",
                   {"command": "view", "path": "/home/ada/code/shop/shop/rates.py"})],
     1774084446, VISIBLE),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000004", "user",
     [tool_response("toolu_01GooseView0001",
                    "VAT_RATE = 0.2\n\ndef vat(amount):\n    return amount * VAT_RATE  # CANARY-TOOLOUT-GOOSE-2C9\n",
                    "```python\nVAT_RATE = 0.2\n\ndef vat(amount):\n    return amount * VAT_RATE\n```")],
     1774084447, VISIBLE),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000005", "assistant",
     [text("I'll switch to Decimal and run the tests."),
      tool_request("toolu_01GooseEdit0002", "developer__text_editor",
                   {"command": "str_replace", "path": "/home/ada/code/shop/shop/rates.py",
                    "old_str": "VAT_RATE = 0.2",
                    "new_str": "from decimal import Decimal, ROUND_HALF_UP\n\nVAT_RATE = Decimal(\"0.2\")  # CANARY-ARGS-GOOSE-6T1"}),
      tool_request("toolu_01GooseShell0003", "developer__shell",
                   {"command": "python -m pytest tests/test_rates.py -q"})],
     1774084452, VISIBLE),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000006", "user",
     [tool_response("toolu_01GooseEdit0002", "The file shop/rates.py has been edited.",
                    "Edited shop/rates.py"),
      tool_failure("toolu_01GooseShell0003",
                   "-32603: Command exited with code 1: E   AssertionError: assert Decimal('20.10') == 20.1")],
     1774084460, VISIBLE),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000007", "assistant",
     [text("Before touching the test I'll ask a sub-agent to find every caller of vat()."),
      tool_request("toolu_01GooseDelegate0004", "delegate",
                   {"instructions": "List every call site of shop.rates.vat and say whether it passes a float.",
                    "execution_mode": "foreground"})],
     1774084466, VISIBLE),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000008", "user",
     [tool_response("toolu_01GooseDelegate0004",
                    "cart.py:41 passes a float; invoice.py:17 passes Decimal.",
                    "Sub-agent finished: 2 call sites")],
     1774084488, VISIBLE),
    # Compaction: the earlier turns stay in the table, invisible to both sides, and a summary the
    # model sees (but the user does not) replaces them.
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000009", "user",
     [text("Summary of the conversation so far: vat() now uses Decimal with ROUND_HALF_UP; one test still "
           "compares with a float; both callers accept Decimal.")],
     1774084490, AGENT_ONLY),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-00000000000a", "assistant",
     [{"type": "systemNotification", "notificationType": "inlineMessage",
       "msg": "Context compacted to stay within the model's limit."}],
     1774084490, USER_ONLY),
    ("msg_0b6f7c1e-1d2a-4c3b-9e8f-00000000000b", "assistant",
     [{"type": "redactedThinking", "data": "EmwKAhgBEgy3cmVkYWN0ZWQtdGhpbmtpbmc="},
      text("Fixed: `vat()` now uses `Decimal` and rounds half-up to cents, so `vat(100.5)` is "
           "`Decimal('20.10')`; I updated the test to compare with a Decimal.")],
     1774084498, VISIBLE),
]

# After a compaction Goose rewrites the earlier rows' metadata so they are kept but hidden.
ARCHIVED_IDS = {"msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000001"}

CHILD_MESSAGES = [
    ("msg_7d3e9a20-44b1-4f0c-a2d3-000000000001", "user",
     [text("List every call site of shop.rates.vat and say whether it passes a float.")],
     1774084467, VISIBLE),
    ("msg_7d3e9a20-44b1-4f0c-a2d3-000000000002", "assistant",
     [tool_request("toolu_01SubShell0001", "developer__shell", {"command": "rg -n 'vat\\(' shop"})],
     1774084470, VISIBLE),
    ("msg_7d3e9a20-44b1-4f0c-a2d3-000000000003", "user",
     [tool_response("toolu_01SubShell0001",
                    "shop/cart.py:41:        tax = vat(line.total)\nshop/invoice.py:17:    return vat(invoice.net)",
                    "2 matches")],
     1774084471, VISIBLE),
    ("msg_7d3e9a20-44b1-4f0c-a2d3-000000000004", "assistant",
     [text("cart.py:41 passes a float; invoice.py:17 passes Decimal.")],
     1774084487, VISIBLE),
]

RECIPE = {
    "version": "1.0.0",
    "title": "Money-safe fixer",
    "description": "Fix arithmetic bugs in money code",
    "instructions": "CANARY-SYS-GOOSE-1R5 Always use Decimal for currency and keep tests green.",
    "extensions": [{"type": "builtin", "name": "developer", "timeout": 300, "bundled": True}],
}
MODEL_CONFIG = {"model_name": "claude-sonnet-4-5", "context_limit": 200000, "temperature": None,
                "max_tokens": None, "toolshim": False, "toolshim_model": None, "fast_model": None}


def insert_session(db: sqlite3.Connection, **row: object) -> None:
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    db.execute(f"INSERT INTO sessions ({columns}) VALUES ({marks})", tuple(row.values()))


def insert_messages(db: sqlite3.Connection, session_id: str, messages: list) -> None:
    for message_id, role, content, created, metadata in messages:
        if message_id in ARCHIVED_IDS:
            metadata = ARCHIVED
        db.execute(
            "INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, timestamp, metadata_json)"
            " VALUES (?, ?, ?, ?, ?, datetime(?, 'unixepoch'), ?)",
            (message_id, session_id, role, json.dumps(content), created, created, json.dumps(metadata)))


def build(path: Path, broken: bool = False) -> None:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (SCHEMA_VERSION, "2026-03-01 08:00:00"))
    insert_session(
        db, id=MAIN, name="Fix VAT rounding in rates.py", user_set_name=False, session_type="user",
        working_dir=CWD, created_at="2026-03-21 09:14:01", updated_at="2026-03-21 09:14:58",
        extension_data=json.dumps({"todo.v0": {"content": "- [x] Decimal in vat()\n- [ ] update float test"}}),
        total_tokens=6120, input_tokens=5890, output_tokens=230, cache_read_tokens=4800, cache_write_tokens=0,
        accumulated_total_tokens=24730, accumulated_input_tokens=23510, accumulated_output_tokens=1220,
        accumulated_cache_read_tokens=17300, accumulated_cache_write_tokens=5100, accumulated_cost=0.0612,
        recipe_json=json.dumps(RECIPE), provider_name="anthropic", model_config_json=json.dumps(MODEL_CONFIG),
        goose_mode="auto")
    insert_session(
        db, id=CHILD, name="Find callers of vat()", session_type="sub_agent", working_dir=CWD,
        created_at="2026-03-21 09:14:26", updated_at="2026-03-21 09:14:47",
        accumulated_input_tokens=3100, accumulated_output_tokens=140, accumulated_total_tokens=3240,
        accumulated_cost=0.0041, provider_name="anthropic", model_config_json=json.dumps(MODEL_CONFIG),
        parent_session_id=MAIN,
        parent_delegation=json.dumps({"execution_mode": "foreground",
                                      "parent_delegate_message_id": "msg_0b6f7c1e-1d2a-4c3b-9e8f-000000000007",
                                      "result_delivered_to_parent": 1}))
    insert_messages(db, MAIN, MAIN_MESSAGES)
    insert_messages(db, CHILD, CHILD_MESSAGES)
    for session_id, created, inp, out, cache_read, cost, compaction in [
        (MAIN, 1774084446, 5210, 96, 0, 0.0214, 0), (MAIN, 1774084452, 5700, 240, 4800, 0.0101, 0),
        (CHILD, 1774084487, 3100, 140, 0, 0.0041, 0), (MAIN, 1774084490, 6800, 180, 6200, 0.0089, 1),
        (MAIN, 1774084498, 5890, 230, 4800, 0.0080, 0)]:
        db.execute(
            "INSERT INTO usage_ledger (session_id, created_timestamp, model, input_tokens, output_tokens, total_tokens,"
            " cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (session_id, created, "claude-sonnet-4-5-20250929", inp, out, inp + out, cache_read, 0, cost,
             "provider_reported", compaction))
    if broken:
        cut = json.dumps([text("Also check invoice.py for the same bug"),
                          tool_request("toolu_01Cut", "developer__shell", {"command": "rg -n float shop"})])
        # Each row's `timestamp` given, as insert_messages gives it: its default is the time the sample is made,
        # which the goldens would then hold (the orphan's row is kept as written in the header).
        db.execute("INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, timestamp,"
                   " metadata_json) VALUES (?, ?, 'user', ?, ?, datetime(?, 'unixepoch'), ?)",
                   ("msg_cut", MAIN, cut[: len(cut) // 2], 1774084500, 1774084500, json.dumps(VISIBLE)))
        db.execute("INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, timestamp,"
                   " metadata_json) VALUES ('msg_orphan', '20260320_9', 'assistant', ?, 1774000000,"
                   " datetime(1774000000, 'unixepoch'), ?)",
                   (json.dumps([text("A reply whose session row is gone.")]), json.dumps(VISIBLE)))
    db.commit()
    db.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
    out.mkdir(parents=True, exist_ok=True)
    build(out / "sessions.db")
    build(out / "sessions-broken.db", broken=True)
    print(f"wrote {out / 'sessions.db'} and {out / 'sessions-broken.db'}")


if __name__ == "__main__":
    main()
