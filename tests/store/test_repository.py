"""The store as a repository: rows per message, counts, claims to parse again, tombstones. Tests that use the
`store` fixture run on SQLite and on PostgreSQL."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from tests.web.conftest import WEATHER
from viewer import ingest
from viewer.ingest import STORED_VERSION

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"


@pytest.mark.sqlite_only("journal_mode and synchronous are SQLite's PRAGMAs")
def test_sqlite_runs_in_wal_mode_with_full_sync(store):
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_add_stores_raw_bytes_rows_and_counts(store):
    raw = WEATHER.read_bytes()
    record = ingest.store_upload(store, raw, id="abc", debug_allowed=True)
    assert store.raw("abc") == raw
    assert (record.message_count, record.hidden_count, record.visible_count, record.pair_count) == (8, 3, 5, 1)
    assert record.debug_allowed and record.dialect == "harmony"
    assert store.message_row_count("abc") == 8


def test_default_window_reads_only_shown_rows(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    assert [entry.message.index for entry in store.window("abc", "default", 0, 100)] == [2, 4, 5, 6, 7]
    assert [entry.message.index for entry in store.window("abc", "debug", 0, 100)] == list(range(8))


def test_rows_keep_decision_pairing_and_source(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    call, reply = store.window("abc", "debug", 5, 2)
    assert (call.show_as, call.rule, call.pair, call.partner) == ("marker", "tool-call", 1, 6)
    assert reply.partner == 5 and reply.source.startswith("<|start|>functions.get_weather")


def _made_stale(store, id):
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET parser_version = 'old'"))
        conn.execute(text("DELETE FROM messages WHERE idx > 2"))
    return store.get(id)


def test_a_transcript_from_an_older_parser_is_parsed_again_on_open(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    fresh = ingest.up_to_date(store, _made_stale(store, "abc"))
    assert fresh.parser_version == STORED_VERSION and store.message_row_count("abc") == 8


def test_only_the_first_of_concurrent_openers_claims_a_stale_transcript(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    _made_stale(store, "abc")
    assert store.claim_reparse("abc", "old")
    assert not store.claim_reparse("abc", "old")  # the claim holds: the second reader serves the stored parse


def test_a_reader_that_loses_the_claim_is_served_the_stored_parse(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    stale = _made_stale(store, "abc")
    assert store.claim_reparse("abc", "old")
    assert ingest.up_to_date(store, stale).parser_version == "old" and store.message_row_count("abc") == 3


def test_an_abandoned_claim_is_taken_over_after_its_lease(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    _made_stale(store, "abc")
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET claimed_at = '2000-01-01 00:00:00.000000'"))
    assert store.claim_reparse("abc", "old")


def test_the_current_parser_version_is_never_parsed_again(store, monkeypatch):
    record = ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    monkeypatch.setattr(ingest.core, "project", lambda *args: pytest.fail("parsed again"))
    assert ingest.up_to_date(store, record) == record


def test_reparse_stale_parses_only_older_versions_unless_asked_for_all(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    ingest.store_upload(store, WEATHER.read_bytes(), id="def")
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET parser_version = 'old' WHERE id = 'abc'"))
    assert ingest.reparse_stale(store) == 1
    assert ingest.reparse_stale(store) == 0
    assert ingest.reparse_stale(store, everything=True) == 2


def test_delete_keeps_only_a_tombstone(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    store.delete("abc")
    assert store.get("abc").deleted and store.raw("abc") is None and store.message_row_count("abc") == 0


def test_samples_are_stored_once_per_content(store):
    assert ingest.store_sample(store, b"<|start|>user<|message|>a<|end|>", id="sample-a", name="a.txt")
    assert not ingest.store_sample(store, b"<|start|>user<|message|>a<|end|>", id="sample-a", name="a.txt")
    assert ingest.store_sample(store, b"<|start|>user<|message|>b<|end|>", id="sample-a", name="a.txt")
    assert store.window("sample-a", "debug", 0, 1)[0].message.content == "b"


def test_a_parser_crash_is_stored_as_a_diagnostic_not_raised(store, monkeypatch):
    def broken(*args, **kwargs):
        raise RecursionError("boom")

    monkeypatch.setattr(ingest.core, "parse", broken)
    record = ingest.store_upload(store, b"anything", id="abc")
    assert record.message_count == 0 and record.error_count == 1
    assert store.diagnostics("abc")[0].diagnostic.code == "W-PARSER-FAILED"


def test_records_are_frozen(store):
    record = ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    with pytest.raises(AttributeError):  # frozen
        record.debug_allowed = True  # type: ignore[misc]


def test_a_body_that_is_a_slice_of_its_source_is_not_stored_twice(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")
    with store.engine.connect() as conn:
        stored = conn.execute(text("SELECT count(*) FROM messages WHERE content IS NOT NULL")).scalar()
    assert stored == 0
    entries = store.window("abc", "debug", 0, 100)
    transcript = ingest.project(WEATHER.read_bytes()).transcript
    assert [entry.message for entry in entries] == list(transcript.messages)


@pytest.mark.parametrize("sample", sorted(SAMPLES.iterdir()), ids=lambda path: path.name)
def test_every_sample_reads_back_as_parsed_with_its_lines_and_columns(store, sample):
    ingest.store_upload(store, sample.read_bytes(), id="abc")
    transcript = ingest.project(sample.read_bytes()).transcript
    entries = store.window("abc", "debug", 0, len(transcript.messages) + 1)
    assert [entry.message for entry in entries] == list(transcript.messages)
    assert [(entry.line, entry.column) for entry in entries] == \
        [transcript.position(message.span[0]) for message in transcript.messages]
    assert [entry.source for entry in entries] == [transcript.text(message.span) for message in transcript.messages]


def test_a_body_that_differs_from_its_source_is_stored_as_it_is(store):
    raw = b'[{"role": "user", "content": "caf\\u00e9 \\"quoted\\""}]'
    ingest.store_upload(store, raw, id="abc")
    (entry,) = store.window("abc", "debug", 0, 10)
    assert entry.message.content == 'café "quoted"' and entry.source.startswith("{")


def test_message_header_fields_and_decisions_are_stored_once_per_kind(store):
    ingest.store_upload(store, WEATHER.read_bytes() * 2, id="abc")  # 8 messages of 8 kinds, twice
    with store.engine.connect() as conn:
        kinds = conn.execute(text("SELECT count(*) FROM message_kinds WHERE transcript_id = 'abc'")).scalar()
    entries = store.window("abc", "debug", 0, 100)
    assert (kinds, len(entries)) == (8, 16)
    assert [(e.message.role, e.message.channel, e.rule, e.reason) for e in entries[:8]] == \
        [(e.message.role, e.message.channel, e.rule, e.reason) for e in entries[8:]]
    assert all(entry.reason for entry in entries)


# ---- what PostgreSQL refused before the store handled it (each runs on both databases) --------------------

def test_nul_characters_and_the_escape_character_read_back_as_stored(store):
    from viewer.store.engine import ESCAPE

    content = f"a\x00b {ESCAPE}0 {ESCAPE}e {ESCAPE}\x00 end\x00"  # PostgreSQL's text holds no NUL: escaped
    raw = f"<|start|>user<|message|>{content}<|end|>".encode()
    ingest.store_upload(store, raw, id="abc", name="n\x00ame")
    (entry,) = store.window("abc", "debug", 0, 10)
    assert entry.message.content == content and entry.source == raw.decode()
    assert store.raw("abc") == raw and store.get("abc").name == "n\x00ame"


def test_header_fields_of_any_length_are_stored(store):
    role, channel = "r" * 100, "c" * 300  # they were VARCHAR(64), which PostgreSQL enforces (migration 0006)
    ingest.store_upload(store, f"<|start|>{role}<|channel|>{channel}<|message|>hi<|end|>".encode(), id="abc")
    (entry,) = store.window("abc", "debug", 0, 10)
    assert (entry.message.role, entry.message.channel) == (role, channel)


@pytest.mark.parametrize("position", [2**31, 2**63])
def test_positions_beyond_any_column_find_nothing_instead_of_failing(store, position):
    ingest.store_upload(store, WEATHER.read_bytes(), id="abc")  # PostgreSQL's INTEGER is 32 bits
    assert store.window("abc", "debug", position, 10) == store.window("abc", "default", position, 10) == []
    assert store.entry("abc", position) is None and store.position("abc", "default", position) is None
    assert store.diagnostics("abc", first=position, last=position) == []
    assert len(store.window("abc", "debug", -position, 10)) == 8


def test_a_sample_another_process_stored_at_the_same_moment_is_left_to_it(store, monkeypatch):
    raw = (SAMPLES / "json-dataset-broken-line.jsonl").read_bytes()  # a dataset: its rows go in by DB-API cursor
    assert ingest.store_sample(store, raw, id="sample-race", name="race.jsonl")
    def forget_the_upload_row_only(conn, id, *, serialized=False):  # as if another process's rows came back
        conn.execute(text("DELETE FROM transcripts WHERE id = :id"), {"id": id})
    monkeypatch.setattr(store, "_forget", forget_the_upload_row_only)
    assert store.replace_sample(raw, ingest.examine(raw).shared, STORED_VERSION, id="sample-race",
                                name="race.jsonl") is False
    assert store.get("sample-race") is not None  # the replacement rolled back whole: the stored sample stays
    assert store.conversation("sample-race", 0) is not None


def test_replacing_a_stored_sample_keeps_one_copy_of_it(store):
    raw = (SAMPLES / "json-dataset-broken-line.jsonl").read_bytes()
    assert ingest.store_sample(store, raw, id="sample-again", name="again.jsonl")
    before = store.get("sample-again").conversation_count
    assert store.replace_sample(raw, ingest.examine(raw).shared, STORED_VERSION, id="sample-again",
                                name="again.jsonl")
    assert store.get("sample-again").conversation_count == before
    assert store.conversation("sample-again", before - 1) is not None and store.samples()
