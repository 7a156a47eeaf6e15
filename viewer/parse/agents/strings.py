"""Where a stretch of a decoded JSON string stands in the source: a string's escapes (`\\n`, `\\"`, `\\u00e9`, a
surrogate pair) make its decoded text shorter than its literal, so that a part of it (the task inside an instance
template, the command after a model's thought) can have a span of its own."""
from __future__ import annotations

import bisect
import re

from viewer.model import Span

_ESCAPE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)", re.DOTALL)
"""One escape: a surrogate pair decodes to one character, as `json` decodes it; so does any other escape."""


class StringOffsets:
    """The source offsets of a JSON string literal's decoded characters."""

    def __init__(self, text: str, literal: Span) -> None:
        """`literal` is the span of the string in `text`, its quotes included."""
        start, end = literal[0] + 1, max(literal[1] - 1, literal[0] + 1)
        self._decoded = [0]
        self._source = [start]
        decoded, position = 0, start
        for escape in _ESCAPE.finditer(text, start, end):
            decoded += escape.start() - position + 1
            position = escape.end()
            self._decoded.append(decoded)
            self._source.append(position)
        self._end = end

    def offset(self, index: int) -> int:
        """The source offset where decoded character `index` starts (the string's end for its length)."""
        at = bisect.bisect_right(self._decoded, index) - 1
        return min(self._source[at] + index - self._decoded[at], self._end)

    def span(self, start: int, end: int) -> Span:
        """The source span of the decoded characters `[start, end)`."""
        return self.offset(start), self.offset(end)
