"""A big JSON Lines dataset read and stored a piece at a time (viewer/ingest/streaming.py) stores exactly what
parsing the whole file stores: every conversation's rows, offsets and lines, diagnostics, pairs, search index and
summary; what the path cannot take is parsed whole. Tests run on SQLite and on PostgreSQL."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from sqlalchemy import update

from tests.harness.datasets import dataset
from tests.store.test_live import SUMMARY, snapshot
from viewer import ingest
from viewer.ingest import STORED_VERSION, streaming
from viewer.store import Store
from viewer.store.schema import transcripts

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
DATASETS = ("json-dataset-finetune.jsonl", "json-dataset-broken-line.jsonl", "json-preference-openai.jsonl",
            "json-batch-anthropic.jsonl")
THINKING = json.dumps({"messages": [{"role": "user", "content": "Zähl bis drei 🙂"},
                                    {"role": "assistant", "content": "<think>\nKurz.\n</think>\n\neins, zwei, drei"}]},
                      ensure_ascii=False)


@pytest.fixture
def small_pieces(monkeypatch):
    """Every upload streams when it can, a few lines a piece."""
    monkeypatch.setattr(streaming, "STREAM_FROM", 0)
    monkeypatch.setattr(streaming, "PIECE_BYTES", 300)


def mixed_dataset() -> bytes:
    """Generated conversations, the samples' datasets, multi-byte text, reasoning segments, blank lines, CRLF
    line ends and a broken line, in one file."""
    lines = dataset(40).splitlines()
    for name in DATASETS:
        lines += (SAMPLES / name).read_text().splitlines()
    lines[3:3] = [THINKING, "", "   ", THINKING + "\r", '{"messages": [{"role": "user", "content": "cut']
    return ("\n".join(lines) + "\n").encode()


def full_snapshot(store: Store, id: str) -> dict:
    record = store.get(id)
    return {"record": {name: getattr(record, name) for name in (*SUMMARY, "conversation_count")},
            "raw": store.raw(id),
            "conversations": [snapshot(store, conversation.id) | {"id": conversation.id.rsplit(".", 1)[1],
                                                                  "snippet": conversation.snippet}
                              for conversation in store.iter_conversations(id)]}


def test_a_dataset_stored_a_piece_at_a_time_is_stored_as_parsing_it_whole_stores_it(store, small_pieces):
    raw = mixed_dataset()
    ingest.store_upload(store, raw, id="whole")
    assert streaming.store_streamed(store, io.BytesIO(raw), id="pieces") is not None
    whole, pieces = full_snapshot(store, "whole"), full_snapshot(store, "pieces")
    assert whole["record"]["conversation_count"] > 50
    for number, (expected, found) in enumerate(zip(whole["conversations"], pieces["conversations"], strict=True)):
        assert found == expected, number
    assert pieces == whole


def test_the_spool_is_read_in_pieces(store, small_pieces, monkeypatch):
    sizes = []
    real = streaming.parse_dataset_lines
    monkeypatch.setattr(streaming, "parse_dataset_lines", lambda text: sizes.append(len(text)) or real(text))
    raw = mixed_dataset()
    streaming.store_streamed(store, io.BytesIO(raw), id="pieces")
    assert len(sizes) > 10 and max(sizes) < len(raw) / 5


@pytest.mark.parametrize("raw", [
    pytest.param((SAMPLES / "json-dataset-finetune.jsonl").read_bytes().replace(b"a", b"\xff", 1), id="not-utf-8"),
    pytest.param(b"\xef\xbb\xbf" + (SAMPLES / "json-dataset-finetune.jsonl").read_bytes(), id="bom"),
    pytest.param((SAMPLES / "json-dataset-finetune.jsonl").read_bytes()
                 + b'{"messages": [{"role": "user", "content": "ghp_' + b"a1B2c3D4e5" * 4 + b'"}]}\n', id="secret"),
    pytest.param((SAMPLES / "harmony-gpt-oss-weather.txt").read_bytes(), id="not-a-dataset"),
])
def test_what_the_path_cannot_take_is_left_to_the_whole_parse(store, small_pieces, raw):
    spool = io.BytesIO(raw)
    assert streaming.store_streamed(store, spool, id="refused") is None
    assert store.get("refused") is None and spool.tell() == 0
    ingest.store_spooled(store, spool, id="stored")
    assert store.raw("stored") == raw


def test_an_upload_under_the_threshold_is_parsed_whole(store, monkeypatch):
    monkeypatch.setattr(streaming, "STREAM_FROM", 1 << 30)
    assert streaming.store_streamed(store, io.BytesIO(mixed_dataset()), id="small") is None


def test_a_big_dataset_is_parsed_again_a_piece_at_a_time(store, small_pieces, monkeypatch):
    raw = mixed_dataset()
    ingest.store_upload(store, raw, id="whole")
    streaming.store_streamed(store, io.BytesIO(raw), id="pieces")
    with store.engine.begin() as conn:  # as a parser of another version left it
        conn.execute(update(transcripts).where(transcripts.c.id == "pieces").values(parser_version="older"))

    def whole_parse(*args, **kwargs):
        raise AssertionError("parsed whole")

    monkeypatch.setattr(ingest.reparsing, "examine", whole_parse)
    assert ingest.up_to_date(store, store.get("pieces")).parser_version == STORED_VERSION
    assert full_snapshot(store, "pieces") == full_snapshot(store, "whole")


def test_a_dataset_answered_before_it_was_processed_is_stored_a_piece_at_a_time(store, small_pieces, monkeypatch):
    raw = mixed_dataset()
    ingest.store_upload(store, raw, id="whole")
    ingest.accept(store, raw, id="later", worker="w")
    pieces = []
    real = streaming.parse_dataset_lines
    monkeypatch.setattr(streaming, "parse_dataset_lines", lambda text: pieces.append(len(text)) or real(text))
    monkeypatch.setattr(ingest.deferred, "examine", lambda *args: pytest.fail("parsed whole"))
    assert ingest.process(store, "later")
    assert len(pieces) > 10 and store.get("later").ready and store.processing.progress("later") is None
    assert full_snapshot(store, "later") == full_snapshot(store, "whole")


def test_a_dataset_answered_first_that_the_path_cannot_take_is_processed_whole(store, small_pieces):
    raw = (SAMPLES / "json-dataset-finetune.jsonl").read_bytes() + \
        b'{"messages": [{"role": "user", "content": "ghp_' + b"a1B2c3D4e5" * 4 + b'"}]}\n'
    ingest.accept(store, raw, id="secret", worker="w")
    assert ingest.process(store, "secret")
    stored = store.get("secret")
    assert stored.ready and stored.conversation_count == raw.count(b"\n") and stored.secret_kinds
