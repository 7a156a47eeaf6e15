"""Finding agent sessions on this machine (`viewer open`): every agent's sessions in its default places (the
format registry's `session.folders`, on Linux and macOS), or any agent's under a folder; each titled and dated as
its agent's own list does (the record's `lister`, in titles.py), newest first.

A session is a file, a folder of files (an OpenHands conversation, uploaded as a zip archive of them: folders.py), or a
SQLite store of many sessions (listed by its path and opened read-only, stores.py). A sub-agent's own log belongs
to its session and is not listed: newer Claude Code versions write the logs of a session's sub-agents to
`<session>/subagents/` with a meta file each, and Codex writes a sub-agent's rollout beside the others, naming
its parent in its first line (spawned.py). `session_bytes` sends a session with those files as one zip archive
(viewer/bundles), which the viewer reads as one transcript whose threads are the sub-agents.
"""
from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from viewer import formats
from viewer.bundles import pack
from viewer.formats import Dialect, SessionFiles
from viewer.parse import detect
from viewer.sessions import stores
from viewer.sessions.listed import HEAD_BYTES, Listed, peek
from viewer.sessions.titles import by_first_message


@dataclass(frozen=True, slots=True)
class Session:
    """One session, as a list shows it."""

    path: Path
    """Its file, its folder (a session kept as several files), or the SQLite store that holds it."""
    dialect: str
    agent: str
    title: str | None
    when: dt.datetime
    """Its last activity (aware): by the times it records, else its file's time."""
    timed: bool
    """Whether `when` is the session's own time (False: its file's, the session records none)."""
    size: int
    """Bytes."""
    database: bool = False
    """A SQLite store of many sessions, listed by its path."""


def everywhere(home: Path | None = None) -> list[Session]:
    """Every agent's sessions in their default places, newest first."""
    found: dict[Path, Session] = {}
    for record in formats.agents():
        for folder in default_folders(record, home):
            for session in _found(folder, [record]):
                found.setdefault(session.path, session)
    return _newest_first(found.values())


def sessions_under(folder: Path) -> list[Session]:
    """Every agent's sessions under a folder, newest first."""
    found: dict[Path, Session] = {}
    for session in _found(folder, list(formats.agents())):
        found.setdefault(session.path, session)
    return _newest_first(found.values())


def default_folders(record: Dialect, home: Path | None = None) -> list[Path]:
    """The folders an agent keeps its sessions in that exist here: `~` is the home folder, `$NAME` a setting of
    the environment (left out when unset), a relative folder is under the current one."""
    home = home or Path.home()
    folders = []
    for written in _files(record).folders:
        if written.startswith("$"):
            name, _, rest = written[1:].partition("/")
            if not os.environ.get(name):
                continue
            folder = Path(os.environ[name]) / rest
        elif written.startswith("~"):
            folder = home / written[1:].lstrip("/")
        else:
            folder = Path(written)
        if folder.is_dir():
            folders.append(folder)
    return folders


def _found(folder: Path, records: list[Dialect]) -> Iterator[Session]:
    """The sessions under a folder of the agents of these records."""
    for record in records:
        files = _files(record)
        for path in sorted(folder.rglob(files.pattern)):
            if "subagents" in path.relative_to(folder).parts[:-1]:
                continue  # a sub-agent's log, read with its session
            if files.joined is not None:
                if path.is_dir():  # the folder the pattern names is in the session's folder
                    yield from _session(path.parent, record, record)
            elif path.is_file():
                yield from _session(path, record, None if not files.database else record)


def _session(path: Path, found_by: Dialect, known: Dialect | None) -> Iterator[Session]:
    """The session at a path: of the agent whose record found it when the path says (a folder, a store), else of
    the agent its content is detected as."""
    try:
        record = known or _detected(path)
        if record is None or record.session is None:
            return
        if record.session.database:
            yield _store(path, record)
            return
        listed = _listed(path, record)
        if listed is None:
            return
        stat = path.stat()
        size = stat.st_size if path.is_file() else sum(file.stat().st_size for file in path.rglob("*") if file.is_file())
        file_time = dt.datetime.fromtimestamp(stat.st_mtime, dt.timezone.utc)
        yield Session(path, record.name, record.session.agent, listed.title, listed.when or file_time,
                      listed.when is not None, size)
    except OSError:
        return


def _files(record: Dialect) -> SessionFiles:
    """Where an agent keeps its sessions (`formats.agents()` gives only the records that say)."""
    if record.session is None:
        raise ValueError(f"{record.name} is no agent's session log")
    return record.session


def _detected(path: Path) -> Dialect | None:
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
    return formats.find(detect(head.decode("utf-8", "replace")))


def _listed(path: Path, record: Dialect) -> Listed | None:
    lister = _files(record).lister
    if lister is None:
        return by_first_message(path, record.name)
    return formats.load(lister)(path, record.name)


def _store(path: Path, record: Dialect) -> Session:
    """A SQLite store: listed by its path until a reader of its sessions lists them; dated by its last write
    (its `-wal` file's, when the agent writes one)."""
    times = [path.stat().st_mtime, *(other.stat().st_mtime for other in (Path(f"{path}-wal"),) if other.exists())]
    when = dt.datetime.fromtimestamp(max(times), dt.timezone.utc)
    agent = _files(record).agent
    return Session(path, record.name, agent, f"{agent}'s session store (SQLite, read "
                   "only): its sessions are in it", when, False, path.stat().st_size, database=True)


def _newest_first(sessions) -> list[Session]:
    return sorted(sessions, key=lambda session: (-session.when.timestamp(), str(session.path)))


def session_bytes(session: Session | Path) -> bytes:
    """What is uploaded of a session: a file's bytes, or with its sub-agents' files a zip archive of them all
    (named as they lie under their common folder); a folder's files as a zip archive; a store's snapshot."""
    if isinstance(session, Session):
        record = formats.find(session.dialect)
        if session.database:
            return stores.snapshot(session.path)
        if record is not None and record.session is not None and record.session.joined is not None:
            return formats.load(record.session.joined)(session.path)
        path = session.path
    else:
        path = session
    found = companions(path)
    if not found:
        return path.read_bytes()
    return pack.packed(pack.folder_files(_common_folder([path, *found]), [path, *found]))


def companions(path: Path) -> list[Path]:
    """The files of a session's sub-agents, where its agent writes them (Claude Code: `<session>/subagents/`;
    Codex: rollouts that name it as their parent), in name order."""
    found: set[Path] = set()
    folder = path.with_suffix("")
    for record in formats.agents():
        files = _files(record)
        if files.companions and folder.is_dir():
            found.update(found for found in folder.glob(files.companions) if found.is_file())
        if files.spawned:
            found.update(formats.load(files.spawned)(path))
    return sorted(found)


def _common_folder(paths: list[Path]) -> Path:
    folder = paths[0].parent
    while not all(folder in path.parents for path in paths):
        folder = folder.parent
    return folder


def human_size(size: int) -> str:
    """1,234 bytes as `1.2 KB`."""
    amount: float = size
    for unit in ("bytes", "KB", "MB"):
        if amount < 1024 or unit == "MB":
            return f"{size:,} {unit}" if unit == "bytes" else f"{amount:,.1f} {unit}"
        amount /= 1024
    return f"{amount:,.1f} GB"


__all__ = ["Listed", "Session", "companions", "default_folders", "everywhere", "human_size", "peek",
           "session_bytes", "sessions_under"]
