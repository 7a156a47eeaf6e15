"""The limits a shared server needs (viewer/web/limits.py): uploads an hour, expensive reads a minute and uploads
at once per client, bytes per owner key and in all; 429 with Retry-After (507 for a quota, reads going on); the
counters shared by every process on the database; nothing limited on a local server. Both databases."""
from __future__ import annotations

import pytest

from tests.web.conftest import WEATHER
from viewer.web import limits, ownership

OWNER_KEY = "owner-key-of-a-tool-" + "q" * 30


def _upload(client, **headers):
    return client.post("/api/transcripts", data=WEATHER.read_bytes(), headers=headers)


def test_past_the_uploads_an_hour_an_upload_is_429_with_retry_after(make_app):
    app = make_app(LIMITS=True, UPLOADS_PER_HOUR=2)
    client = app.test_client()
    assert [_upload(client).status_code for _ in range(2)] == [201, 201]
    refused = _upload(client)
    assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 3600
    assert "2 uploads an hour" in refused.get_json()["error"]["message"]
    form = client.post("/transcripts", data={"text": WEATHER.read_text()},
                       content_type="application/x-www-form-urlencoded")
    assert form.status_code == 429  # the form and the API count together


def test_each_client_has_its_own_count(make_app):
    app = make_app(LIMITS=True, UPLOADS_PER_HOUR=1)
    one, other = app.test_client(), app.test_client()
    assert _upload(one).status_code == 201 and _upload(one).status_code == 429
    response = other.post("/api/transcripts", data=WEATHER.read_bytes(),
                          environ_overrides={"REMOTE_ADDR": "127.0.0.2"})
    assert response.status_code == 201


def test_past_the_expensive_requests_a_minute_they_are_429_and_pages_go_on(make_app):
    app = make_app(LIMITS=True, EXPENSIVE_PER_MINUTE=3)
    client = app.test_client()
    id = _upload(client).get_json()["id"]
    answers = [client.get(f"/t/{id}/search?q=weather"), client.get(f"/t/{id}.json"), client.get(f"/t/{id}.md"),
               client.get(f"/compare/{id}/{id}")]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert int(answers[-1].headers["Retry-After"]) <= 60 and "a minute" in answers[-1].get_data(as_text=True)
    assert client.get(f"/t/{id}").status_code == 200 and client.get(f"/t/{id}/window?start=0").status_code in (200, 303)


def test_the_counters_are_shared_by_every_process_on_the_database(make_app):
    first, second = make_app(LIMITS=True, UPLOADS_PER_HOUR=2), make_app(LIMITS=True, UPLOADS_PER_HOUR=2)
    assert _upload(first.test_client()).status_code == 201
    assert _upload(second.test_client()).status_code == 201
    assert _upload(first.test_client()).status_code == 429


def test_memory_counters_are_one_processs_own(make_app):
    first, second = (make_app(LIMITS=True, UPLOADS_PER_HOUR=1, LIMITS_STORAGE="memory") for _ in range(2))
    assert _upload(first.test_client()).status_code == 201 and _upload(first.test_client()).status_code == 429
    assert _upload(second.test_client()).status_code == 201


def test_past_the_concurrent_uploads_of_a_client_an_upload_is_429(make_app):
    app = make_app(LIMITS=True, CONCURRENT_UPLOADS=1)
    store, client = app.extensions["viewer.store"], app.test_client()
    with app.test_request_context(environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        me, worker = limits.client(), app.extensions["viewer.processor"].worker
    token = store.client_uploads.take(me, worker, 1, lambda other: False)  # one upload of this client in flight
    refused = _upload(client)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "5"
    store.client_uploads.give_back(token)
    assert _upload(client).status_code == 201 and store.client_uploads.count(me) == 0  # given back after


def test_an_upload_counted_by_a_process_that_died_counts_no_more(make_app):
    app = make_app(LIMITS=True, CONCURRENT_UPLOADS=1)
    store = app.extensions["viewer.store"]
    with app.test_request_context(environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        me = limits.client()
    dead = app.extensions["viewer.processor"].worker.rsplit(":", 2)[0] + ":999999999:dead"
    store.client_uploads.take(me, dead, 1, lambda other: False)
    assert _upload(app.test_client()).status_code == 201


def test_past_an_owners_quota_an_upload_is_507_and_the_owners_uploads_are_still_read(make_app):
    size = len(WEATHER.read_bytes())
    app = make_app(LIMITS=True, OWNER_QUOTA_BYTES=size * 2)
    client = app.test_client()
    ids = [_upload(client, **{ownership.HEADER: OWNER_KEY}).get_json()["id"] for _ in range(2)]
    refused = _upload(client, **{ownership.HEADER: OWNER_KEY})
    assert refused.status_code == 507 and "one owner may keep" in refused.get_json()["error"]["message"]
    assert all(client.get(f"/t/{id}").status_code == 200 for id in ids)
    assert _upload(client, **{ownership.HEADER: "another-owner-key-" + "z" * 30}).status_code == 201


def test_past_the_total_quota_every_upload_is_507_and_reads_go_on(make_app):
    size = len(WEATHER.read_bytes())
    app = make_app(LIMITS=True, STORAGE_QUOTA_BYTES=size + size // 2)
    client = app.test_client()
    id = _upload(client).get_json()["id"]
    refused = _upload(client)
    assert refused.status_code == 507 and "keeps at most" in refused.get_json()["error"]["message"]
    assert client.get(f"/t/{id}").status_code == 200 and client.get(f"/t/{id}.json").status_code == 200
    app.extensions["viewer.store"].delete(id)  # room again, no restart
    assert _upload(client).status_code == 201


@pytest.mark.parametrize("setting", ["UPLOADS_PER_HOUR", "STORAGE_QUOTA_BYTES"])
def test_a_local_server_is_not_limited(make_app, setting):
    app = make_app(LIMITS=False, **{setting: 1})
    client = app.test_client()
    assert [_upload(client).status_code for _ in range(3)] == [201, 201, 201]


def test_viewer_serve_on_loopback_turns_the_limits_off_unless_they_were_set(make_app, monkeypatch):
    from viewer.web import serving

    served = []
    monkeypatch.setattr(serving, "ThreadedWSGIServer", lambda *args: served.append(args) or _Stopped())
    for host, limited_by_setting, limited in (("127.0.0.1", False, False), ("0.0.0.0", False, True),
                                              ("127.0.0.1", True, True)):
        app = make_app()
        app.config["LIMITS"] = True  # the default
        if not limited_by_setting:
            app.extensions["viewer.config_sources"]["LIMITS"] = "default"
        serving.serve(app, host, 0)
        assert app.config["LIMITS"] is limited


class _Stopped:
    """A server that stops at once."""

    daemon_threads = block_on_close = True

    def serve_forever(self):
        raise KeyboardInterrupt

    def server_close(self):
        pass
