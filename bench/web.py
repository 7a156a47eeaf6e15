"""Web benchmark: upload, page views and load on generated Harmony transcripts of 1, 10 and 50 MB (or, with
`--format claude-code`, Claude Code sessions of those sizes, text only: tests/harness/agents.py).

Run: `.venv/bin/python bench/web.py [--sizes 1 10 50] [--requests 300] [--format harmony|claude-code]`
(`make bench` runs it after bench/parse.py). Prints figures; asserts nothing. Each measurement runs in a fresh
Python process, so its peak memory is its own:

- upload: POST /api/transcripts through the Flask test client until the link comes back (parse, policy, store,
  commit), beside `parse()` of the same bytes in the same process (their ratio: target ≤ 1.5×), with the split
  between projecting (parse + policy) and storing; peak RSS of the process above what
  it held before the request (the raw bytes included), and Python's own peak allocations (tracemalloc, in a
  separate run because tracing slows Python down).
- pages: the first page of the default and the debug view, a window in the middle, and deep links near the end,
  served by werkzeug on loopback: time to first byte and total time per request, the first request cold
  (fresh process), the rest the median of 5; server time is the Flask test client's time for the same request.
  Peak RSS above the idle app while serving all of them.
- exports: the default view's `.json` twin, streamed, read to the end: time, size, peak RSS above idle; then
  its `.md` and `.html` exports; the best of two runs of each beside the best of two parses of the same bytes
  in the same process (target: at least half of parse speed).
- load: the default view's first page under gunicorn (2 workers × 4 threads) with 8 client threads on
  loopback, a fixed number of requests: requests/s and latency percentiles.
- PostgreSQL, beside SQLite: upload → link and the first page's server times (default and debug), the same
  children on a database of a throwaway cluster (tests/postgres.py, with PostgreSQL's durable settings, as
  SQLite's are: synchronous=FULL). Left out, with a note, when PostgreSQL is not installed.
"""
from __future__ import annotations

import argparse
import gc
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import postgres as pg  # noqa: E402
from tests.harness.agents import claude_code  # noqa: E402
from tests.harness.gen import generate  # noqa: E402

MB = 1_000_000
FORMATS = {"harmony": generate, "claude-code": claude_code}
FORMAT_VARIABLE = "VIEWER_BENCH_FORMAT"
"""How `main` tells its child processes which format to generate."""


def transcript(size: float) -> bytes:
    """The generated transcript of `size` MB in the format this run measures."""
    return FORMATS[os.environ.get(FORMAT_VARIABLE, "harmony")](megabytes=size).encode()
RUNS = 5
CLIENT_THREADS = 8


# ---- memory ---------------------------------------------------------------------------------------------

def _status(field: str) -> int:
    """A VmRSS/VmHWM figure of this process, in bytes."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def reset_peak() -> int:
    """Forget the peak RSS so far (Linux: clear_refs 5) and return the current RSS."""
    gc.collect()
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    return _status("VmRSS")


def peak_since(baseline: int) -> int:
    return _status("VmHWM") - baseline


# ---- children: each prints one JSON object ---------------------------------------------------------------

def _app(database: str):
    from viewer.web import create_app

    return create_app({"DATABASE": database, "SECRET_KEY": "bench", "PRELOAD_SAMPLES": False,
                       "MAX_UPLOAD_BYTES": 1 << 30})


def child_upload(size: float, database: str, traced: bool) -> dict[str, Any]:
    app = _app(database)
    client = app.test_client()
    raw = transcript(size)
    baseline = reset_peak()
    if traced:
        tracemalloc.start()
    started = time.perf_counter()
    response = client.post("/api/transcripts?debug=allow", data=raw)
    elapsed = time.perf_counter() - started
    result = {"id": response.get_json()["id"], "bytes": len(raw), "upload_s": elapsed,
              "peak_rss": peak_since(baseline)}
    if traced:
        result["traced_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    store = app.extensions["viewer.store"]
    record = store.get(result["id"])
    result.update(messages=record.message_count, visible=record.visible_count)
    if not traced:  # the yardstick of upload → link: parse() of the same bytes, in the same process
        from viewer.parse import parse

        result["parse_s"] = min(timed(lambda: parse(raw)) for _ in range(2))
    return result


def timed(function: Callable[[], Any]) -> float:
    gc.collect()
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def child_phases(size: float, database: str) -> dict[str, Any]:
    from viewer.ingest import project
    from viewer.ingest import STORED_VERSION
    from viewer.store import Store

    store = Store(f"sqlite:///{database}")
    raw = transcript(size)
    started = time.perf_counter()
    projection = project(raw)
    analysed = time.perf_counter()
    store.add(raw, projection, STORED_VERSION, id="phases")
    stored = time.perf_counter()
    return {"analyse_s": analysed - started, "store_s": stored - analysed}


def _headers(path: str) -> dict[str, str]:
    return {"HX-Request": "true"} if "/window?" in path else {}


def _timed_get(port: int, path: str) -> tuple[float, float, int]:
    """(time to first byte, total time, body bytes) of one GET over a fresh loopback connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    connection.request("GET", path, headers=_headers(path))
    response = connection.getresponse()
    first_byte = time.perf_counter() - started
    body = response.read()
    total = time.perf_counter() - started
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status}")
    return first_byte, total, len(body)


