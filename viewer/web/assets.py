"""Serving what the pages load besides code: htmx and its `sse` extension from npm, and Pygments' stylesheet.
Where every such file is found is `viewer.settings.folders`' to decide."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, abort, current_app, send_from_directory

from viewer import render

HTMX_FILES = ("htmx.min.js", "htmx.js")
SSE_FILES = ("sse.min.js", "sse.js")
"""htmx's `sse` extension (npm `htmx-ext-sse`), for the page of a live transcript."""


def init_app(app: Flask) -> None:
    app.add_url_rule("/vendor/htmx/<name>", "htmx", _htmx)
    app.add_url_rule("/vendor/htmx-ext-sse/<name>", "htmx_sse", _htmx_sse)
    app.add_url_rule("/pygments.css", "pygments_css", _pygments_css)


def _htmx(name: str) -> Response:
    return _npm_script("htmx.org", HTMX_FILES, name, "htmx")


def _htmx_sse(name: str) -> Response:
    return _npm_script("htmx-ext-sse", SSE_FILES, name, "htmx's sse extension")


def _npm_script(package: str, served: tuple[str, ...], name: str, label: str) -> Response:
    """One of the files `served` from an npm package's `dist/` folder."""
    if name not in served:
        abort(404, "No such file.")
    folder = Path(current_app.config["NODE_MODULES"]) / package / "dist"
    if not (folder / name).is_file():
        abort(404, f"{label} is not installed: run `npm ci` (make setup does).")
    return send_from_directory(folder, name, mimetype="text/javascript", max_age=3600)


def _pygments_css() -> Response:
    response = Response(render.stylesheets(), mimetype="text/css")
    response.cache_control.max_age = 3600
    response.cache_control.public = True
    return response
