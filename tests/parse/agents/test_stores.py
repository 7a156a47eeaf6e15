"""The agents that keep sessions in a database or a folder (Goose, Crush, OpenCode, Cursor) and the sub-agents
Claude Code and Codex keep in files apart: each told apart from the formats it resembles, both ways, and each
reader's behaviours that the goldens show only in passing."""
from __future__ import annotations

import json
import sqlite3

import pytest

from tests.harness.stores.canaries import BUILDERS, KINDS, opencode, opencode_export
from tests.parse.helpers import assert_accounted_for, codes
from viewer.bundles import pack
from viewer.parse import detect, parse
from viewer.policy import Projection

SHOWN_ONLY = ["typed", "answer"]


def named(place: str) -> str:
    return f"<{place}>"


@pytest.mark.parametrize("dialect", sorted(BUILDERS))
def test_each_store_is_detected_as_its_agent_s(dialect):
    assert parse(BUILDERS[dialect](KINDS, named)).dialect == dialect


def test_goose_and_crush_stores_are_told_apart_both_ways_though_both_keep_sessions_and_messages():
    assert parse(BUILDERS["goose"](SHOWN_ONLY, named)).dialect == "goose"
    assert parse(BUILDERS["crush"](SHOWN_ONLY, named)).dialect == "crush"


def test_a_database_of_no_agent_is_no_agent_s_store():
    connection = sqlite3.connect(":memory:")
    connection.executescript("CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id TEXT, body TEXT);"
                             "INSERT INTO messages VALUES ('1', 'hello');")
    projection = Projection.of(parse(connection.serialize()))
    assert projection.transcript.dialect not in BUILDERS and "W-BUNDLE-MEMBER" in codes(projection.transcript)
    assert {rule.show_as for rule in projection.rules} == {"hidden"}  # its rows are no one's messages


def test_an_opencode_export_is_not_read_as_chat_messages_and_chat_messages_are_not_an_export():
    assert detect(opencode_export(SHOWN_ONLY, named)) == "opencode"
    chat = json.dumps({"messages": [{"role": "user", "content": "Hi"}], "info": {"id": "session-1"}})
    assert detect(chat) == "json"


def test_opencode_s_export_and_database_read_to_the_same_conversation():
    kinds = ["typed", "thinking", "call", "injected", "system", "answer"]
    exported, stored = parse(opencode_export(kinds, named)), parse(opencode(kinds, named))
    assert [(m.role, m.channel, m.intent, m.content) for m in exported.messages] == \
        [(m.role, m.channel, m.intent, m.content) for m in stored.messages]


def test_a_sub_agent_session_is_a_thread_named_by_the_call_that_started_it():
    for dialect in sorted(BUILDERS):
        transcript = parse(BUILDERS[dialect](["typed", "subagent", "answer"], named))
        (thread,) = transcript.threads
        call = transcript.messages[thread.call]
        assert call.is_call and call.content.find("<arguments>") >= 0, dialect
        assert {m.content for m in transcript.messages if m.thread == thread.id} >= {"<subagent>"}, dialect


def test_injected_context_and_reasoning_are_hidden_and_the_user_s_text_shown():
    for dialect in sorted(BUILDERS):
        projection = Projection.of(parse(BUILDERS[dialect](["typed", "thinking", "injected", "answer"], named)))
        shown = [m.content for m, rule in zip(projection.transcript.messages, projection.rules)
                 if rule.show_as != "hidden"]
        assert shown == ["SHOWN-0", "SHOWN-3"], (dialect, shown)


def test_crush_s_title_generator_session_is_never_a_conversation_and_is_kept_in_the_header_of_the_one_it_titled():
    transcript = parse(BUILDERS["crush"](["typed", "system", "answer"], named))
    assert "<title-prompt>" not in {m.content for m in transcript.messages} and not transcript.conversations
    generated = transcript.header["title_generation"]
    assert generated["session"]["id"] == "title-" + transcript.header["session_id"]
    assert "<title-prompt>" in json.dumps(generated["messages"])
    assert "W-BUNDLE-MEMBER" not in codes(transcript)


def test_a_cursor_bubble_of_an_unknown_type_is_hidden_with_a_diagnostic():
    transcript = parse(BUILDERS["cursor"](["typed", "unknown"], named))
    assert "W-JSON-UNKNOWN-ITEM" in codes(transcript)
    assert Projection.of(transcript).rules[1].show_as == "hidden"


