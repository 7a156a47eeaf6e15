"""A real server (`viewer serve`, loopback) SIGKILLed while it processes a big upload it answered 202: after a
restart the upload is processed again from its stored raw bytes and reads whole; nothing answered is lost."""
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


def _serve(port: int, database: Path, log: Path) -> subprocess.Popen:
    env = {**os.environ, "VIEWER_DEFER_UPLOAD_BYTES": "65536", "VIEWER_PRELOAD_SAMPLES": "false",
           "VIEWER_SECRET_KEY": "test"}
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
