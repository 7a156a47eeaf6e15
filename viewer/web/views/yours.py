"""Your transcripts: the uploads this browser's owner key holds (viewer/web/ownership.py), newest first and
windowed, with what the manage page does for one (debug access, expiry, delete) done for one or a selection, and
a search across all of them. Without an owner key the page is the same empty list anyone would see: nobody but
the owner can tell whether a list exists. Every POST passes the app's cross-site check and carries the CSRF
token."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from viewer.model.words import DEBUG, View
from viewer.store import Record, hash_key
from viewer.store import search as store_search
from viewer.store.owner_search import Group
from viewer.web import access, expiry, ownership
from viewer.web.lookup import get_store, int_arg, requested_view, view_arg
from viewer.web.views.search import Found, found_at

bp = Blueprint("yours", __name__)

PAGE_SIZE = 50
"""Uploads a window of the list shows."""
GROUPS = 20
"""Uploads a window of search results shows."""
PER_GROUP = 3
"""Matches shown of each upload; its own search page lists them all."""
ACTIONS = ("allow-debug", "deny-debug", "set-expiry", "delete")


@dataclass(frozen=True, slots=True)
class Matches:
    """One upload's matches as the results list them."""

    record: Record
    group: Group
    found: list[Found]
    search_url: str
    """Its own search page, with every match."""


@bp.get("/transcripts")
def listing() -> Response:
    owner_hash = ownership.current_hash()
    start = max(int_arg("start") or 0, 0)
    store = get_store()
    records = store.owners.window(owner_hash, start, PAGE_SIZE) if owner_hash else []
    total = store.owners.count(owner_hash) if owner_hash else 0
    return _private(render_template("yours.html", records=records, total=total, start=start, page_size=PAGE_SIZE,
                                    csrf=access.csrf_token(), expiries=expiry.LABELS, header=ownership.HEADER))


@bp.post("/transcripts/actions")
def act() -> Response:
    if not access.csrf_valid(request.form.get("csrf")):
        abort(400, "This form has expired; open your transcripts again.")
    action = request.form.get("action")
    if action not in ACTIONS:
        abort(400, "Unknown action.")
    ids = list(dict.fromkeys(request.form.getlist("id")))
    if not ids:
        abort(400, "Tick the transcripts to act on first.")
    owner_hash = ownership.current_hash()
    # One answer for an id that is not this browser's, whether or not it exists: the list leaks nothing.
    if owner_hash is None or len(ids) > PAGE_SIZE or get_store().owners.owned(owner_hash, ids) != set(ids):
        abort(403, "Only transcripts in this browser's list can be changed here.")
    if action == "delete" and request.form.get("confirm") != "yes":
        records = get_store().owners.records(ids)
        return _private(render_template("yours_delete.html", records=records, csrf=access.csrf_token()))
    flash(_apply(action, ids), "notice")
    return redirect(url_for("yours.listing"), 303)


def _apply(action: str, ids: list[str]) -> str:
    """Do `action` to uploads `ids`; what to tell the owner."""
    store, some = get_store(), _count(len(ids))
    if action in ("allow-debug", "deny-debug"):
        for id in ids:
            store.set_debug(id, action == "allow-debug")
        return (f"People with the link can now open the debug view of {some}." if action == "allow-debug"
                else f"Only you can open the debug view of {some} now.")
    if action == "set-expiry":
        when = expiry.expires_at(request.form.get("expires"), dt.datetime.now(dt.timezone.utc))
        for id in ids:
            store.set_expiry(id, when)
        return (f"The link of {some} now expires on {when:%Y-%m-%d %H:%M} UTC." if when
                else f"The link of {some} no longer expires.")
    for id in ids:
        store.delete(id)
    return f"Deleted {some}; {'its link no longer opens it' if len(ids) == 1 else 'their links no longer open them'}."


def _count(number: int) -> str:
    return "this transcript" if number == 1 else f"{number:,} transcripts"


@bp.post("/transcripts/key")
def take_key() -> Response:
    """Take on a tool's owner key (the one its API uploads name in `ownership.HEADER`): this browser's list joins
    that key's, and the browser holds that key from now on."""
    if not access.csrf_valid(request.form.get("csrf")):
        abort(400, "This form has expired; open your transcripts again.")
    key = (request.form.get("owner_key") or "").strip()
    if not ownership.KEY_SHAPE.fullmatch(key):
        abort(400, "An owner key is 32 to 128 letters, digits, '-' or '_': the one your tool sends in "
                   f"{ownership.HEADER}.")
    current = ownership.current_hash()
    if current is not None:
        get_store().owners.merge(current, hash_key(key))
    ownership.use_key(key)
    flash("This browser now lists the uploads made with that owner key, and its own.", "notice")
    return redirect(url_for("yours.listing"), 303)


@bp.get("/transcripts/search")
def search() -> Response:
    raw, view = request.args.get("q"), requested_view()
    before = int_arg("before")
    query, matches, next_before = None, [], None
    if raw is not None:
        try:
            query = store_search.parse_query(raw)
        except store_search.BadQuery as error:
            abort(400, str(error))
        owner_hash = ownership.current_hash()
        if owner_hash is not None:  # the owner may search the debug view of every upload of theirs
            store = get_store()
            found = store.owner_search.find(store.owners.blocks(owner_hash), query, view, before=before,
                                            groups=GROUPS, per_group=PER_GROUP)
            matches, next_before = _matches(found.groups, query, view, raw), found.next_before
    return _private(render_template("yours_search.html", q=raw or "", query=query, view=view, debug=view == DEBUG,
                                    view_arg=view_arg(view), matches=matches, before=before,
                                    next_before=next_before))


def _matches(groups: tuple[Group, ...], query: store_search.Query, view: View, raw: str) -> list[Matches]:
    debug_arg = view_arg(view)
    records = {record.id: record for record in get_store().owners.records([group.upload_id for group in groups])}
    now, made = dt.datetime.now(dt.timezone.utc), []
    for group in groups:
        record = records.get(group.upload_id)
        if record is None or record.deleted or record.expired(now):  # deleted since, or expired and not pruned
            continue
        found = [_found(record, hit, query, debug_arg) for hit in group.hits]
        made.append(Matches(record, group, found, url_for("search.search", id=record.id, q=raw, view=debug_arg)))
    return made


def _found(record: Record, hit: store_search.Hit, query: store_search.Query, view_arg: str | None) -> Found:
    url = url_for("reading.transcript", id=record.id, k=hit.conversation, at=hit.index, view=view_arg)
    return found_at(hit, query, url, view_arg is not None)


def _private(html: str) -> Response:
    """A page that differs per owner key."""
    response = make_response(html)
    response.vary.add("Cookie")
    return response
