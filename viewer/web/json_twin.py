"""The JSON twin of a view, streamed: a 50 MB transcript's JSON is written batch by batch, never held whole.
Every message goes through the policy's `default_json` / `debug_json`, the one definition of each view's JSON."""
from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from viewer import policy
from viewer.model import DATASET_SCHEMA, SCHEMA
from viewer.store import Record, Store
from viewer.web.lookup import counts

CHUNK_CHARS = 64 * 1024
"""Characters gathered before a write: one write per message would cost a system call each."""


def stream(store: Store, record: Record, view: str) -> Iterator[str]:
    """The view as one JSON object, in chunks of about `CHUNK_CHARS`; a dataset's is its index."""
    if record.is_dataset:
        head = {"schema": DATASET_SCHEMA, "id": record.id, "view": view, "dialect": record.dialect,
                "counts": {**counts(record), "conversations": record.conversation_count}}
        return _buffered(_dataset_pieces(store, record, head))
    head = {"schema": SCHEMA, "id": record.owner_id, "view": view, "dialect": record.dialect,
            "counts": counts(record)}
    if record.conversation is not None:
        head["conversation"] = record.conversation
    if view == "debug":
        head["header"] = record.header
    return _buffered(_pieces(store, record, view, head))


def _dataset_pieces(store: Store, record: Record, head: dict[str, Any]) -> Iterator[str]:
    yield json.dumps(head)[:-1]
    yield from _array("conversations", (conversation_summary(conversation)
                                        for conversation in store.iter_conversations(record.id)))
    yield "}"


def conversation_summary(conversation: Record) -> dict[str, Any]:
    """What a dataset's index says of one conversation: its counts, and the start of its first user message
    that the default view shows (never of a hidden one)."""
    return {"index": conversation.conversation, **counts(conversation), "snippet": conversation.snippet}


def _buffered(pieces: Iterator[str]) -> Iterator[str]:
    gathered: list[str] = []
    size = 0
    for piece in pieces:
        gathered.append(piece)
        size += len(piece)
        if size >= CHUNK_CHARS:
            yield "".join(gathered)
            gathered, size = [], 0
    yield "".join(gathered)


def _pieces(store: Store, record: Record, view: str, head: dict[str, Any]) -> Iterator[str]:
    """The head's keys, then `messages` (and, for debug, `pairs` and `diagnostics`) one item at a time."""
    yield json.dumps(head)[:-1]
    if view == "debug":
        yield from _array("messages", (policy.debug_json(entry.message, show_as=entry.show_as, rule=entry.rule,
                                                         reason=entry.reason, pair=entry.pair)
                                       for entry in store.iter_entries(record.id, "debug")))
        yield from _array("pairs", store.pairs(record.id))
        yield from _array("diagnostics", (located.diagnostic.to_json()
                                          for located in store.iter_diagnostics(record.id)))
    else:
        yield from _array("messages", (_default_item(item) for item in
                                       policy.iter_visible_entries(store.iter_entries(record.id, "default"))))
    yield "}"


def _default_item(item: Any) -> dict[str, Any]:
    if isinstance(item, policy.Marker):
        return policy.marker_json(item)
    return policy.default_json(item.message, item.show_as)


def _array(key: str, items: Iterable[Any]) -> Iterator[str]:
    yield f', "{key}": ['
    separator = ""
    for item in items:
        yield separator + json.dumps(item)  # ASCII: a lone surrogate in a body cannot break the encoding
        separator = ", "
    yield "]"
