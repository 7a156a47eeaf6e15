"""Faults a shared server meets, tried on a real gunicorn (the README's command: `gunicorn -c gunicorn.conf.py
--workers 2 --threads 4 'viewer.web:create_app()'`, on 127.0.0.1 only): kill -9, SIGTERM, a full disk (a small
tmpfs, when run as root), PostgreSQL stopped and started again (tests/postgres.py's cluster), clients that send a
byte a second, and a flood from one client. Each scenario is bounded in requests and time and reports what the
clients saw: requests answered, their statuses, the uploads acknowledged (201 or 202) that cannot be read whole
afterwards (`lost`, which must be 0), and the seconds from the fault's end to the server storing uploads again.
The flood also reports how much slower another client's page reads became (at most 2×).

Clients are told apart by their source address (127.0.0.2, 127.0.0.3 …: every 127/8 address is this machine),
as the server's limits tell them apart.

    bench/chaos.py [--scenarios kill9,sigterm,full-disk,postgres,slow-clients,flood] [--scale 1]

tests/system/test_chaos.py runs each scenario small.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from tests.harness.crash import transcript as small_transcript
from tests.harness.gen import generate

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
HOST = "127.0.0.1"
READY_SECONDS = 60.0
TIMEOUT = 30.0
BIG = 300 * 1024
"""Uploads bigger than this are answered 202 and processed after (`DEFER_UPLOAD_BYTES` in these servers)."""
UPLOADER, READER, FLOODER, SLOW = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"
"""The clients' addresses."""


# ---- results ------------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    """What one scenario's clients saw."""

    scenario: str
    statuses: collections.Counter = field(default_factory=collections.Counter)
    """Answers by status; `cut` for a request that got no answer (the connection closed or reset)."""
    acknowledged: dict[str, str] = field(default_factory=dict)
    """id → SHA-256 of the bytes of every upload answered 201 or 202."""
    lost: list[str] = field(default_factory=list)
    recover_seconds: float | None = None
    ratio: float | None = None
    """How many times slower another client's page reads were during the scenario (the flood's measure)."""
    notes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def saw(self, status: int | str) -> None:
        with self.lock:
            self.statuses[status] += 1

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())

    @property
    def answered(self) -> int:
        return sum(count for status, count in self.statuses.items() if isinstance(status, int))

    def row(self) -> str:
        statuses = ", ".join(f"{status}: {count}" for status, count in sorted(self.statuses.items(), key=str))
        recover = "—" if self.recover_seconds is None else f"{self.recover_seconds:.1f}"
        return (f"| {self.scenario} | {self.requests} | {self.answered} | {statuses} | {len(self.acknowledged)} | "
                f"{len(self.lost)} | {recover} | {'; '.join(self.notes)} |")


HEADER = ("| scenario | requests | answered | statuses | acknowledged uploads | lost | recover (s) | notes |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- |")


