"""The JSON twin of a view, streamed: a 50 MB transcript's JSON is written batch by batch, never held whole.
Every message goes through the policy's `default_json` / `debug_json`, the one definition of each view's JSON.
It reads a `Document` (document.py), so `viewer render --format json` writes the same thing."""
from __future__ import annotations

import json
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from viewer import policy
from viewer.model import DATASET_SCHEMA, SCHEMA
from viewer.model.branches import FORKS_KEY
from viewer.model.words import DEBUG, DEFAULT
from viewer.present.document import Document, buffered, conversation_names, conversation_title, sample_summary

ARRAY_BATCH = 200


def stream(document: Document) -> Iterator[str]:
    """The view as one JSON object, in chunks; a dataset's is its index."""
    head: dict[str, Any]
    if document.is_dataset:
        head = {"schema": DATASET_SCHEMA, "id": document.id, "view": document.view, "dialect": document.dialect,
                "counts": document.counts}
        if document.view == "debug" and document.header:
            head["header"] = document.header
        return buffered(_dataset_pieces(document, head), ascii_only=True)
    head = {"schema": SCHEMA, "id": document.id, "view": document.view, "dialect": document.dialect,
            "counts": document.counts}
    if document.conversation is not None:
        head["conversation"] = document.conversation
    if document.live is not None:
        head["live"] = document.live
    if document.debug:
        head["header"] = document.header
    elif document.header.get(FORKS_KEY):  # the default view says other versions exist, without showing them
        head["other_versions"] = True
    return buffered(_pieces(document, head), ascii_only=True)


def _dataset_pieces(document: Document, head: dict[str, Any]) -> Iterator[str]:
    yield json.dumps(head)[:-1]
    yield from _array("conversations", (conversation_summary(part) for part in document.conversations()))
    yield "}"


def conversation_summary(conversation: Document) -> dict[str, Any]:
    """What a dataset's index says of one conversation, as its page does: its counts, the start of its first user
    message that the default view shows (never of a hidden one), its name (a batch line's `custom_id`, a trace's
    `trace_id`) and an evaluation sample's id, target and scores (`sample`)."""
    summary: dict[str, Any] = {"index": conversation.conversation, **conversation.counts,
                               "snippet": conversation.snippet, **conversation_names(conversation.header)}
    if (sample := sample_summary(conversation.header)) is not None:
        summary["sample"] = sample
    return summary | conversation_title(conversation.header)  # a chat export's title and date


def _pieces(document: Document, head: dict[str, Any]) -> Iterator[str]:
    """The head's keys, then `messages` (and, for debug, `pairs` and `diagnostics`) one item at a time."""
    rows = document.transcript_rows
    yield json.dumps(head)[:-1]
    named = _with_media_urls(document.media_url)
    if document.debug:
        yield from _array("messages", (named(policy.debug_json(entry.message, show_as=entry.show_as, rule=entry.rule,
                                                               reason=entry.reason, pair=entry.pair))
                                       for entry in rows.entries(DEBUG)))
        yield from _array("pairs", rows.pairs())
        yield from _array("diagnostics", (located.diagnostic.to_json() for located in rows.diagnostics()))
    else:
        yield from _array("messages", (named(_default_item(item)) for item in
                                       policy.iter_visible_entries(rows.entries(DEFAULT))))
    yield "}"


def _default_item(item: Any) -> dict[str, Any]:
    if isinstance(item, policy.Marker):
        return policy.marker_json(item)
    return policy.default_json(item.message, item.show_as, item.said)


def _with_media_urls(media_url: Callable[[str], str] | None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """What names the URL of each shown image of a message's JSON (`url`, beside its hash), where there is a
    server to serve it."""
    def named(data: dict[str, Any]) -> dict[str, Any]:
        if media_url is not None:
            for media in data.get("media", ()):
                if "refused" not in media:
                    media["url"] = media_url(media["sha256"])
        return data
    return named


def _array(key: str, items: Iterable[Any]) -> Iterator[str]:
    """`"key": [item, item …]`, encoded `ARRAY_BATCH` items at a time (one call of the C encoder each, the same
    text as one per item). ASCII: a lone surrogate in a body cannot break the encoding."""
    yield f', "{key}": ['
    separator = ""
    items = iter(items)
    while batch := list(islice(items, ARRAY_BATCH)):
        yield separator + json.dumps(batch)[1:-1]
        separator = ", "
    yield "]"
