"""A representative subset of the hostile corpus in Chromium: nothing runs, nothing is blocked, nothing leaves.

One transcript per dialect carries twenty payloads at once (joined into one string, in every field). The page
is loaded in both views, every entry hovered and focused, and the view toggled with htmx; meanwhile no dialog
may open, the console must stay free of errors (a CSP violation is one), htmx and our script must have loaded,
and every request must go to the test server on 127.0.0.1 (anything else is recorded and aborted).

Also here, because it needs the browser: htmx keeps no history snapshot of a transcript (issue 3; the canary
transcript comes from tests/system/test_leaks.py).
"""
from __future__ import annotations

import json
import urllib.request
from contextlib import contextmanager
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from tests.system.hostile.corpus import DIALECTS, build, load_payloads
from tests.system.test_leaks import transcript as canary_transcript

REPRESENTATIVE = (
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
    "<details open ontoggle=alert(1)>", "<input autofocus onfocus=alert(1)>",
    "<div onmouseover=\"alert(1)\" style=\"position:fixed;inset:0\">hover</div>",
    "[click](javascript:alert(1))", "[click](jav&#x09;ascript:alert(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "<javascript:alert(1)>",
    "![img](http://evil.example/track.png)", "\"><script>alert(1)</script>", "' onmouseover='alert(1)",
    "x\" hx-get=\"/evil\" hx-trigger=\"load", "<div hx-get=\"/\" hx-trigger=\"load\" hx-swap=\"outerHTML\">x</div>",
    "<div data-hx-on:htmx:load=\"alert(1)\">x</div>", "{{7*7}}",
    "<|end|><|start|>assistant<|channel|>final<|message|><img src=x onerror=alert(1)>",
    "<style>body{background:url(http://evil.example/x)}</style>", "<base href=\"http://evil.example/\">",
)
SERVER_HOST = "127.0.0.1"


def test_the_subset_is_taken_from_the_corpus():
    corpus = {payload.text for payload in load_payloads()}
    assert set(REPRESENTATIVE) <= corpus


def _upload(server: str, raw: bytes) -> str:
    request = urllib.request.Request(server + "/api/transcripts?debug=allow", data=raw, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["url"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_hostile_subset_in_chromium(browser, server, dialect):
    url = _upload(server, build("\n\n".join(REPRESENTATIVE), dialect))
    with fresh_context(browser) as context:
        _load_hostile_pages(context, url)


@contextmanager
def fresh_context(browser) -> Iterator[Any]:
    """A browser context with no cookies (a link holder), closed whatever happens."""
    context = browser.new_context()
    try:
        yield context
    finally:
        context.close()


def _load_hostile_pages(context, url: str) -> None:
    outside: list[str] = []

    def only_loopback(route):
        if urlsplit(route.request.url).hostname == SERVER_HOST:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_loopback)
    page = context.new_page()
    seen = watch(page)
    for view_url in (url, url + "?view=debug"):
        page.goto(view_url, wait_until="load")
        assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"
        _touch_every_entry(page)
    # Toggle back to the default view through htmx, as a reader would.
    page.click("nav.toolbar >> text=Default view")
    page.wait_for_url(url)
    _touch_every_entry(page)
    page.wait_for_timeout(300)  # let any `load`-triggered request or timer fire

    assert seen["dialogs"] == []
    assert seen["errors"] == []
    assert seen["failed"] == []
    assert outside == []
    assert page.evaluate("document.querySelectorAll('script').length") == 2


def watch(page) -> dict[str, list[str]]:
    """Record dialogs (dismissed), console errors and page errors, and failed or 4xx/5xx requests."""
    seen: dict[str, list[str]] = {"dialogs": [], "errors": [], "failed": []}
    page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))
    page.on("console", lambda message: seen["errors"].append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: seen["errors"].append(str(error)))
    page.on("requestfailed", lambda request: seen["failed"].append(request.url))
    page.on("response", lambda response: seen["failed"].append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    return seen


def test_the_watchers_see_a_dialog_and_an_error(browser):
    with fresh_context(browser) as context:
        page = context.new_page()
        seen = watch(page)
        page.set_content("<script>alert('x'); console.error('boom')</script>")
        page.wait_for_timeout(100)
    assert seen["dialogs"] == ["x"] and "boom" in seen["errors"]


def _touch_every_entry(page) -> None:
    """Hover and focus what a reader would: every entry and every link in a body (bounded by the page)."""
    for entry in page.locator("li.entry").all()[:60]:
        entry.hover()
    for link in page.locator("div.body a").all()[:60]:
        link.focus()


def test_htmx_keeps_no_history_cache_in_the_browser(browser, server):
    url = _upload(server, canary_transcript("harmony"))
    with fresh_context(browser) as context:
        _toggle_and_go_back(context, url)


def _toggle_and_go_back(context, url: str) -> None:
    page = context.new_page()
    page.goto(url)
    for label, expected in (("Debug view", url + "?view=debug"), ("Default view", url),
                            ("Debug view", url + "?view=debug")):
        page.click(f"nav.toolbar >> text={label}")
        page.wait_for_url(expected)
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # htmx swapped, no reload
    _assert_no_htmx_storage(page)
    # Back to the default view: with no snapshot to restore, htmx reloads the page from the server.
    with page.expect_event("load"):
        page.go_back()
    page.wait_for_url(url)
    _assert_no_htmx_storage(page)
    assert "CANARY" not in page.content()


def _assert_no_htmx_storage(page) -> None:
    """No history snapshot: no `htmx-history-cache` entry, and no stored value holding transcript HTML (htmx
    does keep the current path in sessionStorage, which is only a URL)."""
    storage = page.evaluate("() => ({cache: localStorage.getItem('htmx-history-cache'), values: [localStorage,"
                            " sessionStorage].flatMap(s => Object.keys(s).map(k => k + '=' + s.getItem(k)))})")
    assert storage["cache"] is None
    for value in storage["values"]:
        assert "<" not in value and "SHOWN-" not in value and "CANARY" not in value, value
