"""Aligning two sequences of message fingerprints: patience diff, then pairing what is left by a looser key.

1. Common prefix and suffix are matched as they stand (O(n)).
2. In the middle, fingerprints that occur exactly once on each side are anchors; the longest run of anchors in
   the same order on both sides (longest increasing subsequence, O(k log k)) is matched, and each gap between
   anchors is aligned the same way, recursively (within a budget linear in the input).
3. A gap with no unique anchor is a block of deletions and insertions; within it, items are paired as changed
   when their loose keys (role and channel, say) line up: by an exact LCS when the block is small, in order
   otherwise. So the whole is O(n log n) in the number of messages, whatever the transcripts hold.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import Hashable, NamedTuple, Sequence

SMALL_BLOCK = 40_000
"""Cells of an exact LCS table (deletions × insertions) above which a block's items are paired in order."""
WORK_FACTOR = 20
"""Fingerprints looked at while anchoring, per fingerprint of the input: past it (only adversarial input gets
there) the regions left are paired as blocks, so the work stays linear."""


class Step(NamedTuple):
    """One aligned row: `same`, `changed`, `deleted` (only in A) or `inserted` (only in B), with the
    positions it takes on each side. (A tuple of plain values: the garbage collector stops tracking it, which
    matters for the tens of thousands of a cached alignment.)"""

    op: str
    a: int | None
    b: int | None


def align(a: Sequence[Hashable], b: Sequence[Hashable], loose_a: Sequence[Hashable],
          loose_b: Sequence[Hashable]) -> list[Step]:
    """Rows aligning `a` with `b` (exact fingerprints); `loose_*` are the keys that make two different
    messages one changed row rather than a deletion and an insertion."""
    steps: list[Step] = []
    # An explicit stack (no recursion limit on long transcripts); items come out in order.
    work: list[tuple[int, int, int, int] | Step] = [(0, len(a), 0, len(b))]
    budget = WORK_FACTOR * (len(a) + len(b)) + 1000
    while work:
        item = work.pop()
        if isinstance(item, Step):
            steps.append(item)
            continue
        a0, a1, b0, b1 = item
        while a0 < a1 and b0 < b1 and a[a0] == b[b0]:
            steps.append(Step("same", a0, b0))
            a0, b0 = a0 + 1, b0 + 1
        tail = 0
        while a1 - tail > a0 and b1 - tail > b0 and a[a1 - tail - 1] == b[b1 - tail - 1]:
            tail += 1
        suffix = [Step("same", a1 - t, b1 - t) for t in range(tail, 0, -1)]
        a1, b1 = a1 - tail, b1 - tail
        budget -= (a1 - a0) + (b1 - b0)
        anchors = _anchors(a, a0, a1, b, b0, b1) if budget > 0 else []
        pending: list[tuple[int, int, int, int] | Step] = []
        if anchors:
            i, j = a0, b0
            for ai, bj in anchors:
                if i < ai or j < bj:  # most anchors follow one another: no gap to align between them
                    pending.append((i, ai, j, bj))
                pending.append(Step("same", ai, bj))
                i, j = ai + 1, bj + 1
            pending.append((i, a1, j, b1))
        else:
            steps.extend(_block(a, a0, a1, b, b0, b1, loose_a, loose_b))
        work.extend(reversed(suffix))
        work.extend(reversed(pending))
    return steps


def _anchors(a: Sequence[Hashable], a0: int, a1: int, b: Sequence[Hashable], b0: int,
             b1: int) -> list[tuple[int, int]]:
    """The longest in-order run of fingerprints unique on both sides of the region, as (i, j) pairs."""
    if a0 >= a1 or b0 >= b1:
        return []
    count_a = Counter(a[a0:a1])
    count_b = Counter(b[b0:b1])
    where_b = {b[j]: j for j in range(b0, b1) if count_b[b[j]] == 1}
    candidates = [(i, where_b[a[i]]) for i in range(a0, a1) if count_a[a[i]] == 1 and a[i] in where_b]
    return _longest_increasing(candidates)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of `pairs` (ordered by i) whose j increase too (patience sorting)."""
    tails: list[int] = []  # j of the last pair of the best run of each length
    tail_at: list[int] = []  # index into pairs of that pair
    back: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        slot = bisect_left(tails, j)
        back[k] = tail_at[slot - 1] if slot else -1
        if slot == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[slot], tail_at[slot] = j, k
    run, k = [], tail_at[-1] if tail_at else -1
    while k >= 0:
        run.append(pairs[k])
        k = back[k]
    return run[::-1]


def _block(a: Sequence[Hashable], a0: int, a1: int, b: Sequence[Hashable], b0: int, b1: int,
           loose_a: Sequence[Hashable], loose_b: Sequence[Hashable]) -> list[Step]:
    """A region with no unique anchor: repeated fingerprints matched by an exact LCS when it is small, the
    rest paired by loose keys."""
    if not (a1 - a0) * (b1 - b0) <= SMALL_BLOCK:
        return _pair_block(a, a0, a1, b, b0, b1, loose_a, loose_b)
    steps: list[Step] = []
    i, j = a0, b0
    for pi, pj in [*((a0 + x, b0 + y) for x, y in _lcs(a[a0:a1], b[b0:b1])), (a1, b1)]:
        steps.extend(_pair_block(a, i, pi, b, j, pj, loose_a, loose_b))
        if pi < a1:
            steps.append(Step("same", pi, pj))
        i, j = pi + 1, pj + 1
    return steps


def _pair_block(a: Sequence[Hashable], a0: int, a1: int, b: Sequence[Hashable], b0: int, b1: int,
                loose_a: Sequence[Hashable], loose_b: Sequence[Hashable]) -> list[Step]:
    """Deletions a0..a1 and insertions b0..b1, with items whose loose keys line up paired as changed (or as
    the same, when their fingerprints are equal after all)."""
    n, m = a1 - a0, b1 - b0
    if n == 0 or m == 0:
        return [Step("deleted", i, None) for i in range(a0, a1)] + [Step("inserted", None, j) for j in range(b0, b1)]
    if n * m <= SMALL_BLOCK:
        pairs = _lcs(loose_a[a0:a1], loose_b[b0:b1])
    else:
        pairs, j = [], 0
        for i in range(n):
            while j < m and loose_b[b0 + j] != loose_a[a0 + i]:
                j += 1
            if j == m:
                break
            pairs.append((i, j))
            j += 1
    steps: list[Step] = []
    i = j = 0
    for pi, pj in [*pairs, (n, m)]:
        steps.extend(Step("deleted", a0 + x, None) for x in range(i, pi))
        steps.extend(Step("inserted", None, b0 + y) for y in range(j, pj))
        if pi < n:
            steps.append(Step("same" if a[a0 + pi] == b[b0 + pj] else "changed", a0 + pi, b0 + pj))
        i, j = pi + 1, pj + 1
    return steps


def _lcs(x: Sequence[Hashable], y: Sequence[Hashable]) -> list[tuple[int, int]]:
    """Index pairs of a longest common subsequence of two short sequences (dynamic programming)."""
    n, m = len(x), len(y)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if x[i] == y[j] else max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if x[i] == y[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs
