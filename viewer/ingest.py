"""Uploaded bytes to what the store keeps, and stored transcripts parsed again: the pipeline's conductor.

Parsing happens here and only here for the web app: at upload, for the samples, and when a transcript stored
by another `STORED_VERSION` is parsed again, either deliberately (`viewer reparse`) or lazily on its first
open, after claiming it so that concurrent opens parse it once.
"""
from __future__ import annotations

import logging
from itertools import islice

from viewer.model import Transcript
from viewer.model.diagnostics import make_diagnostic
from viewer.parse import DIALECTS, PARSER_VERSION, parse
from viewer.parse.common import collector_paused
from viewer.parse.decode import BOM, decode
from viewer.parse.tail import TAIL_DIALECTS, first_unsettled, parse_tail
from viewer.policy import POLICY_VERSION, Projection
from viewer.store import Record, Store, live
from viewer.store.summaries import SNIPPET_CHARS

DIALECT_CHOICES = ("auto", *DIALECTS)
STORED_VERSION = f"{PARSER_VERSION}+policy-{POLICY_VERSION}"
"""What a stored parse was made by: the parser's version and the policy's, since rows keep both the parse and
each message's default-view decision. A transcript stored by another is parsed again."""

log = logging.getLogger(__name__)


def analyse(raw: bytes, dialect: str = "auto") -> Projection:
    """Parse and apply the policy. Never raises on user input: a parser bug becomes a diagnostic."""
    try:
        with collector_paused:  # the policy's decisions too: see viewer/parse/common.py
            return Projection.of(parse(raw, dialect))
    except Exception as error:  # noqa: BLE001 - an upload must not fail because the parser has a bug
        log.exception("parser failed on an upload")
        return Projection(_unparsed(raw, dialect, error), ())


def _unparsed(raw: bytes, dialect: str, error: Exception) -> Transcript:
    text, _ = decode(raw)
    failure = make_diagnostic("W-PARSER-FAILED", (0, len(text)),
                              f"The parser failed on this input ({type(error).__name__}); "
                              "the raw text is kept and nothing is shown.")
    return Transcript(dialect=dialect if dialect in DIALECTS else "unknown", source=text, diagnostics=(failure,))


def store_upload(store: Store, raw: bytes, *, id: str, requested_dialect: str = "auto", **fields) -> Record:
    """Parse an upload and store it with its parse in one transaction."""
    projection = analyse(raw, requested_dialect)
    with collector_paused:  # the rows are made from objects that all live on; see viewer/parse/common.py
        return store.add(raw, projection, STORED_VERSION, id=id, requested_dialect=requested_dialect, **fields)


def store_sample(store: Store, raw: bytes, *, id: str, name: str) -> bool:
    """Store a sample under its stable id unless the same bytes are already there. True if stored."""
    if store.has_same_bytes(id, raw):
        return False
    projection = analyse(raw)
    with collector_paused:
        return store.replace_sample(raw, projection, STORED_VERSION, id=id, name=name)


def current(store: Store, record: Record) -> Record:
    """The record with a parse by this `STORED_VERSION`: parsed again here if it was stored by another one and
    this caller wins the claim; otherwise (another reader is parsing it now) the stored parse as it is."""
    if record.parser_version == STORED_VERSION or record.deleted:
        return record
    if not store.claim_reparse(record.id, record.parser_version):
        return record
    return reparse(store, record)


def reparse(store: Store, record: Record) -> Record:
    """Parse a stored transcript's raw bytes again and replace its stored parse."""
    raw = store.raw(record.id) or b""
    projection = analyse(raw, record.requested_dialect)
    with collector_paused:
        store.replace_parse(record.id, projection, STORED_VERSION)
        if record.live == live.OPEN:  # its tail starts where this parse says, which another parser may not
            live.set_tail(store, record.id, _whole_tail(raw, projection, chunks=0))
    return store.get(record.id)


def reparse_stale(store: Store, *, everything: bool = False) -> int:
    """Parse again every transcript stored by another parser version (or every one); returns how many."""
    count = 0
    for id in store.ids(stale_for=None if everything else STORED_VERSION):
        record = store.get(id)
        if record is not None and not record.deleted:
            reparse(store, record)
            count += 1
    return count


# ---- live uploads: an agent appends to its upload as it runs ------------------------------------------------

class NotLive(ValueError):
    """An upload that cannot be live, or an append that it refuses; the message says why, for the caller."""


def store_live_upload(store: Store, raw: bytes, *, id: str, requested_dialect: str = "auto", **fields) -> Record:
    """Store an upload that stays open for appends (`append`) until `live.finish`."""
    projection = analyse(raw, requested_dialect)
    if projection.conversations:
        raise NotLive("A dataset cannot be live: upload one conversation to append to.")
    with collector_paused:
        record = store.add(raw, projection, STORED_VERSION, id=id, requested_dialect=requested_dialect, **fields)
        live.open_upload(store, record.id, _whole_tail(raw, projection, chunks=1))
    return store.get(id)


