"""What every export reads: a `Document`, one view of one transcript (or of each conversation of a dataset)
with its entries already projected by the policy. The writers (markdown.py, html.py, the JSON twin) never see
a store or a parse: the web app hands them stored windows (stored.py), the command line a fresh parse
(parsed.py), so both export exactly the same thing.

Entries are read as a stream, a window at a time, so a 50 MB transcript is never held whole."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Protocol, cast

from viewer import policy
from viewer.model.collector import collector_paused
from viewer.model.words import DEBUG, View
from viewer.store import Entry, Located

WINDOW = 500
"""Entries read (and, in the debug view, diagnostics looked up) at a time."""
CHUNK_CHARS = 64 * 1024
"""Characters gathered before a write: one write per entry would cost a system call each."""


class Rows(Protocol):
    """Where a document's entries come from: the store's rows, or a parse's."""

    def entries(self, view: View) -> Iterable[Entry]:
        """Every entry of a view in order; for the default view only those it does not hide."""

    def diagnostics_between(self, first: int, last: int) -> list[Located]:
        """The diagnostics of messages `first`..`last`."""

    def loose_diagnostics(self) -> Iterable[Located]:
        """The diagnostics that belong to no message."""

    def diagnostics(self) -> Iterable[Located]:
        """Every diagnostic, in order."""

    def pairs(self) -> list[dict[str, Any]]:
        """Every call ↔ reply pair as `{"call", "reply", "by"}`."""


NOTHING_HIDDEN = "Every message is shown: nothing was hidden."
WHAT_IS_HIDDEN = ("instructions, the model's reasoning and tools' full arguments and output were not part of what the "
                  "user saw.")
"""The default view's note says one of these, after "N of M messages are not shown:": on the page, in the HTML
file and in the Markdown file alike."""
OTHER_VERSIONS = ("This conversation has other versions (an edited question, a regenerated answer or a rewind): "
                  "this view shows the one the app showed.")
"""What the default view's note adds for a conversation with forks, without showing any other version."""
COUNTED = {"messages": "message_count", "hidden": "hidden_count", "shown": "visible_count",
           "diagnostics": "diagnostic_count", "errors": "error_count", "pairs": "pair_count"}
"""A document's counts, each with the name a stored record (and the store's summary of a parse) gives it."""


def counts_of(read: Callable[[str], int]) -> dict[str, int]:
    """A document's counts from a record's fields or a summary's keys (`read` takes the field's name)."""
    return {count: read(field) for count, field in COUNTED.items()}


def conversation_names(header: dict[str, Any]) -> dict[str, str]:
    """What names a conversation in its dataset's index besides its number, under the key the index's JSON gives
    it: a batch line's `custom_id`, an OpenTelemetry trace's `trace_id`."""
    names = {}
    custom_id = header.get("custom_id")
    if isinstance(custom_id, str) and custom_id:
        names["custom_id"] = custom_id
    otel = header.get("otel")
    traces = otel.get("traces") if isinstance(otel, dict) else None
    if isinstance(traces, list) and len(traces) == 1 and isinstance(traces[0], str):
        names["trace_id"] = traces[0]
    return names


def conversation_label(header: dict[str, Any]) -> str | None:
    """The name the index page shows beside a conversation's number (conversation_names' first)."""
    return next(iter(conversation_names(header).values()), None)


def sample_summary(header: dict[str, Any]) -> dict[str, Any] | None:
    """An Inspect AI sample's id, epoch, target and each scorer's value, as its dataset's index shows them; None
    for a conversation that is no sample."""
    sample = header.get("inspect_sample")
    if not isinstance(sample, dict):
        return None
    scores = sample.get("scores")
    if not isinstance(scores, dict):
        scores = {}
    return {"id": sample.get("id"), "epoch": sample.get("epoch"), "target": sample.get("target"),
            "scores": {name: score.get("value") if isinstance(score, dict) else score
                       for name, score in scores.items()}}


def conversation_title(header: dict[str, Any]) -> dict[str, str]:
    """A chat app's conversation's `title` and `created` date, as its export names it: metadata the uploader chose
    to share, shown in the index of either view (never a message's text)."""
    return {key: header[key] for key in ("title", "created") if isinstance(header.get(key), str) and header[key]}


