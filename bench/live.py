"""Live-upload benchmark: what one append costs when 1 MB and 10 MB of the transcript are already stored.

Run: `.venv/bin/python bench/live.py [--sizes 1 10] [--appends 40]`. Prints figures; asserts nothing.
For each size, a generated Harmony transcript (tests/harness/gen.py, every call answered) is stored live in a
fresh SQLite file in a temporary folder (no server, no network), then `ingest.append` is timed for each of
the messages of one more generated conversation, appended message by message: the median milliseconds per
append, and for scale what parsing and storing the whole transcript again costs (the path an append would
take without the tail parse). The ratio of the sizes' medians says whether an append grows with the stored size.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.gen import generate  # noqa: E402
from viewer import ingest  # noqa: E402
from viewer.store import Store  # noqa: E402

START = re.compile(r"(?=<\|start\|>)")


def appended_messages(count: int) -> list[bytes]:
    """At least `count` messages of generated conversations (a seed no stored transcript uses), one a piece."""
    text = generate(messages=count, seed=99)
    return [piece.encode() for piece in START.split(text) if piece][:count]


def measure(megabytes: float, appends: int, folder: Path) -> tuple[float, float, int]:
    """(median ms per append, ms to parse and store the whole transcript once, messages stored)."""
    raw = generate(megabytes).encode()
    store = Store(f"sqlite:///{folder / f'live-{megabytes}.sqlite3'}")
    record = ingest.store_live_upload(store, raw, id=f"bench{int(megabytes)}")
    timings = []
    for piece in appended_messages(appends):
        began = time.perf_counter()
        record = ingest.append(store, record, piece)
        timings.append((time.perf_counter() - began) * 1000)
    began = time.perf_counter()
    ingest.reparse(store, record)
    whole = (time.perf_counter() - began) * 1000
    store.engine.dispose()
    return statistics.median(timings), whole, record.message_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 10], help="MB stored before the appends")
    parser.add_argument("--appends", type=int, default=40, help="appends timed per size (at most 500)")
    args = parser.parse_args()
    appends = min(max(args.appends, 1), 500)
    medians = {}
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in args.sizes:
            median, whole, count = measure(megabytes, appends, Path(folder))
            medians[megabytes] = median
            print(f"{megabytes:g} MB stored ({count:,} messages): {median:.2f} ms per append (median of {appends}); "
                  f"parsing and storing it whole again: {whole:,.0f} ms")
    if len(medians) > 1:
        small, large = min(medians), max(medians)
        print(f"ratio {large:g} MB / {small:g} MB: {medians[large] / medians[small]:.2f}")


if __name__ == "__main__":
    main()
