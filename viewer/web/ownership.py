"""Ownership without accounts: the owner key. The browser that uploads holds a random secret in its own cookie
(`HttpOnly`, `SameSite=Lax`); the store keeps its hash beside each upload it owns (viewer/store/owners.py), as
manage keys are kept. A manage link opened in another browser adopts its upload into that browser's list; a
tool's API uploads name a key of their own in a header, and a browser may take that key on to list them.

The cookie holds only keys this server issued: its value is the key signed with the app's secret key
(itsdangerous), and a value without a good signature is no key at all. Otherwise whoever can plant a cookie (a
sibling subdomain, a network attacker on plain HTTP) could plant a key of their own, let the victim's uploads be
filed under it, and read them all later. Served over HTTPS (`SECURE_COOKIES`), the cookie is named `__Host-owner`:
browsers accept that name only from this very host, over HTTPS, for the whole site, so no sibling can set or
shadow it, and a plain `owner` cookie is then ignored.

Before owner keys, the signed session cookie listed the ids a browser uploaded or managed. A browser that still
carries that list has its uploads adopted under its owner key (a new one if it has none) the first time a request
asks who owns what (`current_key`: any transcript page, the manage page, the list), and the list is dropped from
the session: nothing is lost, and the session no longer grants anything. (Not on every request: the home page
and static files are cacheable, and must not set cookies.)
"""
from __future__ import annotations

import datetime as dt
import re
import secrets
from typing import Iterable

from flask import Flask, Response, abort, current_app, g, request, session
from itsdangerous import BadSignature, Signer

from viewer.store import Record, Store, hash_key

COOKIE = "owner"
"""The cookie's name over plain HTTP, where a browser takes no `__Host-` cookie."""
SECURE_COOKIE = "__Host-owner"
"""The cookie's name when cookies are Secure (`SECURE_COOKIES`): set only by this host, over HTTPS, for path /."""
SIGNING_SALT = "viewer.owner-key"
HEADER = "X-Owner-Key"
"""The API's header: uploads that carry it are the key's owner's. The key is the tool's own secret, sent by the
tool itself; it never becomes a cookie but through `use_key` (the list page's form, a same-site POST)."""
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,128}")
"""An owner key: what `new_key` makes (43 characters), or a tool's own (32 such characters hold 192 bits)."""
COOKIE_AGE = dt.timedelta(days=400)
"""As long as browsers keep a cookie (Chromium caps an expiry at 400 days); every adoption sets it again."""
LEGACY_LIST = "owned"
"""The session's list of owned ids from before owner keys."""


def init_app(app: Flask) -> None:
    app.after_request(_set_cookie)


def new_key() -> str:
    """An owner key: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def _store() -> Store:
    return current_app.extensions["viewer.store"]


def current_key() -> str | None:
    """This browser's owner key: the one issued during this request, or the cookie's (if well formed). A
    session that still lists ids from before owner keys has them adopted now, under a new key if need be."""
    key = g.get("issued_owner_key") or _cookie_key()
    if LEGACY_LIST in session:
        ids = [id for id in session.pop(LEGACY_LIST) or () if isinstance(id, str)]
        key = key or _issue()
        _store().owners.add(hash_key(key), ids)
    return key


def cookie_name() -> str:
    """The owner key's cookie: `__Host-owner` where cookies are Secure, else `owner`."""
    return SECURE_COOKIE if current_app.config["SECURE_COOKIES"] else COOKIE


def _signer() -> Signer:
    return Signer(current_app.config["SECRET_KEY"], salt=SIGNING_SALT)


def _cookie_key() -> str | None:
    """The key of this browser's cookie if this server issued it (signed), else None."""
    value = request.cookies.get(cookie_name())
    if value is None:
        return None
    try:
        key = _signer().unsign(value).decode()
    except (BadSignature, UnicodeDecodeError):
        return None  # planted, or from before keys were signed: not this browser's key
    return key if KEY_SHAPE.fullmatch(key) else None


def _issue() -> str:
    key = g.issued_owner_key = new_key()
    return key


def current_hash() -> str | None:
    key = current_key()
    return hash_key(key) if key is not None else None


def ensure_key() -> str:
    """This browser's owner key, issued now (and set on the response) if it has none."""
    return current_key() or _issue()


def use_key(key: str) -> None:
    """Make `key` this browser's owner key from this response on."""
    g.issued_owner_key = key


def adopt(ids: Iterable[str]) -> None:
    """Put uploads `ids` in this browser's list (issuing it an owner key if it has none)."""
    ids = list(ids)
    if ids:
        key = g.issued_owner_key = ensure_key()  # set again, for another 400 days
        _store().owners.add(hash_key(key), ids)
        g.pop("owned_ids", None)


def owns(record: Record) -> bool:
    """Whether this browser's list holds the record's upload (a dataset's, for one of its conversations);
    asked of the store once per upload and request."""
    owner_hash = current_hash()
    if record.manage_hash is None or owner_hash is None:
        return False
    known = g.setdefault("owned_ids", {})
    if record.owner_id not in known:
        known[record.owner_id] = _store().owners.holds(owner_hash, record.owner_id)
    return known[record.owner_id]


def api_owner_hash() -> str | None:
    """The hash of the owner key an API upload names in `HEADER` (None: no header); 400 for a malformed key."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not KEY_SHAPE.fullmatch(key):
        abort(400, f"{HEADER} must be 32 to 128 letters, digits, '-' or '_': a random secret of your own "
                   "(for example `python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`).")
    return hash_key(key)


def _set_cookie(response: Response) -> Response:
    key = g.get("issued_owner_key")
    if key is not None:
        # Path / and no Domain, as a `__Host-` name requires.
        response.set_cookie(cookie_name(), _signer().sign(key).decode(), max_age=int(COOKIE_AGE.total_seconds()),
                            path="/", domain=None, httponly=True, samesite="Lax",
                            secure=bool(current_app.config["SECURE_COOKIES"]))
    return response
