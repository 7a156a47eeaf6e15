"""Reading a stored transcript: its views (a full page, or the region alone for htmx), further windows, "go to
message #N", and the whole body of a collapsed long message.

Filtering happens before templates run, never in them: the default view reads only rows the policy shows.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from flask import Blueprint, abort, make_response, redirect, request, url_for
from werkzeug.wrappers import Response

from viewer import policy, render
from viewer.model.words import DEBUG
from viewer.present import cards, changes, comparison, costs
from viewer.present.evaluation import evaluation_of, sample_of
from viewer.present.stored import title
from viewer.store import Entry
from viewer.store.processing import FAILED
from viewer.web.datasets import dataset_index, neighbours
from viewer.web.lookup import (Reading, StillProcessing, get_store, int_arg, open_reading, open_record, reading_of,
                               record_url, render_reading, requested_view, wants_partial)
from viewer.web.views import live, processing
from viewer.web.windows import Window, jump_points, read_window, shown_index, start_of

bp = Blueprint("reading", __name__)

DIAGNOSTICS_PANEL_LIMIT = 200
TOOLS_PANEL_LIMIT = 200
PART_CHARS = 200_000
"""Characters of a long body or source sent per answer of the message endpoint."""


@bp.get("/t/<id>")
@bp.get("/t/<id>/c/<int:k>")  # registered first, so url_for with `k` builds this rule
def transcript(id: str, k: int | None = None) -> Response:
    record = open_record(id, k, unfinished=True)
    if record.state == FAILED or (not record.ready and (k is not None or record.is_dataset)):
        return processing.page(record)
    if record.is_dataset:
        return dataset_index(record)
    reading = reading_of(record, requested_view())
    try:
        window = read_window(reading, start_of(reading, int_arg("at")))
    except StillProcessing:  # answered before it was processed, and this window's rows are not all stored yet
        return processing.page(record)
    window, live_region = live.page_parts(reading, window)
    template = "_transcript.html" if wants_partial() else "transcript.html"
    response = make_response(render_reading(template, reading, **_page_context(reading, window), **live_region))
    response.vary.update(("HX-Request", "HX-History-Restore-Request", "Cookie"))
    return response


def _page_context(reading: Reading, window: Window) -> dict:
    record = reading.record
    panel, tools, header = [], [], None
    if reading.debug:
        header = cards.header_panel(record.header)
        panel = get_store().diagnostics(record.id, limit=DIAGNOSTICS_PANEL_LIMIT)
        tools = [(name, render.json_block(json.dumps(schema, ensure_ascii=False)))
                 for name, schema in list(record.tools.items())[:TOOLS_PANEL_LIMIT]]
    return {"window": window, "diagnostics_panel": panel, "declared_tools": tools, "header_panel": header,
            "title": title(record),
            "answers_url": _answers_url(reading),
            "changes_url": (record_url("changes.changes_page", record)
                            if reading.may_debug and changes.has_screen(record.dialect) else None),
            "costs": costs.of_record(get_store(), record) if reading.debug else None,
            "jumps": jump_points(record.message_count),
            # A big upload is readable before its search index is built (viewer/ingest/deferred.py).
            "search_ready": get_store().processing.searchable(record.owner_id),
            # The upload's size, with the spans, would give the length of what the default view hides.
            "size": record.size if reading.may_debug else None,
            "dataset": neighbours(record) if record.parent_id else None,
            # An evaluation log of one sample: the log's summary; any sample: its target and scores.
            "evaluation": evaluation_of(record.header) if not record.parent_id else None,
            "sample": sample_of(record.header, debug=reading.debug),
            # Still storing the rows after this window: the page says so, and its stream says when it is done.
            "storing_url": url_for("processing.events", id=record.id, until="whole") if not record.ready else None,
            "sse": not record.ready}


def _answers_url(reading: Reading) -> str | None:
    """For a preference pair whose rejected answer this reader may see: its chosen and rejected answers side by
    side (the compare page, in the debug view)."""
    record = reading.record
    if not reading.may_debug or not get_store().decided_by(record.id, comparison.PREFERENCE_RULE):
        return None
    named = record.owner_id if record.conversation is None else f"{record.owner_id}.{record.conversation}"
    return url_for("compare.compare", a=f"{named}~chosen", b=f"{named}~rejected", view=DEBUG)


@bp.get("/t/<id>/window")
@bp.get("/t/<id>/c/<int:k>/window")
def window(id: str, k: int | None = None) -> Response:
    """The next (or earlier) window as a partial, for htmx; a plain request goes to the full page there. An
    upload still being stored has the windows whose rows are all stored (read_window says 409 for others)."""
    reading = open_reading(id, k, unfinished=True)
    start = max(int_arg("start") or 0, 0)
    direction = request.args.get("direction", "next")
    if direction not in ("next", "earlier"):
        abort(400, "direction must be next or earlier.")
    part = read_window(reading, start)
    if not wants_partial():
        first = part.cards[0].index if part.cards else 0
        return redirect(reading.page_url(at=first), 303)
    response = make_response(render_reading("_window.html", reading, window=part, direction=direction))
    response.vary.add("HX-Request")
    return response


@bp.get("/t/<id>/jump")
@bp.get("/t/<id>/c/<int:k>/jump")
def jump(id: str, k: int | None = None) -> Response:
    """Go to message #N: a small form (it works without JavaScript), then a redirect to the window holding N,
    scrolled to it."""
    reading = open_reading(id, k)
    at = int_arg("at")
    if at is None:
        return make_response(render_reading("jump.html", reading, title=title(reading.record)))
    at = min(max(at, 0), max(reading.record.message_count - 1, 0))
    return redirect(reading.page_url(at=at) + f"#m-{shown_index(reading, at)}", 303)


@bp.get("/t/<id>/messages/<int:index>")
@bp.get("/t/<id>/c/<int:k>/messages/<int:index>")
def message(id: str, index: int, k: int | None = None) -> Response:
    """One message's whole body (or, in the debug view, `part=source`: its source), for a collapsed long
    message: htmx swaps it into the card, a plain request gets a page of its own. Bodies over `PART_CHARS`
    come a part at a time. The default view answers only for messages it shows in full."""
    reading = open_reading(id, k)
    part = request.args.get("part", "body")
    if part not in ("body", "source") or (part == "source" and not reading.debug):
        abort(400, "part must be body, or source in the debug view.")
    entry = get_store().entry(reading.record.id, index, unmasked=reading.unmasked)
    if entry is None or (not reading.debug and entry.show_as not in policy.SHOWN_IN_FULL):
        abort(404, "This view has no message with that number.")
    text = entry.source if part == "source" else entry.message.content
    offset = min(max(int_arg("offset") or 0, 0), len(text))
    shown = _slice(reading, entry, part, text, offset)
    template = "_message_part.html" if wants_partial() else "message.html"
    response = make_response(render_reading(template, reading, entry=entry, part=part, shown=shown,
                                            title=title(reading.record)))
    response.vary.update(("HX-Request", "Cookie"))
    return response


@dataclass(frozen=True, slots=True)
class TextSlice:
    """What one answer of the message endpoint shows: the whole body rendered, or a slice of a long text (the
    body's or the source's)."""

    body: render.Rendered | None
    """The whole body rendered, when it is short enough to render at once."""
    text: str
    """Otherwise the slice of text shown (plain, escaped by the template)."""
    offset: int
    end: int
    size: int
    next_url: str | None
    """Where the rest continues, if anything is left."""


def _slice(reading: Reading, entry: Entry, part: str, text: str, offset: int) -> TextSlice:
    if part == "body" and offset == 0 and len(text) <= PART_CHARS:
        return TextSlice(body=cards.body(entry), text="", offset=0, end=len(text), size=len(text),
                     next_url=None)
    end = min(offset + PART_CHARS, len(text))
    next_url = None
    if end < len(text):
        next_url = record_url("reading.message", reading.record, index=entry.message.index, offset=end,
                              view=reading.view_arg, part="source" if part == "source" else None)
    return TextSlice(body=None, text=text[offset:end], offset=offset, end=end, size=len(text), next_url=next_url)
