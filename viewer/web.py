"""The Flask application factory. Production: `gunicorn -c gunicorn.conf.py 'viewer.web:create_app()'`.

Defaults, then the environment (`VIEWER_…`), then the caller's overrides; after that, one line per part.
"""
from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, Response, abort, current_app, send_from_directory
from flask_talisman import Talisman

from viewer import errors, pages, render, samples, store, uploads
from viewer.settings import PROJECT_ROOT, database_url, defaults

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

HTMX_FILES = ("htmx.min.js", "htmx.js")
ROBOTS = "noindex"
"""Shared transcripts are unlisted: links are private, and search engines must not list what they find."""


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


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(PROJECT_ROOT / "templates"),
                static_folder=str(PROJECT_ROOT / "static"), instance_relative_config=True)
    app.config.from_mapping(defaults())
    app.config.from_prefixed_env("VIEWER")
    app.config.from_mapping(overrides or {})
    _derive_config(app)

    _init_security(app)
    _init_logging()
    errors.init_app(app)
    _init_store(app)
    app.register_blueprint(uploads.bp)
    app.register_blueprint(pages.bp)
    _init_assets(app)
    if app.config["PRELOAD_SAMPLES"]:
        samples.preload(app.extensions["viewer.store"], Path(app.config["SAMPLES_DIR"]))
    return app


def _derive_config(app: Flask) -> None:
    limit = int(app.config["MAX_UPLOAD_BYTES"])
    # Werkzeug caps form fields separately (500 kB by default); pasted text gets the same limit as files.
    app.config.update(MAX_CONTENT_LENGTH=limit, MAX_FORM_MEMORY_SIZE=limit,
                      SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True,
                      TEMPLATES_AUTO_RELOAD=False)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))


def _instance_secret(instance: Path) -> str:
    # Kept on disk so that uploaders' cookies survive a restart.
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        draft = instance / f".secret_key.{os.getpid()}"
        draft.touch(mode=0o600)
        draft.write_text(secrets.token_urlsafe(48))
        try:
            os.link(draft, path)  # atomic: when gunicorn workers race, the first key wins for all
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def _init_security(app: Flask) -> None:
    force_https = bool(app.config["FORCE_HTTPS"])
    Talisman(app, force_https=force_https, strict_transport_security=force_https,
             session_cookie_secure=bool(app.config["SECURE_COOKIES"]),
             content_security_policy=CONTENT_SECURITY_POLICY, frame_options="DENY",
             referrer_policy="no-referrer")
    app.after_request(_no_robots)


def _no_robots(response: Response) -> Response:
    response.headers["X-Robots-Tag"] = ROBOTS
    return response


def _init_logging() -> None:
    logger = logging.getLogger("werkzeug")
    if _REDACT_KEYS not in logger.filters:  # one filter however many apps a process creates
        logger.addFilter(_REDACT_KEYS)


def _init_store(app: Flask) -> None:
    url = database_url(str(app.config["DATABASE"]), app.instance_path)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    store.init_app(app, url)


def _init_assets(app: Flask) -> None:
    app.add_url_rule("/vendor/htmx/<name>", "htmx", _htmx)
    app.add_url_rule("/pygments.css", "pygments_css", _pygments_css)


def _htmx(name: str) -> Response:
    if name not in HTMX_FILES:
        abort(404, "No such file.")
    folder = Path(current_app.config["NODE_MODULES"]) / "htmx.org" / "dist"
    if not (folder / name).is_file():
        abort(404, "htmx is not installed: run `npm ci` (make setup does).")
    return send_from_directory(folder, name, mimetype="text/javascript", max_age=3600)


def _pygments_css() -> Response:
    response = Response(render.stylesheet(), mimetype="text/css")
    response.cache_control.max_age = 3600
    response.cache_control.public = True
    return response
