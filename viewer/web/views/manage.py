"""The uploader's page: the share panel (the share link, a new manage link, who may open the debug view, revoking
the link for a new one, expiring it now), the secrets found and whether debug-view link holders read them, when
the link expires, and deleting the transcript."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import Conflict
from werkzeug.wrappers import Response

from viewer import ingest
from viewer.store import Record, hash_key
from viewer.web import access, expiry, ownership, spool
from viewer.web.views import personal
from viewer.web.lookup import get_store, open_transcript, require_owner
from viewer.web.views.uploads import store_upload

bp = Blueprint("manage", __name__)


class NotYetRevocable(Conflict):
    """A link is revoked by storing its upload again under a new one: an upload still written or processed
    cannot be, yet."""

    description = "This link cannot be revoked yet: the upload is still being written or processed."
    hint = "Try again once it is finished; meanwhile you can make it expire or delete it."


@bp.get("/t/<id>/manage")
def manage(id: str) -> Response:
    record = open_transcript(id, unfinished=True)  # an upload being processed can be managed, deleted
    key = request.args.get("key")
    if key is not None:
        if not access.key_matches(record, key):
            abort(403, "This manage link is not valid: its key does not match.")
        if not access.adopts_on_open(request):  # another site's link, a HEAD, a prefetch: ask first
            return make_response(render_template("manage_adopt.html", record=record, key=key,
                                                 csrf=access.csrf_token()))
        return _adopted(record)
    require_owner(record)
    findings = get_store().secrets.findings(record.id) if record.secret_count else []
    return make_response(render_template("manage.html", record=record, csrf=access.csrf_token(),
                                         expiries=expiry.LABELS, findings=findings,
                                         personal=personal.section(record),
                                         share_url=url_for("reading.transcript", id=record.id, _external=True)))


@bp.post("/t/<id>/manage/adopt")
def adopt(id: str) -> Response:
    """The confirmation of a manage link opened from another site: the link's key, posted from our own page."""
    record = open_transcript(id, unfinished=True)
    if not access.csrf_valid(request.form.get("csrf")):
        abort(400, "This form has expired; open the manage link again.")
    if not access.key_matches(record, request.form.get("key")):
        abort(403, "This manage link is not valid: its key does not match.")
    return _adopted(record)


def _adopted(record: Record) -> Response:
    ownership.adopt([record.id])
    # Drop the key from the address bar and history; the owner key's cookie now stands for it.
    return redirect(url_for("manage.manage", id=record.id), 303)


@bp.post("/t/<id>/manage")
def manage_action(id: str) -> Response:
    record = open_transcript(id, unfinished=True)
    require_owner(record)
    if not access.csrf_valid(request.form.get("csrf")):
        abort(400, "This form has expired; open the manage page again.")
    action = request.form.get("action")
    store = get_store()
    if action in ("allow-debug", "deny-debug"):
        store.set_debug(record.id, action == "allow-debug")
        flash("People with the link can now open the debug view." if action == "allow-debug"
              else "Only you can open the debug view now.", "notice")
        return _back(record)
    if action in ("unmask-secrets", "mask-secrets"):
        store.secrets.set_unmasked(record.id, action == "unmask-secrets")
        flash("Link holders of the debug view now read the secrets found." if action == "unmask-secrets"
              else "Link holders now see the secrets found masked, in every view.", "notice")
        return _back(record)
    if action == "set-expiry":
        when = expiry.expires_at(request.form.get("expires"), dt.datetime.now(dt.timezone.utc))
        store.set_expiry(record.id, when)
        flash(f"The link now expires on {when:%Y-%m-%d %H:%M} UTC." if when else "The link no longer expires.",
              "notice")
        return _back(record)
    if action == "new-manage-link":
        key = access.new_key()
        store.set_manage_hash(record.id, hash_key(key))
        flash(url_for("manage.manage", id=record.id, key=key, _external=True), "manage")
        flash("Here is a new manage link: the one you had before no longer works.", "notice")
        return _back(record)
    if action == "revoke":
        return _revoke(record)
    if action == "expire-now":
        store.set_expiry(record.id, dt.datetime.now(dt.timezone.utc))
        store.delete(record.id)  # what expiry does on the link's next use, done now
        flash("The link has expired: it answers “gone” from now on, and the transcript's content is deleted.",
              "notice")
        return redirect(url_for("uploads.home"), 303)
    if action == "delete":
        if request.form.get("confirm") != "yes":
            abort(400, "Tick the box to confirm the deletion.")
        store.delete(record.id)
        flash("The transcript was deleted; its link no longer opens it.", "notice")
        return redirect(url_for("uploads.home"), 303)
    abort(400, "Unknown action.")


def _back(record: Record) -> Response:
    return redirect(url_for("manage.manage", id=record.id) + "#share", 303)


def _revoke(record: Record) -> Response:
    """The link stops working (410, as a deleted one) and a new one is made: the upload is stored again, from its
    bytes as sent, under a new share id and manage key, with its settings and in every owner's list."""
    if not record.ready or record.live == "open":
        raise NotYetRevocable()
    store = get_store()
    body = spool.new_spool()
    for chunk in store.raw_stream(record.id) or ():
        body.write(chunk)
    body.seek(0)
    new, key = store_upload(body, record.requested_dialect, debug_allowed=record.debug_allowed, name=record.name,
                            keep_for=None)
    store.set_expiry(new.id, record.expires_at)
    if record.secrets_unmasked:
        store.secrets.set_unmasked(new.id, True)
    if store.personal.copy_choices(record.id, new.id) and new.ready:
        # Stored before the choices were copied: parsed again with them before anyone has its link, so that
        # what the uploader released, showed or redacted reads the same under the new link.
        new = ingest.reparse(store, new)
    store.owners.hand_over(record.id, new.id)
    ownership.adopt([new.id])
    store.delete(record.id)
    flash(url_for("manage.manage", id=new.id, key=key, _external=True), "manage")
    flash("The old link no longer works (it answers “gone”). Share the new one below; the transcript and its "
          "settings are kept.", "notice")
    return _back(new)
