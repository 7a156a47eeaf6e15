"""Finding agent sessions on this machine: the Claude Code sessions under a project folder
(`~/.claude/projects/<project>/<session>.jsonl`, or all projects) and the Codex rollouts under
`~/.codex/sessions/YYYY/MM/DD/`, newest first, each with the first message the default view shows and its size.

A sub-agent's own log (`agent-<id>.jsonl`, `subagents/`) belongs to its session and is not listed: newer Claude
Code versions write the logs of a session's sub-agents to `<session>/subagents/` with a meta file each, and Codex
writes a sub-agent's rollout beside the others, naming its parent in its first line. `session_bytes` sends a
session with those files as one zip archive (viewer/bundles), which the viewer reads as one transcript whose
threads are the sub-agents. The first message is read from the start of the file only, through the policy (never
a hidden message), so a long list stays quick.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import re

from viewer import formats
from viewer.bundles import pack
from viewer.parse import detect, parse
from viewer.policy import Projection

HEAD_BYTES = 256 * 1024
"""What is read of each file to know its dialect and first message."""
SNIPPET_CHARS = 100


@dataclass(frozen=True, slots=True)
class Session:
    """One session file, as a list shows it."""

    path: Path
    dialect: str
    modified: float
    """Seconds since the epoch."""
    size: int
    """Bytes."""
    first_message: str | None
    """The first user message the default view shows (shortened), or None."""


def sessions_under(folder: Path) -> list[Session]:
    """Every agent's session under `folder` (the formats whose record names an agent), newest first."""
    found = []
    for path in folder.rglob("*.jsonl"):
        if path.name.startswith("agent-") or "subagents" in path.relative_to(folder).parts or not path.is_file():
            continue
        session = _session(path)
        if session is not None:
            found.append(session)
    return sorted(found, key=lambda session: (-session.modified, str(session.path)))


def _session(path: Path) -> Session | None:
    try:
        stat = path.stat()
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8", errors="replace")
    dialect = detect(text)
    record = formats.find(dialect)
    if record is None or record.session is None:
        return None
    first = Projection.of(parse(text, dialect)).first_visible_user_message()
    snippet = " ".join(first.content.split())[:SNIPPET_CHARS] if first is not None else None
    return Session(path, dialect, stat.st_mtime, stat.st_size, snippet)


def companions(path: Path) -> list[Path]:
    """The files of a session's sub-agents, where its agent writes them (Claude Code: `<session>/subagents/`;
    Codex: rollouts that name it as their parent), in name order."""
    found: set[Path] = set()
    folder = path.with_suffix("")
    for record in formats.agents():
        if record.session.companions and folder.is_dir():
            found.update(found for found in folder.glob(record.session.companions) if found.is_file())
        if record.session.spawned:
            found.update(formats.load(record.session.spawned)(path))
    return sorted(found)


def session_bytes(path: Path) -> bytes:
    """A session file's bytes; with its sub-agents' files, a zip archive of them all, named as they lie under
    the session's folder, which the viewer reads as one transcript."""
    found = companions(path)
    if not found:
        return path.read_bytes()
    return pack.packed(pack.folder_files(_common_folder([path, *found]), [path, *found]))


def _common_folder(paths: list[Path]) -> Path:
    folder = paths[0].parent
    while not all(folder in path.parents for path in paths):
        folder = folder.parent
    return folder


ROLLOUT_HEAD = 64 * 1024
"""What is read of a rollout to know its parent: the start of its first line, `session_meta`."""
_ROLLOUT_ID = re.compile(r"-([0-9a-fA-F-]{36})\.jsonl$")
_PARENT = re.compile(r'"thread_spawn"\s*:\s*\{[^{}]*?"parent_thread_id"\s*:\s*"([^"\\]+)"')


def spawned_rollouts(path: Path, *, days: int = 2) -> list[Path]:
    """The rollouts of the sub-agents a Codex session spawned, and of theirs: the rollouts of its day's folder
    and of the `days` after it (a sub-agent started after midnight) whose first line names it as their parent."""
    found = _ROLLOUT_ID.search(path.name)
    if found is None or not path.parent.is_dir():
        return []
    candidates = [candidate for folder in _day_folders(path.parent, days) for candidate in folder.glob("rollout-*.jsonl")
                  if candidate != path]
    parents = {candidate: _parent_of(candidate) for candidate in candidates}
    wanted, spawned = {found[1]}, []
    while True:
        more = [c for c, parent in parents.items() if parent in wanted and c not in spawned]
        if not more:
            return spawned
        spawned += more
        wanted = {match[1] for c in more if (match := _ROLLOUT_ID.search(c.name))}


def _day_folders(day: Path, days: int) -> list[Path]:
    """A `YYYY/MM/DD` folder and the ones of the days after it that exist."""
    import datetime as dt
    try:
        date = dt.date(int(day.parent.parent.name), int(day.parent.name), int(day.name))
    except ValueError:
        return [day]
    root = day.parent.parent.parent
    later = (date + dt.timedelta(days=n) for n in range(days + 1))
    folders = [root / f"{when.year:04d}" / f"{when.month:02d}" / f"{when.day:02d}" for when in later]
    return [folder for folder in folders if folder.is_dir()]


def _parent_of(rollout: Path) -> str | None:
    """The parent a rollout's first line names (its `session_meta`'s `source.subagent.thread_spawn`, written
    before the instructions that make that line long)."""
    try:
        with rollout.open("rb") as handle:
            first = handle.read(ROLLOUT_HEAD).split(b"\n", 1)[0].decode("utf-8", errors="replace")
    except OSError:
        return None
    found = _PARENT.search(first) if '"session_meta"' in first else None
    return found[1] if found is not None else None


def human_size(size: int) -> str:
    """1,234 bytes as `1.2 KB`."""
    for unit in ("bytes", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size:,} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GB"
