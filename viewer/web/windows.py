"""Window arithmetic: which stored rows a page shows, where the windows before and after it start, and the
"jump to" points of a long transcript. Positions are message indices in the debug view and ranks among the
shown entries in the default view, so the default view never reads a hidden row; the default view on a version
the reader chose (viewer/web/branching.py) reads rows by index, and draws only those the policy shows there."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import msgspec
from flask import current_app

from viewer import policy
from viewer.formats import source_lexer
from viewer.model import Transcript
from viewer.model.words import DEBUG, View
from viewer.present import cards
from viewer.store import Entry
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
    before: int | None = None
    """Where the default view offers version switchers: the last message it shows before this window (a fork's
    switcher goes on the first message shown after it)."""


def window_size() -> int:
    return max(int(current_app.config["WINDOW_SIZE"]), 1)


def long_body() -> int:
    return max(int(current_app.config["LONG_BODY_CHARS"]), 0)


def start_of(reading: Reading, at: int | None) -> int:
    """The first position of the window holding message `at` (or the next entry the view shows)."""
    record, view = reading.record, reading.view
    size = window_size()
    if on_version(reading):  # positions are message numbers
        return min(max(at or 0, 0), max(record.message_count - 1, 0)) // size * size
    total = record.message_count if reading.debug else record.visible_count
    if at is None or total == 0:
        return 0
    position = get_store().position(record.id, view, max(at, 0)) if at < record.message_count else None
    if position is None:
        position = total - 1
    return min(position, total - 1) // size * size


def on_version(reading: Reading) -> bool:
    """Whether this is the default view on a version the reader chose (`?branch=`), read by message number."""
    return not reading.debug and reading.branch is not None


def read_window(reading: Reading, start: int) -> Window:
    if on_version(reading):
        return _version_window(reading, start)
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
    before = None
    if not reading.debug and start > 0 and reading.links.versions_of is not None:
        last = store.window(record.id, view, start - 1, 1)
        before = last[0].message.index if last else None
    return Window(view=view, cards=drawn, start=start, earlier=earlier, next=next_window, before=before)


VERSION_WINDOWS = 50
"""Windows of rows read at most for one answer of the default view on a chosen version, to find one it shows."""


def _version_window(reading: Reading, start: int) -> Window:
    """The default view on the version the reader chose: windows of message numbers, each row of the branches
    followed decided by the policy as on the app's branch (`policy.rule_on_branch`), those it hides left out. A
    window all of whose rows are hidden is passed over (at most `VERSION_WINDOWS` of them)."""
    record, size, store = reading.record, window_size(), get_store()
    position, shown = start, []
    for _ in range(VERSION_WINDOWS):
        rows = store.window(record.id, DEBUG, position, size, unmasked=reading.unmasked)
        shown = list(_shown_on_version(reading, rows))
        position += size
        if shown or position >= record.message_count:
            break
    earlier = (max(start - size, 0), max(start - size, 0)) if start > 0 else None
    before = None
    if start > 0:  # the last message shown before this window, for the switcher of a fork at its edge
        previous = list(_shown_on_version(reading, store.window(record.id, DEBUG, max(start - size, 0), size,
                                                               unmasked=reading.unmasked)))
        before = previous[-1].index if previous else None
    next_window = (position, position) if position < record.message_count else None
    return Window(view=reading.view, cards=cards.default_cards(shown, long_body=long_body()), start=start,
                  earlier=earlier, next=next_window, before=before)


def _shown_on_version(reading: Reading, rows: list[Entry]) -> Iterator[Entry]:
    """The rows the default view shows on the version chosen: none of the branches left aside; a row the upload
    stored aside decided again as if its branch were the app's; its position is its number."""
    record = reading.record
    shell = Transcript(dialect=record.dialect, source="", header=record.header)
    for row in rows:
        if row.index in reading.aside:
            continue
        if row.message.aside:
            rule = policy.rule_on_branch(row.message, shell)
            row = msgspec.structs.replace(row, show_as=rule.show_as, rule=rule.name, reason=rule.reason)
        if row.show_as != "hidden":
            yield msgspec.structs.replace(row, rank=row.index)


def shown_index(reading: Reading, index: int) -> int:
    """Message `index`, or in the default view the first message at or after it that the view shows (on a chosen
    version the page lands there itself)."""
    if reading.debug or on_version(reading):
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
