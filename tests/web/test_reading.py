"""What the reading aids need from the server (static/app.js does the rest; tests/system/browser/test_reading_*.py
drive them): each shown message's text as written for its copy button, and nothing the view hides; buttons that
stay hidden without the script; the debug view's collapsible entries; the toolbar's message count; the key list
written into the page."""
from __future__ import annotations

import pytest

from tests.web.conftest import HIDDEN_CANARIES, harmony, soup

HTMX = {"HX-Request": "true"}
ANSWER = 'It is **20 °C** and clear in Tokyo.\n\n```python\nprint("umbrella not needed")\n```'


def _copy_texts(page) -> dict[str, str]:
    return {template.find_parent("li")["id"]: template.get_text() for template in page.select("template.copy-source")}


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_default_view_carries_the_text_of_what_it_shows_and_nothing_else(stranger, owned, headers):
    page = soup(stranger.get(f"/t/{owned()}", headers=headers))
    texts = _copy_texts(page)
    assert texts == {"m-2": "What is the weather in Tokyo?", "m-4": "I will look up the weather.", "m-7": ANSWER}
    assert not any(canary in text for text in texts.values() for canary in HIDDEN_CANARIES)
    assert page.select("li.marker template, li.marker button") == []  # a tool marker has nothing to copy


def test_the_debug_view_carries_every_message_and_marks_what_folds(client, owned):
    page = soup(client.get(f"/t/{owned()}?view=debug"))
    assert len(_copy_texts(page)) == 8
    assert [li["id"] for li in page.select("li.fold-reasoning")] == ["m-3"]
    assert [li["id"] for li in page.select("li.fold-tool")] == ["m-5", "m-6"]
    assert all(li.select_one("button.fold-toggle") for li in page.select("li.foldable"))
    assert page.select("li:not(.foldable) button.fold-toggle") == []
    assert [b.get_text() for b in page.select(".fold-all button")] == ["Collapse reasoning", "Collapse tools"]


def test_buttons_that_need_the_script_are_hidden_without_it(client, owned):
    page = soup(client.get(f"/t/{owned()}?view=debug"))
    needing = page.select(".entry-actions, .fold-toggle, .fold-all, .keys-hint")
    assert needing and all(element.has_attr("hidden") for element in needing)
    assert all(button["type"] == "button" for button in page.select("li.entry button"))
    assert soup(client.get(f"/t/{owned()}")).select(".fold-all, .fold-toggle") == []  # the default view folds nothing


def test_a_long_body_brings_its_copy_text_when_it_is_shown(client, owned):
    long = "LONG " + "word " * 5_000
    id = owned(harmony(("user", "", "All of it?"), ("assistant", "final", long)))
    assert "m-1" not in _copy_texts(soup(client.get(f"/t/{id}")))  # collapsed: not on the page
    part = soup(client.get(f"/t/{id}/messages/1", headers=HTMX))
    assert part.select_one("template.copy-source").get_text() == long
    source = soup(client.get(f"/t/{id}/messages/1?view=debug&part=source", headers=HTMX))
    assert source.select("template") == []


def test_the_toolbar_counts_the_messages_without_the_script(client, owned):
    page = soup(client.get(f"/t/{owned()}"))
    assert page.select_one("nav.toolbar .position").get_text() == "8 messages"


def test_the_key_list_is_written_into_the_page(client, stranger, owned):
    allowed = soup(client.get(f"/t/{owned()}"))
    dialog = allowed.select_one("dialog#keys")
    assert dialog is not None and not dialog.has_attr("open")
    assert dialog["aria-labelledby"] == "keys-title" and dialog.select_one("#keys-title").get_text()
    keys = [kbd.get_text() for kbd in dialog.select("dt kbd")]
    assert keys == ["j", "k", "/", "n", "N", "g", "d", "?", "Esc"]
    assert "not allowed" not in dialog.get_text()
    locked = soup(stranger.get(f"/t/{owned(debug='deny')}")).select_one("dialog#keys")
    assert "not allowed the debug view" in locked.get_text()
    fragment = soup(client.get(f"/t/{owned()}", headers=HTMX))
    assert fragment.select("dialog") == []  # the list stays on the page when htmx swaps the view


def test_the_dataset_index_lists_its_own_keys(client, owned):
    raw = b'{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}\n' * 2
    page = soup(client.get(f"/t/{owned(raw)}"))
    dialog = page.select_one("dialog#keys")
    assert "conversation" in dialog.get_text() and "d" not in [kbd.get_text() for kbd in dialog.select("kbd")]
    assert page.select_one("nav.toolbar .keys-hint").has_attr("hidden")
