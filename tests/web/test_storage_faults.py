"""Storage faults are answers, not crashes (viewer/store/faults.py, viewer/web/capacity.py): a database that
refuses a write for lack of room answers 507 with a message and keeps nothing of the upload (no record, no raw
bytes, no images), one that cannot be reached answers 503 with Retry-After, reads go on, an upload answered
before it was processed is processed again once the fault passes (never marked failed), `/healthz` says what is
wrong, and everything recovers without a restart. Both databases; the faults are the DB-API's own exceptions,
raised where the store writes (a real full disk and a real PostgreSQL restart: bench/chaos.py and
tests/system/test_chaos.py)."""
from __future__ import annotations

import sqlite3
import threading

import psycopg.errors
import pytest
from sqlalchemy import exc, func, select

from tests.web.conftest import WEATHER, harmony
from tests.web.test_media import SHOWN_SHA, session
from viewer.ingest import processor
from viewer.store import bulk
from viewer.store.schema import media_blobs, raw_chunks, transcripts

WAIT = 30.0


def disk_full(dialect: str) -> exc.OperationalError:
    """What the driver of `dialect` raises when the database's disk is full, as SQLAlchemy hands it on."""
    if dialect == "sqlite":
        orig: Exception = sqlite3.OperationalError("database or disk is full")
        orig.sqlite_errorcode = 13  # type: ignore[attr-defined]
    else:
        orig = psycopg.errors.DiskFull("could not extend file: No space left on device")
    return exc.OperationalError("INSERT …", {}, orig)


def unreachable() -> exc.OperationalError:
    """What psycopg raises while PostgreSQL restarts (the connection refused), as SQLAlchemy hands it on."""
    return exc.OperationalError("SELECT …", {}, psycopg.OperationalError("connection refused"))


def counts(app) -> tuple[int, int, int]:
    with app.extensions["viewer.store"].engine.connect() as conn:
        return tuple(conn.execute(select(func.count()).select_from(table)).scalar_one()
                     for table in (transcripts, raw_chunks, media_blobs))


@pytest.fixture
def full(app, monkeypatch):
    """The database's disk, full while `full.on` is set: every parse's rows fail to go in."""
    state = threading.Event()
    state.set()
    real, dialect = bulk.insert_parse, app.extensions["viewer.store"].engine.dialect.name

    def insert_parse(*args, **kwargs):
        if state.is_set():
            raise disk_full(dialect)
        return real(*args, **kwargs)
    monkeypatch.setattr("viewer.store.repository.insert_parse", insert_parse)
    monkeypatch.setattr("viewer.store.processing.insert_parse", insert_parse)
    return state


def test_an_upload_the_full_database_refuses_is_507_with_a_message_and_leaves_nothing(app, client, full):
    before = counts(app)
    for body in (WEATHER.read_bytes(), session()):  # the second with an image, stored before its rows
        response = client.post("/api/transcripts", data=body)
        assert response.status_code == 507
        message = response.get_json()["error"]["message"]
        assert "disk is full" in message and "Nothing of this request was kept" in message
    assert counts(app) == before  # no record, no raw chunks, no image without the rows naming it
    assert client.post("/transcripts", data={"text": WEATHER.read_text()},
                       content_type="application/x-www-form-urlencoded").status_code == 507


def test_reads_go_on_and_uploads_succeed_again_once_room_returns(app, client, upload, full):
    full.clear()
    stored = upload()["id"]
    full.set()
    assert client.post("/api/transcripts", data=WEATHER.read_bytes()).status_code == 507
    assert client.get(f"/t/{stored}").status_code == 200 and client.get(f"/t/{stored}.json").status_code == 200
    full.clear()  # room again, no restart
    again = client.post("/api/transcripts", data=session())
    assert again.status_code == 201
    assert client.get(f"/t/{again.get_json()['id']}/media/{SHOWN_SHA}").status_code == 200


