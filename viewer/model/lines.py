"""Lines of a source text: the one line/column index every part of the viewer uses, so that "line 3, column 7"
means the same in a parser's message, the command line's lint output and the store.

Lines are counted at `\\n` alone (a `\\r` before it is the end of the line's text), from 1; columns count
characters (code points) from 1.
"""
from __future__ import annotations

import bisect
from array import array
from typing import Iterator


class LineIndex:
    """The offset where each line of a text starts, for (line, column) lookups by binary search."""

    __slots__ = ("starts",)

    def __init__(self, text: str) -> None:
        # Machine integers, 8 bytes a line: a list of Python ints took 40, 20 MB for a 20 MB transcript.
        starts = array("q", [0])
        find = text.find
        at = find("\n")
        while at != -1:
            starts.append(at + 1)
            at = find("\n", at + 1)
        self.starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1


def line_spans(text: str, start: int = 0) -> Iterator[tuple[int, int, int]]:
    """`(line number from 1, start, end)` of every line that is not blank, trimmed of surrounding whitespace
    (JSON Lines and event logs are read a line at a time); `start`: where to begin (a line's start), counted
    there from 1."""
    length = len(text)
    number = 0
    while start < length:
        number += 1
        stop = text.find("\n", start)
        if stop == -1:
            stop = length
        line = text[start:stop]
        stripped = line.strip()
        if stripped:
            first = start + len(line) - len(line.lstrip())
            yield number, first, first + len(stripped)
        start = stop + 1
