"""What the model saw (`/t/<id>/context/<N>`): debug access only, by the debug view's own decision; 404 for a
message that does not exist or was not sampled; the list of kept and dropped messages with the rule named; the
exact text by the dialect's writer with the generation prompt and a copy button; token counts or the reason
there are none; linked from each assistant message of the debug view and never from the default view."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import HIDDEN_CANARIES, soup
from viewer.tokens import counting

THREE_TURNS = ("<|start|>user<|message|>Q1<|end|>"
               "<|start|>assistant<|channel|>analysis<|message|>THINK-ONE<|end|>"
               "<|start|>assistant<|channel|>final<|message|>A1<|end|>"
               "<|start|>user<|message|>Q2<|end|>"
               "<|start|>assistant<|channel|>analysis<|message|>THINK-TWO<|end|>"
               "<|start|>assistant<|channel|>final<|message|>A2<|return|>").encode()


def test_a_link_holder_without_debug_access_gets_a_403_without_hidden_content(client, stranger, owned):
    id = owned()
    refused = stranger.get(f"/t/{id}/context/7")
    assert refused.status_code == 403
    assert "debug view" in refused.get_data(as_text=True)
    assert not any(canary in refused.get_data(as_text=True) for canary in HIDDEN_CANARIES)
    allowed = owned(debug="allow")
    assert stranger.get(f"/t/{allowed}/context/7").status_code == 200


def test_the_uploader_sees_every_earlier_message_and_the_exact_text(client, owned):
    id = owned()
    response = client.get(f"/t/{id}/context/7")
    assert response.status_code == 200
    page = soup(response)
    items = page.select("ol.ctx-list > li.ctx-item")
    assert len(items) == 8 and "ctx-target" in items[-1]["class"]
    assert all("ctx-kept" in item["class"] for item in items[:-1])  # Harmony: no final before the answer
    assert "openai-harmony auto_drop_analysis" in page.select_one("#ctx-rule-title").get_text()
    exact = page.select_one("pre.ctx-pre").get_text()
    assert exact.startswith("<|start|>system<|message|>You are ChatGPT. SYSTEM-CANARY-7Q<|end|>")
    assert exact.endswith("<|call|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"
                          + json.loads(client.get(f"/t/{id}.json?view=debug").data)["messages"][6]["content"]
                          + "<|end|><|start|>assistant")
    assert all(canary in exact for canary in HIDDEN_CANARIES)
    # the copy button copies the same text, from a template beside it (no inline script)
    assert page.select_one(".ctx-exact template.copy-source").decode_contents() == \
        page.select_one("pre.ctx-pre").decode_contents()
    assert page.select_one("button.copy-exact").has_attr("hidden")


def test_dropped_analysis_is_greyed_and_names_its_rule(client, owned):
    id = owned(THREE_TURNS)
    page = soup(client.get(f"/t/{id}/context/4"))  # before THINK-TWO: the last assistant message (A1) is final
    dropped = page.select("li.ctx-dropped")
    assert [item.select_one(".ctx-index").get_text() for item in dropped] == ["#1"]
    assert "dropped by openai-harmony auto_drop_analysis" in dropped[0].get_text()
    assert "THINK-ONE" not in page.select_one("pre.ctx-pre").get_text()
    assert "1</strong> dropped" in str(page.select_one(".ctx-totals"))


def test_an_openchatml_transcript_follows_the_2_2_rule(client, owned):
    id = owned(b"---\nversion: 2.2\n---\n" + THREE_TURNS)
    page = soup(client.get(f"/t/{id}/context/5"))
    assert "OpenChatML 2.2 CoT handling" in page.select_one("#ctx-rule-title").get_text()
    assert [item.select_one(".ctx-index").get_text() for item in page.select("li.ctx-dropped")] == ["#1"]
    exact = page.select_one("pre.ctx-pre").get_text()
    assert exact.startswith("---\nversion: 2.2\n---\n") and "THINK-TWO" in exact
    assert exact.endswith("<|start|>assistant")


@pytest.mark.parametrize("index, message", [(8, "no message #8"), (100000, "no message #100000"),
                                            (2, "user message"), (6, "tool message")])
def test_a_message_that_does_not_exist_or_was_not_sampled_is_a_404(client, owned, index, message):
    response = client.get(f"/t/{owned()}/context/{index}")
    assert response.status_code == 404 and message in response.get_data(as_text=True)


def test_a_negative_index_is_a_404(client, owned):
    assert client.get(f"/t/{owned()}/context/-1").status_code == 404


def test_the_debug_view_links_each_assistant_message_and_the_default_view_does_not(client, owned):
    id = owned()
    debug = soup(client.get(f"/t/{id}?view=debug"))
    links = [a["href"] for a in debug.select("a.context-link")]
    assert links == [f"/t/{id}/context/{n}" for n in (3, 4, 5, 7)]
    assert all(a.get_text() == "What the model saw" for a in debug.select("a.context-link"))
    default = client.get(f"/t/{id}").get_data(as_text=True)
    assert "/context/" not in default and "What the model saw" not in default
    # the self-contained debug export links nothing on the server
    assert "What the model saw" not in client.get(f"/t/{id}.html?view=debug").get_data(as_text=True)


def test_a_dataset_conversation_has_its_own_page_and_the_dataset_none(client, stranger, owned):
    line = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    id = owned(("".join(json.dumps(line) + "\n" for _ in range(3))).encode())
    page = soup(client.get(f"/t/{id}/c/2/context/1"))
    assert "everything before it" in page.select_one("#ctx-rule-title").get_text()
    assert '"content": "Hi"' in page.select_one("pre.ctx-pre").get_text()
    assert client.get(f"/t/{id}/c/2?view=debug").get_data(as_text=True).count(f"/t/{id}/c/2/context/1") == 1
    assert stranger.get(f"/t/{id}/c/2/context/1").status_code == 403
    assert client.get(f"/t/{id}/c/9/context/1").status_code == 404
    assert client.get(f"/t/{id}/context/1").status_code == 404


def test_a_chatml_page_says_why_it_has_no_token_counts(client, owned):
    id = owned(b"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n")
    page = soup(client.get(f"/t/{id}/context/1"))
    assert counting.NOT_HARMONY in page.select_one(".ctx-note").get_text()
    assert page.select_one("pre.ctx-pre").get_text() == "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"


def test_without_the_vocabulary_the_page_says_token_counts_are_unavailable(client, owned, monkeypatch):
    monkeypatch.setattr(counting, "harmony_encoding", lambda: None)
    page = soup(client.get(f"/t/{owned()}/context/7"))
    assert page.select_one(".ctx-note").get_text() == \
        "token counts need tiktoken with the o200k vocabulary; not installed"
    assert page.select(".ctx-tokens") == []


def test_with_the_vocabulary_counts_are_exact_o200k_harmony(client, owned):
    encoding = counting.harmony_encoding()
    if encoding is None:
        pytest.skip(counting.UNAVAILABLE)
    # <|start|> user <|message|> Hi <|end|>: the special tokens are one token each, with their gpt-oss ids
    assert encoding.encode("<|start|>user<|message|>Hi<|end|>", allowed_special="all")[::2] == [200006, 200008,
                                                                                                200007]
    page = soup(client.get(f"/t/{owned()}/context/7"))
    per_message = [int(span.get_text().split()[0].replace(",", "")) for span in
                   page.select("li.ctx-kept .ctx-tokens")]
    total = int(page.select_one(".ctx-total-tokens")["data-tokens"])
    assert len(per_message) == 7 and sum(per_message) + 2 == total  # <|start|>assistant: two tokens
    assert "of gpt-oss's 131,072-token context window" in page.select_one(".ctx-totals").get_text()


def test_a_vocabulary_file_that_is_not_o200k_base_is_not_used(tmp_path, monkeypatch):
    (tmp_path / counting.FILE_NAME).write_bytes(b"YQ== 0\n")
    monkeypatch.setenv("TIKTOKEN_ENCODINGS_BASE", str(tmp_path))
    assert counting.vocabulary_file() == tmp_path / counting.FILE_NAME
    counting.harmony_encoding.cache_clear()
    try:
        assert counting.harmony_encoding() is None
    finally:
        counting.harmony_encoding.cache_clear()
