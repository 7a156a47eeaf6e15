"""Search inside a transcript (viewer.store.search): the query language (words, "phrases", everything else
literal), what each view may find and count, datasets, paging, and the index rows following the parse rows
through reparse and delete. Tests that use the `store` fixture run on SQLite and on PostgreSQL."""
from __future__ import annotations

from contextlib import nullcontext
from types import SimpleNamespace

import hashlib
import json

import psycopg
import psycopg.errors
import pytest
from sqlalchemy import bindparam, exc, text

from tests.web.conftest import HIDDEN_CANARIES, WEATHER, harmony
from viewer import ingest
from viewer.ingest import STORED_VERSION
from viewer.store import Store, migrate, raw, rows, search, summaries
from viewer.policy.personal import Choices
from viewer.store.engine import open_engine
from viewer.store.faults import UNAVAILABLE, storage_fault
from viewer.store.search import BadQuery, Query, parse_query

ID = "abcdefghijklmnopqrstuv"
SYNTAX = ['"', '""', '"""', "*", "a*", "-", "-tokyo", "NEAR", "NEAR(tokyo weather)", "AND", "OR", "NOT", ":",
          "shown:tokyo", "hidden : canary", "{shown hidden header}: tokyo", "header:user", "^tokyo", "(", ")",
          "tokyo)", "'", "O'Reilly", "\\", "a\\b", "&", "|", "!", "<->", "tokyo:*", "tokyo:A", "&&", "%", "_",
          "?", "\x00", "\u2028", "🙂", "tokyo OR weather", "tokyo AND NOT weather", "'tokyo' & 'x'", "+"]
"""Queries in the syntax of FTS5 or tsquery, which must be read as plain words."""


def found(store: Store, query: str, view: str = "default", id: str = ID, **paging) -> tuple[list[int], int]:
    results = store.search.find([id], parse_query(query), view, **paging)
    return [hit.index for hit in results.hits], results.total


# ---- the query language (no database) -------------------------------------------------------------------------

def test_a_query_is_words_and_quoted_phrases():
    assert parse_query('  tokyo  "the weather"  Tokyo "unclosed phrase').terms == (
        "tokyo", "the weather", "Tokyo", "unclosed phrase")
    assert parse_query("tokyo tokyo").terms == ("tokyo",)
    assert parse_query('*** - "" :').terms == ()  # nothing a word index can match: no terms, no error


@pytest.mark.parametrize("raw", ["", "   ", "\n\t", "\x00"])
def test_an_empty_query_is_refused(raw):
    with pytest.raises(BadQuery, match="word"):
        parse_query(raw)


def test_a_query_over_500_characters_is_refused():
    parse_query("x" * 500)
    with pytest.raises(BadQuery, match="500"):
        parse_query("x" * 501)


def test_every_term_reaches_fts5_quoted():
    query = Query("x", ("tokyo", 'say "hi"', "NEAR"))
    assert search.fts5_query(query, "debug") == '"tokyo" "say ""hi""" "NEAR"'
    assert search.fts5_query(query, "default") == 'shown : ("tokyo" "say ""hi""" "NEAR")'


# ---- matching ----------------------------------------------------------------------------------------------------

@pytest.fixture
def words(store):
    ingest.store_upload(store, harmony(
        ("user", "", "Is the WEATHER in Tokyo good?"),
        ("assistant", "final", "Tokyo weather: sunny. Paris is rainy and cold."),
        ("user", "", "And NEAR the coast? Use get_weather, say: AND/OR."),
        ("assistant", "final", "The coast is windy; re-check at 10:30 with foo-bar."),
    ), id=ID)
    return store


def test_every_word_must_match_in_any_order_and_any_case(words):
    assert found(words, "tokyo") == ([0, 1], 2)
    assert found(words, "tokyo WEATHER") == ([0, 1], 2)
    assert found(words, "weather tokyo sunny") == ([1], 1)
    assert found(words, "tokyo coast") == ([], 0)
    assert found(words, '"tok"') == ([], 0)  # a quoted word is a whole word


def test_a_word_typed_alone_finds_the_words_it_begins(words):
    assert found(words, "tok") == ([0, 1], 2)
    assert found(words, "weath tok") == ([0, 1], 2)
    assert found(words, "coas") == ([2, 3], 2)
    assert found(words, "co") == ([], 0)  # too short to stand for the words it begins
    assert found(words, '"coas"') == ([], 0)
    assert found(words, '"the coas"') == ([], 0)  # a phrase matches its words as they are
    assert found(words, "okyo") == ([], 0)  # the start of a word, not any part of it


