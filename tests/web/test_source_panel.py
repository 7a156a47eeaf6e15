"""The debug view shows each message's source highlighted by our lexers, the declared tools, and prompts verbatim."""
from __future__ import annotations

from tests.conftest import SAMPLES
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


def test_the_debug_view_lists_the_declared_tools_with_their_parameters(client, owned):
    id = owned(SAMPLES.joinpath("harmony-gpt-oss-weather.txt").read_bytes())
    page = soup(client.get(f"/t/{id}?view=debug"))
    names = [dt.get_text() for dt in page.select(".tool-list dt")]
    assert names and all(name.startswith("functions.") for name in names)
    assert "properties" in page.select_one(".tool-list dd").get_text()


def test_the_default_view_lists_no_tools(client, owned):
    id = owned(SAMPLES.joinpath("harmony-gpt-oss-weather.txt").read_bytes())
    assert soup(client.get(f"/t/{id}")).select(".tool-list") == []


def test_a_system_prompt_is_shown_verbatim_in_the_debug_view(client, owned):
    id = owned(b"<|start|>system<|message|># Rules\n\n  * keep spaces<|end|><|start|>user<|message|>hi<|end|>")
    body = soup(client.get(f"/t/{id}?view=debug")).select_one("#m-0 pre.prompt-text")
    assert body is not None and body.get_text() == "# Rules\n\n  * keep spaces"


def test_the_debug_view_shows_the_transcript_s_header_collapsed(client, owned):
    id = owned(SAMPLES.joinpath("json-responses-function-call.json").read_bytes())
    panel = soup(client.get(f"/t/{id}?view=debug")).select_one("details.header-panel")
    assert panel is not None and not panel.has_attr("open")
    assert '"o4-mini-2025-04-16"' in panel.get_text()


def test_the_default_view_shows_no_header(client, owned):
    id = owned(SAMPLES.joinpath("json-responses-function-call.json").read_bytes())
    page = client.get(f"/t/{id}").get_data(as_text=True)
    assert "header-panel" not in page and "o4-mini-2025-04-16" not in page


def test_the_debug_view_s_html_file_shows_the_header_too(client, owned):
    id = owned(SAMPLES.joinpath("json-responses-function-call.json").read_bytes())
    exported = soup(client.get(f"/t/{id}.html?view=debug"))
    panel = exported.select_one("details.header-panel")
    assert panel is not None and '"o4-mini-2025-04-16"' in panel.get_text()


def test_a_dataset_s_own_header_is_in_its_debug_html_file_an_inspect_log_s_spec_and_results(client, owned):
    id = owned(SAMPLES.joinpath("json-inspect-log.json").read_bytes())
    panels = soup(client.get(f"/t/{id}.html?view=debug")).select("details.header-panel")
    assert '"arithmetic_tools"' in panels[0].get_text()  # the log's spec, before the conversations' own
    assert '"inspect_sample"' in panels[1].get_text()
    assert "header-panel" not in client.get(f"/t/{id}.html").get_data(as_text=True)
