"""One error path: every HTTP error answers `error.html` or one JSON envelope, never a stack trace; and the
refusals of the stages below the web app (ingest, the store) become their HTTP errors here, not in each view.

JSON is chosen for the API, for `.json` URLs and for clients that ask for it; everyone else gets the page.
"""
from __future__ import annotations

import logging

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import Conflict, HTTPException, InternalServerError, ServiceUnavailable, UnprocessableEntity

from viewer import ingest
from viewer.ingest.processor import Busy
from viewer.store import live
from viewer.store.faults import FULL, storage_fault
from viewer.web import capacity
from viewer.web.spool import NoRoom

log = logging.getLogger(__name__)

HINTS = {
    403: "If someone shared this link with you, ask them to open their manage link and allow the debug view.",
    404: "Check the link: share links are long and easy to cut short when copied.",
    410: "Ask whoever shared it for a new link.",
    413: "Split the transcript, or ask the server's operator to raise VIEWER_MAX_UPLOAD_BYTES.",
    507: "Reading what is stored still works. The server's operator sees the same at /healthz.",
    415: "Send the transcript as UTF-8 text: a file from the picker, pasted text, or the raw body of an API upload.",
}


REFUSALS: dict[type[Exception], tuple[type[HTTPException], str | None]] = {
    ingest.CannotBeLive: (UnprocessableEntity, None),
    ingest.NotLive: (Conflict, None),
    live.AppendConflict: (Conflict, "Another append to this transcript was stored at the same moment; send this "
                                    "one again."),
    Busy: (ServiceUnavailable, None),
}
"""Each refusal of a lower stage: its HTTP error, and what to say (None: the refusal's own message). Flask picks
the handler of the most derived class, so `CannotBeLive` wins over `NotLive`. A refusal's `hint` and
`retry_after`, when it has them, go with its answer."""
UNAVAILABLE_RETRY_SECONDS = 5
"""The Retry-After of a request the database could not take (it restarts, it is unreachable)."""


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    for refusal in REFUSALS:
        app.register_error_handler(refusal, _refused)
    # The database's and the disk's refusals (viewer/store/faults.py) are answers, not crashes.
    app.register_error_handler(SQLAlchemyError, _storage_refused)
    app.register_error_handler(OSError, _storage_refused)
    app.register_error_handler(Exception, _unexpected)


def _refused(refusal: Exception) -> tuple[Response | str, int] | HTTPException:
    kind, message = next(REFUSALS[kind] for kind in type(refusal).__mro__ if kind in REFUSALS)
    error = kind(message or str(refusal))
    for carried in ("hint", "retry_after"):
        if getattr(refusal, carried, None) is not None:
            setattr(error, carried, getattr(refusal, carried))
    return _http_error(error)


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.path.endswith(".json"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def error_response(status: int, title: str, message: str, hint: str | None = None,
                   back: tuple[str, str] | None = None) -> tuple[Response | str, int]:
    """The error page (or JSON); `back`: (URL, words) of the page to go back to, when there is a better one than
    the home page (a refused debug view: its transcript)."""
    if wants_json():
        return jsonify({"error": {"status": status, "title": title, "message": message}}), status
    return render_template("error.html", status=status, title=title, message=message,
                           hint=hint or HINTS.get(status), back=back), status


def http_error(error: HTTPException) -> tuple[Response | str, int] | HTTPException:
    """The answer to an HTTP error: its page or JSON, with its `Retry-After` (an extension's own errors too)."""
    return _http_error(error)


def _http_error(error: HTTPException) -> tuple[Response | str, int] | HTTPException:
    if error.code is None or error.code < 400:  # redirects raised as exceptions pass through
        return error
    message = error.description or error.name
    if error.code == 413 and error.description == type(error).description:  # Werkzeug's words, not a view's
        message = _too_large()
    # An exception may carry a hint of its own when the status's usual one would mislead.
    back = getattr(error, "back", None)
    response, status = error_response(error.code, error.name, message, getattr(error, "hint", None),
                                      (back, getattr(error, "back_text", "Back")) if back else None)
    if error.code == 405 and hasattr(error, "valid_methods") and error.valid_methods:
        response = _with_header(response, status, "Allow", ", ".join(error.valid_methods))
    # A refusal that passes (still processing, every slot taken) says when to ask again.
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        response = _with_header(response, status, "Retry-After", str(retry_after))
    return response, status


def _with_header(response: Response | str, status: int, name: str, value: str) -> Response:
    response = make_response(response, status)
    response.headers[name] = value
    return response


def _too_large() -> str:
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    paste_limit = current_app.config["MAX_FORM_MEMORY_SIZE"]
    if paste_limit < limit and request.content_length is not None and request.content_length <= limit:
        # Within the upload limit, so it was a form field over the (lower) limit of pasted text.
        return (f"Pasted text is limited to {_size(paste_limit)} on this server: choose the file instead "
                f"(files up to {_size(limit)}).")
    return f"The upload is larger than this server's limit of {_size(limit)}."


def _size(limit: int) -> str:
    if limit >= 1024 * 1024:
        return f"{limit / (1024 * 1024):g} MiB"
    return f"{limit:,} bytes"


def _storage_refused(error: Exception) -> tuple[Response | str, int] | HTTPException:
    """507 when the disk or the database refused to keep more, 503 with Retry-After when the database cannot be
    reached now; any other error of the database or the system is unexpected. A transaction that failed left
    nothing of itself: the store writes an upload in one."""
    fault = storage_fault(error)
    if fault is None:
        return _unexpected(error)
    capacity.refusals().met(fault)
    log.warning("storage refused %s %s: %s (%s)", request.method, request.path, fault.detail, type(error).__name__)
    answer: HTTPException
    if fault.kind == FULL:
        answer = NoRoom(f"The server cannot store anything now: {fault.detail}. Nothing of this request was "
                        "kept; try again later.")
    else:
        answer = ServiceUnavailable(f"The server cannot use its database now: {fault.detail}. Nothing of this "
                                    "request was kept; try again in a few seconds.")
        answer.retry_after = UNAVAILABLE_RETRY_SECONDS
        answer.hint = "The server recovers by itself when its database is back."  # type: ignore[attr-defined]
    return _http_error(answer)


def _unexpected(error: Exception) -> tuple[Response | str, int]:
    log.exception("unexpected error on %s %s", request.method, request.path)
    fallback = InternalServerError()
    return error_response(500, fallback.name, "Something went wrong on our side; the error has been logged.")
