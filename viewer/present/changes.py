"""What an agent session changed in files: each file created, edited or deleted, with one diff per file made of
the calls' edits in order (each hunk linked to the call that made it), read from the debug view's entries (it is
built from tool arguments, so it follows the debug view's access rule).

Each call's edits are read by the agent's screen module (`edits`, viewer/policy/screens): Claude Code's Edit,
MultiEdit and Write with the patch its log keeps (`structuredPatch`, `originalFile`), Codex's patches, the other
agents' edits by their arguments' names. A file's text is followed through the session where it is known (written
whole, read whole, or recorded by the log), so each edit is placed by its line numbers; where it is not, an edit is
shown as it states itself. A failed or declined edit is shown, marked, and not applied.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from viewer import formats, render
from viewer.policy import Exchange
from viewer.policy.edits import Action, FileEdit
from viewer.policy.screens import generic
from viewer.present import cards, diffs
from viewer.render.jobs import Job
from viewer.store import Entry

WORDS: dict[Action, str] = {"create": "created", "edit": "edited", "delete": "deleted", "read": "read"}


@dataclass
class Step:
    """One call's change to one file."""

    call: int
    """The call's message index."""
    reply: int | None
    action: Action
    diff: str
    """Its hunks (numbered where the file's text was known)."""
    status: str
    """How the call ended (`done`, `failed`, `rejected`, `interrupted`, `waiting`): only a `done` edit is applied."""
    placed: bool = True
    """False when the file's text as known had no room for it (its text to replace was not there)."""
    moved_to: str | None = None

    @property
    def applied(self) -> bool:
        return self.status == "done"


@dataclass
class FileChanges:
    """Every change the session made to one file, in order."""

    path: str
    steps: list[Step] = field(default_factory=list)
    text: str | None = None
    """The file's text after the last applied step, when known."""
    existed: bool | None = None
    """Whether it existed before its first change (False: the session created it; None: not known)."""

    @property
    def action(self) -> Action:
        """What the session did to the file in all: created (and perhaps edited), deleted, or edited."""
        applied = [step for step in self.steps if step.applied]
        if applied and applied[-1].action == "delete":
            return "delete"
        if self.existed is False or (applied and applied[0].action == "create" and self.existed is not True):
            return "create"
        return "edit"

    @property
    def counts(self) -> tuple[int, int]:
        lines = [line for step in self.steps if step.applied for line in step.diff.splitlines()]
        return (sum(1 for line in lines if line.startswith("+")), sum(1 for line in lines if line.startswith("-")))


def files_changed(entries: Iterable[Entry], dialect: str, cwd: str | None) -> list[FileChanges]:
    """The files an agent session changed, in the order of their first change, from its debug view's entries in
    order. Calls on another branch (`aside`) are left out: the session went another way."""
    screen = _screen(dialect)
    files: dict[str, FileChanges] = {}
    known: dict[str, str] = {}
    """Each file's text as far as the session shows it."""
    pending: dict[int, Entry] = {}
    for entry in entries:
        message = entry.message
        if message.aside:
            continue
        if message.is_call:
            pending[entry.index] = entry
            continue
        if message.is_reply and entry.partner is not None and entry.partner in pending:
            _record(screen, pending.pop(entry.partner), entry, cwd, files, known)
    for call in pending.values():  # calls never answered
        _record(screen, call, None, cwd, files, known)
    return sorted(files.values(), key=lambda changed: changed.steps[0].call if changed.steps else 0)


def _screen(dialect: str) -> Any:
    record = formats.find(dialect)
    return formats.load(record.screen) if record is not None and record.screen is not None else generic


def _record(screen: Any, call: Entry, reply: Entry | None, cwd: str | None, files: dict[str, FileChanges],
            known: dict[str, str]) -> None:
    said = call.said
    status = said.status if said is not None and said.kind == "call" else ("done" if reply else "waiting")
    exchange = Exchange(call.message, reply.message if reply else None, status == "failed",
                        status == "interrupted", reply.source if reply else "", cwd)
    for edit in screen.edits(exchange):
        _step(edit, call.index, reply.index if reply else None, status, files, known)


def _step(edit: FileEdit, call: int, reply: int | None, status: str, files: dict[str, FileChanges],
          known: dict[str, str]) -> None:
    before = known.get(edit.path)
    applied_now = status == "done"
    if edit.action == "read":
        if applied_now and edit.content is not None and edit.path not in known:
            known[edit.path] = edit.content
        return
    changed = files.setdefault(edit.path, FileChanges(edit.path))
    if changed.existed is None and not changed.steps:
        changed.existed = True if before is not None or edit.before is not None or edit.action != "create" else None
        if edit.action == "create" and edit.before is None and before is None:
            changed.existed = False
    made = diffs.apply(edit, before)
    changed.steps.append(Step(call, reply, edit.action, made.diff, status, made.placed, edit.moved_to))
    if applied_now:
        if made.after is not None:
            known[edit.path] = made.after
        else:
            known.pop(edit.path, None)  # its text is no longer known
        changed.text = known.get(edit.path)
        if edit.moved_to and edit.path in known:  # later edits name the file by its new path
            known[edit.moved_to] = known.pop(edit.path)


def summary(changed: list[FileChanges]) -> str:
    """`3 files changed: 1 created, 2 edited`."""
    if not changed:
        return "No file was changed."
    by_action: dict[str, int] = {}
    for item in changed:
        by_action[WORDS[item.action]] = by_action.get(WORDS[item.action], 0) + 1
    parts = ", ".join(f"{count:,} {word}" for word, count in by_action.items())
    return f"{len(changed):,} file{'s' if len(changed) != 1 else ''} changed: {parts}."


@dataclass(frozen=True, slots=True)
class DrawnStep:
    """A step with its diff rendered (viewer.render, through the highlighting workers)."""

    step: Step
    diff: render.Rendered | None


@dataclass(frozen=True, slots=True)
class DrawnFile:
    changed: FileChanges
    steps: tuple[DrawnStep, ...]


def of_document(document: Any) -> list[FileChanges]:
    """The files a stored or parsed document's session changed (a `Document` of the debug view)."""
    cwd = document.header.get("cwd") if isinstance(document.header.get("cwd"), str) else None
    return files_changed(document.transcript_rows.entries("debug"), document.dialect, cwd)


def has_screen(dialect: str) -> bool:
    """Whether the dialect is an agent's session whose edits a screen module reads."""
    record = formats.find(dialect)
    return record is not None and record.screen is not None


def drawn(changed: list[FileChanges]) -> list[DrawnFile]:
    """Each file's steps with their diffs highlighted (Pygments' diff lexer), all in one batch of jobs."""
    jobs = [Job("panels", (render.Panel(None, step.diff, True, "diff", "diff"),)) if step.diff else None
            for item in changed for step in item.steps]
    done = iter(cards.rendered([job for job in jobs if job is not None]))
    made = iter([next(done) if job is not None else None for job in jobs])
    return [DrawnFile(item, tuple(DrawnStep(step, next(made)) for step in item.steps)) for item in changed]

