"""The page of an upload answered before it was processed: how far its processing got, sent again as it goes
through server-sent events (`GET /t/<id>/progress`, swapped in by htmx's `sse` extension; static/app.js reloads
the page when it is ready), refreshed every few seconds without JavaScript; once stored, the page is the
transcript. A failed upload's page says so, and gives its uploader the raw bytes.

Nothing of the transcript is on this page or in its stream: only its name, size (for readers who may see it),
stage and time taken.
"""
from __future__ import annotations

import time
from typing import Iterator

from flask import Blueprint, Response, abort, make_response, render_template, request, stream_with_context, url_for

from viewer.present.stored import title
from viewer.store import Record
from viewer.store.processing import FAILED, PROCESSING, STAGES, Progress
from viewer.web import access
from viewer.web.lookup import get_store, open_transcript
from viewer.web.views.live import RETRY_MS, STREAM_SECONDS, sse_event

bp = Blueprint("processing", __name__)

FIRST, WHOLE = "first", "whole"
"""What a progress stream waits for: the first page can be served, or the upload is stored whole."""
POLL_SECONDS = 0.5
"""How often the stream reads the upload's stage (one small indexed read)."""
REFRESH_SECONDS = 3
"""How often the page reloads itself without JavaScript."""
STAGE_NAMES = {"queued": "stored, waiting to be read", "parsing": "reading the transcript",
               "storing": "storing its messages", "indexing": "building its search index", FAILED: "failed"}


def page(record: Record) -> Response:
    """The page of upload `record`, not readable yet: its progress, or why it failed."""
    progress = get_store().processing.progress(record.id)
    owner = access.owns(record)
    context = {"record": record, "title": title(record), "failed": record.state == FAILED,
               "progress": _progress(record, progress), "owner": owner, "refresh": REFRESH_SECONDS,
               "size": record.size if owner or record.debug_allowed else None,
               "events_url": url_for("processing.events", id=record.id),
               "raw_url": url_for("exports.raw", id=record.id) if owner else None, "sse": True}
    response = make_response(render_template("processing.html", **context))
    response.vary.add("Cookie")
    return response


def _progress(record: Record, progress: Progress | None) -> dict:
    """What `_progress.html` draws."""
    if progress is None:  # stored a moment ago
        return {"stage": "ready", "name": "ready", "step": len(STAGES), "of": len(STAGES), "seconds": None,
                "error": None}
    return {"stage": progress.stage, "name": STAGE_NAMES.get(progress.stage, progress.stage), "step": progress.step,
            "of": len(STAGES), "seconds": progress.seconds(), "error": progress.error}


@bp.get("/t/<id>/progress")
def events(id: str) -> Response:
    """The upload's progress as server-sent events: `progress` (the stage, drawn) every `POLL_SECONDS`, then
    `ready` when the page should be loaded again: once its first page can be served (`until=first`, the
    progress page's), or once it is stored whole (`until=whole`, the note on a page served before); at once
    when it failed or was deleted."""
    record = open_transcript(id, unfinished=True)
    until = request.args.get("until", FIRST)
    if until not in (FIRST, WHOLE):
        abort(400, f"until must be {FIRST} or {WHOLE}.")
    response = Response(stream_with_context(_stream(record, until)), mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response


def _stream(record: Record, until: str) -> Iterator[str]:
    store = get_store()
    deadline = time.monotonic() + STREAM_SECONDS
    yield f"retry: {RETRY_MS}\n\n"
    while True:
        current = store.get(record.id)
        found = store.processing.progress(record.id) if current is not None else None
        if (current is None or current.deleted or current.state != PROCESSING
                or (until == FIRST and found is not None and found.readable)):
            # Readable (its first page, or whole), failed or deleted: the page, loaded again, shows which.
            yield sse_event("ready", render_template("_progress.html", progress=None, whole=until == WHOLE,
                                                     page_url=url_for("reading.transcript", id=record.id)))
            return
        yield sse_event("progress", render_template("_progress.html", progress=_progress(current, found)))
        if time.monotonic() >= deadline:
            return
        time.sleep(POLL_SECONDS)
