"""Room to store, as the server sees it: the free space of the places it writes (the SQLite database's folder,
the spool folder where bodies arrive and processing copies uploads, the instance folder), an upload refused
with 507 before anything of it is stored when storing it would leave less than `MIN_FREE_BYTES` there, the
storage faults the store met (viewer/store/faults.py) remembered a while, and what `/healthz` says of it all.

A place on PostgreSQL's side is not ours to measure: there, a full disk is known by the database's refusal
(SQLSTATE 53100), which `/healthz` reports for `REFUSAL_MEMORY` seconds after it."""
from __future__ import annotations

import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from viewer.settings import database_url
from viewer.store.faults import FULL, Fault
from viewer.web.spool import NoRoom

REFUSAL_MEMORY = 30.0
"""Seconds `/healthz` keeps saying the database refused a write for lack of room: long enough for a load
balancer's check to see it, short enough that the server is tried again once room may have returned."""
DATABASE_GROWTH = 2
"""What an upload of N bytes may add to the database at most, in Ns: its raw bytes, and rows no bigger again."""


@dataclass
class Refusals:
    """The last refusal of storage each kind of fault met, shared by the app's threads."""

    _last: dict[str, tuple[float, str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def met(self, fault: Fault) -> None:
        with self._lock:
            self._last[fault.kind] = (time.monotonic(), fault.detail)

    def recent(self, kind: str, within: float | None = None) -> tuple[float, str] | None:
        """(seconds ago, what happened) of the last fault of `kind` within `within` seconds (`REFUSAL_MEMORY`),
        else None."""
        with self._lock:
            found = self._last.get(kind)
        if found is None or time.monotonic() - found[0] > (REFUSAL_MEMORY if within is None else within):
            return None
        return time.monotonic() - found[0], found[1]


def init_app(app: Flask) -> None:
    app.extensions["viewer.refusals"] = Refusals()


def refusals() -> Refusals:
    return current_app.extensions["viewer.refusals"]


def places(app: Flask | None = None) -> dict[str, Path]:
    """The folders this server writes, by role: `database` (SQLite's only), `spool`, `instance`."""
    app = app or current_app
    found = {}
    url = database_url(str(app.config["DATABASE"]), app.instance_path)
    if url.startswith("sqlite:///"):
        found["database"] = Path(url.removeprefix("sqlite:///")).parent
    found["spool"] = Path(str(app.config["SPOOL_DIR"]) or tempfile.gettempdir())
    found["instance"] = Path(app.instance_path)
    return found


def free_bytes(folder: Path) -> int | None:
    """The bytes an unprivileged process may still write under `folder` (or where it would be made); None when it
    cannot be told."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def ensure_room(size: int) -> None:
    """507 (`NoRoom`), before anything is stored, when storing an upload of `size` bytes (already spooled)
    would leave less than `MIN_FREE_BYTES` free where the SQLite database is (its bytes and rows), or in the spool
    folder (where it is copied while it is processed)."""
    reserve = int(current_app.config["MIN_FREE_BYTES"])
    for role, folder in places().items():
        needs = {"database": DATABASE_GROWTH * size, "spool": size}.get(role)
        free = free_bytes(folder) if needs is not None else None
        if free is not None and needs is not None and free - needs < reserve:
            refusals().met(Fault(FULL, f"the {role} folder's disk is nearly full"))
            raise NoRoom(f"The server's disk is nearly full ({_mib(free)} free, and it keeps {_mib(reserve)} in "
                         f"reserve): this upload of {_mib(size)} was not stored. What is stored can still be read; "
                         "try again later, or send a smaller upload.")


def health(database_answers: bool) -> tuple[dict[str, Any], int]:
    """What `/healthz` answers: the database, the free space of each place written (no path named), the
    problems in words, and 200, or 503 when the server cannot store."""
    reserve = int(current_app.config["MIN_FREE_BYTES"])
    problems = [] if database_answers else ["the database does not answer"]
    storage = {}
    for role, folder in places().items():
        free = free_bytes(folder)
        room = free is None or (free > 0 and free >= reserve)
        storage[role] = {"free_bytes": free, "ok": room}
        if not room:
            problems.append(f"the {role} folder's disk has {_mib(free or 0)} free, under the {_mib(reserve)} "
                            "kept in reserve")
    refused = refusals().recent(FULL)
    if refused is not None:
        problems.append(f"{refused[1]}: a write was refused {refused[0]:.0f} s ago")
    body = {"status": "ok" if not problems else "unavailable",
            "database": "ok" if database_answers else "unreachable", "storage": storage, "problems": problems}
    return body, 200 if not problems else 503


def _mib(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"


__all__ = ["Refusals", "ensure_room", "free_bytes", "health", "init_app", "places", "refusals"]
