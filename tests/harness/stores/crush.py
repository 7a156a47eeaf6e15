"""Build two Crush stores with the real schema (Crush's internal/db/migrations applied in order,
with the pressly/goose bookkeeping table Crush's migrator keeps beside them):

- `crush.db`: one session fixing a rounding bug: user text, reasoning with a signature, text,
  tool calls whose `input` is a JSON string, tool results in `role = 'tool'` messages (one an
  error), a cancelled turn, a bang-mode shell command, a summary message
  (`is_summary_message = 1`, pointed at by `sessions.summary_message_id`), the sub-agent session
  the `agent` tool started (id `<assistant message id>$$<tool call id>`, `parent_session_id`), and
  the title-generation session (`title-<id>`) that must not be listed.
- `crush-broken.db`: the same with a message whose `parts` was cut short and one whose part type
  is unknown.

Usage: python3 make_crush.py [output-dir]   (default: the current directory)
Crush itself keeps the file at <project>/.crush/crush.db. Timestamps are Unix seconds
(`strftime('%s','now')`), whatever the migration comments say.
"""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

SCHEMA = """
CREATE TABLE goose_db_version (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id INTEGER NOT NULL,
    is_applied INTEGER NOT NULL,
    tstamp TIMESTAMP DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    summary_message_id TEXT,
    todos TEXT
);
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);
CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,
    provider TEXT,
    is_summary_message INTEGER DEFAULT 0 NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);
CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at);
CREATE INDEX IF NOT EXISTS idx_files_created_at ON files (created_at);
CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
);
CREATE INDEX IF NOT EXISTS idx_read_files_session_id ON read_files (session_id);
CREATE INDEX IF NOT EXISTS idx_read_files_path ON read_files (path);
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id;
END;
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete
AFTER DELETE ON messages
BEGIN
UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id;
END;
"""
MIGRATIONS = [0, 20250424200609, 20250515105448, 20250624000000, 20250627000000, 20250810000000,
              20250812000000, 20260127000000]

MAIN = "5b0c1f7e-3a2d-4e6f-9b8a-1c2d3e4f5a6b"
ASSISTANT_WITH_AGENT = "8e2f4a61-0b1c-4d2e-9f3a-4b5c6d7e8f90"
AGENT_CALL = "toolu_01CrushAgent0004"
CHILD = f"{ASSISTANT_WITH_AGENT}$${AGENT_CALL}"
TITLE = f"title-{MAIN}"
MODEL, PROVIDER = "claude-sonnet-4-5-20250929", "anthropic"


def part(kind: str, **data: object) -> dict:
    return {"type": kind, "data": data}


def text(value: str) -> dict:
    return part("text", text=value)


def finish(reason: str, at: int = 0, message: str = "", details: str = "") -> dict:
    data: dict = {"reason": reason, "time": at}
    if message:
        data["message"] = message
    if details:
        data["details"] = details
    return {"type": "finish", "data": data}


def tool_call(call_id: str, name: str, arguments: dict) -> dict:
    return part("tool_call", id=call_id, name=name, input=json.dumps(arguments), provider_executed=False,
                finished=True)


def tool_result(call_id: str, name: str, content: str, is_error: bool = False, metadata: str = "") -> dict:
    return part("tool_result", tool_call_id=call_id, name=name, content=content, data="", mime_type="",
                metadata=metadata, is_error=is_error)


def reasoning(thinking: str, started: int, finished: int) -> dict:
    return part("reasoning", thinking=thinking, signature="EqQBCkYICxgCKkBjcnVzaC1zaWduYXR1cmU=",
                thought_signature="", tool_id="", responses_data=None, started_at=started, finished_at=finished)


