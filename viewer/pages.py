"""A stored transcript's pages: the views (full page or htmx partial), windows, JSON twin, raw bytes, manage.

Filtering happens here, never in templates: the default view reads only rows the policy shows.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from io import BytesIO
from typing import Any, Iterable, Iterator

from flask import (Blueprint, abort, current_app, flash, make_response, redirect, render_template, request,
                   send_file, url_for)
from werkzeug.wrappers import Response

from viewer import access, entries, policy, render
from viewer.model import SCHEMA
from viewer.parse import PARSER_VERSION
from viewer.store import Entry, Record, Store, get_store

bp = Blueprint("pages", __name__)

VIEWS = policy.VIEWS
DIAGNOSTICS_PANEL_LIMIT = 200
POSITION_LIMIT = 2**31
SHOWN_IN_FULL = ("message", "preamble")
"""The default view's treatments that show a body; markers and hidden messages never do."""
PART_CHARS = 200_000
"""Characters of a long body or source sent per answer of the message endpoint."""


@dataclass(frozen=True, slots=True)
class Window:
    """One window of a view: its cards and where the windows before and after it start."""

    view: str
    cards: list[entries.Card]
    start: int
    earlier: tuple[int, int] | None
    """(window position, first message index) of the previous window, if any."""
    next: tuple[int, int] | None
    """(window position, first message index) of the next window, if any."""


NOT_STORED = "private, no-store"
"""Every answer about a transcript: a fresh upload's page shows the manage key once, and the views are per
reader (the debug view, the uploader's links); no browser or proxy cache may keep them."""


@bp.after_request
def _not_stored(response: Response) -> Response:
    response.headers["Cache-Control"] = NOT_STORED
    return response


@bp.get("/t/<id>")
def transcript(id: str) -> Response:
    record = _open(id)
    view = _view(record)
    window = _window(record, view, _start(record, view, _int_arg("at")))
    context = _page_context(record, view, window)
    if _wants_partial():
        response = make_response(render_template("_transcript.html", **context))
    else:
        response = make_response(render_template("transcript.html", **context))
    response.vary.update(("HX-Request", "HX-History-Restore-Request", "Cookie"))
    return response


@bp.get("/t/<id>/window")
def window(id: str) -> Response:
    """The next (or earlier) window as a partial, for htmx; a plain request goes to the full page there."""
    record = _open(id)
    view = _view(record)
    start = max(_int_arg("start") or 0, 0)
    direction = request.args.get("direction", "next")
    if direction not in ("next", "earlier"):
        abort(400, "direction must be next or earlier.")
    part = _window(record, view, start)
    if not _wants_partial():
        first = part.cards[0].index if part.cards else 0
        return redirect(_view_url(record, view, at=first), 303)
    response = make_response(render_template("_window.html", record=record, view=view, window=part,
                                             direction=direction, can_debug=access.can_debug(record)))
    response.vary.add("HX-Request")
    return response


@bp.get("/t/<id>.json")
def transcript_json(id: str) -> Response:
    """The view as JSON, streamed: a 50 MB transcript's twin is written batch by batch, never held whole."""
    record = _open(id)
    view = _view(record)
    head = {"schema": SCHEMA, "id": record.id, "view": view, "dialect": record.dialect, "counts": _counts(record)}
    if view == "debug":
        head["header"] = record.header
    chunks = _buffered(_json_chunks(get_store(), record, view, head))
    return current_app.response_class(chunks, mimetype="application/json")


JSON_CHUNK = 64 * 1024
"""Characters gathered before a write: one write per message would cost a system call each."""


def _buffered(pieces: Iterator[str]) -> Iterator[str]:
    gathered: list[str] = []
    size = 0
    for piece in pieces:
        gathered.append(piece)
        size += len(piece)
        if size >= JSON_CHUNK:
            yield "".join(gathered)
            gathered, size = [], 0
    yield "".join(gathered)


