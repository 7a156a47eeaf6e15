"""Long messages are collapsed to their size and rendered only when asked for, under the same policy."""
from __future__ import annotations

import pytest

from tests.web.conftest import harmony, soup, text_of

LONG = "LONG-ANSWER " + "word " * 5_000  # 25,012 characters
SECRET = "HIDDEN-REASONING " + "think " * 5_000


@pytest.fixture
def long_id(owned):
    """0 user, 1 analysis (long, hidden), 2 final (long), 3 final (short)."""
    return owned(harmony(("user", "", "Tell me everything."), ("assistant", "analysis", SECRET),
                         ("assistant", "final", LONG), ("assistant", "final", "Short answer.")))


def test_a_long_body_is_collapsed_to_its_size_with_a_link(client, long_id):
    page = soup(client.get(f"/t/{long_id}"))
    card = page.find(id="m-2")
    assert "LONG-ANSWER" not in card.get_text()
    assert "25,012 characters" in card.get_text()
    assert card.find("a", class_="expand")["href"] == f"/t/{long_id}/messages/2"
    assert "Short answer." in page.find(id="m-3").get_text()


def test_the_body_endpoint_sends_the_rendered_body_to_htmx(client, long_id):
    response = client.get(f"/t/{long_id}/messages/2", headers={"HX-Request": "true"})
    part = soup(response)
    assert response.status_code == 200 and part.find("html") is None
    assert part.find("div", class_="body").has_attr("hx-disable")
    assert "LONG-ANSWER" in part.get_text()


def test_the_body_link_without_javascript_opens_a_page_of_its_own(client, long_id):
    response = client.get(f"/t/{long_id}/messages/2")
    page = soup(response)
    assert page.find("html") is not None and "LONG-ANSWER" in page.get_text()
    assert page.find("a", string="Back to the transcript")["href"] == f"/t/{long_id}?at=2#m-2"


@pytest.mark.parametrize("headers", [{}, {"HX-Request": "true"}])
def test_the_default_view_never_sends_a_hidden_body(stranger, long_id, headers):
    response = stranger.get(f"/t/{long_id}/messages/1", headers=headers)
    assert response.status_code == 404 and "HIDDEN-REASONING" not in response.get_data(as_text=True)


def test_a_tool_call_body_is_not_sent_in_the_default_view(client, owned):
    id = owned(b"<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{\"CALL-ARGS\":1}<|call|>")
    response = client.get(f"/t/{id}/messages/0")
    assert response.status_code == 404 and "CALL-ARGS" not in response.get_data(as_text=True)


def test_the_debug_view_needs_permission_for_a_body(stranger, long_id):
    assert stranger.get(f"/t/{long_id}/messages/1?view=debug").status_code == 403


def test_the_debug_view_collapses_long_bodies_and_sources(client, long_id):
    card = soup(client.get(f"/t/{long_id}?view=debug")).find(id="m-1")
    assert "HIDDEN-REASONING" not in card.get_text()
    links = [link["href"] for link in card.find_all("a", class_="expand")]
    assert links == [f"/t/{long_id}/messages/1?view=debug", f"/t/{long_id}/messages/1?view=debug&part=source"]
    source = client.get(links[1], headers={"HX-Request": "true"})
    assert "<|channel|>analysis" in soup(source).find("pre", class_="source-text").get_text()


def test_the_source_part_exists_only_in_the_debug_view(client, long_id):
    assert client.get(f"/t/{long_id}/messages/2?part=source").status_code == 400


def test_a_missing_message_is_404(client, long_id):
    assert client.get(f"/t/{long_id}/messages/99").status_code == 404


def test_a_huge_body_comes_in_parts(client, owned):
    huge = "x" * 450_000
    id = owned(harmony(("user", "", huge)))
    first = client.get(f"/t/{id}/messages/0", headers={"HX-Request": "true"})
    html = first.get_data(as_text=True)
    assert 200_000 <= html.count("x") < 201_000
    more = soup(first).find("a", class_="expand")
    assert more["href"] == f"/t/{id}/messages/0?offset=200000"
    last = client.get(f"/t/{id}/messages/0?offset=400000", headers={"HX-Request": "true"})
    assert last.get_data(as_text=True).count("x") >= 50_000 and soup(last).find("a", class_="expand") is None


def test_the_threshold_is_a_setting(make_app):
    client = make_app(LONG_BODY_CHARS=10).test_client()
    raw = harmony(("user", "", "twelve chars"), ("user", "", "short"))
    id = client.post("/api/transcripts", data=raw).get_json()["id"]
    page = soup(client.get(f"/t/{id}"))
    assert page.find(id="m-0").find("a", class_="expand") and not page.find(id="m-1").find("a", class_="expand")


def test_long_bodies_stay_out_of_the_page_html(client, long_id):
    assert "LONG-ANSWER" not in text_of(client.get(f"/t/{long_id}"))
