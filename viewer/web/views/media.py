"""A transcript's pasted images: `/t/<id>/media/<sha256>` (and `?size=thumb`), from the viewer's own origin,
read as every transcript route is (`lookup.open_reading`: 404/410, and 403 for the debug view unless this reader
may have it). A default-view reader is served only the images of messages the default view shows in full; the
debug view's, every image of the transcript. What is served was re-encoded without metadata at upload
(viewer.images); the uploader's raw download keeps the originals.

The answer is an image and nothing else: its exact type, `nosniff`, and a sandboxing policy of its own
(`default-src 'none'; sandbox`), so that even opened on its own it runs nothing. It is never cached (`no-store`,
like every transcript answer): a link's access changes when its uploader deletes it or it expires.

An upload still being processed serves the images its stored rows name (stored with its first page's rows:
viewer/store/staged.py), so that a page readable before the rest is stored shows its thumbnails; one whose
processing failed serves none (409)."""
from __future__ import annotations

import re

from flask import Blueprint, abort, current_app, request
from werkzeug.wrappers import Response

from viewer.store.processing import PROCESSING
from viewer.web.lookup import ProcessingFailed, get_store, open_reading

bp = Blueprint("media", __name__)

IMAGE_POLICY = "default-src 'none'; sandbox"
"""The Content-Security-Policy of an image answer (flask-talisman reads it from the view's options)."""
SIZES = ("full", "thumb")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@bp.get("/t/<id>/media/<sha256>")
@bp.get("/t/<id>/c/<int:k>/media/<sha256>")  # registered second: url_for with `k` builds this rule
def image(id: str, sha256: str, k: int | None = None) -> Response:
    size = request.args.get("size", "full")
    if size not in SIZES:
        abort(400, f"Unknown size; choose one of {', '.join(SIZES)}.")
    reading = open_reading(id, k, unfinished=True)
    if reading.record.state not in (None, PROCESSING):
        raise ProcessingFailed()
    if not _SHA256.fullmatch(sha256) or reading.record.is_dataset:
        abort(404, "This transcript shows no such image.")
    served = get_store().media.served(reading.record.id, sha256, debug=reading.debug, thumbnail=size == "thumb")
    if served is None:
        abort(404, "This transcript shows no such image.")
    response = current_app.response_class(served.data, mimetype=served.type)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.vary.add("Cookie")
    return response


image.talisman_view_options = {"content_security_policy": IMAGE_POLICY}  # type: ignore[attr-defined]  # Talisman reads it
