"""Documents of a fresh parse, for the command line (`viewer render`): its entries are built by the store's own
row functions (`entries_in_memory`) and its counts by the store's own summary, so a file exported without a
server says exactly what the web app's export of the same upload says."""
from __future__ import annotations

from typing import Any, Iterable

from viewer.formats import source_lexer
from viewer.model.words import DEBUG, View
from viewer.policy import Projection
from viewer.present.document import Document, counts_of
from viewer.store import Entry, Located
from viewer.store.rows import entries_in_memory
from viewer.store.summaries import summary


class ParsedRows:
    """One parsed transcript's entries and diagnostics, as the store would give them back."""

    def __init__(self, projection: Projection) -> None:
        transcript = projection.transcript
        self._entries = entries_in_memory(projection)
        self._diagnostics = [Located(diagnostic, *transcript.position(diagnostic.span[0]))
                             for diagnostic in transcript.diagnostics]
        self._by_message: dict[int | None, list[Located]] = {}
        for located in self._diagnostics:
            self._by_message.setdefault(located.diagnostic.message_index, []).append(located)
        self._pairs = [pair.to_json() for pair in transcript.pairs]

    def entries(self, view: View) -> Iterable[Entry]:
        if view == DEBUG:
            return iter(self._entries)
        return (entry for entry in self._entries if entry.show_as != "hidden")

    def diagnostics_between(self, first: int, last: int) -> list[Located]:
        return [located for index in range(first, last + 1) for located in self._by_message.get(index, ())]

    def loose_diagnostics(self) -> Iterable[Located]:
        return iter(self._by_message.get(None, ()))

    def diagnostics(self) -> Iterable[Located]:
        return iter(self._diagnostics)

    def pairs(self) -> list[dict[str, Any]]:
        return self._pairs


def parsed_document(projection: Projection, view: View, title: str) -> Document:
    """The `view` of a freshly parsed transcript or dataset, titled `title` (the file's name)."""
    counts = counts_of(summary(projection, "").__getitem__)
    transcript = projection.transcript
    if projection.conversations:
        return Document(title=title, view=view, dialect=transcript.dialect, header=transcript.header,
                        counts={**counts, "conversations": len(projection.conversations)},
                        parts=lambda: (_conversation(part, number, view, title)
                                       for number, part in enumerate(projection.conversations)))
    return Document(title=title, view=view, dialect=transcript.dialect, counts=counts, header=transcript.header,
                    source_language=source_lexer(transcript.dialect), rows=ParsedRows(projection))


def _conversation(projection: Projection, number: int, view: View, title: str) -> Document:
    found = summary(projection, "")
    transcript = projection.transcript
    return Document(title=f"{title} · conversation #{number:,}", view=view, dialect=transcript.dialect,
                    counts=counts_of(found.__getitem__), header=transcript.header, conversation=number, snippet=found["snippet"],
                    source_language=source_lexer(transcript.dialect), rows=ParsedRows(projection))
