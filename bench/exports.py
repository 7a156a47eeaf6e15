"""Chat export benchmark: a generated ChatGPT export (tests/harness/exports.py; 10,000 conversations, about
200 MB) uploaded through the Flask test client, then the server times of its index (first window and the window
near the end) and of a conversation near the end (default and debug views, and a branch chosen in the debug
view), beside a small single transcript's first page served by the same app. Prints figures; asserts nothing.

Run: `.venv/bin/python bench/exports.py [--conversations 10000] [--size 20000]`
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.datasets import SMALL, _reset_peak, _rss_peak, _server_ms  # noqa: E402
from tests.harness.exports import chatgpt_export  # noqa: E402
from tests.harness.gen import generate  # noqa: E402
from viewer.web import create_app  # noqa: E402


def measure(conversations: int, size: int, folder: Path) -> dict:
    started = time.perf_counter()
    raw = chatgpt_export(conversations, size).encode()
    made_s = time.perf_counter() - started
    app = create_app({"DATABASE": str(folder / "exports.sqlite3"), "SECRET_KEY": "bench", "PRELOAD_SAMPLES": False,
                      "MAX_UPLOAD_BYTES": 1 << 30})
    client = app.test_client()
    _reset_peak()
    started = time.perf_counter()
    response = client.post("/api/transcripts?debug=allow", data=raw)
    upload_s = time.perf_counter() - started
    assert response.status_code in (201, 202), response.get_data(as_text=True)[:500]
    assert app.extensions["viewer.processor"].idle(3600)  # a big upload is processed after its answer
    stored_s = time.perf_counter() - started
    id = response.get_json()["id"]
    upload_rss = _rss_peak()
    small = client.post("/api/transcripts?debug=allow", data=SMALL).get_json()["id"]
    # A small transcript whose first page is a whole window (300 messages): the index draws a window of rows too.
    windowed = client.post("/api/transcripts?debug=allow", data=generate(messages=300).encode()).get_json()["id"]
    near_end = conversations - 3
    record = app.extensions["viewer.store"].conversation(id, near_end)
    branch = min(fork[1][0] for fork in record.header["forks"])  # the edited question's first version
    return {
        "conversations": conversations, "mb": len(raw) / 1e6, "made_s": made_s, "upload_s": upload_s, "stored_s": stored_s,
        "upload_rss": upload_rss, "messages": app.extensions["viewer.store"].get(id).message_count,
        "small transcript, first page": _server_ms(client, f"/t/{small}"),
        "300-message transcript, first page": _server_ms(client, f"/t/{windowed}"),
        "index, first window": _server_ms(client, f"/t/{id}"),
        "index, window near the end": _server_ms(client, f"/t/{id}?at={near_end}"),
        "conversation near the end, default": _server_ms(client, f"/t/{id}/c/{near_end}"),
        "conversation near the end, debug": _server_ms(client, f"/t/{id}/c/{near_end}?view=debug"),
        "conversation near the end, another branch": _server_ms(
            client, f"/t/{id}/c/{near_end}?view=debug&branch={branch}"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=20_000, help="characters per conversation, about")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        r = measure(args.conversations, args.size, Path(folder))
    small = r["small transcript, first page"]
    print(f"ChatGPT export: {r['conversations']:,} conversations, {r['mb']:.0f} MB, {r['messages']:,} messages "
          f"(generated in {r['made_s']:.1f} s)")
    print(f"{'upload → link':<44}{r['upload_s']:>10.1f} s")
    print(f"{'upload → stored and searchable':<44}{r['stored_s']:>10.1f} s  ({r['mb'] / r['stored_s']:.1f} MB/s)")
    print(f"{'upload peak RSS (× input)':<44}{r['upload_rss'] / 1e6:>10,.0f} MB ({r['upload_rss'] / (r['mb'] * 1e6):.1f}×)")
    windowed = r["300-message transcript, first page"]
    for name in ("small transcript, first page", "300-message transcript, first page", "index, first window",
                 "index, window near the end", "conversation near the end, default",
                 "conversation near the end, debug", "conversation near the end, another branch"):
        print(f"{name + ': server':<44}{r[name]:>10.1f} ms ({r[name] / small:.2f}× / {r[name] / windowed:.2f}×)")
    print("(× / ×) beside a page time: its ratio to the first page of the small transcript (the weather sample) and "
          "of a 300-message one (a whole window), served by the same app")


if __name__ == "__main__":
    main()
