"""What a list of sessions shows of one session, and how it is read from the file without reading it whole: its
head (the first messages, the title lines some agents write first) and its tail (the last times, the titles some
agents append), and the times an agent writes, as moments."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

HEAD_BYTES = 256 * 1024
"""What is read of the start of a file to know its dialect, its title and its first message."""
TAIL_BYTES = 64 * 1024
"""What is read of its end to know its last time and the titles an agent appends."""
TITLE_CHARS = 100
_TIMESTAMP = re.compile(r'"(?:timestamp|created_at|updated_at|last_updated_at|lastUpdated|createdAt|updatedAt|ts|time)"'
                        r'\s*:\s*(?:"([^"\\]{10,40})"|(\d{9,13}(?:\.\d+)?)\b)')
"""A time an agent writes beside an event: ISO 8601 text, or seconds (or milliseconds) since the epoch."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A session as its agent's own list shows it."""

    title: str | None
    """Its title or summary, else the first thing the user typed; None when there is neither."""
    when: dt.datetime | None
    """Its last activity, by the times it records (aware); None when it records none (its file's time is used)."""


@dataclass(frozen=True, slots=True)
class Peek:
    """The start and the end of a file, decoded (a character cut at either edge is replaced)."""

    head: str
    tail: str
    whole: bool
    """Whether the head is the whole file (then the tail is its end too)."""


def peek(path: Path) -> Peek:
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
        whole = len(head) < HEAD_BYTES or not handle.read(1)
        tail = head[-TAIL_BYTES:] if whole else b""
        if not whole:
            handle.seek(max(handle.seek(0, 2) - TAIL_BYTES, 0))
            tail = handle.read(TAIL_BYTES)
    return Peek(head.decode("utf-8", "replace"), tail.decode("utf-8", "replace"), whole)


def moment(value: object) -> dt.datetime | None:
    """A time as an agent writes it (ISO 8601, `Z` or an offset or none: local time; seconds or milliseconds since
    the epoch)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1000 if 1e11 <= value < 1e14 else value  # milliseconds (Cline's `ts`, Kimi's `time`)
        try:
            return dt.datetime.fromtimestamp(seconds, dt.timezone.utc) if 1e8 < seconds < 1e11 else None
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str):
        return None
    text = value.strip().replace(" ", "T", 1)
    try:
        found = dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.astimezone()


def last_time(text: str) -> dt.datetime | None:
    """The last time written beside an event in the text."""
    for found in reversed(_TIMESTAMP.findall(text)):
        when = moment(found[0] if found[0] else float(found[1]))
        if when is not None:
            return when
    return None


def one_line(text: str | None) -> str | None:
    """A title as a list shows it: one line, shortened."""
    if not text:
        return None
    shown = " ".join(text.split())
    return (shown[:TITLE_CHARS - 1] + "…" if len(shown) > TITLE_CHARS else shown) or None
