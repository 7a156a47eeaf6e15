"""`viewer lint`: every diagnostic of a transcript file at its line and column, in source order, the secrets found
in it among them (W-SECRET: kind and a masked preview, never the secret).

A file is parsed whole (`whole`), but for a big agent session whose format is read a piece at a time
(viewer/parse/streamed.py, as the server stores it): that one is linted a batch at a time (`streamed`), so that
memory follows the batch, not the file (the whole parse of a 100 MB session peaks near 600 MB). Each batch's
diagnostics and secrets are placed by a line index of its piece alone (a piece starts at a line's start), and
printed once the next batch is read.

What only the end of the session decides comes last, so the order is the whole parse's but for that: the end's
notes (a call never answered, a branch left aside, a sub-agent with no call) about a message of the last batch
take their place among its lines; those about an earlier message follow every other line, in source order; a
secret in the session's header (whose holder is the file's start, 1:1, in the whole parse) comes after them. The
set of lines is the whole parse's (tests/cli/test_lint_streamed.py).

A session that turns out partway not to be one the piece-at-a-time reading tells as the whole parse does
(`Unstreamable`) is parsed whole then: the lines already printed are not printed again when they are the whole
parse's first lines; otherwise every line is printed again after a note on standard error.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from viewer.model import Diagnostic, Message, Note, Span, Transcript
from viewer.model.lines import LineIndex
from viewer.parse.pieces import Piece, Unstreamable
from viewer.parse.streamed import SessionBatch, SessionEnd, read_session, streamed_dialect
from viewer.secrets import diagnostics as secret_diagnostics, scan_transcript


@dataclass(frozen=True, slots=True)
class Placed:
    """A diagnostic at its place in the file: its span in the file's characters, its line and column (from 1)."""

    diagnostic: Diagnostic
    span: Span
    line: int
    column: int

    @property
    def stops(self) -> bool:
        """Whether it fails the lint: an error, or a secret (a CI job stops the transcript before it is
        published)."""
        return self.diagnostic.severity == "error" or self.diagnostic.code == "W-SECRET"

    def printed(self, path: str) -> str:
        return f"{path}:{self.line}:{self.column}: {self.diagnostic.code} {self.diagnostic.message}"


def read_streamed(path: str, requested: str = "auto", primed_role: str | None = None) -> str | None:
    """The dialect the file at `path` is linted a piece at a time as (a big session of a format read so), or None:
    parsed whole (a smaller file, standard input, a primed completion, another format)."""
    if path == "-" or primed_role or not os.path.isfile(path):
        return None
    with open(path, "rb") as file:
        return streamed_dialect(file, requested)


def linted(path: str, requested: str, primed_role: str | None, whole_parse: Callable[[], Transcript]
           ) -> Iterator[Placed]:
    """The diagnostics of the file at `path`, in the order they are printed; `whole_parse` parses it whole."""
    dialect = read_streamed(path, requested, primed_role)
    if dialect is None:
        yield from whole(whole_parse())
        return
    done = _Printed()
    try:
        with open(path, "rb") as file:
            for placed in streamed(file, dialect):
                done.add(placed)
                yield placed
    except Unstreamable as reason:
        yield from done.rest(whole(whole_parse()), path, str(reason))


def whole(transcript: Transcript) -> Iterator[Placed]:
    """The diagnostics of a transcript parsed whole, with its secrets, in source order (ties: the parse's order,
    then the secrets)."""
    located = scan_transcript(transcript)
    secrets = [diagnostic for conversation in (None, *range(len(transcript.conversations)))
               for diagnostic in secret_diagnostics(located, conversation)]
    # A dataset's conversations share its source, so their positions are in the same file.
    found = [diagnostic for part in (transcript, *transcript.conversations) for diagnostic in part.diagnostics]
    for diagnostic in sorted(found + secrets, key=lambda d: d.span):
        yield Placed(diagnostic, diagnostic.span, *transcript.position(diagnostic.span[0]))


def streamed(file: BinaryIO, dialect: str, *, piece_bytes: int | None = None) -> Iterator[Placed]:
    """The diagnostics of a session read a batch at a time (`read_session`), a batch's once the next is read,
    then the end's, in the order the module's docstring says."""
    places = _MessagePlaces()
    held: list[Placed] = []
    held_from = 0
    """The first message of the batch whose lines are held."""
    for item in read_session(file, dialect, piece_bytes=piece_bytes):
        if isinstance(item, SessionEnd):
            yield from _ended(item, dialect, held, held_from, places)
            return
        yield from held
        held_from = places.count
        held = _batch(item, places)


