"""Durability under SIGKILL: confirmed uploads survive a crash byte for byte, and the database stays sound.

Each round starts gunicorn (several workers, 127.0.0.1, a temporary SQLite database kept across rounds, the
entry point the README documents: `gunicorn 'viewer.web:create_app()'`), uploads from several threads through
POST /api/transcripts (a bounded number per thread), and kills the whole server (master and workers) with
SIGKILL at a random moment. Then `PRAGMA integrity_check` runs on the crashed database, the server restarts,
and every upload ever confirmed with 201 is fetched from /t/<id>/raw and compared byte for byte.

Run: .venv/bin/python bench/crash.py --rounds 20 [--workers 3] [--threads 4] [--per-thread 200] [--seed 1]
Prints a JSON summary; exits 1 if anything confirmed was lost or changed, or the integrity check failed.
"""
from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
HOST = "127.0.0.1"
READY_TIMEOUT = 60.0
REQUEST_TIMEOUT = 30.0


@dataclass
class Totals:
    rounds: int = 0
    attempted: int = 0
    confirmed: int = 0
    failed_in_flight: int = 0
    """Uploads cut off by the kill (no 201 received): allowed to be lost."""
    lost: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    integrity: list[str] = field(default_factory=list)
    """`PRAGMA integrity_check` results other than ok."""
    unexpected_status: dict[int, int] = field(default_factory=dict)

    def summary(self) -> dict:
        return {"rounds": self.rounds, "uploads_attempted": self.attempted, "uploads_confirmed": self.confirmed,
                "cut_off_by_kill": self.failed_in_flight, "lost": len(self.lost), "changed": len(self.changed),
                "integrity_failures": self.integrity, "unexpected_status": self.unexpected_status,
                "lost_ids": self.lost[:10], "changed_ids": self.changed[:10]}

    @property
    def ok(self) -> bool:
        return not (self.lost or self.changed or self.integrity or self.unexpected_status)


# ---- the server ---------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn in its own process group, so that SIGKILL reaches the master and every worker at once."""

    def __init__(self, database: Path, workers: int, log: Path) -> None:
        self.database, self.workers, self.log = database, workers, log
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        # No per-client limits: its threads upload more in a minute than one client may in an hour.
        env = {**os.environ, "VIEWER_DATABASE": str(self.database), "VIEWER_SECRET_KEY": "crash-bench",
               "VIEWER_PRELOAD_SAMPLES": "false", "VIEWER_LIMITS": "false"}
        command = [str(GUNICORN), "--workers", str(self.workers), "--bind", f"{HOST}:{self.port}",
                   "--graceful-timeout", "1", "--no-control-socket", "viewer.web:create_app()"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log,
                                            start_new_session=True)
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}; see {self.log}")
            try:
                if request("GET", self.port, "/t/none")[0] == 404:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {READY_TIMEOUT:.0f} s; see {self.log}")

    def kill(self) -> None:
        """SIGKILL to the server's own process group (the master and its workers, nothing else)."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
        self._wait_for_workers()
        self.process = None

    def _wait_for_workers(self) -> None:
        # Workers die with the group; wait (bounded) until none of them still holds the database open.
        for _ in range(100):
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


def request(method: str, port: int, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        connection.request(method, path, body=body)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


# ---- uploads ------------------------------------------------------------------------------------------------

def transcript(rng: random.Random) -> bytes:
    """A Harmony transcript of random size; one in five has raw bytes (invalid UTF-8, NUL, CR) sprinkled in, to
    test byte-exactness (sparsely enough that it still reads as text: mostly-binary uploads are refused)."""
    text = _harmony_text(rng)
    if rng.random() < 0.2:
        return _sprinkle_raw_bytes(rng, text)
    return text


def _sprinkle_raw_bytes(rng: random.Random, text: bytes) -> bytes:
    spots = sorted(rng.sample(range(len(text)), k=max(1, len(text) // 50)))
    pieces, previous = [], 0
    for spot in spots:
        pieces += [text[previous:spot], rng.randbytes(1)]
        previous = spot
    return b"".join(pieces) + text[previous:]


def _harmony_text(rng: random.Random) -> bytes:
    messages = []
    for n in range(rng.randint(1, 60)):
        words = " ".join(rng.choice(("alpha", "beta", "**bold**", "`code`", "é", "\r\n", "🙂", str(n)))
                         for _ in range(rng.randint(1, 200)))
        role, channel = rng.choice((("user", ""), ("assistant", "<|channel|>analysis"),
                                    ("assistant", "<|channel|>final")))
        messages.append(f"<|start|>{role}{channel}<|message|>{words}<|end|>")
    return "".join(messages).encode()


def uploader(port: int, rng: random.Random, limit: int, stop: threading.Event, confirmed: dict[str, str],
             totals: Totals, lock: threading.Lock) -> None:
    for _ in range(limit):
        if stop.is_set():
            return
        raw = transcript(rng)
        with lock:
            totals.attempted += 1
        try:
            status, body = request("POST", port, "/api/transcripts?debug=allow", raw)
        except (OSError, http.client.HTTPException):  # killed mid-request: not confirmed, may be lost
            with lock:
                totals.failed_in_flight += 1
            return
        if status == 201:
            with lock:
                confirmed[json.loads(body)["id"]] = hashlib.sha256(raw).hexdigest()
                totals.confirmed += 1
        else:
            with lock:
                totals.unexpected_status[status] = totals.unexpected_status.get(status, 0) + 1


def create_schema(database: Path) -> None:
    """Create the tables before the first start. Several gunicorn workers creating them at once on a fresh
    database race (`table … already exists`, and gunicorn halts: "Worker failed to boot"); that bug has its own
    test in tests/system/test_durability.py, and this benchmark measures crashes, not boots."""
    sys.path.insert(0, str(ROOT))
    from viewer.store import Store

    Store(f"sqlite:///{database}").engine.dispose()


def server_errors(log: Path) -> dict[str, int]:
    """Distinct exception lines in gunicorn's log, with counts."""
    found: dict[str, int] = {}
    if log.exists():
        for line in log.read_text(errors="replace").splitlines():
            if re.match(r"[A-Za-z_][\w.]*(Error|Exception): ", line):
                found[line[:200]] = found.get(line[:200], 0) + 1
    return found


