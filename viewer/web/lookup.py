"""What every transcript route asks first, answered once per request: which transcript (a 404/410 otherwise,
brought up to the current parser version), which view this reader asked for and may have, and what else this
reader may do (a `Reading`); and the request's arguments, read strictly. Views and templates read the
`Reading` and build their URLs from it; none decides again whether a reader may see the debug view."""
from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, render_template, request, url_for
from markupsafe import Markup
from werkzeug.exceptions import Conflict, Forbidden

from viewer import ingest
from viewer.model.words import DEBUG, DEFAULT, VIEWS, View, is_view
from viewer.store import Record, Store
from viewer.store.processing import PROCESSING
from viewer.web import access
from viewer.web.branching import (BRANCH_ARG, Branches, Switch, Versions, branches_of, offers_versions,
                                  requested_branch, switch_for, versions_at)

POSITION_LIMIT = 2**31
PROCESSING_RETRY_SECONDS = 2
"""The Retry-After of a route of an upload still being processed."""


def get_store() -> Store:
    """The current app's store."""
    return current_app.extensions["viewer.store"]


class StillProcessing(Conflict):
    """The upload is stored but not processed yet: its page shows progress, every other route says this."""

    retry_after = PROCESSING_RETRY_SECONDS
    description = "This upload is still being processed: nothing of it can be read yet. Ask again in a moment."
    hint = "Its page shows how far it got, and becomes the transcript as soon as it is stored."


class ProcessingFailed(Conflict):
    """The upload is stored but could not be processed: its page says so."""

    description = "This upload could not be processed, so nothing of it can be read."
    hint = "Its page says what went wrong; its uploader can still download the file as sent."


def open_transcript(id: str, *, unfinished: bool = False) -> Record:
    """The stored transcript `id`, parsed by this parser version (claimed and parsed again at most once when
    it was stored by an older one); 404 for no such link, 410 once deleted. An upload not processed yet (or
    whose processing failed) is 409 (`StillProcessing`, `ProcessingFailed`), or with `unfinished` its record,
    for the routes that show it as it is: its page, its manage page, its raw bytes."""
    if not access.id_is_valid(id):
        abort(404, "No transcript has this link.")
    store = get_store()
    record = store.get(id)
    if record is None:
        abort(404, "No transcript has this link.")
    if record.deleted:
        abort(410, "This link no longer works: its uploader deleted the transcript or revoked the link, or it expired.")
    if record.expired(dt.datetime.now(dt.timezone.utc)):
        store.delete(record.id)  # on first access after expiry, whether or not `prune` has run yet
        abort(410, "This transcript's link has expired, and its content has been deleted.")
    if not record.ready:
        if unfinished:
            return record
        raise StillProcessing() if record.state == PROCESSING else ProcessingFailed()
    return ingest.up_to_date(store, record)


def open_record(id: str, k: int | None = None, *, unfinished: bool = False) -> Record:
    """The transcript `id`, or with `k` conversation k of dataset `id`, carrying the dataset's name and
    permissions (the uploader's key and choice of debug access cover every conversation). With `unfinished`,
    an upload not processed yet is its own record, whatever `k` (`open_transcript`)."""
    record = open_transcript(id, unfinished=unfinished)
    if k is None or not record.ready:
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


@dataclass(frozen=True, slots=True)
class Reading:
    """One reader's reading of one transcript, resolved once per request."""

    record: Record
    view: View
    """The view asked for (`default` or `debug`), already allowed to this reader."""
    may_debug: bool
    """Whether this reader may open the debug view: the uploader's permission, or the uploader."""
    owner: bool
    """Whether this browser uploaded (or manages) the transcript."""
    unmasked: bool
    """Whether this reader reads the secrets found rather than their placeholders."""
    branches: Branches | None = None
    """In the debug view of a conversation with forks, and in the default view of one whose app showed version
    switchers: the branches this reading follows (`?branch=N` chooses those leading to message N)."""

    @property
    def debug(self) -> bool:
        return self.view == DEBUG

    @property
    def view_arg(self) -> View | None:
        """The `view` argument of this view's URLs (none for the default view)."""
        return DEBUG if self.debug else None

    @property
    def branch(self) -> int | None:
        """The message whose branches this reading follows, when the reader chose one."""
        return self.branches.chosen if self.branches is not None else None

    @property
    def aside(self) -> frozenset[int]:
        """The messages the branches the reader chose leave aside (none when the reader chose none)."""
        return self.branches.aside if self.branches is not None and self.branches.chosen is not None else frozenset()

    def url(self, endpoint: str, **args: Any) -> str:
        """The URL of a page about this transcript, in this view (and, for its reading pages, on the branch
        chosen: the exports and the search read every branch the view has)."""
        if endpoint.startswith("reading."):
            args = {BRANCH_ARG: self.branch, **args}
        return record_url(endpoint, self.record, view=self.view_arg, **args)

    def view_url(self, view: View) -> str:
        """The URL of this page in `view` (the view switch's links), on the branch chosen when that view takes
        a choice."""
        takes = view == DEBUG or (self.branches is not None and offers_versions(self.record))
        return record_url("reading.transcript", self.record, view=view_arg(view),
                          **{BRANCH_ARG: self.branch if takes else None})

    def page_url(self, **args: Any) -> str:
        """The URL of this view's page (the view named last, as redirects have always written it)."""
        return record_url("reading.transcript", self.record, **{BRANCH_ARG: self.branch, **args},
                          view=self.view_arg)

    @property
    def links(self) -> PageLinks:
        return PageLinks(self.record, self.branches if self.debug else None,
                         self.branches if not self.debug else None)


