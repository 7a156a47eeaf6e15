"""An agent's long run of tool traffic with nothing shown in between: the default view collapses it into one
marker, so its page, JSON twin and exports must cost what the same bytes cost elsewhere, not grow with the
square of the run.

Run: `.venv/bin/python bench/tool_runs.py [--calls 25000 50000]`. For Harmony transcripts of one user message
followed by that many call/reply pairs, prints upload → link, the first page, and the `.json`, `.md` and
`.html` downloads read to the end (wall time, Flask test client, SQLite in a temporary folder), each beside
parse() of the same bytes in the same process. Asserts nothing.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import read_to_end, timed  # noqa: E402
from viewer.parse import parse  # noqa: E402
from viewer.web import create_app  # noqa: E402


def agent_run(calls: int) -> bytes:
    parts = ["<|start|>user<|message|>Fix the failing build.<|end|>"]
    for number in range(calls):
        parts.append(f'<|start|>assistant to=functions.shell<|channel|>commentary json<|message|>'
                     f'{{"cmd": "make test -k case_{number}"}}<|call|>')
        parts.append(f"<|start|>functions.shell to=assistant<|channel|>commentary<|message|>"
                     f"case_{number}: ok<|end|>")
    return "".join(parts).encode()


def measure(calls: int, folder: str) -> None:
    app = create_app({"DATABASE": f"sqlite:///{folder}/runs-{calls}.sqlite3", "PRELOAD_SAMPLES": False,
                      "SECRET_KEY": "bench", "MAX_UPLOAD_BYTES": 1 << 30})
    client = app.test_client()
    raw = agent_run(calls)
    parse_s = min(timed(lambda: parse(raw)) for _ in range(2))
    started = time.perf_counter()
    id = client.post("/api/transcripts", data=raw).get_json()["id"]
    figures = {"upload → link": time.perf_counter() - started}
    for label, path in (("first page", f"/t/{id}"), (".json", f"/t/{id}.json"), (".md", f"/t/{id}.md"),
                        (".html", f"/t/{id}.html")):
        figures[label] = timed(lambda: read_to_end(client, path))
    print(f"{calls:,} calls ({len(raw) / 1e6:.1f} MB, {2 * calls + 1:,} messages): parse {parse_s * 1000:,.0f} ms")
    for label, seconds in figures.items():
        print(f"  {label:14} {seconds * 1000:8,.0f} ms  {seconds / parse_s:5.2f}× parse")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, nargs="+", default=[25_000, 50_000])
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="viewer-bench-") as folder:
        for calls in options.calls:
            measure(calls, folder)


if __name__ == "__main__":
    main()
