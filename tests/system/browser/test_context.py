"""What the model saw, in Chromium: reached from an assistant message's link in the debug view, its dropped
analysis greyed out, and its copy button puts the exact text on the clipboard (read back), the generation prompt
included. Screenshots light and dark go to test-artifacts/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.system.browser.reading import upload, watch_console
from viewer.context import sampling_context
from viewer.context.text import exact_text
from viewer.parse import parse

VIEWPORT = {"width": 1200, "height": 900}
TWO_TURNS = ("<|start|>system<|message|>You are a terse assistant.<|end|>"
             "<|start|>user<|message|>Is 97 prime?<|end|>"
             "<|start|>assistant<|channel|>analysis<|message|>Check divisors up to 9: 2, 3, 5, 7 do not divide 97."
             "<|end|>"
             "<|start|>assistant<|channel|>final<|message|>Yes, 97 is prime.<|end|>"
             "<|start|>user<|message|>And 91?<|end|>"
             "<|start|>assistant<|channel|>analysis<|message|>91 = 7 × 13.<|end|>"
             "<|start|>assistant<|channel|>final<|message|>No: 91 = 7 × 13.<|return|>")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_open_what_the_model_saw_and_copy_its_exact_text(browser, server, artifacts, scheme):
    transcript = parse(TWO_TURNS)
    expected = exact_text(sampling_context(transcript.messages, "harmony", 5), "harmony").text
    context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme,
                                  permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        problems = watch_console(page)
        page.goto(upload(server, TWO_TURNS.encode()) + "?view=debug")
        page.locator("#m-5").get_by_role("link", name="What the model saw").click()
        expect(page.locator("h1")).to_have_text("What the model saw")
        expect(page.locator("li.ctx-dropped")).to_have_count(1)
        expect(page.locator("li.ctx-dropped")).to_contain_text("dropped by openai-harmony auto_drop_analysis")
        copy = page.get_by_role("button", name="Copy the exact text")
        expect(copy).to_be_visible()
        copy.click()
        expect(copy).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == expected
        assert expected.endswith("<|end|><|start|>assistant") and "Check divisors" not in expected
        assert page.locator("pre.ctx-pre").text_content() == expected
        page.screenshot(path=artifacts / f"context-{scheme}.png", full_page=True)
        page.goto(page.url.replace("/context/5", "?view=debug"))
        page.locator("#m-5").scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"context-link-{scheme}.png")
        assert problems == []
    finally:
        context.close()
