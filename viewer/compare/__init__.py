"""Comparing two transcripts as one view shows them: each entry becomes an `Item` (a fingerprint of what the
view shows, no body kept), the two lists are aligned (`align`), and changed bodies and headers get a word diff
(`word_diff`). Pure: no web, no storage; it is handed the entries a view may show, and nothing else.

In the default view the entries are the stored default-view entries (hidden messages are never handed over),
with runs of tool traffic collapsed into the same content-free notes the page shows; in the debug view every
message is an item and its header fields count.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, NamedTuple, Protocol

from viewer.compare.align import Step, align
from viewer.compare.words import WORD_DIFF_CHARS, Run, word_diff
from viewer.model import Message
from viewer.model.words import DEBUG, ShowAs, View
from viewer.policy import Marker, Said
from viewer.policy.projection import iter_visible_entries

__all__ = ["Item", "Run", "Step", "Summary", "WORD_DIFF_CHARS", "align", "align_items", "header_fields", "items",
           "summarise", "word_diff"]


class Shown(Protocol):
    """What the store's entries offer (`viewer.store.Entry`)."""

    @property
    def message(self) -> Message: ...

    @property
    def show_as(self) -> ShowAs: ...

    @property
    def rank(self) -> int | None: ...

    @property
    def index(self) -> int: ...

    @property
    def tool(self) -> str | None: ...

    @property
    def said(self) -> Said | None: ...


class Item(NamedTuple):
    """One entry of a view, reduced to what alignment needs (a tuple of plain values, which the garbage
    collector does not track: a cached alignment holds tens of thousands)."""

    index: int  # type: ignore[assignment]  # a field named as tuple's method, which it hides
    """The message index it anchors at (a note: its first message)."""
    position: int | None
    """Its window position in the view (index in debug, rank in default); None for a note."""
    kind: str
    """`message` `preamble` `marker` (default view) or `debug`."""
    fingerprint: Hashable
    """Equal fingerprints are the same entry: what the view shows, with a hash of the body."""
    loose: Hashable
    """Equal loose keys make two different entries one changed row (same role and channel, say)."""
    is_tool: bool
    """A tool call or reply (debug), or a note of tool use (default)."""
    note: str = ""
    """A note's text ("used get_weather"): all the default view says of tool traffic."""


def items(entries: Iterable[Shown], view: View) -> list[Item]:
    """The items of a view from its stored entries, in order (the default view's from its entries only)."""
    if view == DEBUG:
        return [_debug_item(entry) for entry in entries]
    result = []
    for item in iter_visible_entries(entries):
        if isinstance(item, Marker):
            result.append(Item(item.indices[0], None, "marker", ("marker", item.text), ("marker",), True, item.text))
        else:
            message = item.message
            result.append(Item(item.index, item.rank, item.show_as,
                               (item.show_as, message.role, len(message.content), hash(message.content)),
                               (item.show_as, message.role), False))
    return result


def _debug_item(entry: Shown) -> Item:
    message = entry.message
    # The fields of `header_fields`, written out: this runs once per message of both transcripts.
    fingerprint = (message.role, message.name, message.recipient, message.channel, message.content_type,
                   message.intent, len(message.content), hash(message.content))
    return Item(message.index, message.index, DEBUG, fingerprint, (message.role, message.channel),
                message.is_call or message.is_reply)


def header_fields(message: Message) -> list[tuple[str, str]]:
    """The header fields the debug view compares, as text (call ids are left out: runs rename them)."""
    return [(name, value or "") for name, value in (
        ("role", message.role), ("name", message.name), ("to", message.recipient), ("channel", message.channel),
        ("content type", message.content_type), ("intent", message.intent))]


def align_items(a: list[Item], b: list[Item]) -> list[Step]:
    return align([item.fingerprint for item in a], [item.fingerprint for item in b],
                 [item.loose for item in a], [item.loose for item in b])


@dataclass(frozen=True, slots=True)
class Summary:
    same: int
    added: int
    removed: int
    changed: int
    tools: int
    """Tool calls (or, in the default view, notes of tool use) added, removed or changed."""
    first_difference: int | None
    """The row of the first difference."""


def summarise(steps: list[Step], a: list[Item], b: list[Item]) -> Summary:
    counts = {"same": 0, "inserted": 0, "deleted": 0, "changed": 0}
    tools = 0
    first = None
    for row, step in enumerate(steps):
        counts[step.op] += 1
        if step.op != "same":
            first = row if first is None else first
            tools += (step.a is not None and a[step.a].is_tool) or (step.b is not None and b[step.b].is_tool)
    return Summary(counts["same"], counts["inserted"], counts["deleted"], counts["changed"], tools, first)
