"""Two stored transcripts compared in one view: their items aligned once (by the compare stage; kept in a small
cache per process, keyed by the view and both parses: id, parser version, creation time), then one page of aligned
rows at a time, with the bodies of that page's entries read through the store's windows and word-diffed when they
changed. Here rather than in the compare stage, which is pure: this reads the store.

The default view reads only its stored entries (`Store.iter_entries(…, "default")` never reads a hidden row),
so nothing hidden is aligned, counted or drawn."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Iterable

from cachetools import LRUCache

from viewer import compare
from viewer.model.words import DEBUG, View
from viewer.policy import SHOWN_IN_FULL
from viewer.store import Entry, Record, Store

PAGE_ROWS = 200
"""Aligned rows a compare page shows."""
SHOWN_CHARS = 4_000
"""Characters of a body drawn on a compare page; the rest is a link to the message in its transcript."""
SAME_RUN = 3
"""Identical rows in a run longer than this are folded into one line that opens."""

_cache: LRUCache = LRUCache(maxsize=8)
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class Compared:
    """One transcript as a reader compares it: the view read, whether its secrets are read, and the branch it
    follows."""

    record: Record
    view: View
    unmasked: bool
    """Whether the reader reads the secrets found rather than their placeholders."""
    branch: int | None = None
    """The message whose branches are followed (None: every message the view has)."""
    aside: frozenset[int] = frozenset()
    """The messages those branches leave aside, left out."""

    @property
    def debug(self) -> bool:
        return self.view == DEBUG


@dataclass(frozen=True, slots=True)
class Aligned:
    a: list[compare.Item]
    b: list[compare.Item]
    steps: list[compare.Step]
    summary: compare.Summary


@dataclass(frozen=True, slots=True)
class Cell:
    """One side of a row: the entry's label, its header fields and body as runs (equal, delete, insert)."""

    index: int
    label: str
    kind: str
    fields: list[tuple[str, list[compare.Run]]]
    body: list[compare.Run]
    cut: int
    """Characters of the body left out (drawn only up to `SHOWN_CHARS`)."""
    too_long: bool = False
    """The bodies differ but are too long to diff word by word."""


@dataclass(frozen=True, slots=True)
class Row:
    number: int
    op: str
    a: Cell | None
    b: Cell | None


PREFERENCE_RULE = "rejected-answer"
"""The policy's rule (viewer/policy/rules.py) that hides a preference pair's rejected answer: a transcript with a
message it decides is a pair whose answers can be compared."""
SIDES = {"chosen": "rejected", "rejected": "chosen"}
"""The answers of a preference pair (its reader marks each message of one with its intent), each with the one a
side leaves out: `<id>~chosen` is the conversation with its chosen answer, the prompt
included."""


def aligned(store: Store, a: Compared, b: Compared, sides: tuple[str | None, str | None] = (None, None)) -> Aligned:
    """The two transcripts' entries aligned (both are read in the same view); a side of a preference pair reads
    only the prompt and that answer."""
    view = a.view
    # What identifies a parse: a sample replaced under its stable id gets a new creation time.
    # Whether each side's secrets are read: the uploader's alignment is never served to a link holder.
    key = (view, sides, *((r.record.id, r.record.parser_version, r.record.created_at, r.record.size,
                           r.record.message_count, r.unmasked, r.branch) for r in (a, b)))
    with _lock:
        found = _cache.get(key)
    if found is not None:
        return found
    left = compare.items(_side(_branch(store.iter_entries(a.record.id, view, unmasked=a.unmasked), a), sides[0]), view)
    right = compare.items(_side(_branch(store.iter_entries(b.record.id, view, unmasked=b.unmasked), b), sides[1]),
                          view)
    steps = compare.align_items(left, right)
    result = Aligned(left, right, steps, compare.summarise(steps, left, right))
    with _lock:
        _cache[key] = result
    return result


def _branch(entries: Iterable[Entry], compared: Compared) -> Iterable[Entry]:
    """The entries of the branch the reader chose (all of them when they chose none)."""
    if compared.branch is None:
        return entries
    aside = compared.aside
    return (entry for entry in entries if entry.message.index not in aside)


def _side(entries: Iterable[Entry], side: str | None) -> Iterable[Entry]:
    if side is None:
        return entries
    left_out = SIDES[side]
    return (entry for entry in entries if entry.message.intent != left_out)


