"""The uploader's page: allow or deny the debug view for link holders, review the secrets found and whether
debug-view link holders read them, choose when the link expires, or delete the transcript."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from viewer.store import Record
from viewer.web import access, expiry, ownership
from viewer.web.views import personal
from viewer.web.lookup import get_store, open_transcript, require_owner

bp = Blueprint("manage", __name__)


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
        return redirect(url_for("manage.manage", id=record.id), 303)
    if action in ("unmask-secrets", "mask-secrets"):
        store.secrets.set_unmasked(record.id, action == "unmask-secrets")
        flash("Link holders of the debug view now read the secrets found." if action == "unmask-secrets"
              else "Link holders now see the secrets found masked, in every view.", "notice")
        return redirect(url_for("manage.manage", id=record.id), 303)
    if action == "set-expiry":
        when = expiry.expires_at(request.form.get("expires"), dt.datetime.now(dt.timezone.utc))
        store.set_expiry(record.id, when)
        flash(f"The link now expires on {when:%Y-%m-%d %H:%M} UTC." if when else "The link no longer expires.",
              "notice")
        return redirect(url_for("manage.manage", id=record.id), 303)
    if action == "delete":
        if request.form.get("confirm") != "yes":
            abort(400, "Tick the box to confirm the deletion.")
        store.delete(record.id)
        flash("The transcript was deleted; its link no longer opens it.", "notice")
        return redirect(url_for("uploads.home"), 303)
    abort(400, "Unknown action.")
