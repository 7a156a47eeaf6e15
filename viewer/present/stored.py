"""Documents of stored transcripts, for the web app's exports: the entries come from the store a window at a
time (the default view's by rank, so its hidden rows are never read), and the counts from stored totals; and a
stored transcript's title."""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any, Callable, Iterable, Iterator, cast

from viewer.formats import source_lexer
from viewer.model.words import DEBUG, View
from viewer.present.document import Document, conversation_title, counts_of
from viewer.store import Entry, Located, Record, Store
from viewer.store.media import Served


class StoredRows:
    """One stored transcript's rows, read as an export asks for them."""

    def __init__(self, store: Store, id: str, *, unmasked: bool = False) -> None:
        self.store = store
        self.id = id
        self.unmasked = unmasked
        """Whether the reader reads the secrets found rather than their placeholders."""

    def entries(self, view: View) -> Iterable[Entry]:
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


def stored_document(store: Store, record: Record, view: View, *, unmasked: bool,
                    media_url: Callable[[str], str] | None = None) -> Document:
    """`view` of a stored transcript, conversation or dataset, as a reader who reads its secrets (`unmasked`) or
    not sees it; `media_url` names each image's URL (none for a document written after its request)."""
    if record.is_dataset:
        return Document(title=title(record), view=view, dialect=record.dialect, id=record.id, header=record.header,
                        counts={**counts(record), "conversations": cast(int, record.conversation_count)},
                        parts=lambda: _conversations(store, record, view, unmasked))
    return Document(title=title(record), view=view, dialect=record.dialect, counts=counts(record),
                    id=record.owner_id, header=record.header, conversation=record.conversation,
                    snippet=record.snippet, source_language=source_lexer(record.dialect),
                    rows=StoredRows(store, record.id, unmasked=unmasked), live=record.live,
                    media_url=media_url, thumbnail=partial(_thumbnail, store, record.id, view == DEBUG))


def _thumbnail(store: Store, id: str, debug: bool, sha256: str) -> Served | None:
    """Image `sha256`'s thumbnail as the reader's view of transcript `id` may show it: the store checks again
    that a message of the view holds it."""
    return store.media.served(id, sha256, debug=debug, thumbnail=True)


def _conversations(store: Store, dataset: Record, view: View, unmasked: bool) -> Iterator[Document]:
    for conversation in store.iter_conversations(dataset.id):
        # A conversation's row has no name of its own: its title is its dataset's, with its number.
        named = dataclasses.replace(conversation, name=dataset.name)
        # Made as the export is written, after the request: a dataset's exports name no image URLs (its twin is
        # an index of conversations; its Markdown and HTML keep placeholders).
        yield stored_document(store, named, view, unmasked=unmasked)


def title(record: Record) -> str:
    """What a page, an export and a tab call a stored transcript: its name, and a conversation's number and title."""
    name = record.name or ("Pasted transcript" if not record.is_sample else record.owner_id)
    if record.conversation is not None:
        named = conversation_title(record.header).get("title")  # a chat app's export names its conversations
        return f"{name} · conversation #{record.conversation:,}" + (f" · {named}" if named else "")
    return name


def counts(record: Record) -> dict[str, int]:
    """A stored transcript's counts, by the names the documents and pages show them under."""
    return counts_of(partial(getattr, record))
