"""The lines of an agent's session log (JSON Lines, one event per line), each decoded whole (the spans of its
members are read only when asked for), and what could not be read.

A line that is not one whole JSON object is W-JSON-SYNTAX and skipped; when it is the file's last line and the
file does not end with a line break, the agent was cut off while writing it (the session was still running, or
the copy was taken mid-write): E-STREAM-TRUNCATED, so the reader knows the session goes on past what is shown.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from viewer.model import Diagnostic, Span, make_diagnostic
from viewer.model.lines import line_spans
from viewer.parse.json.positions import JsonError, Member, Node, read_value


@dataclass(slots=True)
class Line:
    """One line that is a JSON object."""

    number: int
    """Its line number, from 1."""
    span: Span
    """The line without its blank edges."""
    value: dict[str, Any]
    """The object."""
    text: str = field(repr=False)
    """The whole source the span points into."""
    _members: dict[str, Member] | None = field(default=None, repr=False)

    def get(self, key: str) -> Any:
        return self.value.get(key)

    def member(self, key: str) -> Member | None:
        """A top-level member with its span. Read on demand: most lines never need a span finer than their own,
        and the C decoder reads a line ten times faster than a reading that keeps spans."""
        return self.members().get(key)

    def members(self) -> dict[str, Member]:
        """Every top-level member with its span (read on demand, as `member`)."""
        if self._members is None:
            self._members = dict(read_value(self.text, self.span[0], 1).members)
        return self._members

    def whole(self, key: str) -> Node | None:
        """A member's value standing for the whole line (its span the line's): what a reader is given first."""
        value = self.value.get(key)
        return None if key not in self.value else Node(value, self.span)


def read_lines(text: str, before: int = 0) -> tuple[Iterator[Line], list[Diagnostic]]:
    """Every line that is a JSON object, in order, one at a time (a reader keeps what it needs of each, not every
    decoded line at once), and the list that receives a diagnostic for each line that is not, as they are met.
    `before`: lines of the file before `text` (a piece of it read alone), which the line numbers count."""
    problems: list[Diagnostic] = []
    return _lines(text, problems, before), problems


_DECODE = msgspec.json.Decoder().decode


def _lines(text: str, problems: list[Diagnostic], before: int) -> Iterator[Line]:
    for number, start, end in line_spans(text):
        number += before
        try:
            # msgspec reads a line about twice as fast as the standard scanner and to the same value; what it
            # refuses (NaN, a lone surrogate escape, a number out of range, bad JSON) the scanner reads or reports.
            value = _DECODE(text[start:end])
        except (msgspec.DecodeError, RecursionError):
            try:
                node = read_value(text, start, 0)  # decoded whole, by the C scanner
                if node.span[1] != end:
                    raise JsonError("extra text after the value", node.span[1] - start)
            except JsonError as error:
                problems.append(_unreadable(text, number, (start, end), error))
                continue
            value = node.value
        if not isinstance(value, dict):
            problems.append(make_diagnostic("W-JSON-SHAPE", (start, end),
                                            f"Line {number} is not a JSON object; it was skipped."))
            continue
        yield Line(number, (start, end), value, text)


def _unreadable(text: str, number: int, span: Span, error: JsonError) -> Diagnostic:
    reason = error.reason.removesuffix(" starting at").removesuffix(" at")
    if span[1] == len(text.rstrip()) and not text.endswith("\n"):
        return make_diagnostic("E-STREAM-TRUNCATED", span,
                               f"The last line (line {number}) breaks off mid-JSON ({reason}): the session was cut "
                               "short while it was written; what follows it is missing.")
    return make_diagnostic("W-JSON-SYNTAX", span, f"Line {number} is not valid JSON ({reason}); it was skipped.")
