"""Build a sample OpenCode database (~/.local/share/opencode/opencode.db, OpenCode 1.2 and later) with the real schema:
tables project, session, message, part (message.data and part.data are JSON texts; session columns are plain).

    python3 make_opencode_db.py OUT.db            # the full sample: a session with a sub-agent session
    python3 make_opencode_db.py OUT.db --broken   # damaged: a part whose JSON is cut short, a part with no message

The same rows, as OpenCode's objects, are in SESSIONS / MESSAGES / PARTS below; the sample's export.json and
storage/ folder are these objects written the older ways. Stdlib only.
"""
import json
import os
import random
import sqlite3
import sys

SCHEMA = """
CREATE TABLE `project` (
	`id` text PRIMARY KEY,
	`worktree` text NOT NULL,
	`vcs` text,
	`name` text,
	`icon_url` text,
	`icon_color` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_initialized` integer,
	`sandboxes` text NOT NULL,
	`commands` text
);
CREATE TABLE `session` (
	`id` text PRIMARY KEY,
	`project_id` text NOT NULL,
	`parent_id` text,
	`slug` text NOT NULL,
	`directory` text NOT NULL,
	`title` text NOT NULL,
	`version` text NOT NULL,
	`share_url` text,
	`summary_additions` integer,
	`summary_deletions` integer,
	`summary_files` integer,
	`summary_diffs` text,
	`revert` text,
	`permission` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_compacting` integer,
	`time_archived` integer,
	`workspace_id` text,
	`path` text,
	`agent` text,
	`model` text,
	`cost` real DEFAULT 0 NOT NULL,
	`tokens_input` integer DEFAULT 0 NOT NULL,
	`tokens_output` integer DEFAULT 0 NOT NULL,
	`tokens_reasoning` integer DEFAULT 0 NOT NULL,
	`tokens_cache_read` integer DEFAULT 0 NOT NULL,
	`tokens_cache_write` integer DEFAULT 0 NOT NULL,
	CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE TABLE `message` (
	`id` text PRIMARY KEY,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE `part` (
	`id` text PRIMARY KEY,
	`message_id` text NOT NULL,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
);
CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);
CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
CREATE INDEX `session_project_idx` ON `session` (`project_id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
"""

_random = random.Random(20260803)
_counter = [0]
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def ident(prefix, ms, descending=False):
    """OpenCode's ids: prefix, 6 bytes of (time * 0x1000 + counter) in hex (inverted for sessions so the newest
    sorts first), then 14 random base62 characters."""
    _counter[0] += 1
    now = ms * 0x1000 + _counter[0]
    if descending:
        now = ~now
    return f"{prefix}_{now & 0xFFFFFFFFFFFF:012x}" + "".join(_random.choice(BASE62) for _ in range(14))


PROJECT = "8f2c41e9b07d3a5c6e1f9b2d4a8c0e3f5b7d9a1c"
ROOT = "/home/ana/src/shop"
RATES = ROOT + "/shop/rates.py"
T0 = 1785769510233  # 2026-08-03T15:05:10.233Z
MODEL = {"providerID": "anthropic", "modelID": "claude-sonnet-4-5"}
SESSION = ident("ses", T0, descending=True)
CHILD = ident("ses", T0 + 21000, descending=True)
SNAP = ["5d1c8a7e3f2b9d4c6a0e8f1b3d5a7c9e2f4b6d80", "7e3a9c1f5b2d8e4a6c0f9b1d3e5a7c2f4b6d8e91",
        "9a4c2e8b6f1d3a5c7e9b0d2f4a6c8e1b3d5f7a02"]

SESSIONS = []   # Session.Info objects, in OpenCode's key order
MESSAGES = []   # (sessionID, message info)
PARTS = []      # (sessionID, messageID, part)


def session_info(sid, title, created, updated, parent=None, summary=None):
    info = {"id": sid, "slug": "brisk-otter" if parent is None else "quiet-heron", "projectID": PROJECT,
            "directory": ROOT}
    if parent:
        info["parentID"] = parent
    info["title"] = title
    info["version"] = "1.2.17"
    if summary:
        info["summary"] = summary
    info["time"] = {"created": created, "updated": updated}
    SESSIONS.append(info)
    return info


def tokens(input_tokens, output, reasoning=0, read=0, write=0):
    return {"input": input_tokens, "output": output, "reasoning": reasoning, "cache": {"read": read, "write": write}}


