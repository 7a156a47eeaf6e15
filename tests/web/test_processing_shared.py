"""Processing shared by several serving processes on one database (viewer/ingest/processor.py, store/slots.py):
two apps on one database never process more uploads at once than PROCESSING_SLOTS between them (503 with
Retry-After beyond, nothing stored), and an upload whose process stopped saying it is alive is taken over by a
live app within its lease, without a restart. On SQLite and PostgreSQL."""
from __future__ import annotations

import time

from tests.web.conftest import WEATHER
from tests.web.test_processing import BIG, THRESHOLD, WAIT, _upload, gate  # noqa: F401 - `gate` is a fixture
from viewer import ingest
from viewer.store.processing import PROCESSING

LEASE = 1.0
"""A lease short enough for a test: the apps sweep every quarter of it."""


def test_two_apps_on_one_database_share_the_processing_slots(make_app, gate):
    first, second = (make_app(DEFER_UPLOAD_BYTES=THRESHOLD, PROCESSING_SLOTS=1) for _ in range(2))
    assert _upload(first.test_client()).status_code == 202  # held by the gate: its slot stays taken
    for raw in (BIG, WEATHER.read_bytes()):  # answered later, or in its request: both need the one slot
        refused = _upload(second.test_client(), raw)
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    store = first.extensions["viewer.store"]
    assert len(store.ids()) == 1  # nothing of the refused uploads was stored
    gate.set()
    assert first.extensions["viewer.processor"].idle(WAIT)
    assert _upload(second.test_client(), WEATHER.read_bytes()).status_code == 201


def test_an_upload_whose_holder_stopped_beating_is_taken_over_without_a_restart(make_app):
    app = make_app(DEFER_UPLOAD_BYTES=THRESHOLD, PROCESSING_SLOTS=1, PROCESSING_LEASE_SECONDS=LEASE)
    store = app.extensions["viewer.store"]
    stopped = "another-host:4242:stopped"
    assert store.slots.take(stopped, 1, lambda worker, beat: False) == 0  # it held the one slot, too
    ingest.accept(store, BIG, id="held-by-a-stopped-process-0001", worker=stopped)
    assert _upload(app.test_client(), WEATHER.read_bytes()).status_code == 503  # its lease still runs
    assert store.get("held-by-a-stopped-process-0001").state == PROCESSING
    deadline = time.monotonic() + WAIT
    while not store.get("held-by-a-stopped-process-0001").ready and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store.get("held-by-a-stopped-process-0001").ready  # the app's sweep took it over and processed it
    assert store.message_row_count("held-by-a-stopped-process-0001") > 0
    assert app.extensions["viewer.processor"].idle(WAIT)
    assert stopped not in {worker for worker, _ in store.slots.holders().values()}