def _json_chunks(store: Store, record: Record, view: str, head: dict[str, Any]) -> Iterator[str]:
    """One JSON object, written as the head's keys, then `messages` (and, for debug, `pairs` and
    `diagnostics`) one item at a time."""
    yield json.dumps(head)[:-1]
    if view == "debug":
        yield from _json_array("messages", (_debug_json(entry) for entry in store.iter_entries(record.id, "debug")))
        yield from _json_array("pairs", store.pairs(record.id))
        yield from _json_array("diagnostics", (located.diagnostic.to_json()
                                               for located in store.iter_diagnostics(record.id)))
    else:
        yield from _json_array("messages", (_default_json(card) for card in
                                            entries.stream_default_cards(store.iter_entries(record.id, "default"))))
    yield "}"


def _json_array(key: str, items: Iterable[Any]) -> Iterator[str]:
    yield f', "{key}": ['
    separator = ""
    for item in items:
        yield separator + json.dumps(item)  # ASCII: a lone surrogate in a body cannot break the encoding
        separator = ", "
    yield "]"


@bp.get("/t/<id>/messages/<int:index>")
def message(id: str, index: int) -> Response:
    """One message's whole body (or, in the debug view, `part=source`: its source), for a collapsed long
    message: htmx swaps it into the card, a plain request gets a page of its own. Bodies over `PART_CHARS`
    come a part at a time. The default view answers only for messages it shows."""
    record = _open(id)
    view = _view(record)
    part = request.args.get("part", "body")
    if part not in ("body", "source") or (part == "source" and view != "debug"):
        abort(400, "part must be body, or source in the debug view.")
    entry = get_store().entry(record.id, index)
    if entry is None or (view == "default" and entry.show_as not in SHOWN_IN_FULL):
        abort(404, "This view has no message with that number.")
    text = entry.source if part == "source" else entry.message.content
    offset = min(max(_int_arg("offset") or 0, 0), len(text))
    piece = _piece(record, view, entry, part, text, offset)
    template = "_message_part.html" if _wants_partial() else "message.html"
    response = make_response(render_template(template, record=record, view=view, entry=entry, part=part,
                                             piece=piece, title=_title(record)))
    response.vary.update(("HX-Request", "Cookie"))
    return response


@dataclass(frozen=True, slots=True)
class Piece:
    """What one answer of the message endpoint shows: a rendered body, or a slice of long text."""

    body: render.Rendered | None
    """The whole body rendered, when it is short enough to render at once."""
    text: str
    """Otherwise the slice of text shown (plain, escaped by the template)."""
    offset: int
    end: int
    size: int
    next_url: str | None
    """Where the rest continues, if anything is left."""


def _piece(record: Record, view: str, entry: Entry, part: str, text: str, offset: int) -> Piece:
    if part == "body" and offset == 0 and len(text) <= PART_CHARS:
        return Piece(body=entries.body(entry), text="", offset=0, end=len(text), size=len(text), next_url=None)
    end = min(offset + PART_CHARS, len(text))
    next_url = None
    if end < len(text):
        args = {"view": "debug"} if view == "debug" else {}
        if part == "source":
            args["part"] = "source"
        next_url = url_for("pages.message", id=record.id, index=entry.message.index, offset=end, **args)
    return Piece(body=None, text=text[offset:end], offset=offset, end=end, size=len(text), next_url=next_url)


@bp.get("/t/<id>/jump")
def jump(id: str) -> Response:
    """Go to message #N: a small form (it works without JavaScript), then a redirect to the window holding N,
    scrolled to it."""
    record = _open(id)
    view = _view(record)
    at = _int_arg("at")
    if at is None:
        return make_response(render_template("jump.html", record=record, view=view, title=_title(record)))
    at = min(max(at, 0), max(record.message_count - 1, 0))
    return redirect(_view_url(record, view, at=at) + f"#m-{_shown_index(record, view, at)}", 303)


