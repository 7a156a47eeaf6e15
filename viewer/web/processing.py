"""Processing uploads in the serving process: a bounded number at once (`PROCESSING_SLOTS`, per process), each
big one (over `DEFER_UPLOAD_BYTES`) in a thread of its own after its link was answered, and at startup every
upload whose process died is taken over and processed again from its stored raw bytes.

An upload takes a slot before anything is stored, whether it is processed in its request or after it; without
one it is refused (503 with Retry-After), so several big uploads at once never pile up work or memory. Each
process names itself (`host:pid:token`) on the uploads it holds and, while it holds any, says every
`HEARTBEAT_SECONDS` that it is alive. An upload is abandoned when its process is gone: on this host, no process
has that pid; on another, it has not said it is alive for `STALE_AFTER`.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
import uuid
from contextlib import contextmanager
from typing import Callable, Iterator

from flask import Flask, current_app
from werkzeug.exceptions import ServiceUnavailable

from viewer import ingest
from viewer.store import Store

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10.0
STALE_AFTER = dt.timedelta(minutes=2)
"""How long an upload held by a process on another host may go without a heartbeat before it is taken over."""
BUSY_RETRY_SECONDS = 10
"""The Retry-After of an upload refused because every slot is taken."""


class Busy(ServiceUnavailable):
    """Every processing slot of this process is taken: the upload is refused before anything is stored."""

    description = ("The server is processing as many uploads as it can at once; nothing of this upload was "
                   "stored. Send it again in a few seconds.")
    hint = f"Try again in {BUSY_RETRY_SECONDS} seconds."

    def __init__(self) -> None:
        super().__init__(retry_after=BUSY_RETRY_SECONDS)


class Processor:
    """One serving process's processing slots and the threads that process uploads after they were answered."""

    def __init__(self, store: Store, slots: int, window: int = 100) -> None:
        self.store, self.window = store, window
        self.slots = threading.BoundedSemaphore(max(slots, 1))
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._held: set[str] = set()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._heartbeat: threading.Thread | None = None

    @contextmanager
    def slot(self) -> Iterator[None]:
        """A processing slot for an upload processed in its request; `Busy` when none is free."""
        if not self.slots.acquire(blocking=False):
            raise Busy()
        try:
            yield
        finally:
            self.slots.release()

    def later(self, id: str, raw: str | bytes, dialect: str, accept: Callable[[], None]) -> None:
        """Take a slot (`Busy` when none is free) and process upload `id` (`raw`, read as `dialect`) in a thread
        of its own, which gives the slot back when done; its parse starts at once, while `accept` stores its
        bytes and record here (nothing of it is stored if `accept` fails)."""
        if not self.slots.acquire(blocking=False):
            raise Busy()
        done, outcome = threading.Event(), []

        def stored() -> bool:
            done.wait()
            return bool(outcome)
        self.start(id, ingest.Upload(raw, dialect, stored))
        try:
            accept()
            outcome.append(True)
        finally:
            done.set()

    def start(self, id: str, upload: ingest.Upload | None = None) -> None:
        """Process upload `id` (`upload`, or its bytes read back from the store) in a thread of its own, in a
        slot already taken for it."""
        self._hold(id)
        threading.Thread(target=self._run, args=(id, upload), name=f"processing-{id[:8]}", daemon=True).start()

    def _hold(self, id: str) -> None:
        """Count upload `id` as this process's until it is processed, and say meanwhile that it is alive."""
        with self._lock:
            self._held.add(id)
            if self._heartbeat is None:
                self._heartbeat = threading.Thread(target=self._beat, name="processing-heartbeat", daemon=True)
                self._heartbeat.start()

    def _run(self, id: str, upload: ingest.Upload | None) -> None:
        try:
            ingest.process(self.store, id, window=self.window, upload=upload)
        finally:
            self.slots.release()
            with self._lock:
                self._held.discard(id)
                self._changed.notify_all()

    def _beat(self) -> None:
        """Say this process is alive while it holds uploads; ends when it holds none."""
        while True:
            with self._lock:
                self._changed.wait_for(lambda: not self._held, timeout=HEARTBEAT_SECONDS)
                if not self._held:
                    self._heartbeat = None
                    return
            try:
                self.store.processing.heartbeat(self.worker)
            except Exception:  # noqa: BLE001 - the next beat tries again; a missed one only risks a takeover
                log.warning("processing heartbeat failed", exc_info=True)

    def idle(self, timeout: float) -> bool:
        """Wait until this process holds no upload (for tests and benchmarks); False on timeout."""
        with self._lock:
            return self._changed.wait_for(lambda: not self._held, timeout=timeout)

    def recover(self) -> list[str]:
        """Take over every upload whose process died and process it again, one slot each as slots free up
        (in a background thread: startup does not wait). Returns the ids taken over."""
        taken = [id for id, worker, beat in self.store.processing.held()
                 if abandoned(worker, beat, self.worker) and self.store.processing.claim(id, worker, self.worker)]
        for id in taken:
            self._hold(id)
        if taken:
            log.info("processing again %d upload(s) left unfinished by a process that stopped", len(taken))
            threading.Thread(target=self._resume, args=(taken,), name="processing-recovery", daemon=True).start()
        return taken

    def _resume(self, ids: list[str]) -> None:
        for id in ids:
            self.slots.acquire()
            self.start(id)


def abandoned(worker: str, heartbeat_at: dt.datetime, me: str, now: dt.datetime | None = None) -> bool:
    """Whether an upload held by `worker` (last alive at `heartbeat_at`) is left by a process that died."""
    if worker == me:
        return False
    host, _, rest = worker.partition(":")
    pid = rest.partition(":")[0]
    if host == socket.gethostname() and pid.isdigit():
        return not _alive(int(pid))
    return (now or dt.datetime.now(dt.timezone.utc)) - heartbeat_at > STALE_AFTER


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def init_app(app: Flask, *, recover: bool = True) -> None:
    processor = Processor(app.extensions["viewer.store"], int(app.config["PROCESSING_SLOTS"]),
                          max(int(app.config["WINDOW_SIZE"]), 1))
    app.extensions["viewer.processor"] = processor
    if recover:
        processor.recover()


def get_processor() -> Processor:
    """The current app's processor."""
    return current_app.extensions["viewer.processor"]


def defers(size: int) -> bool:
    """Whether an upload of `size` bytes is answered before it is processed."""
    threshold = int(current_app.config["DEFER_UPLOAD_BYTES"])
    return threshold > 0 and size > threshold


__all__ = ["Busy", "Processor", "abandoned", "defers", "get_processor", "init_app"]
