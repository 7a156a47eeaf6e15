"""The anchor patterns found by Python's `re`, one search per pattern, where Hyperscan cannot be installed.

Each search starts again one byte after the last match's start, so that overlapping matches are found, as
Hyperscan finds them. Case-insensitive patterns are searched for in lowercase in the lowercased view: `re`
skips ahead to a pattern's literal first bytes only when it is case-sensitive (four times faster here).
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

from viewer.secrets.engines.interface import AnchorPattern

ESCAPED_LETTER = re.compile(r"\\[A-Za-z]")
"""What lowercasing a pattern could change the meaning of (`\\S` is not `\\s`), so never in a caseless one."""


class ReEngine:
    name = "re"

    def __init__(self, patterns: Sequence[AnchorPattern]) -> None:
        self._searches: list[tuple[Callable, bool]] = [
            (re.compile(_lowered(expression) if caseless else expression.encode("ascii")).search, caseless)
            for expression, caseless in patterns]

    def starts(self, view: bytes) -> list[list[int]]:
        lowered = view.lower()  # ASCII letters only, as Hyperscan's caseless matching
        return [_every_start(search, lowered if caseless else view) for search, caseless in self._searches]


def _lowered(expression: str) -> bytes:
    if ESCAPED_LETTER.search(expression):
        raise ValueError(f"a caseless anchor pattern with an escaped letter cannot be lowercased: {expression!r}")
    return expression.lower().encode("ascii")


def _every_start(search: Callable, view: bytes) -> list[int]:
    starts: list[int] = []
    match = search(view)
    while match is not None:
        at = match.start()
        starts.append(at)
        match = search(view, at + 1)
    return starts
