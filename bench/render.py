"""Time to render 100 short markdown final answers (about 25 KB), with and without fenced code blocks: one body
at a time through `render.render_body` (markdown here, each code block a round trip to a highlighting worker),
and as a page's cards render them, all 100 in one batch to a worker (viewer/render/workers.py).

Run: .venv/bin/python bench/render.py
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from markdown_it import MarkdownIt  # noqa: E402

from viewer import render  # noqa: E402
from viewer.render import workers  # noqa: E402
from viewer.render.jobs import Job  # noqa: E402

ANSWERS = 100
RUNS = 20

PROSE = ("**Tokyo** is {n}°C and *sunny* today; see [the forecast](https://example.com/wx/{n}) for details.\n\n"
         "- humidity {n}%\n- wind 3 m/s from the north-east\n- sunset at 17:{n:02d}\n\n"
         "| day | high | low |\n|:--|--:|--:|\n| Mon | {n} | 9 |\n\n"
         "That should cover it; ask me if you want the week ahead.\n")
CODE = "```python\ndef celsius(f):\n    return (f - 32) * 5 / 9  # {n}\n```\n"


def answers(with_code: bool) -> list[str]:
    # Prose alone is about 250 characters; a code block replaces the table to keep each answer the same size.
    texts = []
    for n in range(ANSWERS):
        text = PROSE.format(n=n)
        if with_code:
            text = text.split("| day")[0] + CODE.format(n=n) + "\nThat should cover it.\n"
        texts.append(text)
    return texts


def timed(texts: list[str], render_one=lambda text: render.render_body(text, None)) -> float:
    start = time.perf_counter()
    for text in texts:
        render_one(text)
    return time.perf_counter() - start


def main() -> None:
    for with_code in (False, True):
        texts = answers(with_code)
        size = sum(len(t.encode()) for t in texts)
        render.lexer_for.cache_clear()
        cold = timed(texts)
        warm = statistics.median(timed(texts) for _ in range(RUNS))
        # The same texts through a bare markdown-it (no highlighting, no link rules), to show what ours adds.
        bare = statistics.median(timed(texts, MarkdownIt("js-default").render) for _ in range(RUNS))
        batch = statistics.median(_one_batch(texts) for _ in range(RUNS))
        label = "with a code block each" if with_code else "prose, lists, a table"
        print(f"{ANSWERS} answers, {size / 1000:.1f} KB, {label}: first run {cold * 1000:.1f} ms, "
              f"then median {warm * 1000:.1f} ms ({size / warm / 1e6:.2f} MB/s) over {RUNS} runs; "
              f"as a page's batch {batch * 1000:.1f} ms; bare markdown-it {bare * 1000:.1f} ms")


def _one_batch(texts: list[str]) -> float:
    start = time.perf_counter()
    workers.render([Job("body", text, None) for text in texts])
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
