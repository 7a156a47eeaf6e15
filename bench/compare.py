"""Compare benchmark: `/compare/<a>/<b>` on generated Harmony transcripts of 1 and 10 MB, B being A with a few
messages changed, one inserted and one removed.

Run: `.venv/bin/python bench/compare.py [--sizes 1 10]`. Prints figures; asserts nothing. Each size runs in a
fresh Python process (its peak memory is its own). Server time is the Flask test client's time for a request:
the compare page cold (the first request aligns both transcripts and caches the alignment) and warm (median of
5; a later page of rows costs the same), in the default and the debug view, beside the first page of A alone
(median of 5) and their ratio. Peak RSS is the process's peak above what it held before the cold request.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import peak_since, reset_peak  # noqa: E402
from tests.harness.gen import generate  # noqa: E402

RUNS = 5
_FINAL = re.compile(r"<\|channel\|>final<\|message\|>")
_USER = "<|start|>user<|message|>"


def changed_copy(text: str) -> str:
    """A with five final answers reworded, a user message inserted near the start and one removed near the end."""
    finals = [match.end() for match in _FINAL.finditer(text)]
    picks = set(finals[len(finals) * k // 6] for k in range(1, 6))
    out, last = [], 0
    for at in sorted(picks):
        out += [text[last:at], "Reworded for the benchmark: "]
        last = at
    out.append(text[last:])
    result = "".join(out)
    first_user = result.index(_USER)
    result = result[:first_user] + f"{_USER}An inserted question?<|end|>" + result[first_user:]
    last_user = result.rindex(_USER)
    end = result.index("<|end|>", last_user) + len("<|end|>")
    return result[:last_user] + result[end:]


def timed(client, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def child(megabytes: float) -> dict:
    from viewer.web import create_app

    a = generate(megabytes=megabytes)
    b = changed_copy(a)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/bench.sqlite3", "SECRET_KEY": "bench", "PRELOAD_SAMPLES": False})
        client = app.test_client()
        ids = []
        for raw in (a, b):
            response = client.post("/api/transcripts?debug=allow", data=raw.encode())
            assert response.status_code == 201, response.get_data(as_text=True)[:300]
            ids.append(response.get_json()["id"])
        figures = {"size_mb": round(len(a.encode()) / 1e6, 2)}
        timed(client, f"/t/{ids[0]}")  # templates compiled, caches warm: the first page's own cost
        figures["first_page_s"] = statistics.median(timed(client, f"/t/{ids[0]}") for _ in range(RUNS))
        for view in ("default", "debug"):
            url = f"/compare/{ids[0]}/{ids[1]}" + ("?view=debug" if view == "debug" else "")
            baseline = reset_peak()
            figures[f"{view}_cold_s"] = timed(client, url)
            figures[f"{view}_peak_rss_mb"] = round(peak_since(baseline) / 1e6, 1)
            figures[f"{view}_warm_s"] = statistics.median(timed(client, url) for _ in range(RUNS))
            summary = client.get(url).get_data(as_text=True)
            found = re.search(r"data-summary>\s*(.*?)</p>", summary, re.S)
            figures[f"{view}_summary"] = " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else ""
        app.extensions["viewer.store"].engine.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 10])
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child)))
        return
    print(f"{'size':>7} {'first page':>11} {'view':>8} {'compare cold':>13} {'ratio':>7} {'warm':>8} {'ratio':>7}"
          f" {'peak RSS':>9}  summary")
    for size in args.sizes:
        out = subprocess.run([sys.executable, __file__, "--child", str(size)], capture_output=True, text=True,
                             check=True)
        f = json.loads(out.stdout.strip().splitlines()[-1])
        for view in ("default", "debug"):
            cold, warm, page = f[f"{view}_cold_s"], f[f"{view}_warm_s"], f["first_page_s"]
            print(f"{f['size_mb']:>5} MB {page * 1000:>8.1f} ms {view:>8} {cold * 1000:>10.1f} ms {cold / page:>6.1f}×"
                  f" {warm * 1000:>5.1f} ms {warm / page:>6.1f}× {f[f'{view}_peak_rss_mb']:>6.1f} MB  {f[f'{view}_summary']}")


if __name__ == "__main__":
    main()
