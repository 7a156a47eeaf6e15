"""Rows made from a parse whose offsets are not the upload's, moved to the upload's: a piece of a big dataset
(its offsets and lines start deeper into the file: `Shift`), or a session parsed from a thin text, its payloads
cut out (viewer/model/cuts.py: `Relocated`)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from viewer.model.cuts import STANDIN, Cuts, Relocation


@dataclass(frozen=True, slots=True)
class Shift:
    """A piece's offsets and lines to the whole file's."""

    chars: int
    lines: int

    def offset(self, value: int | None) -> int | None:
        return None if value is None else value + self.chars

    def column(self, at: int, column: int) -> int:
        """The column of offset `at` in the file (a piece starts at a line's start: the same)."""
        return column

    def message(self, row: tuple) -> tuple:
        """A row of `rows.MESSAGE_COLUMNS` moved."""
        (id, idx, rank, turn, kind, call_id, start, end, header_start, header_end, line, column, body_start,
         body_end, content, source, segments, pair, partner, agent, media) = row
        offset = self.offset
        return (id, idx, rank, turn, kind, call_id, offset(start), offset(end), offset(header_start),
                offset(header_end), line + self.lines, self.column(start, column), offset(body_start),
                offset(body_end), content, source, self.segments(segments), pair, partner, agent, self.media(media))

    def diagnostic(self, row: tuple) -> tuple:
        """A row of `rows.DIAGNOSTIC_COLUMNS` moved."""
        id, seq, code, severity, message, start, end, line, column, index = row
        return (id, seq, code, severity, message, self.offset(start), self.offset(end), line + self.lines,
                self.column(start, column), index)

    def media(self, value: str | None) -> str | None:
        """A message's image references (`rows.media_json`) with their payloads' spans moved."""
        if value is None:  # most messages
            return value
        moved = [{**media, "span": [self.offset(start), self.offset(end)]}
                 for media in json.loads(value) for start, end in [media["span"]]]
        return json.dumps(moved, ensure_ascii=False)

    def segments(self, value: str) -> str:
        if value == "[]":  # most messages
            return value
        moved = [{**segment, "span": [self.offset(start), self.offset(end)]}
                 for segment in json.loads(value) for start, end in [segment["span"]]]
        return json.dumps(moved, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Relocated(Shift):
    """A thin text's offsets to the file's: past each stand-in, by its payload's length less its own. A message's
    source (the debug view's source panel) keeps its thin text, each stand-in said in words."""

    cuts: Cuts | None = None
    relocation: Relocation | None = None

    @classmethod
    def of(cls, text: str, cuts: Cuts) -> Relocated:
        return cls(0, 0, cuts, cuts.relocation(text))

    def offset(self, value: int | None) -> int | None:
        return None if value is None else self.relocation.offset(value)  # type: ignore[union-attr]  # set by `of`

    def column(self, at: int, column: int) -> int:
        return self.relocation.column(at, column)  # type: ignore[union-attr]  # set by `of`

    def message(self, row: tuple) -> tuple:
        moved = Shift.message(self, row)
        source = moved[15]
        if "@@cut-" not in source:
            return moved
        content, body_start, body_end = moved[14], moved[12], moved[13]
        if content is None:  # the body was a slice of the source, which is no longer the file's
            content = source[row[12] - row[6]:row[13] - row[6]]
            body_start = body_end = None
        return (*moved[:12], body_start, body_end, content, STANDIN.sub(self._said, source), *moved[16:])

    def _said(self, match: re.Match[str]) -> str:
        return f"[{self.cuts.of(match).chars:,} characters of base64, not shown here: download the file]"  # type: ignore[union-attr]


__all__ = ["Relocated", "Shift"]
