"""A generated Claude Code session of many distinct screenshots (tests/harness/screenshots.py: over 2 MiB, so it is
answered 202 and processed after its answer) opened in Chromium, in both views: the first screenful's thumbnails
load, and after reading on, a later window's thumbnails load too; each is a real image (naturalWidth > 0) from
the viewer's own origin. bench/images_browser.py does the same with a 300 MB session."""
from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page

from tests.harness.screenshots import session
from tests.system.browser.test_huge import WINDOW, starts, wait_until_processed

SCREEN = (320, 200)
"""Small screenshots: many of them in a few megabytes."""
FIRST_SCREEN_LOADED = """() => {
  const seen = [...document.querySelectorAll('.pictures img')]
    .filter(i => i.getBoundingClientRect().top < window.innerHeight);
  return seen.length > 0 && seen.every(i => i.complete && i.naturalWidth > 0);
}"""
LOADED = "image => image.complete && image.naturalWidth > 0"


@pytest.fixture(scope="module")
def screenshots(server: str) -> tuple[str, int]:
    """The uploaded session's URL and its number of screenshots (uploaded once for the module)."""
    raw, count = session(3, SCREEN)
    request = urllib.request.Request(f"{server}/api/transcripts?debug=allow", data=raw, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 202  # over the threshold: processed after its answer
        url = json.load(response)["url"]
    wait_until_processed(url)
    return url, count


def _thumbnails(page: Page, window: int) -> list[str]:
    return page.eval_on_selector_all(f"#w-{window} .pictures img", "images => images.map(i => i.alt)")


def _read_on_to_a_later_window(page: Page) -> int:
    """Scroll to the end of the page until the next window is drawn; its start."""
    last = max(starts(page))
    page.locator("a.more.next").scroll_into_view_if_needed()
    page.wait_for_selector(f"#w-{last + WINDOW}", state="attached")
    return last + WINDOW


@pytest.mark.parametrize("view", ["default", "debug"])
def test_many_screenshots_load_in_the_first_screenful_and_in_a_later_window(browser, screenshots, artifacts,
                                                                           view):
    url, count = screenshots
    assert count > 100  # more screenshots than a window has entries
    page = browser.new_context(viewport={"width": 1280, "height": 1500}).new_page()
    page.goto(url + ("?view=debug" if view == "debug" else ""))
    page.wait_for_function(FIRST_SCREEN_LOADED, timeout=20_000)
    first = _thumbnails(page, 0)
    assert len(first) == WINDOW // 2  # a turn is two entries: the question with its screenshot, the answer
    assert "Image sha256" in first[0] and f"{SCREEN[0]:,} × {SCREEN[1]:,} pixels" in first[0]
    page.screenshot(path=artifacts / f"images-many-{view}.png")

    later = _read_on_to_a_later_window(page)
    images = page.locator(f"#w-{later} .pictures img")
    assert images.count() >= WINDOW // 3 and not set(_thumbnails(page, later)) & set(first)
    for number in (0, images.count() - 1):  # lazy images: each loads once it is scrolled to
        images.nth(number).scroll_into_view_if_needed()
        page.wait_for_function(f"() => ({LOADED})(document.querySelectorAll('#w-{later} .pictures img')[{number}])",
                               timeout=20_000)
    sources = page.eval_on_selector_all(".pictures img", "images => images.map(i => i.src)")
    assert all(source.startswith(url + "/media/") for source in sources)
    page.screenshot(path=artifacts / f"images-many-{view}-later.png")
    page.context.close()
