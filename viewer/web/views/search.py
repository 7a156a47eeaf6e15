"""Search inside a transcript (a dataset: all its conversations, or one of them): a page that works without
JavaScript, and the same results as a fragment for the htmx panel of a transcript's and a dataset's page.

The store decides what a view may find (viewer/store/search.py): the default view searches only the bodies it
shows, and counts nothing else. Here the excerpts are cut from each result's body, and matches marked.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from flask import Blueprint, abort, make_response, request, url_for
from werkzeug.exceptions import Conflict
from werkzeug.wrappers import Response

from viewer.present.stored import title
from viewer.store import search as store_search
from viewer.web.lookup import Reading, get_store, int_arg, open_reading, record_url, render_reading, wants_partial

bp = Blueprint("search", __name__)


class SearchNotReady(Conflict):
    """A big upload is readable before its search index is built: until then its search says so."""

    retry_after = 5
    description = "Search is not ready yet for this transcript: its index is still being built."
    hint = "The transcript itself can be read already; search again in a moment."


PAGE_SIZE = 50
EXCERPT_CHARS = 240
EXCERPT_BEFORE = 60
"""Characters of context kept before the first match."""
FOLD_CHARS = 50_000
"""Characters of a body searched again with accents and case folded, when the plain search marks nothing (the
index folds accents: `zurich` finds `Zürich`)."""
_TOKEN = re.compile(r"[^\W_]+")
_SPACES = re.compile(r"\s+")

Pieces = list[tuple[str, bool]]
"""Text in order, each piece with whether it is a match to mark."""


@dataclass(frozen=True, slots=True)
class Found:
    """One result as the page lists it."""

    index: int
    conversation: int | None
    label: str
    url: str
    excerpt: Pieces
    header: Pieces | None
    """The debug view's header line, marked too (it may be all that matched)."""


@bp.get("/t/<id>/search")
@bp.get("/t/<id>/c/<int:k>/search")
def search(id: str, k: int | None = None) -> Response:
    reading = open_reading(id, k)
    record = reading.record
    if not get_store().processing.searchable(record.owner_id):
        raise SearchNotReady()
    raw, query, results, found = request.args.get("q"), None, None, []
    offset = max(int_arg("offset") or 0, 0)
    if raw is not None:  # no `q` at all: the empty form; an empty `q`: a 400 that says why
        try:
            query = store_search.parse_query(raw)
        except store_search.BadQuery as error:
            abort(400, str(error))
        results = get_store().search.find([record.id], query, reading.view, PAGE_SIZE, offset)
        found = [_found(reading, hit, query.terms) for hit in results.hits]
    template = "_search_results.html" if wants_partial() else "search.html"
    response = make_response(render_reading(
        template, reading, q=raw or "", query=query, results=results, found=found, offset=offset,
        page_size=PAGE_SIZE, title=title(record), search_url=record_url("search.search", record)))
    response.vary.update(("HX-Request", "Cookie"))
    return response


def _found(reading: Reading, hit: store_search.Hit, terms: tuple[str, ...]) -> Found:
    if hit.conversation is not None:  # a conversation of a dataset: its own page
        url = url_for("reading.transcript", id=reading.record.owner_id, k=hit.conversation, at=hit.index,
                      view=reading.view_arg)
    else:
        url = record_url("reading.transcript", reading.record, at=hit.index, view=reading.view_arg)
    label = f"{hit.role} · {hit.channel}" if reading.debug and hit.role == "assistant" else hit.role
    return Found(index=hit.index, conversation=hit.conversation, label=label, url=f"{url}#m-{hit.index}",
                 excerpt=excerpt(hit.body, terms), header=excerpt(hit.header, terms) if reading.debug else None)


@functools.lru_cache(maxsize=64)
def match_pattern(terms: tuple[str, ...], folded: bool = False) -> re.Pattern:
    """Every term as the index matches it: its words in order, anything but letters and digits between them,
    whole words only (the index has no prefixes), longest first; `folded`: for text folded by `_fold`."""
    words = [_TOKEN.findall(_fold(term) if folded else term) for term in terms]
    alternatives = sorted((r"[\W_]+".join(map(re.escape, found)) for found in words), key=len, reverse=True)
    return re.compile(r"(?<![^\W_])(?:" + "|".join(alternatives or ["(?!)"]) + r")(?![^\W_])", re.IGNORECASE)


def excerpt(text: str, terms: tuple[str, ...], width: int = EXCERPT_CHARS) -> Pieces:
    """About `width` characters of `text` around its first match of `terms`, the matches in it marked; the
    start of the text when nothing can be marked. Runs of white space become one space."""
    match = match_pattern(terms).search(text)
    if match is None:  # perhaps only with accents folded, as the index matched
        match = match_pattern(terms, folded=True).search(_fold(text[:FOLD_CHARS]))
    start = 0
    if match is not None and match.start() > EXCERPT_BEFORE:
        start = match.start() - EXCERPT_BEFORE
        space = text.find(" ", start, match.start())  # begin at a word
        start = space + 1 if space >= 0 else start
    end = min(len(text), start + width)
    pieces: Pieces = [("…", False)] if start else []
    position = start
    # Marked in the window folded (short, so quick), with a character either side for the word boundaries.
    low = max(start - 1, 0)
    window = _fold(text[low:end + 1])
    for marked in match_pattern(terms, folded=True).finditer(window, start - low):
        if marked.end() > end - low:
            break
        pieces += [(text[position:low + marked.start()], False), (text[low + marked.start():low + marked.end()], True)]
        position = low + marked.end()
    pieces.append((text[position:end], False))
    if end < len(text):
        pieces.append(("…", False))
    return [(_SPACES.sub(" ", piece), marked) for piece, marked in pieces if piece]


class _Folds(dict):
    """For str.translate: each character to one character, lower case without accents (so positions in the
    folded text are positions in the text), worked out once per character."""

    def __missing__(self, code: int) -> str:
        decomposed = unicodedata.normalize("NFD", chr(code))
        folded = self[code] = decomposed[0].lower()[:1] or chr(code)
        return folded


_FOLDS = _Folds()


def _fold(text: str) -> str:
    return text.translate(_FOLDS)