def user(sid, at, text, agent="build", extra_parts=(), system=None, summary_title=None):
    mid = ident("msg", at)
    info = {"id": mid, "sessionID": sid, "role": "user", "time": {"created": at}}
    if summary_title:
        info["summary"] = {"title": summary_title, "diffs": []}
    info["agent"] = agent
    info["model"] = dict(MODEL)
    if system:
        info["system"] = system
    MESSAGES.append((sid, info))
    part(sid, mid, at, {"type": "text", "text": text})
    for extra in extra_parts:
        part(sid, mid, at + 1, extra)
    return mid


def assistant(sid, parent, at, done, cost, usage, finish=None, error=None, agent="build", summary=False):
    mid = ident("msg", at)
    info = {"id": mid, "sessionID": sid, "role": "assistant", "time": {"created": at}}
    if done:
        info["time"]["completed"] = done
    if error:
        info["error"] = error
    info.update({"parentID": parent, "modelID": MODEL["modelID"], "providerID": MODEL["providerID"],
                 "mode": agent, "agent": agent, "path": {"cwd": ROOT, "root": ROOT}})
    if summary:
        info["summary"] = True
    info.update({"cost": cost, "tokens": usage})
    if finish:
        info["finish"] = finish
    MESSAGES.append((sid, info))
    return mid


def part(sid, mid, at, body):
    value = {"id": ident("prt", at), "sessionID": sid, "messageID": mid}
    value.update(body)
    PARTS.append((sid, mid, value))
    return value


def tool(sid, mid, at, call, name, state):
    return part(sid, mid, at, {"type": "tool", "callID": call, "tool": name, "state": state})


def step(sid, mid, at, reason, cost, usage, snapshot):
    part(sid, mid, at, {"type": "step-finish", "reason": reason, "snapshot": snapshot, "cost": cost, "tokens": usage})


# --- the main session -------------------------------------------------------------------------------------------
session_info(SESSION, "Fix rounding in rates.convert", T0 - 2400, T0 + 260000,
             summary={"additions": 3, "deletions": 2, "files": 1})
RATES_TEXT = ("<file>\n00001| from decimal import Decimal\n00002| \n00003| RATES = {\"EUR\": Decimal(\"1.0\"), "
              "\"USD\": Decimal(\"1.0874\")}\n00004| \n00005| \n00006| def convert(amount, currency):\n"
              "00007|     return round(amount * RATES[currency], 2)\n\n(End of file - total 7 lines)\n</file>")
m1 = user(SESSION, T0, "@shop/rates.py convert() must round half up to cents. Fix it and run the tests.",
          system="Answer in British English. CANARY-SYS-OPENCODE-6c0d", summary_title="Fix rounding in rates.convert",
          extra_parts=[
              {"type": "text", "synthetic": True,
               "text": "Called the Read tool with the following input: {\"filePath\":\"" + RATES + "\"}"},
              {"type": "text", "synthetic": True, "text": RATES_TEXT.replace("</file>", "CANARY-ENV-OPENCODE-2e94\n</file>")},
              {"type": "file", "mime": "text/plain", "filename": "shop/rates.py", "url": "file://" + RATES,
               "source": {"text": {"value": "@shop/rates.py", "start": 0, "end": 14}, "type": "file",
                          "path": "shop/rates.py"}}])
a1 = assistant(SESSION, m1, T0 + 120, T0 + 6100, 0.0214, tokens(3, 402, 96, 11872, 9240), finish="tool-calls")
part(SESSION, a1, T0 + 900, {"type": "step-start", "snapshot": SNAP[0]})
part(SESSION, a1, T0 + 1000, {"type": "reasoning", "text": "round() is banker's rounding in Python 3; the user wants "
                                                           "half up. CANARY-THINK-OPENCODE-d41a Use Decimal.quantize.",
                              "metadata": {"anthropic": {"signature": "ErUBCkYIBxgCIkB4lPq9c3aZ0xW7mV2nK5sJ8dF1gH6yT4rE0uO3iL9bN2vC7xQ5wA1zS8pM6kR0jD3fG4hY7tU9eW2oI5nB8qL0cV"}},
                              "time": {"start": T0 + 1000, "end": T0 + 2800}})
