"""A big dataset stored a batch of conversations at a time, so that storing it never holds the whole parse: each
batch is the parse of a piece of the file (whole lines, its spans into the piece), stored as its conversations'
rows moved to the file's offsets and lines, then let go. The file's raw bytes are written from its spool after
the rows, all in one transaction: a reader sees the whole dataset or nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from sqlalchemy.engine import Connection

from viewer.policy import Projection
from viewer.store import summaries
from viewer.store.bulk import insert_parses, insert_rows
from viewer.store.shift import Shift
from viewer.store.schema import transcripts

COUNTS = ("message_count", "visible_count", "hidden_count", "diagnostic_count", "error_count", "pair_count",
          "conversation_count")


@dataclass(frozen=True, slots=True)
class Batch:
    """The parse of a piece of a dataset's file and where the piece starts in it."""

    projection: Projection
    """A dataset's projection (its conversations), spans into the piece."""
    chars: int
    """Characters of the file's text before the piece."""
    lines: int
    """Line breaks before the piece (it starts at the beginning of a line, so columns stay as they are)."""


def insert_batches(conn: Connection, parent: dict[str, Any], batches: Iterable[Batch],
                   parser_version: str) -> dict[str, int]:
    """Insert each batch's conversation rows and parse rows, numbered on from the batch before; returns the
    dataset's counts (its row's summary)."""
    totals = dict.fromkeys(COUNTS, 0)
    for batch in batches:
        first = totals["conversation_count"]
        conversation_rows = list(summaries.conversation_rows(parent, batch.projection, parser_version, first=first))
        insert_rows(conn, transcripts, sorted(conversation_rows, key=lambda row: row["id"]))
        ids = [summaries.conversation_id(parent["id"], first + number)
               for number in range(len(batch.projection.conversations))]
        insert_parses(conn, list(zip(ids, batch.projection.conversations)), shift=Shift(batch.chars, batch.lines))
        found = summaries.totals(conversation_rows, batch.projection.transcript)  # each row holds its counts
        for key in COUNTS:
            totals[key] += found[key]
    return totals


def dataset_summary(parser_version: str, totals: dict[str, int]) -> dict[str, Any]:
    """A streamed dataset's row summary (as `summaries.summary` gives for a dataset parsed whole)."""
    return {**totals, "dialect": "json", "parser_version": parser_version, "header": "{}", "tools": "{}",
            "snippet": None}


__all__ = ["Batch", "Shift", "dataset_summary", "insert_batches"]
