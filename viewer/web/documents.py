"""Documents of stored transcripts, for the web app's exports: the entries come from the store a window at a
time (the default view's by rank, so its hidden rows are never read), and the counts from stored totals."""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any, Callable, Iterable, Iterator

from viewer.formats import source_lexer
from viewer.present.document import Document
from viewer.store import Entry, Located, Store
from viewer.store.media import Served
from viewer.web.lookup import Reading, counts, title


class StoredRows:
    """One stored transcript's rows, read as an export asks for them."""

    def __init__(self, store: Store, id: str, *, unmasked: bool = False) -> None:
        self.store = store
        self.id = id
        self.unmasked = unmasked
        """Whether the reader reads the secrets found (viewer.web.access.reads_secrets)."""

    def entries(self, view: str) -> Iterable[Entry]:
        return self.store.iter_entries(self.id, view, unmasked=self.unmasked)

    def diagnostics_between(self, first: int, last: int) -> list[Located]:
        return self.store.diagnostics(self.id, first=first, last=last)

    def loose_diagnostics(self) -> Iterable[Located]:
        return (located for located in self.store.iter_diagnostics(self.id)
                if located.diagnostic.message_index is None)

    def diagnostics(self) -> Iterable[Located]:
        return self.store.iter_diagnostics(self.id)

    def pairs(self) -> list[dict[str, Any]]:
        return self.store.pairs(self.id)


def stored_document(store: Store, reading: Reading, *, in_request: bool = True) -> Document:
    """The reader's view of a stored transcript, conversation or dataset (`in_request`: made while the request
    is answered, so its images' URLs can be built)."""
    record, view = reading.record, reading.view
    if record.is_dataset:
        return Document(title=title(record), view=view, dialect=record.dialect, id=record.id, header=record.header,
                        counts={**counts(record), "conversations": record.conversation_count},
                        parts=lambda: _conversations(store, reading))
    return Document(title=title(record), view=view, dialect=record.dialect, counts=counts(record),
                    id=record.owner_id, header=record.header, conversation=record.conversation,
                    snippet=record.snippet, source_language=source_lexer(record.dialect),
                    rows=StoredRows(store, record.id, unmasked=reading.unmasked), live=record.live,
                    media_url=_media_urls(reading) if in_request else None,
                    thumbnail=partial(_thumbnail, store, record.id, reading.debug))


_ANY_IMAGE = "0" * 64


def _thumbnail(store: Store, id: str, debug: bool, sha256: str) -> Served | None:
    """Image `sha256`'s thumbnail as the reader's view of transcript `id` may show it: the store checks again
    that a message of the view holds it."""
    return store.media.served(id, sha256, debug=debug, thumbnail=True)


def _media_urls(reading: Reading) -> Callable[[str], str]:
    """The URL of each image in this view, made from one URL built now: the export is written after the
    request's context is gone."""
    pattern = reading.links.media_url(_ANY_IMAGE, reading.view)
    return lambda sha256: pattern.replace(_ANY_IMAGE, sha256)


def _conversations(store: Store, dataset: Reading) -> Iterator[Document]:
    for conversation in store.iter_conversations(dataset.record.id):
        # A conversation's row has no name of its own: its title is its dataset's, with its number.
        named = dataclasses.replace(conversation, name=dataset.record.name)
        # Made as the export is written, after the request: a dataset's exports name no image URLs (its twin is
        # an index of conversations; its Markdown and HTML keep placeholders).
        yield stored_document(store, dataclasses.replace(dataset, record=named), in_request=False)
