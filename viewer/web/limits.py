"""The limits a shared server needs, each a setting whose 0 turns it off, and none at all on a local single-user
server (`LIMITS` false: `viewer serve` on a loopback address and `viewer open` turn it off unless it was set):

- `UPLOADS_PER_HOUR` uploads from one client (the form's and the API's, live ones included; an append is none);
- `EXPENSIVE_PER_MINUTE` requests from one client to the routes whose answers cost most (`EXPENSIVE`: searches,
  exports and the raw download, compare, what the model saw), counted together;
- `CONCURRENT_UPLOADS` uploads one client sends at once (held from before its body is read to its answer, so a
  client trickling bytes ties up that many server workers, no more);
- `OWNER_QUOTA_BYTES` of uploads in one owner key's list and `STORAGE_QUOTA_BYTES` in all, as sent: an upload
  past either gets 507 with the reason, and everything stored is still read.

The rates are Flask-Limiter's fixed windows, kept where `LIMITS_STORAGE` says: `database` (the app's database,
`Store.counters`, so every process on it counts together) or `memory` (one process's own count, for a server of
one process). Past a limit the answer is 429 with `Retry-After`. A client is its address (the socket's, or behind
`PROXY_HOPS` proxies the address the nearest of them saw: werkzeug's ProxyFix), kept only as a keyed hash.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import time
from functools import wraps
from typing import Any, Callable

from cachetools import TTLCache
from flask import Flask, current_app, g, request
from flask_limiter import Limiter, RequestLimit
from flask_limiter.errors import RateLimitExceeded
from limits.storage import Storage
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException, TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from viewer.ingest.processor import abandoned
from viewer.store import Store
from viewer.web import errors
from viewer.web.spool import NoRoom

UPLOADS = ("uploads.upload_form", "uploads.upload_api")
EXPENSIVE = ("search.search", "yours.search", "exports.transcript_json", "exports.transcript_markdown",
             "exports.transcript_html", "exports.raw", "compare.compare", "context.context")
"""The routes whose answers cost most: each reads a whole transcript (or two, or an owner's every upload)."""
GIB = 1 << 30


class DatabaseStorage(Storage):
    """Flask-Limiter's counters in the app's database (`Store.counters`), for every process on it to share."""

    STORAGE_SCHEME = ["viewer-database"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.store: Store = options["store"]
        # What the last increment of each key said, for the reads the same request makes next (the window's
        # count and end for Retry-After): a second's staleness costs nothing, a query per read would.
        self._seen: TTLCache[str, tuple[int, float]] = TTLCache(maxsize=4096, ttl=1.0)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        count, ends = self.store.counters.incr(key, expiry, amount)
        self._seen[key] = (count, ends)
        return count

    def get(self, key: str) -> int:
        seen = self._seen.get(key)
        return seen[0] if seen is not None else self.store.counters.get(key)

    def get_expiry(self, key: str) -> float:
        seen = self._seen.get(key)
        return seen[1] if seen is not None else self.store.counters.expiry(key)

    def check(self) -> bool:
        return self.store.ping()

    def reset(self) -> int | None:
        return self.store.counters.clear()

    def clear(self, key: str) -> None:
        self.store.counters.clear(key)


def init_app(app: Flask) -> None:
    """The limiter of this app (after its blueprints: the limits wrap their views), and its client addresses."""
    hops = int(app.config["PROXY_HOPS"])
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    store = app.extensions["viewer.store"]
    shared = app.config["LIMITS_STORAGE"] == "database"
    limiter = Limiter(client, app=app, strategy="fixed-window", swallow_errors=True, on_breach=_remember_reset,
                      storage_uri="viewer-database://" if shared else "memory://",
                      storage_options={"store": store} if shared else {})
    limiter.request_filter(lambda: not current_app.config["LIMITS"])  # a local server: nothing is limited
    per_hour = limiter.shared_limit(lambda: f"{current_app.config['UPLOADS_PER_HOUR']} per hour", scope="uploads",
                                    exempt_when=lambda: not int(current_app.config["UPLOADS_PER_HOUR"]),
                                    error_message=_too_many_uploads)
    per_minute = limiter.shared_limit(lambda: f"{current_app.config['EXPENSIVE_PER_MINUTE']} per minute",
                                      scope="expensive", exempt_when=lambda: not _expensive_limit(),
                                      error_message=_too_many_requests)
    views: dict[str, Callable[..., Any]] = app.view_functions
    for endpoint in UPLOADS:
        views[endpoint] = per_hour(_one_of_concurrent_uploads(views[endpoint]))
    for endpoint in EXPENSIVE:
        views[endpoint] = per_minute(views[endpoint])
    app.register_error_handler(RateLimitExceeded, _refused)
    app.extensions["viewer.limiter"] = limiter


def limited() -> bool:
    """Whether this server limits its clients (a shared server) or not (a local one)."""
    return bool(current_app.config["LIMITS"])


def client() -> str:
    """This request's client: a keyed hash of its address (the limits' counters never hold an address)."""
    address = (request.remote_addr or "unknown").encode()
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"client:" + address, hashlib.sha256).hexdigest()[:32]


def ensure_quota(size: int, owner_hash: str | None) -> None:
    """507 before anything is stored when an upload of `size` bytes would pass the total quota, or that of the
    owner key it is filed under; nothing on a local server."""
    if not limited():
        return
    store: Store = current_app.extensions["viewer.store"]
    total = int(current_app.config["STORAGE_QUOTA_BYTES"])
    if total and store.usage.total_bytes() + size > total:
        raise NoRoom(f"This server keeps at most {_size(total)} of uploads, and it is full: this upload "
                     f"({_size(size)}) was not stored. Everything stored can still be read; uploads are taken "
                     "again once older ones expire or are deleted.")
    per_owner = int(current_app.config["OWNER_QUOTA_BYTES"])
    if per_owner and owner_hash is not None:
        held = store.usage.owner_bytes(owner_hash)
        if held + size > per_owner:
            raise NoRoom(f"Your uploads hold {_size(held)} of the {_size(per_owner)} one owner may keep on this "
                         f"server, and this one ({_size(size)}) does not fit: it was not stored. Delete some at "
                         "/transcripts, or wait until they expire.")


def _one_of_concurrent_uploads(view: Callable[..., Any]) -> Callable[..., Any]:
    """`view`, refused with 429 when its client already sends `CONCURRENT_UPLOADS` uploads; held from before the
    body is read (by the view) to the answer."""
    @wraps(view)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        most = int(current_app.config["CONCURRENT_UPLOADS"])
        if not limited() or most <= 0:
            return view(*args, **kwargs)
        store: Store = current_app.extensions["viewer.store"]
        worker = current_app.extensions["viewer.processor"].worker
        with store.client_uploads.held(client(), worker, most, lambda other: _stopped(other, worker)) as token:
            if token is None:
                error = TooManyRequests(f"This server takes at most {most} uploads at once from one client; send "
                                        "this one when one of the others is answered.")
                error.retry_after = CONCURRENT_RETRY_SECONDS
                raise error
            return view(*args, **kwargs)
    return bounded


CONCURRENT_RETRY_SECONDS = 5
"""The Retry-After of an upload refused because its client sends as many as it may at once."""


def _stopped(worker: str, me: str) -> bool:
    """Whether the process that counted an upload stopped (it could not give it back): on this host, its pid is
    gone; another host's rows count until `counters.STALE_UPLOAD` (they carry no heartbeat)."""
    return abandoned(worker, dt.datetime.now(dt.timezone.utc), me)


def _expensive_limit() -> int:
    return int(current_app.config["EXPENSIVE_PER_MINUTE"])


def _remember_reset(limit: RequestLimit) -> None:
    g.limit_resets_at = limit.reset_at


def _refused(error: RateLimitExceeded) -> Any:
    """429 with the limit in words and `Retry-After`: the seconds until the client's window ends."""
    answer: HTTPException = TooManyRequests(error.description)
    answer.retry_after = max(1, int(g.get("limit_resets_at", time.time() + 1) - time.time()))  # type: ignore[attr-defined]
    return errors.http_error(answer)


def _too_many_uploads() -> str:
    return (f"This server takes at most {current_app.config['UPLOADS_PER_HOUR']} uploads an hour from one client; "
            "nothing of this one was stored. Send it again when Retry-After says.")


def _too_many_requests() -> str:
    return (f"This server answers at most {current_app.config['EXPENSIVE_PER_MINUTE']} searches, exports and "
            "comparisons a minute to one client. Ask again when Retry-After says; reading pages goes on.")


def _size(size: int) -> str:
    return f"{size / GIB:.2f} GiB" if size >= GIB else f"{size / (1 << 20):.1f} MiB"


__all__ = ["DatabaseStorage", "EXPENSIVE", "UPLOADS", "client", "ensure_quota", "init_app", "limited"]
