"""The database tables: one row per transcript, per message, per diagnostic and per call pair.

Per message the row (with its kind: header fields and the default view's decision) holds everything a page
shows, so a page reads one window of rows and never parses; `vrank` numbers the rows the default view shows,
so its windows skip hidden rows by index. A window never reads a hidden row, and a row holds only its own text.
"""
from __future__ import annotations

from sqlalchemy import (Boolean, Column, DateTime, ForeignKey, Index, Integer, LargeBinary, MetaData, String, Table,
                        Text, false)

metadata = MetaData()

INTEGER_RANGE = (-2**31, 2**31 - 1)
"""What an `Integer` column holds on PostgreSQL (INTEGER is 32 bits; SQLite's are 64)."""


def in_integer_range(number: int) -> int:
    """A position asked for (a message index, a rank) brought into the columns' range: PostgreSQL refuses a
    comparison with a larger number outright, and no stored position comes near the bounds."""
    return min(max(number, INTEGER_RANGE[0]), INTEGER_RANGE[1])

transcripts = Table(
    "transcripts", metadata,
    Column("id", String(64), primary_key=True),
    Column("sha256", String(64), nullable=False),
    Column("size", Integer, nullable=False),
    Column("name", String(255), nullable=True),
    Column("requested_dialect", String(16), nullable=False),
    Column("dialect", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("debug_allowed", Boolean, nullable=False),
    Column("manage_hash", String(64), nullable=True),
    Column("is_sample", Boolean, nullable=False, default=False),
    Column("parser_version", String(32), nullable=False),
    Column("header", Text, nullable=False, default="{}"),
    Column("tools", Text, nullable=True),  # JSON: declared tool name → parameters schema; None reads as {}
    Column("message_count", Integer, nullable=False),
    Column("visible_count", Integer, nullable=False),
    Column("hidden_count", Integer, nullable=False),
    Column("diagnostic_count", Integer, nullable=False),
    Column("error_count", Integer, nullable=False),
    Column("pair_count", Integer, nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
    # When a reader claimed this transcript to parse it again (viewer.ingest.up_to_date); None when no one has.
    Column("claimed_at", DateTime(timezone=True), nullable=True),
    # When the share link stops working and the content is deleted; None: kept until pruned by age.
    Column("expires_at", DateTime(timezone=True), nullable=True),
    # A dataset is one upload (parent_id None, conversation_count N) with a row per conversation (parent_id the
    # dataset's id, conversation its number from 0, snippet the first user message the default view shows).
    Column("parent_id", String(64), nullable=True),
    Column("conversation", Integer, nullable=True),
    Column("conversation_count", Integer, nullable=True),
    Column("snippet", Text, nullable=True),
    # Secrets found at upload (JSON: kind → count; None when none) and masked for link holders, who download
    # `masked_raw` instead of `raw`; `secrets_unmasked`: the uploader lets debug-view link holders read them.
    # Personal data and redacted passages masked for link holders are counted there too, by `personal:` keys
    # (viewer/store/personal.py; Record.personal_kinds).
    Column("secret_kinds", Text, nullable=True),
    Column("secrets_unmasked", Boolean, nullable=False, server_default=false()),
    # An upload still being written (viewer/store/live.py): "open" while appends come, "finished" or
    # "truncated" (finished without a stop) after; None for every upload that was never live.
    Column("live", String(16), nullable=True),
    # An upload answered before it was processed (viewer/store/processing.py): "processing" until its parse rows
    # are stored, "failed" when they could not be; None for every readable upload.
    Column("state", String(16), nullable=True),
    # The raw bytes last (revision 0012): SQLite reads a column after a long value by walking its
    # overflow pages, so every read of a record would walk the whole upload. `raw` is None once deleted.
    Column("raw", LargeBinary, nullable=True),
    Column("masked_raw", LargeBinary, nullable=True),
    Index("transcripts_by_parent", "parent_id", "conversation"),
)

message_kinds = Table(
    # The header fields and the default view's decision, stored once per distinct combination: a big transcript
    # repeats a handful of them, and every column of `messages` costs time on each of its rows at upload.
    "message_kinds", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    # Role, channel and intent are as long as the upload makes them (PostgreSQL enforces a VARCHAR's length).
    Column("role", Text, nullable=False),
    Column("name", Text), Column("recipient", Text),
    Column("channel", Text, nullable=False),
    Column("channel_explicit", Boolean, nullable=False),
    Column("content_type", Text), Column("constrained", Boolean, nullable=False),
    Column("intent", Text),
    Column("end", String(16), nullable=False),
    Column("show_as", String(16), nullable=False),
    Column("rule", String(64), nullable=False),
    Column("reason", Text, nullable=False),
)


def _message_columns() -> list[Column]:
    """The columns of a message row (a new list each call: a column belongs to one table)."""
    return [
        Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("vrank", Integer, nullable=True),  # position among the default view's entries; None when hidden
        Column("turn", Integer, nullable=False),
        Column("kind", Integer, nullable=False),  # message_kinds.number
        Column("call_id", Text),
        Column("span_start", Integer, nullable=False), Column("span_end", Integer, nullable=False),
        Column("header_start", Integer), Column("header_end", Integer),
        Column("line", Integer, nullable=False), Column("col", Integer, nullable=False),
        # Most bodies are a slice of the message's own source text: then `content` is None and the body is
        # source[body_start - span_start:body_end - span_start], so it is not stored twice. Otherwise (unwrapped
        # literals, JSON escapes…) `content` holds the body and the body offsets are None.
        Column("body_start", Integer), Column("body_end", Integer),
        Column("content", Text, nullable=True),
        Column("source", Text, nullable=False),  # the exact source span, control tokens included
        Column("segments", Text, nullable=False),  # JSON list
        Column("pair", Integer), Column("partner", Integer),
        # What an agent's log records of a message, as JSON (rows.agent_json): its thread and the call that
        # started it, its parent, its metadata, whether it is aside; None for every other message.
        Column("agent", Text, nullable=True),
        # The inline images its parts carried (JSON: rows.media_json, each a model.Media); None when none.
        Column("media", Text, nullable=True),
    ]


messages = Table("messages", metadata, *_message_columns(), Index("messages_by_rank", "transcript_id", "vrank"))

unmasked_messages = Table(
    # A message row as written, for each row whose text masking changed (those in `messages` are masked): what
    # the uploader's debug view reads instead. Same columns as `messages`.
    "unmasked_messages", metadata, *_message_columns(),
)

diagnostics = Table(
    "diagnostics", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("code", String(64), nullable=False),
    Column("severity", String(16), nullable=False),
    Column("message", Text, nullable=False),
    Column("span_start", Integer, nullable=False), Column("span_end", Integer, nullable=False),
    Column("line", Integer, nullable=False), Column("col", Integer, nullable=False),
    Column("message_index", Integer),
    Index("diagnostics_by_message", "transcript_id", "message_index"),
)

pairs = Table(
    "pairs", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("call", Integer, nullable=False),
    Column("reply", Integer, nullable=False),
    Column("by", String(16), nullable=False),
)

transcript_owners = Table(
    # Which browsers (or tools) hold an upload in their list: the hash of each one's owner key (viewer/store/
    # owners.py); the key itself is never stored. A dataset is owned by its upload row, not per conversation.
    # `uploaded_at` is the upload's `created_at`, copied: the list's order, read from an index (on SQLite a
    # transcript row's columns after `raw` are read by walking the raw bytes' overflow pages, 0.3 s for the
    # created_at of 1,000 uploads of 1 MB).
    "transcript_owners", metadata,
    Column("owner_hash", String(64), primary_key=True),
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("uploaded_at", DateTime(timezone=True), nullable=False),
    Index("transcript_owners_by_transcript", "transcript_id"),
    Index("transcript_owners_by_time", "owner_hash", "uploaded_at"),
)

live_tails = Table(
    # An open live upload's unfinished tail: its bytes (from the first message that may still change), the
    # text before its first message (a YAML header) and where the tail's rows start (viewer/store/live.py).
    "live_tails", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("head", Text, nullable=False),
    Column("tail", LargeBinary, nullable=False),
    Column("checkpoint", Text, nullable=True),  # JSON; None: the tail cannot be parsed alone, parse it all
)

live_chunks = Table(
    # The bytes of an open live upload, one row per append (`transcripts.raw` is empty meanwhile, since SQLite
    # rewrites a whole row on any update); joined into `raw` when the upload is finished. Likewise the bytes of an
    # upload being processed after its answer, as one chunk (viewer/store/processing.py).
    "live_chunks", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("data", LargeBinary, nullable=False),
)

media_blobs = Table(
    # Pasted images, once each however many uploads hold them, keyed by the SHA-256 of the bytes as uploaded
    # (viewer/store/media.py). Only what link holders are served is kept: the image re-encoded from its pixels
    # without metadata, and its thumbnail; the original bytes stay in the upload's raw text, for its uploader.
    "media_blobs", metadata,
    Column("sha256", String(64), primary_key=True),
    Column("source_type", String(32), nullable=False),  # what the uploaded bytes were, by their magic
    Column("size", Integer, nullable=False),  # bytes as uploaded
    Column("type", String(32), nullable=False),  # what is served: image/png or image/jpeg
    Column("width", Integer, nullable=False), Column("height", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("thumbnail", LargeBinary, nullable=False),
    Column("stored_at", DateTime(timezone=True), nullable=False),
)

transcript_media = Table(
    # Which messages hold which image: the media route's access check (a default-view reader is served only an
    # image of a message the default view shows in full) and the blobs' owners (a blob no row names is deleted
    # with the last transcript that held it).
    "transcript_media", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),  # its place among the message's images
    Column("sha256", String(64), nullable=False),
    Column("visible", Boolean, nullable=False),  # the default view shows the message in full
    Index("transcript_media_by_image", "sha256"),
    Index("transcript_media_lookup", "transcript_id", "sha256"),
)

raw_chunks = Table(
    # An upload's bytes as sent, in rows of at most viewer/store/raw.py's CHUNK bytes, written from its spool file
    # and read back a chunk at a time (`transcripts.raw` is then b""; uploads stored before revision 0014 keep
    # their bytes there); `masked`: the chunks of the text link holders download when secrets were masked
    # (`transcripts.masked_raw` is then b"").
    "raw_chunks", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("masked", Boolean, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("data", LargeBinary, nullable=False),
)

processing = Table(
    # Each upload not yet done: the stage it has reached (`parsing`, `storing`, then `indexing` while its search
    # index is built after its rows, or `failed` with the error), the process holding it and when that process
    # last said it was alive. A row whose process died is processed again from the stored raw bytes.
    "processing", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("stage", String(16), nullable=False),
    Column("worker", String(128), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
    Column("error", Text, nullable=True),
    # Messages before this index are stored, with the counts (processing.show_first): a window of them may be
    # read before the rest is stored. None until then.
    Column("stored_upto", Integer, nullable=True),
)

processing_slots = Table(
    # The uploads being parsed and stored at this moment by every serving process on this database, one row a
    # slot (viewer/store/slots.py): a process with PROCESSING_SLOTS n takes one of slots 0 … n-1 for each upload
    # it processes, in its request or after its answer, so the bound holds across processes. Its holder says
    # every few seconds that it is alive (`heartbeat_at`, its lease); a slot whose holder stopped is taken over.
    "processing_slots", metadata,
    Column("slot", Integer, primary_key=True, autoincrement=False),
    Column("worker", String(128), nullable=False),
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
)

personal_findings = Table(
    # The personal data found in an upload (viewer/secrets/personal), one row per distinct value of a kind, for
    # its uploader's manage page only: the value as written, where it is first (line, column and message of the
    # source as uploaded), in how many places, and whether link holders read a placeholder (`masked`), the value
    # because the uploader released it (`released`) or let them see its kind (`shown`). Replaced at each parse.
    "personal_findings", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(32), nullable=False),
    Column("value", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("places", Integer, nullable=False),
    Column("conversation", Integer, nullable=True),
    Column("message_index", Integer, nullable=True),
    Column("line", Integer, nullable=False),
    Column("col", Integer, nullable=False),
)

personal_choices = Table(
    # What the uploader chose for link holders (viewer/store/personal.py): a value released (`release`: kind and
    # value), a kind shown (`show`: kind), a passage redacted (`redact`: the message, and the text chosen in it,
    # or none for the whole message). Kept across parses; each parse applies them.
    "personal_choices", metadata,
    Column("transcript_id", String(64), ForeignKey("transcripts.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("choice", String(16), nullable=False),
    Column("kind", String(32), nullable=True),
    Column("value", Text, nullable=True),
    Column("conversation", Integer, nullable=True),
    Column("message_index", Integer, nullable=True),
)

rate_counters = Table(
    # The request counters of the limits a shared server puts on each client (viewer/web/limits.py, through
    # Flask-Limiter's fixed windows): one row per limit, client and window, gone when the window ends. Shared by
    # every serving process on this database, so that the limits hold however many there are.
    "rate_counters", metadata,
    Column("key", String(255), primary_key=True),
    Column("count", Integer, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

client_uploads = Table(
    # The uploads each client is sending at this moment (viewer/store/counters.py), one row per request, held
    # from the first byte's arrival to its answer: CONCURRENT_UPLOADS bounds them across processes. `client` is
    # a keyed hash of the client's address, never the address; a row whose process stopped counts no more.
    "client_uploads", metadata,
    Column("token", String(32), primary_key=True),
    Column("client", String(64), nullable=False, index=True),
    Column("worker", String(128), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
)