def test_healthz_says_the_database_refused_a_write_then_recovers(app, client, full, monkeypatch):
    assert client.post("/api/transcripts", data=WEATHER.read_bytes()).status_code == 507
    health = client.get("/healthz")
    assert health.status_code == 503 and "disk is full" in " ".join(health.get_json()["problems"])
    monkeypatch.setattr("viewer.web.capacity.REFUSAL_MEMORY", 0.0)
    assert client.get("/healthz").status_code == 200


def test_a_disk_short_of_the_reserve_refuses_uploads_before_storing_and_healthz_says_503(make_app):
    app = make_app(MIN_FREE_BYTES=1 << 60)
    client = app.test_client()
    before = counts(app)
    response = client.post("/api/transcripts", data=WEATHER.read_bytes())
    assert response.status_code == 507 and "nearly full" in response.get_json()["error"]["message"]
    assert counts(app) == before
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json()["status"] == "unavailable"
    assert not health.get_json()["storage"]["spool"]["ok"] and "reserve" in health.get_json()["problems"][0]


def test_an_unreachable_database_is_503_with_retry_after_for_reads_and_uploads(app, client, upload, monkeypatch):
    id = upload()["id"]
    store = app.extensions["viewer.store"]

    def refused(*args, **kwargs):
        raise unreachable()
    monkeypatch.setattr(store, "get", refused)
    monkeypatch.setattr("viewer.store.repository.insert_parse", refused)
    for response in (client.get(f"/t/{id}"), client.get(f"/t/{id}.json"),
                     client.post("/api/transcripts", data=WEATHER.read_bytes())):
        assert response.status_code == 503 and response.headers["Retry-After"] == "5"
        assert "database" in response.get_data(as_text=True)
    monkeypatch.undo()
    assert client.get(f"/t/{id}").status_code == 200


def test_an_error_that_is_no_storage_fault_stays_a_500(app, client, monkeypatch):
    def broken(*args, **kwargs):
        raise exc.ProgrammingError("SELECT …", {}, Exception("no such column"))
    monkeypatch.setattr("viewer.store.repository.insert_parse", broken)
    assert client.post("/api/transcripts", data=WEATHER.read_bytes()).status_code == 500


def test_an_upload_answered_202_is_processed_again_after_the_fault_and_never_marked_failed(make_app, full,
                                                                                          monkeypatch):
    monkeypatch.setattr(processor, "RETRY_FIRST_SECONDS", 0.05)
    app = make_app(DEFER_UPLOAD_BYTES=4096)
    client, store = app.test_client(), app.extensions["viewer.store"]
    faults = []
    real = store.processing.show_first

    def show_first(*args, **kwargs):  # the disk is full for the first two tries
        if len(faults) < 2:
            faults.append(1)
            raise disk_full(store.engine.dialect.name)
        return real(*args, **kwargs)
    monkeypatch.setattr(store.processing, "show_first", show_first)
    full.clear()
    created = client.post("/api/transcripts", data=WEATHER.read_bytes() * 40)
    assert created.status_code == 202
    assert app.extensions["viewer.processor"].idle(WAIT)
    record = store.get(created.get_json()["id"])
    assert len(faults) == 2 and record.ready and record.state is None
    assert client.get(f"/t/{record.id}.json").status_code == 200


def test_a_database_refusing_every_write_leaves_a_202_upload_processing_not_failed(make_app, monkeypatch):
    monkeypatch.setattr(processor, "RETRY_FIRST_SECONDS", 0.05)
    app = make_app(DEFER_UPLOAD_BYTES=4096)
    client, store = app.test_client(), app.extensions["viewer.store"]
    tries = threading.Semaphore(0)

    def refused(*args, **kwargs):
        tries.release()
        raise disk_full(store.engine.dialect.name)
    monkeypatch.setattr(store.processing, "show_first", refused)
    monkeypatch.setattr(store.processing, "finish", refused)
    id = client.post("/api/transcripts", data=harmony(("user", "", "x" * 5000))).get_json()["id"]
    for _ in range(3):
        assert tries.acquire(timeout=WAIT)  # tried again and again
    assert store.get(id).state == "processing"
    app.extensions["viewer.processor"].close()  # stops the retries
    assert app.extensions["viewer.processor"].idle(WAIT)
