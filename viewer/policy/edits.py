"""What a tool call changed in a file, as an agent's screen module reads it from the call's arguments and the log's
record of its result (viewer/policy/screens): the files-changed page (viewer/present/changes.py) applies these in
order to make one diff per file."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Action = Literal["create", "edit", "delete", "read"]
"""`create` (a new file, or one written whole), `edit`, `delete`; `read`: no change, the file's whole text seen
(a later edit of it is then placed by its line numbers)."""


@dataclass(frozen=True, slots=True)
class Replacement:
    """A search-and-replace edit: `old` becomes `new` (every occurrence when `every`)."""

    old: str
    new: str
    every: bool = False


@dataclass(frozen=True, slots=True)
class Hunk:
    """A stretch of a patch: its lines, each marked ` ` (context), `-` or `+`, and where it starts when the log
    says (Claude Code's `structuredPatch`); a Codex patch's hunks are placed by their context alone."""

    lines: tuple[str, ...]
    old_start: int | None = None
    new_start: int | None = None


@dataclass(frozen=True, slots=True)
class FileEdit:
    """One file changed (or read whole) by one call."""

    path: str
    action: Action
    content: str | None = None
    """The file's whole new text (created or written whole), or the text read."""
    replacements: tuple[Replacement, ...] = ()
    hunks: tuple[Hunk, ...] = ()
    """The edit as a patch: a Codex patch's hunks, or the log's own record of an edit (preferred where the
    file's text before it is unknown)."""
    before: str | None = None
    """The file's whole text before the edit, when the log records it (Claude Code's `originalFile`)."""
    moved_to: str | None = None
