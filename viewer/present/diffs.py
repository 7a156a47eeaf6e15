"""One file edit as a unified diff: against the file's text when it is known (placed by line numbers), else as
the edit says it (its hunks placed by context alone, `@@ … @@`). The files-changed page (changes.py) applies edits
in order and keeps each file's text; a debug card draws a call's edit alone (its file's text unknown there)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from viewer.policy.edits import FileEdit, Hunk, Replacement

CONTEXT = 3
UNPLACED = "@@ … @@"
"""The header of a hunk whose place in the file is not known."""


@dataclass(frozen=True, slots=True)
class Applied:
    """An edit made into a diff: its hunks as text, the file's text after it (None when unknown), and whether it
    could be placed in the file's text as known before it."""

    diff: str
    after: str | None
    placed: bool = True


def unified(before: str, after: str, context: int = CONTEXT) -> str:
    """The hunks turning `before` into `after` (no file header lines), a missing newline at the end said as
    `\\ No newline at end of file`."""
    old, new = _lines(before), _lines(after)
    made = []
    for line in difflib.unified_diff(old, new, n=context, lineterm=""):
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            made.append(line)
        elif line.endswith("\n"):
            made.append(line[:-1])
        else:
            made.append(line)
            made.append("\\ No newline at end of file")
    return "\n".join(made) + ("\n" if made else "")


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def apply(edit: FileEdit, before: str | None) -> Applied:
    """The edit against the file's text before it, when known; else as the edit states it."""
    if edit.action == "read":
        return Applied("", edit.content)
    if edit.before is not None and before is None:
        before = edit.before
    if edit.action == "delete":
        return Applied(unified(before, "") if before is not None else "", "")
    if edit.action == "create":
        content = edit.content or ""
        return Applied(unified(before or "", content), content)
    if before is not None:
        after = _replaced(before, edit.replacements) if edit.replacements else _patched(before, edit.hunks)
        if after is not None:
            return Applied(unified(before, after), after)
    return Applied(stated(edit), None, placed=before is None)


def _replaced(text: str, replacements: tuple[Replacement, ...]) -> str | None:
    """The text with each replacement made in turn; None when one's text is not there to replace."""
    for replacement in replacements:
        if replacement.old not in text:
            return None
        text = text.replace(replacement.old, replacement.new) if replacement.every else \
            text.replace(replacement.old, replacement.new, 1)
    return text


def _patched(text: str, hunks: tuple[Hunk, ...]) -> str | None:
    """The text with each hunk applied where its context and removed lines stand (after the previous hunk);
    None when one's lines are not found."""
    if not hunks:
        return None
    lines = text.splitlines()
    trailing = text.endswith("\n")
    at = 0
    for hunk in hunks:
        old = [line[1:] for line in hunk.lines if line[:1] in (" ", "-")]
        new = [line[1:] for line in hunk.lines if line[:1] in (" ", "+")]
        found = _find(lines, old, at)
        if found is None:
            return None
        lines[found:found + len(old)] = new
        at = found + len(new)
    return "\n".join(lines) + ("\n" if trailing or not lines else "")


def _find(lines: list[str], wanted: list[str], start: int) -> int | None:
    if not wanted:
        return len(lines) if start >= len(lines) else start
    for at in range(start, len(lines) - len(wanted) + 1):
        if lines[at:at + len(wanted)] == wanted:
            return at
    for at in range(0, min(start, len(lines) - len(wanted) + 1)):  # a hunk may go back up the file
        if lines[at:at + len(wanted)] == wanted:
            return at
    return None


def stated(edit: FileEdit) -> str:
    """The edit's own hunks (numbered when the log numbers them), or its replacements as hunks placed by their
    text alone."""
    if edit.hunks:
        return "".join(_hunk_text(hunk) for hunk in edit.hunks)
    parts = []
    for replacement in edit.replacements:
        body = [line for line in difflib.unified_diff(_lines(replacement.old), _lines(replacement.new), n=CONTEXT,
                                                      lineterm="") if not line.startswith(("---", "+++", "@@"))]
        parts.append(UNPLACED + "\n" + "".join(line if line.endswith("\n") else line + "\n" for line in body))
    return "".join(parts)


def _hunk_text(hunk: Hunk) -> str:
    old = sum(1 for line in hunk.lines if line[:1] in (" ", "-"))
    new = sum(1 for line in hunk.lines if line[:1] in (" ", "+"))
    header = (f"@@ -{hunk.old_start},{old} +{hunk.new_start},{new} @@" if hunk.old_start is not None
              and hunk.new_start is not None else UNPLACED)
    return header + "\n" + "".join(line + "\n" for line in hunk.lines)


def with_header(path: str, diff: str, created: bool = False, deleted: bool = False) -> str:
    """A diff under its file's header lines."""
    return f"--- {'/dev/null' if created else 'a/' + path}\n+++ {'/dev/null' if deleted else 'b/' + path}\n{diff}"
