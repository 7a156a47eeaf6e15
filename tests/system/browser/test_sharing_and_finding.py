"""Sharing and finding as a first-time user meets them, in Chromium: the share panel after an upload (Copy buttons),
revoking a link on the manage page (the old link answers 410, the new one opens the transcript), switching a
version in the default view of a chat app's export (the choice kept across views and in the URL), jumping from a
search result to a highlighted message below the toolbar (the counter follows, n walks the results), Esc leaving
every field, the skip link, and phones: no page wider than the screen, a header of two lines at most."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import SAMPLES
from tests.system.browser.reading import focused_id, uploads, watch_console
from tests.web.conftest import WEATHER

EXPORT = SAMPLES / "chatgpt-export-branches-tools-memory.json"
CLAUDE_CODE = SAMPLES / "claude-code-1.0-bugfix-mcp.jsonl"
EVALUATION = SAMPLES / "inspect-arithmetic.eval"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _api_upload(server: str, raw: bytes, debug: bool = True) -> dict:
    request = urllib.request.Request(f"{server}/api/transcripts?debug={'allow' if debug else 'deny'}", data=raw,
                                     method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def _form_upload(page: Page, server: str) -> str:
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(WEATHER))
    page.click("form.upload button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]{22}$"))
    return page.url


def _below_the_toolbar(page: Page, selector: str) -> None:
    bar = page.locator("nav.toolbar").bounding_box()
    box = page.locator(selector).bounding_box()
    stack = bar["y"] + bar["height"]
    panel = page.locator("#search-results")
    if panel.is_visible():
        panel_box = panel.bounding_box()
        stack = max(stack, panel_box["y"] + panel_box["height"])
    assert stack <= box["y"] < stack + 60, (selector, stack, box)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    yield context.new_page()
    context.close()


def test_the_share_panel_then_revoking_the_link_keeps_the_transcript(page, server, artifacts):
    problems = watch_console(page)
    url = _form_upload(page, server)
    panel = page.locator("section.share-panel")
    expect(panel.locator("#share-url")).to_have_value(url)
    expect(panel.locator("#manage-url")).to_have_value(re.compile(r"/manage\?key="))
    copy = panel.get_by_role("button", name="Copy the share link")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == url
    page.screenshot(path=artifacts / "share-panel-uploaded.png")

    page.goto(url + "/manage")
    page.get_by_role("button", name="Revoke and make a new link").click()
    page.wait_for_url(re.compile(r"/manage#share$"))
    new_url = page.locator("#share-url").input_value()
    assert new_url != url and new_url.startswith(server + "/t/")
    expect(page.locator(".notice")).to_contain_text("no longer works")
    expect(page.locator("#manage-url")).to_have_value(re.compile(r"/manage\?key="))
    page.screenshot(path=artifacts / "share-panel-revoked.png", full_page=True)

    reader = page.context.browser.new_context(viewport=DESKTOP).new_page()
    old = reader.goto(url)
    assert old is not None and old.status == 410
    expect(reader.locator("h1")).to_have_text("Gone")
    new = reader.goto(new_url)
    assert new is not None and new.status == 200
    expect(reader.locator("#m-7")).to_contain_text("20 °C and clear in Tokyo")
    locked = reader.goto(new_url + "?view=debug")
    assert locked is not None and locked.status == 403
    reader.get_by_role("link", name="Back to the transcript").click()
    expect(reader).to_have_url(new_url)
    reader.context.close()
    assert [problem for problem in problems if "inline style" not in problem] == []


def test_an_empty_form_says_so_where_the_reader_looks(page, server):
    page.goto(server + "/")
    page.click("form.upload button[type=submit]")
    note = page.locator(".upload-status .upload-note")
    expect(note).to_have_text("Choose a file or paste a transcript first.")
    expect(note).to_be_in_viewport()
    assert page.url == server + "/"


def test_switching_a_version_in_the_default_view_keeps_the_choice(page, server, artifacts):
    problems = watch_console(page)
    url = _api_upload(server, EXPORT.read_bytes())["url"] + "/c/0"
    page.goto(url)
    question = page.locator("li[data-index='4'] nav.versions")
    expect(question.locator(".version-count")).to_have_text("2/2")
    page.screenshot(path=artifacts / "versions-default.png")
    question.get_by_role("link", name="Version 1 of 2").click()
    expect(page).to_have_url(f"{url}?branch=2&at=2#m-2")
    expect(page.locator("li[data-index='2']")).to_contain_text("in one day")
    expect(page.locator("li[data-index='4']")).to_have_count(0)
    expect(page.locator("li[data-index='2']")).to_have_class(re.compile(r"\blanded\b"))
    expect(page.locator("li[data-index='2'] .version-count")).to_have_text("1/2")
    expect(page.locator("#versions-note")).to_contain_text("a version the app did not show")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # swapped, not reloaded
    page.screenshot(path=artifacts / "versions-switched.png")

    page.locator(".toggle").get_by_role("link", name="Debug view").click()
    expect(page).to_have_url(f"{url}?view=debug&branch=2")
    expect(page.locator("li[data-index='4']")).to_have_count(0)
    page.locator(".toggle").get_by_role("link", name="Default view").click()
    expect(page).to_have_url(f"{url}?branch=2")
    expect(page.locator("li[data-index='2']")).to_contain_text("in one day")
    page.reload()
    expect(page.locator("li[data-index='2'] .version-count")).to_have_text("1/2")
    page.locator("li[data-index='2'] nav.versions").get_by_role("link", name="Version 2 of 2").click()
    expect(page).to_have_url(f"{url}?branch=4&at=4#m-4")
    expect(page.locator("li[data-index='6']")).to_contain_text("walk Alfama")
    assert [problem for problem in problems if "inline style" not in problem] == []


def test_a_search_result_lands_on_its_message_highlighted_and_n_walks_the_results(page, server, artifacts):
    problems = watch_console(page)
    url = uploads(server).long
    page.goto(url)
    field = page.locator("nav.toolbar input[type=search]")
    field.click()
    page.keyboard.type("sunn")  # as people type: no Enter, and the start of a word finds it
    panel = page.locator("#search-results")
    hits = panel.locator("a.search-hit-link")
    expect(hits.first).to_be_visible()
    expect(panel.locator(".search-summary")).to_contain_text("messages match “sunn”")
    expect(panel.locator(".search-excerpt mark").first).to_have_text("sunny")
    target = hits.nth(3).get_attribute("data-jump")
    hits.nth(3).click()
    entry = page.locator(f"#{target}")
    expect(entry).to_be_focused()
    expect(entry).to_have_class(re.compile(r"\blanded\b"))
    expect(page.locator(".entry.landed")).to_have_count(1)
    expect(panel.locator(".search-walk")).to_be_visible()  # the results folded to one line, kept
    expect(panel.locator(".search-hits")).to_be_hidden()
    _below_the_toolbar(page, f"#{target}")
    index = int(target.removeprefix("m-"))
    expect(page.locator("nav.toolbar .position")).to_have_text(f"#{index} of 273")
    page.screenshot(path=artifacts / "search-landed.png")

    page.keyboard.press("n")
    following = hits.nth(4).get_attribute("data-jump")
    expect(page.locator(f"#{following}")).to_be_focused()
    expect(page.locator(".entry.landed")).to_have_count(1)
    _below_the_toolbar(page, f"#{following}")
    expect(page.locator("nav.toolbar .position")).to_have_text(f"#{int(following.removeprefix('m-'))} of 273")
    page.keyboard.press("N")
    expect(page.locator(f"#{target}")).to_be_focused()

    field.click()  # a result in a later window: it is swapped in, the results kept
    page.keyboard.press("Control+a")
    page.keyboard.type("Answer 77")
    expect(hits).to_have_count(1)
    far = hits.first.get_attribute("data-jump")
    expect(page.locator(f"#{far}")).to_have_count(0)
    hits.first.click()
    expect(page.locator(f"#{far}")).to_be_focused()
    expect(page.locator(f"#{far}")).to_have_class(re.compile(r"\blanded\b"))
    _below_the_toolbar(page, f"#{far}")
    expect(panel.locator(".search-walk")).to_be_visible()
    expect(field).to_have_value("Answer 77")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert page.url.endswith(f"#{far}")
    assert [problem for problem in problems if "inline style" not in problem] == []


def test_a_copied_link_and_go_to_land_below_the_toolbar(page, server):
    url = uploads(server).long
    page.goto(f"{url}?at=150#m-150")
    expect(page.locator("#m-150")).to_have_class(re.compile(r"\blanded\b"))
    _below_the_toolbar(page, "#m-150")
    expect(page.locator("nav.toolbar .position")).to_have_text("#150 of 273")
    page.keyboard.press("j")
    expect(page.locator(".entry.landed")).to_have_count(1)  # one place at a time
    assert focused_id(page) != "m-150"


def test_esc_leaves_every_field_and_the_skip_link_goes_to_the_messages(page, server):
    url = uploads(server).weather
    page.goto(url)
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the messages")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("#messages")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('li.entry') !== null")  # the first message's own links

    page.locator("details.tools-menu summary").click()
    page.locator("#compare-with").click()
    page.keyboard.type("abc")
    page.keyboard.press("Escape")
    expect(page.locator("#compare-with")).not_to_be_focused()
    page.keyboard.press("Escape")  # the menu closes
    expect(page.locator("#compare-with")).to_be_hidden()
    page.keyboard.press("g")  # a key again, not a letter typed
    page.wait_for_url(re.compile(r"/jump$"))


@pytest.mark.parametrize("path", ["", "?view=debug", "/manage"])
def test_on_a_phone_no_page_scrolls_sideways_and_the_header_takes_two_lines_at_most(browser, server, path, artifacts):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    url = _form_upload(page, server) if path == "/manage" else _api_upload(server, CLAUDE_CODE.read_bytes())["url"]
    for where in ([url + path] if path != "/manage" else [url + "/manage", server + "/transcripts", server + "/"]):
        page.goto(where)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where
        header = page.locator("header.site").bounding_box()
        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.brand')).lineHeight) || 26")
        assert header["height"] <= 2 * line + 24, (where, header["height"])
    page.screenshot(path=artifacts / f"phone{path.replace('/', '-').replace('?', '-').replace('=', '-')}.png")
    context.close()


def test_on_a_phone_an_evaluation_and_an_export_fit_the_screen(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    evaluation = _api_upload(server, EVALUATION.read_bytes())["url"]
    export = _api_upload(server, EXPORT.read_bytes())["url"]
    for where in (evaluation, evaluation + "?view=debug", evaluation + "/c/1?view=debug", export, export + "/c/0",
                  export + "/c/0?view=debug"):
        page.goto(where)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where
    context.close()
