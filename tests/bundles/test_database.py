"""An uploaded SQLite database is hostile input: a corpus of corrupt and crafted files (cut short, a page size
SQLite never writes, a view that would loop forever, a trigger, a schema row that lies about its type, a huge
value, a generated column that would build one, a virtual table) each gets a clear diagnostic or is read without
running what it holds, quickly, and never raises."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from tests.parse.helpers import assert_accounted_for, codes
from viewer.bundles import database, read_bundle
from viewer.bundles.database import Bounds, entries
from viewer.bundles.text import write_bundle
from viewer.parse import parse

ENDLESS = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r"


def built(tmp_path: Path, *statements: str, name: str = "made.db") -> bytes:
    path = tmp_path / name
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    return path.read_bytes()


NOTES = ("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)",
         "INSERT INTO notes (body) VALUES ('first'), ('second')")


def tables(data: bytes, bounds: Bounds = Bounds()) -> tuple[dict[str, str | None], list[str], str]:
    """Each member's text, the diagnostics' codes and the bundle text."""
    text, diagnostics = write_bundle("sqlite", entries(data, bounds=bounds))
    bundle = read_bundle(text)
    return ({member.path: text[member.span[0]:member.span[1]] if member.readable else None
             for member in bundle.members}, [d.code for d in diagnostics], text)


def test_a_database_is_its_schema_then_its_tables_one_json_row_a_line(tmp_path):
    found, problems, _ = tables(built(tmp_path, *NOTES))
    assert list(found) == ["#sqlite_schema", "#notes"] and problems == []
    assert found["#notes"] == '{"id": 1, "body": "first"}\n{"id": 2, "body": "second"}\n'


def test_json_kept_in_a_column_is_written_as_json_and_binary_as_base64(tmp_path):
    data = built(tmp_path, "CREATE TABLE kv (key TEXT, value BLOB)",
                 """INSERT INTO kv VALUES ('a', CAST('{"x": [1, 2]}' AS BLOB)), ('b', X'FF00'), ('c', '[1,
2]'), ('d', 'plain {')""")
    found, _, _ = tables(data)
    assert found["#kv"].splitlines() == ['{"key": "a", "value": {"x": [1, 2]}}', '{"key": "b", "value": {"$base64": "/wA="}}',
                                         '{"key": "c", "value": [1, 2]}', '{"key": "d", "value": "plain {"}']


@pytest.mark.parametrize("damage", ["cut", "page size", "page size SQLite writes", "garbage"])
def test_a_corrupt_database_is_a_diagnostic_not_an_exception(tmp_path, damage):
    data = bytearray(built(tmp_path, *NOTES, *(f"INSERT INTO notes (body) VALUES ('{n:0>500}')" for n in range(50))))
    if damage == "cut":
        data = data[:1500]
    elif damage == "page size":
        data[16:18] = (1000).to_bytes(2, "big")
    elif damage == "page size SQLite writes":
        data[16:18] = (1024).to_bytes(2, "big")  # a valid size, not this file's
    else:
        data[100:] = bytes(len(data) - 100)
    transcript = parse(bytes(data))
    assert "W-DATABASE" in codes(transcript) and transcript.messages == ()
    assert_accounted_for(transcript, transcript.source)


def test_a_view_that_would_never_end_is_not_run(tmp_path):
    data = built(tmp_path, *NOTES, f"CREATE VIEW forever AS {ENDLESS}")
    started = time.monotonic()
    found, problems, _ = tables(data)
    assert time.monotonic() - started < 5
    assert "forever" in found["#sqlite_schema"] and "#forever" not in found and problems == []


def test_a_trigger_is_text_of_the_schema_and_never_fires(tmp_path):
    data = built(tmp_path, *NOTES, "CREATE TABLE log (what TEXT)",
                 "CREATE TRIGGER spy AFTER UPDATE ON notes BEGIN INSERT INTO log VALUES ('fired'); END")
    found, _, _ = tables(data)
    assert "CREATE TRIGGER spy" in found["#sqlite_schema"] and found["#log"] == ""


def test_a_schema_row_that_calls_a_view_a_table_is_read_as_what_sqlite_parsed(tmp_path):
    path = tmp_path / "lying.db"
    connection = sqlite3.connect(path)
    connection.executescript(f"CREATE TABLE t (n); CREATE VIEW v AS {ENDLESS};"
                             "PRAGMA writable_schema = ON; UPDATE sqlite_master SET type = 'table' WHERE name = 'v';")
    connection.close()
    started = time.monotonic()
    found, _, _ = tables(path.read_bytes(), Bounds(seconds=2))
    assert time.monotonic() - started < 5 and "#v" not in found


def test_a_value_over_the_length_bound_stops_its_table_with_a_diagnostic(tmp_path, monkeypatch):
    monkeypatch.setattr(database, "_LIMITS", (("SQLITE_LIMIT_LENGTH", 100_000),))
    data = built(tmp_path, *NOTES, "INSERT INTO notes (body) VALUES (printf('%.*c', 200000, 'x'))")
    found, problems, text = tables(data)
    # Python's sqlite3 steps a row ahead of the one it hands over: the row before the huge one may go with it.
    assert problems == ["W-DATABASE"] and found["#notes"].startswith('{"id": 1, "body": "first"}\n')
    assert "xxxx" not in text


def test_a_generated_column_that_would_build_a_huge_value_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(database, "_LIMITS", (("SQLITE_LIMIT_LENGTH", 1_000_000),))
    data = built(tmp_path, "CREATE TABLE g (n INTEGER, big TEXT GENERATED ALWAYS AS (hex(zeroblob(n))))",
                 "INSERT INTO g (n) VALUES (10), (600000)")  # its hex is 1,200,000 characters
    found, problems, text = tables(data)
    assert problems == ["W-DATABASE"] and len(text) < 10_000


def test_reading_stops_at_the_time_bound(tmp_path):
    data = built(tmp_path, "CREATE TABLE n (v)", f"INSERT INTO n {ENDLESS} LIMIT 200000")
    started = time.monotonic()
    found, problems, _ = tables(data, Bounds(seconds=0.05))
    assert time.monotonic() - started < 5 and problems == ["W-DATABASE"]
    assert found["#n"].count("\n") < 200000


def test_rows_past_the_bound_are_left_with_a_diagnostic(tmp_path):
    found, problems, text = tables(built(tmp_path, *NOTES, "INSERT INTO notes (body) VALUES ('3'), ('4')"),
                                   Bounds(rows=2))
    assert found["#notes"].count("\n") == 2 and problems == ["W-DATABASE"] and '"cut": true' in text


def test_a_virtual_table_is_named_not_read(tmp_path):
    found, _, text = tables(built(tmp_path, "CREATE VIRTUAL TABLE search USING fts5(body)",
                                  "INSERT INTO search VALUES ('hello')"))
    assert found["#search"] is None and "virtual table" in text
    assert "#search_content" in found  # its data, a plain table, is read


def test_text_that_is_not_utf8_is_replaced_and_reported(tmp_path):
    data = built(tmp_path, "CREATE TABLE t (s TEXT)", "INSERT INTO t VALUES (CAST(X'6361FF' AS TEXT))")
    found, problems, _ = tables(data)
    assert found["#t"] == '{"s": "ca\ufffd"}\n' and problems == ["W-DECODE-UTF8"]


def test_a_write_ahead_log_database_is_read_without_its_log(tmp_path):
    path = tmp_path / "wal.db"
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = WAL")
    for statement in NOTES:
        connection.execute(statement)
    connection.commit()
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    found, problems, _ = tables(path.read_bytes())
    assert found["#notes"].count("\n") == 2 and problems == []


def test_nothing_is_left_in_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "spool"))
    (tmp_path / "spool").mkdir()
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    tables(built(tmp_path, *NOTES))
    tables(b"SQLite format 3\x00" + bytes(200))
    assert list((tmp_path / "spool").iterdir()) == []