def page(store: Store, a: Compared, b: Compared, done: Aligned, start: int) -> list[Row]:
    """The rows `start … start + PAGE_ROWS`, with their entries read in one window per side."""
    steps = done.steps[start:start + PAGE_ROWS]
    debug = a.debug
    left = _entries(store, a, [done.a[step.a] for step in steps if step.a is not None])
    right = _entries(store, b, [done.b[step.b] for step in steps if step.b is not None])
    rows = []
    cx: Cell | None
    cy: Cell | None
    for number, step in enumerate(steps, start):
        x = done.a[step.a] if step.a is not None else None
        y = done.b[step.b] if step.b is not None else None
        # A note of tool use has no entry to read: its text is all the default view says of the calls.
        ex = left.get(x.index) if x is not None and x.position is not None else None
        ey = right.get(y.index) if y is not None and y.position is not None else None
        if step.op == "changed" and x is not None and y is not None:  # a changed row has both sides
            cx, cy = _changed(x, ex, y, ey, debug)
        else:
            cx = _cell(x, ex, debug, "equal" if step.op == "same" else "delete") if x else None
            cy = _cell(y, ey, debug, "equal" if step.op == "same" else "insert") if y else None
        rows.append(Row(number, step.op, cx, cy))
    return rows


def runs(rows: list[Row]) -> list[tuple[bool, list[Row]]]:
    """Rows in runs: (folded, rows), a run of more than `SAME_RUN` identical rows folded."""
    result: list[tuple[bool, list[Row]]] = []
    for row in rows:
        same = row.op == "same"
        if result and (result[-1][1][-1].op == "same") == same:
            result[-1][1].append(row)
        else:
            result.append((False, [row]))
    return [(len(run) > SAME_RUN and run[0].op == "same", run) for _, run in result]


def _entries(store: Store, compared: Compared, items: list[compare.Item]) -> dict[int, Entry]:
    positions = [item.position for item in items if item.position is not None]
    if not positions:
        return {}
    first, last = min(positions), max(positions)
    # The default view's window holds its tool notes' entries too (calls and replies): never kept here.
    found = store.window(compared.record.id, compared.view, first, last - first + 1, unmasked=compared.unmasked)
    return {entry.index: entry for entry in found if compared.debug or entry.show_as in SHOWN_IN_FULL}


def _label(item: compare.Item, entry: Entry | None) -> str:
    if entry is None:
        return "Tool use"
    message = entry.message
    label = message.role.capitalize()
    if item.kind == "preamble":
        label += " · preamble"
    if item.kind == DEBUG:
        if message.role == "tool" and message.name:
            label += f" · {message.name}"
        elif message.recipient:
            label += f" → {message.recipient}"
    return label


def _fields(entry: Entry | None, debug: bool) -> list[tuple[str, str]]:
    if entry is None or not debug:
        return []
    message = entry.message
    # As the debug view lists them (the role is in the label; rows of different roles are never paired): an
    # implied channel only for the assistant, whose channel decides visibility.
    implied = not message.channel_explicit and message.role != "assistant"
    return [(name, value) for name, value in compare.header_fields(message)
            if value and name != "role" and not (name == "channel" and implied)]


def _cell(item: compare.Item, entry: Entry | None, debug: bool, op: str) -> Cell:
    text = entry.message.content if entry is not None else item.note
    shown = text[:SHOWN_CHARS]
    return Cell(item.index, _label(item, entry), item.kind,
                [(name, [compare.Run(op, value)]) for name, value in _fields(entry, debug)],
                [compare.Run(op, shown)] if shown else [], len(text) - len(shown))


def _changed(x: compare.Item, ex: Entry | None, y: compare.Item, ey: Entry | None, debug: bool) -> tuple[Cell, Cell]:
    old = ex.message.content if ex is not None else x.note
    new = ey.message.content if ey is not None else y.note
    runs = compare.word_diff(old, new)
    if runs is None:
        cx, cy = _cell(x, ex, debug, "delete"), _cell(y, ey, debug, "insert")
        return (Cell(cx.index, cx.label, cx.kind, cx.fields, cx.body, cx.cut, True),
                Cell(cy.index, cy.label, cy.kind, cy.fields, cy.body, cy.cut, True))
    fx, fy = dict(_fields(ex, debug)), dict(_fields(ey, debug))
    left_fields, right_fields = [], []
    for name in dict.fromkeys([*fx, *fy]):
        before, after = fx.get(name, ""), fy.get(name, "")
        if before == after:
            left_fields.append((name, [compare.Run("equal", before)]))
            right_fields.append((name, [compare.Run("equal", after)]))
            continue
        diff = compare.word_diff(before, after) or ([compare.Run("delete", before)], [compare.Run("insert", after)])
        left_fields.append((name, diff[0]))
        right_fields.append((name, diff[1]))
    return (Cell(x.index, _label(x, ex), x.kind, left_fields, runs[0], 0),
            Cell(y.index, _label(y, ey), y.kind, right_fields, runs[1], 0))
