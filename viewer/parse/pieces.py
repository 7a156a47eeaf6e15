"""A big line-oriented file read a piece of whole lines at a time, so that memory follows the piece, not the file:
each piece decoded alone (it ends at a line break, so no character is cut), its lines numbered and its offsets
counted from the file's start by `chars` and `lines`. An agent session's big image payloads are cut out of its
lines as they are read (viewer/parse/thinning.py), each piece with its own `Cuts`.

A file this cannot read exactly as the whole parse would (not clean UTF-8, a byte-order mark, the stand-ins' mark
in a file whose payloads are cut) raises `Unstreamable`: the caller parses it whole.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import BinaryIO

from viewer.model.cuts import MARK, Cut, Cuts, standin
from viewer.parse.decode import BOM
from viewer.parse.inline_media import Decoded, reading_cuts
from viewer.parse.thinning import big_strings, line_pieces

PIECE_BYTES = 2 << 20
"""Bytes read per piece (then on to the end of the line): a piece's parse takes about ten times this, and three
pieces are held at once (one stored, one waiting, one parsed). A 100 MB text-heavy session peaks at 152, 164 and
199 MB with pieces of 1, 2 and 4 MB, in 13.5, 10.2 and 11.1 s of CPU (bench/memory.py)."""
_BOM = BOM.encode()
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""An escape of a UTF-16 surrogate (or, rarely, an escaped backslash before such letters: then the text is
searched again)."""
_MARK = MARK.encode()


class Unstreamable(Exception):
    """The file cannot be read a piece at a time exactly as it is read whole."""


@dataclass(frozen=True, slots=True)
class Piece:
    """Whole lines of a file, and where they stand in it."""

    text: str
    """The lines (each big image payload a stand-in, when `cuts`)."""
    chars: int
    """Characters of the file's text before the piece."""
    lines: int
    """Line breaks before the piece (it starts at the beginning of a line, so columns stay as they are)."""
    cuts: Cuts | None = None
    """The payloads cut out of it, numbered by its stand-ins."""
    decoded: tuple[Decoded, ...] = ()
    """Each cut payload decoded and checked."""
    size: int = 0
    """Its characters in the file (its text's, with each payload in place of its stand-in)."""
    at_byte: int = 0
    """Where its bytes start in the file."""
    end_byte: int = 0
    """Where they end."""
    escapes: bool = True
    """Whether it may hold an escape of a lone surrogate (`\\ud800`): found in its bytes, where a search costs
    a fraction of one in its text."""

    def reading(self) -> AbstractContextManager:
        """While the piece is read: its stand-ins are the payloads they name."""
        return reading_cuts(self.cuts, self.decoded) if self.cuts is not None else nullcontext()


def pieces(file: BinaryIO, *, cut: bool = False, piece_bytes: int | None = None,
           cut_from: int | None = None, starts: re.Pattern[bytes] | None = None,
           ends: re.Pattern[bytes] | None = None) -> Iterator[Piece]:
    """The file from its start, a piece of whole lines at a time; with `cut`, each big image payload cut out
    (strings of at least `cut_from` base64 characters under a media member: thinning.CUT_FROM) as each line is
    read, so that a piece holds its thin text, never its bytes: those of a session of screenshots are nearly all
    payloads. With `starts`, a piece ends only before a line that matches it (a log whose records span lines,
    each starting at such a line: a piece holds whole records); with `ends`, only after a line that matches it
    (an event log, after a line that ends a response: its messages seldom reach past it)."""
    size = PIECE_BYTES if piece_bytes is None else piece_bytes
    file.seek(0)
    chars = lines = 0
    if (starts is not None or ends is not None) and cut:
        raise ValueError("pieces cut at their payloads end where their size says")
    if starts is not None:
        made = _started_pieces(file, size, starts)
    elif ends is not None:
        made = _ended_pieces(file, size, ends)
    else:
        made = _cut_pieces(file, size, big_strings(cut_from)) if cut else _read_pieces(file, size)
    for piece, breaks in made:
        piece = dataclasses.replace(piece, chars=chars, lines=lines)
        yield piece
        chars += piece.size
        lines += breaks


def _read_pieces(file: BinaryIO, size: int) -> Iterator[tuple[Piece, int]]:
    """Pieces of `size` bytes and on to the end of the line, decoded whole, each with its line breaks (`pieces`
    counts `chars` and `lines` on)."""
    at_byte = 0
    while data := file.read(size):
        if not data.endswith(b"\n"):
            data += file.readline()  # on to the end of the line, however long
        yield _whole_piece(data, at_byte)
        at_byte += len(data)


