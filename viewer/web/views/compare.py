"""Comparing two transcripts side by side (`/compare/<a>/<b>`), and the "compare with…" form of every
transcript page (`/t/<id>/compare?with=<link or id>`), which reads the pasted link and redirects.

An id is a share id, or `<id>.<k>` for conversation k of a dataset. The debug view is allowed only when the
reader may open the debug view of both transcripts; the default view compares only the entries it shows.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from viewer.present import comparison
from viewer.present.stored import title
from viewer.store import Record
from viewer.web import access
from viewer.web.branching import branches_of, version_name
from viewer.web.lookup import Reading, get_store, int_arg, open_record, reading_of, requested_view, view_arg

bp = Blueprint("compare", __name__)

_COMPARE_ID = re.compile(r"(?P<id>[^./~@]+)(?:\.(?P<k>[0-9]{1,9}))?(?:~(?P<side>chosen|rejected)|@(?P<branch>[0-9]{1,9}))?")
"""`<id>`, `<id>.<k>` (conversation k of a dataset), either with `~chosen` or `~rejected` (one answer of a
preference pair, with its prompt) or `@<n>` (the branch of a tree-shaped conversation that leads to message n,
in the debug view)."""
_LINK_PATH = re.compile(r"/t/(?P<id>[^./]+)(?:/c/(?P<k>[0-9]{1,9}))?/?")
NOT_OURS = ("That is not a link to a transcript on this viewer: paste a share link (…/t/<id>, or …/t/<id>/c/<n> "
            "for a conversation of a dataset) or a transcript's id.")


@bp.get("/compare/<a>/<b>")
def compare(a: str, b: str) -> Response:
    names = _parsed(a), _parsed(b)  # both ids checked before the store is asked about either
    left, right = (_open(id, k) for id, k, _ in names)
    view = requested_view()
    # Each refuses the debug view (403) unless this reader may open it.
    left_reading, right_reading = (_on_branch(reading_of(record, view), compare_id)
                                   for record, compare_id in ((left, a), (right, b)))
    store, compared = get_store(), (_compared(left_reading), _compared(right_reading))
    done = comparison.aligned(store, *compared, (names[0][2], names[1][2]))
    total = len(done.steps)
    start = min(max(int_arg("at") or 0, 0), max(total - 1, 0)) // comparison.PAGE_ROWS * comparison.PAGE_ROWS
    rows = comparison.page(store, *compared, done, start)
    extra: dict[str, Any] = {"view": left_reading.view_arg}
    left_title = _titled(left_reading, names[0][2], right_reading)
    right_title = _titled(right_reading, names[1][2], left_reading)
    first = done.summary.first_difference

    def at(row: int | None) -> str | None:
        if row is None:
            return None
        return url_for("compare.compare", a=a, b=b, at=(row // comparison.PAGE_ROWS * comparison.PAGE_ROWS) or None,
                       **extra) + f"#row-{row}"

    context = {
        "left": left, "right": right, "a": a, "b": b, "view": view, "debug": left_reading.debug,
        "summary": done.summary, "total": total,
        "row_runs": comparison.runs(rows), "start": start, "end": start + len(rows),
        "title": f"{left_title} ↔ {right_title}", "left_title": left_title, "right_title": right_title,
        "earlier": at(start - comparison.PAGE_ROWS) if start > 0 else None,
        "later": at(start + comparison.PAGE_ROWS) if start + comparison.PAGE_ROWS < total else None,
        "first_difference": at(first) if first is not None and not start <= first < start + len(rows) else None,
        "can_debug": left_reading.may_debug and right_reading.may_debug,
        "swap": url_for("compare.compare", a=b, b=a, **extra),
        "left_url": left_reading.url("reading.transcript"), "right_url": right_reading.url("reading.transcript"),
        # Each cell links to its message: the URL built once per side (url_for per cell cost a third of a page).
        "at_url": {"A": _at_prefix(left_reading), "B": _at_prefix(right_reading)},
        "counts": (len(done.a), len(done.b)),
    }
    response = make_response(render_template("compare.html", **context))
    response.vary.add("Cookie")
    return response


@bp.get("/t/<id>/compare")
@bp.get("/t/<id>/c/<int:k>/compare")
def start(id: str, k: int | None = None) -> Response:
    """The "compare with…" form's target: the pasted share link (or id) read into an id, then a redirect."""
    if not access.id_is_valid(id):
        abort(404, "No transcript has this link.")
    other = _pasted_id(request.args.get("with", ""))
    view = requested_view()  # checked for each side on the compare page itself
    this = id if k is None else f"{id}.{k}"
    return redirect(url_for("compare.compare", a=this, b=other, view=view_arg(view)), 303)