def test_a_prefix_is_only_ours_in_the_query():
    query = parse_query('tok "say hi" foo-bar ab')
    assert query.terms == ("tok", "say hi", "foo-bar", "ab")
    assert query.prefixes == {"tok"}
    assert search.fts5_query(query, "debug") == '"tok"* "say hi" "foo-bar" "ab"'


def test_a_quoted_phrase_matches_its_words_in_order(words):
    assert found(words, '"weather in tokyo"') == ([0], 1)
    assert found(words, '"tokyo weather"') == ([1], 1)
    assert found(words, '"tokyo weather" "paris is"') == ([1], 1)
    assert found(words, '"weather tokyo"') == ([], 0)


def test_punctuation_inside_a_word_matches_as_the_index_splits_it(words):
    assert found(words, "get_weather") == ([2], 1)
    assert found(words, "foo-bar") == ([3], 1)
    assert found(words, "10:30") == ([3], 1)
    assert found(words, "AND/OR") == ([2], 1)


@pytest.mark.parametrize("view", ["default", "debug"])
def test_query_syntax_characters_never_error_and_are_read_as_words(words, view):
    for query in SYNTAX:
        try:
            terms = parse_query(query)
        except BadQuery:
            continue  # only a query that is empty once NUL is taken out
        words.search.find([ID], terms, view)
    assert found(words, "NEAR", view) == ([2], 1)  # the words "and", "near", "or", not operators
    assert found(words, "AND", view) == ([1, 2], 2)
    assert found(words, "near and or", view) == ([2], 1)
    assert found(words, "-tokyo", view) == ([0, 1], 2)  # not a negation
    assert found(words, "tokyo:*", view) == ([0, 1], 2)  # not a prefix query
    assert found(words, "shown:tokyo", view) == ([], 0)  # no column filter: the word "shown" is in no message


# ---- what each view finds --------------------------------------------------------------------------------------

@pytest.fixture
def weather(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id=ID)
    return store


def test_the_default_view_neither_finds_nor_counts_hidden_text(weather):
    for canary in HIDDEN_CANARIES:
        assert found(weather, canary) == ([], 0)
        assert found(weather, canary.lower().replace("-", " ")) == ([], 0)
        assert found(weather, canary, "debug")[1] == 1
    # Words of the system and developer prompts, the reasoning, the call's arguments and the reply alone:
    for word in ("chatgpt", "instructions", "briefly", "wants", "location", "celsius", "note", "clear sky",
                 "temperature"):
        assert found(weather, word) == ([], 0), word
    assert found(weather, "celsius", "debug") == ([5], 1)


def test_the_default_view_finds_what_it_shows(weather):
    assert found(weather, "tokyo") == ([2, 7], 2)
    assert found(weather, "look up") == ([4], 1)  # a preamble
    assert found(weather, '"umbrella not needed"') == ([7], 1)


def test_headers_are_searched_in_the_debug_view_only(weather):
    assert found(weather, "functions get_weather", "debug") == ([5, 6], 2)  # recipient, reply's role
    assert found(weather, "functions.get_weather json", "debug") == ([5], 1)  # with the content type
    assert found(weather, "assistant") == ([], 0)
    assert found(weather, "user") == ([], 0)
    hit = weather.search.find([ID], parse_query("json"), "debug").hits[0]
    assert (hit.index, hit.role, hit.recipient) == (5, "assistant", "functions.get_weather")
    assert "to=functions.get_weather" in hit.header and "json" in hit.header


def test_a_hit_carries_its_whole_body_to_cut_an_excerpt_from(weather):
    hit = weather.search.find([ID], parse_query("umbrella"), "default").hits[0]
    assert hit.body.startswith("It is **20 °C**") and hit.body.endswith("```")
    assert (hit.role, hit.conversation, hit.transcript_id) == ("assistant", None, ID)


# ---- datasets ------------------------------------------------------------------------------------------------------

def _dataset(count: int) -> bytes:
    return "".join(json.dumps({"messages": [
        {"role": "system", "content": f"secret prompt {number}"},
        {"role": "user", "content": f"question {number} about tides"},
        {"role": "assistant", "content": f"answer {number}"}]}) + "\n" for number in range(count)).encode()


