"""What the limits of a shared server count, shared by every serving process on the database: fixed-window
request counters (`RateCounters`, the storage Flask-Limiter's windows are kept in: viewer/web/limits.py) and the
uploads each client is sending at this moment (`ClientUploads`). Both are written by transactions that do not
wait for the disk (a counter lost to a crash costs a client a few requests, never data)."""
from __future__ import annotations

import datetime as dt
import secrets
from contextlib import contextmanager
from typing import Callable, Iterator

from sqlalchemy import DateTime, Integer, String, bindparam, delete, func, insert, select, text
from sqlalchemy.engine import Connection, Engine

from viewer.store.schema import client_uploads, rate_counters
from viewer.store.slots import _passing

STALE_UPLOAD = dt.timedelta(hours=1)
"""An upload request still counted after this long had its process stop without saying so: it counts no more."""
Stopped = Callable[[str], bool]
"""Whether a worker (`host:pid:token`) has stopped."""


_INCREMENT = text(
    # SQLite (3.35 on) and PostgreSQL spell an upsert alike; SET reads the row as it was.
    "INSERT INTO rate_counters (key, count, expires_at) VALUES (:key, :amount, :ends) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_counters.expires_at > :now THEN rate_counters.count + :amount ELSE :amount END, "
    "expires_at = CASE WHEN rate_counters.expires_at > :now THEN rate_counters.expires_at ELSE :ends END "
    "RETURNING count, expires_at"
).bindparams(bindparam("key", type_=String()), bindparam("amount", type_=Integer()),
             bindparam("now", type_=DateTime(timezone=True)), bindparam("ends", type_=DateTime(timezone=True))
             ).columns(count=Integer(), expires_at=DateTime(timezone=True))


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


class RateCounters:
    """Fixed-window counters by key (`Store.counters`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def incr(self, key: str, expiry: float, amount: int = 1) -> tuple[int, float]:
        """Add `amount` to the counter of `key`, whose window (when it starts now) lasts `expiry` seconds; returns
        its count and when its window ends (seconds since the epoch). One statement, written once: a client's
        requests past a limit must cost the server as little as they can."""
        now = _now()
        with _passing(self.engine) as conn:
            count, window_ends = conn.execute(_INCREMENT, {"key": key, "amount": amount, "now": now,
                                                           "ends": now + dt.timedelta(seconds=expiry)}).one()
        return int(count), _aware(window_ends).timestamp()

    def get(self, key: str) -> int:
        """The count of `key`'s current window (0 without one)."""
        with self.engine.connect() as conn:
            count = conn.execute(select(rate_counters.c.count).where(
                rate_counters.c.key == key, rate_counters.c.expires_at > _now())).scalar()
        return int(count or 0)

    def expiry(self, key: str) -> float:
        """When `key`'s current window ends (seconds since the epoch); now without one."""
        with self.engine.connect() as conn:
            ends = conn.execute(select(rate_counters.c.expires_at).where(rate_counters.c.key == key)).scalar()
        return max(_aware(ends).timestamp(), _now().timestamp()) if ends is not None else _now().timestamp()

    def clear(self, key: str | None = None) -> int:
        """Forget `key`'s window (every window without one); returns how many were forgotten."""
        with _passing(self.engine) as conn:
            query = delete(rate_counters)
            return conn.execute(query.where(rate_counters.c.key == key) if key is not None else query).rowcount

    def prune(self) -> int:
        """Delete the windows that ended; returns how many."""
        with _passing(self.engine) as conn:
            return conn.execute(delete(rate_counters).where(rate_counters.c.expires_at <= _now())).rowcount


def _one_taker_at_a_time(conn: Connection, client: str) -> None:
    """Lock for the transaction that counts `client`'s uploads and adds one, so that the count it read still
    holds when it adds: concurrent takers would otherwise all see room and all take it. On SQLite the write lock
    (pysqlite begins a transaction only at the first write, so the count would be read outside of any), on
    PostgreSQL an advisory lock of the client's alone."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext(%(client)s))", {"client": client})


class ClientUploads:
    """The uploads each client is sending now (`Store.client_uploads`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take(self, client: str, worker: str, limit: int, stopped: Stopped) -> str | None:
        """Count one more upload of `client` (held by `worker`) if it sends fewer than `limit` now; returns the
        token to give back, or None at the limit. Rows whose process stopped, or too old, are cleared first."""
        now = _now()
        with _passing(self.engine) as conn:
            _one_taker_at_a_time(conn, client)
            rows = conn.execute(select(client_uploads.c.token, client_uploads.c.worker, client_uploads.c.started_at)
                                .where(client_uploads.c.client == client)).all()
            gone = [row.token for row in rows if now - _aware(row.started_at) > STALE_UPLOAD or stopped(row.worker)]
            if gone:
                conn.execute(delete(client_uploads).where(client_uploads.c.token.in_(gone)))
            if len(rows) - len(gone) >= limit:
                return None
            token = secrets.token_hex(16)
            conn.execute(insert(client_uploads).values(token=token, client=client, worker=worker, started_at=now))
            return token

    def give_back(self, token: str) -> None:
        with _passing(self.engine) as conn:
            conn.execute(delete(client_uploads).where(client_uploads.c.token == token))

    @contextmanager
    def held(self, client: str, worker: str, limit: int, stopped: Stopped) -> Iterator[str | None]:
        """`take` for the length of a block, given back whatever happens in it; None at the limit."""
        token = self.take(client, worker, limit, stopped)
        try:
            yield token
        finally:
            if token is not None:
                self.give_back(token)

    def count(self, client: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(client_uploads)
                                .where(client_uploads.c.client == client)).scalar_one()


__all__ = ["ClientUploads", "RateCounters", "STALE_UPLOAD"]
