"""HTTP hardening in one place: security headers (Talisman), no caching but of what is listed as cacheable, no indexing,
cross-site requests refused for every unsafe method, and manage keys kept out of the development server's log.
"""
from __future__ import annotations

import logging
import re

from flask import Flask, Response, request
from flask_talisman import Talisman

from viewer.web.access import CrossSite, cross_site_reason

CONTENT_SECURITY_POLICY = {
    "default-src": "'none'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
}
ROBOTS = "noindex"
"""Shared transcripts are unlisted: links are private, and search engines must not list what they find."""
NOT_STORED = "private, no-store"
"""Every answer about a transcript: a fresh upload's page shows the manage key once, and the views are per
reader (the debug view, the uploader's links); no browser or proxy cache may keep them."""
CACHEABLE = frozenset({"static", "htmx", "htmx_sse", "pygments_css", "uploads.home"})
"""The endpoints whose answers a cache may keep, as they set it: the same files for everyone, and the home page,
which holds nothing private. Every other answer is `NOT_STORED`, so a new route is covered without anyone
remembering to say so (failing closed, like the policy)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def init_app(app: Flask) -> None:
    force_https = bool(app.config["FORCE_HTTPS"])
    Talisman(app, force_https=force_https, strict_transport_security=force_https,
             session_cookie_secure=bool(app.config["SECURE_COOKIES"]),
             content_security_policy=CONTENT_SECURITY_POLICY, frame_options="DENY",
             referrer_policy="no-referrer")
    app.before_request(refuse_cross_site)
    app.after_request(_no_robots)
    app.after_request(not_stored)
    logger = logging.getLogger("werkzeug")
    if _REDACT_KEYS not in logger.filters:  # one filter however many apps a process creates
        logger.addFilter(_REDACT_KEYS)


def refuse_cross_site() -> None:
    """403 for any state-changing request another site's page sent, whichever route it is for: a new POST
    route is covered without anyone remembering to call this."""
    if request.method in SAFE_METHODS:
        return
    reason = cross_site_reason(request)
    if reason is not None:
        raise CrossSite(reason)


def not_stored(response: Response) -> Response:
    """`NOT_STORED` for every answer but those of the `CACHEABLE` endpoints (a POST's answer never is)."""
    if request.endpoint not in CACHEABLE or request.method not in SAFE_METHODS:
        response.headers["Cache-Control"] = NOT_STORED
    return response


def _no_robots(response: Response) -> Response:
    response.headers["X-Robots-Tag"] = ROBOTS
    return response


class RedactKeys(logging.Filter):
    """Takes manage keys out of request lines: the development server logs every path with its query string,
    and `/t/<id>/manage?key=…` is the one URL that grants control of a transcript. (gunicorn.conf.py logs
    paths without the query string.)"""

    _KEY = re.compile(r"([?&;]key=)[^&;\s\"]*")

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        redacted = self._KEY.sub(r"\1[redacted]", text)
        if redacted != text:
            record.msg, record.args = redacted, ()
        return True


_REDACT_KEYS = RedactKeys()
