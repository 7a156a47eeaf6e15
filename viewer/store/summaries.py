"""What a transcript's row keeps besides its raw bytes: counts, header, declared tools, the snippet a dataset's
index shows; and a dataset's conversation rows (each conversation is a transcript row of its dataset)."""
from __future__ import annotations

import datetime as dt
import json
from typing import Any, Iterator

from viewer.model import Transcript
from viewer.policy import Projection
from viewer.store.rows import bound

SNIPPET_CHARS = 160


def upload_row(id: str, *, name: str | None, requested_dialect: str, keep_for: dt.timedelta | None,
               debug_allowed: bool, manage_hash: str | None, is_sample: bool, now: dt.datetime) -> dict[str, Any]:
    """What a transcripts row says of an upload before its bytes are written: its raw bytes are its chunks
    (viewer/store/raw.py), whose size and SHA-256 are set once written."""
    from viewer.store import raw  # with the database: a fresh parse's summary (`summary`) is made without it

    return {"id": id, "raw": raw.IN_CHUNKS, "sha256": "", "size": 0, "name": name,
            "requested_dialect": requested_dialect, "created_at": now,
            "expires_at": now + keep_for if keep_for is not None else None,
            "debug_allowed": debug_allowed, "manage_hash": manage_hash, "is_sample": is_sample}


def summary(projection: Projection, parser_version: str) -> dict[str, Any]:
    """The counts and header a transcript row keeps; for a dataset, summed over its conversations."""
    if projection.conversations:
        return _dataset_summary(projection, parser_version)
    transcript = projection.transcript
    hidden = projection.hidden_count
    first_question = projection.first_visible_user_message()
    return {
        "snippet": bound(first_question.content[:SNIPPET_CHARS]) if first_question is not None else None,
        "dialect": transcript.dialect,
        "parser_version": parser_version,
        "header": _json(transcript.header),
        "tools": _json(transcript.tools),
        "message_count": len(transcript.messages),
        "visible_count": len(transcript.messages) - hidden,
        "hidden_count": hidden,
        "diagnostic_count": len(transcript.diagnostics),
        "error_count": sum(1 for diagnostic in transcript.diagnostics if diagnostic.severity == "error"),
        "pair_count": len(transcript.pairs),
    }


def secrets(kinds: dict[str, int] | None) -> dict[str, Any]:
    """What an upload's row keeps of its secrets: how many of each kind (the text a link holder downloads is kept
    in chunks: viewer/store/raw.py `keep_masked`)."""
    return {"secret_kinds": json.dumps(kinds, ensure_ascii=False) if kinds else None, "masked_raw": None}


def _json(value: dict[str, Any]) -> str:
    # Most are empty (every conversation of a dataset has a header and tools), and json.dumps costs microseconds.
    if not value:
        return "{}"
    text = json.dumps(value, default=str, ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (YAML reads `"\ud800"` as one): escaped, as JSON allows
            return json.dumps(value, default=str)
    return text


def _dataset_summary(projection: Projection, parser_version: str) -> dict[str, Any]:
    parts = [summary(conversation, parser_version) for conversation in projection.conversations]
    return {**totals(parts, projection.transcript), "dialect": projection.transcript.dialect,
            "parser_version": parser_version, "header": _json(projection.transcript.header), "tools": "{}",
            "snippet": None}


def totals(parts: list[dict[str, Any]], dataset: Transcript) -> dict[str, int]:
    """A dataset's counts: the sums of its conversations' (`parts`: their summaries, or their rows, which hold
    them), with the diagnostics of the dataset's own lines."""
    counts = {key: sum(part[key] for part in parts) for key in (
        "message_count", "visible_count", "hidden_count", "diagnostic_count", "error_count", "pair_count")}
    own = dataset.diagnostics
    counts["diagnostic_count"] += len(own)
    counts["error_count"] += sum(1 for diagnostic in own if diagnostic.severity == "error")
    counts["conversation_count"] = len(parts)
    return counts


def conversation_rows(parent: dict[str, Any], projection: Projection, parser_version: str, *,
                      first: int = 0) -> Iterator[dict]:
    """The row of each conversation of a dataset: the dataset's upload fields, and its own summary; numbered from
    `first` (a dataset stored a batch at a time, viewer/store/streamed.py)."""
    for number, conversation in enumerate(projection.conversations, start=first):
        start, end = _extent(conversation.transcript)
        yield {**parent, "id": conversation_id(parent["id"], number), "raw": None, "masked_raw": None, "sha256": "",
               "size": end - start, "name": None, "manage_hash": None, "parent_id": parent["id"],
               "conversation": number, "conversation_count": None,
               **summary(conversation, parser_version)}


def conversation_id(parent_id: str, number: int) -> str:
    """A conversation's row id: never the shape of a share id, so no link opens it without its dataset."""
    return f"{parent_id}.{number}"


def _extent(transcript: Transcript) -> tuple[int, int]:
    spans = [message.span for message in transcript.messages] + [d.span for d in transcript.diagnostics]
    if not spans:
        return 0, 0
    return min(start for start, _ in spans), max(end for _, end in spans)
