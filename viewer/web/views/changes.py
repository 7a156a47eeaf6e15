"""The files an agent session changed (`/t/<id>/changes`): each file created, edited or deleted with one diff per
file assembled in order from the calls (viewer/present/changes.py), each step linked to the call that made it.
It is built from tool arguments, so it is read as the debug view is, with the same access rule."""
from __future__ import annotations

from flask import Blueprint, abort, make_response
from werkzeug.wrappers import Response

from viewer.model.words import DEBUG
from viewer.present import changes
from viewer.present.stored import title
from viewer.web.lookup import get_store, open_record, reading_of, render_reading

bp = Blueprint("changes", __name__)


@bp.get("/t/<id>/changes")
@bp.get("/t/<id>/c/<int:k>/changes")  # registered first, so url_for with `k` builds this rule
def changes_page(id: str, k: int | None = None) -> Response:
    record = open_record(id, k)
    if record.is_dataset:
        abort(404, "A dataset has no session of its own: open one of its conversations first.")
    reading = reading_of(record, DEBUG)
    if not changes.has_screen(record.dialect):
        abort(404, "Only an agent's session has a files-changed page.")
    cwd = record.header.get("cwd") if isinstance(record.header.get("cwd"), str) else None
    found = changes.files_changed(get_store().iter_entries(record.id, DEBUG, unmasked=reading.unmasked),
                                  record.dialect, cwd)
    response = make_response(render_reading("changes.html", reading, files=changes.drawn(found),
                                            summary=changes.summary(found), title=title(record)))
    response.vary.add("Cookie")
    return response
