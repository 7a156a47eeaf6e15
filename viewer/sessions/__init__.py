"""Finding agent sessions on this machine: the Claude Code sessions under a project folder
(`~/.claude/projects/<project>/<session>.jsonl`, or all projects) and the Codex rollouts under
`~/.codex/sessions/YYYY/MM/DD/`, newest first, each with the first message the default view shows and its size.

A sub-agent's own log (`agent-<id>.jsonl`, `subagents/`) belongs to its session and is not listed: newer Claude
Code versions write the logs of a session's sub-agents to `<session>/subagents/`, and `session_bytes` puts them
after the session's own lines, where the importer finds each one's call by its `agentId`. The first message is
read from the start of the file only, through the policy (never a hidden message), so a long list stays quick.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from viewer import formats
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
    """The logs of a session's sub-agents, beside it where its agent writes them (Claude Code:
    `<session>/subagents/`), in name order."""
    folder = path.with_suffix("")
    if not folder.is_dir():
        return []
    patterns = {record.session.companions for record in formats.agents() if record.session.companions}
    return sorted({found for pattern in patterns for found in folder.glob(pattern)})


def session_bytes(path: Path) -> bytes:
    """A session file with its sub-agents' logs after it, each ending with a line break."""
    parts = [path.read_bytes(), *(companion.read_bytes() for companion in companions(path))]
    return b"".join(part if part.endswith(b"\n") or part is parts[-1] else part + b"\n" for part in parts)


def human_size(size: int) -> str:
    """1,234 bytes as `1.2 KB`."""
    for unit in ("bytes", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size:,} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GB"
