"""The uploader's choices about personal data and redactions: on the manage page (its own section, posted here)
and the redaction page of a message, and the same through the API. Every choice is applied by parsing the upload
again with all of them (viewer/ingest/masking.py), so that link holders' rows, search index and raw text are
made as for a secret, and undoing a choice is parsing again without it."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, jsonify, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from viewer import ingest
from viewer.secrets.personal.kinds import FOUND, KINDS, name, placeholder
from viewer.store import Record
from viewer.policy.personal import PersonalFinding, Redaction
from viewer.web import access
from viewer.web.lookup import get_store, open_transcript, require_owner

bp = Blueprint("personal", __name__)

TEXT_LIMIT = 10_000
"""The longest passage redacted by its text (a whole message has no limit)."""


# ---- the manage page's section and the redaction page ------------------------------------------------------

@bp.post("/t/<id>/manage/personal")
def choose(id: str) -> Response:
    """One choice from the manage page's personal data section."""
    record = _owned_form(id)
    action = request.form.get("action", "")
    store = get_store()
    if action in ("release", "mask"):
        found = _finding(record, request.form.get("finding"))
        store.personal.release(record.id, found.kind, found.value, action == "release")
        flash(f"People with the link now read this {name(found.kind)} as written." if action == "release"
              else f"People with the link now read {KINDS[found.kind].placeholder} for this {name(found.kind)}.",
              "notice")
    elif action in ("show-kind", "mask-kind"):
        kind = _kind(request.form.get("kind"))
        store.personal.show(record.id, kind, action == "show-kind")
        flash(f"People with the link now read every {name(kind)} as written." if action == "show-kind"
              else f"People with the link now read a placeholder for every {name(kind)}.", "notice")
    elif action == "undo-redaction":
        if not store.personal.undo(record.id, _number(request.form.get("redaction"))):
            abort(404, "There is no such redaction.")
        flash("The redaction was undone: people with the link read that text again.", "notice")
    else:
        abort(400, "Unknown action.")
    _apply(record)
    return redirect(url_for("manage.manage", id=record.id) + "#personal-data", 303)


@bp.get("/t/<id>/manage/redact")
def redaction_page(id: str) -> Response:
    """A message's text as written, to redact all of it or a passage chosen in it."""
    record = _owned(id)
    conversation, index = _place(request.args)
    text = _message_text(record, conversation, index)
    redactions = [redaction for redaction in get_store().personal.choices(record.id).redactions
                  if (redaction.conversation, redaction.message_index) == (conversation, index)]
    return make_response(render_template("redact.html", record=record, csrf=access.csrf_token(), index=index,
                                         conversation=conversation, text=text, redactions=redactions))


@bp.post("/t/<id>/manage/redact")
def redact(id: str) -> Response:
    """Redact a message, or a passage of its text, for link holders."""
    record = _owned_form(id)
    conversation, index = _place(request.form)
    whole = request.form.get("action") == "redact-message"
    _redact(record, conversation, index, None if whole else request.form.get("text", ""))
    flash(f"Message #{index} is redacted for people with the link." if whole else
          f"The passage is redacted for people with the link, in message #{index} and wherever else it is written.",
          "notice")
    return redirect(url_for("personal.redaction_page", id=record.id, at=index, k=conversation), 303)


# ---- the API ---------------------------------------------------------------------------------------------

@bp.get("/api/transcripts/<id>/personal")
def api_listing(id: str) -> Response:
    """The personal data found, the kinds shown and the redactions, for the uploader."""
    record = _api_owned(id)
    return jsonify(_listing(record))


@bp.post("/api/transcripts/<id>/personal/<int:number>/release")
@bp.delete("/api/transcripts/<id>/personal/<int:number>/release")
def api_release(id: str, number: int) -> Response:
    """Release a finding's value to link holders (POST), or mask it again (DELETE)."""
    record = _api_owned(id)
    found = _finding(record, str(number))
    get_store().personal.release(record.id, found.kind, found.value, request.method == "POST")
    return jsonify(_listing(_apply(record)))


@bp.post("/api/transcripts/<id>/personal/kinds/<kind>")
@bp.delete("/api/transcripts/<id>/personal/kinds/<kind>")
def api_show_kind(id: str, kind: str) -> Response:
    """Let link holders read every value of a kind (POST), or mask them again (DELETE)."""
    record = _api_owned(id)
    get_store().personal.show(record.id, _kind(kind), request.method == "POST")
    return jsonify(_listing(_apply(record)))


@bp.post("/api/transcripts/<id>/redactions")
def api_redact(id: str) -> tuple[Response, int]:
    """Redact `{"message": N, "conversation": k?, "text": "…"?}` (no text: the whole message) for link holders."""
    record = _api_owned(id)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, 'Send a JSON object: {"message": N, "text": "the passage"} (without "text": the whole message).')
    conversation, index = _place({"k": body.get("conversation"), "at": body.get("message")})
    text = body.get("text")
    if text is not None and not isinstance(text, str):
        abort(400, '"text" must be a string.')
    number = _redact(record, conversation, index, text)
    return jsonify({"number": number, **_listing(get_store().get(record.id) or record)}), 201


