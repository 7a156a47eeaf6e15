"""Where the files the pages and exports need besides code are: templates, the stylesheet and script
(`static/`), the sample transcripts and the npm packages (htmx). Decided here and only here: in a checkout
(`make run`, an editable install) the folders at its root, so that edits show without reinstalling; in an
installed wheel the copies it carries under `viewer/bundled/` (setup.py puts them there when the wheel is
built)."""
from __future__ import annotations

from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
"""The `viewer` package's folder."""
SOURCE_TREE = PACKAGE.parent
"""The checkout's root when the code runs from one; in an installed wheel, site-packages."""
BUNDLE = PACKAGE / "bundled"
FOLDERS = {
    # name: (in a checkout, inside the installed package's `bundled/`)
    "templates": ("templates", "templates"),
    "static": ("static", "static"),
    "samples": ("sample_transcripts", "sample_transcripts"),
    "node_modules": ("node_modules", "vendor"),  # where htmx.org/dist/ is: `npm ci`'s folder, or the copy
}


@cache
def in_checkout() -> bool:
    """True when the code runs from the source tree (its pyproject.toml and templates beside `viewer/`)."""
    return (SOURCE_TREE / "pyproject.toml").is_file() and (SOURCE_TREE / "templates").is_dir()


def asset_folder(name: str) -> Path:
    """The folder of `templates`, `static`, `samples` or `node_modules` (whose `htmx.org/dist/` holds htmx)."""
    in_tree, bundled = FOLDERS[name]
    return SOURCE_TREE / in_tree if in_checkout() else BUNDLE / bundled


TEMPLATES = asset_folder("templates")
STATIC = asset_folder("static")
