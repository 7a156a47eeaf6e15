"""The lines of an agent's session log (JSON Lines, one event per line), each decoded whole (the spans of its
members are read only when asked for), and what could not be read.

A line that is not one whole JSON object is W-JSON-SYNTAX and skipped; when it is the file's last line and the
file does not end with a line break, the agent was cut off while writing it (the session was still running, or
the copy was taken mid-write): E-STREAM-TRUNCATED, so the reader knows the session goes on past what is shown.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from viewer.model import Diagnostic, Span, make_diagnostic
from viewer.model.lines import line_spans
from viewer.parse.json.positions import JsonError, Member, Node, read_value
from viewer.parse.json.source import an_id, empty

Claims = dict[str, Any]
"""What a reader reads of a record, as a tree of member names: True under a name claims all of its value, a tree
claims what the tree names; `*` stands for any member, `[]` for every item of a list (`claims` makes one)."""


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


def read_lines(text: str, before: int = 0, start: int = 0) -> tuple[Iterator[Line], list[Diagnostic]]:
    """Every line that is a JSON object, in order, one at a time (a reader keeps what it needs of each, not every
    decoded line at once), and the list that receives a diagnostic for each line that is not, as they are met.
    `before`: lines of the file before `text` (a piece of it read alone), or before `start`, where reading starts
    (a piece joined to the one before it), which the line numbers count."""
    problems: list[Diagnostic] = []
    return _lines(text, problems, before, start), problems


_DECODE = msgspec.json.Decoder().decode


def _lines(text: str, problems: list[Diagnostic], before: int, begin: int) -> Iterator[Line]:
    for number, start, end in line_spans(text, begin):
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


def claims(*paths: str) -> Claims:
    """The tree of what a reader reads of a record, from dotted paths: `data.toolRequests[].name`, `data.*`; a
    path claims everything below it."""
    tree: Claims = {}
    for path in paths:
        node = tree
        steps = [step for part in path.split(".") for step in _steps(part)]
        for step in steps[:-1]:
            child = node.get(step)
            if child is True:
                break
            node = node.setdefault(step, {})
        else:
            node[steps[-1]] = True
    return tree


def _steps(part: str) -> list[str]:
    """`toolRequests[]` is two steps: the member, then every item of its list."""
    name = part.removesuffix("[]")
    return [name, "[]"] if name != part else [part]


def unclaimed(value: Any, claimed: Claims) -> dict[str, Any]:
    """The members of an object that `claimed` does not name and that hold something (no null, no empty text or
    list, no id: what an id names is elsewhere, and the source keeps it), as written; where a member is claimed
    in part, what is left of it, a list's items by their place (`[2]`)."""
    left: dict[str, Any] = {}
    for key, item in value.items():
        tree = claimed.get(key, claimed.get("*"))
        if tree is True or empty(item) or an_id(key, item):
            continue
        rest = item if tree is None else _rest(item, tree)
        if not empty(rest):
            left[key] = rest
    return left


def _rest(item: Any, tree: Claims) -> Any:
    """What `tree` leaves of a value it claims in part: of an object its unclaimed members, of a list each item's
    rest by its place; a scalar where the reader expects an object or a list is the reader's to report."""
    if isinstance(item, dict):
        return unclaimed(item, tree)
    items = tree.get("[]")
    if isinstance(item, list) and items is not None and items is not True:
        rests = {f"[{at}]": _rest(element, items) for at, element in enumerate(item)}
        return {place: rest for place, rest in rests.items() if not empty(rest)}
    return None


def claims_by(key: str, table: dict[str, tuple[str, ...]], common: tuple[str, ...] = ()) -> Callable[[Line], Claims]:
    """What a reader reads of each line, by the line's type (its member `key`, dotted for a nested one): the type's
    paths in `table` and the `common` ones every line has. Fail closed: of a line of a type the table does not
    name, only the `common` paths are claimed, so that a type its reader reads but its table forgets is never
    counted as read whole; a reader that shows such a line whole (an unknown event as a hidden message of its raw
    JSON) says so (`Session.shown_whole`)."""
    trees = {kind: claims(*common, *paths) for kind, paths in table.items()}
    rest = claims(*common) if common else {}
    steps = key.split(".")

    def claims_of(line: Line) -> Claims:
        kind: Any = line.value
        for step in steps:
            kind = kind.get(step) if isinstance(kind, dict) else None
        return trees.get(kind, rest) if isinstance(kind, str) else rest

    return claims_of
