"""A Claude Code session opened in Chromium, in both views: the default view reads like the chat (the sub-agent
and the reasoning absent from the page), the debug view nests the sub-agent's conversation under its call in a
group that folds, and totals the session's tokens."""
from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

from tests.conftest import SAMPLES

SESSION = SAMPLES / "claude-code-2.1-subagent-agent-id.jsonl"


def _upload(server: str) -> str:
    request = urllib.request.Request(f"{server}/api/transcripts?debug=allow", data=SESSION.read_bytes(),
                                     method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["url"]


def test_a_claude_code_session_in_both_views(browser, server, artifacts):
    url = _upload(server)
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(url)
    expect(page.locator(".entry.msg").first).to_contain_text("Review the rates module for rounding bugs.")
    expect(page.locator(".marker").first).to_contain_text("Task(Review rounding)")
    html = page.content()
    assert "Floats for money" not in html and "a9f4657" not in html and "Decimal with ROUND_HALF_UP." not in html
    page.screenshot(path=artifacts / "claude-code-default.png", full_page=True)

    page.get_by_role("link", name="Debug view").click()
    thread = page.locator(".thread-group details.thread")
    expect(thread).to_have_attribute("open", "")
    expect(thread.locator("> summary")).to_contain_text("a9f4657")
    expect(thread.locator("li.entry.dbg")).to_have_count(5)
    expect(page.locator(".session-totals")).to_contain_text("4 model responses")
    page.screenshot(path=artifacts / "claude-code-debug.png", full_page=True)
    thread.locator("> summary").click()
    expect(thread.locator("li.entry.dbg").first).to_be_hidden()
    page.screenshot(path=artifacts / "claude-code-debug-thread-folded.png", full_page=True)
