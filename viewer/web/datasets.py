"""A dataset's index: its conversations, a window at a time (an indexed range read, so the 100,000th is as quick
to reach as the first), each with its counts and the start of its first user message the default view shows."""
from __future__ import annotations

from flask import make_response, render_template
from werkzeug.wrappers import Response

from viewer.store import Record
from viewer.web import access
from viewer.web.lookup import get_store, int_arg, title
from viewer.web.windows import window_size


def dataset_index(record: Record) -> Response:
    """The index page of dataset `record`, at the window holding conversation `?at=`."""
    size = window_size()
    total = record.conversation_count or 0
    at = min(max(int_arg("at") or 0, 0), max(total - 1, 0))
    start = at // size * size
    conversations = get_store().conversations(record.id, start, size)
    response = make_response(render_template(
        "dataset.html", record=record, title=title(record), conversations=conversations, start=start,
        labels={c.conversation: label(c.header) for c in conversations},
        earlier=max(start - size, 0) if start > 0 else None,
        next=start + size if start + size < total else None, can_debug=access.can_debug(record),
        owner=access.owns(record)))
    response.vary.add("Cookie")
    return response


def neighbours(record: Record) -> dict[str, int | None]:
    """For a conversation's page: how many its dataset holds, and the numbers before and after it."""
    dataset = get_store().get(record.parent_id) if record.parent_id else None
    total = dataset.conversation_count if dataset is not None else 0
    number = record.conversation or 0
    return {"total": total, "previous": number - 1 if number > 0 else None,
            "next": number + 1 if number + 1 < total else None}


def label(header: dict) -> str | None:
    """What names a conversation in its dataset's index besides its number: a batch line's `custom_id`."""
    custom_id = header.get("custom_id")
    return custom_id if isinstance(custom_id, str) and custom_id else None
