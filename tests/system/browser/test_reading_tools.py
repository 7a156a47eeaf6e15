"""Reading comfort in Chromium: copy buttons (a message as written, a code block, a message's link; read back from
the clipboard), collapsing reasoning and tool traffic in the debug view, the sticky toolbar's counter, long code
blocks that scroll in their box, the search form with and without JavaScript, and the print stylesheet.
Screenshots of each, light and dark, go to test-artifacts/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.system.browser.reading import (ANSWER_7, focused_id, upload, uploads,
                                          watch_console)
from tests.web.conftest import HIDDEN_CANARIES, harmony

VIEWPORT = {"width": 1200, "height": 900}
SCHEMES = ["light", "dark"]


@pytest.fixture
def clipboard_page(browser, server):
    """A page whose origin may write and read the clipboard."""
    context = browser.new_context(viewport=VIEWPORT, permissions=["clipboard-read", "clipboard-write"])
    yield context.new_page()
    context.close()


def clipboard(page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def test_copy_a_message_a_code_block_and_a_link(clipboard_page, server):
    page = clipboard_page
    problems = watch_console(page)
    url = uploads(server).weather
    page.goto(url)
    answer = page.locator("#m-7")
    copy = answer.get_by_role("button", name="Copy message #7")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert clipboard(page) == ANSWER_7  # the markdown as written, not the rendered text
    expect(page.get_by_role("status").filter(has_text="Copied")).to_have_count(1)  # announced
    expect(copy).to_have_text("Copy", timeout=3000)  # the feedback goes after about 1.5 s

    answer.get_by_role("button", name="Copy the code").click()
    assert clipboard(page) == 'print("umbrella not needed")'

    answer.get_by_role("button", name="Copy link to message #7").click()
    assert clipboard(page) == url + "?at=7#m-7"

    # The default view's copy texts are only what it shows: none of the hidden messages' words.
    texts = page.eval_on_selector_all("template.copy-source", "all => all.map(t => t.content.textContent)")
    assert len(texts) == page.locator("#transcript li.msg, #transcript li.preamble").count()
    assert not any(canary in text for text in texts for canary in HIDDEN_CANARIES)
    assert problems == []


def test_copy_falls_back_to_a_selected_textarea(clipboard_page, server):
    page = clipboard_page
    page.goto(uploads(server).weather)
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); }")
    page.locator("#m-2").get_by_role("button", name="Copy message #2").click()
    expect(page.locator("#m-2 button.copy-text")).to_have_text("Copied")
    assert clipboard(page) == "What is the weather in Tokyo?"
    expect(page.locator("textarea.copy-buffer")).to_have_count(0)  # taken away again
    expect(page.locator("#m-2 button.copy-text")).to_be_focused()  # and the focus given back


def test_a_long_message_is_copied_once_it_is_shown(clipboard_page, server):
    page = clipboard_page
    long_answer = "LONG " + "word " * 5_000
    page.goto(upload(server, harmony(("user", "", "Tell me all."), ("assistant", "final", long_answer))))
    card = page.locator("#m-1")
    expect(card.locator("button.copy-text")).to_be_hidden()  # its text is not on the page yet
    expect(card.locator("button.copy-link")).to_be_visible()
    card.locator("a.expand").click()
    expect(card.locator(".body")).to_contain_text("LONG word word")
    card.get_by_role("button", name="Copy message #1").click()
    assert clipboard(page) == long_answer


def test_without_javascript_the_buttons_stay_hidden_and_the_counter_is_a_total(browser, server):
    context = browser.new_context(viewport=VIEWPORT, java_script_enabled=False)
    page = context.new_page()
    page.goto(uploads(server).long + "?view=debug")
    expect(page.locator("nav.toolbar .position")).to_have_text("273 messages")
    for selector in ("button.copy-text", "button.copy-link", ".fold-toggle", ".fold-all", ".keys-hint"):
        expect(page.locator(selector).first).to_be_hidden()
    expect(page.locator(".copy-code")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_collapse_reasoning_and_tools_one_by_one_and_all_at_once(browser, server, artifacts, scheme):
    context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
    page = context.new_page()
    page.goto(uploads(server).weather + "?view=debug")
    reasoning, call, reply, answer = (page.locator(f"#m-{n}") for n in (3, 5, 6, 7))
    expect(answer.locator(".fold-toggle")).to_have_count(0)  # a final answer does not fold
    toggle = reasoning.get_by_role("button", name="Collapse message #3")
    toggle.click()
    expect(reasoning.locator(".body")).to_be_hidden()
    expect(reasoning.locator(".entry-head")).to_be_visible()
    reasoning.get_by_role("button", name="Expand message #3").click()
    expect(reasoning.locator(".body")).to_be_visible()

    all_reasoning = page.get_by_role("button", name="Collapse reasoning")
    all_tools = page.get_by_role("button", name="Collapse tools")
    all_reasoning.click()
    expect(all_reasoning).to_have_attribute("aria-pressed", "true")
    expect(reasoning.locator(".body")).to_be_hidden()
    expect(call.locator(".body")).to_be_visible()
    all_tools.click()
    for entry in (call, reply):
        expect(entry.locator(".body")).to_be_hidden()
        expect(entry.locator(".fields")).to_be_hidden()
    expect(answer.locator(".body")).to_be_visible()
    page.mouse.move(0, 0)
    page.evaluate("window.scrollTo(0, 0)")  # a full-page shot of a scrolled page draws the sticky toolbar mid-way
    page.screenshot(path=artifacts / f"reading-debug-collapsed-{scheme}.png", full_page=True)
    all_tools.click()
    expect(all_tools).to_have_attribute("aria-pressed", "false")
    expect(reply.locator(".body")).to_be_visible()
    page.reload()  # the choice lasts the browser session
    expect(page.get_by_role("button", name="Collapse reasoning")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#m-3 .body")).to_be_hidden()
    page.get_by_role("button", name="Collapse reasoning").click()
    context.close()


def test_collapsed_reasoning_stays_collapsed_in_windows_loaded_later(browser, server):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(uploads(server).long + "?view=debug")
    page.get_by_role("button", name="Collapse reasoning").click()
    page.locator("a.more.next").scroll_into_view_if_needed()
    later = page.locator("#w-100 li.fold-reasoning").first
    expect(later).to_have_class(re.compile(r"\bfolded\b"))
    expect(later.locator(".body")).to_be_hidden()
    page.get_by_role("button", name="Collapse reasoning").click()
    expect(later.locator(".body")).to_be_visible()
    context.close()


def test_the_sticky_toolbar_counts_the_message_at_the_top(browser, server, artifacts):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    problems = watch_console(page)
    url = uploads(server).long
    page.goto(url)
    counter = page.locator("nav.toolbar .position")
    expect(counter).to_have_text("#0 of 273")
    target = page.locator("#transcript li.entry").nth(40)
    index = int(target.get_attribute("data-index"))
    target.evaluate("element => element.scrollIntoView({block: 'start'})")
    expect(counter).to_have_text(f"#{index:,} of 273")
    bar = page.locator("nav.toolbar").bounding_box()
    assert bar["y"] == 0  # stuck at the top, with the view switch in it
    expect(page.locator("nav.toolbar .toggle")).to_be_in_viewport()
    box = target.bounding_box()
    assert box["y"] >= bar["y"] + bar["height"]  # the target is below the toolbar, not under it

    page.goto(f"{url}?at=150#m-150")  # a deep link's target is not hidden by the toolbar either
    bar = page.locator("nav.toolbar").bounding_box()
    box = page.locator("#m-150").bounding_box()
    assert bar["y"] + bar["height"] <= box["y"] < bar["y"] + bar["height"] + 40
    expect(counter).to_have_text("#150 of 273")
    page.screenshot(path=artifacts / "reading-counter.png")
    assert problems == []
    context.close()


def test_a_long_code_block_scrolls_inside_its_box(browser, server, artifacts):
    code = "\n".join(f"line_{n} = '{'x' * 300}'" for n in range(40))  # under the long-body limit
    url = upload(server, harmony(("user", "", "Code?"), ("assistant", "final", f"Here:\n\n```python\n{code}\n```")))
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url)
    pre = page.locator("#m-1 pre")
    sizes = pre.evaluate("pre => [pre.scrollWidth, pre.clientWidth, pre.scrollHeight, pre.clientHeight]")
    assert sizes[0] > sizes[1] and sizes[2] > sizes[3]  # scrolls both ways inside its box
    assert sizes[3] <= 32 * 16 + 2
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # the page is not widened
    page.screenshot(path=artifacts / "reading-long-code.png")
    context.close()


def test_search_without_javascript_opens_the_search_page(browser, server):
    context = browser.new_context(viewport=VIEWPORT, java_script_enabled=False)
    page = context.new_page()
    url = uploads(server).weather
    page.goto(url)
    page.locator("nav.toolbar input[type=search]").fill("Tokyo")
    page.locator("nav.toolbar input[type=search]").press("Enter")
    page.wait_for_url(re.compile(r"/search\?q=Tokyo$"))
    hits = page.locator(".search-hit-link")
    expect(hits).to_have_count(2)
    hits.first.click()
    page.wait_for_url(re.compile(r"\?at=2#m-2$"))
    expect(page.locator("#m-2")).to_be_in_viewport()
    context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_search_with_javascript_fills_the_panel_and_a_result_jumps(browser, server, artifacts, scheme):
    context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
    page = context.new_page()
    problems = watch_console(page)
    url = uploads(server).long
    page.goto(url)
    page.locator("#transcript li.entry").nth(90).evaluate("element => element.scrollIntoView()")
    page.keyboard.press("/")
    page.keyboard.type("Answer 20")
    page.keyboard.press("Enter")
    panel = page.locator("#search-results")
    summary = panel.locator(".search-summary")
    field = page.locator("nav.toolbar input[type=search]")
    hit = panel.locator(".search-hit-link").first
    expect(summary).to_contain_text("“Answer 20”")
    expect(hit).to_be_visible()
    expect(panel).to_be_in_viewport()  # under the toolbar, wherever the reader is
    assert page.url == url
    page.screenshot(path=artifacts / f"reading-search-{scheme}.png")
    page.keyboard.press("Escape")  # closes the panel, the query stays
    expect(panel).to_be_hidden()
    expect(field).to_have_value("Answer 20")
    page.keyboard.press("Enter")
    expect(summary).to_contain_text("“Answer 20”")
    target = hit.get_attribute("data-jump")
    hit.click()
    expect(page.locator(f"#{target}")).to_be_focused()
    expect(page.locator(f"#{target}")).to_be_in_viewport()
    expect(hit).to_be_hidden()  # the results fold out of the way of the message, to a strip that walks them
    expect(panel.locator(".search-walk")).to_be_visible()
    assert page.url.endswith(f"#{target}") and page.evaluate("performance.getEntriesByType('navigation').length") == 1
    page.keyboard.press("j")  # and the keys go on from there
    assert focused_id(page) != target and focused_id(page).startswith("m-")
    expect(hit).to_be_hidden()  # no late answer to the same words opened the list again

    page.keyboard.press("/")  # from the folded results: the field, its words selected, typed over
    expect(field).to_be_focused()
    assert field.evaluate("field => field.selectionStart === 0 && field.selectionEnd === field.value.length")
    page.keyboard.type("Answer 77")
    expect(field).to_have_value("Answer 77")
    page.keyboard.press("Enter")
    expect(summary).to_contain_text("“Answer 77”")  # the new words' own results, the whole list again
    expect(hit).to_be_visible()
    target = hit.get_attribute("data-jump")
    expect(page.locator(f"#{target}")).to_have_count(0)  # a result in a window not on the page: its page opens there
    hit.click()
    page.wait_for_url(re.compile(rf"#{target}$"))
    expect(page.locator(f"#{target}")).to_be_focused()
    expect(page.locator(f"#{target}")).to_be_in_viewport()
    expect(hit).to_be_hidden()  # the results kept, folded
    page.keyboard.press("/")  # Enter on the same words sends nothing again: the whole list shows
    page.keyboard.press("Enter")
    expect(hit).to_be_visible()
    expect(summary).to_contain_text("“Answer 77”")
    assert problems == []
    context.close()


def test_the_dataset_index_searches_into_its_conversations(browser, server):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(uploads(server).dataset)
    page.keyboard.press("/")
    page.keyboard.type("Question 42")
    page.keyboard.press("Enter")
    hit = page.locator("#search-results .search-hit-link").first
    expect(hit).to_contain_text("Conversation #42")
    hit.click()
    page.wait_for_url(re.compile(r"/c/42\?at=\d+#m-\d+$"))
    expect(page.locator("#transcript li.entry").first).to_contain_text("Question 42")
    context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_default_and_debug_views_as_a_reader_sees_them(browser, server, artifacts, scheme):
    context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
    page = context.new_page()
    problems = watch_console(page)
    page.goto(uploads(server).weather)
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.screenshot(path=artifacts / f"reading-default-{scheme}.png", full_page=True)
    page.keyboard.press("d")
    page.wait_for_url(re.compile(r"view=debug"))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=artifacts / f"reading-debug-{scheme}.png", full_page=True)
    assert problems == []
    context.close()


def test_print_shows_the_messages_alone_in_full(browser, server, artifacts):
    context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
    page = context.new_page()
    page.goto(uploads(server).weather + "?view=debug")
    page.get_by_role("button", name="Collapse reasoning").click()
    page.emulate_media(media="print")
    for selector in ("nav.toolbar", "header.site", "footer.site", "button.copy-text", ".copy-code"):
        expect(page.locator(selector).first).to_be_hidden()
    expect(page.locator("#m-3 .body")).to_be_visible()  # collapsed on screen, in full on paper
    colours = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
                                      getComputedStyle(document.querySelector('#m-7 .body')).color]""")
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    assert page.locator("#m-7 .body pre").evaluate("pre => getComputedStyle(pre).maxHeight") == "none"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=artifacts / "reading-print.png", full_page=True)
    page.emulate_media(media="screen")
    page.get_by_role("button", name="Collapse reasoning").click()
    context.close()