def _started_pieces(file: BinaryIO, size: int, starts: re.Pattern[bytes]) -> Iterator[tuple[Piece, int]]:
    """Pieces of at least `size` bytes (but the last), each ending before a line that matches `starts` (a piece
    starts at the file's start or at such a line), decoded whole, each with its line breaks."""
    at_byte = 0
    carried = b""
    while True:
        data = carried + file.read(max(size - len(carried), 0))
        if not data:
            return
        if not data.endswith(b"\n"):
            data += file.readline()
        carried = b""
        lines = [data]
        while lines[-1].endswith(b"\n"):  # on to the next line that starts a record
            line = file.readline()
            if not line or starts.match(line):
                carried = line
                break
            lines.append(line)
        data = b"".join(lines)
        yield _whole_piece(data, at_byte)
        at_byte += len(data)


def _ended_pieces(file: BinaryIO, size: int, ends: re.Pattern[bytes]) -> Iterator[tuple[Piece, int]]:
    """Pieces of at least `size` bytes (but the last), each ending after a line that matches `ends`, decoded whole,
    each with its line breaks."""
    at_byte = 0
    while data := file.read(size):
        if not data.endswith(b"\n"):
            data += file.readline()
        lines = [data]
        last = data[data.rfind(b"\n", 0, len(data) - 1) + 1:]
        while not ends.match(last) and (last := file.readline()):  # on to a line that ends a record
            lines.append(last)
        data = b"".join(lines)
        yield _whole_piece(data, at_byte)
        at_byte += len(data)


def _whole_piece(data: bytes, at_byte: int) -> tuple[Piece, int]:
    """Whole lines read from byte `at_byte` of the file, decoded, with their line breaks."""
    _check_start(data, at_byte)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _unclean() from None
    return (Piece(text, 0, 0, size=len(text), at_byte=at_byte, end_byte=at_byte + len(data),
                  escapes=_SURROGATE_ESCAPE.search(data) is not None), data.count(b"\n"))


def _cut_pieces(file: BinaryIO, size: int, big: re.Pattern[bytes]) -> Iterator[tuple[Piece, int]]:
    """Pieces of whole lines, read a line at a time until the piece has `size` bytes (where `_read_pieces` would
    end it too), each line's big image payloads cut out as thinning reads a whole file."""
    at_byte = 0
    parts: list[str] = []
    cuts: list[Cut] = []
    decoded: list[Decoded] = []
    start, breaks, escapes = 0, 0, False
    for line in iter(file.readline, b""):
        _check_start(line, at_byte)
        if _MARK in line:
            raise Unstreamable("the stand-ins' mark is in the file")
        try:
            parts.extend(line_pieces(line, at_byte, big, cuts, decoded))
        except UnicodeDecodeError:
            raise _unclean() from None
        escapes = escapes or _SURROGATE_ESCAPE.search(line) is not None
        breaks += line.endswith(b"\n")
        at_byte += len(line)
        if at_byte - start >= size:
            yield _cut_piece(parts, cuts, decoded, breaks, start, at_byte, escapes)
            parts, cuts, decoded = [], [], []
            start, breaks, escapes = at_byte, 0, False
    if at_byte > start:
        yield _cut_piece(parts, cuts, decoded, breaks, start, at_byte, escapes)


def _cut_piece(parts: list[str], cuts: list[Cut], decoded: list[Decoded], breaks: int, at_byte: int, end_byte: int,
               escapes: bool) -> tuple[Piece, int]:
    text = "".join(parts)
    size = len(text) + sum(cut.chars - len(standin(number)) for number, cut in enumerate(cuts))
    return (Piece(text, 0, 0, Cuts(tuple(cuts)) if cuts else None, tuple(decoded), size, at_byte, end_byte, escapes),
            breaks)


def _check_start(data: bytes, at_byte: int) -> None:
    if at_byte == 0 and data.startswith(_BOM):
        raise Unstreamable("a byte-order mark (offsets count from after it in the whole text)")


def _unclean() -> Unstreamable:
    return Unstreamable("not clean UTF-8 (decode reports and replaces the bytes in the whole text)")


__all__ = ["PIECE_BYTES", "Piece", "Unstreamable", "pieces"]
