"""A ChatGPT export's conversation with an edited question and a regenerated answer, in Chromium: the default
view shows the app's branch and says other versions exist; in the debug view the switcher's links swap the
transcript region (htmx, the URL pushed) to another branch, and the same links work as plain links without
JavaScript."""
from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

from tests.conftest import SAMPLES

EXPORT = SAMPLES / "chatgpt-export-branches-tools-memory.json"


def _upload(server: str) -> str:
    request = urllib.request.Request(f"{server}/api/transcripts?debug=allow", data=EXPORT.read_bytes(),
                                     method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["url"]


def test_switching_a_branch_in_both_views(browser, server, artifacts):
    url = _upload(server) + "/c/0"
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(url)
    expect(page.locator("#versions-note")).to_contain_text("other versions")
    expect(page.locator(".entry.msg").first).to_contain_text("two days, on foot")
    assert "CANARY" not in page.content()
    page.screenshot(path=artifacts / "export-branch-default.png", full_page=True)

    page.get_by_role("link", name="Debug view").click()
    switch = page.locator("li[data-index='2'] nav.branch-switch")
    expect(switch.locator(".branch-kind")).to_have_text("edited, 1 / 2")
    expect(page.locator("li[data-index='4'] nav.branch-switch a[aria-current]")).to_have_text("2")
    switch.locator("a[data-branch='1']").click()
    expect(page).to_have_url(f"{url}?view=debug&branch=2&at=2#m-2")
    expect(page.locator("li[data-index='4']")).to_have_count(0)
    expect(page.locator("li[data-index='3']")).to_contain_text("Belém")
    expect(page.locator("li[data-index='2'] nav.branch-switch a[aria-current]")).to_have_text("1")
    page.screenshot(path=artifacts / "export-branch-debug-switched.png", full_page=True)

    plain = browser.new_context(java_script_enabled=False).new_page()
    plain.goto(url + "?view=debug")
    plain.locator("li[data-index='5'] nav.branch-switch a[data-branch='1']").click()
    expect(plain).to_have_url(f"{url}?view=debug&branch=5&at=5#m-5")
    expect(plain.locator("li[data-index='6']")).to_have_count(0)
    expect(plain.locator("li[data-index='5']")).to_contain_text("CANARY-REGENERATED-AWAY")
