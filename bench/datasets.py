"""Dataset benchmark: JSON Lines files of 1,000, 10,000 and 100,000 generated conversations (tests/harness/
datasets.py). For each: parse time, upload → link through the Flask test client (parse, policy, store), peak
RSS of the upload, then server times of the dataset's index (first window and the window near the end), a
conversation near the end (default and debug views) and its JSON twin, beside a small single transcript's
first page served by the same app as the yardstick. Prints figures; asserts nothing.

Run: `.venv/bin/python bench/datasets.py [--sizes 1000 10000 100000]`
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.datasets import dataset  # noqa: E402
from viewer.parse import parse  # noqa: E402
from viewer.web import create_app  # noqa: E402

RUNS = 5
SMALL = (ROOT / "sample_transcripts" / "harmony-gpt-oss-weather.txt").read_bytes()


def _rss_peak() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> None:
    gc.collect()
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")


def _server_ms(client, path: str) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        response = client.get(path)
        response.get_data()
        assert response.status_code == 200, (path, response.status_code)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def measure(conversations: int, folder: Path) -> dict:
    text = dataset(conversations)
    raw = text.encode()
    started = time.perf_counter()
    parsed = parse(raw)
    parse_s = time.perf_counter() - started
    messages = sum(len(c.messages) for c in parsed.conversations)
    del parsed
    app = create_app({"DATABASE": str(folder / f"d{conversations}.sqlite3"), "SECRET_KEY": "bench",
                      "PRELOAD_SAMPLES": False, "MAX_UPLOAD_BYTES": 1 << 30})
    client = app.test_client()
    _reset_peak()
    started = time.perf_counter()
    id = client.post("/api/transcripts?debug=allow", data=raw).get_json()["id"]
    upload_s = time.perf_counter() - started
    upload_rss = _rss_peak()
    small = client.post("/api/transcripts?debug=allow", data=SMALL).get_json()["id"]
    near_end = conversations - 3
    return {
        "conversations": conversations, "mb": len(raw) / 1e6, "messages": messages, "parse_s": parse_s,
        "upload_s": upload_s, "upload_rss": upload_rss,
        "small transcript, first page": _server_ms(client, f"/t/{small}"),
        "index, first window": _server_ms(client, f"/t/{id}"),
        "index, window near the end": _server_ms(client, f"/t/{id}?at={near_end}"),
        "conversation near the end, default": _server_ms(client, f"/t/{id}/c/{near_end}"),
        "conversation near the end, debug": _server_ms(client, f"/t/{id}/c/{near_end}?view=debug"),
        "conversation near the end, JSON": _server_ms(client, f"/t/{id}/c/{near_end}.json"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results = [measure(size, Path(folder)) for size in args.sizes]
    width = 40
    print(f"{'dataset':<{width}}" + "".join(f"{r['conversations']:>18,} conv." for r in results))
    rows = [("size / messages", lambda r: f"{r['mb']:.1f} MB / {r['messages']:,}"),
            ("parse", lambda r: f"{r['parse_s'] * 1000:,.0f} ms ({r['mb'] / r['parse_s']:.1f} MB/s)"),
            ("upload → link (÷ parse)",
             lambda r: f"{r['upload_s'] * 1000:,.0f} ms ({r['upload_s'] / r['parse_s']:.1f}×)"),
            ("upload peak RSS (× input)", lambda r: f"{r['upload_rss'] / 1e6:,.0f} MB ({r['upload_rss'] / (r['mb'] * 1e6):.1f}×)")]
    for name in ("small transcript, first page", "index, first window", "index, window near the end",
                 "conversation near the end, default", "conversation near the end, debug",
                 "conversation near the end, JSON"):
        rows.append((name + ": server", lambda r, n=name: f"{r[n]:.1f} ms ({r[n] / r['small transcript, first page']:.2f}×)"))
    for label, cell in rows:
        print(f"{label:<{width}}" + "".join(f"{cell(r):>23}" for r in results))
    print("(×) beside a page time: its ratio to the small transcript's first page, served by the same app")


if __name__ == "__main__":
    main()