# Non-assistant messages get Finish{reason: "stop"} with no time when created (message.Service.Create).
MAIN_MESSAGES = [
    # (id, role, parts, created_at, finished_at, is_summary)
    ("1f0e2d3c-0000-4a00-8000-000000000001", "user",
     [text("vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"), finish("stop")],
     1774084442, None, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000002", "assistant",
     [reasoning("CANARY-THINK-CRUSH-5D3 floats cannot hold 0.2 exactly; view the file.", 1774084443, 1774084445),
      text("Let me read the rates module."),
      tool_call("toolu_01CrushView0001", "view", {"file_path": "/home/ada/code/shop/shop/rates.py"}),
      finish("tool_use", 1774084446)],
     1774084443, 1774084446, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000003", "tool",
     [tool_result("toolu_01CrushView0001", "view",
                  "<file>\n     1|VAT_RATE = 0.2\n     2|\n     3|def vat(amount):\n     4|    return amount * VAT_RATE  # CANARY-TOOLOUT-CRUSH-8N4\n</file>",
                  metadata=json.dumps({"file_path": "/home/ada/code/shop/shop/rates.py",
                                       "content": "CANARY-ENV-CRUSH-0L6 (tool metadata, not sent to the model)"})),
      finish("stop")],
     1774084446, None, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000004", "assistant",
     [text("I'll switch to Decimal and run the tests."),
      tool_call("toolu_01CrushEdit0002", "edit",
                {"file_path": "/home/ada/code/shop/shop/rates.py", "old_string": "VAT_RATE = 0.2",
                 "new_string": "from decimal import Decimal, ROUND_HALF_UP\n\nVAT_RATE = Decimal(\"0.2\")  # CANARY-ARGS-CRUSH-3J9"}),
      tool_call("toolu_01CrushBash0003", "bash",
                {"command": "python -m pytest tests/test_rates.py -q", "description": "Run the rate tests"}),
      finish("tool_use", 1774084452)],
     1774084448, 1774084452, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000005", "tool",
     [tool_result("toolu_01CrushEdit0002", "edit", "<result>\nContent replaced in file: shop/rates.py\n</result>"),
      finish("stop")],
     1774084452, None, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000006", "tool",
     [tool_result("toolu_01CrushBash0003", "bash",
                  "F.\nE   AssertionError: assert Decimal('20.10') == 20.1\n1 failed, 1 passed in 0.08s\n\n<exit_code>1</exit_code>",
                  is_error=True),
      finish("stop")],
     1774084460, None, 0),
    (ASSISTANT_WITH_AGENT, "assistant",
     [text("One test compares with a float. A sub-agent will list the callers first."),
      tool_call(AGENT_CALL, "agent",
                {"prompt": "List every call site of shop.rates.vat and say whether it passes a float."}),
      finish("tool_use", 1774084466)],
     1774084462, 1774084466, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000008", "tool",
     [tool_result(AGENT_CALL, "agent", "cart.py:41 passes a float; invoice.py:17 passes Decimal."), finish("stop")],
     1774084488, None, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000009", "user",
     [text("also make the test compare with Decimal"), finish("stop")],
     1774084490, None, 0),
    ("1f0e2d3c-0000-4a00-8000-00000000000a", "assistant",
     [text("Updating the"), finish("canceled", 1774084492, "User canceled request")],
     1774084491, 1774084492, 0),
    ("1f0e2d3c-0000-4a00-8000-00000000000b", "user",
     [part("shell_command", command="git diff --stat", output=" shop/rates.py | 6 ++++--\n 1 file changed", exit_code=0),
      finish("stop")],
     1774084494, None, 0),
    ("1f0e2d3c-0000-4a00-8000-00000000000c", "assistant",
     [text("CANARY-SYS-CRUSH-7B2 Summary for the next context window: vat() uses Decimal with ROUND_HALF_UP; "
           "test_vat_of_float_input must compare with Decimal('20.10'); callers cart.py and invoice.py are fine."),
      finish("end_turn", 1774084497)],
     1774084495, 1774084497, 1),
    ("1f0e2d3c-0000-4a00-8000-00000000000d", "user",
     [text("go on"), finish("stop")],
     1774084499, None, 0),
    ("1f0e2d3c-0000-4a00-8000-00000000000e", "assistant",
     [tool_call("toolu_01CrushEdit0005", "edit",
                {"file_path": "/home/ada/code/shop/tests/test_rates.py", "old_string": "== 20.1",
                 "new_string": "== Decimal(\"20.10\")"}),
      finish("tool_use", 1774084502)],
     1774084500, 1774084502, 0),
    ("1f0e2d3c-0000-4a00-8000-00000000000f", "tool",
     [tool_result("toolu_01CrushEdit0005", "edit", "<result>\nContent replaced in file: tests/test_rates.py\n</result>"),
      finish("stop")],
     1774084502, None, 0),
    ("1f0e2d3c-0000-4a00-8000-000000000010", "assistant",
     [text("Fixed: `vat()` now returns `Decimal('20.10')` for 100.5 and the test compares with a Decimal."),
      finish("end_turn", 1774084506)],
     1774084503, 1774084506, 0),
]