def _batch(batch: SessionBatch, places: _MessagePlaces) -> list[Placed]:
    """A batch's diagnostics and secrets at their places in the file, in source order; its messages' places
    kept for the end's notes."""
    transcript = batch.transcript
    piece = _PiecePlaces(batch.piece)
    for message in transcript.messages:
        places.add(message, piece)
    # The header is scanned once, at the end: a batch's says what is known so far.
    secrets = secret_diagnostics(scan_transcript(dataclasses.replace(transcript, header={})))
    return [piece.placed(diagnostic) for diagnostic in sorted([*transcript.diagnostics, *secrets],
                                                               key=lambda d: d.span)]


def _ended(end: SessionEnd, dialect: str, held: list[Placed], held_from: int,
           places: _MessagePlaces) -> Iterator[Placed]:
    """The last batch's lines with the end's notes about its messages among them, then the notes about earlier
    messages, then the header's secrets."""
    notes = [(note.index >= held_from, places.placed(note)) for note in end.notes if places.holds(note.index)]
    yield from sorted([*held, *(placed for last, placed in notes if last)], key=_in_file)
    yield from sorted((placed for last, placed in notes if not last), key=_in_file)
    yield from _header_secrets(end.header, dialect)


def _in_file(placed: Placed) -> Span:
    return placed.span


def _header_secrets(header: dict, dialect: str) -> Iterator[Placed]:
    """The secrets in the session's header, held by the file's start as the whole parse places them (a session's
    frame has no YAML header)."""
    for diagnostic in secret_diagnostics(scan_transcript(Transcript(dialect=dialect, source="", header=header))):
        yield Placed(diagnostic, diagnostic.span, 1, 1)


class _PiecePlaces:
    """A piece's offsets (into its thin text, its image payloads cut out) to the file's characters, lines and
    columns: a line index of the piece alone, moved by the lines and characters before it."""

    def __init__(self, piece: Piece) -> None:
        self.piece = piece
        self.lines = LineIndex(piece.text)
        self.relocation = piece.cuts.relocation(piece.text) if piece.cuts is not None else None

    def offset(self, at: int) -> int:
        moved = self.relocation.offset(at) if self.relocation is not None else at
        return moved + self.piece.chars

    def position(self, at: int) -> tuple[int, int]:
        line, column = self.lines.position(at)
        if self.relocation is not None:  # the payloads before it on its line are in the file
            column = self.relocation.column(at, column)
        return line + self.piece.lines, column

    def placed(self, diagnostic: Diagnostic) -> Placed:
        span = (self.offset(diagnostic.span[0]), self.offset(diagnostic.span[1]))
        return Placed(dataclasses.replace(diagnostic, span=span), span, *self.position(diagnostic.span[0]))


_NONE = -1


class _MessagePlaces:
    """Where each message of the session lies in the file (its span, its header's, their lines and columns), in
    machine integers, eight a message: the end's notes are placed at messages of batches long gone."""

    FIELDS = 8

    def __init__(self) -> None:
        self.values = array("q")

    @property
    def count(self) -> int:
        return len(self.values) // self.FIELDS

    def add(self, message: Message, piece: _PiecePlaces) -> None:
        assert message.index == self.count, "a session's messages come in order"
        self.values.extend(self._of(message.span, piece))
        header = message.header
        self.values.extend(self._of(header, piece) if header else (_NONE,) * 4)

    @staticmethod
    def _of(span: Span, piece: _PiecePlaces) -> tuple[int, int, int, int]:
        return (piece.offset(span[0]), piece.offset(span[1]), *piece.position(span[0]))

    def holds(self, index: int) -> bool:
        return 0 <= index < self.count

    def placed(self, note: Note) -> Placed:
        """A note's diagnostic at its message's span, or its header's when it says so and there is one."""
        at = note.index * self.FIELDS
        if note.at_header and self.values[at + 4] != _NONE:
            at += 4
        start, end, line, column = self.values[at:at + 4]
        return Placed(note.at((start, end)), (start, end), line, column)


class _Printed:
    """The lines printed so far, counted and hashed, so that a whole parse taking over can go on after them."""

    def __init__(self) -> None:
        self.count = 0
        self.digest = hashlib.sha256()

    def add(self, placed: Placed) -> None:
        self.count += 1
        self.digest.update(_key(placed))

    def rest(self, every: Iterator[Placed], path: str, reason: str) -> Iterator[Placed]:
        """What of the whole parse's lines was not printed yet."""
        first = [next(every, None) for _ in range(self.count)]
        again = hashlib.sha256()
        for placed in first:
            if placed is not None:
                again.update(_key(placed))
        if again.digest() == self.digest.digest():
            yield from every
            return
        print(f"openchatml-viewer: lint: {path} read whole ({reason}): its diagnostics again, from the start",
              file=sys.stderr)
        yield from (placed for placed in first if placed is not None)
        yield from every


def _key(placed: Placed) -> bytes:
    return f"{placed.line}:{placed.column}: {placed.diagnostic.code} {placed.diagnostic.message}\n".encode()


__all__ = ["Placed", "linted", "read_streamed", "streamed", "whole"]
