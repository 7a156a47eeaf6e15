"""Live uploads in the store: appending a transcript in pieces, split anywhere, ends with the same stored
messages, diagnostics, pairs, counts and search index as uploading it whole, although each append parses only
the unfinished tail. Run on SQLite and on PostgreSQL."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viewer import ingest
from viewer.store import Store, live, search

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
STREAMED = ("harmony-gpt-oss-weather.txt", "openchatml-22-fixture-3-concurrent-calls.txt",
            "openchatml-22-fixture-4-tool-timeout.txt", "openchatml-22-example-16-4-literal-block.txt",
            "harmony-broken-truncated-body.txt", "harmony-broken-stray-text.txt", "chatml-qwen3-thinking-tools.txt",
            "chatml-0.1-conversation.txt", "chatml-broken-truncated.txt", "events-complete.jsonl",
            "events-interleaved.jsonl", "events-truncated.jsonl", "events-cancelled.jsonl")
SUMMARY = ("dialect", "header", "tools", "size", "message_count", "visible_count", "hidden_count", "diagnostic_count",
           "error_count", "pair_count", "snippet")
ids = itertools.count()


@pytest.fixture(scope="module")
def store(module_database_url):
    store = Store(module_database_url)
    yield store
    store.engine.dispose()


def snapshot(store: Store, id: str) -> dict:
    """Everything a page, the JSON twin or a search reads of a stored transcript."""
    record = store.get(id)
    words = {word for entry in store.iter_entries(id, "debug") for word in entry.message.content.split()[:3]
             if word.isalpha()}
    return {"record": {name: getattr(record, name) for name in SUMMARY},
            "entries": list(store.iter_entries(id, "debug")),
            "default": [entry.index for entry in store.iter_entries(id, "default")],
            "diagnostics": list(store.iter_diagnostics(id)), "pairs": store.pairs(id),
            "search": {(word, view): [(hit.index, hit.body) for hit in store.search.find(
                [id], search.parse_query(word), view).hits]
                for word in sorted(words)[:5] for view in ("default", "debug")}}


def streamed(store: Store, raw: bytes, cuts: list[int]) -> str:
    """`raw` uploaded live in pieces cut at `cuts`, then finished; returns its id."""
    id = f"live{next(ids)}"
    bounds = [0, *sorted(set(cuts)), len(raw)]
    record = ingest.store_live_upload(store, raw[:bounds[1]], id=id)
    for start, end in itertools.pairwise(bounds[1:]):
        record = ingest.append(store, record, raw[start:end])
    return id


def whole(store: Store, raw: bytes) -> str:
    id = f"whole{next(ids)}"
    ingest.store_upload(store, raw, id=id)
    return id


@st.composite
def cut_text(draw):
    name = draw(st.sampled_from(STREAMED))
    raw = (SAMPLES / name).read_bytes()
    text = raw.decode("utf-8")
    cuts = draw(st.lists(st.integers(0, len(text)), max_size=6))
    return name, raw, sorted({len(text[:cut].encode()) for cut in cuts})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cut_text())
def test_appending_in_pieces_stores_what_one_upload_stores(store, case):
    name, raw, cuts = case
    assert snapshot(store, streamed(store, raw, cuts)) == snapshot(store, whole(store, raw)), name


@pytest.mark.parametrize("name", STREAMED)
def test_appending_message_by_message_stores_what_one_upload_stores(store, name):
    raw = (SAMPLES / name).read_bytes()
    starts = [index for index in range(1, len(raw)) if raw.startswith((b"<|start|>", b"<|im_start|>", b"\n{"), index)]
    assert snapshot(store, streamed(store, raw, starts)) == snapshot(store, whole(store, raw))


def test_appends_parse_only_the_tail(store):
    raw = (SAMPLES / "harmony-gpt-oss-weather.txt").read_bytes()
    record = ingest.store_live_upload(store, raw, id=f"live{next(ids)}")
    tail = store.live.tail(record.id)
    assert tail.at is not None and tail.at.index == record.message_count - 1
    assert len(tail.data) < len(raw) // 4


def test_finish_joins_the_bytes_and_marks_a_cut_transcript_truncated(store):
    raw = b"<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hel"
    record = ingest.store_live_upload(store, raw[:30], id=f"live{next(ids)}")
    ingest.append(store, record, raw[30:])
    assert store.get(record.id).live == live.OPEN
    assert store.live.finish(record.id) == live.TRUNCATED
    assert store.raw(record.id) == raw and store.get(record.id).live == live.TRUNCATED
    assert store.live.tail(record.id) is None


def test_finish_of_a_complete_transcript_is_finished(store):
    raw = b"<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hello<|return|>"
    record = ingest.store_live_upload(store, raw, id=f"live{next(ids)}")
    assert store.live.finish(record.id) == live.FINISHED


def test_a_finished_transcript_takes_no_appends(store):
    record = ingest.store_upload(store, b"<|start|>user<|message|>Hi<|end|>", id=f"plain{next(ids)}")
    with pytest.raises(ingest.NotLive):
        ingest.append(store, record, b"more")


def test_a_dataset_cannot_be_live(store):
    with pytest.raises(ingest.NotLive):
        ingest.store_live_upload(store, (SAMPLES / "json-dataset-finetune.jsonl").read_bytes(), id=f"d{next(ids)}")


def test_an_append_that_lost_a_race_is_refused(store):
    record = ingest.store_live_upload(store, b"<|start|>user<|message|>Hi<|end|>", id=f"live{next(ids)}")
    stale = store.live.tail(record.id)
    ingest.append(store, record, b"<|start|>assistant<|message|>A<|end|>")
    with pytest.raises(live.AppendConflict):
        store.live.replace_all(record.id, stale.chunks, b"x", ingest.project(b"x"), ingest.STORED_VERSION, stale)


def test_deleting_a_live_upload_forgets_its_chunks(store):
    record = ingest.store_live_upload(store, b"<|start|>user<|message|>Hi<|end|>", id=f"live{next(ids)}")
    store.delete(record.id)
    assert store.live.tail(record.id) is None and not store.raw(record.id)


def test_a_live_upload_parsed_again_keeps_appending_from_its_new_tail(store):
    raw = (SAMPLES / "harmony-gpt-oss-weather.txt").read_bytes()
    record = ingest.store_live_upload(store, raw[:900], id=f"live{next(ids)}")
    record = ingest.reparse(store, record)  # as `viewer reparse` or a newer parser's first reader does
    ingest.append(store, record, raw[900:])
    assert snapshot(store, record.id) == snapshot(store, whole(store, raw))
