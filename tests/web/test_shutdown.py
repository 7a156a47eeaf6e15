"""Graceful shutdown (viewer/ingest/processor.py `shut_down`, called by gunicorn.conf.py's `worker_exit` and by
`viewer serve` on SIGTERM): the process takes no new processing work, hands back what it was processing, and
another process (or the next start) takes it over at once; the first process's late writes store nothing. Both
databases. A real gunicorn stopped with SIGTERM: tests/system/test_chaos.py."""
from __future__ import annotations

import threading

from tests.web.conftest import WEATHER
from viewer.ingest import deferred
from viewer.store.processing import RELEASED
from viewer.store.schema import processing

WAIT = 30.0
BIG = WEATHER.read_bytes() * 40


def _hold_processing(monkeypatch) -> threading.Event:
    """Every upload processed after its answer waits until the event is set."""
    opened, real = threading.Event(), deferred.process

    def held(store, id, **options):
        assert opened.wait(WAIT)
        return real(store, id, **options)
    monkeypatch.setattr(deferred, "process", held)
    return opened


def test_shutting_down_hands_back_what_is_processed_and_another_process_finishes_it_at_once(make_app,
                                                                                            monkeypatch):
    first, second = make_app(DEFER_UPLOAD_BYTES=4096), make_app(DEFER_UPLOAD_BYTES=4096)
    opened = _hold_processing(monkeypatch)
    created = first.test_client().post("/api/transcripts", data=BIG)
    assert created.status_code == 202
    id = created.get_json()["id"]
    store = first.extensions["viewer.store"]
    assert first.extensions["viewer.processor"].shut_down() == [id]
    with store.engine.connect() as conn:
        assert conn.execute(processing.select()).one().worker == RELEASED
    assert second.extensions["viewer.processor"].sweep() == [id]  # taken over now, not after a lease
    opened.set()  # both threads go on; the first one's writes are refused
    assert second.extensions["viewer.processor"].idle(WAIT) and first.extensions["viewer.processor"].idle(WAIT)
    record = store.get(id)
    assert record.ready and second.test_client().get(f"/t/{id}.json").status_code == 200


def test_a_process_shutting_down_takes_no_new_processing_work(make_app):
    app = make_app(DEFER_UPLOAD_BYTES=4096)
    app.extensions["viewer.processor"].shut_down()
    client = app.test_client()
    for body in (BIG, WEATHER.read_bytes()):  # answered after, or processed in its request: both take a slot
        refused = client.post("/api/transcripts", data=body)
        assert refused.status_code == 503 and "Retry-After" in refused.headers
    assert app.extensions["viewer.processor"].sweep() == []


def test_the_next_start_takes_over_an_upload_handed_back(make_app, monkeypatch):
    first = make_app(DEFER_UPLOAD_BYTES=4096)
    opened = _hold_processing(monkeypatch)
    id = first.test_client().post("/api/transcripts", data=BIG).get_json()["id"]
    first.extensions["viewer.processor"].shut_down()
    opened.set()
    assert first.extensions["viewer.processor"].idle(WAIT)
    assert first.extensions["viewer.store"].get(id).state == "processing"  # nothing stored by the stopped one
    restarted = make_app(DEFER_UPLOAD_BYTES=4096)  # its start sweeps
    assert restarted.extensions["viewer.processor"].idle(WAIT)
    assert restarted.extensions["viewer.store"].get(id).ready
