"""What the model saw: the sampling context of an assistant message (viewer/context), as the list of earlier
messages kept and dropped by the dialect's rule, and as the exact text the dialect's writer gives the model.
It holds hidden content, so it is read as the debug view is, with the same decision."""
from __future__ import annotations

from itertools import islice

from flask import Blueprint, abort, make_response
from werkzeug.wrappers import Response

from viewer.context import NotSampled, sampling_context
from viewer.context.text import exact_text
from viewer.model.branches import FORKS_KEY, forks_in
from viewer.model.words import DEBUG
from viewer.present.stored import title
from viewer.tokens import counting
from viewer.web.lookup import get_store, open_record, reading_of, render_reading

bp = Blueprint("context", __name__)

PREVIEW_CHARS = 280
"""Characters of each message shown in the list (the exact text below holds them all)."""


@bp.get("/t/<id>/context/<int:index>")
@bp.get("/t/<id>/c/<int:k>/context/<int:index>")  # registered first, so url_for with `k` builds this rule
def context(id: str, index: int, k: int | None = None) -> Response:
    record = open_record(id, k)
    if record.is_dataset:
        abort(404, "A dataset has no messages of its own: open one of its conversations first.")
    reading = reading_of(record, DEBUG)
    if index >= record.message_count:
        abort(404, f"This transcript has no message #{index}: it has {record.message_count:,} messages.")
    entries = get_store().iter_entries(record.id, DEBUG, unmasked=reading.unmasked)
    messages = [entry.message for entry in islice(entries, index + 1)]
    try:
        found = sampling_context(messages, record.dialect, index, forks_in(record.header))
    except NotSampled as error:
        abort(404, str(error))
    # The forks are the viewer's record of the tree, not part of any header the model read.
    text = exact_text(found, record.dialect, {k: v for k, v in record.header.items() if k != FORKS_KEY})
    counts = counting.count(found, text, record.dialect)
    response = make_response(render_reading("context.html", reading, context=found, text=text, counts=counts,
                                            title=title(record), preview_chars=PREVIEW_CHARS))
    response.vary.add("Cookie")
    return response
