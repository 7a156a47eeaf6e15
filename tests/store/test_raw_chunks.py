"""An upload's raw bytes are stored once, in chunks, written from a file and read back byte-exact a chunk at a
time (viewer/store/raw.py); uploads stored whole before revision 0014 keep working. Tests run on SQLite and on
PostgreSQL."""
from __future__ import annotations

import io

from sqlalchemy import func, select, update

from tests.web.conftest import WEATHER
from viewer import ingest
from viewer.ingest import STORED_VERSION
from viewer.store import Store, raw
from viewer.store.schema import raw_chunks, transcripts


def chunk_count(store: Store, id: str) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).where(raw_chunks.c.transcript_id == id)).scalar()


def test_an_upload_from_a_file_is_stored_in_chunks_and_read_back_byte_exact(store, monkeypatch):
    monkeypatch.setattr(raw, "CHUNK", 100)
    data = WEATHER.read_bytes() + "\n« é »\r\n".encode()
    examined = ingest.examine(data)
    record = store.add(io.BytesIO(data), examined.shared, STORED_VERSION, id="chunked")
    assert chunk_count(store, "chunked") == -(-len(data) // 100)
    assert store.raw("chunked") == data and b"".join(store.raw_stream("chunked")) == data
    assert record.size == len(data) and store.has_same_bytes("chunked", data)


def test_a_download_reads_one_chunk_at_a_time(store, monkeypatch):
    monkeypatch.setattr(raw, "CHUNK", 64)
    data = WEATHER.read_bytes()
    ingest.store_upload(store, data, id="streamed")
    pieces = list(store.raw_stream("streamed"))
    assert len(pieces) > 1 and max(map(len, pieces)) == 64 and b"".join(pieces) == data


def test_bytes_stored_whole_before_chunks_are_read_and_streamed_as_they_are(store):
    data = WEATHER.read_bytes()
    ingest.store_upload(store, data, id="older")
    with store.engine.begin() as conn:  # as revision 0011 left an upload: its bytes in `transcripts.raw`
        raw.forget(conn, "older")
        conn.execute(update(transcripts).where(transcripts.c.id == "older").values(raw=data))
    assert store.raw("older") == data and b"".join(store.raw_stream("older")) == data
    assert store.secrets.shared_raw("older") == data


def test_deleting_an_upload_deletes_its_chunks(store):
    ingest.store_upload(store, WEATHER.read_bytes(), id="gone")
    assert chunk_count(store, "gone") == 1
    store.delete("gone")
    assert chunk_count(store, "gone") == 0 and store.raw("gone") is None and store.raw_stream("gone") is None


def test_a_finished_live_upload_keeps_its_appends_as_raw_chunks(store):
    first, second = b"<|start|>user<|message|>hel", b"lo<|end|>"
    ingest.store_live_upload(store, first, id="live")
    ingest.append(store, store.get("live"), second)
    store.live.finish("live")
    assert chunk_count(store, "live") == 2 and store.raw("live") == first + second
    assert store.get("live").size == len(first + second) and store.has_same_bytes("live", first + second)


def test_the_text_link_holders_download_of_an_upload_with_a_secret_is_kept_in_chunks(store, monkeypatch):
    monkeypatch.setattr(raw, "CHUNK", 64)  # 16 characters a chunk: a 1 GiB text passed SQLite's limit as one value
    token = "ghp_" + "a1B2c3D4e5" * 4
    data = WEATHER.read_bytes().replace(b"Tokyo", f"Tokyo {token} é".encode(), 1)
    assert ingest.store_upload(store, data, id="masked").secret_count == 1
    shared = store.secrets.shared_raw("masked")
    assert token.encode() not in shared and "é".encode() in shared
    assert b"".join(store.secrets.shared_raw_stream("masked")) == shared
    with store.engine.connect() as conn:
        masked = conn.execute(select(func.count()).where(raw_chunks.c.transcript_id == "masked",
                                                         raw_chunks.c.masked.is_(True))).scalar()
    assert masked > 1 and store.raw("masked") == data
    store.delete("masked")
    assert chunk_count(store, "masked") == 0 and store.secrets.shared_raw_stream("masked") is None
