"""Your transcripts in a real browser: the list of what this browser uploaded, copying a link, searching
across the list, deleting one transcript and a selection; and what another browser gets. Screenshots of the
list, the search and the confirmation, light and dark."""
from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.system.browser.test_flow import upload_by_form, watch_console


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def upload_pasted(page: Page, server: str, text: str) -> str:
    page.goto(server + "/")
    page.fill("textarea[name=text]", text)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]{22}$"))
    return page.url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_list_search_and_delete(browser, server, artifacts, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1300, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    problems = watch_console(page)
    weather = upload_by_form(page, server)
    tides = upload_pasted(page, server, "<|start|>user<|message|>When are the tides at Brest?<|end|>"
                                        "<|start|>assistant<|channel|>final<|message|>High tides at 6.<|end|>")
    other = upload_pasted(page, server, "<|start|>user<|message|>Tides again, in Tokyo<|end|>")

    page.click("header.site >> text=Your transcripts")
    page.wait_for_url(server + "/transcripts")
    rows = page.locator("table.yours tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(2).locator("td.name a").first).to_have_text("harmony-weather.txt")
    page.screenshot(path=artifacts / f"yours-list-{scheme}.png", full_page=True)

    rows.nth(0).locator("button.copy-value").click()
    expect(rows.nth(0).locator("button.copy-value")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == other

    page.fill("form.across-form input[name=q]", "tides")
    page.click("form.across-form button")
    page.wait_for_url(re.compile(r"/transcripts/search\?q=tides"))
    groups = page.locator("li.across-group")
    expect(groups).to_have_count(2)
    expect(groups.nth(1)).to_contain_text("2 matches")
    page.screenshot(path=artifacts / f"yours-search-{scheme}.png", full_page=True)
    groups.nth(1).locator("a.search-hit-link").nth(1).click()
    page.wait_for_url(re.compile(re.escape(tides) + r"\?at=1#m-1$"))
    expect(page.locator("#m-1")).to_contain_text("High tides at 6.")

    # Delete one from its row, asked first.
    page.goto(server + "/transcripts")
    page.locator(f"tr[data-id='{tides.rsplit('/', 1)[1]}'] button[value=delete]").click()
    expect(page.locator("h1")).to_have_text("Delete this transcript?")
    page.screenshot(path=artifacts / f"yours-delete-{scheme}.png", full_page=True)
    page.click("form.danger-zone button.danger")
    page.wait_for_url(server + "/transcripts")
    expect(page.locator("p.notice")).to_contain_text("Deleted this transcript")
    expect(rows).to_have_count(2)
    assert status_of(tides) == 410

    # Then the rest as a selection.
    for row in range(2):
        rows.nth(row).locator("input[type=checkbox]").check()
    page.click(".selection-bar button[value=delete]")
    expect(page.locator("h1")).to_have_text("Delete 2 transcripts?")
    page.click("form.danger-zone button.danger")
    page.wait_for_url(server + "/transcripts")
    expect(page.locator("p.empty-list")).to_be_visible()
    assert [status_of(url) for url in (weather, other)] == [410, 410]
    page.goto(server + "/transcripts/search?q=tides")
    expect(page.locator("li.across-group")).to_have_count(0)
    assert problems == []
    context.close()


def test_another_browser_gets_an_empty_list_and_no_results(browser, server):
    owner = browser.new_context().new_page()
    share_url = upload_by_form(owner, server)
    stranger = browser.new_context().new_page()
    stranger.goto(share_url)
    stranger.goto(server + "/transcripts")
    expect(stranger.locator("table.yours")).to_have_count(0)
    expect(stranger.locator("p.empty-list")).to_be_visible()
    stranger.goto(server + "/transcripts/search?q=tokyo&view=debug")
    expect(stranger.locator("li.across-group")).to_have_count(0)
    owner.goto(server + "/transcripts")
    expect(owner.locator("table.yours tbody tr")).to_have_count(1)
    owner.context.close()
    stranger.context.close()
