"""Who may do what with a transcript: share ids, manage keys, the uploader's cookie, CSRF tokens.

The uploader's browser is remembered in the signed session cookie (a list of the ids it uploaded or managed);
that is what lets it open the debug view and the manage page without the key in the URL.
"""
from __future__ import annotations

import hmac
import secrets

from flask import session

from viewer.store import Record, hash_key

OWNED_LIMIT = 100
"""Ids remembered per browser; the oldest drop off so the cookie stays small."""


def new_id() -> str:
    """A share id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_key() -> str:
    """A manage key: 256 random bits, shown once at upload and stored only as a hash."""
    return secrets.token_urlsafe(32)


def key_matches(record: Record, key: str | None) -> bool:
    if not key or record.manage_hash is None:
        return False
    return hmac.compare_digest(record.manage_hash, hash_key(key))


def remember_owner(id: str) -> None:
    owned = [known for known in session.get("owned", []) if known != id]
    session["owned"] = [*owned, id][-OWNED_LIMIT:]
    session.permanent = True


def forget_owner(id: str) -> None:
    session["owned"] = [known for known in session.get("owned", []) if known != id]


def owns(record: Record) -> bool:
    return record.manage_hash is not None and record.id in session.get("owned", [])


def can_debug(record: Record) -> bool:
    """The uploader always; holders of the link only if the uploader allowed it."""
    return record.debug_allowed or owns(record)


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def csrf_valid(token: str | None) -> bool:
    expected = session.get("csrf")
    return bool(token and expected and hmac.compare_digest(expected, token))
