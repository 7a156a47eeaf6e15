"""Sessions an agent writes as a folder of files, read as one upload: each file's bytes in the agent's order,
each ending with a line break, so that the reader of the agent's format reads them as one sequence of events."""
from __future__ import annotations

import re
from pathlib import Path

STATE_FILES = ("base_state.json", "metadata.json")
"""An OpenHands conversation's state (V1) or metadata (V0), read first: its model, title and totals."""
_NUMBER = re.compile(r"(\d+)")


def openhands_bytes(folder: Path) -> bytes:
    """An OpenHands conversation folder (`<id>/` holding `events/`): its state or metadata, then its events in
    order (V1 `event-00000-<id>.json`, V0 `0.json`, `1.json` …)."""
    parts = [folder / name for name in STATE_FILES if (folder / name).is_file()]
    return joined(parts + event_files(folder / "events"))


def event_files(events: Path) -> list[Path]:
    """A conversation's event files in order."""
    return sorted((path for path in events.glob("*.json") if path.is_file()), key=_order)


def joined(paths: list[Path]) -> bytes:
    """The files' bytes one after another, each ending with a line break."""
    chunks = []
    for path in paths:
        data = path.read_bytes()
        chunks.append(data if data.endswith(b"\n") else data + b"\n")
    return b"".join(chunks)


def _order(path: Path) -> tuple[int, str]:
    """An event file's place: the first number in its name (`event-00007-…`, `7.json`), then its name."""
    found = _NUMBER.search(path.name)
    return (int(found[1]) if found else -1, path.name)
