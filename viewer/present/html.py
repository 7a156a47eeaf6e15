"""A view as one self-contained HTML file: the page's stylesheets inline (light and dark), no script at all, a
Content-Security-Policy that forbids scripts and every remote load, and each entry drawn by the page's own card
macros (templates/_entries.html) from the page's own cards (cards.py), so it looks like the page. The macros
are handed `FileLinks`: links to other messages are anchors in the file, no htmx attribute and no control that
needs the server is drawn, and long bodies are shown whole. A dataset's conversations follow one another, each a section whose
anchors are its own (`#c2-m-5`).

Only what the document's view shows is drawn: the entries come projected, never decided here. Pasted images of
the entries drawn are their cleaned thumbnails as `data:` URLs, up to a cap on the file's image bytes
(viewer/present/embedded.py); the file says at its end how many it holds and how big they made it."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Iterator, cast

from markupsafe import Markup, escape

from viewer import render
from viewer.present import cards, changes, embedded
from viewer.settings.folders import STATIC
from viewer.present.document import Document, buffered, conversation_heading, windows
from viewer.present.embedded import Embedder
from viewer.present.links import FileLinks
from viewer.present.templates import file_environment
from viewer.store import Located

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""The file's own Content-Security-Policy: its one inline stylesheet and its images as data: URLs, nothing else
(no script, nothing fetched)."""
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
    header: Markup | None = None
    """The debug view's panel of the transcript's header (cards.header_panel)."""
    changes: Markup | None = None
    """The debug view's files-changed list of an agent's session (viewer/present/changes.py)."""


def html(document: Document) -> Iterator[str]:
    """The document as one HTML file, in chunks."""
    page = file_environment().get_template("export.html")
    images = Embedder(embedded.MAX_EMBEDDED_BYTES)  # read here: a test lowers it
    header = cards.header_panel(document.header) if document.view == "debug" and document.is_dataset else None
    return buffered(page.generate(document=document, sections=_sections(document, images), policy=POLICY,
                                  stylesheet=stylesheet(), images=images, dataset_header=header))


def stylesheet() -> Markup:
    """The page's stylesheet and Pygments' (both with their dark-scheme rules), for one `<style>`."""
    css = (STATIC / "app.css").read_text(encoding="utf-8") + "\n" + render.stylesheets()
    if "</" in css:  # our own files; anything that could close the element is refused rather than written
        raise ValueError("a stylesheet holds '</', which would end its <style> element")
    return Markup(css)


def _sections(document: Document, images: Embedder) -> Iterator[Section]:
    if not document.is_dataset:
        yield _section(document, "transcript", None, _links(document, images, ""))
        return
    for part in document.conversations():
        number = cast(int, part.conversation)  # a dataset's conversation has its number
        yield _section(part, f"c-{number}", conversation_heading(number, part.header),
                       _links(part, images, f"c{number}-"))


def _links(document: Document, images: Embedder, prefix: str) -> FileLinks:
    """Links inside the file, with the document's images embedded when its store of images is at hand."""
    thumbnail = document.thumbnail
    return FileLinks(prefix, images.for_document(thumbnail) if thumbnail is not None else None)


def _section(document: Document, anchor: str, heading: str | None, links: FileLinks) -> Section:
    loose = list(document.transcript_rows.loose_diagnostics()) if document.debug else []
    header = cards.header_panel(document.header) if document.debug else None
    return Section(document, anchor, heading, _entries(document, links), loose, header, _changes(document, links))


def _changes(document: Document, links: FileLinks) -> Markup | None:
    """The files an agent session changed, with their diffs (the debug view's only: built from tool arguments)."""
    if not document.debug or not changes.has_screen(document.dialect):
        return None
    found = changes.of_document(document)
    drawn = file_environment().get_template("_changes.html").render(files=changes.drawn(found), links=links)
    return Markup(f"<p>{escape(changes.summary(found))}</p>\n") + Markup(drawn)


def _entries(document: Document, links: FileLinks) -> Iterator[Markup]:
    """Each entry drawn by its macro with links inside the file."""
    macros: Any = file_environment().get_template("_entries.html").module
    for window, diagnostics in windows(document):
        for card in _cards(document, window, diagnostics):
            yield getattr(macros, card.kind)(card, links)


def _cards(document: Document, window: list, diagnostics: list[Located]) -> list[cards.Card]:
    if document.debug:
        return cards.debug_cards(window, diagnostics, long_body=WHOLE, source_language=document.source_language)
    return cards.shown_cards(window, long_body=WHOLE)  # the window's bodies in one batch