# ---- the server ---------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn (gunicorn.conf.py, its own process group) on a database, with settings of the environment."""

    def __init__(self, database: str, folder: Path, *, workers: int = 2, threads: int = 4, **settings: str) -> None:
        self.database, self.folder, self.workers, self.threads = database, folder, workers, threads
        self.settings = settings
        self.port = free_port()
        self.log = folder / f"gunicorn-{self.port}.log"
        self.process: subprocess.Popen | None = None

    def start(self, wait: bool = True) -> None:
        env = {**os.environ, "VIEWER_DATABASE": self.database, "VIEWER_SECRET_KEY": "chaos",
               "VIEWER_PRELOAD_SAMPLES": "false", "VIEWER_DEFER_UPLOAD_BYTES": str(BIG),
               **{f"VIEWER_{name}": value for name, value in self.settings.items()}}
        command = [str(GUNICORN), "-c", str(ROOT / "gunicorn.conf.py"), "--workers", str(self.workers),
                   "--threads", str(self.threads), "--bind", f"{HOST}:{self.port}", "--graceful-timeout", "30",
                   "--timeout", "30", "--no-control-socket", "viewer.web:create_app()"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log,
                                            start_new_session=True)
        if wait:
            self.wait_ready()

    def wait_ready(self, seconds: float = READY_SECONDS) -> float:
        """Seconds until the server answers (any status: a full disk's /healthz is 503)."""
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}: {self.tail()}")
            try:
                request(self.port, "GET", "/healthz")
                return time.monotonic() - started
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"gunicorn did not answer within {seconds:.0f} s: {self.tail()}")

    def signal(self, number: int) -> None:
        """`number` to gunicorn's master (SIGTERM: a graceful stop of every worker)."""
        if self.process is not None:
            os.kill(self.process.pid, number)

    def kill(self) -> None:
        """SIGKILL to the whole process group: master and workers at once."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.wait()

    def wait(self, seconds: float = 60.0) -> None:
        """Until the master and every worker are gone."""
        if self.process is None:
            return
        self.process.wait(timeout=seconds)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        self.process = None

    def tail(self, lines: int = 30) -> str:
        return "".join(self.log.read_text(errors="replace").splitlines(keepends=True)[-lines:]) if self.log.exists() else ""

    def requests_logged(self, request_line: str) -> int:
        """Requests a worker answered whose line starts so (`POST /api/transcripts`), by its access log
        (gunicorn.conf.py logs each answer)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text.count(f'"{request_line}')

    def errors(self) -> list[str]:
        """Lines of unexpected errors in the server's log (an answer of 500)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return [line for line in text.splitlines() if "unexpected error on" in line]


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]
    seconds: float


def request(port: int, method: str, path: str, body: bytes | None = None, *, client: str = HOST,
            headers: dict[str, str] | None = None, timeout: float = TIMEOUT) -> Answer:
    """One request from `client`'s address; OSError (or http.client's errors) when no answer came."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(client, 0))
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return Answer(response.status, data, {key.lower(): value for key, value in response.getheaders()},
                      time.monotonic() - started)
    finally:
        connection.close()


# ---- what clients do ----------------------------------------------------------------------------------------

def upload_once(port: int, raw: bytes, outcome: Outcome, client: str = UPLOADER) -> Answer | None:
    """One upload (debug allowed, so its raw bytes can be read back); acknowledged on 201 and 202."""
    try:
        answer = request(port, "POST", "/api/transcripts?debug=allow", raw, client=client)
    except ConnectionRefusedError:  # not accepted: the server is gone or no longer listens
        outcome.saw("refused")
        return None
    except (OSError, http.client.HTTPException):  # accepted, and cut off before its answer
        outcome.saw("cut")
        return None
    outcome.saw(answer.status)
    if answer.status in (201, 202):
        with outcome.lock:
            outcome.acknowledged[json.loads(answer.body)["id"]] = hashlib.sha256(raw).hexdigest()
    return answer


def uploads(seed: int, big_every: int = 4, big_megabytes: float = 0.4) -> Iterator[bytes]:
    """Distinct uploads: small Harmony transcripts, every `big_every`th one of `big_megabytes` (over `BIG`:
    answered 202)."""
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        if big_every and number % big_every == 0:
            text = generate(megabytes=big_megabytes, seed=rng.randrange(1 << 30))
            yield text.replace("<|message|>", f"<|message|>upload {seed}-{number} ", 1).encode()
        else:
            yield small_transcript(rng)


def uploading(port: int, outcome: Outcome, stop: threading.Event, seed: int, most: int,
              client: str = UPLOADER, pause: float = 0.0, source: Iterator[bytes] | None = None) -> None:
    """Upload until `stop` or `most` uploads, `pause` seconds apart (a 503 of every slot taken: as Retry-After
    says, at most a second later)."""
    source = source or uploads(seed)
    for _ in range(most):
        if stop.is_set():
            return
        answer = upload_once(port, next(source), outcome, client)
        if answer is None:  # no answer: the server is gone (a kill) or going; this client stops
            return
        if answer.status == 503:
            stop.wait(1.0)
        elif pause:
            stop.wait(pause)


