"""Comparing two transcripts in Chromium: pasting a share link into a transcript page's "compare with…" form
opens the compare page; both views, in light and dark, are screenshotted (test-artifacts/compare-*.png), with
the diff marked by more than colour (struck-through deletions, underlined insertions)."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.system.browser.reading import upload, watch_console
from tests.web.conftest import harmony

QUESTION = ("user", "", "What is the weather in Paris tomorrow?")


def run(answer: str, city: str, system: str, *, follow_up: bool = False) -> bytes:
    call = (f"<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
            f"{json.dumps({'city': city, 'unit': 'celsius'})}<|call|>"
            f"<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"
            f"{json.dumps({'temperature': 18})}<|end|>")
    return (harmony(("system", "", system), QUESTION, ("assistant", "analysis", "Look it up."))
            + call.encode()
            + harmony(("assistant", "final", answer),
                      *([("user", "", "And the day after?"), ("assistant", "final", "Rain, sadly.")] if follow_up
                        else [("user", "", "Thanks!")]),
                      ("assistant", "final", "Any time.")))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_compare_with_a_pasted_link_in_both_views(browser, server, artifacts, scheme):
    first = upload(server, run("It will be **18 °C** and sunny in Paris.", "Paris", "You are terse."))
    second = upload(server, run("It will be 21 °C and cloudy in Paris, with light wind.", "Paris, FR",
                                "You are verbose.", follow_up=True))
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems = watch_console(page)
    page.goto(first + "?view=debug")
    page.click("details.tools-menu > summary")  # the toolbar's one menu holds the compare form
    page.fill("form.compare-form input[name=with]", second)
    page.screenshot(path=artifacts / f"compare-form-{scheme}.png")
    page.click("form.compare-form button[type=submit]")
    page.wait_for_url("**/compare/**?view=debug")
    expect(page.locator("[data-summary]")).to_contain_text("1 added, 0 removed, 4 changed")
    changed = page.locator(".cmp-row.cmp-changed")
    expect(changed.first.locator("del").first).to_have_css("text-decoration-line", "line-through")
    expect(changed.nth(1).locator("ins").first).to_have_css("text-decoration-line", "underline")
    page.screenshot(path=artifacts / f"compare-debug-{scheme}.png", full_page=True)

    page.click("nav.toolbar >> text=Default view")
    expect(page.locator("[data-summary]")).to_contain_text("1 added, 0 removed, 2 changed")
    expect(page.locator(".cmp-grid")).not_to_contain_text("terse")
    page.screenshot(path=artifacts / f"compare-default-{scheme}.png", full_page=True)
    assert problems == []
    context.close()