def _parsed(compare_id: str) -> tuple[str, int | None, str | None]:
    """A compare id's share id, conversation number and side of a preference pair; 404 when it cannot be one."""
    match = _COMPARE_ID.fullmatch(compare_id)
    if match is None or not access.id_is_valid(match["id"]):
        abort(404, "No transcript has this link.")
    return match["id"], int(match["k"]) if match["k"] is not None else None, match["side"]


def _on_branch(reading: Reading, compare_id: str) -> Reading:
    """The reading following the branch a compare id names (`@<n>`): the debug view's only (the default view
    shows the branch the app showed, and no other)."""
    branch = _COMPARE_ID.fullmatch(compare_id)["branch"]  # type: ignore[index]  # checked by `_parsed`
    if branch is None:
        return reading
    if not reading.debug:
        abort(400, "Branches of a conversation are compared in the debug view: add view=debug.")
    if int(branch) >= reading.record.message_count:
        abort(404, "This conversation has no message with that number to follow.")
    branches = branches_of(reading.record, get_store(), int(branch))
    return dataclasses.replace(reading, branches=branches) if branches is not None else reading


def _compared(reading: Reading) -> comparison.Compared:
    """What the comparison needs of a reading: its transcript, view, secrets and branch."""
    return comparison.Compared(reading.record, reading.view, reading.unmasked, reading.branch, reading.aside)


def _titled(reading: Reading, side: str | None, other: Reading | None = None) -> str:
    """A side's column heading: the transcript's title, and which answer of a preference pair, or which version
    of a conversation with branches ("Version 1 (edited)", "Version 2 (shown)") it is."""
    named = title(reading.record)
    if reading.branch is not None:
        version = version_name(reading.branches, other.branches if other is not None else None, _roles(reading))
        return f"{version} · {named}" if version else f"{named} · the branch to #{reading.branch}"
    return f"{named} · {side} answer" if side else named


def _roles(reading: Reading) -> dict[int, str]:
    """The role of each branch's first message, to say how a version came (an edited question, a regenerated
    answer)."""
    if reading.branches is None:
        return {}
    firsts = {branch for fork in reading.branches.forks for branch in fork.branches}
    store = get_store()
    return {index: entry.message.role for index in sorted(firsts)
            if (entry := store.entry(reading.record.id, index)) is not None}


def _open(id: str, k: int | None) -> Record:
    """The transcript, or conversation k of a dataset (404 if none; 400 for a whole dataset)."""
    record = open_record(id, k)
    if record.is_dataset:
        abort(400, "This link is a dataset of many conversations: compare one conversation, written "
                   f"{record.id}.<n> (n from 0).")
    return record


def _pasted_id(text: str) -> str:
    """A compare id from a pasted share link (of this viewer), a path, or an id; 400 for anything else."""
    text = text.strip()
    if not text or len(text) > 2000:
        abort(400, NOT_OURS)
    match = _COMPARE_ID.fullmatch(text)
    if match is not None and access.id_is_valid(match["id"]):
        return text
    parts = urlsplit(text)
    if parts.scheme or parts.netloc:
        if parts.scheme not in ("http", "https") or parts.netloc != request.host:
            abort(400, NOT_OURS)
    match = _LINK_PATH.fullmatch(parts.path)
    if match is None or not access.id_is_valid(match["id"]):
        abort(400, NOT_OURS)
    return match["id"] if match["k"] is None else f"{match['id']}.{match['k']}"


def _at_prefix(reading: Reading) -> str:
    """The transcript's URL up to the message number of `at=`."""
    url = reading.url("reading.transcript")
    return url + ("&" if "?" in url else "?") + "at="