def verify(port: int, outcome: Outcome, seconds: float = 180.0) -> None:
    """Every acknowledged upload is read back whole (its raw bytes) and, once processed, readable; those that are
    not within `seconds` are lost."""
    deadline = time.monotonic() + seconds
    for number, (id, digest) in enumerate(outcome.acknowledged.items()):
        checker = f"127.0.1.{number % 250 + 1}"  # a client of its own, below any limit of reads a minute
        while True:
            try:
                raw = request(port, "GET", f"/t/{id}/raw", client=checker)
                page = request(port, "GET", f"/t/{id}.json", client=checker)
            except (OSError, http.client.HTTPException):
                raw = page = Answer(0, b"", {}, 0.0)
            whole = raw.status == 200 and hashlib.sha256(raw.body).hexdigest() == digest
            if whole and page.status == 200:
                break
            if time.monotonic() > deadline or raw.status in (404, 410) or page.status in (404, 410):
                outcome.lost.append(id)
                break
            time.sleep(0.2)


def until_stored_again(port: int, seconds: float = 120.0) -> float:
    """Seconds until an upload is answered 201 again."""
    started = time.monotonic()
    source = uploads(991, big_every=0)
    while time.monotonic() - started < seconds:
        try:
            if request(port, "POST", "/api/transcripts", next(source), client="127.0.0.9").status == 201:
                return time.monotonic() - started
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"uploads were not stored again within {seconds:.0f} s")


def _threads(targets: list[Callable[[], None]]) -> list[threading.Thread]:
    threads = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    return threads


def _join(threads: list[threading.Thread], seconds: float = TIMEOUT + 30) -> None:
    for thread in threads:
        thread.join(seconds)


def sqlite_database(folder: Path) -> str:
    """A SQLite database made before the first start (several workers creating the tables at once race)."""
    from viewer.store import Store

    url = f"sqlite:///{folder / 'viewer.sqlite3'}"
    Store(url).engine.dispose()
    return url


# ---- the scenarios ------------------------------------------------------------------------------------------

UNLIMITED = {"UPLOADS_PER_HOUR": "0", "EXPENSIVE_PER_MINUTE": "0", "CONCURRENT_UPLOADS": "0"}
"""For the scenarios that try faults, not the limits: their uploaders send more than a client may."""


def kill9(folder: Path, scale: float = 1.0) -> Outcome:
    """Uploads from three clients while the server is killed with SIGKILL, master and workers; then a restart.
    Recovery: from the restart to an upload stored again (the uploads it was processing are taken over at
    start)."""
    outcome = Outcome("kill -9")
    server = Server(sqlite_database(folder), folder, **UNLIMITED)
    server.start()
    stop = threading.Event()
    threads = _threads([lambda n=n: uploading(server.port, outcome, stop, n, int(40 * scale)) for n in range(3)])
    time.sleep(2.0 + scale)
    server.kill()
    stop.set()
    _join(threads)
    started = time.monotonic()
    server.start(wait=False)
    server.wait_ready()
    outcome.recover_seconds = (time.monotonic() - started)
    outcome.recover_seconds += until_stored_again(server.port)
    verify(server.port, outcome)
    _finish(server, outcome)
    return outcome


def sigterm(folder: Path, scale: float = 1.0) -> Outcome:
    """Two servers on one database; uploads (big ones processed after their answer) go to the first, which gets
    SIGTERM while it processes: every request in flight is answered, and what it was processing is handed back
    and finished by the second server. Recovery: from the SIGTERM to the last handed-back upload readable."""
    outcome = Outcome("SIGTERM")
    database = sqlite_database(folder)
    first, second = Server(database, folder, **UNLIMITED), Server(database, folder, **UNLIMITED)
    first.start()
    second.start()
    stop = threading.Event()
    threads = _threads([lambda n=n: uploading(first.port, outcome, stop, 100 + n, int(40 * scale),
                                              source=uploads(100 + n, big_every=2, big_megabytes=6))
                        for n in range(3)])
    time.sleep(2.0 + scale)
    _until_processing(database)
    signalled = time.monotonic()
    first.signal(signal.SIGTERM)
    first.wait()
    stopped = time.monotonic() - signalled
    stop.set()
    _join(threads)
    handed = sum(int(number) for number in re.findall(r"handed back (\d+) upload", first.log.read_text()))
    logged = first.requests_logged("POST /api/transcripts")
    outcome.notes.append(f"stopped in {stopped:.1f} s, handing back {handed} upload(s) being processed; uploads "
                         f"answered by its workers' log {logged}, by the clients {outcome.answered}; "
                         f"{outcome.statuses['cut']} reset while queued, before a worker took them")
    verify(second.port, outcome)
    outcome.recover_seconds = time.monotonic() - signalled
    _finish(second, outcome)
    return outcome


