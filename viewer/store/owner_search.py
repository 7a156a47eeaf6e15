"""An owner's search across every upload they hold (`Store.owner_search`), with the same full-text index as the
search inside one (`search`), grouped by upload and windowed by upload.

An upload's index keys are one block (`key >> BLOCK_BITS`), blocks numbered in the order uploads were indexed,
so an upload's first matches are one read of one key range, and their count another, which stops at a cap.
The window's uploads are found among the owner's newest blocks that way, one read each (a common word: G + 1
reads for a window of G, the last saying whether there is a next window); beyond the first `PROBES` blocks,
by reading the index backwards filtered to the owner's older blocks, each read stopping at its first row (a
rarer word: a few reads of few rows). Then one read of the messages for the whole window.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from viewer.model.words import VIEWS, View
from viewer.store.search import BLOCK_BITS, Hit, Query, keyed_hits, matching

GROUP_COUNT_CAP = 100
"""Matches counted in one upload at most: beyond it the group reads "100+"; its own search counts further."""
PROBES = 32
"""The owner's newest blocks read one by one before the older ones are found by a filtered scan: a probe is
one read of one key range, so a common word's window costs a few dozen of them, while a scan passes over every
match in other owners' newer uploads on its way."""
BLOCK_LIMIT = 2**31 - 1
"""The highest block a window may start before (keys are 64-bit: `block << 32` must stay below 2**63)."""


@dataclass(frozen=True, slots=True)
class Group:
    """The matches of one upload (a dataset's: in all its conversations)."""

    upload_id: str
    hits: tuple[Hit, ...]
    """Its first matches in reading order."""
    count: int
    """Its matches, counted up to `GROUP_COUNT_CAP`."""
    more: bool
    """Whether it has more than `GROUP_COUNT_CAP`."""


@dataclass(frozen=True, slots=True)
class OwnerResults:
    """One window of an owner's search: the uploads with matches, newest first."""

    groups: tuple[Group, ...]
    next_before: int | None
    """The `before` of the next window (None: this is the last)."""


NO_MATCHES = OwnerResults((), None)


@dataclass(frozen=True, slots=True)
class _Asker:
    """The index's questions for one query in one view, on one connection."""

    conn: Connection
    key: str
    condition: str
    params: dict

    def in_block(self, block: int, first: int) -> tuple[list[int], int]:
        """The keys of the block's `first` first matches, and its matches counted up to `GROUP_COUNT_CAP` + 1
        (counted in the database: fetching each key costs more than finding it)."""
        matches = (f"SELECT {self.key} AS key FROM message_search WHERE {self.condition} AND {self.key} >= :low "
                   f"AND {self.key} < :high")
        params = {**self.params, "low": block << BLOCK_BITS, "high": (block + 1) << BLOCK_BITS}
        keys = list(self.conn.execute(text(f"{matches} ORDER BY key LIMIT {first}"), params).scalars())
        if not keys:
            return [], 0
        # Ordered like the keys' read, so that PostgreSQL plans both alike (a walk of the key range for a
        # common word, the GIN index for a rare one).
        counted = self.conn.execute(text(f"SELECT count(*) FROM ({matches} ORDER BY key "
                                         f"LIMIT {GROUP_COUNT_CAP + 1}) AS found"), params).scalar_one()
        return keys, counted

    def newest_among(self, blocks: list[int], wanted: int) -> list[int]:
        """Up to `wanted` of `blocks` (newest first) with a match, newest first."""
        if self.conn.dialect.name == "sqlite":
            return self._sqlite_newest_among(blocks, wanted)
        # PostgreSQL: all the matches below the newest of them, from the GIN index (a materialized CTE: with
        # ORDER BY … LIMIT 1 the planner walked the primary key backwards, testing every row, 2 s for a rare
        # word), grouped by block.
        query = text(f"WITH found AS MATERIALIZED (SELECT sid FROM message_search WHERE {self.condition} "
                     f"AND sid < :bound) SELECT sid >> {BLOCK_BITS} AS block FROM found "
                     f"WHERE (sid >> {BLOCK_BITS}) = ANY(CAST(:blocks AS BIGINT[])) "
                     f"GROUP BY block ORDER BY block DESC LIMIT {wanted}")
        return list(self.conn.execute(query, {**self.params, "bound": (blocks[0] + 1) << BLOCK_BITS,
                                              "blocks": blocks}).scalars())

    def _sqlite_newest_among(self, blocks: list[int], wanted: int) -> list[int]:
        """The index read backwards from the newest of `blocks`, filtered to them (a list of numbers as one
        parameter, which SQLite makes an index of once), each read stopping at its first row and the next
        starting below that row's block."""
        query = text(f"SELECT rowid FROM message_search WHERE {self.condition} AND rowid < :bound "
                     f"AND (rowid >> {BLOCK_BITS}) IN (SELECT value FROM json_each(:blocks)) "
                     f"ORDER BY rowid DESC LIMIT 1")
        found: list[int] = []
        bound, listed = blocks[0] + 1, json.dumps(blocks)
        while len(found) < wanted and bound > 0:
            hit = self.conn.execute(query, {**self.params, "bound": bound << BLOCK_BITS, "blocks": listed}).scalar()
            if hit is None:
                break
            bound = hit >> BLOCK_BITS
            found.append(bound)
        return found


