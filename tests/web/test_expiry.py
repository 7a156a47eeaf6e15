"""Links that expire: the uploader chooses never, 1, 7 or 30 days at upload (form or API `expires=`), sees it on
the page and the manage page, and changes it there; the operator's RETENTION_DAYS is the longest a link lives."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.web.conftest import soup

HELLO = b"<|start|>user<|message|>hi<|end|>"
DAY = dt.timedelta(days=1)


def lifetime(app, id: str) -> dt.timedelta | None:
    record = app.extensions["viewer.store"].get(id)
    return None if record.expires_at is None else record.expires_at - record.created_at


def manage_csrf(client, id: str) -> str:
    return soup(client.get(f"/t/{id}/manage")).find("input", attrs={"name": "csrf"})["value"]


@pytest.mark.parametrize(("choice", "days"), [("1d", 1), ("7d", 7), ("30d", 30)])
def test_the_api_sets_the_chosen_expiry_and_answers_it(app, client, choice, days):
    answer = client.post(f"/api/transcripts?expires={choice}", data=HELLO).get_json()
    assert days * DAY - dt.timedelta(minutes=1) < lifetime(app, answer["id"]) <= days * DAY
    assert dt.datetime.fromisoformat(answer["expires_at"]) > dt.datetime.now(dt.timezone.utc)


def test_a_link_never_expires_unless_asked(app, client):
    for query in ("", "?expires=never"):
        answer = client.post(f"/api/transcripts{query}", data=HELLO).get_json()
        assert lifetime(app, answer["id"]) is None and answer["expires_at"] is None


def test_an_unknown_expiry_is_a_400_that_names_the_choices(client):
    response = client.post("/api/transcripts?expires=forever", data=HELLO)
    assert response.status_code == 400 and "never, 1d, 7d, 30d" in response.get_data(as_text=True)


def test_the_upload_form_offers_the_choices_and_applies_one(app, client):
    options = [option["value"] for option in soup(client.get("/")).select("select[name=expires] option")]
    assert options == ["never", "1d", "7d", "30d"]
    response = client.post("/transcripts", data={"text": HELLO.decode(), "expires": "7d"})
    id = response.headers["Location"].rsplit("/", 1)[1]
    assert 7 * DAY - dt.timedelta(minutes=1) < lifetime(app, id) <= 7 * DAY


def test_the_operators_retention_caps_every_choice(make_app):
    app = make_app(RETENTION_DAYS=7)
    client = app.test_client()
    for choice in ("never", "30d"):
        id = client.post(f"/api/transcripts?expires={choice}", data=HELLO).get_json()["id"]
        assert lifetime(app, id) <= 7 * DAY
    id = client.post("/api/transcripts?expires=1d", data=HELLO).get_json()["id"]
    assert lifetime(app, id) <= DAY


def test_the_page_and_the_manage_page_show_when_the_link_expires(client, stranger, owned):
    id = owned(expires="1d")
    assert "link expires" in soup(stranger.get(f"/t/{id}")).select_one(".doc-meta").get_text()
    assert soup(client.get(f"/t/{id}/manage")).find(attrs={"data-expiry": True})["data-expiry"] != "never"


def test_the_uploader_changes_the_expiry_on_the_manage_page(app, client, stranger, owned):
    id = owned()
    response = client.post(f"/t/{id}/manage", data={"csrf": manage_csrf(client, id), "action": "set-expiry",
                                                    "expires": "1d"})
    assert response.status_code == 303
    assert DAY - dt.timedelta(minutes=1) < app.extensions["viewer.store"].get(id).expires_at - \
        dt.datetime.now(dt.timezone.utc) <= DAY
    client.post(f"/t/{id}/manage", data={"csrf": manage_csrf(client, id), "action": "set-expiry",
                                         "expires": "never"})
    assert app.extensions["viewer.store"].get(id).expires_at is None
    assert soup(client.get(f"/t/{id}/manage")).find(attrs={"data-expiry": True})["data-expiry"] == "never"
    assert stranger.post(f"/t/{id}/manage", data={"action": "set-expiry", "expires": "1d"}).status_code == 403


def test_a_datasets_conversations_follow_its_expiry(app, client, owned):
    id = owned(b'{"messages": [{"role": "user", "content": "a"}]}\n{"messages": [{"role": "user", "content": "b"}]}\n')
    client.post(f"/t/{id}/manage", data={"csrf": manage_csrf(client, id), "action": "set-expiry", "expires": "1d"})
    store = app.extensions["viewer.store"]
    assert store.get(f"{id}.1").expires_at == store.get(id).expires_at is not None
