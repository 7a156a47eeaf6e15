"""An owner's search across every upload they hold, with the same full-text index as the search inside one
(viewer/store/search.py), grouped by upload and windowed by upload.

An upload's index keys are one block (`key >> BLOCK_BITS`), blocks numbered in the order uploads were indexed,
so whether an upload has a match is one read of one key range that stops at its first row. The window's uploads
are found among the owner's newest blocks that way (a common word: G + 1 reads for a window of G, the last
saying whether there is a next window), and beyond the first `PROBES` by descending reads of the index
filtered to the owner's blocks, each stopping at its first row (a rare word: a few reads of few rows). Then
for each upload its first matches in reading order and their count up to a cap, each a read of its one range.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from viewer.store.search import BLOCK_BITS, Hit, Query, hits_of, matching

GROUP_COUNT_CAP = 100
"""Matches counted in one upload at most: beyond it the group reads "100+"; its own search counts further."""
PROBES = 32
"""The owner's newest blocks asked one by one before the older ones are found by one filtered scan: a probe is
one read of one key range, so a common word's window costs a few dozen of them, while a scan passes over every
match of other owners' newer uploads on its way."""
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
class Across:
    groups: tuple[Group, ...]
    next_before: int | None
    """The `before` of the next window (None: this is the last)."""


NOTHING = Across((), None)


def find(engine: Engine, blocks: dict[int, str], query: Query, view: str, *, before: int | None, groups: int,
         per_group: int) -> Across:
    """The uploads of `blocks` (block → upload id) with messages matching every term of `query` in `view`,
    newest block first, those before block `before` (None: from the newest), at most `groups` of them."""
    if view not in ("default", "debug"):
        raise ValueError(f"unknown view {view!r}")
    if not blocks or not query.terms:
        return NOTHING
    bound = min(before if before is not None else BLOCK_LIMIT, BLOCK_LIMIT)
    with engine.connect() as conn:
        key, condition, params = matching(conn, query, view)
        found = _newest_blocks(conn, key, condition, params, sorted(blocks), bound, groups + 1)
        shown = found[:groups]
        made = tuple(_group(conn, key, condition, params, block, blocks[block], view, per_group) for block in shown)
    return Across(tuple(group for group in made if group.hits),
                  shown[-1] if len(found) > groups else None)


def _newest_blocks(conn: Connection, key: str, condition: str, params: dict, owned: list[int], bound: int,
                   wanted: int) -> list[int]:
    """Up to `wanted` of the `owned` blocks below `bound` with a match, newest first: the newest `PROBES` asked
    one by one (a common word is found at once in each), then the older ones by one scan (a rarer word)."""
    below = [block for block in reversed(owned) if block < bound]
    probe = text(f"SELECT {key} FROM message_search WHERE {condition} AND {key} >= :low AND {key} < :high LIMIT 1")
    found: list[int] = []
    for block in below[:PROBES]:
        if len(found) == wanted:
            return found
        if conn.execute(probe, {**params, "low": block << BLOCK_BITS, "high": (block + 1) << BLOCK_BITS}).first():
            found.append(block)
    if len(found) < wanted and len(below) > PROBES:
        found += _scan(conn, key, condition, params, below[PROBES:], wanted - len(found))
    return found


def _scan(conn: Connection, key: str, condition: str, params: dict, blocks: list[int], wanted: int) -> list[int]:
    """Up to `wanted` of `blocks` (newest first) with a match: the index read backwards from the newest of them,
    filtered to them, each read stopping at its first row (and the next starting below that row's block)."""
    if conn.dialect.name == "sqlite":  # a list of numbers as one parameter; SQLite makes it an index once
        in_blocks, listed = f"({key} >> {BLOCK_BITS}) IN (SELECT value FROM json_each(:blocks))", json.dumps(blocks)
    else:
        in_blocks, listed = f"({key} >> {BLOCK_BITS}) = ANY(CAST(:blocks AS BIGINT[]))", blocks
    newest = text(f"SELECT {key} FROM message_search WHERE {condition} AND {key} < :bound AND {in_blocks} "
                  f"ORDER BY {key} DESC LIMIT 1")
    found: list[int] = []
    bound = blocks[0] + 1
    while len(found) < wanted and bound > 0:
        hit = conn.execute(newest, {**params, "bound": bound << BLOCK_BITS, "blocks": listed}).scalar()
        if hit is None:
            break
        bound = hit >> BLOCK_BITS
        found.append(bound)
    return found


def _group(conn: Connection, key: str, condition: str, params: dict, block: int, upload_id: str, view: str,
           per_group: int) -> Group:
    in_block = {**params, "low": block << BLOCK_BITS, "high": (block + 1) << BLOCK_BITS}
    sql = f"SELECT {key} AS key FROM message_search WHERE {condition} AND {key} >= :low AND {key} < :high"
    keys = conn.execute(text(f"{sql} ORDER BY key LIMIT :limit"), {**in_block, "limit": per_group}).scalars().all()
    counted = conn.execute(text(f"SELECT count(*) FROM ({sql} LIMIT :cap) AS matched"),
                           {**in_block, "cap": GROUP_COUNT_CAP + 1}).scalar()
    return Group(upload_id, tuple(hits_of(conn, list(keys), view)), min(counted, GROUP_COUNT_CAP),
                 counted > GROUP_COUNT_CAP)