part(SESSION, a1, T0 + 2900, {"type": "text", "text": "`round()` rounds half to even. I'll use `Decimal.quantize` "
                                                    "with `ROUND_HALF_UP`.", "time": {"start": T0 + 2900, "end": T0 + 3300}})
EDIT_INPUT = {"filePath": RATES, "oldString": "    return round(amount * RATES[currency], 2)",
              "newString": "    # CANARY-ARGS-OPENCODE-91b7\n"
                           "    return (amount * RATES[currency]).quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)"}
tool(SESSION, a1, T0 + 3400, "toolu_01FgH2jK5lM8nP1qR4sT7vW0", "edit", {
    "status": "completed", "input": EDIT_INPUT, "output": "Edit applied successfully.", "title": "shop/rates.py",
    "metadata": {"diagnostics": {}, "diff": "Index: " + RATES + "\n===================================================================\n"
                 "--- " + RATES + "\n+++ " + RATES + "\n@@ -4,4 +4,5 @@\n \n \n def convert(amount, currency):\n"
                 "-    return round(amount * RATES[currency], 2)\n+    # CANARY-ARGS-OPENCODE-91b7\n"
                 "+    return (amount * RATES[currency]).quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)\n",
                 "filediff": {"file": RATES, "additions": 2, "deletions": 1}},
    "time": {"start": T0 + 5800, "end": T0 + 6050}})
step(SESSION, a1, T0 + 6100, "tool-calls", 0.0214, tokens(3, 402, 96, 11872, 9240), SNAP[1])

a2 = assistant(SESSION, m1, T0 + 6200, T0 + 9900, 0.0079, tokens(4, 118, 0, 21112, 612), finish="tool-calls")
part(SESSION, a2, T0 + 6900, {"type": "step-start", "snapshot": SNAP[1]})
BASH_OUT = ("F...\n=================================== FAILURES ===================================\n"
            "E   NameError: name 'ROUND_HALF_UP' is not defined\n# CANARY-TOOLOUT-OPENCODE-5f28\n1 failed, 3 passed in 0.21s\n")
tool(SESSION, a2, T0 + 7000, "toolu_01XyZ3aB6cD9eF2gH5iJ8kL1", "bash", {
    "status": "completed", "input": {"command": "python -m pytest -q tests/test_rates.py",
                                     "description": "Run the rates tests"},
    "output": BASH_OUT, "title": "Run the rates tests",
    "metadata": {"output": BASH_OUT, "exit": 1, "description": "Run the rates tests"},
    "time": {"start": T0 + 8100, "end": T0 + 9600}})
step(SESSION, a2, T0 + 9900, "tool-calls", 0.0079, tokens(4, 118, 0, 21112, 612), SNAP[1])

a3 = assistant(SESSION, m1, T0 + 10000, T0 + 21900, 0.0112, tokens(4, 171, 0, 21724, 830), finish="tool-calls")
part(SESSION, a3, T0 + 10600, {"type": "step-start", "snapshot": SNAP[1]})
part(SESSION, a3, T0 + 10700, {"type": "text", "text": "The import is missing. I'll ask a reviewer to check the rest.",
                               "time": {"start": T0 + 10700, "end": T0 + 11000}})
TASK_INPUT = {"description": "Review rates change", "subagent_type": "general",
              "prompt": "Review shop/rates.py for rounding and import bugs. Report only real bugs."}
# (filled in below, once the child session's ids exist)
task_part = tool(SESSION, a3, T0 + 11100, "toolu_01MnO4pQ7rS0tU3vW6xY9zA2", "task", {})
step(SESSION, a3, T0 + 21900, "tool-calls", 0.0112, tokens(4, 171, 0, 21724, 830), SNAP[1])

a4 = assistant(SESSION, m1, T0 + 22000, T0 + 26400, 0.0063, tokens(4, 97, 0, 22554, 302), finish="tool-calls")
part(SESSION, a4, T0 + 22600, {"type": "step-start", "snapshot": SNAP[1]})
tool(SESSION, a4, T0 + 22700, "toolu_01BcD5eF8gH1iJ4kL7mN0oP3", "edit", {
    "status": "completed", "input": {"filePath": RATES, "oldString": "from decimal import Decimal",
                                     "newString": "from decimal import ROUND_HALF_UP, Decimal"},
    "output": "Edit applied successfully.", "title": "shop/rates.py",
    "metadata": {"diagnostics": {}, "diff": "Index: " + RATES + "\n", "filediff": {"file": RATES, "additions": 1,
                                                                                  "deletions": 1}},
    "time": {"start": T0 + 25900, "end": T0 + 26100}})
