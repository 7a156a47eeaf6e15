"""Big line-oriented uploads (an agent's session log: its record names a `LineReader`, `Dialect.lines`) parsed a
piece at a time: the file read a piece of whole lines at a time (viewer/parse/pieces.py), each piece's messages
finished by the dialect's reader once the next piece is read (viewer/parse/agents/online.py), and each batch of
them checked, paired and given its images as `parse` does a whole transcript, so that memory follows the piece,
not the file.

What a batch holds is final but for what later lines decide: the pair of a call answered in a later batch
(`SessionBatch.late_pairs`), changes to a message finished before (`SessionEnd.amendments`: a preamble, a
response's usage moving on, a branch aside, a thread's call) and what only the end says (`SessionEnd.notes`:
unanswered calls, forks, threads with no call). Whoever stores the batches applies those to what it stored
(viewer/store/sessions.py); a test checks that the result is the whole parse's (tests/store/test_sessions.py).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import msgspec

from viewer import formats
from viewer.analysis import check
from viewer.analysis.pairing import Pairing, unanswered_text
from viewer.bundles import is_bundle
from viewer.model import Message, Note, Pair, Thread, Transcript
from viewer.model.collector import collector_paused
from viewer.parse.agents.online import Batch, Ending, LineReader, Reread, read_pieces
from viewer.parse.agents.session import Change
from viewer.parse.decode import BOM
from viewer.parse.detect import detect
from viewer.parse.inline_media import attach_media
from viewer.parse.pieces import Piece, Unstreamable, pieces
from viewer.parse.surrogates import cleaned_value, replace_lone_surrogates
from viewer.parse.thinning import in_words

STREAM_FROM = 8 << 20
"""Uploads at least this big are read a piece at a time when their dialect can be; smaller ones whole."""
HEAD_BYTES = 65536
"""What the dialect is detected from (detect.py reads as much), then on to the end of its line."""


@dataclass(frozen=True, slots=True)
class SessionBatch:
    """A piece's messages, finished and analysed: a transcript of the piece alone (spans into its text), whose
    messages keep their numbers in the session and whose pairs are numbered from `first_pair`."""

    transcript: Transcript
    """With the threads as known now, and the pairs whose reply is in the piece."""
    piece: Piece
    first_pair: int
    """The number (from 1, in the session) of the batch's first pair."""
    late_pairs: tuple[int, ...]
    """The numbers of the batch's pairs whose call was in an earlier batch (its stored row learns its pair)."""


@dataclass(frozen=True, slots=True)
class SessionEnd:
    """What the end of the session decides."""

    header: dict[str, Any]
    threads: tuple[Thread, ...]
    notes: list[Note]
    amendments: dict[int, list[Change]]
    messages: int
    """How many messages the session has."""
    aside: frozenset[int] = frozenset()
    """The messages of the branches left aside (amended so among `amendments`)."""


def streamed_dialect(file: BinaryIO, requested: str = "auto", *, stream_from: int | None = None) -> str | None:
    """The dialect a spooled upload is read a piece at a time as (its record names a `LineReader`), or None when
    it is read whole (smaller than `STREAM_FROM`, not clean UTF-8 at its head, a bundle, another dialect, a form of
    the dialect its reader does not read: `LineReader.reads`); the file is left at its start."""
    try:
        size = file.seek(0, 2)
        if size < (STREAM_FROM if stream_from is None else stream_from):
            return None
        if requested != "auto" and formats.dialect(requested).lines is None:
            return None
        file.seek(0)
        head = (file.read(HEAD_BYTES) + file.readline()).decode("utf-8")
    except UnicodeDecodeError:
        return None
    finally:
        file.seek(0)
    if head.startswith(BOM) or is_bundle(head):
        return None
    chosen = detect(head) if requested == "auto" else requested
    lines = formats.dialect(chosen).lines
    return chosen if lines is not None and formats.load(lines).reads(head) else None


