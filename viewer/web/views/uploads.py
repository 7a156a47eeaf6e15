"""Getting a transcript in: the home page's form (works without JavaScript) and the API for tools."""
from __future__ import annotations

import datetime as dt
from typing import Any, BinaryIO, cast

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from viewer import ingest
from viewer.ingest import DIALECT_CHOICES
from viewer.ingest.masking import masked_name
from viewer.store import Record, hash_key
from viewer.web import access, admission, capacity, errors, expiry, limits, ownership, spool
from viewer.web.lookup import get_store
from viewer.web.processor import defers, get_processor

bp = Blueprint("uploads", __name__)

NAME_LIMIT = 200
NAME_SCANNED = 4096
"""The most of a name the scan reads: a query string or a form's file name, never long."""
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


@bp.get("/")
def home() -> str:
    return render_template("home.html", samples=get_store().samples(), dialects=DIALECT_CHOICES,
                           limit=current_app.config["MAX_UPLOAD_BYTES"], expiries=expiry.LABELS)


@bp.post("/transcripts")
def upload_form() -> Response | tuple[Response, int]:
    if request.mimetype not in FORM_TYPES:
        abort(415, "This address takes the upload form; send a raw transcript as the body of "
                   "POST /api/transcripts instead.")
    if request.mimetype != "multipart/form-data" and (request.content_length or 0) > request.max_form_memory_size:  # type: ignore[operator]  # the app sets it
        abort(413)  # Werkzeug bounds a multipart form's text fields, not a URL-encoded body, which it reads whole
    # A form without a file sends an empty part; several files (a session's folder) are packed as one zip archive.
    uploads = [upload for upload in request.files.getlist("file") if spool.size_of(cast(BinaryIO, upload.stream)) > 0]
    pasted = request.form.get("text", "")
    chosen = bool(uploads)
    if chosen and pasted.strip():
        abort(400, "Choose files or paste text, not both.")
    name: str | None
    if len(uploads) > 1:
        body, name = spool.spooled_files([(upload.filename or "", cast(BinaryIO, upload.stream)) for upload in uploads])
    else:  # the file is a spool file already (spool.SpoolingRequest)
        body = cast(BinaryIO, uploads[0].stream) if chosen else spool.spooled_text(pasted)
        name = uploads[0].filename if chosen and uploads[0].filename else None
    record, key = store_upload(admission.admitted(body, admission.UPLOAD), _dialect(request.form.get("dialect")),
                                debug_allowed=request.form.get("allow_debug") == "on", name=name,
                                keep_for=expiry.keep_for(request.form.get("expires")),
                                owner_hash=ownership.current_hash())
    ownership.adopt([record.id])
    flash(url_for("manage.manage", id=record.id, key=key, _external=True), "manage")
    page = url_for("reading.transcript", id=record.id)
    if errors.wants_json():
        # app.js sends the form with XMLHttpRequest (for its progress bar) and goes to the page itself: a
        # redirect would be followed inside the request and use up the one showing of the manage link.
        return jsonify({"id": record.id, "url": page}), _created(record)
    return redirect(page, 303)  # the page of an upload being processed shows its progress


@bp.post("/api/transcripts")
def upload_api() -> tuple[Response, int, dict[str, str]]:
    debug = request.args.get("debug", "deny")
    if debug not in ("allow", "deny"):
        abort(400, "debug must be allow or deny.")
    keep_for = expiry.keep_for(request.args.get("expires"))
    is_live = request.args.get("live", "0")
    if is_live not in ("0", "1"):
        abort(400, "live must be 1 (append to it as you go, then finish it) or 0.")
    body = admission.admitted_body(admission.LIVE_UPLOAD if is_live == "1" else admission.UPLOAD)
    owner_hash = ownership.api_owner_hash()
    record, key = store_upload(body, _dialect(request.args.get("dialect")), debug_allowed=debug == "allow",
                               name=request.args.get("name"), keep_for=keep_for, live=is_live == "1",
                               owner_hash=owner_hash)
    if owner_hash is not None:  # a tool's uploads, in one list that a browser may take on (viewer/web/ownership.py)
        get_store().owners.add(owner_hash, [record.id])
    url = url_for("reading.transcript", id=record.id, _external=True)
    answer = {"id": record.id, "url": url, "manage_url": url_for("manage.manage", id=record.id, key=key,
                                                                 _external=True),
              "expires_at": record.expires_at.isoformat() if record.expires_at else None,
              # What was found and masked for link holders, so that a tool can refuse to share it (null while it is
              # processed: `state` is "processing", and the link answers 409 until it is readable).
              "secrets": {"count": record.secret_count, "kinds": record.secret_kinds} if record.ready else None,
              "state": record.state or "ready",
              # Whether it is in the list of the owner key the request named (ownership.HEADER).
              "listed": owner_hash is not None}
    return jsonify(answer), _created(record), {"Location": url}


def _dialect(value: str | None) -> str:
    dialect = value or "auto"
    if dialect not in DIALECT_CHOICES:
        abort(400, f"Unknown dialect; choose one of {', '.join(DIALECT_CHOICES)}.")
    return dialect


def store_upload(body: BinaryIO, dialect: str, *, debug_allowed: bool, name: str | None,
                 keep_for: dt.timedelta | None, live: bool = False,
                 owner_hash: str | None = None) -> tuple[Record, str]:
    """Store an admitted upload from its spool file in a processing slot (503 when none is free): a big one is
    answered as soon as its record is stored, its spool kept for the thread that stores its bytes and processes it
    (a big JSON Lines dataset or agent session read a piece at a time, never held whole); any other in the
    request (a live one stays open for appends). 507 first when it would pass a quota (of all uploads, of
    `owner_hash`'s) or fill the disk."""
    key = access.new_key()
    fields: dict[str, Any] = dict(id=access.new_id(), requested_dialect=dialect, debug_allowed=debug_allowed,
                  manage_hash=hash_key(key), name=_shown_name(name), keep_for=keep_for)
    store, processor = get_store(), get_processor()
    size = spool.size_of(body)
    limits.ensure_quota(size, owner_hash)
    capacity.ensure_room(size)  # 507 now rather than a disk filled halfway through
    if not live and defers(size):  # answered at once: its bytes and parse are stored by a thread of its own
        processor.spooled(fields["id"], body, lambda with_bytes: ingest.accept(
            store, body if with_bytes else None, worker=processor.worker, size=size, **fields))
        return cast(Record, store.get(fields["id"])), key  # stored by `accept`
    with processor.slot():
        return ingest.store_spooled(store, body, live=live, **fields), key


def _shown_name(name: str | None) -> str | None:
    """The name stored: scanned and masked as the content is (whole, so that a secret is never cut in two
    before the scan sees it), then cut to `NAME_LIMIT`."""
    if not name:
        return None
    return (masked_name(name[:NAME_SCANNED]) or "")[:NAME_LIMIT] or None


def _created(record: Record) -> int:
    """201 for an upload stored whole, 202 for one answered before it is processed."""
    return 201 if record.ready else 202
