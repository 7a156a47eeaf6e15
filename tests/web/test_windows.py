"""Big transcripts render one window at a time; hidden rows never reach the default view."""
from __future__ import annotations

import pytest

from tests.web.conftest import harmony, soup, text_of


@pytest.fixture
def long_id(owned):
    """250 exchanges: user question, hidden analysis, final answer (750 messages, 500 shown)."""
    messages = []
    for n in range(250):
        messages += [("user", "", f"question {n}"), ("assistant", "analysis", f"SECRET-{n}"),
                     ("assistant", "final", f"answer {n}")]
    return owned(harmony(*messages))


def indices(response):
    return [int(entry["data-index"]) for entry in soup(response).select("ol.entries > li.entry")]


def test_a_page_renders_one_window_of_100_entries(client, long_id):
    response = client.get(f"/t/{long_id}")
    shown = indices(response)
    assert len(shown) == 100 and shown[:3] == [0, 2, 3]
    more = soup(response).find("a", class_="next")
    assert more["href"] == f"/t/{long_id}?at=150#m-150"
    assert more["hx-trigger"] == "revealed, click"
    assert more["hx-get"] == f"/t/{long_id}/window?start=100&direction=next"


def test_the_next_window_comes_as_a_partial_with_its_own_sentinel(client, long_id):
    response = client.get(f"/t/{long_id}/window?start=100&direction=next", headers={"HX-Request": "true"})
    page = soup(response)
    assert page.find("html") is None
    assert indices(response)[0] == 150 and len(indices(response)) == 100
    assert page.find("a", class_="next")["hx-get"].endswith("start=200&direction=next")
    assert "SECRET" not in text_of(response)


def test_the_window_url_without_htmx_redirects_to_the_full_page(client, long_id):
    response = client.get(f"/t/{long_id}/window?start=100")
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{long_id}?at=150"


def test_a_deep_link_opens_the_window_holding_the_message(client, long_id):
    response = client.get(f"/t/{long_id}?at=401")
    shown = indices(response)
    assert 401 in shown and shown[0] == 300
    earlier = soup(response).find("a", class_="earlier")
    assert earlier["href"] == f"/t/{long_id}?at=150#m-150"


def test_a_deep_link_to_a_hidden_message_opens_at_the_next_shown_one(client, long_id):
    assert 2 in indices(client.get(f"/t/{long_id}?at=1"))


def test_the_debug_view_windows_over_every_message(client, long_id):
    response = client.get(f"/t/{long_id}?view=debug&at=450")
    assert indices(response) == list(range(400, 500))


def test_the_last_window_has_no_next_link(client, long_id):
    response = client.get(f"/t/{long_id}/window?start=400", headers={"HX-Request": "true"})
    assert len(indices(response)) == 100 and soup(response).find("a", class_="next") is None


def test_totals_come_from_stored_counts(client, long_id):
    page = soup(client.get(f"/t/{long_id}"))
    assert page.find("dd", attrs={"data-count": "messages"}).get_text() == "750"
    assert page.find("dd", attrs={"data-count": "hidden"}).get_text() == "250"


def test_default_json_twin_covers_every_window_without_hidden_rows(client, long_id):
    body = client.get(f"/t/{long_id}.json").get_json()
    assert len(body["messages"]) == 500
    assert all("SECRET" not in message.get("content", "") for message in body["messages"])


def test_window_size_is_a_setting(make_app, tmp_path):
    app = make_app(WINDOW_SIZE=2)
    client = app.test_client()
    id = client.post("/api/transcripts", data=harmony(*[("user", "", f"q{n}") for n in range(5)])).get_json()["id"]
    assert indices(client.get(f"/t/{id}")) == [0, 1]


def test_each_window_list_is_named_by_its_start(client, long_id):
    response = client.get(f"/t/{long_id}/window?start=200&direction=next", headers={"HX-Request": "true"})
    assert [ol["id"] for ol in soup(response).select("ol.entries")] == ["w-200"]


def test_a_long_transcript_offers_jump_links_that_land_on_the_message(client, long_id):
    links = [a["href"] for a in soup(client.get(f"/t/{long_id}")).select("nav.jump-nav a")]
    assert links[0] == f"/t/{long_id}/jump?at=0" and links[-2] == f"/t/{long_id}/jump?at=749"
    assert links[-1] == f"/t/{long_id}/jump"
    response = client.get(f"/t/{long_id}/jump?at=601")
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{long_id}?at=601#m-602"


def test_the_jump_form_works_without_javascript(client, long_id):
    page = soup(client.get(f"/t/{long_id}/jump?view=debug"))
    form = page.find("form", class_="jump")
    assert form["method"] == "get" and form["action"] == f"/t/{long_id}/jump"
    assert form.find("input", attrs={"name": "view"})["value"] == "debug"
    response = client.get(f"/t/{long_id}/jump?view=debug&at=99999")
    assert response.headers["Location"] == f"/t/{long_id}?at=749&view=debug#m-749"


def test_a_short_transcript_has_no_jump_links(client, owned):
    id = owned(harmony(("user", "", "hi")))
    assert soup(client.get(f"/t/{id}")).select("nav.jump-nav") == []


def test_the_json_twin_is_streamed_and_collapses_markers_across_batches(client, owned, monkeypatch):
    from viewer.store import repository

    call = b"<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    reply = b"<|start|>functions.f to=assistant<|channel|>commentary<|message|>{}<|end|>"
    id = owned(b"<|start|>user<|message|>go<|end|>" + (call + reply) * 3 + b"<|start|>assistant<|channel|>final"
               b"<|message|>done<|end|>")
    monkeypatch.setattr(repository, "BATCH", 2)
    response = client.get(f"/t/{id}.json")
    assert response.is_streamed
    items = response.get_json()["messages"]
    assert [item["show_as"] for item in items] == ["message", "marker", "message"]
    assert items[1]["indices"] == [1, 2, 3, 4, 5, 6]
    debug = client.get(f"/t/{id}.json?view=debug").get_json()
    assert len(debug["messages"]) == 8 and len(debug["pairs"]) == 3


def test_a_form_upload_asking_for_json_gets_the_page_url_and_keeps_the_manage_link(client):
    response = client.post("/transcripts", data={"text": "<|start|>user<|message|>hi<|end|>"},
                           headers={"Accept": "application/json"})
    assert response.status_code == 201
    url = response.get_json()["url"]
    page = soup(client.get(url))
    assert "/manage?key=" in page.select_one(".share-panel #manage-url")["value"]


def test_a_pair_link_to_a_partner_in_another_window_opens_that_window(client, owned):
    call = b"<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    filler = b"".join(b"<|start|>user<|message|>filler %d<|end|>" % n for n in range(150))
    id = owned(call + filler + b"<|start|>functions.f to=assistant<|channel|>commentary<|message|>{}<|end|>")
    page = soup(client.get(f"/t/{id}?view=debug"))
    link = page.find(id="m-0").find("a", class_="pair-link")["href"]
    assert link == f"/t/{id}?view=debug&at=151#m-151" and page.find(id="m-151") is None
    assert soup(client.get(link)).find(id="m-151").find("a", class_="pair-link")["href"].endswith("at=0#m-0")
