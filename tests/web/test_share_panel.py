"""The share panel: after an upload the page shows the share link and the manage link, each with a Copy button; the
manage page shows the share link and what the uploader can do with it: revoke it (the old link answers 410, a new
one is made, the transcript and its settings kept), expire it now, let link holders open the debug view, make a
new manage link. A reader refused the debug view is led back to the transcript."""
from __future__ import annotations

import datetime as dt

from tests.web.conftest import WEATHER, soup
from tests.web.test_manage import manage_form


def _act(client, id: str, action: str, **extra: str):
    _, csrf = manage_form(client, id)
    return client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": action, **extra})


def test_after_an_upload_the_page_shows_the_share_and_manage_links_with_copy_buttons(client):
    response = client.post("/transcripts", data={"text": WEATHER.read_text()})
    page = soup(client.get(response.headers["Location"]))
    panel = page.select_one("section.share-panel")
    share, manage = panel.select_one("#share-url")["value"], panel.select_one("#manage-url")["value"]
    assert share.endswith(response.headers["Location"]) and "/manage?key=" in manage
    buttons = {button["data-copy"]: button for button in panel.select("button.copy-value")}
    assert set(buttons) == {share, manage}
    assert all(button.has_attr("hidden") for button in buttons.values())  # shown by the script that runs them
    assert panel.find("label", attrs={"for": "share-url"}).get_text() == "Share link"
    assert panel.find("label", attrs={"for": "manage-url"}).get_text() == "Manage link"
    assert soup(client.get(response.headers["Location"])).select_one("section.share-panel") is None  # once


def test_the_manage_page_shows_the_share_link_and_the_actions(client, owned):
    id = owned()
    panel = soup(client.get(f"/t/{id}/manage")).select_one("section.share-panel")
    assert panel.select_one("#share-url")["value"].endswith(f"/t/{id}")
    assert panel.select_one("#manage-url") is None  # the manage key is not stored: it cannot be shown again
    actions = {button["value"] for button in panel.select("button[name=action]")}
    assert actions == {"allow-debug", "revoke", "expire-now", "new-manage-link"}


def test_revoking_a_link_makes_the_old_one_410_and_a_new_one_with_the_transcript_kept(client, stranger, owned):
    id = owned()
    assert _act(client, id, "allow-debug").status_code == 303
    assert _act(client, id, "set-expiry", expires="7d").status_code == 303
    before = client.get(f"/t/{id}.json?view=debug").get_json()
    expires = client.application.extensions["viewer.store"].get(id).expires_at

    response = _act(client, id, "revoke")
    assert response.status_code == 303
    new = response.headers["Location"].split("/t/")[1].split("/")[0]
    assert new != id
    page = soup(client.get(response.headers["Location"]))  # the new manage page: the new links, once
    panel = page.select_one("section.share-panel")
    assert panel.select_one("#share-url")["value"].endswith(f"/t/{new}")
    assert f"/t/{new}/manage?key=" in panel.select_one("#manage-url")["value"]
    assert "no longer works" in page.select_one(".notice").get_text()
    gone = stranger.get(f"/t/{id}")
    assert gone.status_code == 410
    assert stranger.get(f"/t/{id}.json").status_code == 410
    assert stranger.get(f"/t/{new}").status_code == 200
    assert stranger.get(f"/t/{new}?view=debug").status_code == 200  # its debug access is kept
    after = client.get(f"/t/{new}.json?view=debug").get_json()
    assert [m["content"] for m in after["messages"]] == [m["content"] for m in before["messages"]]
    assert client.application.extensions["viewer.store"].get(new).expires_at == expires
    assert client.get(f"/t/{new}/manage").status_code == 200  # still this browser's
    listed = [row["data-id"] for row in soup(client.get("/transcripts")).select("tr[data-id]")]
    assert new in listed and id not in listed


def test_the_new_manage_link_of_a_revoked_link_works_and_the_old_one_does_not(client, upload, app):
    created = upload()
    other = app.test_client()
    assert other.get(created["manage_url"]).status_code == 303
    response = _act(other, created["id"], "revoke")
    page = soup(other.get(response.headers["Location"]))
    new_manage = page.select_one("#manage-url")["value"].removeprefix("http://localhost")
    assert client.get(new_manage).status_code == 303
    assert client.get(created["manage_url"]).status_code == 410


def test_a_live_upload_still_written_cannot_be_revoked(client):
    created = client.post("/api/transcripts?live=1", data=WEATHER.read_bytes()[:200]).get_json()
    assert client.get(created["manage_url"]).status_code == 303
    assert _act(client, created["id"], "revoke").status_code == 409
    assert client.get(f"/t/{created['id']}").status_code == 200


def test_expire_now_makes_the_link_410_at_once(client, stranger, owned):
    id = owned()
    response = _act(client, id, "expire-now")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert stranger.get(f"/t/{id}").status_code == 410
    assert client.application.extensions["viewer.store"].get(id).expires_at <= dt.datetime.now(dt.timezone.utc)


def test_a_new_manage_link_replaces_the_old_one(client, upload, app):
    created = upload()
    assert client.get(created["manage_url"]).status_code == 303
    response = _act(client, created["id"], "new-manage-link")
    fresh = soup(client.get(response.headers["Location"])).select_one("#manage-url")["value"]
    assert fresh != created["manage_url"] and "/manage?key=" in fresh
    other = app.test_client()
    assert other.get(created["manage_url"]).status_code == 403
    assert other.get(fresh.removeprefix("http://localhost")).status_code == 303


def test_a_reader_refused_the_debug_view_is_led_back_to_the_transcript(stranger, upload):
    created = upload()
    response = stranger.get(f"/t/{created['id']}?view=debug")
    assert response.status_code == 403
    back = soup(response).select(".error-actions a")
    assert back[0]["href"] == f"/t/{created['id']}" and back[0].get_text() == "Back to the transcript"


def test_the_410_page_says_why_once_and_what_to_do(stranger, owned, client):
    id = owned()
    _act(client, id, "revoke")
    page = soup(stranger.get(f"/t/{id}"))
    lead, hint = page.select_one(".lead").get_text(), page.select_one(".hint").get_text()
    assert "revoked" in lead and "new link" in hint
    assert lead != hint