def _server_time(client, path: str) -> float:
    started = time.perf_counter()
    client.get(path, headers=_headers(path)).get_data()
    return time.perf_counter() - started


def child_pages(database: str, id: str, messages: int, visible: int) -> dict[str, Any]:
    from werkzeug.serving import make_server

    app = _app(database)
    client = app.test_client()
    server = make_server("127.0.0.1", 0, app, threaded=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_port
    middle = visible // 2 // 100 * 100
    paths = {
        "first page, default": f"/t/{id}",
        "first page, debug": f"/t/{id}?view=debug",
        "middle window (htmx)": f"/t/{id}/window?start={middle}",
        "deep link near the end, default": f"/t/{id}?at={messages - 5}",
        "deep link near the end, debug": f"/t/{id}?view=debug&at={messages - 5}",
    }
    baseline = reset_peak()
    result: dict[str, Any] = {}
    cold = _timed_get(port, paths["first page, default"])
    result["cold first page"] = {"ttfb": cold[0], "total": cold[1], "bytes": cold[2]}
    for name, path in paths.items():
        timings = [_timed_get(port, path) for _ in range(RUNS)]
        server_times = [_server_time(client, path) for _ in range(RUNS)]
        result[name] = {"ttfb": statistics.median(t[0] for t in timings),
                        "total": statistics.median(t[1] for t in timings), "bytes": timings[0][2],
                        "server": statistics.median(server_times)}
    result["peak_rss"] = peak_since(baseline)
    result["peak_rss_total"] = _status("VmHWM")
    server.shutdown()
    return result


def child_json(database: str, id: str, size: float) -> dict[str, Any]:
    """The default view's JSON twin, then its Markdown and HTML exports, each streamed and read to the end,
    beside parse() of the same bytes in this process (the yardstick: target ≥ ½ of parse speed)."""
    app = _app(database)
    client = app.test_client()
    client.get(f"/t/{id}")  # warm the app up: imports and templates are not the twin's cost
    from viewer.parse import parse

    raw = transcript(size)
    parse_s = min(timed(lambda: parse(raw)) for _ in range(2))
    baseline = reset_peak()
    started = time.perf_counter()
    response = client.get(f"/t/{id}.json", buffered=False)
    first_byte = time.perf_counter() - started
    size_read = sum(len(chunk) for chunk in response.response)
    response.close()
    result = {"ttfb": first_byte, "total": time.perf_counter() - started, "bytes": size_read,
              "peak_rss": peak_since(baseline), "parse_s": parse_s}
    # Each download's speed beside the parse's: the best of two, as the parse's is (one run of a download swung
    # by a third on this machine's load), each with the cache of rendered bodies emptied first, so that both are
    # a first export's (a second .html of 10 MB took a third of the time, its bodies already rendered).
    for export in ("json", "md", "html"):
        result[export] = min(timed(lambda: read_cold(client, f"/t/{id}.{export}")) for _ in range(2))
    return result


def read_cold(client: Any, path: str) -> None:
    """`read_to_end` with the process's cache of rendered bodies (viewer/present/cards.py) emptied first."""
    from viewer.present import cards

    with cards._CACHE_LOCK:
        cards._CACHE.clear()
    read_to_end(client, path)


def read_to_end(client: Any, path: str) -> None:
    """A streamed download read to its end (a figure of an error page would mean nothing)."""
    response = client.get(path, buffered=False)
    assert response.status_code == 200, (path, response.status_code)
    for _ in response.response:
        pass
    response.close()


# ---- load under gunicorn ----------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def load(database: str, id: str, requests: int) -> dict[str, Any]:
    port = _free_port()
    env = {**os.environ, "VIEWER_DATABASE": database, "VIEWER_PRELOAD_SAMPLES": "false",
           "VIEWER_SECRET_KEY": "bench"}
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", "2", "--threads", "4", "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning", "viewer.web:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        _wait_for(port, f"/t/{id}")
        for _ in range(10):  # warm both workers
            _timed_get(port, f"/t/{id}")
        latencies: list[float] = []
        lock = threading.Lock()
        remaining = [requests]

        def worker() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while True:
                with lock:
                    if remaining[0] == 0:
                        break
                    remaining[0] -= 1
                started = time.perf_counter()
                connection.request("GET", f"/t/{id}")
                response = connection.getresponse()
                response.read()
                elapsed = time.perf_counter() - started
                if response.status != 200:
                    raise RuntimeError(f"status {response.status}")
                with lock:
                    latencies.append(elapsed)
            connection.close()

        threads = [threading.Thread(target=worker) for _ in range(CLIENT_THREADS)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        elapsed = time.perf_counter() - started
    finally:
        gunicorn.send_signal(signal.SIGTERM)
        gunicorn.wait(timeout=30)
    latencies.sort()
    return {"requests": len(latencies), "rps": len(latencies) / elapsed,
            "p50": latencies[len(latencies) // 2], "p99": latencies[min(len(latencies) - 1,
                                                                          int(len(latencies) * 0.99))]}


def _wait_for(port: int, path: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            _timed_get(port, path)
            return
        except (OSError, RuntimeError, http.client.HTTPException):
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


# ---- driver -----------------------------------------------------------------------------------------------

CHILDREN: dict[str, Callable[..., dict[str, Any]]] = {
    "upload": lambda a: child_upload(a.size, a.db, traced=False),
    "upload-traced": lambda a: child_upload(a.size, a.db, traced=True),
    "phases": lambda a: child_phases(a.size, a.db),
    "pages": lambda a: child_pages(a.db, a.id, a.messages, a.visible),
    "json": lambda a: child_json(a.db, a.id, a.size),
}


def run_child(kind: str, **options: Any) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", kind]
    for key, value in options.items():
        command.append(f"--{key}={value}")  # one word: an id may start with "-"
    output = subprocess.run(command, check=True, capture_output=True, text=True, timeout=900, cwd=ROOT).stdout
    return json.loads(output.strip().splitlines()[-1])


def measure(size: float, folder: Path, requests: int, cluster: pg.Cluster | None) -> dict[str, Any]:
    database = str(folder / f"bench-{size:g}mb.sqlite3")
    upload = run_child("upload", size=size, db=database)
    traced = run_child("upload-traced", size=size, db=str(folder / f"traced-{size:g}mb.sqlite3"))
    phases = run_child("phases", size=size, db=str(folder / f"phases-{size:g}mb.sqlite3"))
    ids = {"db": database, "id": upload["id"]}
    pages = run_child("pages", **ids, messages=upload["messages"], visible=upload["visible"])
    twin = run_child("json", **ids, size=size)
    return {"upload": upload, "traced": traced, "phases": phases, "pages": pages, "json": twin,
            "load": load(database, upload["id"], requests), "postgres": measure_postgres(size, cluster)}


def measure_postgres(size: float, cluster: pg.Cluster | None) -> dict[str, Any] | None:
    """The same upload and page children on a new database of the cluster (None without PostgreSQL)."""
    if cluster is None:
        return None
    url = cluster.url(cluster.create_database(f"bench_{size:g}mb".replace(".", "_")))
    upload = run_child("upload", size=size, db=url)
    pages = run_child("pages", db=url, id=upload["id"], messages=upload["messages"], visible=upload["visible"])
    return {"upload": upload, "pages": pages}


def start_postgres() -> pg.Cluster | None:
    try:
        return pg.start(durable=True)
    except pg.Unavailable as error:
        print(f"no PostgreSQL figures: {error}", file=sys.stderr)
        return None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def mb(size: float) -> str:
    return f"{size / MB:,.0f} MB"


def table(sizes: list[float], results: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> tuple[str, ...]:
        return (label, *(cell(result) for result in results))

    def on_postgres(cell: Callable[[dict[str, Any]], str]) -> Callable[[dict[str, Any]], str]:
        return lambda r: cell(r["postgres"]) if r["postgres"] is not None else "(no PostgreSQL)"

    rows = [
        row("transcript", lambda r: f"{mb(r['upload']['bytes'])}, {r['upload']['messages']:,} msgs"),
        row("upload → link", lambda r: ms(r["upload"]["upload_s"])),
        row("… on PostgreSQL", on_postgres(lambda p: ms(p["upload"]["upload_s"]))),
        row("parse() of the same bytes", lambda r: ms(r["upload"]["parse_s"])),
        row("upload → link / parse() (target ≤ 1.5×)",
            lambda r: f"{r['upload']['upload_s'] / r['upload']['parse_s']:.2f}×"),
        row("… on PostgreSQL", on_postgres(lambda p: f"{p['upload']['upload_s'] / p['upload']['parse_s']:.2f}×")),
        row("… parse + policy", lambda r: ms(r["phases"]["analyse_s"])),
        row("… store (one transaction)", lambda r: ms(r["phases"]["store_s"])),
        row("upload peak RSS (× input)",
            lambda r: f"{mb(r['upload']['peak_rss'])} ({r['upload']['peak_rss'] / r['upload']['bytes']:.1f}×)"),
        row("upload peak Python allocations",
            lambda r: f"{mb(r['traced']['traced_peak'])} ({r['traced']['traced_peak'] / r['upload']['bytes']:.1f}×)"),
        row("first page cold, total", lambda r: ms(r["pages"]["cold first page"]["total"])),
    ]
    for name in ("first page, default", "first page, debug", "middle window (htmx)",
                 "deep link near the end, default", "deep link near the end, debug"):
        rows.append(row(f"{name}: server / TTFB / total",
                        lambda r, n=name: " / ".join(ms(r["pages"][n][key]) for key in ("server", "ttfb", "total"))))
        if name.startswith("first page"):
            rows.append(row("… on PostgreSQL: server", on_postgres(lambda p, n=name: ms(p["pages"][n]["server"]))))
    rows += [
        row("serving peak RSS: process / above idle app",
            lambda r: f"{mb(r['pages']['peak_rss_total'])} / {mb(r['pages']['peak_rss'])}"),
        row("JSON twin (streamed): TTFB / total", lambda r: f"{ms(r['json']['ttfb'])} / {ms(r['json']['total'])}"),
        row("JSON twin size / peak RSS", lambda r: f"{mb(r['json']['bytes'])} / {mb(r['json']['peak_rss'])}"),
        row("Markdown / HTML export (streamed)", lambda r: f"{ms(r['json']['md'])} / {ms(r['json']['html'])}"),
        row("speed ÷ parse speed: twin / .md / .html (target ≥ 0.5×)",
            lambda r: " / ".join(f"{r['json']['parse_s'] / seconds:.2f}×"
                                 for seconds in (r["json"]["json"], r["json"]["md"], r["json"]["html"]))),
        row(f"gunicorn first page, {CLIENT_THREADS} clients: req/s",
            lambda r: f"{r['load']['rps']:,.0f} ({r['load']['requests']} requests)"),
        row("… latency p50 / p99", lambda r: f"{ms(r['load']['p50'])} / {ms(r['load']['p99'])}"),
    ]
    return [("", *(f"{size:g} MB" for size in sizes)), *rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 10, 50])
    parser.add_argument("--requests", type=int, default=300, help="requests per load run")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--format", choices=sorted(FORMATS), default="harmony", help="what to generate")
    parser.add_argument("--child")
    parser.add_argument("--size", type=float)
    parser.add_argument("--db")
    parser.add_argument("--id")
    parser.add_argument("--messages", type=int)
    parser.add_argument("--visible", type=int)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(CHILDREN[options.child](options)))
        return
    os.environ[FORMAT_VARIABLE] = options.format  # the children generate the same format
    cluster = start_postgres()
    try:
        with tempfile.TemporaryDirectory(prefix="viewer-bench-") as folder:
            results = [measure(size, Path(folder), options.requests, cluster) for size in options.sizes]
    finally:
        if cluster is not None:
            cluster.stop()
    rows = table(options.sizes, results)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if options.markdown:
        print("| " + " | ".join(rows[0]) + " |")
        print("|" + " --- |" * len(rows[0]))
        for cells in rows[1:]:
            print("| " + " | ".join(cells) + " |")
        return
    widths = [max(len(cells[column]) for cells in rows) for column in range(len(rows[0]))]
    for cells in rows:
        print("  ".join(cell.ljust(width) if column == 0 else cell.rjust(width)
                        for column, (cell, width) in enumerate(zip(cells, widths))))


if __name__ == "__main__":
    main()
