"""SIGTERM to `viewer serve` (what systemd and Docker send): the server stops by itself, answers what it was
asked, and hands back the upload it was processing, which the next start takes over at once and finishes."""
from __future__ import annotations

import json
import os
import signal
import time

from sqlalchemy import create_engine, select

from tests.harness.crash import request
from tests.harness.gen import generate
from tests.system.test_processing_recovery import READY_SECONDS, _free_port, _kill, _serve
from viewer.store.processing import RELEASED
from viewer.store.schema import processing


def test_sigterm_stops_viewer_serve_and_hands_back_the_upload_it_processes(tmp_path):
    database, log = tmp_path / "viewer.sqlite3", tmp_path / "server.log"
    port = _free_port()
    server = _serve(port, database, log)
    try:
        # Big enough that its processing outlasts the stop (serve_forever notices a shutdown within half a second):
        # a 12 MB one is now stored in about a second, and was sometimes done before the stop.
        status, body = request("POST", port, "/api/transcripts", generate(megabytes=48).encode())
        assert status == 202, body[:300]
        os.killpg(server.pid, signal.SIGTERM)
        assert server.wait(timeout=60) == 0, log.read_text()[-2000:]
    finally:
        if server.poll() is None:
            _kill(server)
    id = json.loads(body)["id"]
    engine = create_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        held = conn.execute(select(processing.c.worker).where(processing.c.transcript_id == id)).scalar()
    engine.dispose()
    assert held == RELEASED, f"processing ended before the SIGTERM: the test proves nothing ({held})"

    server = _serve(port, database, log)
    try:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline and request("GET", port, f"/t/{id}.json")[0] == 409:
            time.sleep(0.2)
        assert request("GET", port, f"/t/{id}.json")[0] == 200
    finally:
        _kill(server)
