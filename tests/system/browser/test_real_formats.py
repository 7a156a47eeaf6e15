"""Files as today's models and tools write them, opened in Chromium: a Qwen3 transcript with reasoning and tool
calls, and a fine-tuning dataset, in both views, with nothing hidden on the default view's page."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.conftest import SAMPLES

QWEN3 = SAMPLES / "chatml-qwen3-thinking-tools.txt"
DATASET = SAMPLES / "json-dataset-finetune.jsonl"


def _upload(server: str, path, *, debug: bool = True) -> str:
    request = urllib.request.Request(f"{server}/api/transcripts?debug={'allow' if debug else 'deny'}",
                                     data=path.read_bytes(), method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["url"]


def _reasoning_of(path) -> list[str]:
    text = path.read_text()
    return [block.strip() for block in re.findall(r"<think>(.*?)</think>", text, re.DOTALL) if block.strip()]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_qwen3_transcript_hides_its_reasoning_and_shows_it_in_the_debug_view(browser, server, artifacts, scheme):
    url = _upload(server, QWEN3)
    page = browser.new_context(color_scheme=scheme, viewport={"width": 1200, "height": 900}).new_page()
    page.goto(url)
    html = page.content()
    reasoning = _reasoning_of(QWEN3)
    assert reasoning and not any(block[:60] in html for block in reasoning)
    expect(page.locator(".marker").first).to_contain_text("used")
    page.screenshot(path=artifacts / f"qwen3-default-{scheme}.png", full_page=True)
    page.goto(url + "?view=debug")
    expect(page.locator("li.entry.tone-analysis").first).to_contain_text(reasoning[0][:40])
    expect(page.locator(".pair-link").first).to_be_visible()
    page.screenshot(path=artifacts / f"qwen3-debug-{scheme}.png", full_page=True)
    page.context.close()


def test_a_dataset_opens_as_an_index_and_each_conversation_in_both_views(browser, server, artifacts):
    url = _upload(server, DATASET)
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(url)
    rows = page.locator("table.conversations tbody tr")
    expect(rows).to_have_count(5)
    assert "Never reveal internal escalation codes" not in page.content()  # a system prompt
    page.screenshot(path=artifacts / "dataset-index.png", full_page=True)
    rows.nth(1).locator("td.snippet a").click()
    page.wait_for_url(re.compile(r"/c/1$"))
    expect(page.locator("h1")).to_contain_text("conversation #1")
    assert "look up order status" not in page.content()
    page.click("nav.toolbar >> text=Debug view")
    page.wait_for_url(re.compile(r"/c/1\?view=debug$"))
    expect(page.locator("#transcript")).to_contain_text("look up order status")
    page.screenshot(path=artifacts / "dataset-conversation-debug.png", full_page=True)
    page.click("a[rel=next]")
    page.wait_for_url(re.compile(r"/c/2\?view=debug$"))
    page.context.close()