def test_a_dataset_search_spans_its_conversations_in_order(store):
    ingest.store_upload(store, _dataset(12), id=ID)
    results = store.search.find([ID], parse_query("tides"), "default")
    assert [(hit.conversation, hit.index) for hit in results.hits] == [(number, 1) for number in range(12)]
    assert results.hits[3].transcript_id == f"{ID}.3"
    assert found(store, "secret")[1] == 0
    assert [hit.conversation for hit in store.search.find([ID], parse_query("secret"), "debug").hits] == list(
        range(12))


def test_a_conversation_search_stays_in_its_conversation(store):
    ingest.store_upload(store, _dataset(3), id=ID)
    ingest.store_upload(store, _dataset(3), id="another-upload-of-it")
    assert found(store, "tides", id=f"{ID}.1") == ([1], 1)
    hits = store.search.find([f"{ID}.1"], parse_query("answer"), "default").hits
    assert [(hit.conversation, hit.index) for hit in hits] == [(1, 2)]
    assert found(store, "tides")[1] == 3  # the other upload's conversations are not this dataset's


# ---- paging and counting ------------------------------------------------------------------------------------------

def test_results_come_a_page_at_a_time_in_reading_order(store):
    ingest.store_upload(store, harmony(*[("user", "", f"needle {n}") if n % 3 else ("user", "", "hay")
                                         for n in range(180)]), id=ID)
    pages = [store.search.find([ID], parse_query("needle"), "default", limit=50, offset=offset)
             for offset in (0, 50, 100)]
    assert [len(page.hits) for page in pages] == [50, 50, 20]
    assert [page.next_offset for page in pages] == [50, 100, None]
    indices = [hit.index for page in pages for hit in page.hits]
    assert indices == [n for n in range(180) if n % 3] and {page.total for page in pages} == {120}
    assert store.search.find([ID], parse_query("needle"), "default", offset=500).hits == ()


def test_the_count_stops_at_the_cap(store):
    ingest.store_upload(store, harmony(*[("user", "", "same words") for _ in range(search.COUNT_CAP + 5)]), id=ID)
    results = store.search.find([ID], parse_query("same"), "default", limit=10)
    assert (results.total, results.more, len(results.hits), results.next_offset) == (search.COUNT_CAP, True, 10, 10)


def test_a_transcript_without_matches_or_messages_finds_nothing(store):
    ingest.store_upload(store, b"", id=ID)
    assert found(store, "anything") == ([], 0)
    assert found(store, "anything", id="no-such-transcript") == ([], 0)


# ---- the index follows the parse rows --------------------------------------------------------------------------------

def _spans(store: Store, *ids: str) -> list[tuple[int, int]]:
    """The index keys of transcripts (and of their conversations)."""
    with store.engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text(
            "SELECT r.start, r.stop FROM message_search_ranges AS r JOIN transcripts AS t ON t.id = r.transcript_id "
            "WHERE t.id IN :ids OR t.parent_id IN :ids").bindparams(bindparam("ids", expanding=True)), {"ids": ids})]


def _index_rows(store: Store, spans: list[tuple[int, int]], word: str) -> int:
    """Index entries for `word` with keys in `spans`, read from the index itself (not through the ranges, which
    the store deletes too; a pooled PostgreSQL test database may hold other tests' rows, with other keys)."""
    with store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            sql = ("SELECT count(*) FROM message_search WHERE message_search MATCH :word "
                   "AND rowid >= :start AND rowid < :stop")
        else:
            sql = ("SELECT count(*) FROM message_search WHERE words @@ to_tsquery('simple', :word) "
                   "AND sid >= :start AND sid < :stop")
        return sum(conn.execute(text(sql), {"word": word, "start": start, "stop": stop}).scalar()
                   for start, stop in spans)


def test_deleting_a_transcript_deletes_its_index_rows(weather):
    ingest.store_upload(weather, _dataset(2), id="dataset-of-two")
    spans = _spans(weather, ID, "dataset-of-two")
    assert len(spans) == 3  # the transcript, and each conversation
    assert _index_rows(weather, spans, "tokyo") == 3 and _index_rows(weather, spans, "tides") == 2  # 3: the call too
    weather.delete(ID)
    weather.delete("dataset-of-two")
    assert _index_rows(weather, spans, "tokyo") == 0 and _index_rows(weather, spans, "tides") == 0
    assert found(weather, "tokyo", "debug") == ([], 0) and _spans(weather, ID, "dataset-of-two") == []


