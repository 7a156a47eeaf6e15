"""The parse side is a pipeline of stages, each importing only the stages before it: model, then parse (which
runs analysis), then write. None of them knows the web app, the store, the policy or the renderer."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

VIEWER = Path(__file__).resolve().parent.parent / "viewer"
ALLOWED = {
    "model": {"model"},
    "analysis": {"model", "analysis"},
    "parse": {"model", "analysis", "parse"},
    "write": {"model", "parse", "write"},
}
FORBIDDEN_LIBRARIES = ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments")


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def sources(package: str) -> list[Path]:
    return sorted((VIEWER / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_stage_imports_only_itself_and_earlier_stages(package):
    wrong = {}
    for path in sources(package):
        stages = {module.split(".")[1] for module in imported_modules(path)
                  if module.startswith("viewer.") and module.count(".") >= 1}
        libraries = {module for module in imported_modules(path) if module.split(".")[0] in FORBIDDEN_LIBRARIES}
        if stages - ALLOWED[package] or libraries:
            wrong[str(path.relative_to(VIEWER))] = sorted(stages - ALLOWED[package]) + sorted(libraries)
    assert wrong == {}


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_no_module_of_the_parse_side_is_over_300_lines(package):
    long = {str(path.relative_to(VIEWER)): count for path in sources(package)
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > 300}
    assert long == {}
