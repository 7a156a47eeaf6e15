"""Big agent sessions read without their payloads. Nearly all the bytes of a big Claude Code session or Codex
rollout are a few big base64 strings (screenshots). Read from its file a line at a time, each such string is cut
out (decoded and checked here, one at a time, as the parser would have) and a short stand-in takes its place
(viewer/model/cuts.py): the parser reads the thin text, a few percent of the file, and its payload readers take
each stand-in for the payload it names (viewer/parse/inline_media.py). Spans count the thin text; the store
moves them to the file's (viewer/store/shift.py).

A file this cannot read exactly as the whole parse would (not clean UTF-8, a byte-order mark, another dialect,
or the stand-ins' mark already in it) is not thinned: `thin` answers None and the caller parses it whole.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import re
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from viewer import formats
from viewer.model import Message, Transcript
from viewer.model.cuts import MARK, STANDIN, Cut, Cuts, standin
from viewer.parse import parse
from viewer.parse.decode import BOM
from viewer.parse.detect import detect
from viewer.images.sniff import sniff
from viewer.parse.inline_media import Decoded, base64_bytes, reading_cuts

THIN_FROM = 8 << 20
"""Files at least this big are thinned; smaller ones are parsed whole (their payloads cost little)."""
CUT_FROM = 64 << 10
"""The shortest string cut out: a screenshot is hundreds of KiB; text is seldom 64 KiB of base64 alone."""
HEAD_BYTES = 65536
"""What the dialect is detected from (detect.py reads as much), then on to the end of its line."""
_MARK = MARK.encode()


@dataclass(frozen=True, slots=True)
class Thinned:
    """A session's text with its big payloads cut out, what was cut, and each payload decoded."""

    text: str
    cuts: Cuts
    decoded: tuple[Decoded, ...]
    dialect: str

    def parse(self) -> Transcript:
        """The session parsed from the thin text: the whole parse, spans into the thin text, with its cuts."""
        with reading_cuts(self.cuts, self.decoded):
            transcript = parse(self.text, self.dialect)
        return dataclasses.replace(transcript, cuts=self.cuts, messages=self._in_words(transcript.messages))

    def _in_words(self, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        """The messages, any that a reader took a payload of as text (a tool's input holding an image, say: rare)
        saying in words what it holds: the whole parse would show that text, megabytes of base64, which the
        thin text does not have."""
        return tuple(self._message_in_words(message) if _holds_mark(message) else message for message in messages)

    def _message_in_words(self, message: Message) -> Message:
        segments = tuple(segment.changed(text=STANDIN.sub(self._said, segment.text))
                         for segment in message.segments)
        return message.changed(content=STANDIN.sub(self._said, message.content), segments=segments)

    def _said(self, match: re.Match[str]) -> str:
        return f"[{self.cuts.of(match).chars:,} characters of base64]"


def thin(file: BinaryIO, dialect: str = "auto", *, thin_from: int | None = None,
         cut_from: int | None = None) -> Thinned | None:
    """The file (read from its start, a line at a time) thinned, or None when it is not one to thin; the file is
    left at its start either way. The sizes default to `THIN_FROM` and `CUT_FROM`."""
    thin_from = THIN_FROM if thin_from is None else thin_from
    cut_from = CUT_FROM if cut_from is None else cut_from
    try:
        size = file.seek(0, 2)
        if dialect != "auto" and not _thinned_dialect(dialect) or size < thin_from:
            return None
        file.seek(0)
        head = (file.read(HEAD_BYTES) + file.readline()).decode("utf-8")
        chosen = detect(head) if dialect == "auto" else dialect
        if not _thinned_dialect(chosen) or head.startswith(BOM):
            return None
        return _thinned(file, chosen, _big_strings(cut_from))
    except (UnicodeDecodeError, _Unthinnable):
        return None
    finally:
        file.seek(0)


def _thinned_dialect(dialect: str) -> bool:
    """A line-per-event session whose payloads are cut out (its record's `session.thinned`)."""
    record = formats.find(dialect)
    return record is not None and record.session is not None and record.session.thinned


def _holds_mark(message: Message) -> bool:
    return MARK in message.content or any(MARK in segment.text for segment in message.segments)


class _Unthinnable(Exception):
    """The file holds the stand-ins' mark: a stand-in in its thin text could be one it wrote."""


def _thinned(file: BinaryIO, dialect: str, big: re.Pattern[bytes]) -> Thinned:
    file.seek(0)
    pieces: list[str] = []
    cuts: list[Cut] = []
    decoded: list[Decoded] = []
    at_byte = 0
    for line in file:
        if _MARK in line:
            raise _Unthinnable()
        pieces.extend(line_pieces(line, at_byte, big, cuts, decoded))
        at_byte += len(line)
    return Thinned("".join(pieces), Cuts(tuple(cuts)), tuple(decoded), dialect)


def in_words(messages: tuple[Message, ...], cuts: Cuts) -> tuple[Message, ...]:
    """`Thinned._in_words` for messages read from any thin text cut by `cuts` (a piece of a big file)."""
    return Thinned("", cuts, (), "")._in_words(messages)


def big_strings(cut_from: int | None = None) -> re.Pattern[bytes]:
    """What is cut out of a line: `_big_strings` of `cut_from` (default `CUT_FROM`)."""
    return _big_strings(CUT_FROM if cut_from is None else cut_from)


@functools.lru_cache(maxsize=4)
def _big_strings(cut_from: int) -> re.Pattern[bytes]:
    """A member named as inline media is (`data`, `url`, `image_url`, and `base64` in Claude Code's copy of an
    image it read) whose value is a JSON string of at least `cut_from` base64 characters (escapes allowed), a data
    URL's prefix apart."""
    return re.compile(rb'"(?:data|url|image_url|base64)"\s*:\s*"((?:data:(?:[^"\\,]|\\/){0,300}?;base64,)?)'
                      rb'([A-Za-z0-9+/=\\]{%d,})"' % cut_from)


def line_pieces(line: bytes, at_byte: int, big: re.Pattern[bytes], cuts: list[Cut],
                decoded: list[Decoded]) -> Iterator[str]:
    """The line's text with each big image payload cut out (each piece decoded alone: the cuts are between ASCII
    characters), adding what was cut to `cuts` and `decoded`. Only images are cut: other base64 (encrypted
    reasoning, a redacted thought) is counted or shown by its readers, which must see it whole."""
    done = 0
    for match in big.finditer(line):
        start, end = match.span(2)
        if not _unescaped(line, match.start()) or not _unescaped(line, end):
            continue
        value = _value(line[start:end])
        data = base64_bytes(value) if value is not None else None
        if value is None or not data or sniff(data) is None:  # not an image: the parser reads it as it is
            continue
        yield line[done:start].decode("utf-8")
        stripped = value.strip()
        cuts.append(Cut(at_byte + start, end - start, len(stripped), stripped.endswith("=") + stripped.endswith("==")))
        decoded.append(Decoded(data))
        yield standin(len(cuts) - 1)
        done = end
    yield line[done:].decode("utf-8")


def _unescaped(line: bytes, quote: int) -> bool:
    """Whether the quote at `quote` is one (not escaped by an odd number of backslashes before it)."""
    return (quote - len(line[:quote].rstrip(b"\\"))) % 2 == 0


def _value(written: bytes) -> str | None:
    """A JSON string's value from its characters as written."""
    if b"\\" not in written:
        return written.decode("ascii")
    try:
        return json.loads(b'"' + written + b'"')
    except ValueError:
        return None


__all__ = ["CUT_FROM", "THIN_FROM", "Thinned", "big_strings", "in_words", "line_pieces", "thin"]