def _shown_index(record: Record, view: str, index: int) -> int:
    """Message `index`, or in the default view the first message at or after it that the view shows."""
    if view == "debug":
        return index
    store = get_store()
    rank = store.position(record.id, view, index)
    following = store.window(record.id, view, rank, 1) if rank is not None else []
    return following[0].message.index if following else index


@bp.get("/t/<id>/raw")
def raw(id: str) -> Response:
    record = _open(id)
    if not access.can_debug(record):
        abort(403, "The raw transcript includes everything the default view hides, and the uploader has not "
                   "allowed the debug view for this link.")
    # The name becomes a header value: control characters (a newline could start a new header) go.
    name = _CONTROL.sub("", (record.name or "").rsplit("/", 1)[-1]).strip() or record.id
    if "." not in name:
        name += ".txt"
    # Werkzeug adds `charset=utf-8`, which is right: viewer.parse.decode always reads uploads as UTF-8.
    return send_file(BytesIO(get_store().raw(record.id) or b""), mimetype="text/plain", as_attachment=True,
                     download_name=name)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@bp.get("/t/<id>/manage")
def manage(id: str) -> Response:
    record = _open(id)
    key = request.args.get("key")
    if key is not None:
        if not access.key_matches(record, key):
            abort(403, "This manage link is not valid: its key does not match.")
        access.remember_owner(record.id)
        # Drop the key from the address bar and history; the cookie now stands for it.
        return redirect(url_for("pages.manage", id=record.id), 303)
    _require_owner(record)
    return make_response(render_template("manage.html", record=record, csrf=access.csrf_token(),
                                         share_url=url_for("pages.transcript", id=record.id, _external=True)))


@bp.post("/t/<id>/manage")
def manage_action(id: str) -> Response:
    access.refuse_cross_site()
    record = _open(id)
    _require_owner(record)
    if not access.csrf_valid(request.form.get("csrf")):
        abort(400, "This form has expired; open the manage page again.")
    action = request.form.get("action")
    store = get_store()
    if action in ("allow-debug", "deny-debug"):
        store.set_debug(record.id, action == "allow-debug")
        flash("People with the link can now open the debug view." if action == "allow-debug"
              else "Only you can open the debug view now.", "notice")
        return redirect(url_for("pages.manage", id=record.id), 303)
    if action == "delete":
        if request.form.get("confirm") != "yes":
            abort(400, "Tick the box to confirm the deletion.")
        store.delete(record.id)
        access.forget_owner(record.id)
        flash("The transcript was deleted; its link no longer opens it.", "notice")
        return redirect(url_for("uploads.home"), 303)
    abort(400, "Unknown action.")


# ---- helpers --------------------------------------------------------------------------------------------

def _open(id: str) -> Record:
    if not access.id_is_valid(id):
        abort(404, "No transcript has this link.")
    store = get_store()
    record = store.get(id)
    if record is None:
        abort(404, "No transcript has this link.")
    if record.deleted:
        abort(410, "This transcript was deleted by its uploader.")
    return store.refresh(record, PARSER_VERSION)


def _view(record: Record) -> str:
    view = request.args.get("view", "default")
    if view not in VIEWS:
        abort(400, f"Unknown view; choose one of {', '.join(VIEWS)}.")
    if view == "debug" and not access.can_debug(record):
        abort(403, "The debug view of this transcript shows hidden reasoning and prompts, and the uploader has "
                   "not allowed it for people with the link.")
    return view


def _require_owner(record: Record) -> None:
    if not access.owns(record):
        abort(403, "Only the uploader can manage this transcript: open the manage link shown at upload.")


def _int_arg(name: str) -> int | None:
    value = request.args.get(name)
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        abort(400, f"{name} must be a whole number.")
    # Databases hold 64-bit integers at most; no transcript comes near this.
    return max(min(number, POSITION_LIMIT), -POSITION_LIMIT)


