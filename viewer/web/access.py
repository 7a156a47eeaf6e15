"""Who may do what with a transcript: share ids, manage keys, the owner (viewer/web/ownership.py: the owner
key's cookie), CSRF tokens, and which sites may post to us.

The uploader's browser holds an owner key; the uploads in its list are what lets it open the debug view and the
manage page without the manage key in the URL.
"""
from __future__ import annotations

import hmac
import re
import secrets

from flask import Request, session
from werkzeug.exceptions import Forbidden

from viewer.model.words import DEBUG, View
from viewer.store import Record, hash_key
from viewer.web import ownership

_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{22}|sample-[a-z0-9-]{1,200}")
"""What `new_id` makes (22 URL-safe characters) and what viewer.samples makes (`sample-` and a slug)."""
SAFE_FETCH_SITES = ("same-origin", "none")
"""`Sec-Fetch-Site` values of a request we accept a POST from: our own pages, or the user typing/bookmarking."""


def new_id() -> str:
    """A share id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_key() -> str:
    """A manage key: 256 random bits, shown once at upload and stored only as a hash."""
    return secrets.token_urlsafe(32)


def id_is_valid(id: str) -> bool:
    """Whether `id` could be a share id at all; anything else is a 404 before the database is asked."""
    return _ID_SHAPE.fullmatch(id) is not None


def key_matches(record: Record, key: str | None) -> bool:
    if not key or record.manage_hash is None:
        return False
    return hmac.compare_digest(record.manage_hash, hash_key(key))


def owns(record: Record) -> bool:
    """Whether this browser uploaded (or manages) the record's upload: a dataset's, for one of its conversations."""
    return ownership.owns(record)


def can_debug(record: Record) -> bool:
    """The uploader always; holders of the link only if the uploader allowed it."""
    return record.debug_allowed or owns(record)


def reads_secrets(record: Record, view: View) -> bool:
    """Whether this reader reads the upload's rows as written rather than with placeholders: in the debug view
    only, and there the uploader, or a link holder once the uploader has unmasked the secrets for the link, as
    long as no personal data or redaction is masked (the rows as written hold those too)."""
    return (view == DEBUG and record.masked_count > 0
            and (owns(record) or (record.secrets_unmasked and record.debug_allowed and record.secret_count > 0
                                  and record.personal_count == 0)))


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def csrf_valid(token: str | None) -> bool:
    expected = session.get("csrf")
    return bool(token and expected and hmac.compare_digest(expected, token))


class CrossSite(Forbidden):
    """403 for a post another site's page sent; its hint replaces the one about the debug view."""

    hint = "Open this site's own page and submit the form there; tools without a browser can post directly."


def adopts_on_open(request: Request) -> bool:
    """Whether opening a manage link may adopt its upload at once: a GET navigation the user made on this site or
    from the address bar, a bookmark or another program (`Sec-Fetch-Site` same-origin or none), never one another
    site's page started (a link, a redirect, an image: the attacker's transcript put into the victim's list), a
    HEAD or a prefetch. A request without `Sec-Fetch-Site` comes from a tool, which carries no victim's cookie, as
    `cross_site_reason` reasons. Every other opening gets a page whose button (a same-origin POST) adopts it."""
    if request.method != "GET" or request.headers.get("Sec-Purpose") or request.headers.get("Purpose"):
        return False
    site = request.headers.get("Sec-Fetch-Site")
    if site is None:
        return True
    mode = request.headers.get("Sec-Fetch-Mode", "navigate")
    return site.lower() in SAFE_FETCH_SITES and mode.lower() == "navigate"


def cross_site_reason(request: Request) -> str | None:
    """Why a state-changing request looks like it came from another site's page, or None.

    Browsers say where a request comes from (`Sec-Fetch-Site`, or at least `Origin`); a request with neither
    header comes from curl or a script, which carries no victim's cookie and is allowed.
    """
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        if site.lower() in SAFE_FETCH_SITES:
            return None
        return f"This request came from another site (Sec-Fetch-Site: {site[:40]}); submit the form on this site."
    origin = request.headers.get("Origin")
    own = f"{request.scheme}://{request.host}"
    if origin is not None and origin.lower() != own.lower():
        return f"This request came from another origin ({origin[:100]}), not {own}; submit the form on this site."
    return None
