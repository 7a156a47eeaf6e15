"""What an operator relies on: the health check, and links that expire after the retention period."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import text


def test_healthz_says_the_database_answers_and_the_free_space_of_each_place_and_nothing_more(client, app):
    response = client.get("/healthz")
    body = response.get_json()
    assert response.status_code == 200 and body["database"] == "ok" and body["problems"] == []
    assert set(body) == {"status", "database", "storage", "problems", "parser"}
    assert {"spool", "instance"} <= set(body["storage"])
    assert all(place["ok"] and place["free_bytes"] > 0 for place in body["storage"].values())
    assert str(app.config["DATABASE"]) not in response.get_data(as_text=True)
    assert app.instance_path not in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "private, no-store"


def test_healthz_answers_503_when_the_database_does_not(client, app, monkeypatch):
    monkeypatch.setattr(app.extensions["viewer.store"], "ping", lambda: False)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.get_json()["status"] == "unavailable"


def test_an_upload_gets_an_expiry_from_the_retention_setting(make_app):
    app = make_app(RETENTION_DAYS=7)
    id = app.test_client().post("/api/transcripts", data=b"<|start|>user<|message|>hi<|end|>").get_json()["id"]
    record = app.extensions["viewer.store"].get(id)
    assert dt.timedelta(days=6, hours=23) < record.expires_at - record.created_at <= dt.timedelta(days=7)


def test_without_a_retention_setting_uploads_do_not_expire(app, upload):
    assert app.extensions["viewer.store"].get(upload()["id"]).expires_at is None


def test_an_expired_link_answers_410_and_its_content_is_deleted_on_first_access(app, client, upload):
    id = upload()["id"]
    store = app.extensions["viewer.store"]
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET expires_at = '2000-01-01 00:00:00.000000'"))
    response = client.get(f"/t/{id}")
    assert response.status_code == 410 and "expired" in response.get_data(as_text=True)
    assert store.get(id).deleted and store.raw(id) is None and store.message_row_count(id) == 0
    assert client.get(f"/t/{id}.json").status_code == 410
