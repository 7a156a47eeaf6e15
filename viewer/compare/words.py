"""A word-level diff of two texts, as runs of equal, deleted and inserted text (plain strings: whoever draws
them escapes them). Words, spaces and punctuation are tokens, aligned as messages are (`align`: patience
anchors, an exact LCS in small gaps), so a diff costs O(n log n) in tokens, where difflib's grows with their
square on long texts of few distinct words."""
from __future__ import annotations

import re
from dataclasses import dataclass

from viewer.compare.align import align

WORD_DIFF_CHARS = 20_000
"""Characters of either text above which no word diff is made ("too long to diff")."""
_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of text: `equal`, `delete` (only in the old text) or `insert` (only in the new)."""

    op: str
    text: str


def word_diff(old: str, new: str, *, limit: int = WORD_DIFF_CHARS) -> tuple[list[Run], list[Run]] | None:
    """The runs of each side (equal and deleted for `old`, equal and inserted for `new`), or None when
    either text is longer than `limit`."""
    if len(old) > limit or len(new) > limit:
        return None
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    left: list[Run] = []
    right: list[Run] = []
    # The message alignment on tokens: with the tokens as their own loose keys, a "changed" pair is equal.
    for step in align(a, b, a, b):
        if step.a is not None:
            _add(left, "equal" if step.b is not None else "delete", a[step.a])
        if step.b is not None:
            _add(right, "equal" if step.a is not None else "insert", b[step.b])
    return left, right


def _add(runs: list[Run], op: str, text: str) -> None:
    if runs and runs[-1].op == op:
        runs[-1] = Run(op, runs[-1].text + text)
    else:
        runs.append(Run(op, text))
