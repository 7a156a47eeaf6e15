"""What a body must be to be taken in, checked in one place for every way in: an upload through the API, a live
upload (which may start empty) and an append to it. Every body arrives as a spool file (viewer/web/spool.py),
never whole in memory; the upload form takes its file or pasted text as one itself (a form is multipart by
nature), then has the same check of its spool."""
from __future__ import annotations

from dataclasses import dataclass
from typing import BinaryIO

from flask import abort, request

from viewer.bundles.check import refusal
from viewer.ingest import binary
from viewer.web import spool


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


def admitted_body(admission: Admission) -> BinaryIO:
    """The request's body in a spool file, once admitted (415 for a multipart form or binary data, 400 when empty,
    413 over the size limit)."""
    # `curl --data-binary` labels a raw body application/x-www-form-urlencoded, so only multipart is refused.
    if request.mimetype == "multipart/form-data":
        abort(415, admission.multipart)
    return admitted(spool.spooled_body(), admission)


def admitted(body: BinaryIO, admission: Admission) -> BinaryIO:
    """`body` (a spool file, left at its start), unless it is empty where that is refused (400), looks binary
    (415), or is an archive or a database that cannot be read (400) or is over its bounds (413)."""
    if admission.empty is not None and spool.is_blank(body, whitespace_counts=admission.blank_is_empty):
        abort(400, admission.empty)
    reason = binary.binary_reason(spool.head(body, binary.SNIFF_BYTES))
    if reason is not None:
        abort(415, reason)
    refused = refusal(body)
    if refused is not None:
        abort(413 if refused.too_big else 400, refused.message)
    return body
