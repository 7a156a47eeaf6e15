"""The code is a pipeline of stages, each importing only itself and the stages before it; the format registry
(formats: every format's record, plain data naming code rather than importing it) is a leaf every stage may read:

model → analysis → parse → write; model → policy → store → ingest → web; render and lexers are leaves any later
stage may use, images (checking and cleaning pasted images with Pillow) is a leaf the parser, ingest and the web
app use, bundles (an upload of several files, a zip archive or a SQLite database, as one text, read bounded) is
a leaf the parser, the web app and sessions use, and so is secrets (the scanner for secrets, which reads only the model); compare (aligning two
views' entries) reads the model and the policy, and only the web app uses it; so does context (what the model
saw when sampling a message), which reads the model, the policy and the writers. present (cards, documents and
the exports' writers) draws what the policy lets through, from the store's read types, without Flask: the web
app and the command line both use it. sessions (finding agents' session files on this machine) reads them
through the parser and the policy; opener (reaching the local viewer over HTTP) uses no other stage: both serve
the command line's `open`. So the store never parses, a parser never knows the web app, rendering
never reads storage, and an export never needs a server. 300 lines is a guide for one job per module, not a gate."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

VIEWER = Path(__file__).resolve().parent.parent / "viewer"
ALLOWED = {
    "formats": {"formats"},
    "model": {"formats", "model"},
    "analysis": {"formats", "model", "analysis"},
    "parse": {"formats", "model", "analysis", "images", "bundles", "parse"},
    "write": {"formats", "model", "parse", "write"},
    "policy": {"formats", "model", "policy"},
    "secrets": {"formats", "model", "secrets"},
    "lexers": {"formats", "lexers"},
    "images": {"formats", "images"},
    "bundles": {"formats", "model", "bundles"},
    "render": {"formats", "render", "lexers"},
    "store": {"formats", "model", "policy", "store"},
    "ingest": {"formats", "model", "images", "parse", "policy", "secrets", "store", "ingest"},
    "compare": {"formats", "model", "policy", "compare"},
    "context": {"formats", "model", "policy", "write", "context"},
    "present": {"formats", "model", "images", "policy", "render", "lexers", "store", "present"},
    "web": {"formats", "model", "images", "bundles", "parse", "policy", "render", "lexers", "secrets", "store", "ingest",
            "compare", "context", "present", "web"},
    "sessions": {"formats", "model", "bundles", "parse", "policy", "sessions"},
    "opener": {"formats", "opener"},
}
FORBIDDEN_LIBRARIES = {
    **{stage: ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments")
       for stage in ("formats", "model", "analysis", "parse", "write", "policy", "secrets", "compare", "context",
                     "images", "bundles")},
    "lexers": ("flask", "werkzeug", "sqlalchemy", "markdown_it"),
    "render": ("flask", "werkzeug", "sqlalchemy"),
    "store": ("flask", "werkzeug", "markdown_it", "pygments"),
    "ingest": ("flask", "werkzeug", "markdown_it", "pygments"),
    "present": ("flask", "werkzeug", "sqlalchemy"),
    "web": (),
    "sessions": ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments"),
    "opener": ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments"),
}


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def sources(stage: str) -> list[Path]:
    module = VIEWER / f"{stage}.py"
    return [module] if module.exists() else sorted((VIEWER / stage).rglob("*.py"))


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_each_stage_imports_only_itself_and_earlier_stages(stage):
    wrong = {}
    for path in sources(stage):
        imported = imported_modules(path)
        stages = {module.split(".")[1] for module in imported if module.startswith("viewer.")}
        libraries = {module for module in imported if module.split(".")[0] in FORBIDDEN_LIBRARIES[stage]}
        if stages - ALLOWED[stage] or libraries:
            wrong[str(path.relative_to(VIEWER))] = sorted(stages - ALLOWED[stage]) + sorted(libraries)
    assert wrong == {}


def test_every_package_has_a_place_in_the_pipeline():
    packages = {path.stem if path.is_file() else path.name for path in VIEWER.iterdir()
                if (path.is_dir() and (path / "__init__.py").exists())
                or (path.suffix == ".py" and path.stem not in ("__init__", "__main__", "cli"))}
    assert packages == set(ALLOWED)

