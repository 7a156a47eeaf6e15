"""Live uploads: an agent appends to its upload as it runs, and each append parses again only the unfinished
tail when it can. An upload with secrets is parsed and masked whole at every append, so that nothing appended
reaches a link holder unmasked."""
from __future__ import annotations

from itertools import islice
from typing import cast

from viewer.ingest.core import STORED_VERSION, examine, keep_findings
from viewer.ingest.masking import Examined
from viewer.ingest.images import store_examined_images
from viewer.model.collector import collector_paused
from viewer.parse.decode import BOM
from viewer.parse.tail import first_unsettled, parse_tail, reads_tails
from viewer.policy import Projection
from viewer.secrets import scan_transcript
from viewer.secrets.personal.scan import scan_with_secrets
from viewer.secrets.scan import scan_text
from viewer.store import Record, Store, live
from viewer.store.summaries import SNIPPET_CHARS


class NotLive(ValueError):
    """An append that an upload refuses (it is finished, or the append would make it a dataset); the message
    says why, for the caller."""


class CannotBeLive(NotLive):
    """An upload that cannot be live (a dataset); the message says why, for the caller."""


def store_live_upload(store: Store, raw: bytes, *, id: str, requested_dialect: str = "auto", **fields) -> Record:
    """Store an upload that stays open for appends (`append`) until `live.finish`."""
    examined = examine(raw, requested_dialect, store.personal.choices(id))
    if examined.shared.conversations:
        raise CannotBeLive("A dataset cannot be live: upload one conversation to append to.")
    store_examined_images(store, examined)
    with collector_paused:
        record = store.add(raw, examined.shared, STORED_VERSION, id=id, requested_dialect=requested_dialect,
                           original=examined.original, secret_kinds=examined.secret_kinds, **fields)
        store.live.open_upload(record.id, next_tail(raw, examined, chunks=1))
    keep_findings(store, id, examined)
    return cast(Record, store.get(id))  # stored a moment ago


def append(store: Store, record: Record, data: bytes) -> Record:
    """Append text (or §9 event lines) to an open live upload and store its parse: the unfinished tail is
    parsed again alone, and the whole upload only when the tail cannot be read alone.
    The one place every appended byte goes through. Raises NotLive when `record` is not open, and
    live.AppendConflict when another append was stored first."""
    tail = store.live.tail(record.id)
    if tail is None:
        raise NotLive("This transcript is finished: it takes no more appends.")
    choices = store.personal.choices(record.id)
    with collector_paused:
        part = _tail_parse(record, tail, data) if tail.at is not None else None
        if part is not None and not choices.redactions and not scan_transcript(
                part.projection.transcript, scan_with_secrets if choices.detect else scan_text):
            store.live.replace_tail(record.id, tail.chunks, data, part)
        else:  # the tail cannot be read alone, or holds something to mask, whose masking moves every offset after it
            raw = (store.raw(record.id) or b"") + data
            examined = examine(raw, record.requested_dialect, choices)
            if examined.shared.conversations:
                raise NotLive("This append would make the upload a dataset, which cannot be live.")
            store_examined_images(store, examined)
            store.live.replace_all(record.id, tail.chunks, data, examined.shared, STORED_VERSION,
                             next_tail(raw, examined, chunks=tail.chunks + 1), original=examined.original,
                             secret_kinds=examined.secret_kinds)
            keep_findings(store, record.id, examined)
    return cast(Record, store.get(record.id))  # stored a moment ago


def next_tail(raw: bytes, examined: Examined, *, chunks: int) -> live.Tail:
    """Where the next append's parse starts: the tail of this whole parse, or nowhere (every append parsed
    whole) once a secret was found, since the stored rows are then in the masked text's offsets."""
    if examined.original is not None:
        return live.Tail("", b"", None, chunks)
    return _whole_tail(raw, examined.shared, chunks=chunks)


def _tail_parse(record: Record, tail: live.Tail, data: bytes) -> live.TailParse | None:
    """The stored tail and the append parsed alone, or None when they cannot be (not clean UTF-8, another
    dialect, tools declared)."""
    raw = tail.data + data
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not reads_tails(record.dialect):
        return None
    transcript = parse_tail(tail.head, text, record.dialect, record.tools)
    if transcript is None:
        return None
    projection = Projection.of(transcript)
    at, head = tail.at, len(tail.head)
    if at is None:  # asked only of a tail with a checkpoint
        return None
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
    if not reads_tails(transcript.dialect) or not transcript.messages:
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