step(SESSION, a4, T0 + 26400, "tool-calls", 0.0063, tokens(4, 97, 0, 22554, 302), SNAP[2])
part(SESSION, a4, T0 + 26410, {"type": "patch", "hash": SNAP[1], "files": [RATES]})

a5 = assistant(SESSION, m1, T0 + 26500, T0 + 29800, 0.0051, tokens(4, 66, 0, 22856, 140), finish="stop")
part(SESSION, a5, T0 + 27100, {"type": "step-start", "snapshot": SNAP[2]})
part(SESSION, a5, T0 + 27200, {"type": "text", "text": "Fixed: `convert()` now rounds half up to cents (2.675 EUR "
                                                      "becomes 2.68) and the missing import is added.",
                               "time": {"start": T0 + 27200, "end": T0 + 29700}})
step(SESSION, a5, T0 + 29800, "stop", 0.0051, tokens(4, 66, 0, 22856, 140), SNAP[2])

# second prompt, interrupted (Esc) while a tool runs
m2 = user(SESSION, T0 + 190000, "Also add a test for negative amounts")
a6 = assistant(SESSION, m2, T0 + 190100, T0 + 193700, 0, tokens(0, 0), error={
    "name": "MessageAbortedError", "data": {"message": "The operation was aborted."}})
part(SESSION, a6, T0 + 190800, {"type": "step-start", "snapshot": SNAP[2]})
tool(SESSION, a6, T0 + 192400, "toolu_01QrS6tU9vW2xY5zA8bC1dE4", "read", {
    "status": "error", "input": {"filePath": ROOT + "/tests/test_rates.py"}, "error": "Tool execution aborted",
    "metadata": {"interrupted": True}, "time": {"start": T0 + 192500, "end": T0 + 193600}})

# third prompt: the provider fails after one retry
m3 = user(SESSION, T0 + 200000, "try again")
a7 = assistant(SESSION, m3, T0 + 200100, T0 + 214000, 0, tokens(0, 0), error={
    "name": "APIError", "data": {"message": "Overloaded", "statusCode": 529, "isRetryable": True,
                                 "responseBody": "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"}})
part(SESSION, a7, T0 + 203000, {"type": "retry", "attempt": 1, "error": {
    "name": "APIError", "data": {"message": "Overloaded", "statusCode": 529, "isRetryable": True}},
                                "time": {"created": T0 + 203000}})

# a compaction: the user message carries the compaction part, the answer is the summary
m4 = user(SESSION, T0 + 250000, "")
PARTS.pop()  # a compaction request has no text part
part(SESSION, m4, T0 + 250000, {"type": "compaction", "auto": True})
a8 = assistant(SESSION, m4, T0 + 250100, T0 + 260000, 0.0188, tokens(23010, 512, 0, 0, 0), finish="stop",
               agent="compaction", summary=True)
part(SESSION, a8, T0 + 250700, {"type": "step-start", "snapshot": SNAP[2]})
part(SESSION, a8, T0 + 250800, {"type": "text", "text": "## Summary\nFixed half-up rounding in shop/rates.py "
                                                      "(quantize + ROUND_HALF_UP, import added). A test for negative "
                                                      "amounts was requested but not written yet.",
                                "time": {"start": T0 + 250800, "end": T0 + 259900}})
step(SESSION, a8, T0 + 260000, "stop", 0.0188, tokens(23010, 512, 0, 0, 0), SNAP[2])

# --- the sub-agent's session (its parentID is the main session) ---------------------------------------------------
session_info(CHILD, "Review rates change (@general subagent)", T0 + 11200, T0 + 21700, parent=SESSION)
c1 = user(CHILD, T0 + 11300, TASK_INPUT["prompt"], agent="general")
c2 = assistant(CHILD, c1, T0 + 11400, T0 + 15800, 0.0061, tokens(3, 74, 0, 9310, 1402), finish="tool-calls",
               agent="general")