def _until_processing(database: str, seconds: float = 30.0) -> None:
    """Wait (bounded) until some upload is being processed after its answer."""
    from sqlalchemy import create_engine, func, select

    from viewer.store.schema import processing

    engine = create_engine(database)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                if conn.execute(select(func.count()).select_from(processing)).scalar_one():
                    return
            time.sleep(0.05)
    finally:
        engine.dispose()


HEALTH_POLLS = 4
"""/healthz asked this many times after each upload of `full_disk` (its server has two workers)."""


def full_disk(folder: Path, scale: float = 1.0, size_mb: int = 40) -> Outcome:
    """The database and the spool folder on a tmpfs of `size_mb` MB (root only), 3 MB uploads until it is full,
    and more; then room is made (a file put there first is deleted): uploads are stored again without a
    restart. Answers must be 201, 202, 503 or 507, never 500; /healthz must say 503 while the disk is full."""
    outcome = Outcome(f"full disk ({size_mb} MB tmpfs)")
    mount = folder / "tmpfs"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(mount)], check=True)
    server = None
    try:
        filler = mount / "filler"
        filler.write_bytes(b"\0" * (6 << 20))  # deleted to make room
        (mount / "spool").mkdir()
        server = Server(sqlite_database(mount), folder, SPOOL_DIR=str(mount / "spool"),
                        MIN_FREE_BYTES=str(1 << 20), **UNLIMITED)
        server.start()
        raw = generate(megabytes=3, seed=5).encode()
        health: list[int] = []
        for number in range(int(16 * scale)):
            body = raw.replace(b"<|message|>", f"<|message|>{number} ".encode(), 1)
            answer = upload_once(server.port, body, outcome)
            while answer is not None and answer.status == 503 and b"processing as many" in answer.body:
                time.sleep(0.5)  # every slot taken: as Retry-After says
                answer = upload_once(server.port, body, outcome)
            # Each worker answers /healthz from its own memory of the writes it refused (and from the disk's free
            # space, which a refused upload does not use): asked a few times, as a balancer polls, both answer.
            answers = [request(server.port, "GET", "/healthz", client=READER).status for _ in range(HEALTH_POLLS)]
            health.append(503 if 503 in answers else answers[0])
        if 503 not in health:
            outcome.notes.append("healthz never said 503")
        else:
            outcome.notes.append(f"healthz 503 from upload {health.index(503) + 1} on")
        filler.unlink()
        outcome.recover_seconds = until_stored_again(server.port)
        verify(server.port, outcome)
        outcome.notes.append(f"{len(server.errors())} server errors (500)")
    finally:
        if server is not None:
            server.kill()
        subprocess.run(["umount", "-l", str(mount)], check=False)
    return outcome


def postgres_restart(folder: Path, scale: float = 1.0, down_seconds: float = 5.0) -> Outcome:
    """Two workers on PostgreSQL while uploads (big ones processed after their answer) and reads go on;
    PostgreSQL is stopped for `down_seconds` and started again. While it is down, reads and uploads answer 503;
    after, processing resumes and nothing acknowledged is lost. Recovery: from its start to an upload stored."""
    from tests import postgres as pg
    from viewer.store import Store

    outcome = Outcome("PostgreSQL stop/start")
    cluster = pg.start(durable=True)
    server = None
    try:
        url = cluster.url(cluster.create_database())
        Store(url).engine.dispose()
        server = Server(url, folder, **UNLIMITED)
        server.start()
        seeded = upload_once(server.port, next(uploads(7, big_every=0)), outcome)
        assert seeded is not None and seeded.status == 201, seeded
        page = f"/t/{json.loads(seeded.body)['id']}"
        stop = threading.Event()
        down = collections.Counter()

        def reading() -> None:
            while not stop.is_set():
                try:
                    answer = request(server.port, "GET", page, client=READER, timeout=10)
                    outcome.saw(answer.status)
                    if paused.is_set():
                        down[answer.status] += 1
                except (OSError, http.client.HTTPException):
                    outcome.saw("cut")
                stop.wait(0.1)
        paused = threading.Event()
        threads = _threads([lambda n=n: uploading(server.port, outcome, stop, 200 + n, int(30 * scale), pause=0.2)
                            for n in range(2)] + [reading])
        time.sleep(2.0)
        cluster.pause()
        paused.set()
        time.sleep(down_seconds)
        paused.clear()
        cluster.resume()
        outcome.recover_seconds = until_stored_again(server.port)
        after = request(server.port, "GET", page, client=READER)
        stop.set()
        _join(threads)
        outcome.notes.append("reads while down: " + ", ".join(f"{status}: {count}" for status, count in
                                                              sorted(down.items(), key=str))
                             + f"; a read after: {after.status}")
        verify(server.port, outcome)
        outcome.notes.append(f"{len(server.errors())} server errors (500)")
    finally:
        if server is not None:
            server.kill()
        cluster.stop()
    return outcome


