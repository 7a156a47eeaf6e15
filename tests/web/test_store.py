"""Storage: parse once, rows per message, counts, re-parse on a new parser version, tombstones."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.web.conftest import WEATHER
from viewer import ingest
from viewer.store import Store, count_rows

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"


@pytest.fixture
def store(tmp_path):
    return Store(f"sqlite:///{tmp_path / 'store.sqlite3'}")


def test_sqlite_runs_in_wal_mode_with_full_sync(store):
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_add_stores_raw_bytes_rows_and_counts(store):
    raw = WEATHER.read_bytes()
    record = store.add(raw, id="abc", debug_allowed=True)
    assert store.raw("abc") == raw
    assert (record.message_count, record.hidden_count, record.visible_count, record.pair_count) == (8, 3, 5, 1)
    assert record.debug_allowed and record.dialect == "harmony"
    assert count_rows(store, "abc") == 8


def test_default_window_reads_only_shown_rows(store):
    store.add(WEATHER.read_bytes(), id="abc")
    assert [entry.message.index for entry in store.window("abc", "default", 0, 100)] == [2, 4, 5, 6, 7]
    assert [entry.message.index for entry in store.window("abc", "debug", 0, 100)] == list(range(8))


def test_rows_keep_decision_pairing_and_source(store):
    store.add(WEATHER.read_bytes(), id="abc")
    call, reply = store.window("abc", "debug", 5, 2)
    assert (call.show_as, call.rule, call.pair, call.partner) == ("marker", "tool-call", 1, 6)
    assert reply.partner == 5 and reply.source.startswith("<|start|>functions.get_weather")


def test_a_new_parser_version_reparses_on_open(store):
    record = store.add(WEATHER.read_bytes(), id="abc")
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET parser_version = 'old'"))
        conn.execute(text("DELETE FROM messages WHERE idx > 2"))
    stale = store.get("abc")
    fresh = store.refresh(stale, record.parser_version)
    assert fresh.parser_version == record.parser_version and count_rows(store, "abc") == 8


def test_delete_keeps_only_a_tombstone(store):
    store.add(WEATHER.read_bytes(), id="abc")
    store.delete("abc")
    assert store.get("abc").deleted and store.raw("abc") is None and count_rows(store, "abc") == 0


def test_samples_are_stored_once_per_content(store):
    assert store.add_sample(b"<|start|>user<|message|>a<|end|>", id="sample-a", name="a.txt")
    assert not store.add_sample(b"<|start|>user<|message|>a<|end|>", id="sample-a", name="a.txt")
    assert store.add_sample(b"<|start|>user<|message|>b<|end|>", id="sample-a", name="a.txt")
    assert store.window("sample-a", "debug", 0, 1)[0].message.content == "b"


def test_a_parser_crash_is_stored_as_a_diagnostic_not_raised(store, monkeypatch):
    def broken(*args, **kwargs):
        raise RecursionError("boom")

    monkeypatch.setattr(ingest, "parse", broken)
    record = store.add(b"anything", id="abc")
    assert record.message_count == 0 and record.error_count == 1
    assert store.diagnostics("abc")[0].diagnostic.code == "W-PARSER-FAILED"


def test_records_are_frozen(store):
    record = store.add(WEATHER.read_bytes(), id="abc")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.debug_allowed = True  # type: ignore[misc]


def test_a_body_that_is_a_slice_of_its_source_is_not_stored_twice(store):
    store.add(WEATHER.read_bytes(), id="abc")
    with store.engine.connect() as conn:
        stored = conn.execute(text("SELECT count(*) FROM messages WHERE content IS NOT NULL")).scalar()
    assert stored == 0
    entries = store.window("abc", "debug", 0, 100)
    transcript = ingest.analyse(WEATHER.read_bytes()).transcript
    assert [entry.message for entry in entries] == list(transcript.messages)


@pytest.mark.parametrize("sample", sorted(SAMPLES.iterdir()), ids=lambda path: path.name)
def test_every_sample_reads_back_as_parsed_with_its_lines_and_columns(sample):
    store = Store("sqlite://")
    store.add(sample.read_bytes(), id="abc")
    transcript = ingest.analyse(sample.read_bytes()).transcript
    entries = store.window("abc", "debug", 0, len(transcript.messages) + 1)
    assert [entry.message for entry in entries] == list(transcript.messages)
    assert [(entry.line, entry.column) for entry in entries] == \
        [transcript.position(message.span[0]) for message in transcript.messages]
    assert [entry.source for entry in entries] == [transcript.text(message.span) for message in transcript.messages]


def test_a_body_that_differs_from_its_source_is_stored_as_it_is():
    raw = b'[{"role": "user", "content": "caf\\u00e9 \\"quoted\\""}]'
    store = Store("sqlite://")
    store.add(raw, id="abc")
    (entry,) = store.window("abc", "debug", 0, 10)
    assert entry.message.content == 'café "quoted"' and entry.source.startswith("{")


def test_message_header_fields_and_decisions_are_stored_once_per_kind(store):
    store.add(WEATHER.read_bytes() * 2, id="abc")  # 8 messages of 8 kinds, twice
    with store.engine.connect() as conn:
        kinds = conn.execute(text("SELECT count(*) FROM message_kinds WHERE transcript_id = 'abc'")).scalar()
    entries = store.window("abc", "debug", 0, 100)
    assert (kinds, len(entries)) == (8, 16)
    assert [(e.message.role, e.message.channel, e.rule, e.reason) for e in entries[:8]] == \
        [(e.message.role, e.message.channel, e.rule, e.reason) for e in entries[8:]]
    assert all(entry.reason for entry in entries)


def test_an_older_layout_is_upgraded_and_its_transcripts_parsed_again_on_open(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    record = Store(url).add(WEATHER.read_bytes(), id="abc")
    store = Store(url)
    with store.engine.begin() as conn:
        conn.execute(text("ALTER TABLE messages ADD COLUMN reason TEXT"))  # a column this layout no longer has
    upgraded = Store(url)
    stale = upgraded.get("abc")
    assert stale.parser_version != record.parser_version and count_rows(upgraded, "abc") == 0
    fresh = upgraded.refresh(stale, record.parser_version)
    assert fresh.parser_version == record.parser_version and count_rows(upgraded, "abc") == 8
    assert upgraded.raw("abc") == WEATHER.read_bytes()
