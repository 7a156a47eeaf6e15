"""A live transcript in Chromium: the page shows each message as a script appends it, without reloading (the
htmx `sse` extension over `GET /t/<id>/events`), says when it is finished, and its default view never holds
what the policy hides; without JavaScript, a reload link."""
from __future__ import annotations

import itertools
import json
import re
import urllib.request

from playwright.sync_api import Page, expect

from tests.system.browser.test_flow import watch_console
from tests.web.conftest import HIDDEN_CANARIES, WEATHER


def post(url: str, data: bytes = b"") -> dict:
    with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST"), timeout=30) as response:
        return json.load(response)


def start_live(server: str) -> tuple[str, str]:
    """A live upload with debug access allowed, empty so far; returns its id and manage key."""
    created = post(f"{server}/api/transcripts?live=1&debug=allow")
    return created["id"], created["manage_url"].rsplit("key=", 1)[1]


def messages() -> list[bytes]:
    raw = WEATHER.read_bytes()
    starts = [match.start() for match in re.finditer(rb"<\|start\|>", raw)] + [len(raw)]
    return [raw[a:b] for a, b in itertools.pairwise(starts)]


def assert_nothing_hidden(page: Page) -> None:
    html = page.content()
    assert not [canary for canary in HIDDEN_CANARIES if canary in html]


def test_the_page_shows_each_appended_message_without_reloading(browser, server, artifacts):
    id, key = start_live(server)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{server}/t/{id}")
    expect(page.locator(".doc-meta .badge.live")).to_have_text("live")
    region = page.locator(".live-region")
    expect(region.locator(".live-state")).to_contain_text("still being written")
    shown = {2: "What is the weather in Tokyo?", 7: "20 °C and clear in Tokyo"}
    for index, piece in enumerate(messages()):
        post(f"{server}/api/transcripts/{id}/append?key={key}", piece)
        if index in shown:
            expect(region).to_contain_text(shown[index], timeout=10_000)
        assert_nothing_hidden(page)
    expect(region.locator("li.entry")).to_have_count(4, timeout=10_000)  # question, preamble, tool note, answer
    expect(page.locator("#totals [data-count=messages]")).to_have_text("8")  # the counts follow, in place
    expect(page.locator("#policy-note")).to_contain_text("3 of 8 messages are not shown")
    expect(page.locator("#size")).to_have_text(f"{len(WEATHER.read_bytes()):,} bytes")
    page.screenshot(path=artifacts / "live-default-light.png", full_page=True)
    post(f"{server}/api/transcripts/{id}/finish?key={key}")
    expect(region.locator(".live-state")).to_have_text("The transcript is finished.", timeout=10_000)
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded
    assert_nothing_hidden(page)
    assert problems == []
    context.close()


def test_the_debug_view_of_a_live_page_shows_every_message_as_it_comes(browser, server, artifacts):
    id, key = start_live(server)
    pieces = messages()
    post(f"{server}/api/transcripts/{id}/append?key={key}", b"".join(pieces[:3]))
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{server}/t/{id}?view=debug")
    for piece in pieces[3:-1]:
        post(f"{server}/api/transcripts/{id}/append?key={key}", piece)
    post(f"{server}/api/transcripts/{id}/append?key={key}", pieces[-1][:60])  # the answer, cut short
    expect(page.locator("#m-3")).to_contain_text("ANALYSIS-CANARY-9X", timeout=10_000)
    expect(page.locator("#m-7")).to_contain_text("E-STREAM-TRUNCATED", timeout=10_000)
    page.screenshot(path=artifacts / "live-debug-light.png", full_page=True)
    post(f"{server}/api/transcripts/{id}/finish?key={key}")
    expect(page.locator(".live-region .live-state")).to_contain_text("truncated", timeout=10_000)
    page.reload()
    expect(page.locator(".doc-meta .badge.warn")).to_have_text("truncated")
    assert problems == []
    context.close()


def test_without_javascript_a_live_page_offers_a_reload(browser, server, artifacts):
    id, key = start_live(server)
    post(f"{server}/api/transcripts/{id}/append?key={key}", b"".join(messages()[:3]))
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/t/{id}")
    expect(page.locator(".live-region")).to_contain_text("What is the weather in Tokyo?")
    post(f"{server}/api/transcripts/{id}/append?key={key}", messages()[7])
    page.click(".live-state >> text=Reload")
    expect(page.locator(".live-region")).to_contain_text("20 °C and clear in Tokyo")
    page.screenshot(path=artifacts / "live-no-javascript-light.png", full_page=True)
    context.close()
