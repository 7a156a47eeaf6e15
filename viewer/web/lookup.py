"""What every transcript route asks first: which transcript (a 404/410 otherwise, brought up to the current
parser version), which view the reader may have, and the request's arguments, read strictly."""
from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from flask import abort, current_app, request, url_for

from viewer import ingest
from viewer.policy import VIEWS
from viewer.store import Record, Store
from viewer.web import access

POSITION_LIMIT = 2**31


def get_store() -> Store:
    """The current app's store."""
    return current_app.extensions["viewer.store"]


def open_transcript(id: str) -> Record:
    """The stored transcript `id`, parsed by this parser version (claimed and parsed again at most once when
    it was stored by an older one); 404 for no such link, 410 once deleted."""
    if not access.id_is_valid(id):
        abort(404, "No transcript has this link.")
    store = get_store()
    record = store.get(id)
    if record is None:
        abort(404, "No transcript has this link.")
    if record.deleted:
        abort(410, "This transcript was deleted by its uploader or has expired.")
    if record.expired(dt.datetime.now(dt.timezone.utc)):
        store.delete(record.id)  # on first access after expiry, whether or not `prune` has run yet
        abort(410, "This transcript's link has expired, and its content has been deleted.")
    return ingest.current(store, record)


def open_record(id: str, k: int | None = None) -> Record:
    """The transcript `id`, or with `k` conversation k of dataset `id`, carrying the dataset's name and
    permissions (the uploader's key and choice of debug access cover every conversation)."""
    record = open_transcript(id)
    if k is None:
        return record
    conversation = get_store().conversation(record.id, k) if record.is_dataset and k >= 0 else None
    if conversation is None:
        abort(404, "This upload has no conversation with that number.")
    return dataclasses.replace(conversation, name=record.name, debug_allowed=record.debug_allowed,
                               manage_hash=record.manage_hash, is_sample=record.is_sample)


def record_url(endpoint: str, record: Record, **args: Any) -> str:
    """The URL of a page about `record`: `/t/<id>/…`, or `/t/<id>/c/<k>/…` for a conversation of a dataset."""
    if record.conversation is not None:
        args["k"] = record.conversation
    return url_for(endpoint, id=record.owner_id, **args)


def retention() -> dt.timedelta | None:
    """How long a new upload is kept (`RETENTION_DAYS`), or None to keep it until deleted or pruned."""
    days = float(current_app.config["RETENTION_DAYS"] or 0)
    return dt.timedelta(days=days) if days > 0 else None


def chosen_view(record: Record) -> str:
    """The `view` argument, when this reader may have it: the debug view needs the uploader's permission."""
    view = request.args.get("view", "default")
    if view not in VIEWS:
        abort(400, f"Unknown view; choose one of {', '.join(VIEWS)}.")
    if view == "debug":
        require_debug(record)
    return view


def require_debug(record: Record) -> None:
    """403 unless this reader may see what the debug view shows (the uploader's permission, or the uploader)."""
    if not access.can_debug(record):
        abort(403, "The debug view of this transcript shows hidden reasoning and prompts, and the uploader has "
                   "not allowed it for people with the link.")


def require_owner(record: Record) -> None:
    if not access.owns(record):
        abort(403, "Only the uploader can manage this transcript: open the manage link shown at upload.")


def int_arg(name: str) -> int | None:
    """A whole-number argument, or None when absent; 400 for anything else."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        abort(400, f"{name} must be a whole number.")
    # Databases hold 64-bit integers at most; no transcript comes near this.
    return max(min(number, POSITION_LIMIT), -POSITION_LIMIT)


def wants_partial() -> bool:
    """Whether htmx asked for a fragment (a history restore wants the whole page)."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def view_url(record: Record, view: str, **args: Any) -> str:
    if view == "debug":
        args["view"] = "debug"
    return record_url("reading.transcript", record, **args)


def title(record: Record) -> str:
    name = record.name or ("Pasted transcript" if not record.is_sample else record.owner_id)
    if record.conversation is not None:
        return f"{name} · conversation #{record.conversation:,}"
    return name


def counts(record: Record) -> dict[str, int]:
    return {"messages": record.message_count, "hidden": record.hidden_count, "shown": record.visible_count,
            "diagnostics": record.diagnostic_count, "errors": record.error_count, "pairs": record.pair_count}
