"""Redaction in a real browser: the uploader reads the personal data found on the manage page, selects a passage
in a message's text and redacts it, redacts a whole message, and a link holder (another browser) reads
placeholders where they were, with the words around them, and the page's note of what was redacted. Screenshots
of the manage page's section, the redaction page and the link holder's page."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.system.browser.test_flow import watch_console
from tests.web.test_personal_data import SUPPORT, VALUES

PASSAGE = "my order never arrived"
ANSWER = "it arrives within three working days"


def select_in(page: Page, selector: str, text: str) -> None:
    """Select `text` inside the element as a person dragging over it would."""
    page.evaluate("""([selector, text]) => {
        const node = document.querySelector(selector).firstChild;
        const start = node.textContent.indexOf(text);
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, start + text.length);
        const selection = document.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
    }""", [selector, text])


def test_the_uploader_redacts_a_passage_and_a_message_and_a_link_holder_reads_placeholders(browser, server, artifacts):
    uploader = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
    problems = watch_console(uploader)
    uploader.goto(server + "/")
    uploader.set_input_files("input[name=file]", str(SUPPORT))
    uploader.check("input[name=allow_debug]")
    uploader.click("button[type=submit]")
    uploader.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]{22}$"))
    share = uploader.url

    uploader.goto(share + "/manage")
    findings = uploader.locator("table.personal-findings tbody tr")
    expect(findings).to_have_count(6)
    for value in VALUES.values():
        expect(uploader.locator("table.personal-findings")).to_contain_text(value)
    uploader.locator("section.personal-data").screenshot(path=artifacts / "personal-data-manage.png")

    uploader.fill("#redact-at", "1")
    uploader.click("text=Choose what to redact")
    expect(uploader.locator("#redact-text")).to_contain_text(PASSAGE)
    uploader.wait_for_load_state("load")  # redact.js is deferred: it listens for selections once it has run
    select_in(uploader, "#redact-text", PASSAGE)
    expect(uploader.locator("#redact-passage")).to_have_value(PASSAGE)  # the selection fills the passage
    uploader.screenshot(path=artifacts / "personal-data-redact.png", full_page=True)
    uploader.click("button[value=redact-passage]")
    expect(uploader.locator("li[data-redaction]")).to_have_count(1)

    uploader.goto(share + "/manage/redact?at=4")
    uploader.click("button[value=redact-message]")
    uploader.goto(share + "/manage")
    expect(uploader.locator("ul.redactions li")).to_have_count(2)
    uploader.goto(share + "?view=debug")
    expect(uploader.locator("main")).to_contain_text(PASSAGE)  # the uploader keeps reading it
    assert not problems

    holder = browser.new_context(viewport={"width": 1300, "height": 900}).new_page()
    holder.goto(share)
    main = holder.locator("main")
    expect(main).to_contain_text("Hello, [redacted]. My e-mail is [email] and you can call me on [phone].")
    expect(main).to_contain_text("[card …6467]")
    expect(holder.locator("[data-redacted-count]")).to_contain_text("2 passages redacted by the uploader")
    page = holder.content()
    assert PASSAGE not in page and ANSWER not in page
    assert not any(value in page for value in VALUES.values())
    holder.screenshot(path=artifacts / "personal-data-link-holder.png", full_page=True)
    holder.goto(share + "?view=debug")
    expect(holder.locator("main")).to_contain_text("[US SSN]")
    assert PASSAGE not in holder.content() and ANSWER not in holder.content()
    raw = holder.request.get(share + "/raw").text()
    assert PASSAGE not in raw and ANSWER not in raw and "[redacted]" in raw
    assert not any(value in raw for value in VALUES.values())
    search = holder.request.get(share + "/search?q=arrived").text()
    assert 'data-total="0"' in search