def _wants_partial() -> bool:
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def _window_size() -> int:
    return max(int(current_app.config["WINDOW_SIZE"]), 1)


def _long_body() -> int:
    return max(int(current_app.config["LONG_BODY_CHARS"]), 0)


def _start(record: Record, view: str, at: int | None) -> int:
    """The first position of the window holding message `at` (or the next entry the view shows)."""
    size = _window_size()
    total = record.message_count if view == "debug" else record.visible_count
    if at is None or total == 0:
        return 0
    position = get_store().position(record.id, view, max(at, 0)) if at < record.message_count else None
    if position is None:
        position = total - 1
    return min(position, total - 1) // size * size


def _window(record: Record, view: str, start: int) -> Window:
    store = get_store()
    size = _window_size()
    rows = store.window(record.id, view, start, size + 1)
    following, rows = (rows[size] if len(rows) > size else None), rows[:size]
    earlier = None
    if start > 0:
        previous_start = max(start - size, 0)
        first = store.window(record.id, view, previous_start, 1)
        earlier = (previous_start, first[0].message.index) if first else None
    if view == "debug":
        found = store.diagnostics(record.id, first=rows[0].message.index, last=rows[-1].message.index) if rows else []
        cards = entries.debug_cards(rows, found, long_body=_long_body())
    else:
        cards = entries.default_cards(rows, long_body=_long_body())
    next_window = (_position(following, view), following.message.index) if following else None
    return Window(view=view, cards=cards, start=start, earlier=earlier, next=next_window)


def _position(entry: Entry, view: str) -> int:
    return entry.message.index if view == "debug" else entry.rank


def _view_url(record: Record, view: str, **args: Any) -> str:
    if view == "debug":
        args["view"] = "debug"
    return url_for("pages.transcript", id=record.id, **args)


def _page_context(record: Record, view: str, window: Window) -> dict[str, Any]:
    panel = []
    if view == "debug":
        panel = get_store().diagnostics(record.id, limit=DIAGNOSTICS_PANEL_LIMIT)
    return {"record": record, "view": view, "window": window, "can_debug": access.can_debug(record),
            "owner": access.owns(record), "diagnostics_panel": panel, "title": _title(record),
            "jumps": _jump_points(record.message_count)}


JUMP_POINTS = 10


def _jump_points(count: int) -> list[int]:
    """Message numbers spread over a long transcript for the "jump to" links (none when it is short)."""
    size = _window_size()
    if count <= 2 * size:
        return []
    step = max(count // JUMP_POINTS // size * size, size)
    return [*range(0, count - 1, step), count - 1][: JUMP_POINTS + 1]


def _title(record: Record) -> str:
    if record.name:
        return record.name
    return "Pasted transcript" if not record.is_sample else record.id


def _counts(record: Record) -> dict[str, int]:
    return {"messages": record.message_count, "hidden": record.hidden_count, "shown": record.visible_count,
            "diagnostics": record.diagnostic_count, "errors": record.error_count, "pairs": record.pair_count}


def _debug_json(entry: Entry) -> dict[str, Any]:
    data = entry.message.to_json()
    data["default_view"] = {"show_as": entry.show_as, "rule": entry.rule, "reason": entry.reason}
    data["pair"] = entry.pair
    return data


def _default_json(card: entries.Card) -> dict[str, Any]:
    """A shown message without its place in the source: the gaps between spans would give the length of each
    hidden message (the system prompt's, say). The debug JSON keeps them."""
    if card.kind == "marker":
        return {"index": card.index, "show_as": "marker", "text": card.marker_text, "indices": list(card.indices)}
    data = card.entry.message.to_json()
    del data["span"]
    if "segments" in data:
        data["segments"] = [{"kind": segment["kind"], "text": segment["text"]} for segment in data["segments"]]
    return {**data, "show_as": card.kind}
