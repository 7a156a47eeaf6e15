"""The rollouts of the sub-agents a Codex session spawned: Codex writes each beside the others (the same day's
folder, or a later day's), naming its parent in its first line, not in a folder of the session's."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

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
    wanted: set[str | None] = {found[1]}
    spawned: list[Path] = []
    while True:
        more = [c for c, parent in parents.items() if parent in wanted and c not in spawned]
        if not more:
            return spawned
        spawned += more
        wanted = {match[1] for c in more if (match := _ROLLOUT_ID.search(c.name))}


def _day_folders(day: Path, days: int) -> list[Path]:
    """A `YYYY/MM/DD` folder and the ones of the days after it that exist."""
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
