"""Processing slots shared by every serving process on the database (`Store.slots`): an upload is parsed and
stored only in a slot, a row of `processing_slots` numbered below the process's PROCESSING_SLOTS, so that the
bound on uploads processed at once holds however many processes serve. A slot is taken by inserting its row
(the primary key lets exactly one of two processes have it) and given back by deleting it; its holder's
heartbeat (`beat`) is its lease, and a slot whose holder stopped is taken over (`take`, with the caller's
judgement of which holders stopped: the processor's `abandoned`).

Their writes do not wait for the disk (`_passing`): a slot lasts no longer than its process, so one lost in a
crash is free anyway, and one whose release was lost is held by a process that is gone, which the next taker
takes over. Every upload takes and gives back a slot, so durable commits would slow every one of them.
"""
from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from typing import Callable, Iterator

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from viewer.store.schema import processing_slots as slots

TAKE_ATTEMPTS = 5
"""Reads of the slots a take may make when other processes take and give back slots between its read and its
writes (a slot read as held may be free by then, while the one read as free was just taken)."""
Abandoned = Callable[[str, dt.datetime], bool]
"""Whether the holder of a slot (`worker`, last alive at `heartbeat_at`) has stopped."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)  # SQLite keeps no zone


class Slots:
    """The processing slots of every process on this database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def holders(self) -> dict[int, tuple[str, dt.datetime]]:
        """Each taken slot's `(worker, heartbeat_at)`."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(slots.c.slot, slots.c.worker, slots.c.heartbeat_at)).all()
        return {row.slot: (row.worker, _aware(row.heartbeat_at)) for row in rows}

    def take(self, worker: str, limit: int, abandoned: Abandoned) -> int | None:
        """Take a free slot below `limit` for `worker`, or one whose holder `abandoned` says stopped; None when
        every one is held by a live process."""
        for _ in range(TAKE_ATTEMPTS):
            held = self.holders()
            raced = False  # another process changed the slots after we read them: what we read is stale
            for number in range(limit):
                if number not in held:
                    if self._insert(number, worker):
                        return number
                    raced = True
                elif abandoned(*held[number]):
                    if self._take_over(number, held[number][0], worker):
                        return number
                    raced = True
            if not raced:
                return None
        return None

    def _insert(self, number: int, worker: str) -> bool:
        try:
            with _passing(self.engine) as conn:  # a transaction of its own: on PostgreSQL a conflict ends it
                conn.execute(insert(slots).values(slot=number, worker=worker, heartbeat_at=_now()))
        except IntegrityError:  # another process took it since we looked
            return False
        return True

    def _take_over(self, number: int, seen: str, worker: str) -> bool:
        """Take slot `number` from `seen`, if it still holds it: True for exactly one of concurrent takers."""
        with _passing(self.engine) as conn:
            return bool(conn.execute(update(slots).where(slots.c.slot == number, slots.c.worker == seen)
                                     .values(worker=worker, heartbeat_at=_now())).rowcount)

    def give_back(self, number: int, worker: str) -> None:
        """Free slot `number`, if `worker` still holds it (it may have been taken over meanwhile)."""
        with _passing(self.engine) as conn:
            conn.execute(delete(slots).where(slots.c.slot == number, slots.c.worker == worker))

    def beat(self, worker: str) -> None:
        """Say that `worker` is alive: its slots are not taken over."""
        with _passing(self.engine) as conn:
            conn.execute(update(slots).where(slots.c.worker == worker).values(heartbeat_at=_now()))


@contextmanager
def _passing(engine: Engine) -> Iterator[Connection]:
    """A transaction whose commit does not wait for the disk (SQLite `synchronous=NORMAL` for it alone,
    PostgreSQL `synchronous_commit=off`): still atomic, and durable with the next durable commit."""
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA synchronous=NORMAL")
            conn.commit()
        try:
            with conn.begin():
                if not sqlite:
                    conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
                yield conn
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA synchronous=FULL")  # the connection's setting (engine._sqlite_pragmas)
                conn.commit()