def slow_clients(folder: Path, scale: float = 1.0, connections: int = 8, seconds: float = 12.0) -> Outcome:
    """One client opens `connections` uploads and sends their bodies a byte a second, while another reads pages:
    past CONCURRENT_UPLOADS the slow uploads are refused at once (429), the others hold a thread each, and the
    reader is still answered. Reports the reader's page time beside its time before."""
    outcome = Outcome(f"slow clients ({connections} uploads at 1 byte/s)")
    server = Server(sqlite_database(folder), folder, CONCURRENT_UPLOADS="3")
    server.start()
    page = _seed_page(server.port, outcome)
    before = _page_times(server.port, page, 20)
    stop = threading.Event()

    def trickle() -> None:
        try:
            connection = socket.create_connection((HOST, server.port), timeout=TIMEOUT, source_address=(SLOW, 0))
        except OSError:
            outcome.saw("cut")
            return
        with connection:
            connection.sendall(f"POST /api/transcripts HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 1000\r\n"
                               "Content-Type: text/plain\r\n\r\n".encode())
            body = iter(small_transcript(random.Random(1)).ljust(1000)[:1000])
            connection.settimeout(1.0)
            while not stop.is_set():
                try:
                    status = connection.recv(64)
                    if status:
                        outcome.saw(int(status.split()[1]))
                        return
                    outcome.saw("cut")
                    return
                except socket.timeout:
                    pass
                except OSError:
                    outcome.saw("cut")
                    return
                try:
                    connection.sendall(bytes([next(body)]))
                except (OSError, StopIteration):
                    outcome.saw("cut")
                    return
            outcome.saw("still sending")
    threads = _threads([trickle for _ in range(int(connections * scale) or 1)])
    time.sleep(2.0)
    during = _page_times(server.port, page, 20, outcome)
    time.sleep(max(seconds - 2.0 - sum(during), 0))
    stop.set()
    _join(threads)
    outcome.notes.append(f"reader's page {statistics.median(before) * 1000:.0f} ms before, "
                         f"{statistics.median(during) * 1000:.0f} ms during (median)")
    _finish(server, outcome)
    return outcome


def flood(folder: Path, scale: float = 1.0, threads: int = 4, seconds: float = 15.0) -> Outcome:
    """One client floods the expensive routes (search, exports, compare) and uploads from `threads` threads for
    `seconds`, with the default limits; another reads pages. The reader's median page time during the flood is
    at most twice its time before (`ratio` in the notes). The flooder is a process of its own, as another
    machine would be: its threads would otherwise hold the reader's interpreter lock and slow the reader's
    measure as much as the server does."""
    outcome = Outcome(f"flood ({threads} threads from one client)")
    server = Server(sqlite_database(folder), folder)
    server.start()
    page = _seed_page(server.port, outcome)
    before = _page_times(server.port, page, 40)
    processes = multiprocessing.get_context("spawn")
    results = processes.Queue()
    flooder = processes.Process(target=_flooder, args=(server.port, page.rsplit("/", 1)[1], threads,
                                                       1.0 + seconds * scale, results), daemon=True)
    flooder.start()
    time.sleep(1.0)
    deadline = time.monotonic() + seconds * scale
    during: list[float] = []
    while time.monotonic() < deadline:
        during += _page_times(server.port, page, 5, outcome)
    statuses, acknowledged = results.get(timeout=TIMEOUT + 60)
    flooder.join(TIMEOUT)
    outcome.statuses.update(statuses)
    outcome.acknowledged.update(acknowledged)
    ratio = statistics.median(during) / statistics.median(before)
    outcome.notes.append(f"reader's page {statistics.median(before) * 1000:.0f} ms before, "
                         f"{statistics.median(during) * 1000:.0f} ms during (median): {ratio:.2f}×")
    outcome.ratio = ratio
    verify(server.port, outcome)
    _finish(server, outcome)
    return outcome


