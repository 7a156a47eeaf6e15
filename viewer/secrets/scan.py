"""`scan_text`: every secret in a text, with exact offsets.

A scan runs in three steps. Every detector's anchors are found in the whole text in one pass (`anchors.py`:
a few milliseconds for 1 MB); a detector runs only on windows of the lines where its anchors are, at most `before`
characters before an anchor and `reach` after it, so that its patterns never see the rest of a big upload and
a long line with many anchors costs windows, not a pattern run per anchor over the whole line. Its hits are
widened in the whole text (a key block, a token the library's pattern cut short). Overlapping hits become one
finding spanning them all, named by the most specific detector.
"""
from __future__ import annotations

import bisect
from typing import Iterator, Pattern, Sequence

from viewer.secrets.anchors import find_anchors, gated
from viewer.secrets.assignments import ASSIGNMENTS
from viewer.secrets.detectors import LIBRARY, Detector, Hit
from viewer.secrets.finding import Finding, preview
from viewer.secrets.providers import OURS

DETECTORS: tuple[Detector, ...] = (*OURS, *LIBRARY, *ASSIGNMENTS)
KINDS: tuple[str, ...] = tuple(dict.fromkeys(kind for detector in DETECTORS for kind in detector.kinds))
"""Every kind a finding may have."""
WIDEST_WINDOW = 8192
"""Windows of one line that overlap are merged up to this size; past it a new window starts (some of the
library's patterns, npm's `//.+/:_authToken=` first of all, cost the square of what they are run on)."""

Hits = list[tuple[int, int, int, str]]


def scan_text(text: str) -> list[Finding]:
    """Every secret in the text, in order, as exact character offsets; overlapping secrets as one finding."""
    hits: Hits = []
    for detector, offset, hit in _detect(text):
        first, last = offset + hit.start, offset + hit.end
        if hit.grow:
            first, last = hit.grow(text, first, last)
        if last > first:
            hits.append((first, last, detector.rank, hit.kind))
    return [Finding(start, end, kind, preview(text[start:end], kind), text[start:end])
            for start, end, kind in resolve(hits)]


def _detect(text: str) -> Iterator[tuple[Detector, int, Hit]]:
    """Every detector's hits, each with the offset of the window it was found in. A window of the same text as
    one before has the same hits (a dataset's system prompt in every conversation, a file an agent reads
    again), so each detector judges each distinct window once."""
    anchors = _Anchors(text)
    for detector in DETECTORS:
        judged: dict[str, list[Hit]] = {}
        for start, end in windows(text, anchors.positions(detector), detector.before, detector.reach):
            window = text[start:end]
            hits = judged.get(window)
            if hits is None:
                hits = judged[window] = list(detector.find(window))
            for hit in hits:
                yield detector, start, hit


class _Anchors:
    """Where each anchor is in one text, all found in one pass however many detectors share them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.shapes, self.names = find_anchors(text)
        self._gated: dict[tuple[str, Pattern[str]], list[int]] = {}

    def positions(self, detector: Detector) -> list[int]:
        found: set[int] = set()
        for name in detector.anchors:
            found.update(self.shapes[name])
        for letter in detector.names:
            found.update(self._named(letter, detector.gate))
        return sorted(found)

    def _named(self, letter: str, gate: Pattern[str] | None) -> list[int]:
        """Where the name's letter is (where the gate matches from it too)."""
        if gate is None:
            return self.names[letter]
        if (letter, gate) not in self._gated:
            self._gated[letter, gate] = gated(self.text, self.names[letter], gate)
        return self._gated[letter, gate]


def windows(text: str, positions: Sequence[int], before: int, reach: int) -> list[tuple[int, int]]:
    """Windows around sorted anchor positions, each inside one line, overlapping ones merged. Line ends are
    looked for only as far as a window reaches (a JSON file may be one line of megabytes); two windows that
    overlap are then in one line, since neither holds a line end."""
    windows: list[tuple[int, int]] = []
    count, index = len(positions), 0
    while index < count:
        at = positions[index]
        low = at - before if at > before else 0
        start = max(text.rfind("\n", low, at) + 1, low)
        end = _window_end(text, at, reach)
        if windows and start <= windows[-1][1] and end - windows[-1][0] <= WIDEST_WINDOW:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
        index = _merge_inside(text, positions, index + 1, windows, reach)
    return windows


def _window_end(text: str, at: int, reach: int) -> int:
    end = text.find("\n", at, at + reach)
    return end if end >= 0 else min(len(text), at + reach)


def _merge_inside(text: str, positions: Sequence[int], index: int, windows: list[tuple[int, int]],
                  reach: int) -> int:
    """Merge into the last window every position from `index` on that lies inside it, and return the index of
    the first one left. A position inside a window is in its line (a window holds no line end), so merging it
    moves the window's end to the position's own end, and ends only grow with the position: merging the
    furthest inside is merging them all. A line of digits has an anchor at nearly every character; this takes
    them a window at a time, not one by one. Where the furthest would make the window too wide, they are left
    to be merged one by one, which splits it where the widest window allows."""
    while True:
        first, last = windows[-1]
        furthest = bisect.bisect_left(positions, last, index) - 1
        if furthest < index:
            return index
        end = _window_end(text, positions[furthest], reach)
        if end - first > WIDEST_WINDOW:
            return index
        windows[-1] = (first, max(last, end))
        index = furthest + 1


def resolve(hits: Hits) -> list[tuple[int, int, str]]:
    """Overlapping hits as one span, named by the lowest rank (then the longest hit)."""
    resolved: list[tuple[int, int, str]] = []
    best: tuple[int, int] = (0, 0)
    for start, end, rank, kind in sorted(hits):
        if resolved and start < resolved[-1][1]:
            first, last, named = resolved[-1]
            if (rank, -(end - start)) < best:
                best, named = (rank, -(end - start)), kind
            resolved[-1] = (first, max(last, end), named)
        else:
            resolved.append((start, end, kind))
            best = (rank, -(end - start))
    return resolved
