"""A transcript taken elsewhere: the JSON twin of a view, and the exact uploaded bytes."""
from __future__ import annotations

import re
from io import BytesIO

from flask import Blueprint, abort, current_app, send_file
from werkzeug.wrappers import Response

from viewer.web import access, json_twin, security
from viewer.web.lookup import chosen_view, get_store, open_record, open_transcript

bp = Blueprint("exports", __name__)
bp.after_request(security.not_stored)

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@bp.get("/t/<id>.json")
@bp.get("/t/<id>/c/<int:k>.json")
def transcript_json(id: str, k: int | None = None) -> Response:
    """The view as JSON, streamed; a dataset's is its index."""
    record = open_record(id, k)
    view = chosen_view(record)
    return current_app.response_class(json_twin.stream(get_store(), record, view), mimetype="application/json")


@bp.get("/t/<id>/raw")
def raw(id: str) -> Response:
    record = open_transcript(id)
    if not access.can_debug(record):
        abort(403, "The raw transcript includes everything the default view hides, and the uploader has not "
                   "allowed the debug view for this link.")
    # The name becomes a header value: control characters (a newline could start a new header) go.
    name = _CONTROL.sub("", (record.name or "").rsplit("/", 1)[-1]).strip() or record.id
    if "." not in name:
        name += ".txt"
    # Werkzeug adds `charset=utf-8`, which is right: viewer.parse.decode always reads uploads as UTF-8.
    return send_file(BytesIO(get_store().raw(record.id) or b""), mimetype="text/plain", as_attachment=True,
                     download_name=name)
