"""Durability: the crash harness (tests/harness/crash.py, long run: bench/crash.py) in small (a gunicorn server SIGKILLed mid-upload loses nothing it confirmed), and
several server processes opening one fresh database at once."""
from __future__ import annotations

import multiprocessing
import os

from tests.harness import crash as crash_harness
from viewer.store import Store

PROCESSES = 6
ATTEMPTS = 4


def test_confirmed_uploads_survive_sigkill_byte_for_byte(tmp_path):
    totals = crash_harness.run(rounds=1, workers=2, threads=3, per_thread=12, seed=5, kill_after=(0.8, 1.2),
                             workdir=tmp_path)
    summary = totals.summary()
    assert summary["rounds"] == 1
    assert summary["uploads_confirmed"] > 0, crash_harness.server_errors(tmp_path / "gunicorn.log")
    assert summary["lost"] == 0 and summary["changed"] == 0
    assert summary["integrity_failures"] == []
    assert summary["unexpected_status"] == {}, crash_harness.server_errors(tmp_path / "gunicorn.log")
    assert crash_harness.integrity(tmp_path / "viewer.sqlite3") == "ok"


def test_a_kill_leaves_no_server_process_behind(tmp_path):
    crash_harness.create_schema(tmp_path / "viewer.sqlite3")
    server = crash_harness.Server(tmp_path / "viewer.sqlite3", workers=2, log=tmp_path / "gunicorn.log")
    server.start()
    group = server.process.pid
    server.kill()
    try:
        os.killpg(group, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive


def _open_store(url: str, barrier, results) -> None:
    barrier.wait(timeout=30)
    try:
        Store(url).engine.dispose()
        results.put("ok")
    except Exception as error:  # noqa: BLE001 - reported to the parent
        results.put(f"{type(error).__name__}: {str(error).splitlines()[0]}")


def test_several_processes_can_open_one_fresh_database(tmp_path):
    """What gunicorn does with --workers N on a new install: N processes create the schema at once. Each must
    start (a worker that raises makes gunicorn halt with "Worker failed to boot")."""
    context = multiprocessing.get_context("fork")
    failures = []
    for attempt in range(ATTEMPTS):
        url = f"sqlite:///{tmp_path / f'fresh-{attempt}.sqlite3'}"
        barrier, results = context.Barrier(PROCESSES), context.Queue()
        processes = [context.Process(target=_open_store, args=(url, barrier, results)) for _ in range(PROCESSES)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(timeout=60)
        failures += [outcome for outcome in (results.get(timeout=5) for _ in processes) if outcome != "ok"]
    assert failures == []
