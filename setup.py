"""Build hook: the wheel carries what the web app serves besides code.

Everything else about the package is in pyproject.toml. A checkout keeps `templates/`, `static/` and
`sample_transcripts/` at its root and htmx in `node_modules/` (from `npm ci`); a wheel has no checkout, so
`build_py` copies them into the build under `viewer/bundled/` (htmx as `vendor/htmx.org/`: the two files
the app serves and htmx's licence, never the rest of node_modules). `viewer/settings/folders.py` decides at run time
which of the two places to use. Editable installs copy nothing: they run from the checkout.

The sdist carries the same htmx files (MANIFEST.in), so a wheel built from it needs no npm.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.errors import FileError

ROOT = Path(__file__).resolve().parent
BUNDLE = Path("viewer", "bundled")
"""Where the copies go, relative to the build folder; viewer/settings/folders.py reads them from there."""
FOLDERS = ("templates", "static", "sample_transcripts")
HTMX = Path("node_modules", "htmx.org")
HTMX_FILES = (Path("dist", "htmx.min.js"), Path("dist", "htmx.js"), Path("LICENSE"))
SSE = Path("node_modules", "htmx-ext-sse")
SSE_FILES = (Path("dist", "sse.min.js"), Path("dist", "sse.js"), Path("LICENSE"))
"""htmx's `sse` extension, which the page of a live transcript loads."""
VENDOR = Path("vendor")
"""The npm packages' place in the bundle: the `NODE_MODULES` setting of an installed wheel points at it."""


def htmx_sources() -> list[Path]:
    """The htmx files to bundle, relative to ROOT; fails the build when `npm ci` has not run."""
    wanted = [package / name for package, names in ((HTMX, HTMX_FILES), (SSE, SSE_FILES)) for name in names]
    missing = [path for path in wanted if not (ROOT / path).is_file()]
    if missing:
        what = HTMX if not (ROOT / HTMX).is_dir() else ", ".join(map(str, missing))
        raise FileError(f"{what} missing in {ROOT}: run `npm ci` (or `make setup`) before building; "
                        "the package carries the htmx that package-lock.json pins.")
    return wanted


def asset_mapping() -> dict[Path, Path]:
    """Each bundled file, relative to the build folder, and the file it copies."""
    mapping = {}
    for folder in FOLDERS:
        for source in sorted((ROOT / folder).rglob("*")):
            relative = source.relative_to(ROOT)
            if source.is_file() and "__pycache__" not in relative.parts and not source.name.startswith("."):
                mapping[BUNDLE / relative] = source
    for source in htmx_sources():
        mapping[BUNDLE / VENDOR / source.relative_to("node_modules")] = ROOT / source
    return mapping


class BuildPyWithAssets(build_py):
    """build_py, then the assets into `viewer/bundled/` (not for editable installs)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        mapping = asset_mapping()
        bundle = Path(self.build_lib) / BUNDLE
        if bundle.exists() and not self.dry_run:
            shutil.rmtree(bundle)  # a reused build/ folder must not keep a deleted template
        for target, source in mapping.items():
            self.mkpath(str((Path(self.build_lib) / target).parent))
            self.copy_file(str(source), str(Path(self.build_lib) / target), preserve_mode=False)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return outputs + [str(Path(self.build_lib) / target) for target in asset_mapping()]


class SdistWithHtmx(sdist):
    """sdist, refusing to make one without htmx (MANIFEST.in includes its files)."""

    def run(self) -> None:
        htmx_sources()
        super().run()


setup(cmdclass={"build_py": BuildPyWithAssets, "sdist": SdistWithHtmx})
