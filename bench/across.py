"""Search across an owner's transcripts: `GET /transcripts/search` over 1,000 generated Harmony transcripts of
1 MB each (1 GB of text), on SQLite and PostgreSQL.

Run: `.venv/bin/python bench/across.py [--transcripts 1000] [--megabytes 1] [--no-postgres]`. Prints figures;
asserts nothing. Each database is filled and measured in a fresh Python process: the owner's transcripts are
stored through `viewer.ingest` (as an upload stores them) and put in one owner key's list, then another owner's
tenth as many after them, so that the newest index rows are not the owner's and the search must pass them by
(PostgreSQL is then ANALYZEd, as autovacuum would have done by the time anyone searches).
Then, with the owner's cookie, the test client times (server time: the median of 5 after one warm-up) the
first window of results for a common word, a word in five transcripts, a word in one, a phrase and a word that
matches nothing, in the default and the debug view; the next window of the common word; and the list's first
and last windows (`GET /transcripts`) as the yardstick.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.search import server_ms  # noqa: E402
from tests import postgres as pg  # noqa: E402
from tests.harness.gen import generate  # noqa: E402

OWNER_KEY = "bench-owner-" + "k" * 40
OTHER_KEY = "bench-other-" + "k" * 40
FIVE, ONE = "xylophone", "zebrafish"
QUERIES = {"common word": "the", "word in 5 transcripts": FIVE, "word in 1 transcript": ONE,
           "phrase": '"weather in Tokyo"', "no match": "zyzzyva"}


def transcript(number: int, megabytes: float) -> bytes:
    """Transcript `number`: its own seed; five of a thousand carry `FIVE` and one `ONE` in a user question."""
    text = generate(megabytes=megabytes, seed=number)
    marker = "<|start|>user<|message|>"
    words = ([FIVE] if number % 200 == 17 else []) + ([ONE] if number == 500 else [])
    if words:
        at = text.find(marker, len(text) // 2) + len(marker)
        text = text[:at] + " ".join(words) + " " + text[at:]
    return text.encode()


def fill(store, count: int, megabytes: float) -> dict[str, float]:
    from viewer import ingest
    from viewer.store import hash_key

    started, stored = time.perf_counter(), 0
    for owner, numbers in ((OWNER_KEY, range(count)), (OTHER_KEY, range(count, count + count // 10))):
        for number in numbers:
            raw = transcript(number, megabytes)
            id = f"bench{number:017d}"
            ingest.store_upload(store, raw, id=id, manage_hash=hash_key(id), name=f"bench {number}")
            store.owners.add(hash_key(owner), [id])
            stored += len(raw)
    return {"fill_s": time.perf_counter() - started, "bytes": stored}


def _groups(client, path: str) -> tuple[int, str | None]:
    """How many uploads a window shows, and the link to the next window."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup(client.get(path).get_data(as_text=True), "html.parser")
    older = page.find("a", string="Older transcripts")
    return len(page.select("li.across-group")), older["href"] if older else None


def child(database: str, count: int, megabytes: float) -> dict[str, Any]:
    from viewer.web import create_app

    app = create_app({"DATABASE": database, "SECRET_KEY": "bench", "PRELOAD_SAMPLES": False})
    result: dict[str, Any] = fill(app.extensions["viewer.store"], count, megabytes)
    time.sleep(1)  # SQLite's checkpoint runs in the background after an upload: let it end first
    if database.startswith("postgresql"):  # the statistics autovacuum would have gathered by then
        with app.extensions["viewer.store"].engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
            conn.commit()
    client = app.test_client()
    client.set_cookie("owner", OWNER_KEY)
    result["list_first_ms"] = server_ms(client, "/transcripts")
    result["list_last_ms"] = server_ms(client, f"/transcripts?start={count - 50}")
    result["searches"] = {}
    for name, query in QUERIES.items():
        for view in ("default", "debug"):
            path = f"/transcripts/search?q={quote(query)}" + ("&view=debug" if view == "debug" else "")
            groups, older = _groups(client, path)
            result["searches"][f"{name}, {view}"] = {"ms": server_ms(client, path), "groups": groups}
            if name == "common word" and older:
                result["searches"][f"{name}, {view}, next window"] = {"ms": server_ms(client, older),
                                                                      "groups": _groups(client, older)[0]}
    return result


def run_child(database: str, count: int, megabytes: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", f"--db={database}", f"--transcripts={count}",
               f"--megabytes={megabytes}"]
    output = subprocess.run(command, check=True, capture_output=True, text=True, timeout=7200, cwd=ROOT).stdout
    return json.loads(output.strip().splitlines()[-1])


def report(name: str, figures: dict[str, Any], count: int) -> None:
    print(f"\n{name}: {count:,} transcripts of the owner and {count // 10:,} of another, "
          f"{figures['bytes'] / 1e9:.2f} GB stored in {figures['fill_s']:,.0f} s")
    print(f"  list, first window            {figures['list_first_ms']:8.1f} ms")
    print(f"  list, last window             {figures['list_last_ms']:8.1f} ms")
    for label, found in figures["searches"].items():
        print(f"  {label:36} {found['ms']:8.1f} ms  (transcripts shown: {found['groups']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transcripts", type=int, default=1000)
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--db")
    options = parser.parse_args()
    if options.child:
        print(json.dumps(child(options.db, options.transcripts, options.megabytes)))
        return
    cluster = None
    if not options.no_postgres:
        try:
            cluster = pg.start(durable=True)
        except pg.Unavailable as error:
            print(f"no PostgreSQL figures: {error}", file=sys.stderr)
    try:
        with tempfile.TemporaryDirectory(prefix="viewer-bench-across-") as folder:
            report("SQLite", run_child(f"sqlite:///{folder}/across.sqlite3", options.transcripts,
                                       options.megabytes), options.transcripts)
            if cluster is not None:
                url = cluster.url(cluster.create_database("across"))
                report("PostgreSQL", run_child(url, options.transcripts, options.megabytes), options.transcripts)
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
