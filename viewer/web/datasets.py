"""A dataset's index: its conversations, a window at a time (an indexed range read, so the 100,000th is as quick
to reach as the first), each with its counts and the start of its first user message the default view shows."""
from __future__ import annotations

from typing import cast

from flask import make_response
from werkzeug.wrappers import Response

from viewer.model.words import DEFAULT
from viewer.present.document import conversation_label, conversation_title
from viewer.present.evaluation import evaluation_of, sample_of
from viewer.present.stored import title
from viewer.store import Record
from viewer.web.lookup import get_store, int_arg, reading_of, render_reading, requested_view
from viewer.web.windows import window_size


def dataset_index(record: Record) -> Response:
    """The index page of dataset `record`, at the window holding conversation `?at=`."""
    size = window_size()
    total = record.conversation_count or 0
    at = min(max(int_arg("at") or 0, 0), max(total - 1, 0))
    start = at // size * size
    conversations = get_store().conversations(record.id, start, size)
    # The index shows no message, so it is the same in either view (read as the default view), but for an
    # evaluation's: its debug view adds each score's answer and the grader's explanation.
    evaluation = evaluation_of(record.header)
    reading = reading_of(record, requested_view() if evaluation is not None else DEFAULT)
    response = make_response(render_reading(
        "dataset.html", reading, title=title(record), conversations=conversations, start=start,
        labels={c.conversation: conversation_label(c.header) for c in conversations},
        titles={c.conversation: conversation_title(c.header) for c in conversations},
        evaluation=evaluation, samples={c.conversation: sample_of(c.header, debug=reading.debug)
                                        for c in conversations},
        earlier=max(start - size, 0) if start > 0 else None, next=start + size if start + size < total else None))
    response.vary.add("Cookie")
    return response


def neighbours(record: Record) -> dict[str, int | None]:
    """For a conversation's page: how many its dataset holds, and the numbers before and after it."""
    dataset = get_store().get(record.parent_id) if record.parent_id else None
    total = cast(int, dataset.conversation_count) if dataset is not None else 0  # a dataset counts them
    number = record.conversation or 0
    return {"total": total, "previous": number - 1 if number > 0 else None,
            "next": number + 1 if number + 1 < total else None}

