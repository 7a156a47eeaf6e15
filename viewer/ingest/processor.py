"""Processing uploads in the serving processes: a bounded number at once across every process on the database
(`PROCESSING_SLOTS`), each big one (over `DEFER_UPLOAD_BYTES`) in a thread of its own after its link was
answered, and every upload whose process stopped taken over and processed again from its stored raw bytes, at
startup and every quarter of `PROCESSING_LEASE_SECONDS` after.

An upload takes a slot (a row of the store's shared slots, `Store.slots`) before anything is stored, whether it
is processed in its request or after it; without one it is refused (`Busy`: the web app answers 503 with
Retry-After), so several big uploads at once never pile up work or memory, however many server processes share
the database.
Each process names itself (`host:pid:token`) on the slots and uploads it holds and, while it holds any, says
every twelfth of its lease that it is alive. A holder has stopped when its process is gone: on this host, no
process has that pid; on another, it has not said it is alive for `PROCESSING_LEASE_SECONDS`.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
import uuid
import weakref
from contextlib import contextmanager
from typing import BinaryIO, Callable, Iterator

from viewer.ingest import deferred, kept
from viewer.parse.thinning import Thinned
from viewer.store import Store

log = logging.getLogger(__name__)

STALE_AFTER = dt.timedelta(minutes=2)
"""How long a process on another host may go without a heartbeat before what it holds is taken over (the
default of `PROCESSING_LEASE_SECONDS`)."""
BEATS_PER_LEASE = 12
"""Heartbeats within one lease: a few missed ones (a busy database) never lose it."""
SWEEPS_PER_LEASE = 4
"""How often within a lease each process looks for uploads whose process stopped."""
BUSY_RETRY_SECONDS = 10
"""The Retry-After of an upload refused because every slot is taken."""


class Busy(Exception):
    """Every processing slot is taken: the upload is refused before anything is stored. Says when to send it
    again (`retry_after`, in seconds) and, for a person, what to do (`hint`)."""

    retry_after = BUSY_RETRY_SECONDS
    hint = f"Try again in {BUSY_RETRY_SECONDS} seconds."

    def __init__(self) -> None:
        super().__init__("The server is processing as many uploads as it can at once; nothing of this upload was "
                         "stored. Send it again in a few seconds.")


class Processor:
    """One serving process's share of the processing slots, the threads that process uploads after they were
    answered, and the sweep that takes over what stopped processes left."""

    def __init__(self, store: Store, slots: int, window: int = 100, *, lease: dt.timedelta = STALE_AFTER,
                 kept_in: str | None = None) -> None:
        self.store, self.window, self.limit, self.lease = store, window, max(slots, 1), lease
        self.kept_in = kept_in
        """The folder where uploads answered before their bytes were stored keep them (viewer/ingest/kept.py)."""
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._held: set[str] = set()
        self._slots: set[int] = set()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._heartbeat: threading.Thread | None = None
        self._closed = threading.Event()
        self._sweeper: threading.Thread | None = None

    @contextmanager
    def slot(self) -> Iterator[None]:
        """A processing slot for an upload processed in its request; `Busy` when none is free."""
        number = self._take()
        try:
            yield
        finally:
            self._give_back(number)

    def spooled(self, id: str, spool: BinaryIO, accept: Callable[[bool], None]) -> None:
        """Take a slot (`Busy` when none is free), keep upload `id`'s spool file under its name (so that the bytes
        outlive this process's request, and the process), store its record alone with `accept(False)`, and
        process it in a thread of its own, which stores its bytes first: the request answers at once, whatever
        the upload's size. Where the spool file cannot be named, `accept(True)` stores the bytes in the request."""
        number = self._take()
        try:
            named = kept.keep(spool, self.kept_in, id)
            try:
                accept(not named)
            except BaseException:
                if named:
                    kept.forget(self.kept_in, id)
                raise
            handle = _reopened(spool)
        except BaseException:
            self._give_back(number)
            raise
        self.start(id, number, spool=handle)

    def start(self, id: str, number: int, upload: deferred.Upload | None = None,
              spool: BinaryIO | None = None) -> None:
        """Process upload `id` (`upload`, its `spool`, or its bytes read back from the store) in a thread of its
        own, in slot `number`, already taken for it."""
        self._hold(id)
        threading.Thread(target=self._run, args=(id, number, upload, spool), name=f"processing-{id[:8]}",
                         daemon=True).start()

    def _take(self) -> int:
        """A free slot of the store's (or one whose holder stopped), held until `_give_back`; `Busy` without one."""
        number = self._try_to_take()
        if number is None:
            raise Busy()
        return number

    def _try_to_take(self) -> int | None:
        """`_take`, or None without a free slot."""
        number = self.store.slots.take(self.worker, self.limit, self.stopped)
        if number is None:
            return None
        with self._lock:
            self._slots.add(number)
            self._keep_beating()
        return number

    def _give_back(self, number: int) -> None:
        try:
            self.store.slots.give_back(number, self.worker)
        finally:
            with self._lock:
                self._slots.discard(number)
                self._changed.notify_all()

    def _hold(self, id: str) -> None:
        """Count upload `id` as this process's until it is processed, and say meanwhile that it is alive."""
        with self._lock:
            self._held.add(id)
            self._keep_beating()

    def _keep_beating(self) -> None:
        """Start the heartbeat if it is not running (called holding the lock)."""
        if self._heartbeat is None:
            self._heartbeat = threading.Thread(target=self._beat, name="processing-heartbeat", daemon=True)
            self._heartbeat.start()

    def _run(self, id: str, number: int, upload: deferred.Upload | None, spool: BinaryIO | None) -> None:
        try:
            deferred.process(self.store, id, window=self.window, upload=upload, spool=spool, kept_in=self.kept_in)
        finally:
            if spool is not None:
                spool.close()
            with self._lock:
                self._held.discard(id)
            self._give_back(number)

    def _busy(self) -> bool:
        return bool(self._held or self._slots)

    def _beat(self) -> None:
        """Say this process is alive while it holds uploads or slots; ends when it holds none."""
        every = self.lease.total_seconds() / BEATS_PER_LEASE
        while True:
            with self._lock:
                self._changed.wait_for(lambda: not self._busy(), timeout=every)
                if not self._busy():
                    self._heartbeat = None
                    return
            try:
                self.store.processing.heartbeat(self.worker)
                self.store.slots.beat(self.worker)
            except Exception:  # noqa: BLE001 - the next beat tries again; a missed one only risks a takeover
                log.warning("processing heartbeat failed", exc_info=True)

    def idle(self, timeout: float) -> bool:
        """Wait until this process holds no upload and no slot (for tests and benchmarks); False on timeout."""
        with self._lock:
            return self._changed.wait_for(lambda: not self._busy(), timeout=timeout)

    def stopped(self, worker: str, heartbeat_at: dt.datetime) -> bool:
        """Whether `worker`, last alive at `heartbeat_at`, has stopped (what it holds may be taken over)."""
        return abandoned(worker, heartbeat_at, self.worker, lease=self.lease)

    def sweep(self) -> list[str]:
        """Take over every upload whose process stopped, as long as a slot is free for it, and process it again
        in a thread of its own. Returns the ids taken over; those left wait for the next sweep."""
        taken = []
        for id, worker, beat in self.store.processing.held():
            if not self.stopped(worker, beat):
                continue
            number = self._try_to_take()
            if number is None:
                break
            if not self.store.processing.claim(id, worker, self.worker):  # another process was quicker
                self._give_back(number)
                continue
            taken.append(id)
            self.start(id, number)
        if taken:
            log.info("processing again %d upload(s) left unfinished by a process that stopped", len(taken))
        return taken

    def recover(self) -> list[str]:
        """Sweep now (at startup), then every `SWEEPS_PER_LEASE`th of the lease in a background thread for as
        long as this processor is in use. Returns the ids taken over now."""
        taken = self.sweep()
        every = self.lease.total_seconds() / SWEEPS_PER_LEASE
        self._sweeper = threading.Thread(target=_sweep_periodically, args=(weakref.ref(self), every, self._closed),
                                         name="sweep-for-stopped-uploads", daemon=True)
        self._sweeper.start()
        return taken

    def close(self, timeout: float = 30.0) -> None:
        """Stop sweeping (an app closed before its store is: a test's), waiting for a sweep under way."""
        self._closed.set()
        if self._sweeper is not None:
            self._sweeper.join(timeout)


