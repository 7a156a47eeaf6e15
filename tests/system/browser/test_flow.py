"""The whole flow in a real browser, with and without JavaScript, light and dark."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import HIDDEN_CANARIES, WEATHER, harmony

ANALYSIS = "ANALYSIS-CANARY-9X"


def watch_console(page: Page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def upload_by_form(page: Page, server: str, *, allow_debug: bool = False) -> str:
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(WEATHER))
    if allow_debug:
        page.check("input[name=allow_debug]")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]{22}$"))
    return page.url


def assert_default_view(page: Page) -> None:
    expect(page.locator("#m-7")).to_contain_text("20 °C and clear in Tokyo")
    html = page.content()
    for canary in HIDDEN_CANARIES:
        assert canary not in html


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_upload_read_debug_and_share_with_javascript(browser, server, artifacts, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems = watch_console(page)
    page.goto(server + "/")
    page.screenshot(path=artifacts / f"home-{scheme}.png", full_page=True)
    share_url = upload_by_form(page, server)
    assert_default_view(page)
    page.screenshot(path=artifacts / f"default-view-{scheme}.png", full_page=True)

    page.click("nav.toolbar >> text=Debug view")
    page.wait_for_url(share_url + "?view=debug")
    expect(page.locator("#m-3")).to_contain_text(ANALYSIS)
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # swapped, not reloaded
    page.hover("#m-5")
    expect(page.locator("#m-5")).to_have_class(re.compile(r"\bpaired\b"))
    expect(page.locator("#m-6")).to_have_class(re.compile(r"\bpaired\b"))
    page.screenshot(path=artifacts / f"debug-view-{scheme}.png", full_page=True)
    page.focus("#m-6")
    expect(page.locator("#m-5")).to_have_class(re.compile(r"\bpaired\b"))

    # htmx keeps no history snapshot (historyCacheSize 0), so going back makes it reload the default view's
    # URL: wait for that reload's load event, not just the URL change, which comes first.
    with page.expect_event("load"):
        page.go_back()
    assert page.url == share_url
    assert_default_view(page)
    assert problems == []

    stranger = browser.new_context(color_scheme=scheme).new_page()
    stranger.goto(share_url)
    assert_default_view(stranger)
    stranger.click("nav.toolbar >> text=Debug view")
    expect(stranger.locator(".error h1")).to_have_text("Forbidden")
    stranger.screenshot(path=artifacts / f"forbidden-{scheme}.png", full_page=True)
    stranger.context.close()
    context.close()


def test_the_same_flow_without_javascript(browser, server, artifacts):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    share_url = upload_by_form(page, server, allow_debug=True)
    assert_default_view(page)
    page.click("nav.toolbar >> text=Debug view")
    page.wait_for_url(share_url + "?view=debug")
    expect(page.locator("#m-3")).to_contain_text(ANALYSIS)
    page.locator("#m-5 details.source summary").click()
    expect(page.locator("#m-5 details.source pre")).to_contain_text("<|call|>")
    page.screenshot(path=artifacts / "debug-view-no-js.png", full_page=True)
    page.go_back()
    page.wait_for_url(share_url)
    assert_default_view(page)

    stranger = browser.new_context(java_script_enabled=False).new_page()
    stranger.goto(share_url + "?view=debug")  # allowed at upload
    expect(stranger.locator("#m-3")).to_contain_text(ANALYSIS)
    stranger.context.close()
    context.close()


def test_next_window_loads_when_the_reader_nears_the_end(browser, server, artifacts):
    raw = harmony(*[(role, channel, f"{role} message {n}") for n in range(130)
                    for role, channel in (("user", ""), ("assistant", "final"))])
    request = urllib.request.Request(server + "/api/transcripts", data=raw, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        url = json.load(response)["url"]
    page = browser.new_context().new_page()
    problems = watch_console(page)
    page.goto(url)
    entries = page.locator("ol.entries > li.entry")
    expect(entries).to_have_count(100)
    page.locator("a.more.next").scroll_into_view_if_needed()
    expect(entries).to_have_count(200)
    page.locator("a.more.next").scroll_into_view_if_needed()
    expect(entries).to_have_count(260)
    expect(page.locator("a.more.next")).to_have_count(0)
    assert problems == []
    page.context.close()


def test_dropping_a_file_on_the_picker_selects_it(browser, server):
    page = browser.new_context().new_page()
    page.goto(server + "/")
    page.evaluate("""(text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], "dropped.txt", {type: "text/plain"}));
        document.querySelector("[data-drop]").dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true, cancelable: true}));
    }""", WEATHER.read_text())
    expect(page.locator("[data-drop-name]")).to_have_text("dropped.txt")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/t/"))
    expect(page.locator("h1")).to_have_text("dropped.txt")
    page.context.close()
