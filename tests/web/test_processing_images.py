"""Images of an upload answered 202 (viewer/web/views/media.py, store/staged.py): once its first page is readable,
while the rest of its rows wait, that page's thumbnails are served (and the image of a message the default view
hides is not); an upload whose processing failed serves none."""
from __future__ import annotations

import threading

from tests.web.test_media import HIDDEN_SHA, SHOWN_SHA, session
from tests.web.test_processing import WAIT
from viewer.store.processing import PROCESSING

THRESHOLD = 1024
"""Under the session's size: it is answered 202 and processed after."""


def _readable(store, id: str) -> None:
    for _ in range(int(WAIT * 10)):  # bounded: the first rows are stored well within it
        progress = store.processing.progress(id)
        if progress is not None and progress.readable:
            return
        threading.Event().wait(0.1)
    raise AssertionError("the first page was not stored")


def test_a_readable_first_page_s_thumbnails_load_before_the_rest_is_stored(make_app, monkeypatch):
    app = make_app(DEFER_UPLOAD_BYTES=THRESHOLD)
    client, store = app.test_client(), app.extensions["viewer.store"]
    rest, real = threading.Event(), store.processing.finish

    def later(*args, **kwargs):
        assert rest.wait(WAIT)
        return real(*args, **kwargs)
    monkeypatch.setattr(store.processing, "finish", later)
    response = client.post("/api/transcripts", data=session())
    assert response.status_code == 202
    id = response.get_json()["id"]
    try:
        _readable(store, id)
        assert store.get(id).state == PROCESSING
        shown = client.get(f"/t/{id}/media/{SHOWN_SHA}?size=thumb")
        assert shown.status_code == 200 and shown.mimetype == "image/jpeg"
        assert client.get(f"/t/{id}/media/{HIDDEN_SHA}?size=thumb").status_code == 404
    finally:
        rest.set()
    assert app.extensions["viewer.processor"].idle(WAIT)


def test_a_failed_upload_serves_no_image(make_app, monkeypatch):
    app = make_app(DEFER_UPLOAD_BYTES=THRESHOLD)
    client, store = app.test_client(), app.extensions["viewer.store"]

    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(store.processing, "finish", broken)
    id = client.post("/api/transcripts", data=session()).get_json()["id"]
    assert app.extensions["viewer.processor"].idle(WAIT)
    assert store.get(id).state != PROCESSING and not store.get(id).ready
    assert client.get(f"/t/{id}/media/{SHOWN_SHA}?size=thumb").status_code == 409
