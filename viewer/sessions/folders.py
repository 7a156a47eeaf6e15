"""Sessions an agent writes as a folder of files, uploaded as one zip archive of them (viewer/bundles), which the
agent's reader reads as one transcript: an OpenHands conversation folder, its sub-agents' folders within it."""
from __future__ import annotations

import re
from pathlib import Path

from viewer.bundles import pack

STATE_FILES = ("base_state.json", "metadata.json")
"""An OpenHands conversation's state (V1) or metadata (V0): its model, title and totals."""
_NUMBER = re.compile(r"(\d+)")


def openhands_archive(folder: Path) -> bytes:
    """An OpenHands conversation folder (`<id>/` holding `events/`, and V1's `subagents/<id>/` of the same
    layout) as a zip archive of its state and event files, named as they lie under the folder's parent."""
    files = [path for conversation in (folder, *sorted(folder.glob("subagents/*/"))) if conversation.is_dir()
             for path in (*(conversation / name for name in STATE_FILES), *event_files(conversation / "events"))
             if path.is_file()]
    return pack.packed(pack.folder_files(folder.parent, files))


def event_files(events: Path) -> list[Path]:
    """A conversation's event files in order (V1 `event-00000-<id>.json`, V0 `0.json`, `1.json` …)."""
    return sorted((path for path in events.glob("*.json") if path.is_file()), key=_order)


def _order(path: Path) -> tuple[int, str]:
    """An event file's place: the first number in its name (`event-00007-…`, `7.json`), then its name."""
    found = _NUMBER.search(path.name)
    return (int(found[1]) if found else -1, path.name)
