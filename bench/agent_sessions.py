"""Agent sessions beside Harmony: a generated Claude Code session (text only: tests/harness/agents.py) and a
generated Harmony transcript (tests/harness/gen.py) of the same size, each uploaded and its first pages opened.

Run: `.venv/bin/python bench/agent_sessions.py [--size 50] [--rounds 2]`. Each step runs in a fresh process
(bench/web.py's `upload` and `pages` children, on SQLite), the two formats alternating round by round so that
both see the same load; the best round of each is printed. Asserts nothing. The target: the Claude Code
session's upload → link and first pages no slower than the Harmony transcript's.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import web  # noqa: E402  (bench/web.py: its children and its formats)

FORMATS = ("harmony", "claude-code")
PAGES = ("first page, default", "first page, debug", "deep link near the end, default")


def measure(size: float, folder: Path, form: str, round_: int) -> dict:
    os.environ[web.FORMAT_VARIABLE] = form  # the children generate this format
    database = str(folder / f"{form}-{round_}.sqlite3")
    upload = web.run_child("upload", size=size, db=database)
    pages = web.run_child("pages", db=database, id=upload["id"], messages=upload["messages"],
                          visible=upload["visible"])
    return {"upload": upload, "pages": pages}


def best(results: list[dict]) -> dict:
    return min(results, key=lambda result: result["upload"]["upload_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    found: dict[str, list[dict]] = {form: [] for form in FORMATS}
    with tempfile.TemporaryDirectory(prefix="viewer-bench-agents-") as folder:
        for round_ in range(options.rounds):
            for form in FORMATS:
                found[form].append(measure(options.size, Path(folder), form, round_))
    chosen = {form: best(results) for form, results in found.items()}
    rows = [("", *FORMATS),
            ("transcript", *(f"{web.mb(r['upload']['bytes'])}, {r['upload']['messages']:,} msgs"
                             for r in chosen.values())),
            ("upload → link", *(web.ms(r["upload"]["upload_s"]) for r in chosen.values())),
            ("parse() of the same bytes", *(web.ms(r["upload"]["parse_s"]) for r in chosen.values())),
            ("upload peak RSS", *(web.mb(r["upload"]["peak_rss"]) for r in chosen.values()))]
    for name in PAGES:
        rows.append((f"{name}: server / TTFB / total",
                     *(" / ".join(web.ms(r["pages"][name][key]) for key in ("server", "ttfb", "total"))
                       for r in chosen.values())))
    rows.append(("first page cold, total", *(web.ms(r["pages"]["cold first page"]["total"])
                                             for r in chosen.values())))
    harmony, agent = chosen["harmony"]["upload"]["upload_s"], chosen["claude-code"]["upload"]["upload_s"]
    rows.append(("upload → link, Claude Code ÷ Harmony (target ≤ 1×)", "", f"{agent / harmony:.2f}×"))
    print(f"best of {options.rounds} rounds; load average at the end: {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    widths = [max(len(cells[column]) for cells in rows) for column in range(len(rows[0]))]
    for cells in rows:
        print("  ".join(cell.ljust(width) if column == 0 else cell.rjust(width)
                        for column, (cell, width) in enumerate(zip(cells, widths))))


if __name__ == "__main__":
    main()