def conversation_heading(number: int, header: dict[str, Any]) -> str:
    """A dataset's conversation as an export's heading names it: its number, and a chat export's title."""
    named = conversation_title(header).get("title")
    return f"Conversation #{number:,}" + (f" · {named}" if named else "")


@dataclass(frozen=True, slots=True)
class Document:
    """One view of a transcript, or of a dataset's conversations, as the exports read it."""

    title: str
    view: View
    """`default` or `debug`: the caller has already decided that this reader may have it."""
    dialect: str
    counts: dict[str, int]
    """`messages`, `hidden`, `shown`, `diagnostics`, `errors`, `pairs` (and a dataset's `conversations`)."""
    id: str | None = None
    """The share id the web app knows the upload by; None from the command line."""
    header: dict[str, Any] = field(default_factory=dict)
    conversation: int | None = None
    """For a conversation of a dataset: its number."""
    snippet: str | None = None
    """For a conversation of a dataset: the start of its first user message the default view shows."""
    source_language: str | None = None
    """The lexer for each message's source in the debug view."""
    rows: Rows | None = None
    """The entries (None for a dataset)."""
    parts: Callable[[], Iterator[Document]] | None = None
    """For a dataset: its conversations' documents, in order, made as they are read."""
    live: str | None = None
    """For an upload an agent appends to: "open", "finished" or "truncated" (viewer/store/live.py)."""
    media_url: Callable[[str], str] | None = None
    """Where this view serves a shown image, by its SHA-256 (the JSON twin names it); None from the command
    line, which has no server."""
    thumbnail: Callable[[str], Any] | None = None
    """A shown image's thumbnail (its `type` and `data`, cleaned of metadata) by its SHA-256, or None when the
    view may not show it (the HTML export embeds them); None where there is no store of images."""

    @property
    def is_dataset(self) -> bool:
        return self.parts is not None

    @property
    def debug(self) -> bool:
        return self.view == DEBUG

    @property
    def transcript_rows(self) -> Rows:
        """The entries of a transcript's or a conversation's document (a dataset's has `conversations` instead)."""
        return cast(Rows, self.rows)

    def conversations(self) -> Iterator[Document]:
        """A dataset's conversations' documents, in order, made as they are read."""
        return cast(Callable[[], Iterator[Document]], self.parts)()


def items(document: Document) -> Iterator[Entry | policy.Marker]:
    """What the view draws, in order: in the default view shown entries, with each run of tool traffic one
    content-free marker (collapsed across windows); in the debug view every entry."""
    entries = document.transcript_rows.entries(document.view)
    if document.debug:
        return iter(entries)
    return policy.iter_visible_entries(entries)


def windows(document: Document) -> Iterator[tuple[list[Entry | policy.Marker], list[Located]]]:
    """`items` a window at a time, with the debug view's diagnostics of that window's messages."""
    stream = items(document)
    while window := list(islice(stream, WINDOW)):
        found: list[Located] = []
        if document.debug:
            # The debug view's windows hold entries only.
            found = document.transcript_rows.diagnostics_between(cast(Entry, window[0]).index,
                                                                 cast(Entry, window[-1]).index)
        yield window, found


_UNENCODABLE = re.compile("[\x00\ud800-\udfff]")


def buffered(pieces: Iterable[str], *, ascii_only: bool = False) -> Iterator[str]:
    """Pieces gathered into writes of about `CHUNK_CHARS`, each one encodable as UTF-8: a lone surrogate in a
    name or a body (JSON can hold one) would otherwise end a streamed download halfway with an error. Pieces
    known to be ASCII (JSON with every other character escaped) need no such search.

    Each write is made with the cyclic collector paused (never across a `yield`, so a download the client
    drops cannot leave it paused): the entries of a batch of rows live until the batch is written, and the
    collector walked them again and again, a good share of the time a big transcript's JSON twin took."""
    clean = (lambda text: text) if ascii_only else (lambda text: _UNENCODABLE.sub("\ufffd", text))
    pieces = iter(pieces)
    more = True
    while more:
        with collector_paused:
            gathered, more = _gather(pieces)
        yield clean("".join(gathered))


def _gather(pieces: Iterator[str]) -> tuple[list[str], bool]:
    """The next pieces up to `CHUNK_CHARS`, and whether more may follow them."""
    gathered: list[str] = []
    size = 0
    for piece in pieces:
        gathered.append(piece)
        size += len(piece)
        if size >= CHUNK_CHARS:
            return gathered, True
    return gathered, False
