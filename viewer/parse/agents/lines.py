"""The lines of an agent's session log (JSON Lines, one event per line), each read with the spans of its
top-level members, and what could not be read.

A line that is not one whole JSON object is W-JSON-SYNTAX and skipped; when it is the file's last line and the
file does not end with a line break, the agent was cut off while writing it (the session was still running, or
the copy was taken mid-write): E-STREAM-TRUNCATED, so the reader knows the session goes on past what is shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from viewer.model import Diagnostic, Span, make_diagnostic
from viewer.model.lines import line_spans
from viewer.parse.json.positions import JsonError, Member, Node, read_value


@dataclass(frozen=True, slots=True)
class Line:
    """One line that is a JSON object."""

    number: int
    """Its line number, from 1."""
    span: Span
    """The line without its blank edges."""
    node: Node
    """The object, with the spans of its top-level members."""

    @property
    def value(self) -> dict[str, Any]:
        return self.node.value

    def get(self, key: str) -> Any:
        return self.node.value.get(key)

    def member(self, key: str) -> Member | None:
        return self.node.members.get(key)


def read_lines(text: str) -> tuple[list[Line], list[Diagnostic]]:
    """Every line that is a JSON object, in order, and a diagnostic for each line that is not."""
    lines: list[Line] = []
    problems: list[Diagnostic] = []
    for number, start, end in line_spans(text):
        try:
            node = read_value(text, start, 1)
            if node.span[1] != end:
                raise JsonError("extra text after the value", node.span[1] - start)
        except JsonError as error:
            problems.append(_unreadable(text, number, (start, end), error))
            continue
        if not isinstance(node.value, dict):
            problems.append(make_diagnostic("W-JSON-SHAPE", (start, end),
                                            f"Line {number} is not a JSON object; it was skipped."))
            continue
        lines.append(Line(number, (start, end), node))
    return lines, problems


def _unreadable(text: str, number: int, span: Span, error: JsonError) -> Diagnostic:
    reason = error.reason.removesuffix(" starting at").removesuffix(" at")
    if span[1] == len(text.rstrip()) and not text.endswith("\n"):
        return make_diagnostic("E-STREAM-TRUNCATED", span,
                               f"The last line (line {number}) breaks off mid-JSON ({reason}): the session was cut "
                               "short while it was written; what follows it is missing.")
    return make_diagnostic("W-JSON-SYNTAX", span, f"Line {number} is not valid JSON ({reason}); it was skipped.")