def append(store: Store, record: Record, data: bytes) -> Record:
    """Append text (or §9 event lines) to an open live upload and store its parse: the unfinished tail is
    parsed again alone (viewer/parse/tail.py), and the whole upload only when the tail cannot be read alone.
    The one place every appended byte goes through. Raises NotLive when `record` is not open, and
    live.AppendConflict when another append was stored first."""
    tail = live.tail(store, record.id)
    if tail is None:
        raise NotLive("This transcript is finished: it takes no more appends.")
    with collector_paused:
        part = _tail_parse(record, tail, data) if tail.at is not None else None
        if part is not None:
            live.replace_tail(store, record.id, tail.chunks, data, part)
        else:
            raw = (store.raw(record.id) or b"") + data
            projection = analyse(raw, record.requested_dialect)
            if projection.conversations:
                raise NotLive("This append would make the upload a dataset, which cannot be live.")
            live.replace_all(store, record.id, tail.chunks, data, projection, STORED_VERSION,
                             _whole_tail(raw, projection, chunks=tail.chunks + 1))
    return store.get(record.id)


def _tail_parse(record: Record, tail: live.Tail, data: bytes) -> live.TailParse | None:
    """The stored tail and the append parsed alone, or None when they cannot be (not clean UTF-8, another
    dialect, tools declared)."""
    raw = tail.data + data
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if record.dialect not in TAIL_DIALECTS:
        return None
    transcript = parse_tail(tail.head, text, record.dialect, record.tools)
    if transcript is None:
        return None
    projection = Projection.of(transcript)
    at, head = tail.at, len(tail.head)
    if not transcript.messages:
        return live.TailParse(projection, head, at, live.Tail(tail.head, raw, at, tail.chunks + 1))
    first = first_unsettled(transcript)
    cut = transcript.messages[first].span[0]
    rest = raw[len(text[:cut - head].encode()):]
    return live.TailParse(projection, head, at,
                          live.Tail(tail.head, rest, _checkpoint(projection, head, at, first), tail.chunks + 1))


def _whole_tail(raw: bytes, projection: Projection, *, chunks: int) -> live.Tail:
    """The tail of an upload parsed whole: from its first unsettled message, or no checkpoint when its tail
    cannot be parsed alone."""
    transcript = projection.transcript
    no_checkpoint = live.Tail("", b"", None, chunks)
    if transcript.dialect not in TAIL_DIALECTS or not transcript.messages:
        return no_checkpoint
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return no_checkpoint
    bom = len(BOM.encode()) if text.startswith(BOM) else 0
    first = first_unsettled(transcript)
    cut = transcript.messages[first].span[0]
    start = live.Checkpoint(index=0, rank=0, turn=transcript.messages[0].turn, seq=0, errors=0, pair=0, char=0,
                            line=1, column=1)
    return live.Tail(transcript.source[:transcript.messages[0].span[0]],
                     raw[bom + len(transcript.source[:cut].encode()):],
                     _checkpoint(projection, 0, start, first), chunks)


def _checkpoint(projection: Projection, head: int, at: live.Checkpoint, first: int) -> live.Checkpoint:
    """Where the next tail starts, message `first` of a parse of `head` characters of head and a tail that
    starts at checkpoint `at`, in the upload's numbers."""
    transcript = projection.transcript
    message = transcript.messages[first]
    cut = message.span[0]
    settled = [d for d in transcript.diagnostics if head <= d.span[0] < cut]
    line, column = transcript.position(cut)
    head_line, head_column = transcript.position(head)
    if line == head_line:
        line, column = at.line, at.column + column - head_column
    else:
        line = at.line + line - head_line
    return live.Checkpoint(
        index=at.index + first, rank=at.rank + sum(1 for rank in islice(projection.ranks(), first) if rank is not None),
        turn=at.turn + message.turn - transcript.messages[0].turn, seq=at.seq + len(settled),
        errors=at.errors + sum(1 for d in settled if d.severity == "error"),
        pair=at.pair + sum(1 for pair in transcript.pairs if pair.reply < first),
        char=at.char + cut - head, line=line, column=column, snippet=at.snippet if at.snippet is not None else
        _snippet(projection, first))


def _snippet(projection: Projection, before: int) -> str | None:
    """The upload's snippet, if the first user message the default view shows is one of the first `before`."""
    message = projection.first_visible_user_message()
    return message.content[:SNIPPET_CHARS] if message is not None and message.index < before else None