def test_several_sessions_of_a_store_are_a_dataset_titled_by_each_session():
    connection = sqlite3.connect(":memory:")
    connection.executescript(
        "CREATE TABLE schema_version (version INTEGER); CREATE TABLE sessions (id TEXT, name TEXT, session_type TEXT);"
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content_json TEXT, "
        "created_timestamp INTEGER);")
    for session, name in (("a", "First"), ("b", "Second")):
        connection.execute("INSERT INTO sessions VALUES (?, ?, 'user')", (session, name))
        connection.execute("INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES "
                           "(?, 'user', ?, 1)", (session, json.dumps([{"type": "text", "text": f"Hi {name}"}])))
    transcript = parse(connection.serialize())
    assert [c.header["title"] for c in transcript.conversations] == ["First", "Second"]
    assert_accounted_for(transcript, transcript.source)


def test_codex_rollouts_of_two_sessions_are_a_dataset_and_a_spawned_one_joins_its_parent():
    def rollout(id, text, parent=None):
        source = {"subagent": {"thread_spawn": {"parent_thread_id": parent, "agent_nickname": "Euler"}}} \
            if parent else "cli"
        lines = [{"timestamp": "2026-03-21T10:00:00Z", "type": "session_meta", "payload": {"id": id, "source": source}},
                 {"timestamp": "2026-03-21T10:00:01Z", "type": "response_item", "payload": {
                     "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}}]
        name = f"rollout-2026-03-21T10-00-0{len(id) % 10}-{id}.jsonl"
        return name, "".join(json.dumps(line) + "\n" for line in lines).encode()
    ids = [f"019cf1a{n}-0000-7000-8000-000000000000" for n in range(3)]
    transcript = parse(pack.packed([rollout(ids[0], "first"), rollout(ids[1], "second"),
                                    rollout(ids[2], "helper", parent=ids[0])]))
    assert [c.header["title"] for c in transcript.conversations] == ["first", "second"]
    assert [t.id for t in transcript.conversations[0].threads] == [ids[2]]


def _goose(extra_session: str = "", rows: tuple = ()) -> bytes:
    connection = sqlite3.connect(":memory:")
    connection.executescript(
        "CREATE TABLE schema_version (version INTEGER);"
        f"CREATE TABLE sessions (id TEXT, name TEXT, session_type TEXT, description TEXT{extra_session});"
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content_json TEXT, "
        "created_timestamp INTEGER);"
        "CREATE TABLE usage_ledger (id INTEGER PRIMARY KEY, session_id TEXT, model TEXT, cost REAL);"
        "INSERT INTO sessions (id, name, session_type, description) VALUES ('a', 'First', 'user', 'A described one');"
        "INSERT INTO usage_ledger (session_id, model, cost) VALUES ('a', 'claude-sonnet-4-5', 0.01);")
    for session, role, content in (("a", "user", [{"type": "text", "text": "Hi"}]), *rows):
        connection.execute("INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES "
                           "(?, ?, ?, 1)", (session, role, json.dumps(content)))
    connection.commit()
    return connection.serialize()


def test_a_goose_session_s_other_facts_and_its_usage_ledger_are_in_its_header():
    header = parse(_goose()).header
    assert header["session"] == {"description": "A described one", "session_type": "user"}
    assert header["usage_ledger"] == [{"model": "claude-sonnet-4-5", "cost": 0.01}]
    assert "unread" not in header


def test_a_goose_column_no_table_names_is_kept_unread_and_a_result_shown_to_the_user_alone_is_its_details():
    result = {"type": "toolResponse", "id": "t1", "toolResult": {"status": "success", "value": {"content": [
        {"type": "text", "text": "for the model", "annotations": {"audience": ["assistant"]}},
        {"type": "text", "text": "for the user", "annotations": {"audience": ["user"]}}]}}}
    transcript = parse(_goose(", x_later TEXT", (("a", "user", [result]),)))
    assert transcript.messages[-1].meta.details == {"content": [
        {"type": "text", "text": "for the user", "annotations": {"audience": ["user"]}}]}
    transcript = parse(_goose(", x_later TEXT DEFAULT 'a later column'"))
    assert transcript.header["unread"] == [{"sessions row": 1, "members": {"x_later": "a later column"}}]


def test_goose_messages_whose_session_has_no_row_are_named_as_not_read_and_kept_in_the_header():
    transcript = parse(_goose(rows=(("gone", "assistant", [{"type": "text", "text": "An orphan reply"}]),)))
    assert [m.content for m in transcript.messages] == ["Hi"]
    assert "W-BUNDLE-MEMBER" in codes(transcript)
    (kept,) = transcript.header["unread"]
    assert kept["members"]["content_json"] == [{"type": "text", "text": "An orphan reply"}]


def test_rows_of_no_session_are_kept_in_the_header_of_every_store():
    from tests.conftest import SAMPLES
    goose = parse((SAMPLES / "goose-broken-cut-short.db").read_bytes())
    assert goose.header["unread"][-1]["members"]["content_json"][0]["text"] == "A reply whose session row is gone."
    opencode = parse((SAMPLES / "opencode-broken-db-cut-short.db").read_bytes())
    assert opencode.header["unread"][-1]["members"]["text"] == "a part whose message row was never written"


def test_a_sub_agent_session_s_own_header_is_kept_under_its_thread_in_its_parent_s():
    transcript = parse(BUILDERS["goose"](["typed", "subagent", "answer"], named))
    (thread,) = transcript.threads
    assert transcript.header["thread_headers"][thread.id]["session_id"] == thread.id


def test_a_crush_session_s_todos_and_read_files_are_in_its_header_and_a_result_s_metadata_in_its_details():
    from tests.conftest import SAMPLES
    transcript = parse((SAMPLES / "crush-sessions-agent-tool.db").read_bytes())
    assert [todo["content"] for todo in transcript.header["session"]["todos"]] == [
        "Switch vat() to Decimal", "Update the float test"]
    assert transcript.header["read_files"][0]["path"] == "/home/ada/code/shop/shop/rates.py"
    assert transcript.header["files"][0]["content"].startswith("VAT_RATE = 0.2\n")  # the versions it wrote
    viewed = next(m for m in transcript.messages if m.role == "tool" and "CANARY-TOOLOUT-CRUSH" in m.content)
    assert viewed.meta.details["metadata"]["file_path"] == "/home/ada/code/shop/shop/rates.py"
    assert "unread" not in transcript.header


def test_a_cursor_chat_s_other_facts_are_in_its_header_and_a_bubble_s_in_its_first_message_s_details():
    from tests.conftest import SAMPLES
    transcript = parse((SAMPLES / "cursor-state-chat-subagent.vscdb").read_bytes())
    assert transcript.header["composer"]["totalLinesAdded"] == 3
    thought = next(m for m in transcript.messages if m.channel == "analysis")
    assert thought.meta.details["thinkingDurationMs"] == 2140
    assert "unread" not in transcript.header
    cut = parse((SAMPLES / "cursor-broken-state-cut-short.vscdb").read_bytes())
    assert "W-JSON-SYNTAX" in codes(cut)  # a bubble cut short: said, and kept as written, hidden
    kept = next(m for m in cut.messages if m.role == "unknown")
    assert kept.content.startswith('{"_v":3,"type":2,') and Projection.of(cut).rules[kept.index].show_as == "hidden"


def test_an_opencode_message_s_and_part_s_other_fields_are_details_and_its_steps_the_last_message_s():
    from tests.conftest import SAMPLES
    transcript = parse((SAMPLES / "opencode-1.2-export.json").read_bytes())
    attached = next(m for m in transcript.messages if m.content == "[file: shop/rates.py]")
    assert attached.meta.details["source"]["path"] == "shop/rates.py"
    stepped = [m for m in transcript.messages if m.meta and m.meta.details and "parts" in m.meta.details]
    assert stepped and stepped[0].meta.details["parts"][0] == {
        "type": "step-start", "snapshot": "5d1c8a7e3f2b9d4c6a0e8f1b3d5a7c9e2f4b6d80"}
    assert transcript.header["session"]["slug"] == "brisk-otter" and "unread" not in transcript.header
    stored = parse((SAMPLES / "opencode-1.2-sessions-subagent.db").read_bytes())
    assert stored.header["project"]["worktree"] == "/home/ana/src/shop"


@pytest.mark.parametrize("sample, table, column, key", [
    ("crush-sessions-agent-tool.db", "messages", "session_id", "session_id"),
    ("crush-sessions-agent-tool.db", "files", "session_id", "session_id"),
    ("goose-1.51-sessions-subagent.db", "messages", "session_id", "session_id"),
    ("opencode-1.2-sessions-subagent.db", "part", "message_id", "messageID")])
def test_a_row_naming_its_owner_by_json_that_is_no_text_is_a_row_of_no_owner(sample, table, column, key):
    from tests.conftest import SAMPLES
    connection = sqlite3.connect(":memory:")
    connection.deserialize((SAMPLES / sample).read_bytes())
    connection.execute(f"UPDATE {table} SET {column} = '[1, 2]' WHERE rowid = 1")  # read as a JSON list
    connection.commit()
    transcript = parse(connection.serialize())
    assert "W-BUNDLE-MEMBER" in codes(transcript)
    assert any(kept["members"].get(key) == [1, 2] for kept in transcript.header["unread"])
