"""What a body must be to be taken in, checked in one place for every way in: an upload through the API, a live
upload (which may start empty) and an append to it. The upload form reads its file or pasted text itself (a
form is multipart by nature), then has the same check of its bytes."""
from __future__ import annotations

from dataclasses import dataclass

from flask import abort, request

from viewer.web import sniff


@dataclass(frozen=True, slots=True)
class Admission:
    """The refusals of one way in."""

    multipart: str
    """Why a multipart form is refused: stored, its boundaries and field headers would read as the transcript."""
    empty: str | None
    """Why an empty body is refused, or None when it is taken (a live upload may start empty)."""
    blank_is_empty: bool = True
    """Whether white space alone counts as empty (not for an append: a line break may end a line of events)."""


_UPLOAD_MULTIPART = ("Send the transcript itself as the request body (curl --data-binary @file), not as a multipart "
                     "form; forms go to POST /transcripts.")
EMPTY_UPLOAD = "The transcript is empty: choose a file or paste some text."
UPLOAD = Admission(_UPLOAD_MULTIPART, EMPTY_UPLOAD)
LIVE_UPLOAD = Admission(_UPLOAD_MULTIPART, None)
APPEND = Admission("Send the text itself as the request body (curl --data-binary @file), not a multipart form.",
                   "Nothing to append: send the text as the request body.", blank_is_empty=False)


def admitted_body(admission: Admission) -> bytes:
    """The request's body, once admitted (415 for a multipart form or binary data, 400 when empty)."""
    # `curl --data-binary` labels a raw body application/x-www-form-urlencoded, so only multipart is refused.
    if request.mimetype == "multipart/form-data":
        abort(415, admission.multipart)
    return admitted(request.get_data(cache=False), admission)


def admitted(data: bytes, admission: Admission) -> bytes:
    """`data`, unless it is empty where that is refused (400) or looks binary (415)."""
    empty = not (data.strip() if admission.blank_is_empty else data)
    if empty and admission.empty is not None:
        abort(400, admission.empty)
    reason = sniff.binary_reason(data)
    if reason is not None:
        abort(415, reason)
    return data
