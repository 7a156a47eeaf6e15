"""The edit formats agents' tools take, read into what a screen counts and the files-changed page applies:
Codex's `apply_patch` envelope (`*** Begin Patch`, a file's `*** Add File:`, `*** Update File:` with `@@` hunks of
context, `-` and `+` lines, `*** Delete File:`, `*** Move to:`), and the search-and-replace blocks of Cline's and
Roo Code's tools (`<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE`, and Cline's `------- SEARCH` …
`+++++++ REPLACE`)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from viewer.policy.edits import Action

_HEADER = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$")
_MOVE = re.compile(r"^\*\*\* Move to: (.+?)\s*$")
ACTIONS: dict[str, Action] = {"Add": "create", "Update": "edit", "Delete": "delete"}


@dataclass
class FilePatch:
    """One file's part of a patch."""

    path: str
    action: Action
    moved_to: str | None = None
    hunks: list[list[str]] = field(default_factory=list)
    """Each hunk's lines, each with its mark (` `, `-`, `+`); an added file's lines are one hunk of `+` lines."""

    @property
    def added(self) -> int:
        return sum(1 for hunk in self.hunks for line in hunk if line.startswith("+"))

    @property
    def removed(self) -> int:
        return sum(1 for hunk in self.hunks for line in hunk if line.startswith("-"))

    @property
    def content(self) -> str:
        """An added file's text."""
        return "".join(line[1:] + "\n" for hunk in self.hunks for line in hunk)


def is_patch(text: str) -> bool:
    return text.lstrip().startswith("*** Begin Patch")


def read_patch(text: str) -> list[FilePatch]:
    """The files of an `apply_patch` envelope, in order; [] for text that is not one."""
    if not is_patch(text):
        return []
    files: list[FilePatch] = []
    current: FilePatch | None = None
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            current = FilePatch(header.group(2), ACTIONS[header.group(1)])
            files.append(current)
            continue
        if current is None or line.startswith("*** "):
            moved = _MOVE.match(line)
            if moved and current is not None:
                current.moved_to = moved.group(1)
            continue
        if line.startswith("@@"):
            current.hunks.append([])
            continue
        if line[:1] in (" ", "-", "+") or line == "":
            if not current.hunks:
                current.hunks.append([])
            current.hunks[-1].append(line if line else " ")
    for patch in files:
        patch.hunks = [hunk for hunk in patch.hunks if hunk]
    return files


_BLOCK = re.compile(
    r"^(?:<{7} SEARCH|-{7} SEARCH)[ \t]*\n(?:(?::start_line:\s*\d+|:end_line:\s*\d+)\s*\n)*(?:-{7}\s*\n)?"
    r"(.*?)^={7}[ \t]*\n(.*?)^(?:>{7} REPLACE|\+{7} REPLACE)[ \t]*$",
    re.MULTILINE | re.DOTALL)


def search_replace_blocks(text: str) -> list[tuple[str, str]]:
    """The (search, replace) pairs of a diff made of search-and-replace blocks; [] for any other text."""
    return [(search, replace) for search, replace in _BLOCK.findall(text)]
