"""The files the pages need besides templates: the stylesheet and script (`static/`), htmx from npm, and
Pygments' stylesheet. Where they are found is decided here and only here."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, abort, current_app, send_from_directory

from viewer import render
from viewer.web.settings import PROJECT_ROOT

TEMPLATES = PROJECT_ROOT / "templates"
STATIC = PROJECT_ROOT / "static"
HTMX_FILES = ("htmx.min.js", "htmx.js")


def init_app(app: Flask) -> None:
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
