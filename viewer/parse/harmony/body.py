"""A Harmony body with literal blocks or chain-of-thought markers: its content and segments (the reader handles
plain bodies itself)."""
from __future__ import annotations

from viewer.model import Segment
from viewer.parse.common import trim_newline
from viewer.parse.harmony.tokens import COT_RE, is_escaped, unescape

Literal = tuple[int, int, int, int]
"""A literal block: where `<|literal|>` starts, where its text starts and ends, where `<|endliteral|>` ends
(the text's end twice when the block is not closed)."""


class Body:
    """Reads one body's content and segments."""

    def __init__(self, text: str, analysis: bool) -> None:
        self.text = text
        self.analysis = analysis
        self.segments: list[Segment] = []

    def read(self, start: int, end: int, literals: list[Literal]) -> tuple[str, tuple[Segment, ...]]:
        position = start
        for literal_start, inner_start, inner_end, literal_end in literals:
            self._text(position, literal_start)
            self.segments.append(Segment.of("literal", _literal_text(self.text[inner_start:inner_end],
                                                                  closed=literal_end > inner_end),
                                         (literal_start, literal_end)))
            position = literal_end
        self._text(position, end)
        content = "".join(segment.text for segment in self.segments)
        if all(segment.kind == "text" for segment in self.segments):
            return content, ()
        return content, tuple(segment for segment in self.segments if segment.span[0] < segment.span[1])

    def _text(self, start: int, end: int) -> None:
        """Plain body text: escapes resolved; in analysis, cut at chain-of-thought markers."""
        if start >= end:
            return
        text = self.text
        kind, block_start, cursor = "text", start, start
        if self.analysis:
            for marker in COT_RE.finditer(text, start, end):
                at = marker.start()
                if is_escaped(text, at):
                    continue
                which, marker_kind = marker.group(1), marker.group(2)
                if which == "start":
                    self._piece(kind, block_start, at, cursor, at)
                    kind, block_start, cursor = marker_kind, at, marker.end()
                elif marker_kind == kind:
                    self._piece(kind, block_start, marker.end(), cursor, at)
                    kind, block_start, cursor = "text", marker.end(), marker.end()
        self._piece(kind, block_start, end, cursor, end)

    def _piece(self, kind: str, start: int, end: int, text_start: int, text_end: int) -> None:
        if start < end:
            self.segments.append(Segment.of(kind, unescape(self.text[text_start:text_end]), (start, end)))


def _literal_text(inner: str, closed: bool) -> str:
    """A literal block's text without the line breaks that put its markers on lines of their own (2.2 §16.4);
    an unclosed block keeps its end."""
    return trim_newline(inner, lead=True, tail=closed)