part(CHILD, c2, T0 + 12000, {"type": "step-start", "snapshot": SNAP[1]})
tool(CHILD, c2, T0 + 12100, "toolu_01EfG7hI0jK3lM6nO9pQ2rS5", "read", {
    "status": "completed", "input": {"filePath": RATES},
    "output": "<file>\n00001| from decimal import Decimal\n...\n</file>", "title": "shop/rates.py",
    "metadata": {"preview": "from decimal import Decimal", "truncated": False},
    "time": {"start": T0 + 15100, "end": T0 + 15200}})
step(CHILD, c2, T0 + 15800, "tool-calls", 0.0061, tokens(3, 74, 0, 9310, 1402), SNAP[1])
c3 = assistant(CHILD, c1, T0 + 15900, T0 + 21600, 0.0049, tokens(3, 58, 0, 10712, 210), finish="stop",
               agent="general")
part(CHILD, c3, T0 + 16500, {"type": "step-start", "snapshot": SNAP[1]})
REVIEW = "One bug: `ROUND_HALF_UP` is used but only `Decimal` is imported."
part(CHILD, c3, T0 + 16600, {"type": "text", "text": REVIEW, "time": {"start": T0 + 16600, "end": T0 + 21500}})
step(CHILD, c3, T0 + 21600, "stop", 0.0049, tokens(3, 58, 0, 10712, 210), SNAP[1])

task_part["state"] = {
    "status": "completed", "input": TASK_INPUT,
    "output": REVIEW + "\n\n<task_metadata>\nsession_id: " + CHILD + "\n</task_metadata>",
    "title": "Review rates change",
    "metadata": {"summary": [{"id": PARTS[-5][2]["id"], "tool": "read",
                              "state": {"status": "completed", "title": "shop/rates.py"}}],
                 "sessionId": CHILD, "model": {"modelID": MODEL["modelID"], "providerID": MODEL["providerID"]}},
    "time": {"start": T0 + 11200, "end": T0 + 21700}}


def js(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _part_times(value, fallback):
    times = value.get("time") or value.get("state", {}).get("time") or {}
    start = times.get("start") or times.get("created") or fallback
    return start, times.get("end") or start


def build(path, broken=False):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO project VALUES (?,?,?,?,?,?,?,?,?,?,?)",
               (PROJECT, ROOT, "git", None, None, None, T0 - 86400000, T0 + 260000, T0 - 86400000, "[]", None))
    for info in SESSIONS:
        summary = info.get("summary", {})
        own = [m for s, m in MESSAGES if s == info["id"] and m["role"] == "assistant"]
        db.execute("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, summary_additions, "
                   "summary_deletions, summary_files, time_created, time_updated, agent, model, cost, tokens_input, "
                   "tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write) "
                   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                   (info["id"], PROJECT, info.get("parentID"), info["slug"], info["directory"], info["title"],
                    info["version"], summary.get("additions"), summary.get("deletions"), summary.get("files"),
                    info["time"]["created"], info["time"]["updated"], "general" if info.get("parentID") else "build",
                    js({"id": MODEL["modelID"], "providerID": MODEL["providerID"]}),
                    round(sum(m["cost"] for m in own), 4), sum(m["tokens"]["input"] for m in own),
                    sum(m["tokens"]["output"] for m in own), sum(m["tokens"]["reasoning"] for m in own),
                    sum(m["tokens"]["cache"]["read"] for m in own), sum(m["tokens"]["cache"]["write"] for m in own)))
    for sid, info in MESSAGES:
        data = {k: v for k, v in info.items() if k not in ("id", "sessionID")}
        updated = info["time"].get("completed", info["time"]["created"])
        db.execute("INSERT INTO message VALUES (?,?,?,?,?)", (info["id"], sid, info["time"]["created"], updated, js(data)))
    rows = []
    for sid, mid, value in PARTS:
        data = {k: v for k, v in value.items() if k not in ("id", "sessionID", "messageID")}
        start, end = _part_times(value, T0)
        rows.append([value["id"], mid, sid, start, end, js(data)])
    if broken:
        rows[7][5] = rows[7][5][: len(rows[7][5]) // 2]          # a write cut short
        rows.append([ident("prt", T0 + 300000), ident("msg", T0 + 300000), SESSION, T0 + 300000, T0 + 300000,
                     js({"type": "text", "text": "a part whose message row was never written"})])
        db.execute("PRAGMA foreign_keys = OFF")
    db.executemany("INSERT INTO part VALUES (?,?,?,?,?,?)", rows)
    db.commit()
    db.close()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build(sys.argv[1], broken="--broken" in sys.argv[2:])
