"""A real server (`viewer serve`, loopback) SIGKILLed while it processes a big upload it answered 202: after a
restart the upload is processed again from its stored raw bytes and reads whole; nothing answered is lost. With
two servers on one database, the one still running takes the upload over by itself (its periodic sweep), with no
restart, and the two never process more uploads at once than PROCESSING_SLOTS between them."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.harness.crash import request
from tests.harness.gen import generate
from viewer.parse import parse
from viewer.policy import Projection
from viewer.store import Store
from viewer.store.processing import PROCESSING

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60
READY_SECONDS = 120


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(port: int, database: Path, log: Path, **settings: str) -> subprocess.Popen:
    env = {**os.environ, "VIEWER_DEFER_UPLOAD_BYTES": "65536", "VIEWER_PRELOAD_SAMPLES": "false",
           "VIEWER_SECRET_KEY": "test", **{f"VIEWER_{name}": value for name, value in settings.items()}}
    with log.open("ab") as output:  # the server writes to its own copy of the descriptor
        server = subprocess.Popen([sys.executable, "-m", "viewer", "serve", "--port", str(port), "--db",
                                   str(database)], cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            if request("GET", port, "/healthz")[0] == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")


def _kill(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=30)  # reaped: its pid no longer names a process


def test_an_upload_answered_202_survives_a_kill_during_its_processing(tmp_path):
    database, log = tmp_path / "viewer.sqlite3", tmp_path / "server.log"
    raw = generate(megabytes=8).encode()
    port = _free_port()
    server = _serve(port, database, log)
    try:
        status, body = request("POST", port, "/api/transcripts", raw)
        assert status == 202, body[:500]
        _kill(server)
    finally:
        if server.poll() is None:
            _kill(server)
    id = json.loads(body)["id"]
    store = Store(f"sqlite:///{database}")
    assert store.get(id).state == PROCESSING, "the kill came after processing ended: the test proves nothing"
    store.engine.dispose()

    server = _serve(port, database, log)
    try:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            status, twin = request("GET", port, f"/t/{id}.json")
            if status != 409:
                break
            time.sleep(0.25)
        assert status == 200, twin[:500]
        assert json.loads(twin)["messages"]
    finally:
        _kill(server)
    store = Store(f"sqlite:///{database}")
    record, projection = store.get(id), Projection.of(parse(raw))
    assert store.raw(id) == raw and record.ready
    assert (record.message_count, record.hidden_count) == (len(projection.transcript.messages),
                                                           projection.hidden_count)
    assert store.message_row_count(id) == record.message_count
    store.engine.dispose()


def test_a_second_server_takes_over_the_upload_of_a_killed_one_without_a_restart(tmp_path):
    database, log = tmp_path / "viewer.sqlite3", tmp_path / "server.log"
    raw = generate(megabytes=8).encode()
    shared = dict(PROCESSING_SLOTS="1", PROCESSING_LEASE_SECONDS="2")  # a sweep every half second
    first_port, second_port = _free_port(), _free_port()
    first = _serve(first_port, database, log, **shared)
    second = _serve(second_port, database, log, **shared)
    try:
        status, body = request("POST", first_port, "/api/transcripts", raw)
        assert status == 202, body[:500]
        refused, _ = request("POST", second_port, "/api/transcripts", raw)  # the one slot is the first's
        _kill(first)
        id = json.loads(body)["id"]
        store = Store(f"sqlite:///{database}")
        assert store.get(id).state == PROCESSING, "the kill came after processing ended: the test proves nothing"
        store.engine.dispose()
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            status, twin = request("GET", second_port, f"/t/{id}.json")
            if status != 409:
                break
            time.sleep(0.25)
        assert status == 200 and json.loads(twin)["messages"], twin[:500]
    finally:
        for server in (first, second):
            if server.poll() is None:
                _kill(server)
    assert refused == 503
    store = Store(f"sqlite:///{database}")
    assert store.get(id).ready and store.message_row_count(id) == store.get(id).message_count
    store.engine.dispose()
