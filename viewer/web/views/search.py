"""Search inside a transcript (a dataset: all its conversations, or one of them): a page that works without
JavaScript, and the same results as a fragment for the htmx panel of a transcript's and a dataset's page.

The store decides what a view may find (viewer/store/search.py): the default view searches only the bodies it
shows, and counts nothing else. Here the excerpts are cut from each result's body as plain text (no Markdown, no
terminal codes: viewer/present/snippets.py), and matches marked.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from flask import Blueprint, abort, make_response, request, url_for
from werkzeug.exceptions import Conflict
from werkzeug.wrappers import Response

from viewer.present.snippets import plain_text
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
PLAIN_WINDOW = (600, 1600)
"""Characters of a body made plain for an excerpt: from this many before its first match, this many in all."""
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
        found = [_found(reading, hit, query) for hit in results.hits]
    template = "_search_results.html" if wants_partial() else "search.html"
    response = make_response(render_reading(
        template, reading, q=raw or "", query=query, results=results, found=found, offset=offset,
        page_size=PAGE_SIZE, title=title(record), search_url=record_url("search.search", record)))
    response.vary.update(("HX-Request", "Cookie"))
    return response


def _found(reading: Reading, hit: store_search.Hit, query: store_search.Query) -> Found:
    if hit.conversation is not None:  # a conversation of a dataset: its own page
        url = url_for("reading.transcript", id=reading.record.owner_id, k=hit.conversation, at=hit.index,
                      view=reading.view_arg)
    else:
        url = record_url("reading.transcript", reading.record, at=hit.index, view=reading.view_arg)
    return found_at(hit, query, url, reading.debug)


ROLES = {"system": "System", "developer": "Developer", "user": "User", "assistant": "Assistant", "tool": "Tool"}
CHANNELS = {"analysis": "reasoning", "commentary": "commentary"}


def found_at(hit: store_search.Hit, query: store_search.Query, url: str, debug: bool) -> Found:
    """A result as a reader reads it: who wrote it in plain words, the excerpt in plain text, and in the debug
    view the header's words when they are what matched."""
    label = ROLES.get(hit.role, hit.role)
    if debug and hit.role == "assistant" and hit.channel in CHANNELS:
        label += f" · {CHANNELS[hit.channel]}"
    header = None
    if debug and match_pattern(query.terms, prefixes=query.prefixes).search(hit.header):
        header = excerpt(hit.header, query.terms, prefixes=query.prefixes, plain=False)
    return Found(index=hit.index, conversation=hit.conversation, label=label, url=f"{url}#m-{hit.index}",
                 excerpt=excerpt(hit.body, query.terms, prefixes=query.prefixes), header=header)


@functools.lru_cache(maxsize=64)
def match_pattern(terms: tuple[str, ...], folded: bool = False, prefixes: frozenset[str] = frozenset()) -> re.Pattern:
    """Every term as the index matches it: its words in order, anything but letters and digits between them,
    whole words (a prefix term: the words it begins), longest first; `folded`: for text folded by `_fold`."""
    alternatives = []
    for term in terms:
        words = _TOKEN.findall(_fold(term) if folded else term)
        alternatives.append(r"[\W_]+".join(map(re.escape, words)) + (r"[^\W_]*" if term in prefixes else ""))
    alternatives.sort(key=len, reverse=True)
    return re.compile(r"(?<![^\W_])(?:" + "|".join(alternatives or ["(?!)"]) + r")(?![^\W_])", re.IGNORECASE)


def excerpt(text: str, terms: tuple[str, ...], width: int = EXCERPT_CHARS, *,
            prefixes: frozenset[str] = frozenset(), plain: bool = True) -> Pieces:
    """About `width` characters of `text` around its first match of `terms`, the matches in it marked; the
    start of the text when nothing can be marked. `plain`: the stretch around the match read as plain text
    first (snippets.plain_text). Runs of white space become one space."""
    cut_before = cut_after = False
    if plain:
        first = _first_match(text, terms, prefixes)
        low = max((first or 0) - PLAIN_WINDOW[0], 0)
        high = min(low + PLAIN_WINDOW[1], len(text))
        cut_before, cut_after = low > 0, high < len(text)
        text = plain_text(text[low:high])
    pieces = _marked(text, terms, width, prefixes)
    if cut_before and (not pieces or pieces[0][0] != "…"):
        pieces.insert(0, ("…", False))
    if cut_after and (not pieces or pieces[-1][0] != "…"):
        pieces.append(("…", False))
    return pieces


def _first_match(text: str, terms: tuple[str, ...], prefixes: frozenset[str]) -> int | None:
    match = match_pattern(terms, prefixes=prefixes).search(text)
    if match is None:  # perhaps only with accents folded, as the index matched
        match = match_pattern(terms, folded=True, prefixes=prefixes).search(_fold(text[:FOLD_CHARS]))
    return match.start() if match is not None else None


def _marked(text: str, terms: tuple[str, ...], width: int, prefixes: frozenset[str]) -> Pieces:
    first = _first_match(text, terms, prefixes)
    start = 0
    if first is not None and first > EXCERPT_BEFORE:
        start = first - EXCERPT_BEFORE
        space = text.find(" ", start, first)  # begin at a word
        start = space + 1 if space >= 0 else start
    end = min(len(text), start + width)
    pieces: Pieces = [("…", False)] if start else []
    position = start
    # Marked in the window folded (short, so quick), with a character either side for the word boundaries.
    low = max(start - 1, 0)
    window = _fold(text[low:end + 1])
    for marked in match_pattern(terms, folded=True, prefixes=prefixes).finditer(window, start - low):
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
