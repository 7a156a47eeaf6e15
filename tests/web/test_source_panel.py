"""The debug view's source panel shows each message exactly as written, highlighted by our own lexers."""
from __future__ import annotations

from tests.web.conftest import soup


def test_a_harmony_source_is_highlighted_with_control_tokens_roles_and_channels(client, owned):
    id = owned()
    page = soup(client.get(f"/t/{id}?view=debug"))
    source = page.select_one("details.source pre.source-text")
    assert source is not None and "language-harmony" in str(source)
    kinds = {span["class"][0]: span.get_text() for span in source.select("span")}
    assert kinds["tok-k"].startswith("<|") and "tok-nb" in kinds  # a control token, a role


def test_the_highlighted_source_keeps_every_character(client, owned, app):
    id = owned()
    store = app.extensions["viewer.store"]
    page = soup(client.get(f"/t/{id}?view=debug"))
    shown = [pre.get_text() for pre in page.select("details.source pre.source-text")]
    assert shown == [entry.source for entry in store.window(id, "debug", 0, 100)]


def test_a_chatml_source_uses_the_chatml_lexer(client, owned):
    id = owned(b"<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>x</think>ok<|im_end|>\n")
    source = soup(client.get(f"/t/{id}?view=debug")).select_one("details.source pre.source-text")
    assert "language-chatml" in str(source) and "tok-k" in str(source)
