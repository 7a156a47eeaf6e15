"""Patterns that match wherever they are tried, since they may match nothing: a run of blanks, of line breaks, the
blanks and comma between two JSON values. Their `match` never gives None, and their type says so: the readers
call it on their hottest paths to skip such a run, where a check for None could never fail and would cost time."""
from __future__ import annotations

import re
import sys
from typing import Protocol, cast


class AlwaysMatching(Protocol):
    """A compiled pattern that matches (perhaps nothing) at every position of every text."""

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str]:
        """`re.Pattern.match`, which for such a pattern always finds a match."""
        ...


def always_matching(pattern: str) -> AlwaysMatching:
    """`re.compile(pattern)`, typed as always matching: the same object, so that using it costs nothing more. A
    pattern that does not match an empty text can fail, and is refused."""
    compiled = re.compile(pattern)
    if compiled.match("") is None:
        raise ValueError(f"{pattern!r} does not match an empty text, so its match may be None")
    return cast(AlwaysMatching, compiled)
