"""Payloads cut out of a source: a big agent session is parsed from a thin text in which each big base64 string
(a screenshot, nearly all of the file's bytes) stands as a short stand-in (the parser's thinning). A transcript
parsed so keeps its `Cuts`; its spans count the thin text, and `Relocation` moves them to the file's.

A stand-in is found by its shape in whichever text holds it (the thin text, or that text with secrets masked,
whose offsets differ), so each text is relocated by its own stand-ins. Thinning refuses a file that holds the
stand-ins' mark anywhere, so every stand-in in a thin text is one it wrote.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

MARK = "@@cut-"
"""How every stand-in begins (no base64 payload holds `@` or `-`)."""
STANDIN = re.compile(r"@@cut-(\d+)@@")


def standin(number: int) -> str:
    """The text that stands for cut `number` of a thin text."""
    return f"{MARK}{number}@@"


@dataclass(frozen=True, slots=True)
class Cut:
    """One payload cut out: where it is in the file, and what the parser would have read of it."""

    at_byte: int
    """Where its first character is in the file's bytes."""
    chars: int
    """Its length as written (a JSON string's characters between the quotes, escapes included). Base64 is ASCII,
    so this is also its length in bytes."""
    value_chars: int
    """The length of the string's value with its blank edges stripped (what a placeholder counts bytes from)."""
    padding: int
    """How many `=` end the stripped value (at most two counted, as a placeholder counts them)."""


@dataclass(frozen=True, slots=True)
class Cuts:
    """The payloads cut out of a thin text, numbered as its stand-ins name them."""

    cuts: tuple[Cut, ...]

    def of(self, standin_match: re.Match[str]) -> Cut:
        return self.cuts[int(standin_match.group(1))]

    def relocation(self, text: str) -> Relocation:
        """How offsets into `text` (a thin text, masked or not) move to the file's: past each stand-in, by its
        payload's length less its own."""
        starts, ends, moved = [], [], [0]
        for match in STANDIN.finditer(text):
            starts.append(match.start())
            ends.append(match.end())
            moved.append(moved[-1] + self.of(match).chars - (match.end() - match.start()))
        return Relocation(tuple(starts), tuple(ends), tuple(moved))


@dataclass(frozen=True, slots=True)
class Relocation:
    """Offsets of a thin text moved to the file's. Payloads hold no line break, so lines stay as they are."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]
    moved: tuple[int, ...]
    """How far an offset moves after 0, 1, 2 … stand-ins."""

    def offset(self, at: int) -> int:
        """An offset at or past a stand-in's end moves past its payload; one inside a stand-in (none is: spans
        end at a string's quotes or outside it) stays at its start."""
        passed = bisect.bisect_right(self.ends, at)
        inside = passed < len(self.starts) and self.starts[passed] < at
        return (self.starts[passed] if inside else at) + self.moved[passed]

    def column(self, at: int, column: int) -> int:
        """The column of offset `at` (at `column` in the thin text) in the file: the stand-ins between the
        line's start and it are payloads there."""
        line_start = at - column + 1
        return column + (self.offset(at) - at) - (self.offset(line_start) - line_start)
