"""Uploads answered before they are processed (viewer/ingest/processor.py, views/processing.py): a big upload is
202 with its link, its page shows progress until it is the transcript, every other route says "still
processing" (409 with Retry-After) and never shows part of it, a full house of slots is 503, a failed upload's
page offers the uploader the raw bytes, an upload left by a dead process is processed at startup, and a big JSON
Lines dataset is answered first too and stored from its stored bytes a piece at a time."""
from __future__ import annotations

import os
import tempfile
import threading
from typing import Iterator

import pytest

from tests.harness.datasets import dataset
from tests.web.conftest import HIDDEN_CANARIES, WEATHER, soup, text_of
from viewer import ingest
from viewer.ingest import deferred, kept, processor, streaming
from viewer.store.processing import PROCESSING

BIG = WEATHER.read_bytes() * 40
"""Over the threshold the tests set; the weather transcript holds every hidden canary."""
THRESHOLD = 4096
WAIT = 30.0


@pytest.fixture
def gate(monkeypatch) -> Iterator[threading.Event]:
    """Holds every upload processed after its answer until the test sets it (set again at the end, so no
    thread outlives the test)."""
    opened = threading.Event()
    real = deferred.process

    def held(store, id, **options):
        assert opened.wait(WAIT)
        return real(store, id, **options)
    monkeypatch.setattr(deferred, "process", held)
    yield opened
    opened.set()
    for thread in threading.enumerate():  # done before the test's database goes
        if thread.name.startswith("processing"):
            thread.join(WAIT)


@pytest.fixture
def app(make_app):
    return make_app(DEFER_UPLOAD_BYTES=THRESHOLD, PROCESSING_SLOTS=2)


def _upload(client, raw=BIG, **query):
    return client.post("/api/transcripts", data=raw, query_string=query)


def _settle(app) -> None:
    assert app.extensions["viewer.processor"].idle(WAIT)


def test_a_big_upload_is_answered_202_with_its_link_before_it_is_processed(app, client, gate):
    response = _upload(client)
    assert response.status_code == 202
    body = response.get_json()
    assert body["state"] == PROCESSING and body["secrets"] is None
    assert response.headers["Location"] == body["url"]
    assert app.extensions["viewer.store"].get(body["id"]).state == PROCESSING


def test_a_small_upload_is_still_processed_in_its_request(client, gate):
    response = _upload(client, WEATHER.read_bytes())
    assert response.status_code == 201 and response.get_json()["state"] == "ready"


def test_the_page_shows_progress_then_becomes_the_transcript(app, client, gate):
    id = _upload(client).get_json()["id"]
    page = client.get(f"/t/{id}")
    assert page.status_code == 200
    region = soup(page).select_one("[data-processing]")
    assert region["sse-connect"] == f"/t/{id}/progress" and "ready" in region["sse-swap"]
    refresh = soup(page).select_one("noscript meta[http-equiv=refresh]")
    assert refresh is not None and int(refresh["content"]) > 0
    assert not any(canary in text_of(page) for canary in HIDDEN_CANARIES)
    gate.set()
    _settle(app)
    page = client.get(f"/t/{id}")
    assert soup(page).select_one("[data-processing]") is None and soup(page).select("li.entry")


ROUTES = ("/t/{id}.json", "/t/{id}.md", "/t/{id}.html", "/t/{id}/window?start=0", "/t/{id}/messages/0",
          "/t/{id}/jump?at=1", "/t/{id}/search?q=weather", "/t/{id}/context/1", "/t/{id}/events",
          "/t/{id}?view=debug&at=0", "/t/{id}/c/0", "/compare/{id}/{id}")