def integrity(database: Path) -> str:
    connection = sqlite3.connect(database)
    try:
        return "; ".join(row[0] for row in connection.execute("PRAGMA integrity_check"))
    finally:
        connection.close()


def verify(port: int, confirmed: dict[str, str], totals: Totals) -> None:
    for id, digest in confirmed.items():
        status, body = request("GET", port, f"/t/{id}/raw")
        if status != 200:
            totals.lost.append(id)
        elif hashlib.sha256(body).hexdigest() != digest:
            totals.changed.append(id)


# ---- rounds -------------------------------------------------------------------------------------------------

def run(rounds: int, workers: int, threads: int, per_thread: int, seed: int, kill_after: tuple[float, float],
        workdir: Path, progress: bool = False) -> Totals:
    rng = random.Random(seed)
    database = workdir / "viewer.sqlite3"
    server = Server(database, workers, workdir / "gunicorn.log")
    confirmed: dict[str, str] = {}
    totals = Totals()
    lock = threading.Lock()
    create_schema(database)
    try:
        for number in range(rounds):
            server.start()
            stop = threading.Event()
            pool = [threading.Thread(target=uploader, args=(server.port, random.Random(rng.random()), per_thread,
                                                            stop, confirmed, totals, lock), daemon=True)
                    for _ in range(threads)]
            for thread in pool:
                thread.start()
            time.sleep(rng.uniform(*kill_after))
            server.kill()
            stop.set()
            for thread in pool:
                thread.join(timeout=REQUEST_TIMEOUT + 5)
            result = integrity(database)
            if result != "ok":
                totals.integrity.append(f"round {number}: {result}")
            server.start()
            verify(server.port, confirmed, totals)
            server.kill()
            totals.rounds += 1
            if progress:
                print(f"round {number + 1}: {totals.confirmed} confirmed, {len(totals.lost)} lost", flush=True)
    finally:
        server.kill()
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--per-thread", type=int, default=200, help="uploads per thread per round at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-kill", type=float, default=0.5, help="seconds of uploading before the kill, at least")
    parser.add_argument("--max-kill", type=float, default=3.0, help="… and at most")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (database, gunicorn.log)")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="viewer-crash-") as temporary:
        workdir = args.keep or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        totals = run(args.rounds, args.workers, args.threads, args.per_thread, args.seed,
                     (args.min_kill, args.max_kill), workdir, progress=True)
        errors = server_errors(workdir / "gunicorn.log")
    print(json.dumps({**totals.summary(), "server_errors": errors,
                      "seconds": round(time.perf_counter() - started, 1)}, indent=2))
    return 0 if totals.ok else 1


if __name__ == "__main__":
    sys.exit(main())