CHILD_MESSAGES = [
    ("2a1b3c4d-0000-4b00-8000-000000000001", "user",
     [text("List every call site of shop.rates.vat and say whether it passes a float."), finish("stop")],
     1774084467, None, 0),
    ("2a1b3c4d-0000-4b00-8000-000000000002", "assistant",
     [tool_call("toolu_01SubGrep0001", "grep", {"pattern": "vat\\(", "path": "/home/ada/code/shop/shop"}),
      finish("tool_use", 1774084470)],
     1774084468, 1774084470, 0),
    ("2a1b3c4d-0000-4b00-8000-000000000003", "tool",
     [tool_result("toolu_01SubGrep0001", "grep",
                  "Found 2 matches\n/home/ada/code/shop/shop/cart.py:\n  Line 41: tax = vat(line.total)\n"
                  "/home/ada/code/shop/shop/invoice.py:\n  Line 17: return vat(invoice.net)"),
      finish("stop")],
     1774084471, None, 0),
    ("2a1b3c4d-0000-4b00-8000-000000000004", "assistant",
     [text("cart.py:41 passes a float; invoice.py:17 passes Decimal."), finish("end_turn", 1774084487)],
     1774084472, 1774084487, 0),
]

TITLE_MESSAGES = [
    ("3b2c4d5e-0000-4c00-8000-000000000001", "user",
     [text("Generate a concise title for the following content:\n\nvat() in shop/rates.py returns "
           "20.099999999999998 for 100.5 - fix the rounding"), finish("stop")],
     1774084442, None, 0),
    ("3b2c4d5e-0000-4c00-8000-000000000002", "assistant",
     [text("Fix VAT rounding in rates.py"), finish("end_turn", 1774084444)],
     1774084443, 1774084444, 0),
]

TODOS = [{"content": "Switch vat() to Decimal", "status": "completed", "active_form": "Switching vat() to Decimal"},
         {"content": "Update the float test", "status": "completed", "active_form": "Updating the float test"}]


def insert_messages(db: sqlite3.Connection, session_id: str, rows: list, model: str = MODEL) -> None:
    for message_id, role, parts, created, finished, summary in rows:
        is_assistant = role == "assistant"
        db.execute(
            "INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message, created_at,"
            " updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (message_id, session_id, role, json.dumps(parts), model if is_assistant else "",
             PROVIDER if is_assistant else None, summary, created, finished or created, finished))


def build(path: Path, broken: bool = False) -> None:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    for version in MIGRATIONS:
        db.execute("INSERT INTO goose_db_version (version_id, is_applied, tstamp) VALUES (?, 1, ?)", (version, "2026-03-01 08:00:00"))
    sessions = [
        (MAIN, None, "Fix VAT rounding in rates.py", 41210, 1480, 0.0734, 1774084506, 1774084441,
         "1f0e2d3c-0000-4a00-8000-00000000000c", json.dumps(TODOS)),
        (CHILD, MAIN, "New Agent Session", 3120, 150, 0.0043, 1774084487, 1774084466, None, None),
        (TITLE, MAIN, "Generate a title", 60, 8, 0.0002, 1774084444, 1774084442, None, None),
    ]
    db.executemany(
        "INSERT INTO sessions (id, parent_session_id, title, prompt_tokens, completion_tokens, cost, updated_at,"
        " created_at, summary_message_id, todos) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", sessions)
    insert_messages(db, MAIN, MAIN_MESSAGES)
    insert_messages(db, CHILD, CHILD_MESSAGES)
    insert_messages(db, TITLE, TITLE_MESSAGES, model="claude-haiku-4-5-20251001")
    db.execute("INSERT INTO files (id, session_id, path, content, version, created_at, updated_at)"
               " VALUES (?, ?, ?, ?, 0, ?, ?)",
               ("4c3d5e6f-0000-4d00-8000-000000000001", MAIN, "/home/ada/code/shop/shop/rates.py",
                "VAT_RATE = 0.2\n\ndef vat(amount):\n    return amount * VAT_RATE\n", 1774084452, 1774084452))
    db.execute("INSERT INTO read_files (session_id, path, read_at) VALUES (?, ?, ?)",
               (MAIN, "/home/ada/code/shop/shop/rates.py", 1774084446))
    if broken:
        whole = json.dumps([text("and check invoice.py too"), finish("stop")])
        db.execute("INSERT INTO messages (id, session_id, role, parts, created_at, updated_at)"
                   " VALUES ('5d4e6f70-cut', ?, 'user', ?, 1774084510, 1774084510)", (MAIN, whole[: len(whole) // 2]))
        db.execute("INSERT INTO messages (id, session_id, role, parts, model, provider, created_at, updated_at)"
                   " VALUES ('5d4e6f70-unknown', ?, 'assistant', ?, ?, ?, 1774084511, 1774084511)",
                   (MAIN, json.dumps([part("citation", url="https://example.invalid"), finish("end_turn", 1774084511)]),
                    MODEL, PROVIDER))
    db.commit()
    db.close()


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
    out.mkdir(parents=True, exist_ok=True)
    build(out / "crush.db")
    build(out / "crush-broken.db", broken=True)
    print(f"wrote {out / 'crush.db'} and {out / 'crush-broken.db'}")


if __name__ == "__main__":
    main()
