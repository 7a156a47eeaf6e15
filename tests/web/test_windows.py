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
