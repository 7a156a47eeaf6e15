"""Search benchmark: searches inside generated Harmony transcripts of 1, 10 and 50 MB, on SQLite and PostgreSQL.

Run: `.venv/bin/python bench/search.py [--sizes 1 10 50] [--no-postgres]`. Prints figures; asserts nothing.
Each (size, database) runs in a fresh Python process that uploads the transcript through the Flask test
client, then times `GET /t/<id>/search` (server time: the test client's, the median of 5 after one warm-up) for
a common word, a rare word, a phrase and a word that matches nothing, in the default and the debug view, and
the same app's first page (default view) as the yardstick. A second process uploads the same transcript with
indexing switched off, for what the index adds to upload time and database size.

The rare word is written into five user questions spread over the transcript (the generator's vocabulary is
small, so every word of it is common); both views also look up one call id, which only headers hold (the
default view finds nothing).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import postgres as pg  # noqa: E402
from tests.harness.gen import generate  # noqa: E402

RUNS = 5
RARE = "xylophone"
QUERIES = {  # name → (query, views)
    "common word": ("the", ("default", "debug")),
    "rare word": (RARE, ("default", "debug")),
    "phrase": ('"weather in Tokyo"', ("default", "debug")),
    "no match": ("zyzzyva", ("default", "debug")),
}
HEADER_ONLY = "call id (header)"
"""A call id from the middle of the transcript: only headers hold it (the default view would find nothing)."""


def transcript(size: float) -> bytes:
    """The generated transcript, with `RARE` in five user questions spread over it."""
    text = generate(megabytes=size)
    marker = "<|start|>user<|message|>What's the weather in"
    step = len(text) // 5
    parts, start = [], 0
    for number in range(5):
        at = text.find(marker, number * step)
        if at < 0:
            break
        cut = at + len("<|start|>user<|message|>")
        parts += [text[start:cut], f"{RARE} "]
        start = cut
    return ("".join(parts) + text[start:]).encode()


def call_id(raw: bytes) -> str:
    ids = re.findall(rb"call_id=(call_\d+)", raw)
    return ids[len(ids) // 2].decode()


def server_ms(client, path: str) -> float:
    client.get(path).get_data()  # warm-up: caches and the database's pages are not what is measured
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        response = client.get(path)
        response.get_data()
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (path, response.status_code)
    return statistics.median(times) * 1000


def _database_bytes(app, database: str) -> int:
    store = app.extensions["viewer.store"]
    with store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            return os.path.getsize(database.removeprefix("sqlite:///"))
        return conn.exec_driver_sql("SELECT pg_database_size(current_database())").scalar()


def child(size: float, database: str, indexed: bool) -> dict[str, Any]:
    from viewer.store import search
    from viewer.web import create_app

    if not indexed:
        search.index = lambda conn, parses: None  # the baseline: everything but the index
    app = create_app({"DATABASE": database, "SECRET_KEY": "bench", "PRELOAD_SAMPLES": False,
                      "MAX_UPLOAD_BYTES": 1 << 30})
    client = app.test_client()
    raw = transcript(size)
    started = time.perf_counter()
    response = client.post("/api/transcripts?debug=allow", data=raw)
    result: dict[str, Any] = {"upload_ms": (time.perf_counter() - started) * 1000, "bytes": len(raw)}
    id = response.get_json()["id"]
    time.sleep(1)  # SQLite's checkpoint runs in the background after an upload: let it end first
    result["database_bytes"] = _database_bytes(app, database)
    result["messages"] = app.extensions["viewer.store"].get(id).message_count
    if not indexed:
        return result
    result["first_page_ms"] = server_ms(client, f"/t/{id}")
    result["searches"] = {}
    for name, (query, views) in {**QUERIES, HEADER_ONLY: (call_id(raw), ("default", "debug"))}.items():
        for view in views:
            path = f"/t/{id}/search?q={quote(query)}" + ("&view=debug" if view == "debug" else "")
            found = client.get(path).get_data(as_text=True)
            total = found.split('data-total="', 1)[1].split('"', 1)[0] if 'data-total="' in found else "?"
            result["searches"][f"{name}, {view}"] = {"ms": server_ms(client, path), "total": total}
    return result


def run_child(size: float, database: str, indexed: bool) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", f"--size={size}", f"--db={database}"]
    if not indexed:
        command.append("--no-index")
    output = subprocess.run(command, check=True, capture_output=True, text=True, timeout=1800, cwd=ROOT).stdout
    return json.loads(output.strip().splitlines()[-1])


def databases(size: float, folder: Path, cluster: pg.Cluster | None) -> list[tuple[str, str, str]]:
    """(name, indexed database, baseline database) for each database this run measures."""
    made = [("SQLite", f"sqlite:///{folder}/search-{size:g}.sqlite3", f"sqlite:///{folder}/plain-{size:g}.sqlite3")]
    if cluster is not None:
        tag = f"{size:g}".replace(".", "_")
        made.append(("PostgreSQL", cluster.url(cluster.create_database(f"search_{tag}")),
                     cluster.url(cluster.create_database(f"plain_{tag}"))))
    return made


def report(size: float, name: str, indexed: dict[str, Any], plain: dict[str, Any]) -> None:
    page = indexed["first_page_ms"]
    print(f"\n{name}, {indexed['bytes'] / 1e6:.1f} MB, {indexed['messages']:,} messages; "
          f"first page (default view) {page:.1f} ms")
    for label, figures in indexed["searches"].items():
        print(f"  {label:30} {figures['ms']:8.1f} ms  {figures['ms'] / page:5.1f}x first page  "
              f"({figures['total']} found)")
    grown = indexed["upload_ms"] - plain["upload_ms"]
    size_grown = indexed["database_bytes"] - plain["database_bytes"]
    print(f"  upload → link: {indexed['upload_ms']:,.0f} ms with the index, {plain['upload_ms']:,.0f} ms without "
          f"({grown:+,.0f} ms, {grown / plain['upload_ms']:+.0%})")
    print(f"  database: {indexed['database_bytes'] / 1e6:,.1f} MB with the index, "
          f"{plain['database_bytes'] / 1e6:,.1f} MB without ({size_grown / 1e6:+,.1f} MB, "
          f"{size_grown / plain['database_bytes']:+.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 10, 50])
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--no-index", action="store_true")
    parser.add_argument("--size", type=float)
    parser.add_argument("--db")
    options = parser.parse_args()
    if options.child:
        print(json.dumps(child(options.size, options.db, not options.no_index)))
        return
    cluster = None
    if not options.no_postgres:
        try:
            cluster = pg.start(durable=True)
        except pg.Unavailable as error:
            print(f"no PostgreSQL figures: {error}", file=sys.stderr)
    try:
        with tempfile.TemporaryDirectory(prefix="viewer-bench-search-") as folder:
            for size in options.sizes:
                for name, indexed, plain in databases(size, Path(folder), cluster):
                    report(size, name, run_child(size, indexed, True), run_child(size, plain, False))
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
