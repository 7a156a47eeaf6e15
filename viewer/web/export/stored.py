"""Documents of stored transcripts, for the web app's exports: the entries come from the store a window at a
time (the default view's by rank, so its hidden rows are never read), and the counts from stored totals."""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Iterator

from viewer.lexers import SOURCE_LEXERS
from viewer.store import Entry, Located, Record, Store
from viewer.web import access
from viewer.web.export.document import Document
from viewer.web.lookup import counts, title


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


def stored_document(store: Store, record: Record, view: str) -> Document:
    """The `view` of a stored transcript, conversation or dataset (the caller has checked the reader may have
    it: `lookup.chosen_view`)."""
    if record.is_dataset:
        return Document(title=title(record), view=view, dialect=record.dialect, id=record.id,
                        counts={**counts(record), "conversations": record.conversation_count},
                        parts=lambda: _conversations(store, record, view))
    return Document(title=title(record), view=view, dialect=record.dialect, counts=counts(record),
                    id=record.owner_id, header=record.header, conversation=record.conversation,
                    snippet=record.snippet, source_language=SOURCE_LEXERS.get(record.dialect),
                    rows=StoredRows(store, record.id, unmasked=access.reads_secrets(record, view)), live=record.live)


def _conversations(store: Store, dataset: Record, view: str) -> Iterator[Document]:
    for conversation in store.iter_conversations(dataset.id):
        # A conversation's row has no name of its own: its title is its dataset's, with its number.
        yield stored_document(store, dataclasses.replace(conversation, name=dataset.name), view)
