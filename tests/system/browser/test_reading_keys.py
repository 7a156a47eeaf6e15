"""Reading with the keyboard in Chromium: j/k walk the messages (loading the next or earlier window at the
edge), / searches, g goes to a message, d switches the view where it is allowed, ? lists the keys; no key acts
while the reader types. The dataset index walks its rows the same way."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.system.browser.reading import (DATASET_SIZE, focus_quietly, focused_id, uploads,
                                          watch_console)

VIEWPORT = {"width": 1200, "height": 900}


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    yield context.new_page()
    context.close()


def test_j_and_k_move_the_focus_and_cross_into_the_next_window(page, server):
    problems = watch_console(page)
    page.goto(uploads(server).long)
    page.keyboard.press("j")  # nothing in focus: the message at the top
    assert focused_id(page) == "m-0"
    page.keyboard.press("j")
    second = focused_id(page)
    assert second != "m-0" and second == page.locator("#w-0 > li.entry").nth(1).get_attribute("id")
    page.keyboard.press("k")
    assert focused_id(page) == "m-0"
    expect(page.locator("#m-0")).to_be_in_viewport()

    last = page.locator("#w-0 > li.entry").last.get_attribute("id")
    focus_quietly(page, f"#{last}")
    expect(page.locator("#w-100")).to_have_count(0)
    page.keyboard.press("j")  # at the edge: the "Next messages" link loads the next window
    first_of_next = page.locator("#w-100 > li.entry").first
    expect(first_of_next).to_be_focused()
    expect(first_of_next).to_be_in_viewport()
    page.keyboard.press("k")
    expect(page.locator(f"#{last}")).to_be_focused()
    assert problems == []


def test_k_at_the_top_of_a_deep_window_loads_the_earlier_one(page, server):
    page.goto(uploads(server).long + "?at=200")
    first = page.locator("#transcript li.entry").first
    first_id = first.get_attribute("id")
    expect(page.locator("#w-0")).to_have_count(0)
    focus_quietly(page, f"#{first_id}")
    page.keyboard.press("k")
    expect(page.locator("#w-0 > li.entry").last).to_be_focused()
    page.keyboard.press("j")
    expect(page.locator(f"#{first_id}")).to_be_focused()


def test_slash_focuses_the_search_field_and_keys_do_nothing_while_typing(page, server):
    url = uploads(server).weather
    page.goto(url)
    page.keyboard.press("j")
    search = page.locator("nav.toolbar input[type=search]")
    page.keyboard.press("/")
    expect(search).to_be_focused()
    page.keyboard.type("jkdg?/")
    expect(search).to_have_value("jkdg?/")  # typed, not acted on
    assert page.url == url
    expect(page.locator("dialog#keys")).not_to_be_visible()
    page.keyboard.press("Escape")  # back to where the reader was
    assert focused_id(page) == "m-2"
    page.keyboard.press("Control+j")  # a browser shortcut, not ours
    assert focused_id(page) == "m-2"


def test_question_mark_lists_the_keys_and_escape_closes_the_list(browser, server, artifacts):
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
        page = context.new_page()
        page.goto(uploads(server).weather)
        dialog = page.locator("dialog#keys")
        expect(dialog).to_be_hidden()
        expect(page.locator("nav.toolbar .keys-hint")).to_be_visible()
        page.keyboard.press("?")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("heading")).to_have_text("Keyboard shortcuts")
        expect(dialog).to_contain_text("Next / previous message")
        page.screenshot(path=artifacts / f"reading-keys-{scheme}.png")
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        page.locator("nav.toolbar .keys-hint").click()  # the toolbar's hint opens it too
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name="Close").click()
        expect(dialog).to_be_hidden()
        context.close()


def test_d_switches_the_view_when_the_debug_view_is_allowed(page, server):
    url = uploads(server).weather
    page.goto(url)
    page.keyboard.press("d")
    page.wait_for_url(url + "?view=debug")
    expect(page.locator("#m-3")).to_contain_text("ANALYSIS-CANARY-9X")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # swapped, not reloaded
    page.keyboard.press("d")
    page.wait_for_url(url)
    expect(page.locator("#m-3")).to_have_count(0)


def test_d_keeps_the_readers_place(page, server):
    url = uploads(server).long
    page.goto(url + "?at=150")
    entry = page.locator("#transcript li.entry").nth(20)
    index = entry.get_attribute("data-index")
    focus_quietly(page, f"#m-{index}")
    page.keyboard.press("d")
    page.wait_for_url(re.compile(rf"view=debug&at={index}#m-{index}$"))
    expect(page.locator(f"#m-{index}")).to_be_focused()
    expect(page.locator(f"#m-{index}")).to_be_in_viewport()
    expect(page.locator("#transcript")).to_have_attribute("data-view", "debug")


def test_d_does_nothing_when_the_debug_view_is_locked(page, server):
    url = uploads(server).weather_locked
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if "/t/" in request.url else None)
    page.goto(url)
    requests.clear()
    page.keyboard.press("d")
    page.wait_for_timeout(500)
    assert page.url == url and requests == []
    expect(page.locator("#transcript")).to_have_attribute("data-view", "default")
    page.keyboard.press("?")
    expect(page.locator("dialog#keys")).to_contain_text("not allowed the debug view")


def test_g_opens_the_jump_page_or_focuses_the_jump_field(page, server):
    short = uploads(server).weather
    page.goto(short)
    page.keyboard.press("g")  # a short transcript has no jump field on its page: the jump page
    page.wait_for_url(re.compile(r"/jump$"))
    expect(page.locator("input[name=at]")).to_be_focused()

    page.goto(uploads(server).long)
    page.keyboard.press("j")
    field = page.locator("nav.jump-nav input[name=at]")
    page.keyboard.press("g")
    expect(field).to_be_focused()
    page.keyboard.press("Escape")  # back to the message
    assert focused_id(page) == "m-0"
    page.keyboard.press("g")
    page.keyboard.type("150")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"at=150#m-150$"))
    expect(page.locator("#m-150")).to_be_in_viewport()


def test_the_dataset_index_walks_its_rows_and_a_conversation_its_messages(page, server, artifacts):
    problems = watch_console(page)
    url = uploads(server).dataset
    page.goto(url)
    page.keyboard.press("j")
    expect(page.locator("#c-0")).to_be_focused()
    page.keyboard.press("j")
    expect(page.locator("#c-1")).to_be_focused()
    page.screenshot(path=artifacts / "reading-dataset-index.png")
    page.keyboard.press("k")
    expect(page.locator("#c-0")).to_be_focused()
    page.keyboard.press("?")
    expect(page.locator("dialog#keys")).to_contain_text("Next / previous conversation")
    page.keyboard.press("Escape")
    page.keyboard.press("/")
    expect(page.locator("nav.toolbar input[type=search]")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#c-0")).to_be_focused()
    page.keyboard.press("g")
    expect(page.locator("form.jump input[name=at]")).to_be_focused()
    page.keyboard.press("Escape")

    focus_quietly(page, f"#c-{99}")  # the last row of the page: j goes on to the next page
    page.keyboard.press("j")
    page.wait_for_url(re.compile(r"\?at=100$"))
    page.keyboard.press("j")
    expect(page.locator("#c-100")).to_be_focused()
    page.keyboard.press("Enter")  # opens the conversation in focus
    page.wait_for_url(re.compile(r"/c/100$"))
    page.keyboard.press("j")
    expect(page.locator("#transcript li.entry").first).to_be_focused()
    page.keyboard.press("d")
    page.wait_for_url(re.compile(r"/c/100\?view=debug$"))
    expect(page.locator("#transcript")).to_have_attribute("data-view", "debug")
    assert DATASET_SIZE > 100 and problems == []
