"""A view as one self-contained HTML file: the page's stylesheets inline (light and dark), no script at all, a
Content-Security-Policy that forbids scripts and every remote load, and each entry drawn by the page's own card
macros (templates/_entries.html) from the page's own cards (viewer/web/cards.py), so it looks like the page.
What would not work offline goes: links to other messages become anchors in the file, htmx attributes are
dropped, long bodies are shown whole. A dataset's conversations follow one another, each a section whose
anchors are its own (`#c2-m-5`).

Only what the document's view shows is drawn: the entries come projected, never decided here."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from typing import Any, Iterator

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from viewer import policy, render
from viewer.store import Located
from viewer.web import assets, cards
from viewer.web.export.document import Document, buffered, windows

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""The file's own Content-Security-Policy: its one inline stylesheet, and nothing else (no script, nothing
fetched; images only as data: URLs, and bodies have none)."""
WHOLE = sys.maxsize
"""No body is long enough to be collapsed: a file has no server to fetch the rest from."""

_HTMX = re.compile(r' hx-disable(?=>)')
_ANCHORS = re.compile(r'(id="|href="#|data-jump=")m-')


@dataclass(frozen=True, slots=True)
class Section:
    """One transcript of the file: the whole of it, or a dataset's conversation."""

    document: Document
    anchor: str
    heading: str | None
    entries: Iterator[Markup]
    loose: list[Located]
    """The debug view's diagnostics that belong to no message."""


def html(document: Document) -> Iterator[str]:
    """The document as one HTML file, in chunks."""
    page = _environment().get_template("export.html")
    return buffered(page.generate(document=document, sections=_sections(document), policy=POLICY,
                                  stylesheet=stylesheet()))


def stylesheet() -> Markup:
    """The page's stylesheet and Pygments' (both with their dark-scheme rules), for one `<style>`."""
    css = (assets.STATIC / "app.css").read_text(encoding="utf-8") + "\n" + render.stylesheet()
    if "</" in css:  # our own files; anything that could close the element is refused rather than written
        raise ValueError("a stylesheet holds '</', which would end its <style> element")
    return Markup(css)


@cache
def _environment() -> Environment:
    environment = Environment(loader=FileSystemLoader(str(assets.TEMPLATES)), autoescape=True, trim_blocks=True,
                              lstrip_blocks=True)
    # The macros link each message to its place on the server; in a file its place is its anchor (`#m-3`).
    environment.globals["record_url"] = lambda *args, **kwargs: ""
    return environment


def _sections(document: Document) -> Iterator[Section]:
    if not document.is_dataset:
        yield _section(document, "transcript", None, "")
        return
    for part in document.parts():
        number = part.conversation
        yield _section(part, f"c-{number}", f"Conversation #{number:,}", f"c{number}-")


def _section(document: Document, anchor: str, heading: str | None, prefix: str) -> Section:
    loose = list(document.rows.loose_diagnostics()) if document.view == "debug" else []
    return Section(document, anchor, heading, _entries(document, prefix), loose)


def _entries(document: Document, prefix: str) -> Iterator[Markup]:
    """Each entry drawn by its macro without a record (so without the page's copy and collapse controls, dead
    in a file, nor the copies of each body they read), made to work offline."""
    macros: Any = _environment().get_template("_entries.html").module
    for window, diagnostics in windows(document):
        for card in _cards(document, window, diagnostics):
            drawn = macros.marker(card) if card.kind == "marker" else getattr(macros, card.kind)(card, None)
            yield Markup(_offline(str(drawn), prefix))


def _cards(document: Document, window: list, diagnostics: list[Located]) -> list[cards.Card]:
    if document.view == "debug":
        return cards.debug_cards(window, diagnostics, long_body=WHOLE, source_language=document.source_language)
    return [cards.Card(kind="marker", index=item.indices[0], marker_text=item.text, indices=item.indices)
            if isinstance(item, policy.Marker) else cards.default_cards([item], long_body=WHOLE)[0]
            for item in window]


def _offline(drawn: str, prefix: str) -> str:
    """A card without htmx attributes, its anchors in a dataset's section prefixed with the section's own (the
    macros draw no script-only controls, copy and collapse, without a record). Only the macros' markup can match:
    text from a transcript reaches here escaped (its `<` as `&lt;`, its quotes as `&quot;`)."""
    drawn = _HTMX.sub("", drawn)
    return _ANCHORS.sub(rf"\1{prefix}m-", drawn) if prefix else drawn
