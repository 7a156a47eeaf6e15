"""The store: transcripts and their parse rows in SQL (SQLite by default; any SQLAlchemy URL, PostgreSQL
included). A pure repository: it is handed parses (`Projection`s) to keep and never parses anything itself.

Pages read one window of rows at a time; `viewer.ingest` decides when a transcript is parsed again.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import io
from typing import Any, BinaryIO, Collection, Iterable, Iterator, cast

from sqlalchemy import func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from viewer.model import Meta, Usage
from viewer.model.words import DEBUG, View
from viewer.policy import Projection
from viewer.store import (counters, live, masked, media, migrate, owner_search, owners, personal, processing,
                          raw as raw_bytes, rows, search, slots, streamed, summaries, usage)
from viewer.store.bulk import delete_parse, insert_conversations, insert_parse
from viewer.store.engine import bulk_transaction, open_engine
from viewer.store.types import Entry, Located, Record
from viewer.store.schema import diagnostics, message_kinds, messages, pairs, transcripts
from viewer.store.schema import in_integer_range as _position

BATCH = 5000
"""Rows read per query when iterating over a whole transcript."""
CLAIM_LEASE = dt.timedelta(minutes=10)
"""How long a claim to parse a transcript again holds; a reader that died while parsing is taken over after."""


def hash_key(key: str) -> str:
    """What is stored of a manage key. The key is 256 random bits, so a plain digest is enough."""
    return hashlib.sha256(key.encode()).hexdigest()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Store:
    """The app's one way to read and write transcripts: their rows here, and what only some uploads have in
    sub-repositories of their own."""

    def __init__(self, url: str) -> None:
        self.engine = open_engine(url)
        migrate.upgrade(self.engine)
        self.live = live.LiveUploads(self.engine)
        """Uploads an agent appends to: their chunks and tails."""
        self.secrets = masked.Secrets(self.engine)
        """The secrets found in each upload: the masked raw text, the unmasked rows' switch, the findings."""
        self.search = search.Search(self.engine)
        """The full-text index of message bodies."""
        self.owners = owners.Owners(self.engine)
        """Whose list each upload is in: the hashes of owner keys."""
        self.owner_search = owner_search.OwnerSearch(self.engine)
        """The search across an owner's uploads, on the same index."""
        self.media = media.MediaBlobs(self.engine)
        """Pasted images, once each, and which messages hold them."""
        self.processing = processing.Processing(self.engine)
        """Uploads answered before they were processed: how far each got, and which process holds it."""
        self.slots = slots.Slots(self.engine)
        """The uploads being processed at this moment by every serving process: the bound on them."""
        self.personal = personal.Personal(self.engine)
        """The personal data found in each upload, and what its uploader chose for link holders."""
        self.usage = usage.Usage(self.engine)
        """Bytes stored, per owner key and in all: what the quotas of a shared server read."""
        self.counters = counters.RateCounters(self.engine)
        """The request counters of the limits on each client, shared by every serving process."""
        self.client_uploads = counters.ClientUploads(self.engine)
        """The uploads each client is sending at this moment."""

    # ---- writing ---------------------------------------------------------------------------------------

    def add(self, raw: bytes | BinaryIO, projection: Projection, parser_version: str, *, id: str,
            requested_dialect: str = "auto", debug_allowed: bool = False, manage_hash: str | None = None,
            name: str | None = None, is_sample: bool = False, keep_for: dt.timedelta | None = None,
            original: Projection | None = None, secret_kinds: dict[str, int] | None = None,
            replacing: bool = False) -> Record:
        """Store an upload and its parse in one transaction; returns after the commit. With `replacing`, what was
        stored under `id` is forgotten in the same transaction (readers see it until the new one is in). `raw`: its
        bytes, or a file
        of them (a spool file, read from where it stands, a chunk at a time: viewer/store/raw.py). With
        `keep_for`, the upload expires that long after now. With `original`, `projection` is it with secrets
        masked (of `secret_kinds`): link holders read that, and the rows it changed are kept as written beside."""
        row = {**summaries.upload_row(id, name=name, requested_dialect=requested_dialect, keep_for=keep_for,
                                      debug_allowed=debug_allowed, manage_hash=manage_hash, is_sample=is_sample,
                                      now=_now()),
               **summaries.secrets(secret_kinds)}
        with bulk_transaction(self.engine) as conn:
            if replacing:
                self._forget(conn, id, serialized=True)
            conn.execute(insert(transcripts).values(**row, **summaries.summary(projection, parser_version)))
            written = raw_bytes.write(conn, id, io.BytesIO(raw) if isinstance(raw, bytes) else raw)
            masked = raw_bytes.keep_masked(conn, id, projection, original)
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(
                sha256=written.sha256, size=written.size, **({"masked_raw": masked} if masked is not None else {})))
            insert_conversations(conn, {**row, "sha256": written.sha256, "size": written.size}, projection,
                                 parser_version)
            insert_parse(conn, id, projection, original)
        return cast(Record, self.get(id))  # stored a moment ago

    def add_streamed(self, raw: BinaryIO, batches: Iterable[streamed.Batch], parser_version: str, *, id: str,
                     requested_dialect: str = "auto", debug_allowed: bool = False, manage_hash: str | None = None,
                     name: str | None = None, keep_for: dt.timedelta | None = None) -> Record:
        """Store a dataset a batch of conversations at a time (viewer/store/streamed.py), then its raw bytes from
        `raw` (a spool file, read once the batches are stored), all in one transaction. An exception from
        `batches` rolls everything back."""
        row = {**summaries.upload_row(id, name=name, requested_dialect=requested_dialect, keep_for=keep_for,
                                      debug_allowed=debug_allowed, manage_hash=manage_hash, is_sample=False,
                                      now=_now()),
               "secret_kinds": None, "masked_raw": None}
        summary = streamed.dataset_summary(parser_version, dict.fromkeys(streamed.COUNTS, 0))
        with bulk_transaction(self.engine) as conn:
            conn.execute(insert(transcripts).values(**row, **summary))
            totals = streamed.insert_batches(conn, {**row, **summary}, batches, parser_version)
            raw.seek(0)
            written = raw_bytes.write(conn, id, raw)
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(
                sha256=written.sha256, size=written.size, **streamed.dataset_summary(parser_version, totals)))
        return cast(Record, self.get(id))  # stored a moment ago

    def has_same_bytes(self, id: str, raw: bytes) -> bool:
        """Whether `id` is stored, not deleted, with exactly these bytes."""
        with self.engine.connect() as conn:
            stored = conn.execute(select(transcripts.c.sha256, transcripts.c.deleted_at)
                                  .where(transcripts.c.id == id)).first()
        return stored is not None and stored.deleted_at is None and stored.sha256 == hashlib.sha256(raw).hexdigest()

    def replace_sample(self, raw: bytes, projection: Projection, parser_version: str, *, id: str, name: str,
                       **secrets: Any) -> bool:
        """Store a sample under its stable id, replacing what was there in the same transaction: a server starting
        beside this one lists the old sample until the new one is in. False if another process stored it at the
        same moment. `secrets`: as `add` takes them."""
        try:
            self.add(raw, projection, parser_version, id=id, name=name, is_sample=True, debug_allowed=True,
                     replacing=True, **secrets)
        except (IntegrityError, self.engine.dialect.loaded_dbapi.IntegrityError):  # rows go in by DB-API cursor
            return False
        return True

    def forget(self, id: str) -> None:
        """Remove a transcript and its parse entirely, tombstone included."""
        with self.engine.begin() as conn:
            self._forget(conn, id)

    @staticmethod
    def _forget(conn, id: str, *, serialized: bool = False) -> None:
        """Delete transcript `id` and all it holds. `serialized`: on PostgreSQL, wait first for any other
        transaction replacing the same id (two servers storing one sample at once), so that the second deletes
        what the first stored rather than failing on its key."""
        if serialized and conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:id))"), {"id": id})
        images = media.held_by(conn, id)
        delete_parse(conn, id)
        raw_bytes.forget(conn, id)
        live.forget(conn, id)
        processing.forget(conn, id)
        personal.forget(conn, id)
        conn.execute(transcripts.delete().where(transcripts.c.id == id))
        media.drop_unheld(conn, images)

    def claim_reparse(self, id: str, seen_version: str) -> bool:
        """Claim a transcript stored by `seen_version` for parsing again. True for exactly one caller among
        concurrent ones (the guarded update takes the row lock), until the claim's lease runs out."""
        now = _now()
        with self.engine.begin() as conn:
            return bool(conn.execute(
                update(transcripts)
                .where(transcripts.c.id == id, transcripts.c.parser_version == seen_version,
                       or_(transcripts.c.claimed_at.is_(None), transcripts.c.claimed_at < now - CLAIM_LEASE))
                .values(claimed_at=now)).rowcount)

    def replace_parse(self, id: str, projection: Projection, parser_version: str, *,
                      original: Projection | None = None, secret_kinds: dict[str, int] | None = None) -> None:
        """Replace a transcript's stored parse with a new one (`original` and `secret_kinds` as `add` takes
        them), in one transaction, and release any claim."""
        with bulk_transaction(self.engine) as conn:
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(**summaries.summary(projection, parser_version), claimed_at=None,
                                 **summaries.secrets(secret_kinds)))
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(masked_raw=raw_bytes.keep_masked(conn, id, projection, original)))
            images = media.held_by(conn, id)
            delete_parse(conn, id)
            parent = conn.execute(select(*rows.record_columns()).where(transcripts.c.id == id)).one()._asdict()
            insert_conversations(conn, {**parent, "raw": None}, projection, parser_version)
            insert_parse(conn, id, projection, original)
            media.drop_unheld(conn, images)  # those the new parse no longer holds

    def replace_streamed(self, id: str, batches: Iterable[streamed.Batch], parser_version: str) -> None:
        """Replace a dataset's stored parse with one made a batch at a time (as `add_streamed` stores it), in one
        transaction, and release any claim. An exception from `batches` rolls everything back."""
        with bulk_transaction(self.engine) as conn:
            delete_parse(conn, id)
            parent = conn.execute(select(*rows.record_columns()).where(transcripts.c.id == id)).one()._asdict()
            totals = streamed.insert_batches(conn, {**parent, "raw": None, "masked_raw": None}, batches,
                                             parser_version)
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(
                claimed_at=None, secret_kinds=None, masked_raw=raw_bytes.keep_masked(conn, id, None, None),
                **streamed.dataset_summary(parser_version, totals)))

    def set_debug(self, id: str, allowed: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(debug_allowed=allowed))

    def set_manage_hash(self, id: str, manage_hash: str) -> None:
        """A new manage key's hash for upload `id`: the manage link made with the old key stops working."""
        with self.engine.begin() as conn:
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(manage_hash=manage_hash))

    def set_expiry(self, id: str, expires_at: dt.datetime | None) -> None:
        """When the link of upload `id` (and its conversations, for a dataset) expires; None: never."""
        with self.engine.begin() as conn:
            conn.execute(update(transcripts).where(or_(transcripts.c.id == id, transcripts.c.parent_id == id))
                         .values(expires_at=expires_at))

    def delete(self, id: str) -> None:
        """Forget the content; keep a tombstone so the link can say it was deleted."""
        with self.engine.begin() as conn:
            images = media.held_by(conn, id)
            delete_parse(conn, id)
            media.drop_unheld(conn, images)
            raw_bytes.forget(conn, id)
            live.forget(conn, id)
            owners.forget(conn, id)
            processing.forget(conn, id)
            personal.forget(conn, id)
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(raw=None, masked_raw=None, header="{}", tools=None, name=None, deleted_at=_now()))

    def prune(self, *, created_before: dt.datetime | None = None) -> list[str]:
        """Delete (to tombstones) every upload past its expiry, and with `created_before` every upload made
        before it; samples are never pruned. Returns the ids deleted."""
        now = _now()
        due = transcripts.c.expires_at <= now
        if created_before is not None:
            due = or_(due, transcripts.c.created_at < created_before)
        query = (select(transcripts.c.id).where(due, transcripts.c.deleted_at.is_(None),
                                                transcripts.c.is_sample.is_(False), transcripts.c.parent_id.is_(None))
                 .order_by(transcripts.c.created_at))
        with self.engine.connect() as conn:
            ids = list(conn.execute(query).scalars())
        for id in ids:
            self.delete(id)
        return ids

    def ping(self) -> bool:
        """Whether the database answers a query."""
        try:
            with self.engine.connect() as conn:
                return conn.execute(select(1)).scalar() == 1
        except SQLAlchemyError:
            return False

    # ---- reading ---------------------------------------------------------------------------------------

    def get(self, id: str) -> Record | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*rows.record_columns()).where(transcripts.c.id == id)).first()
        return rows.record(row) if row is not None else None

    def samples(self) -> list[Record]:
        query = (select(*rows.record_columns()).where(transcripts.c.is_sample, transcripts.c.deleted_at.is_(None),
                                                      transcripts.c.parent_id.is_(None))
                 .order_by(transcripts.c.name))
        with self.engine.connect() as conn:
            return [rows.record(row) for row in conn.execute(query)]

    def ids(self, *, stale_for: str | None = None) -> list[str]:
        """Ids of stored (not deleted) transcripts; with `stale_for`, those stored by another parser version (an
        upload not yet processed has none, and is left to its worker)."""
        query = (select(transcripts.c.id).where(transcripts.c.deleted_at.is_(None), transcripts.c.parent_id.is_(None))
                 .order_by(transcripts.c.id))
        if stale_for is not None:
            query = query.where(transcripts.c.parser_version != stale_for, transcripts.c.state.is_(None))
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def conversation(self, id: str, number: int) -> Record | None:
        """Conversation `number` of dataset `id`."""
        return self.get(summaries.conversation_id(id, number))

    def conversations(self, id: str, start: int, size: int) -> list[Record]:
        """Up to `size` conversations of dataset `id` from number `start`, in order (an indexed range read)."""
        query = (select(*rows.record_columns())
                 .where(transcripts.c.parent_id == id, transcripts.c.conversation >= _position(start))
                 .order_by(transcripts.c.conversation).limit(size))
        with self.engine.connect() as conn:
            return [rows.record(row) for row in conn.execute(query)]

    def iter_conversations(self, id: str) -> Iterator[Record]:
        """Every conversation of dataset `id` in order, read in batches."""
        start = 0
        while True:
            batch = self.conversations(id, start, BATCH)
            yield from batch
            if len(batch) < BATCH:
                return
            start = cast(int, batch[-1].conversation) + 1  # a conversation's row has its number

    def raw(self, id: str) -> bytes | None:
        """The upload's bytes whole (small callers; a download reads `raw_stream`)."""
        with self.engine.connect() as conn:
            return raw_bytes.whole(conn, id, conn.execute(select(transcripts.c.raw)
                                                          .where(transcripts.c.id == id)).scalar())

    def raw_range(self, id: str, start: int, end: int) -> bytes:
        """Bytes `[start, end)` of a stored upload (an image's payload, read back by its place in the file)."""
        with self.engine.connect() as conn:
            return raw_bytes.read_range(conn, id, start, end)

    def raw_stream(self, id: str) -> Iterator[bytes] | None:
        """The upload's bytes a chunk at a time (None when it is unknown or deleted)."""
        return raw_bytes.stream(self.engine, id)

    def window(self, id: str, view: View, start: int, size: int, *, unmasked: bool = False) -> list[Entry]:
        """Up to `size` entries of a view from position `start` (a message index in the debug view, a rank
        among the non-hidden entries in the default view, so hidden rows are never read for it). Positions are
        dense (0, 1, 2…), so the range is bounded on both sides: with `>= start` alone PostgreSQL's planner,
        whose statistics may predate a big upload, joined and sorted every row of the transcript instead of
        reading one index range. `unmasked`: rows that masking changed as written."""
        key = messages.c.idx if view == DEBUG else messages.c.vrank
        first = _position(max(start, 0))
        query = (masked.entries().where(messages.c.transcript_id == id, key >= first, key < _position(first + size))
                 .order_by(key).limit(size))
        with self.engine.connect() as conn:
            found = [rows.entry(row) for row in conn.execute(query)]
            return masked.unmasked(conn, id, found) if unmasked else found

    def entry(self, id: str, index: int, *, unmasked: bool = False) -> Entry | None:
        """One message's row, whatever the view (the caller applies the policy)."""
        query = masked.entries().where(messages.c.transcript_id == id, messages.c.idx == _position(index))
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
            if row is None:
                return None
            found = [rows.entry(row)]
            return (masked.unmasked(conn, id, found) if unmasked else found)[0]

    def position(self, id: str, view: View, index: int) -> int | None:
        """The window position of message `index`, or of the next entry the view shows."""
        if view == DEBUG:
            return index
        query = (select(messages.c.vrank).where(messages.c.transcript_id == id, messages.c.idx >= _position(index),
                                                messages.c.vrank.is_not(None))
                 .order_by(messages.c.idx).limit(1))
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    def diagnostics(self, id: str, *, first: int | None = None, last: int | None = None,
                    unattached_only: bool = False, limit: int | None = None) -> list[Located]:
        """Diagnostics of messages `first..last`, or those attached to no message."""
        query = select(diagnostics).where(diagnostics.c.transcript_id == id)
        if unattached_only:
            query = query.where(diagnostics.c.message_index.is_(None))
        if first is not None and last is not None:
            query = query.where(diagnostics.c.message_index.between(_position(first), _position(last)))
        query = query.order_by(diagnostics.c.seq).limit(limit)
        with self.engine.connect() as conn:
            return [rows.located(row) for row in conn.execute(query)]

    def iter_entries(self, id: str, view: View, *, unmasked: bool = False) -> Iterator[Entry]:
        """Every entry of a view in order, read in batches."""
        start = 0
        while True:
            batch = self.window(id, view, start, BATCH, unmasked=unmasked)
            yield from batch
            if len(batch) < BATCH:
                return
            start = batch[-1].position(view) + 1

    def iter_diagnostics(self, id: str) -> Iterator[Located]:
        """Every diagnostic in order, read in batches (a hostile upload may have a million)."""
        seq = 0
        while True:
            query = (select(diagnostics).where(diagnostics.c.transcript_id == id, diagnostics.c.seq >= seq)
                     .order_by(diagnostics.c.seq).limit(BATCH))
            with self.engine.connect() as conn:
                batch = list(conn.execute(query))
            yield from (rows.located(row) for row in batch)
            if len(batch) < BATCH:
                return
            seq = batch[-1].seq + 1

    def pairs(self, id: str) -> list[dict[str, Any]]:
        query = select(pairs).where(pairs.c.transcript_id == id).order_by(pairs.c.number)
        with self.engine.connect() as conn:
            return [{"call": row.call, "reply": row.reply, "by": row.by} for row in conn.execute(query)]

    def decided_by(self, id: str, rule: str) -> bool:
        """Whether any message of transcript `id` is decided by the policy's rule `rule` (the rows' kinds say it:
        one indexed read, however long the transcript)."""
        with self.engine.connect() as conn:
            return conn.execute(select(message_kinds.c.number).where(
                message_kinds.c.transcript_id == id, message_kinds.c.rule == rule).limit(1)).first() is not None

    def tree(self, id: str, only: Collection[int] | None = None) -> tuple[dict[int, int | None], set[int]]:
        """The parent links of a tree-shaped transcript's messages (of messages `only`, when given) and those
        stored aside, read from the rows that record them (a chat export's and an agent's; no other row does)."""
        query = (select(messages.c.idx, messages.c.agent)
                 .where(messages.c.transcript_id == id, messages.c.agent.is_not(None)).order_by(messages.c.idx))
        if only is not None:
            query = query.where(messages.c.idx.in_([_position(index) for index in only]))
        parents: dict[int, int | None] = {}
        aside: set[int] = set()
        with self.engine.connect() as conn:
            for index, logged in conn.execute(query):
                data = rows.agent_links(logged)
                parents[index] = data.get("parent")
                if data.get("aside"):
                    aside.add(index)
        return parents, aside

    def usages(self, id: str) -> Iterator[tuple[str | None, Usage, str | None]]:
        """Each model response's `(model, usage, time)` as its log recorded them, read from the rows that record
        a usage (an agent's; no other row has an `agent` column), in order, a batch at a time."""
        query = (select(messages.c.idx, messages.c.agent)
                 .where(messages.c.transcript_id == id, messages.c.agent.is_not(None),
                        messages.c.agent.contains('"usage"')).order_by(messages.c.idx))
        with self.engine.connect() as conn:
            for _, logged in conn.execution_options(yield_per=BATCH).execute(query):
                meta = rows.agent_links(logged).get("meta")
                if isinstance(meta, dict) and isinstance(meta.get("usage"), dict):
                    found = Meta.from_json(meta)
                    if found.usage is not None:
                        yield found.model, found.usage, found.timestamp

    def message_row_count(self, id: str) -> int:
        """Message rows stored for a transcript (none once deleted)."""
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(messages)
                                .where(messages.c.transcript_id == id)).scalar_one()

