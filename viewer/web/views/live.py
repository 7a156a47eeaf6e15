"""Live transcripts: an agent appends to its upload as it runs (`POST /api/transcripts/<id>/append?key=K`,
then `…/finish`), and the reading page shows new messages as they arrive, through server-sent events
(`GET /t/<id>/events`) that the htmx `sse` extension swaps into the page; without JavaScript, a reload link.

The stream sends the page's live region drawn by the same window and card code as the reading page, for the
view the reader may have (its `lookup.Reading`), so the default view's stream holds only what its page holds.
Each answer lasts at most `STREAM_SECONDS`: a sync worker is never held longer, and the browser's EventSource
connects again by itself.
"""
from __future__ import annotations

import dataclasses
import re
import time
from typing import Iterator, cast

from flask import Blueprint, Response, abort, jsonify, request, stream_with_context, url_for

from viewer import ingest
from viewer.store import Record, live
from viewer.web import access, admission, capacity, spool
from viewer.web.lookup import Reading, get_store, open_reading, open_transcript, render_reading, reread
from viewer.web.windows import Window, read_window

bp = Blueprint("live", __name__)

STREAM_SECONDS = 15.0
"""How long one event-stream answer lasts before the browser reconnects."""
POLL_SECONDS = 0.5
"""How often a stream looks for a change (one small indexed read)."""
RETRY_MS = 1000
"""How soon the browser reconnects once an answer ends."""
LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""What ends a line of an event stream."""


# ---- the API ------------------------------------------------------------------------------------------------

@bp.post("/api/transcripts/<id>/append")
def append(id: str) -> tuple[Response, int]:
    """Append the request body (more text, or §9 event lines) to an open live upload."""
    record = _managed(id)
    body = admission.admitted_body(admission.APPEND)
    _require_open(record)
    limit = int(request.max_content_length or 0)
    if limit and record.size + spool.size_of(body) > limit:
        abort(413, f"This append would make the transcript larger than the upload limit ({limit:,} bytes); "
                   "finish it and upload the rest as a new transcript.")
    capacity.ensure_room(spool.size_of(body))
    data = body.read()  # an append is parsed with its upload's tail, in memory (viewer/ingest/appending.py)
    return jsonify(_state(ingest.append(get_store(), record, data))), 200


@bp.post("/api/transcripts/<id>/finish")
def finish(id: str) -> tuple[Response, int]:
    """Close an open live upload: it takes no more appends, and is marked truncated if it ends without a stop."""
    record = _managed(id)
    _require_open(record)
    get_store().live.finish(record.id)
    return jsonify(_state(cast(Record, get_store().get(record.id)))), 200  # finished, not deleted


def _managed(id: str) -> Record:
    record = open_transcript(id)
    if not access.key_matches(record, request.args.get("key")):
        abort(403, "The key does not match: appending and finishing need the manage key given at upload (?key=…).")
    return record


def _require_open(record: Record) -> None:
    if record.live != live.OPEN:
        abort(409, "This transcript is finished: it takes no more appends. Upload with ?live=1 to append as you go."
              if record.live else "This transcript was not uploaded live: it takes no appends. Upload with ?live=1 "
              "to append as you go.")


def _state(record: Record) -> dict:
    return {"id": record.id, "live": record.live, "messages": record.message_count,
            "diagnostics": record.diagnostic_count, "size": record.size,
            "url": url_for("reading.transcript", id=record.id, _external=True)}


# ---- the page's live region and its event stream ------------------------------------------------------------

def page_parts(reading: Reading, window: Window) -> tuple[Window, dict]:
    """The reading page's window cut before the live tail, and the template context of the live region
    (`live`: None when the page does not show one: not open, or a window that ends before the tail)."""
    if reading.record.live != live.OPEN:
        return window, {"live": None}
    first = _first_live(reading)
    cut = [card for card in window.cards if card.index < first[1]]
    if window.next is not None and window.next[1] < first[1]:
        return window, {"live": None, "live_link": reading.url("reading.transcript", at=first[1])}
    kept = dataclasses.replace(window, cards=cut, next=None)
    return kept, {"live": _region(reading, first[0])}


def _first_live(reading: Reading) -> tuple[int, int]:
    """(window position, message index) where the live region starts: the first message that may change."""
    record = reading.record
    tail = get_store().live.tail(record.id)
    index = tail.at.index if tail is not None and tail.at is not None else max(record.message_count - 1, 0)
    position = get_store().position(record.id, reading.view, index)
    return (record.visible_count if position is None else position), index


def _region(reading: Reading, start: int) -> dict:
    """What `_live.html` draws: the entries from `start` (a window of them) and the upload's state."""
    return {"window": read_window(reading, start), "start": start, "state": reading.record.live,
            "events_url": reading.url("live.events", start=start), "page_url": reading.url("reading.transcript")}


@bp.get("/t/<id>/events")
def events(id: str) -> Response:
    """The live region of a transcript's page, again at each change, as server-sent events: `tail` events
    (the region's HTML), then `end` when the upload is finished."""
    reading = open_reading(id)
    start = max(request.args.get("start", 0, type=int), 0)
    response = Response(stream_with_context(_stream(reading, start)), mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response


def _stream(reading: Reading, start: int) -> Iterator[str]:
    record = reading.record
    store = get_store()
    deadline = time.monotonic() + STREAM_SECONDS
    seen = None
    yield f"retry: {RETRY_MS}\n\n"
    while True:
        marker = store.live.changed_marker(record.id)
        if marker != seen:
            seen = marker
            current = store.get(record.id)
            # Read again as of now (the uploader may have masked the secrets or closed the debug view since).
            now = reread(current, reading.view) if current is not None and not current.deleted else None
            if current is None or now is None:
                yield "event: end\ndata: \n\n"
                return
            # With the page's counts, replaced in place (the size only for whom the page shows it: reading.py).
            region = {**_region(now, start), "oob": True, "size": current.size if now.may_debug else None}
            yield sse_event("tail", render_reading("_live.html", now, live=region))
            if current.live != live.OPEN:
                yield "event: end\ndata: \n\n"
                return
        if time.monotonic() >= deadline:
            return
        time.sleep(POLL_SECONDS)


def sse_event(name: str, html: str) -> str:
    """One server-sent event: every line of the data prefixed, so a line of the HTML cannot end it early (the
    browser joins them with newlines: a carriage return in a body arrives as one)."""
    lines = LINE_BREAK.split(html)
    return f"event: {name}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"