def test_parsing_again_replaces_the_index_rows(weather):
    old = _spans(weather, ID)
    ingest.reparse(weather, weather.get(ID))
    new = _spans(weather, ID)
    assert _index_rows(weather, new, "tokyo") == 3  # not 6: the old rows went (SQLite may reuse their keys)
    assert old == new or _index_rows(weather, old, "tokyo") == 0
    assert found(weather, "tokyo") == ([2, 7], 2)
    weather.forget(ID)
    assert _index_rows(weather, new, "tokyo") == 0


@pytest.mark.sqlite_only("FTS5's own check of an index against its content")
def test_the_sqlite_index_agrees_with_the_rows_after_uploads_and_deletes(weather):
    ingest.store_upload(weather, _dataset(3), id="dataset-of-three")
    ingest.reparse(weather, weather.get("dataset-of-three"))
    weather.delete(ID)
    with weather.engine.begin() as conn:
        conn.execute(text("INSERT INTO message_search (message_search, rank) VALUES ('integrity-check', 1)"))


def test_transcripts_stored_before_the_index_are_indexed_when_parsed_again(fresh_database, monkeypatch):
    url = fresh_database(empty=True)
    engine = open_engine(url)
    with engine.connect() as conn:  # the schema as it was before search: revision 0006
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        migrate.command.upgrade(migrate.config(conn), "0006")
        conn.commit()
    old = Store.__new__(Store)  # a store of the code before search: no index to fill
    old.engine = engine
    old.personal = SimpleNamespace(choices=lambda id: Choices(),  # nor personal data (revision 0017)
                                   keep_findings=lambda *given: None)
    with monkeypatch.context() as patch:
        patch.setattr(search, "index", lambda conn, parses: None)
        patch.setattr(search, "unindex", lambda conn, id: None)
        patch.setattr(summaries, "secrets", lambda *found: {})  # nor columns about secrets (revision 0008)
        written = rows.message_rows  # nor the columns of what agents' logs record and of images (0010, 0013)
        patch.setattr(rows, "MESSAGE_COLUMNS", rows.MESSAGE_COLUMNS[:-2])
        patch.setattr(rows, "message_rows", lambda *given: (row[:-2] for row in written(*given)))
        patch.setattr(ingest.core, "store_examined_images", lambda *given: 0)  # nor images (revision 0013)
        patch.setattr(old, "get", lambda id: None)
        data = WEATHER.read_bytes()  # nor raw chunks (revision 0014): the bytes whole in `transcripts.raw`
        patch.setattr(raw, "IN_CHUNKS", data)
        patch.setattr(raw, "write", lambda conn, id, source: raw.Written(len(data), hashlib.sha256(data).hexdigest()))
        patch.setattr(raw, "keep_masked", lambda *given: None)
        ingest.store_upload(old, data, id=ID)
    engine.dispose()
    store = Store(url)  # upgrades to head: the transcript is marked for parsing again
    try:
        record = store.get(ID)
        assert record.parser_version != STORED_VERSION and found(store, "tokyo") == ([], 0)
        assert ingest.up_to_date(store, record).parser_version == STORED_VERSION
        assert found(store, "tokyo") == ([2, 7], 2)
    finally:
        store.engine.dispose()


class _CleaningFails:
    """A connection whose cleaning of the search indexes' pending entries fails with `error`."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def begin_nested(self):
        return nullcontext()

    def exec_driver_sql(self, statement: str) -> None:
        raise self.error


def test_an_index_cleaning_the_app_s_role_may_not_do_is_skipped():
    not_owner = exc.ProgrammingError("SELECT gin_clean_pending_list(…)", {},
                                     psycopg.errors.InsufficientPrivilege("must be owner of index"))
    search._pg_clean_pending(_CleaningFails(not_owner))  # logged, and the upload goes on


def test_a_connection_lost_while_the_index_is_cleaned_fails_the_upload_as_the_database_s_fault():
    """Swallowed, it left the transaction unusable, and its commit failed with an error no one took for the
    database's: the upload was answered 500 instead of 503."""
    lost = exc.OperationalError("SELECT gin_clean_pending_list(…)", {}, psycopg.OperationalError("server closed the "
                                "connection unexpectedly"), connection_invalidated=True)
    with pytest.raises(exc.OperationalError) as raised:
        search._pg_clean_pending(_CleaningFails(lost))
    assert storage_fault(raised.value).kind == UNAVAILABLE