class OwnerSearch:
    """The search across an owner's uploads, on the store's full-text index (`Store.owner_search`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def find(self, blocks: dict[int, str], query: Query, view: View, *, before: int | None = None, groups: int = 20,
             per_group: int = 3) -> OwnerResults:
        """The uploads of `blocks` (block → upload id: `Owners.blocks`) with messages matching every term of
        `query` in `view`, newest block first, those before block `before` (None: from the newest), at most
        `groups` of them, each with its first `per_group` matches."""
        return _find(self.engine, blocks, query, view, before=before, groups=groups, per_group=per_group)


def _find(engine: Engine, blocks: dict[int, str], query: Query, view: View, *, before: int | None, groups: int,
          per_group: int) -> OwnerResults:
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}")
    if not blocks or not query.terms:
        return NO_MATCHES
    bound = min(before if before is not None else BLOCK_LIMIT, BLOCK_LIMIT)
    with engine.connect() as conn:
        asker = _Asker(conn, *matching(conn, query, view, statistics=True))
        matched = _matching_blocks(asker, [block for block in sorted(blocks, reverse=True) if block < bound],
                                   groups + 1, per_group)
        shown = matched[:groups]
        hits: dict[int, list[Hit]] = {}  # one read of the messages for the whole window
        for key, hit in keyed_hits(conn, sorted(key for _, keys, _ in shown for key in keys), view):
            hits.setdefault(key >> BLOCK_BITS, []).append(hit)
    made = (Group(blocks[block], tuple(hits.get(block, ())), min(counted, GROUP_COUNT_CAP),
                  counted > GROUP_COUNT_CAP) for block, _, counted in shown)
    return OwnerResults(tuple(group for group in made if group.hits), shown[-1][0] if len(matched) > groups else None)


def _matching_blocks(asker: _Asker, below: list[int], wanted: int,
                     first: int) -> list[tuple[int, list[int], int]]:
    """Up to `wanted` of the blocks `below` (newest first) with a match, each with its `first` first matches'
    keys and its matches counted."""
    found: list[tuple[int, list[int], int]] = []
    for block in below[:PROBES]:
        if len(found) == wanted:
            return found
        keys, counted = asker.in_block(block, first)
        if keys:
            found.append((block, keys, counted))
    older = below[PROBES:]
    if older and len(found) < wanted:
        found += [(block, *asker.in_block(block, first)) for block in asker.newest_among(older, wanted - len(found))]
    return found
