"""A Claude Code session with pasted screenshots opened in Chromium, in both views: the default view draws the
user's screenshot as a thumbnail that loads (and not the screenshot tool's, whose reply it hides), the debug view
draws them all; every thumbnail is a real image (naturalWidth > 0) served from the viewer's own origin, and opens
the image full size. The same when the session is read from its thin text, its payloads cut out
(viewer/parse/thinning.py, as a big one is)."""
from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.conftest import SAMPLES
from viewer.parse import thinning

SESSION = SAMPLES / "claude-code-1.0-screenshots.jsonl"
LOADED = "() => [...document.querySelectorAll('.pictures img')].every(i => i.complete && i.naturalWidth > 0)"


def _upload(server: str) -> str:
    request = urllib.request.Request(f"{server}/api/transcripts?debug=allow", data=SESSION.read_bytes(),
                                     method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["url"]


def _widths(page) -> list[int]:
    return page.evaluate("() => [...document.querySelectorAll('.pictures img')].map(i => i.naturalWidth)")


@pytest.mark.parametrize("thin", [False, True], ids=["whole", "thinned"])
def test_screenshots_load_as_thumbnails_in_both_views(browser, server, artifacts, monkeypatch, thin):
    if thin:  # every payload of the sample is cut out
        monkeypatch.setattr(thinning, "THIN_FROM", 0)
        monkeypatch.setattr(thinning, "CUT_FROM", 64)
    url = _upload(server)
    page = browser.new_context(viewport={"width": 1280, "height": 1500}).new_page()
    page.goto(url)
    expect(page.locator(".pictures img")).to_have_count(2)  # the user's screenshot, pasted twice
    page.wait_for_function(LOADED, timeout=10_000)
    assert _widths(page) == [240, 240]
    assert "dff725a43e9d" not in page.content()  # the tool's screenshot: its reply is hidden
    expect(page.locator(".entry.msg").filter(has_text="not shown: an SVG drawing")).to_have_count(1)
    page.screenshot(path=artifacts / f"images-default-{thin}.png", full_page=True)

    page.get_by_role("link", name="Debug view").click()
    expect(page.locator(".pictures img")).to_have_count(3)
    page.wait_for_function(LOADED, timeout=10_000)
    assert _widths(page) == [240, 240, 240]
    page.screenshot(path=artifacts / f"images-debug-{thin}.png", full_page=True)

    full = page.locator(".pictures a").first.get_attribute("href")
    page.goto(server + full)
    assert page.evaluate("() => document.images.length === 1 && document.images[0].naturalWidth") == 240