def _flooder(port: int, id: str, threads: int, seconds: float, results: multiprocessing.Queue) -> None:
    """The flooding client (a process of its own): every fifth request an upload, the others the expensive
    routes in turn, from `threads` threads for `seconds`; puts what it saw (statuses, acknowledged uploads)."""
    outcome = Outcome("flooder")
    stop = threading.Event()
    routes = [f"/t/{id}/search?q=weather", f"/t/{id}.json", f"/t/{id}.md", f"/t/{id}.html", f"/compare/{id}/{id}"]

    def flooding(number: int) -> None:
        source = uploads(500 + number, big_every=0)
        turn = 0
        while not stop.is_set():
            turn += 1
            if turn % 5 == 0:
                upload_once(port, next(source), outcome, FLOODER)
                continue
            try:
                outcome.saw(request(port, "GET", routes[turn % len(routes)], client=FLOODER).status)
            except (OSError, http.client.HTTPException):
                outcome.saw("cut")
    pool = _threads([lambda n=n: flooding(n) for n in range(threads)])
    time.sleep(seconds)
    stop.set()
    _join(pool)
    results.put((dict(outcome.statuses), outcome.acknowledged))


def _seed_page(port: int, outcome: Outcome) -> str:
    """A stored transcript's page for the reader."""
    raw = (ROOT / "tests" / "web" / "fixtures" / "harmony-weather.txt").read_bytes()
    answer = upload_once(port, raw, outcome, client="127.0.0.8")
    assert answer is not None and answer.status == 201, answer
    return f"/t/{json.loads(answer.body)['id']}"


def _page_times(port: int, page: str, count: int, outcome: Outcome | None = None) -> list[float]:
    times = []
    for _ in range(count):
        answer = request(port, "GET", page, client=READER)
        if outcome is not None:
            outcome.saw(answer.status)
        times.append(answer.seconds)
    return times


def _finish(server: Server, outcome: Outcome) -> None:
    errors = server.errors()
    if errors:
        outcome.notes.append(f"{len(errors)} server errors (500)")
    server.kill()


SCENARIOS: dict[str, Callable[..., Outcome]] = {"kill9": kill9, "sigterm": sigterm, "full-disk": full_disk,
                                                 "postgres": postgres_restart, "slow-clients": slow_clients,
                                                 "flood": flood}


def run(names: list[str], scale: float, keep: Path | None = None) -> list[Outcome]:
    outcomes = []
    for name in names:
        if name == "full-disk" and os.geteuid() != 0:
            print(f"{name}: skipped (mounting a tmpfs needs root)", flush=True)
            continue
        folder = Path(tempfile.mkdtemp(prefix=f"viewer-chaos-{name}-", dir=keep))
        try:
            started = time.monotonic()
            outcome = SCENARIOS[name](folder, scale)
            print(f"{name}: done in {time.monotonic() - started:.0f} s", flush=True)
            outcomes.append(outcome)
        finally:
            if keep is None:
                shutil.rmtree(folder, ignore_errors=True)
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated, of: " + ", ".join(SCENARIOS))
    parser.add_argument("--scale", type=float, default=1.0, help="more or fewer requests per scenario")
    parser.add_argument("--keep", type=Path, help="work (and keep the logs) in this folder")
    args = parser.parse_args()
    outcomes = run([name.strip() for name in args.scenarios.split(",") if name.strip()], args.scale, args.keep)
    print(HEADER)
    for outcome in outcomes:
        print(outcome.row())
    bad = [outcome.scenario for outcome in outcomes
           if outcome.lost or outcome.statuses.get(500) or (outcome.ratio or 0) > 2.0]
    if bad:
        print(f"failed: {', '.join(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
