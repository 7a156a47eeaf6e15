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
process has that pid; on another, it has not said it is alive for `PROCESSING_LEASE_SECONDS`; anywhere, when it
handed its uploads back as it stopped (`shut_down`, on SIGTERM: it takes no new work, and the next sweep of any
process, every few seconds, or the next start takes them over at once).

Storage faults (a full disk, a database restarting) interrupt processing without failing the upload: its thread
waits and processes it again from its stored bytes, each wait longer (up to `RETRY_MOST_SECONDS`), for as long
as the process runs. Nothing answered 202 is given up for a fault of storage.
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
from viewer.store import Store
from viewer.store.faults import storage_fault
from viewer.store.processing import RELEASED

log = logging.getLogger(__name__)

STALE_AFTER = dt.timedelta(minutes=2)
"""How long a process on another host may go without a heartbeat before what it holds is taken over (the
default of `PROCESSING_LEASE_SECONDS`)."""
BEATS_PER_LEASE = 12
"""Heartbeats within one lease: a few missed ones (a busy database) never lose it."""
SWEEPS_PER_LEASE = 4
"""How often within a lease each process looks for uploads whose process stopped, at least."""
SWEEP_MOST_SECONDS = 5.0
"""… and at least this often, so that uploads handed back at a shutdown are taken over within seconds."""
RETRY_FIRST_SECONDS = 1.0
RETRY_MOST_SECONDS = 30.0
"""The waits before processing an upload again after a storage fault: doubling from the first to the most."""
ORPHANED_IMAGES_AFTER = dt.timedelta(hours=24)
"""Images no message holds are deleted by the sweep once this old (an upload's rows may still be on their way)."""
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
                 folder: str | None = None) -> None:
        self.store, self.window, self.limit, self.lease = store, window, max(slots, 1), lease
        self.folder = folder
        """The spool folder: where an upload's stored bytes are copied while it is processed, and where uploads
        answered before their bytes were stored keep them (viewer/ingest/kept.py)."""
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
            named = kept.keep(spool, self.folder, id)
            try:
                accept(not named)
            except BaseException:
                if named:
                    kept.forget(self.folder, id)
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
        """A free slot of the store's (or one whose holder stopped), held until `_give_back`; `Busy` without one,
        and once this process is shutting down."""
        if self._closed.is_set():
            raise Busy()
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
        """Free slot `number`; while the database is away, try again (each wait longer) rather than leave it held
        by this live process, which no other process would take it from."""
        wait = RETRY_FIRST_SECONDS
        try:
            while True:
                try:
                    self.store.slots.give_back(number, self.worker)
                    return
                except Exception as error:
                    if storage_fault(error) is None or self._closed.wait(wait):
                        raise
                    wait = min(wait * 2, RETRY_MOST_SECONDS)
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
            self._process(id, upload, spool)
        finally:
            if spool is not None:
                spool.close()
            with self._lock:
                self._held.discard(id)
            self._give_back(number)  # only if still this process's: it may have been handed back

    def _process(self, id: str, upload: deferred.Upload | None, spool: BinaryIO | None) -> None:
        """Process upload `id`, again from its stored bytes after each storage fault, until it is done or this
        process shuts down (then it was handed back)."""
        wait = RETRY_FIRST_SECONDS
        while not self._closed.is_set():
            try:
                deferred.process(self.store, id, window=self.window, upload=upload, worker=self.worker,
                                 folder=self.folder, spool=spool, kept_in=self.folder)
                return
            except deferred.Interrupted as interrupted:
                log.warning("processing upload %s interrupted (%s); trying again in %.0f s", id, interrupted, wait)
            upload = None  # read back from the store next time: its bytes are durable
            if self._closed.wait(wait):
                return
            wait = min(wait * 2, RETRY_MOST_SECONDS)

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
        taken: list[str] = []
        if self._closed.is_set():
            return taken
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
        long as this processor is in use. Returns the ids taken over now (none when storage is at fault now: the
        next sweep tries again, and the server starts all the same)."""
        try:
            taken = self.sweep()
        except Exception as error:
            if storage_fault(error) is None:
                raise
            log.warning("the sweep at startup could not run (%s); the next one tries again", storage_fault(error))
            taken = []
        every = min(self.lease.total_seconds() / SWEEPS_PER_LEASE, SWEEP_MOST_SECONDS)
        self._sweeper = threading.Thread(target=_sweep_periodically, args=(weakref.ref(self), every, self._closed),
                                         name="sweep-for-stopped-uploads", daemon=True)
        self._sweeper.start()
        return taken

    def close(self, timeout: float = 30.0) -> None:
        """Stop sweeping (an app closed before its store is: a test's), waiting for a sweep under way."""
        self._closed.set()
        if self._sweeper is not None:
            self._sweeper.join(timeout)

    def shut_down(self, timeout: float = 10.0) -> list[str]:
        """This process stops (SIGTERM): take no new work, stop sweeping, and hand back every upload it holds and
        every slot, so that another process, or the next start, takes them over at once rather than after a
        lease. The threads still processing them can store nothing more (the store checks who holds an upload).
        Returns the ids handed back."""
        self.close(timeout)
        released = self.store.processing.release(self.worker)
        with self._lock:
            numbers = set(self._slots)
        for number in numbers:
            self._give_back(number)
        log.warning("shutting down: handed back %d upload(s) being processed, for another process to take over",
                    len(released))
        return released

    def sweep_orphaned_images(self) -> int:
        """Delete the images no message holds that are older than `ORPHANED_IMAGES_AFTER` (stored for an upload
        whose rows could then not be stored, where deleting them at once failed too)."""
        return self.store.media.drop_orphans(ORPHANED_IMAGES_AFTER)


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
            current.sweep_orphaned_images()
        except Exception:  # noqa: BLE001 - a database that is briefly away: the next sweep tries again
            log.warning("processing sweep failed", exc_info=True)
        del current


def abandoned(worker: str, heartbeat_at: dt.datetime, me: str, now: dt.datetime | None = None, *,
              lease: dt.timedelta = STALE_AFTER) -> bool:
    """Whether what `worker` (last alive at `heartbeat_at`) holds is left by a process that stopped."""
    if worker == me:
        return False
    if worker == RELEASED:  # handed back by a process that stopped
        return True
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
