"""A big session of screenshots opened in Chromium: a generated Claude Code session (tests/harness/screenshots.py:
1280 × 800 PNGs, each distinct, nearly all of its bytes base64) written to disk a line at a time, uploaded over
loopback to a `viewer serve` of its own (a subprocess: the peak RSS is the serving process's alone), answered 202
and processed in the background, then opened by Playwright driving Chromium as a reader would.

Prints: upload → link (the POST streamed from disk until its 202 answer); link → page readable (Chromium opens the
link, sees the progress page, and waits until that page has become the transcript, its first entry drawn);
for the default and the debug view, a fresh page's time until the thumbnails of its first screenful have loaded
(every `<img>` in the viewport complete with naturalWidth > 0) and the number of thumbnails its first window
draws; the upload's whole processing (until its search answers); the default view's HTML export (its size, the
time to download it, the thumbnails it embeds up to its cap); and the server's peak RSS (Linux `VmHWM`) beside
its idle RSS. Screenshots of both views go to test-artifacts/. Asserts nothing.

Run: `.venv/bin/python bench/images_browser.py [--mb 300]` (the issue's 300 MB session by default; it takes a few
minutes and the disk space of the file)."""
from __future__ import annotations

import argparse
import html
import re
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory import post_file, start_server, status_bytes, wait_until_searchable  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.harness.screenshots import SCREEN, session_lines  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
VIEWPORT = {"width": 1280, "height": 1500}
READABLE_SECONDS = 3600
"""The longest the bench waits for the page to become the transcript (every wait is bounded)."""
FIRST_SCREEN_LOADED = """() => {
  const seen = [...document.querySelectorAll('.pictures img')]
    .filter(i => i.getBoundingClientRect().top < window.innerHeight);
  return seen.length > 0 && seen.every(i => i.complete && i.naturalWidth > 0) && seen.length;
}"""
"""How many thumbnails the first screenful shows, once every one of them has loaded (falsy until then)."""


def write_session(path: Path, megabytes: float) -> tuple[int, int]:
    """The generated session, written a line at a time; its size and number of screenshots."""
    size = lines = 0
    with path.open("w", encoding="utf-8") as out:
        for line in session_lines(megabytes):
            out.write(line)
            size, lines = size + len(line), lines + 1
    return size, lines // 2


def readable(browser, url: str) -> float:
    """Seconds from opening the link until its page has become the transcript (the progress page reloads itself
    when the first page's rows are stored)."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("li.entry", timeout=READABLE_SECONDS * 1000)
    took = time.perf_counter() - started
    page.context.close()
    return took


def first_screen(browser, url: str, view: str) -> tuple[float, int, int]:
    """A fresh page of `view`: seconds until its first screenful's thumbnails have loaded, how many those are,
    and how many thumbnails the first window draws. Saves a screenshot of the first screenful."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    started = time.perf_counter()
    page.goto(url + ("?view=debug" if view == "debug" else ""))
    seen = page.wait_for_function(FIRST_SCREEN_LOADED, timeout=120_000).json_value()
    took = time.perf_counter() - started
    drawn = page.locator(".pictures img").count()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"images-browser-{view}.png")
    page.context.close()
    return took, seen, drawn


def html_export(url: str) -> str:
    """The default view's HTML export downloaded whole: its size, time and what it says of its images."""
    started = time.perf_counter()
    with urllib.request.urlopen(url + ".html", timeout=3600) as response:
        body = response.read().decode()
    took = time.perf_counter() - started
    said = re.search(r'class="export-images">([^<]*)<', body)
    images = html.unescape(said.group(1)) if said else "no images"
    return f"{len(body.encode()) / 1e6:,.1f} MB in {took:,.2f} s; it says: {images}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=300.0, help="the session's size in MB (default 300)")
    megabytes = parser.parse_args().mb
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-images-browser-") as folder:
        path = Path(folder) / "session.jsonl"
        started = time.perf_counter()
        size, count = write_session(path, megabytes)
        print(f"session: {size / 1e6:,.1f} MB, {count:,} distinct screenshots of {SCREEN[0]} × {SCREEN[1]} "
              f"(generated in {time.perf_counter() - started:,.0f} s)", flush=True)
        server, port = start_server(Path(folder), max(size + 1, 1 << 30))
        try:
            idle = status_bytes(server.pid, "VmRSS")
            sending = time.perf_counter()
            status, answer, sent = post_file(port, path, "?debug=allow")
            print(f"upload → link: {sent:,.2f} s (HTTP {status}, {size / 1e6 / sent:,.0f} MB/s)", flush=True)
            url = answer["url"]  # absolute, on the loopback address it was sent to
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                print(f"link → page readable in Chromium: {readable(browser, url):,.2f} s", flush=True)
                for view in ("default", "debug"):
                    took, seen, drawn = first_screen(browser, url, view)
                    print(f"{view} view: first screenful's {seen} thumbnails loaded {took * 1000:,.0f} ms after "
                          f"opening; {drawn} thumbnails on the first page", flush=True)
                browser.close()
            wait_until_searchable(port, answer["id"])
            print(f"upload → processed whole (its search ready): {time.perf_counter() - sending:,.1f} s")
            print(f"default view's .html export: {html_export(url)}")
            peak = status_bytes(server.pid, "VmHWM")
            print(f"server RSS: idle {idle / 1e6:,.0f} MB, peak {peak / 1e6:,.0f} MB "
                  f"({peak / size:.2f}× the upload)")
        finally:
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    main()
