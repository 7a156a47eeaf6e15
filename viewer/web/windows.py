"""Window arithmetic: which stored rows a page shows, where the windows before and after it start, and the
"jump to" points of a long transcript. Positions are message indices in the debug view and ranks among the
shown entries in the default view, so the default view never reads a hidden row."""
from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from viewer.formats import source_lexer
from viewer.model.words import View
from viewer.present import cards
from viewer.store.processing import PROCESSING
from viewer.web.lookup import ProcessingFailed, Reading, StillProcessing, get_store

JUMP_POINTS = 10


@dataclass(frozen=True, slots=True)
class Window:
    """One window of a view: its cards and where the windows before and after it start."""

    view: View
    cards: list[cards.Card]
    start: int
    earlier: tuple[int, int] | None
    """(window position, first message index) of the previous window, if any."""
    next: tuple[int, int] | None
    """(window position, first message index) of the next window, if any."""


def window_size() -> int:
    return max(int(current_app.config["WINDOW_SIZE"]), 1)


def long_body() -> int:
    return max(int(current_app.config["LONG_BODY_CHARS"]), 0)


def start_of(reading: Reading, at: int | None) -> int:
    """The first position of the window holding message `at` (or the next entry the view shows)."""
    record, view = reading.record, reading.view
    size = window_size()
    total = record.message_count if reading.debug else record.visible_count
    if at is None or total == 0:
        return 0
    position = get_store().position(record.id, view, max(at, 0)) if at < record.message_count else None
    if position is None:
        position = total - 1
    return min(position, total - 1) // size * size


def read_window(reading: Reading, start: int) -> Window:
    record, view = reading.record, reading.view
    store = get_store()
    size = window_size()
    rows = store.window(record.id, view, start, size + 1, unmasked=reading.unmasked)
    if not record.ready and (record.state != PROCESSING or len(rows) <= size):
        # Still being stored (viewer/store/staged.py: a prefix of the rows at a time): only a window followed by a
        # stored row is known whole.
        raise StillProcessing() if record.state == PROCESSING else ProcessingFailed()
    following, rows = (rows[size] if len(rows) > size else None), rows[:size]
    if reading.branch is not None:  # a branch the reader chose: the rows of the others are left out
        aside = reading.aside
        rows = [row for row in rows if row.message.index not in aside]
    earlier = None
    if start > 0:
        previous_start = max(start - size, 0)
        first = store.window(record.id, view, previous_start, 1)
        earlier = (previous_start, first[0].message.index) if first else None
    if reading.debug:
        found = store.diagnostics(record.id, first=rows[0].message.index, last=rows[-1].message.index) if rows else []
        drawn = cards.debug_cards(rows, found, long_body=long_body(), source_language=source_lexer(record.dialect))
    else:
        drawn = cards.default_cards(rows, long_body=long_body())
    next_window = (following.position(view), following.message.index) if following else None
    return Window(view=view, cards=drawn, start=start, earlier=earlier, next=next_window)


def shown_index(reading: Reading, index: int) -> int:
    """Message `index`, or in the default view the first message at or after it that the view shows."""
    if reading.debug:
        return index
    store = get_store()
    rank = store.position(reading.record.id, reading.view, index)
    following = store.window(reading.record.id, reading.view, rank, 1) if rank is not None else []
    return following[0].message.index if following else index


def jump_points(count: int) -> list[int]:
    """Message numbers spread over a long transcript for the "jump to" links (none when it is short)."""
    size = window_size()
    if count <= 2 * size:
        return []
    step = max(count // JUMP_POINTS // size * size, size)
    return [*range(0, count - 1, step), count - 1][: JUMP_POINTS + 1]
