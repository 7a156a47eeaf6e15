"""The web app: the Flask application factory. Production: `gunicorn -c gunicorn.conf.py 'viewer.web:create_app()'`.

Defaults, then a settings file, then the environment (`VIEWER_…`), then the caller's overrides (`overrides`); after
that, one line per part.
"""
from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

from viewer.ingest import samples
from viewer.present import templates
from viewer.render import workers
from viewer.render.budget import BoundedAnswers
from viewer.settings import database_url, layers
from viewer.settings.folders import STATIC, TEMPLATES
from viewer.store import Store
from viewer.store.faults import storage_fault
from viewer.web import assets, capacity, errors, limits, ownership, processor, security, spool
from viewer.web.lookup import get_store, record_url
from viewer.web.views import BLUEPRINTS

log = logging.getLogger(__name__)


def create_app(overrides: Mapping[str, Any] | None = None, *, recover: bool = True) -> Flask:
    """The app; with `recover` (a server, not a one-off command) it takes up the uploads a stopped server left
    unprocessed."""
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=str(STATIC),
                instance_relative_config=True)
    app.request_class = spool.SpoolingRequest  # an upload form's file goes to a spool file (viewer/web/spool.py)
    layered = layers.load(app.instance_path, overrides)
    app.config.from_mapping(layered.values)
    app.extensions["viewer.config_sources"] = layered.sources
    _derive_config(app)

    security.init_app(app)
    errors.init_app(app)
    capacity.init_app(app)
    ownership.init_app(app)
    _init_spool(app)
    _init_store(app)
    processor.init_app(app, recover=recover)  # after the store, whose unfinished uploads it may take up
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    limits.init_app(app)  # after the blueprints: the limits wrap their views
    assets.init_app(app)
    app.jinja_env.globals["record_url"] = record_url
    # Every answer, streamed exports included, shares one highlighting budget (viewer/render/budget.py).
    app.wsgi_app = BoundedAnswers(app.wsgi_app)  # type: ignore[method-assign]
    if recover:  # a server: its first page need not wait for a highlighting worker to start
        workers.POOL.warm()
    if app.config["PRELOAD_SAMPLES"]:
        _preload_samples(app)
    return app


def _preload_samples(app: Flask) -> None:
    """The samples stored, unless storage refuses now (a full disk): the server starts without them, and the
    next start stores them."""
    try:
        with app.app_context():
            samples.preload(get_store(), Path(app.config["SAMPLES_DIR"]))
    except Exception as error:
        fault = storage_fault(error)
        if fault is None:
            raise
        log.warning("the samples were not stored: %s", fault.detail)


def _derive_config(app: Flask) -> None:
    limit = int(app.config["MAX_UPLOAD_BYTES"])
    # Werkzeug caps form fields separately (500 kB by default) and holds them in memory: pasted text gets the
    # upload limit up to PASTE_LIMIT; a bigger file is chosen, and spooled, instead of pasted.
    app.config.update(MAX_CONTENT_LENGTH=limit, MAX_FORM_MEMORY_SIZE=min(limit, spool.PASTE_LIMIT),
                      SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True,
                      TEMPLATES_AUTO_RELOAD=False)
    templates.configure(app.jinja_env)
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


def _init_spool(app: Flask) -> None:
    if app.config["SPOOL_DIR"]:  # made at startup, as the database's folder: an upload must not find it missing
        Path(str(app.config["SPOOL_DIR"])).mkdir(parents=True, exist_ok=True)


def _init_store(app: Flask) -> None:
    url = database_url(str(app.config["DATABASE"]), app.instance_path)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    store = app.extensions["viewer.store"] = Store(url)
    store.personal.detecting = bool(app.config["PERSONAL_DATA"])