@pytest.mark.parametrize("route", ROUTES)
def test_every_other_route_answers_still_processing_with_retry_after(client, gate, route):
    created = _upload(client).get_json()
    id = created["id"]
    client.get(created["manage_url"])  # the uploader, who could read every view
    response = client.get(route.format(id=id))
    if route.startswith("/t/{id}?") or route == "/t/{id}/c/0":  # the page, whatever its arguments: progress
        assert response.status_code == 200 and soup(response).select_one("[data-processing]") is not None
    else:
        assert response.status_code == 409, route
        assert int(response.headers["Retry-After"]) > 0
    assert not any(canary in text_of(response) for canary in HIDDEN_CANARIES)


def test_the_json_twin_says_still_processing_in_its_envelope(client, gate):
    id = _upload(client).get_json()["id"]
    response = client.get(f"/t/{id}.json")
    assert response.status_code == 409 and "still being processed" in response.get_json()["error"]["message"]


def test_the_progress_stream_sends_the_stage_then_ready(app, client, gate):
    id = _upload(client).get_json()["id"]
    stream = client.get(f"/t/{id}/progress", buffered=False)
    assert stream.mimetype == "text/event-stream"
    chunks = stream.response
    assert next(chunks).startswith(b"retry:")
    first = next(chunks).decode()
    assert first.startswith("event: progress") and 'data-stage="parsing"' in first
    stream.close()
    gate.set()
    _settle(app)
    done = client.get(f"/t/{id}/progress").get_data(as_text=True)
    assert done.split("\n\n")[1].startswith("event: ready")


def test_beyond_the_slots_an_upload_is_refused_503_with_retry_after(make_app, gate):
    app = make_app(DEFER_UPLOAD_BYTES=THRESHOLD, PROCESSING_SLOTS=1)
    client = app.test_client()
    assert _upload(client).status_code == 202
    refused = _upload(client, WEATHER.read_bytes())
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert "nothing of this upload was stored" in refused.get_json()["error"]["message"]
    form = client.post("/transcripts", data={"text": WEATHER.read_text()})
    assert form.status_code == 503 and soup(form).select_one("[data-status='503']") is not None
    assert "Try again in 10 seconds." in text_of(form) and form.headers["Retry-After"] == "10"
    gate.set()
    _settle(app)
    assert _upload(client, WEATHER.read_bytes()).status_code == 201


def test_the_form_redirects_a_big_upload_to_its_progress_page(client, gate):
    response = client.post("/transcripts", data={"text": BIG.decode()})
    assert response.status_code == 303
    page = client.get(response.headers["Location"])
    assert soup(page).select_one("[data-processing]") is not None
    assert soup(page).select_one(".share-panel #share-url")["value"].startswith("http://localhost/t/")
    script = client.post("/transcripts", data={"text": BIG.decode()}, headers={"Accept": "application/json"})
    assert script.status_code == 202 and script.get_json()["url"].startswith("/t/")


