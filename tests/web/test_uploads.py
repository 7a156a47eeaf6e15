"""Getting a transcript in: the form (no JavaScript needed) and the API."""
from __future__ import annotations

import io

import pytest

from tests.web.conftest import WEATHER, soup


def test_home_page_has_file_picker_paste_box_dialect_and_debug_checkbox(client):
    page = soup(client.get("/"))
    form = page.find("form", class_="upload")
    assert form["method"] == "post" and form["enctype"] == "multipart/form-data"
    assert form.find("input", type="file", attrs={"name": "file"})
    assert form.find("textarea", attrs={"name": "text"})
    assert form.find("select", attrs={"name": "dialect"}).find("option", selected=True)["value"] == "auto"
    checkbox = form.find("input", type="checkbox", attrs={"name": "allow_debug"})
    assert not checkbox.has_attr("checked")
    assert "reveals hidden reasoning" in form.find(class_="warning").get_text()


def test_form_upload_of_a_file_answers_303_to_the_transcript_page(client):
    response = client.post("/transcripts", data={"file": (io.BytesIO(WEATHER.read_bytes()), "weather.txt"),
                                                 "dialect": "auto"}, content_type="multipart/form-data")
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/t/")
    page = soup(client.get(response.headers["Location"]))
    assert page.find("h1").get_text(strip=True) == "weather.txt"
    manage_link = page.select_one("#manage-url")["value"]
    assert "/manage?key=" in manage_link


def test_manage_link_is_shown_only_once(client):
    response = client.post("/transcripts", data={"text": WEATHER.read_text()})
    location = response.headers["Location"]
    assert soup(client.get(location)).select_one("#manage-url")
    assert soup(client.get(location)).select_one("#manage-url") is None


def test_pasted_text_is_stored_byte_exact(client):
    text = WEATHER.read_text() + "\r\n"
    location = client.post("/transcripts", data={"text": text}).headers["Location"]
    assert client.get(location + "/raw").data == text.encode()


def test_form_upload_without_input_is_a_400_page(client):
    response = client.post("/transcripts", data={"text": "  "})
    assert response.status_code == 400
    assert soup(response).find(class_="error")["data-status"] == "400"


def test_form_upload_with_both_file_and_text_is_refused(client):
    response = client.post("/transcripts", data={"file": (io.BytesIO(b"<|start|>user<|message|>a<|end|>"), "a.txt"),
                                                 "text": "b"}, content_type="multipart/form-data")
    assert response.status_code == 400


def test_debug_checkbox_lets_link_holders_open_the_debug_view(client, stranger):
    location = client.post("/transcripts", data={"text": WEATHER.read_text(), "allow_debug": "on"}).headers["Location"]
    assert stranger.get(location + "?view=debug").status_code == 200


def test_without_the_checkbox_link_holders_get_403_but_the_uploader_gets_in(client, stranger):
    location = client.post("/transcripts", data={"text": WEATHER.read_text()}).headers["Location"]
    assert stranger.get(location + "?view=debug").status_code == 403
    assert client.get(location + "?view=debug").status_code == 200


def test_api_upload_answers_201_with_id_url_manage_url_expiry_and_secrets_found(client):
    response = client.post("/api/transcripts", data=WEATHER.read_bytes(), content_type="application/octet-stream")
    assert response.status_code == 201
    body = response.get_json()
    assert set(body) == {"id", "url", "manage_url", "expires_at", "secrets", "listed", "state"}
    assert body["listed"] is False and body["state"] == "ready"  # no owner key named; processed in the request
    assert body["secrets"] == {"count": 0, "kinds": {}}
    assert len(body["id"]) >= 22  # 128 bits in URL-safe base64
    assert body["url"].endswith(f"/t/{body['id']}") and response.headers["Location"] == body["url"]
    assert "/manage?key=" in body["manage_url"]


def test_api_upload_accepts_a_dialect_and_debug_permission(client, stranger):
    body = client.post("/api/transcripts?dialect=harmony&debug=allow", data=WEATHER.read_bytes()).get_json()
    assert stranger.get(f"/t/{body['id']}?view=debug").status_code == 200
    assert stranger.get(f"/t/{body['id']}.json").get_json()["dialect"] == "harmony"


@pytest.mark.parametrize("query", ["dialect=klingon", "debug=maybe"])
def test_api_rejects_bad_parameters_with_the_json_error_envelope(client, query):
    response = client.post(f"/api/transcripts?{query}", data=WEATHER.read_bytes())
    assert response.status_code == 400
    assert response.get_json()["error"]["status"] == 400


def test_api_rejects_an_empty_body(client):
    assert client.post("/api/transcripts", data=b"").status_code == 400


def test_oversized_api_upload_gets_413_json(make_app):
    client = make_app(MAX_UPLOAD_BYTES=1000).test_client()
    response = client.post("/api/transcripts", data=b"x" * 1001)
    assert response.status_code == 413
    assert response.get_json()["error"] == {"status": 413, "title": "Request Entity Too Large",
                                            "message": "The upload is larger than this server's limit of 1,000 bytes."}


def test_oversized_pasted_text_gets_a_413_page(make_app):
    client = make_app(MAX_UPLOAD_BYTES=1000).test_client()
    response = client.post("/transcripts", data={"text": "x" * 2000})
    assert response.status_code == 413
    assert soup(response).find(class_="error")["data-status"] == "413"


def test_pasted_text_over_werkzeugs_form_default_is_accepted(client):
    big = WEATHER.read_text() + "\n" + "y" * 600_000  # over Werkzeug's 500 kB form field default
    assert client.post("/transcripts", data={"text": big}).status_code == 303


def test_share_ids_are_random(upload):
    assert upload()["id"] != upload()["id"]