@dataclass(frozen=True, slots=True)
class PageLinks:
    """What the card macros link to on a page (viewer/present/links.py): the server's URLs of each view."""

    record: Record
    branches: Branches | None = None
    """The debug view's branches (a switcher on each branch's first message)."""
    versions_of: Branches | None = None
    """The default view's branches, where the app showed version switchers."""
    interactive = True
    hx_disable = Markup(" hx-disable")
    shows_images = True

    def switch(self, index: int, role: str) -> Switch | None:
        """The branch switcher of message `index`, in the debug view of a conversation with forks."""
        return switch_for(self.branches, self.record, index, role) if self.branches is not None else None

    def versions(self, index: int, role: str, previous: int | None) -> list[Versions]:
        """The default view's "‹ 1/2 ›" switchers drawn on shown message `index`, the first after `previous`."""
        return versions_at(self.versions_of, self.record, index, role, previous) if self.versions_of else []

    def anchor_id(self, index: int) -> str:
        return f"m-{index}"

    def place(self, index: int, view: View) -> str:
        return record_url("reading.transcript", self.record, view=view_arg(view), at=index) + f"#m-{index}"

    def message_url(self, index: int, view: View, part: str | None = None) -> str:
        return record_url("reading.message", self.record, index=index, view=view_arg(view), part=part)

    def context_url(self, index: int) -> str:
        return record_url("context.context", self.record, index=index)

    def media_url(self, sha256: str, view: View, size: str | None = None) -> str:
        return record_url("media.image", self.record, sha256=sha256, view=view_arg(view), size=size)


def view_arg(view: View) -> View | None:
    """The `view` argument of a URL of `view` (none for the default view)."""
    return DEBUG if view == DEBUG else None


def render_reading(template: str, reading: Reading, **context: Any) -> str:
    """`template` drawn for `reading`: with the reading itself, and its record, view and card links by name."""
    return render_template(template, reading=reading, record=reading.record, view=reading.view,
                           links=reading.links, **context)


def open_reading(id: str, k: int | None = None, *, unfinished: bool = False) -> Reading:
    """The transcript `id` (or conversation `k` of dataset `id`) in the view the request asks for: 400 for an
    unknown view, 403 for the debug view unless this reader may have it. `unfinished`: as `open_transcript`."""
    return reading_of(open_record(id, k, unfinished=unfinished), requested_view())


def requested_view() -> View:
    """The `view` argument (the default view when absent); 400 for an unknown view."""
    view = request.args.get("view", DEFAULT)
    if not is_view(view):
        abort(400, f"Unknown view; choose one of {', '.join(VIEWS)}.")
    return view


DEBUG_REFUSAL = ("The debug view of this transcript shows hidden reasoning and prompts, and the uploader has not "
                 "allowed it for people with the link.")


class DebugRefused(Forbidden):
    """The debug view refused to a link holder: the error page leads back to the view they may read."""

    def __init__(self, description: str, back: str) -> None:
        super().__init__(description)
        self.back = back
        self.back_text = "Back to the transcript"


def reading_of(record: Record, view: View, *, refusal: str = DEBUG_REFUSAL) -> Reading:
    """`record` read in `view` by this reader; 403 (saying `refusal`, with a way back to the default view) for the
    debug view unless this reader may have it."""
    reading = reread(record, view)
    if reading is None:
        raise DebugRefused(refusal, record_url("reading.transcript", record))
    return reading


def reread(record: Record, view: View) -> Reading | None:
    """`record` (perhaps as stored a moment ago) read in `view` by this reader, or None when the reader may not
    have that view: for a stream that reads a transcript again as it changes."""
    may_debug = access.can_debug(record)
    if view == DEBUG and not may_debug:
        return None
    takes = view == DEBUG or offers_versions(record)
    branches = branches_of(record, get_store(), requested_branch(record, True)) if takes else None
    return Reading(record, view, may_debug, access.owns(record), access.reads_secrets(record, view), branches)


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
