"""A transcript taken elsewhere: the JSON twin of a view, the same view as a Markdown or a self-contained HTML
download, and the exact uploaded bytes. Every view export is of the reader's `lookup.Reading`, as the pages are."""
from __future__ import annotations

import re
from typing import Callable

from flask import Blueprint, current_app
from werkzeug.wrappers import Response

from viewer import bundles
from viewer.model.words import DEBUG
from viewer.present.exports import EXPORTS, file_name
from viewer.present.stored import stored_document
from viewer.store.processing import PROCESSING
from viewer.web.downloads import attachment
from viewer.web.lookup import (ProcessingFailed, Reading, StillProcessing, get_store, open_reading, open_transcript,
                               reading_of)

bp = Blueprint("exports", __name__)

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@bp.get("/t/<id>.json")
@bp.get("/t/<id>/c/<int:k>.json")
def transcript_json(id: str, k: int | None = None) -> Response:
    """The view as JSON, streamed; a dataset's is its index."""
    return _export(id, k, "json")


@bp.get("/t/<id>.md")
@bp.get("/t/<id>/c/<int:k>.md")
def transcript_markdown(id: str, k: int | None = None) -> Response:
    """The view as one Markdown file, streamed as a download; a dataset's holds every conversation."""
    return _export(id, k, "md", download=True)


@bp.get("/t/<id>.html")
@bp.get("/t/<id>/c/<int:k>.html")
def transcript_html(id: str, k: int | None = None) -> Response:
    """The view as one self-contained HTML file (no script, nothing remote), streamed as a download."""
    return _export(id, k, "html", download=True)


def _export(id: str, k: int | None, format: str, download: bool = False) -> Response:
    reading = open_reading(id, k)
    record = reading.record
    chosen = EXPORTS[format]
    document = stored_document(get_store(), record, reading.view, unmasked=reading.unmasked,
                               media_url=None if record.is_dataset else _media_urls(reading))
    response = current_app.response_class(chosen.write(document), mimetype=chosen.mimetype)
    if download:
        name = file_name(record.name, record.owner_id, reading.view, chosen.extension, record.conversation)
        response.headers.set("Content-Disposition", "attachment", filename=name)
    return response


def _bundle(head: bytes) -> bool:
    return bundles.is_archive(head) or bundles.is_database(head)


_ANY_IMAGE = "0" * 64


def _media_urls(reading: Reading) -> Callable[[str], str]:
    """The URL of each image in this view, made from one URL built now: the export is written after the
    request's context is gone."""
    pattern = reading.links.media_url(_ANY_IMAGE, reading.view)
    return lambda sha256: pattern.replace(_ANY_IMAGE, sha256)


@bp.get("/t/<id>/raw")
def raw(id: str) -> Response:
    record = open_transcript(id, unfinished=True)
    # The bytes hold everything the default view hides: they are read as the debug view is.
    reading = reading_of(record, DEBUG, refusal="The raw transcript includes everything the default view hides, "
                                                "and the uploader has not allowed the debug view for this link.")
    # The name becomes a header value: control characters (a newline could start a new header) go.
    name = _CONTROL.sub("", (record.name or "").rsplit("/", 1)[-1]).strip() or record.id
    if "." not in name:
        name += ".txt"
    # Werkzeug adds `charset=utf-8`, which is right: viewer.parse.decode always reads uploads as UTF-8.
    # Link holders get the text with its secrets masked; the uploader (and all, once unmasked) the bytes as sent.
    store = get_store()
    if not record.ready and not reading.owner:  # not scanned for secrets yet: nothing to give link holders
        raise StillProcessing() if record.state == PROCESSING else ProcessingFailed()
    # An archive or a database is never given to link holders as its bytes, only as its text, masked: a
    # database's free pages may hold deleted rows, and compressed members cannot be masked.
    bundle = not reading.owner and _bundle(store.secrets.head(record.owner_id))
    as_sent = reading.owner or (reading.unmasked and not bundle)
    if bundle:
        name += ".txt"
    chunks = store.raw_stream(record.id) if as_sent else store.secrets.shared_raw_stream(record.id)
    # Streamed a chunk at a time (viewer/store/raw.py): a 1 GiB upload is never read whole for its download.
    response = current_app.response_class(chunks or iter(()), mimetype="text/plain")
    response.headers["Content-Disposition"] = attachment(name, record.id)  # a name in any script
    return response
