"""The files the pages need besides code: templates, the stylesheet and script (`static/`), the sample
transcripts, htmx from npm, and Pygments' stylesheet. Where they are found is decided here and only here
(`asset_folder`): in a checkout (`make run`, an editable install) the folders at its root, so that edits show
without reinstalling; in an installed wheel the copies it carries under `viewer/web/bundled/` (setup.py puts
them there when the wheel is built)."""
from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from flask import Flask, Response, abort, current_app, send_from_directory

from viewer import render

SOURCE_TREE = Path(__file__).resolve().parents[2]
"""The checkout's root when the code runs from one; in an installed wheel, site-packages."""
FOLDERS = {
    # name: (in a checkout, inside the installed package's `bundled/`)
    "templates": ("templates", "templates"),
    "static": ("static", "static"),
    "samples": ("sample_transcripts", "sample_transcripts"),
    "node_modules": ("node_modules", "vendor"),  # where htmx.org/dist/ is: `npm ci`'s folder, or the copy
}
HTMX_FILES = ("htmx.min.js", "htmx.js")
SSE_FILES = ("sse.min.js", "sse.js")
"""htmx's `sse` extension (npm `htmx-ext-sse`), for the page of a live transcript."""


@cache
def in_checkout() -> bool:
    """True when the code runs from the source tree (its pyproject.toml and templates beside `viewer/`)."""
    return (SOURCE_TREE / "pyproject.toml").is_file() and (SOURCE_TREE / "templates").is_dir()


def asset_folder(name: str) -> Path:
    """The folder of `templates`, `static`, `samples` or `node_modules` (whose `htmx.org/dist/` holds htmx)."""
    in_tree, bundled = FOLDERS[name]
    if in_checkout():
        return SOURCE_TREE / in_tree
    folder = files(__package__).joinpath("bundled", bundled)
    if not isinstance(folder, Path):
        raise RuntimeError(f"the viewer must be installed unpacked to serve its files (found {folder})")
    return folder


TEMPLATES = asset_folder("templates")
STATIC = asset_folder("static")


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
    response = Response(render.stylesheet(), mimetype="text/css")
    response.cache_control.max_age = 3600
    response.cache_control.public = True
    return response
