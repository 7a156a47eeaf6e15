"""A view as one self-contained HTML file: the page's stylesheets inline (light and dark), no script at all, a
Content-Security-Policy that forbids scripts and every remote load, and each entry drawn by the page's own card
macros (templates/_entries.html) from the page's own cards (cards.py), so it looks like the page. The macros
are handed `FileLinks`: links to other messages are anchors in the file, no htmx attribute and no control that
needs the server is drawn, and long bodies are shown whole. A dataset's conversations follow one another, each a section whose
anchors are its own (`#c2-m-5`).

Only what the document's view shows is drawn: the entries come projected, never decided here."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Iterator

from markupsafe import Markup

from viewer import render
from viewer.present import cards
from viewer.present.assets import STATIC
from viewer.present.document import Document, buffered, conversation_heading, windows
from viewer.present.links import FileLinks
from viewer.present.templates import file_environment
from viewer.store import Located

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""The file's own Content-Security-Policy: its one inline stylesheet, and nothing else (no script, nothing
fetched; images only as data: URLs, and bodies have none)."""
WHOLE = sys.maxsize
"""No body is long enough to be collapsed: a file has no server to fetch the rest from."""


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
    page = file_environment().get_template("export.html")
    return buffered(page.generate(document=document, sections=_sections(document), policy=POLICY,
                                  stylesheet=stylesheet()))


def stylesheet() -> Markup:
    """The page's stylesheet and Pygments' (both with their dark-scheme rules), for one `<style>`."""
    css = (STATIC / "app.css").read_text(encoding="utf-8") + "\n" + render.stylesheet()
    if "</" in css:  # our own files; anything that could close the element is refused rather than written
        raise ValueError("a stylesheet holds '</', which would end its <style> element")
    return Markup(css)


def _sections(document: Document) -> Iterator[Section]:
    if not document.is_dataset:
        yield _section(document, "transcript", None, "")
        return
    for part in document.parts():
        number = part.conversation
        yield _section(part, f"c-{number}", conversation_heading(number, part.header), f"c{number}-")


def _section(document: Document, anchor: str, heading: str | None, prefix: str) -> Section:
    loose = list(document.rows.loose_diagnostics()) if document.view == "debug" else []
    return Section(document, anchor, heading, _entries(document, prefix), loose)


def _entries(document: Document, prefix: str) -> Iterator[Markup]:
    """Each entry drawn by its macro with links inside the file."""
    macros: Any = file_environment().get_template("_entries.html").module
    links = FileLinks(prefix)
    for window, diagnostics in windows(document):
        for card in _cards(document, window, diagnostics):
            yield getattr(macros, card.kind)(card, links)


def _cards(document: Document, window: list, diagnostics: list[Located]) -> list[cards.Card]:
    if document.view == "debug":
        return cards.debug_cards(window, diagnostics, long_body=WHOLE, source_language=document.source_language)
    return [cards.default_card(item, long_body=WHOLE) for item in window]
