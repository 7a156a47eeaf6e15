"""`windows`, which every detector and recogniser looks through, takes anchors a window at a time: the windows
are exactly those of merging the anchors one by one, whatever their density, lines and reach."""
from __future__ import annotations

import random

import pytest

from viewer.secrets.scan import WIDEST_WINDOW, windows


def one_by_one(text: str, positions: list[int], before: int, reach: int) -> list[tuple[int, int]]:
    """The windows as first written: every anchor's own window, merged into the last when they overlap."""
    merged: list[tuple[int, int]] = []
    for at in positions:
        low = max(0, at - before)
        start = max(text.rfind("\n", low, at) + 1, low)
        end = text.find("\n", at, at + reach)
        if end < 0:
            end = min(len(text), at + reach)
        if merged and start <= merged[-1][1] and end - merged[-1][0] <= WIDEST_WINDOW:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


@pytest.mark.parametrize("seed", range(40))
def test_windows_are_those_of_merging_anchor_by_anchor(seed: int):
    rng = random.Random(seed)
    for _ in range(25):
        size = rng.choice([40, 600, 20_000])
        newlines = rng.choice([0.0, 0.002, 0.05, 0.3])
        text = "".join("\n" if rng.random() < newlines else "7" for _ in range(size))
        density = rng.choice([0.002, 0.1, 0.6, 1.0])
        positions = [at for at in range(size) if rng.random() < density]
        before, reach = rng.choice([0, 4, 48, 9000]), rng.choice([1, 24, 64, 9000])
        assert windows(text, positions, before, reach) == one_by_one(text, positions, before, reach)


def test_a_line_of_digits_gives_windows_no_wider_than_allowed():
    text = "1" * (3 * WIDEST_WINDOW)
    found = windows(text, list(range(len(text))), 32, 64)
    assert found == one_by_one(text, list(range(len(text))), 32, 64)
    assert all(end - start <= WIDEST_WINDOW for start, end in found)
    assert found[0][0] == 0 and found[-1][1] == len(text)