def _reopened(spool: BinaryIO) -> BinaryIO:
    """A handle of its own on a spool file (an anonymous file lives while a handle is open): its request closes
    the one it holds when it ends. Through /proc, so that the two do not share a position; else a duplicate."""
    try:
        return open(f"/proc/self/fd/{spool.fileno()}", "rb")
    except OSError:
        return os.fdopen(os.dup(spool.fileno()), "rb")


def _sweep_periodically(processor: weakref.ref, seconds: float, closed: threading.Event) -> None:
    """Sweep every `seconds` until the processor is closed or gone (an app dropped): the thread holds it only
    while sweeping."""
    while not closed.wait(seconds):
        current = processor()
        if current is None:
            return
        try:
            current.sweep()
        except Exception:  # noqa: BLE001 - a database that is briefly away: the next sweep tries again
            log.warning("processing sweep failed", exc_info=True)
        del current


def abandoned(worker: str, heartbeat_at: dt.datetime, me: str, now: dt.datetime | None = None, *,
              lease: dt.timedelta = STALE_AFTER) -> bool:
    """Whether what `worker` (last alive at `heartbeat_at`) holds is left by a process that stopped."""
    if worker == me:
        return False
    host, _, rest = worker.partition(":")
    pid = rest.partition(":")[0]
    if host == socket.gethostname() and pid.isdigit():
        return not _alive(int(pid))
    return (now or dt.datetime.now(dt.timezone.utc)) - heartbeat_at > lease


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


__all__ = ["Busy", "Processor", "STALE_AFTER", "abandoned"]
