"""A big upload in Chromium: answered 202 before it is processed, its page shows progress (server-sent events
through the htmx `sse` extension, under the strict CSP) and becomes the transcript by itself when it is stored;
without JavaScript the page refreshes itself until it is. Its default view never holds what the policy hides."""
from __future__ import annotations

import json
import threading
import urllib.request
from typing import Iterator

import pytest
from playwright.sync_api import expect

from tests.system.browser.test_flow import watch_console
from tests.web.conftest import HIDDEN_CANARIES, WEATHER
from viewer.ingest import deferred
from viewer.settings import SETTINGS

DEFER = next(setting.default for setting in SETTINGS if setting.name == "DEFER_UPLOAD_BYTES")
BIG = WEATHER.read_bytes() * (DEFER // len(WEATHER.read_bytes()) + 2)
"""Over the default threshold, which the session's server keeps."""


@pytest.fixture
def gate(monkeypatch) -> Iterator[threading.Event]:
    """Holds uploads processed after their answer (the server runs in this process) until it is set."""
    opened, real = threading.Event(), deferred.process

    def held(store, id, **options):
        assert opened.wait(60)
        return real(store, id, **options)
    monkeypatch.setattr(deferred, "process", held)
    yield opened
    opened.set()


def upload(server: str) -> str:
    request = urllib.request.Request(f"{server}/api/transcripts", data=BIG, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 202
        return json.load(response)["url"]


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no script"])
def test_the_progress_page_becomes_the_transcript_by_itself(browser, server, gate, artifacts, javascript):
    url = upload(server)
    context = browser.new_context(viewport={"width": 1200, "height": 800}, java_script_enabled=javascript)
    page = context.new_page()
    problems = watch_console(page)
    page.goto(url)
    expect(page.locator(".progress-stage")).to_contain_text("reading the transcript")
    page.screenshot(path=artifacts / f"processing-{'script' if javascript else 'no-script'}.png", full_page=True)
    gate.set()
    expect(page.locator("li.entry").first).to_be_visible(timeout=30_000)  # reloaded by app.js or by the refresh
    expect(page.locator("[data-processing]")).to_have_count(0)
    html = page.content()
    assert not [canary for canary in HIDDEN_CANARIES if canary in html]
    assert problems == []  # no CSP violation, no script error
    context.close()
