"""A 100,000-message transcript in Chromium: windows load as the reader scrolls, the DOM stays bounded, and a
deep link near the end opens its own window."""
from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.harness.gen import generate

DOM_LIMIT = 500
WINDOW = 100


@pytest.fixture(scope="module")
def huge(server: str) -> tuple[str, int]:
    """The uploaded transcript's URL and message count (uploaded once for the module, through the API)."""
    raw = generate(messages=100_000).encode()
    request = urllib.request.Request(server + "/api/transcripts?debug=allow", data=raw, method="POST")
    with urllib.request.urlopen(request, timeout=120) as response:
        url = json.load(response)["url"]
    wait_until_processed(url)
    with urllib.request.urlopen(url, timeout=30) as response:
        page = response.read().decode()
    count = int(re.search(r'data-count="messages">([\d,]+)<', page).group(1).replace(",", ""))
    return url, count


def wait_until_processed(url: str, seconds: float = 120) -> None:
    """Wait for an upload answered 202 (viewer/ingest/processor.py) to be whole: its search, built last, answers
    409 until then."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + "/search?q=x", timeout=30):
                return
        except urllib.error.HTTPError as error:
            if error.code != 409 or time.monotonic() > deadline:
                raise
        time.sleep(0.2)


def entries(page: Page) -> int:
    return page.locator("#transcript ol.entries > li.entry").count()


def starts(page: Page) -> list[int]:
    """The first positions of the windows in the DOM (each list is `<ol class="entries" id="w-START">`)."""
    return page.eval_on_selector_all("#transcript ol.entries", "lists => lists.map(l => +l.id.slice(2))")


def assert_bounded(page: Page) -> None:
    """The DOM is back within its bound once the window just attached has settled: the page drops the farthest
    windows on htmx's afterSettle, a moment after the swap (on a loaded machine, after the window is attached)."""
    deadline = time.monotonic() + 5  # (a page-side wait would evaluate a string, which the page's CSP forbids)
    while entries(page) > DOM_LIMIT and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert entries(page) <= DOM_LIMIT


def read_on(page: Page, windows: int) -> None:
    """Scroll to the end of the page `windows` times, checking the DOM bound after each new window."""
    for _ in range(windows):
        last = max(starts(page))
        page.locator("a.more.next").scroll_into_view_if_needed()
        page.wait_for_selector(f"#w-{last + WINDOW}", state="attached")
        assert_bounded(page)


def go_back(page: Page, windows: int) -> None:
    """Click "Earlier messages" `windows` times, checking the DOM bound after each new window."""
    for _ in range(windows):
        first = min(starts(page))
        page.locator("a.more.earlier").click()
        page.wait_for_selector(f"#w-{first - WINDOW}", state="attached")
        assert_bounded(page)


@pytest.mark.parametrize("view", ["default", "debug"])
def test_scrolling_a_huge_transcript_keeps_the_dom_bounded(browser, huge, view):
    url, count = huge
    assert count >= 100_000
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(url + ("?view=debug" if view == "debug" else ""))
    expect(page.locator("#w-0")).to_have_count(1)
    read_on(page, 8)
    assert page.locator("#w-0").count() == 0  # the first windows were dropped …
    expect(page.locator("a.more.earlier")).to_have_count(1)  # … for one link that loads them again
    go_back(page, 2)
    page.context.close()


def test_a_deep_link_near_the_end_opens_its_window(browser, huge):
    url, count = huge
    target = count - 7
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(f"{url}?view=debug&at={target}#m-{target}")
    expect(page.locator(f"#m-{target}")).to_be_in_viewport()
    assert entries(page) <= WINDOW
    go_back(page, 6)  # earlier windows come in above, the ones far below go
    expect(page.locator("a.more.next")).to_have_count(1)
    page.context.close()


def test_a_long_message_expands_in_place_and_a_form_upload_shows_progress(browser, server, tmp_path):
    long_answer = "LONG-ANSWER " + "word " * 5_000
    path = tmp_path / "long.txt"
    path.write_text(f"<|start|>user<|message|>Tell me all.<|end|><|start|>assistant<|channel|>final<|message|>"
                    f"{long_answer}<|end|>")
    page = browser.new_context().new_page()
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.resource_type) if request.method == "POST" else None)
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(path))
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]{22}$"))
    assert posts == ["xhr"]  # sent by app.js, which shows upload progress
    expect(page.locator(".manage-banner")).to_have_count(1)  # the manage link is still shown once
    card = page.locator("#m-1")
    expect(card).to_contain_text("25,012 characters")
    card.locator("a.expand").click()
    expect(card.locator(".body")).to_contain_text("LONG-ANSWER word word")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # swapped, not navigated
    page.context.close()