@bp.delete("/api/transcripts/<id>/redactions/<int:number>")
def api_undo(id: str, number: int) -> Response:
    record = _api_owned(id)
    if not get_store().personal.undo(record.id, number):
        abort(404, "There is no such redaction.")
    return jsonify(_listing(_apply(record)))


# ---- shared -----------------------------------------------------------------------------------------------

def section(record: Record) -> dict[str, Any]:
    """What the manage page's personal data section shows (templates/_personal_data.html)."""
    store = get_store()
    choices = store.personal.choices(record.id)
    findings = store.personal.findings(record.id) if record.ready else []
    return {"choices": choices, "findings": findings, "kinds": KINDS, "placeholder": placeholder,
            "kinds_found": sorted({found.kind for found in findings} | set(choices.shown), key=list(KINDS).index)}


def _redact(record: Record, conversation: int | None, index: int, text: str | None) -> int:
    """Keep a redaction and apply it; its number. 400 for a passage not in the message's text."""
    written = _message_text(record, conversation, index)
    if text is not None:
        if not text.strip():
            abort(400, "Choose the text to redact (select it in the message), or redact the whole message.")
        if len(text) > TEXT_LIMIT:
            abort(400, f"A passage is at most {TEXT_LIMIT:,} characters; redact the whole message instead.")
        if text not in written:
            abort(400, f"That text is not in message #{index}: select it in the message's text as shown.")
    number = get_store().personal.redact(record.id, conversation, index, text)
    _apply(record)
    return number


def _apply(record: Record) -> Record:
    """Parse the upload again with every choice, so that link holders read it as chosen."""
    if not record.ready:
        abort(409, "This upload is still being processed; choose again once it is readable.")
    return ingest.reparse(get_store(), record)


def _message_text(record: Record, conversation: int | None, index: int) -> str:
    """A message's text as written (the uploader's), or 404."""
    store = get_store()
    holder = record
    if conversation is not None:
        found = store.conversation(record.id, conversation) if record.is_dataset else None
        if found is None:
            abort(404, "This upload has no conversation with that number.")
        holder = found
    elif record.is_dataset:
        abort(400, "This upload is a dataset: say which conversation (k).")
    entry = store.entry(holder.id, index, unmasked=True)
    if entry is None:
        abort(404, "This transcript has no message with that number.")
    return entry.message.content


def _listing(record: Record) -> dict[str, Any]:
    store = get_store()
    choices = store.personal.choices(record.id)
    return {"detecting": choices.detect, "masked": record.personal_kinds,
            "findings": [_finding_json(found) for found in store.personal.findings(record.id)],
            "shown_kinds": sorted(choices.shown), "redactions": [_redaction_json(item) for item in choices.redactions]}


def _finding_json(found: PersonalFinding) -> dict[str, Any]:
    return {"number": found.number, "kind": found.kind, "name": name(found.kind), "value": found.value,
            "state": found.state, "places": found.places, "conversation": found.conversation,
            "message": found.message_index, "line": found.line, "column": found.column}


def _redaction_json(redaction: Redaction) -> dict[str, Any]:
    return {"number": redaction.number, "conversation": redaction.conversation, "message": redaction.message_index,
            "text": redaction.text, "whole_message": redaction.text is None}


def _finding(record: Record, number: str | None) -> PersonalFinding:
    found = get_store().personal.finding(record.id, _number(number))
    if found is None:
        abort(404, "There is no such finding (the upload may have been parsed again: reload the manage page).")
    return found


def _kind(kind: str | None) -> str:
    if kind not in FOUND:
        abort(400, f"Unknown kind of personal data; choose one of {', '.join(FOUND)}.")
    return kind


def _number(value: Any) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        abort(400, "A number is missing or is not a whole number.")
    if not 0 <= number < 2**31:
        abort(400, "No item has that number.")
    return number


def _place(values: Any) -> tuple[int | None, int]:
    """The conversation (`k`, a dataset's) and message (`at`) asked for."""
    conversation = values.get("k")
    return (None if conversation in (None, "") else _number(conversation)), _number(values.get("at"))


def _owned(id: str) -> Record:
    record = open_transcript(id)
    require_owner(record)
    return record


def _owned_form(id: str) -> Record:
    record = _owned(id)
    if not access.csrf_valid(request.form.get("csrf")):
        abort(400, "This form has expired; open the manage page again.")
    return record


def _api_owned(id: str) -> Record:
    """The upload, for its uploader: the manage key (`?key=…`) or the owner key (cookie or `X-Owner-Key`)."""
    record = open_transcript(id)
    if not (access.key_matches(record, request.args.get("key")) or access.owns(record)):
        abort(403, "Only the uploader can change what link holders read: send the manage key given at upload "
                   "(?key=…).")
    return record



