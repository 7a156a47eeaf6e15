"""Pasted images: a generated Claude Code session whose bytes are nearly all base64 screenshots, read, stored and
served. Prints the parse (which decodes, hashes and checks every image) beside the least work reading the images
needs (base64-decode and SHA-256 of every payload, in the same process); the upload → link (ingest: parse, scan,
re-encode each image without metadata, store once) and its peak RSS; the same upload again (every image already
stored: nothing re-encoded); and the media route's thumbnail and full-size answers (server time, median of 9).

Run: `.venv/bin/python bench/images.py [--mb 30]` (`--mb 300` for the issue's 300 MB session)."""
from __future__ import annotations

import argparse
import binascii
import hashlib
import re
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.web import peak_since, reset_peak  # noqa: E402
from tests.harness.screenshots import SCREEN, session  # noqa: E402
from viewer import ingest  # noqa: E402
from viewer.images import check  # noqa: E402
from viewer.parse import parse  # noqa: E402

_PAYLOAD = re.compile(rb'"data":"([A-Za-z0-9+/=]+)"')


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def least_work(raw: bytes) -> int:
    """Base64-decode and hash every payload: what any reading of the images must do."""
    return sum(len(hashlib.sha256(binascii.a2b_base64(found.group(1))).digest()) for found in _PAYLOAD.finditer(raw))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=30.0, help="the session's size in MB (default 30)")
    megabytes = parser.parse_args().mb
    raw, count = session(megabytes)
    mb = len(raw) / 1e6
    image_share = sum(len(found.group(1)) for found in _PAYLOAD.finditer(raw)) / len(raw)
    print(f"session: {mb:,.1f} MB, {count:,} screenshots of {SCREEN[0]} × {SCREEN[1]}, "
          f"{image_share:.0%} of its bytes base64 images")
    baseline, _ = timed(least_work, raw)
    parsed, transcript = timed(parse, raw)
    shown = sum(len(message.media) for message in transcript.messages)
    print(f"decode + SHA-256 of every payload (baseline): {baseline * 1000:,.0f} ms ({mb / baseline:,.0f} MB/s)")
    print(f"parse(), images decoded, hashed and checked:  {parsed * 1000:,.0f} ms ({mb / parsed:,.1f} MB/s, "
          f"{parsed / baseline:.1f}× the baseline); {shown:,} image references")
    from viewer.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/bench.sqlite3", "SECRET_KEY": "bench", "PRELOAD_SAMPLES": False,
                          "MAX_UPLOAD_BYTES": 1 << 31})
        store = app.extensions["viewer.store"]
        check._VERDICTS.clear()  # as in a fresh server: every image decoded and checked again while parsing
        baseline_rss = reset_peak()
        first, record = timed(lambda: ingest.store_upload(store, raw, id="bench-images-000000001"))
        rss = peak_since(baseline_rss)
        print(f"upload → link (parse, scan, re-encode and store {store.media.count():,} images): "
              f"{first:,.2f} s ({first / parsed:.1f}× parse), peak RSS +{rss / 1e6:,.0f} MB "
              f"({rss / len(raw):.1f}× the upload)")
        check._VERDICTS.clear()
        again, _ = timed(lambda: ingest.store_upload(store, raw, id="bench-images-000000002"))
        print(f"the same upload again (every image already stored): {again:,.2f} s ({again / parsed:.1f}× parse)")
        sha = transcript.messages[1].media[0].sha256
        client = app.test_client()
        for size, query in (("thumbnail", "?size=thumb"), ("full size", "")):
            times = []
            for _ in range(9):
                took, response = timed(client.get, f"/t/{record.id}/media/{sha}{query}")
                assert response.status_code == 200
                times.append(took)
            print(f"GET /t/<id>/media/<hash>{query}: {median(times) * 1000:,.1f} ms ({size}, "
                  f"{len(response.data) / 1e3:,.0f} kB)")


if __name__ == "__main__":
    main()