def test_a_failed_upload_says_so_and_its_uploader_downloads_the_raw(app, client, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")
    monkeypatch.setattr(app.extensions["viewer.store"].processing, "finish", broken)
    created = _upload(client).get_json()
    client.get(created["manage_url"])
    _settle(app)
    page = client.get(f"/t/{created['id']}")
    assert soup(page).select_one(".processing.failed") is not None and "could not be processed" in text_of(page)
    raw = client.get(soup(page).select_one(".processing a.button")["href"])
    assert raw.status_code == 200 and raw.data == BIG
    assert client.get(f"/t/{created['id']}.json").status_code == 409
    stranger = app.test_client()
    assert stranger.get(f"/t/{created['id']}/raw").status_code in (403, 409)
    assert soup(stranger.get(f"/t/{created['id']}")).select_one(".processing a.button") is None


def test_an_upload_deleted_while_processed_stays_deleted(app, client, gate):
    created = _upload(client).get_json()
    client.get(created["manage_url"])
    manage = client.get(f"/t/{created['id']}/manage")
    csrf = soup(manage).select_one("input[name=csrf]")["value"]
    assert client.post(f"/t/{created['id']}/manage",
                       data={"action": "delete", "confirm": "yes", "csrf": csrf}).status_code == 303
    gate.set()
    _settle(app)
    assert client.get(f"/t/{created['id']}").status_code == 410
    assert app.extensions["viewer.store"].message_row_count(created["id"]) == 0


def test_search_says_it_is_not_ready_until_its_index_is_built(app, client, monkeypatch):
    store = app.extensions["viewer.store"]
    indexed, real = threading.Event(), store.processing.index

    def later(id, projection, **kwargs):
        assert indexed.wait(WAIT)
        return real(id, projection, **kwargs)
    monkeypatch.setattr(store.processing, "index", later)
    id = _upload(client).get_json()["id"]
    try:
        for _ in range(int(WAIT * 10)):  # bounded: the rows are stored well within it
            if store.get(id).ready:
                break
            threading.Event().wait(0.1)
        page = client.get(f"/t/{id}")
        assert soup(page).select("li.entry") and soup(page).select_one(".search-pending") is not None
        assert client.get(f"/t/{id}/search?q=weather").status_code == 409
    finally:
        indexed.set()
    _settle(app)
    assert soup(client.get(f"/t/{id}")).select_one(".search-pending") is None
    assert client.get(f"/t/{id}/search?q=weather").status_code == 200


def test_the_first_page_is_served_once_its_rows_are_stored_and_the_rest_waits(make_app, monkeypatch):
    app = make_app(DEFER_UPLOAD_BYTES=THRESHOLD, WINDOW_SIZE=5)
    client, store = app.test_client(), app.extensions["viewer.store"]
    rest, real = threading.Event(), store.processing.finish

    def later(*args, **kwargs):
        assert rest.wait(WAIT)
        return real(*args, **kwargs)
    monkeypatch.setattr(store.processing, "finish", later)
    created = _upload(client).get_json()
    client.get(created["manage_url"])
    id = created["id"]
    try:
        for _ in range(int(WAIT * 10)):  # bounded: the first rows are stored well within it
            progress = store.processing.progress(id)
            if progress is not None and progress.readable:
                break
            threading.Event().wait(0.1)
        record = store.get(id)
        assert record.state == PROCESSING and 0 < store.message_row_count(id) < record.message_count
        for view in ("", "?view=debug"):
            page = client.get(f"/t/{id}{view}")
            assert soup(page).select("li.entry") and soup(page).select_one(".storing-note[sse-connect]") is not None
        assert client.get(f"/t/{id}/window?start=5", headers={"HX-Request": "true"}).status_code == 200
        assert client.get(f"/t/{id}/window?start=300", headers={"HX-Request": "true"}).status_code == 409
        assert soup(client.get(f"/t/{id}?at=300")).select_one("[data-processing]") is not None
        assert client.get(f"/t/{id}.json").status_code == 409
        assert not any(canary in text_of(client.get(f"/t/{id}")) for canary in HIDDEN_CANARIES)
        # The progress page's stream says to load it again now; the note's waits for the rest.
        assert client.get(f"/t/{id}/progress").get_data(as_text=True).split("\n\n")[1].startswith("event: ready")
        whole = client.get(f"/t/{id}/progress?until=whole", buffered=False)
        assert next(whole.response).startswith(b"retry:") and next(whole.response).startswith(b"event: progress")
        whole.close()
        assert client.get(f"/t/{id}/progress?until=later").status_code == 400
    finally:
        rest.set()
    _settle(app)
    assert store.message_row_count(id) == store.get(id).message_count and store.get(id).ready
    assert client.get(f"/t/{id}/window?start=300", headers={"HX-Request": "true"}).status_code == 200


def test_an_upload_left_by_a_dead_process_is_processed_when_the_app_starts(make_app):
    first = make_app(DEFER_UPLOAD_BYTES=THRESHOLD)
    store = first.extensions["viewer.store"]
    ingest.accept(store, BIG, id="left-by-a-dead-process-0000000", worker="nowhere-host:1:gone")
    store.processing.heartbeat("nowhere-host:1:gone")  # alive a moment ago, on another host
    assert store.get("left-by-a-dead-process-0000000").state == PROCESSING
    ingest.accept(store, BIG, id="left-by-a-dead-process-0000001", worker="x")
    with store.engine.begin() as conn:  # its process on this host is gone: no such pid
        from viewer.store.schema import processing as table
        conn.execute(table.update().where(table.c.transcript_id == "left-by-a-dead-process-0000001")
                     .values(worker=f"{processor.socket.gethostname()}:{2**22 + 7}:gone"))
    second = make_app(DEFER_UPLOAD_BYTES=THRESHOLD)
    _settle(second)
    assert store.get("left-by-a-dead-process-0000001").ready
    assert store.message_row_count("left-by-a-dead-process-0000001") > 0
    assert store.get("left-by-a-dead-process-0000000").state == PROCESSING  # another host's, still beating


def test_a_process_on_another_host_is_dead_once_its_heartbeat_is_stale():
    import datetime as dt

    now = dt.datetime.now(dt.timezone.utc)
    assert not processor.abandoned("elsewhere:12:a", now, "me")
    assert processor.abandoned("elsewhere:12:a", now - processor.STALE_AFTER * 2, "me")
    assert not processor.abandoned("me", now - processor.STALE_AFTER * 2, "me")


def test_a_big_json_lines_dataset_is_answered_202_then_stored_a_piece_at_a_time(app, client, monkeypatch):
    monkeypatch.setattr(streaming, "STREAM_FROM", THRESHOLD)
    monkeypatch.setattr(streaming, "PIECE_BYTES", 2048)
    pieces = []
    real = streaming.parse_dataset_lines
    monkeypatch.setattr(streaming, "parse_dataset_lines", lambda text: pieces.append(len(text)) or real(text))
    raw = dataset(60).encode()
    response = _upload(client, raw)
    assert response.status_code == 202 and response.get_json()["state"] == PROCESSING
    _settle(app)
    id = response.get_json()["id"]
    assert len(pieces) > 3 and max(pieces) < len(raw) / 3
    index = client.get(f"/t/{id}")
    assert index.status_code == 200 and soup(index).select_one("[data-processing]") is None
    assert app.extensions["viewer.store"].get(id).conversation_count == 60
    assert client.get(f"/t/{id}/c/59").status_code == 200


def test_a_big_upload_is_answered_before_its_bytes_are_stored_and_its_thread_stores_them(app, client, gate):
    response = _upload(client)
    store, id = app.extensions["viewer.store"], response.get_json()["id"]
    assert response.status_code == 202 and not store.processing.has_raw(id)
    assert _kept(None, id)  # the spool, named: it outlives the request and the process
    gate.set()
    _settle(app)
    assert store.raw(id) == BIG and store.get(id).ready and not _kept(None, id)


def _kept(folder: str | None, id: str) -> bool:
    found = kept.found(folder, id)
    if found is not None:
        found.close()
    return found is not None


def test_an_upload_taken_over_before_its_bytes_were_stored_finds_them_where_they_were_kept(app, tmp_path):
    store = app.extensions["viewer.store"]
    with tempfile.TemporaryFile(dir=tmp_path) as spool:
        spool.write(BIG)
        ingest.accept(store, None, id="kept", worker="elsewhere:1:x", size=len(BIG))
        spool.seek(0)
        with open(kept.path_of(str(tmp_path), "kept"), "wb") as named:
            named.write(spool.read())
    assert deferred.process(store, "kept", kept_in=str(tmp_path))
    assert store.raw("kept") == BIG and store.get("kept").ready and not _kept(str(tmp_path), "kept")


def test_an_upload_whose_bytes_were_lost_with_its_process_fails_saying_so(app, tmp_path):
    store = app.extensions["viewer.store"]
    ingest.accept(store, None, id="lost", worker="elsewhere:1:x", size=len(BIG))
    assert not deferred.process(store, "lost", kept_in=str(tmp_path))
    assert store.get("lost").state == "failed"
    assert "send it again" in store.processing.progress("lost").error