def read_session(file: BinaryIO, dialect: str, *, piece_bytes: int | None = None,
                 cut_from: int | None = None) -> Iterator[SessionBatch | SessionEnd]:
    """The session in `file` (read as `dialect`, whose record names a `LineReader`) a batch at a time, then its
    end. Raises `Unstreamable` when it turns out not to be one this can read as the whole parse does (found
    partway: the caller drops what it stored and parses it whole)."""
    record = formats.dialect(dialect)
    reader: LineReader = formats.load(record.lines)()
    pairing = Pairing(record.pairing) if record.replies else None  # see `parse._finish`
    cancelled: set[int] = set()
    numbered = messages = 0
    escapes = False
    cut = record.session is not None and record.session.thinned
    try:
        read = pieces(file, cut=cut, piece_bytes=piece_bytes, cut_from=cut_from, starts=reader.starts,
                      ends=reader.ends)
        for item in read_pieces(reader, read):
            if isinstance(item, Ending):
                yield _end(item, pairing, cancelled, messages, escapes)
                return
            with collector_paused:
                batch = _analysed(item, reader, pairing, cancelled, numbered)
            numbered += len(batch.transcript.pairs)
            messages += len(batch.transcript.messages)
            escapes = escapes or item.piece.escapes
            yield batch
    except Reread as reason:
        raise Unstreamable(str(reason)) from None


def _analysed(batch: Batch, reader: LineReader, pairing: Pairing | None, cancelled: set[int],
              numbered: int) -> SessionBatch:
    """The batch as `parse` finishes a transcript: lone surrogates replaced, images named, calls paired, checked,
    diagnostics in source order."""
    piece = batch.piece
    transcript = dataclasses.replace(batch.transcript, threads=reader.threads_now())
    if piece.escapes:
        transcript = replace_lone_surrogates(transcript)
    with piece.reading():
        transcript = attach_media(transcript)
    pairs, paired = pairing.feed(transcript.messages) if pairing is not None else ([], [])
    cancelled.update(diagnostic.message_index for diagnostic in transcript.diagnostics
                     if diagnostic.code == "E-TOOL-CANCELLED" and diagnostic.message_index is not None)
    diagnostics = sorted([*transcript.diagnostics, *check(transcript), *paired],
                         key=lambda diagnostic: (diagnostic.span[0], diagnostic.span[1]))
    messages = in_file(transcript.messages, piece)
    if piece.cuts is not None:
        messages = in_words(messages, piece.cuts)
    first = messages[0].index if messages else 0
    late = tuple(numbered + number for number, pair in enumerate(pairs, start=1) if pair.call < first)
    transcript = dataclasses.replace(transcript, messages=messages, pairs=tuple(pairs), diagnostics=tuple(diagnostics))
    return SessionBatch(transcript, piece, numbered + 1, late)


def in_file(messages: tuple[Message, ...], piece: Piece) -> tuple[Message, ...]:
    """The messages with each long detail kept as its span (`{"$source": [start, end]}`,
    viewer/parse/agents/records.py) pointing into the file, as the whole parse's do, not into the piece."""
    relocation = piece.cuts.relocation(piece.text) if piece.cuts is not None else None

    def at(offset: int) -> int:
        return (relocation.offset(offset) if relocation is not None else offset) + piece.chars

    def moved(value: Any) -> Any:
        if isinstance(value, dict):
            span = value.get(SOURCE_KEY)
            if len(value) == 1 and isinstance(span, list) and len(span) == 2 and all(type(end) is int for end in span):
                return {SOURCE_KEY: [at(span[0]), at(span[1])]}
            return {key: moved(item) for key, item in value.items()}
        if isinstance(value, list):
            return [moved(item) for item in value]
        return value

    done = []
    for message in messages:
        meta = message.meta
        if meta is not None and meta.details and (piece.chars or relocation is not None):
            message = msgspec.structs.replace(message, meta=dataclasses.replace(meta, details=moved(meta.details)))
        done.append(message)
    return tuple(done)


SOURCE_KEY = "$source"


def _end(ending: Ending, pairing: Pairing | None, cancelled: set[int], messages: int, escapes: bool) -> SessionEnd:
    ended = ending.ended
    notes = list(ended.notes)
    for index, recipient in pairing.unanswered(frozenset(cancelled)) if pairing is not None else ():
        text, expected = unanswered_text(index, recipient, messages - 1)
        notes.append(Note("W-UNANSWERED-CALL", text, index, at_header=True, expected=expected))
    header = cleaned_value(ended.header) if escapes else ended.header
    return SessionEnd(header, ended.threads, notes, ending.amendments, messages, ended.aside)


__all__ = ["STREAM_FROM", "SessionBatch", "SessionEnd", "Unstreamable", "Pair", "read_session", "streamed_dialect"]
