"""The code is a pipeline of stages, each importing only itself and the stages before it; the format registry
(formats: every format's record, plain data naming code rather than importing it) is a leaf every stage may read,
and bundles (an upload of several files, a zip archive or a SQLite database, as one text, read bounded) a leaf the
parser, ingest, the web app and sessions use:

model → analysis → parse → write; model → policy → store → ingest → web. render and lexers are leaves any later
stage may use; images (checking and cleaning pasted images with Pillow) is a leaf the parser, ingest and the web
app use; secrets (the scanner for secrets, which reads only the model) and settings (the app's settings, and where
its installed files are) are leaves too. compare (aligning two views' entries) reads the model and the policy;
context (what the model saw when sampling a message) reads the model, the policy and the writers, and tokens (its
token counts, from a vocabulary rebuilt offline) reads context. ingest, the conductor, parses, masks and stores:
at upload, in the processing worker, for the samples and when parsing again. present (cards, documents of stored
or parsed rows, comparison pages and the exports' writers) draws what the policy lets through, reading the store,
without Flask: the web app and the command line both use it. The web app is only the web: each of its modules
uses Flask or Werkzeug. sessions (finding agents' session files on this machine) reads them through the parser
and the policy; opener (reaching the local viewer over HTTP) uses no other stage: both serve the command line's
`open`; lint (a file's diagnostics and secrets at their lines, a big session's a batch at a time) reads the parser
and the secrets scanner. So the store never parses, a parser never knows the web app, rendering never reads storage, and an export
never needs a server. No module imports itself back through others, at the top or inside a function. 300 lines
is a guide for one job per module, not a gate."""
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
    "ingest": {"formats", "model", "images", "bundles", "parse", "policy", "secrets", "store", "ingest"},
    "compare": {"formats", "model", "policy", "compare"},
    "context": {"formats", "model", "policy", "write", "context"},
    "present": {"formats", "model", "images", "policy", "render", "lexers", "settings", "store", "compare",
                "present"},
    "tokens": {"formats", "model", "context", "tokens"},
    "web": {"formats", "model", "images", "bundles", "parse", "policy", "render", "lexers", "secrets", "settings",
            "store", "ingest", "compare", "context", "tokens", "present", "web"},
    "sessions": {"formats", "model", "bundles", "parse", "policy", "sessions"},
    "opener": {"formats", "opener"},
    "lint": {"formats", "model", "parse", "secrets", "lint"},
    "settings": {"formats", "settings"},
}
FORBIDDEN_LIBRARIES = {
    **{stage: ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments")
       for stage in ("formats", "model", "analysis", "parse", "write", "policy", "secrets", "compare", "context",
                     "images", "tokens", "bundles")},
    "lexers": ("flask", "werkzeug", "sqlalchemy", "markdown_it"),
    "render": ("flask", "werkzeug", "sqlalchemy"),
    "store": ("flask", "werkzeug", "markdown_it", "pygments"),
    "ingest": ("flask", "werkzeug", "markdown_it", "pygments"),
    "present": ("flask", "werkzeug", "sqlalchemy"),
    "web": (),
    "sessions": ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments"),
    "opener": ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments"),
    "lint": ("flask", "werkzeug", "sqlalchemy", "markdown_it", "pygments"),
    "settings": ("flask", "werkzeug", "markdown_it", "pygments"),
}


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports, anywhere in it; `from viewer import compare` imports `viewer.compare`."""
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "viewer":
            modules.update(f"viewer.{alias.name}" for alias in node.names)
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


def test_the_web_app_is_only_the_web():
    """Every module of viewer/web uses Flask or Werkzeug (routes, request reading, headers, the app's parts), or
    is a package's face; what needs neither belongs to a stage before it."""
    without = [str(path.relative_to(VIEWER)) for path in sources("web") if path.name != "__init__.py"
               and not any(module.split(".")[0] in ("flask", "werkzeug") for module in imported_modules(path))]
    assert without == []


def test_every_package_has_a_place_in_the_pipeline():
    packages = {path.stem if path.is_file() else path.name for path in VIEWER.iterdir()
                if (path.is_dir() and (path / "__init__.py").exists())
                or (path.suffix == ".py" and path.stem not in ("__init__", "__main__", "cli"))}
    assert packages == set(ALLOWED)



def module_name(path: Path) -> str:
    parts = path.with_suffix("").relative_to(VIEWER.parent).parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(VIEWER.rglob("*.py"))}


def imported_viewer_modules(name: str, path: Path) -> set[str]:
    """The viewer modules a module imports, wherever the import stands (at the top or inside a function):
    `from package import name` is the module `package.name` when there is one, else the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, one level up for each dot after the first
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                         for alias in node.names)
    return {module for module in found if module in MODULES and module != name}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    number: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in graph:
        if root in number:
            continue
        work = [(root, iter(sorted(graph[root])))]
        number[root] = lowest[root] = len(number)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in number:
                    number[target] = lowest[target] = len(number)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    lowest[module] = min(lowest[module], number[target])
                continue
            work.pop()
            if work:
                lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[module])
            if lowest[module] == number[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_no_module_imports_itself_back_through_others():
    """Module-level and function-level imports alike: a cycle hidden inside a function still ties two modules
    into one."""
    graph = {name: imported_viewer_modules(name, path) & set(MODULES) for name, path in MODULES.items()}
    assert import_cycles(graph) == []


def test_imports_inside_functions_count_and_name_the_submodule_they_import(tmp_path):
    module = tmp_path / "example.py"
    module.write_text("import json\n\n\ndef later():\n    from viewer.store import search, Store\n"
                      "    import viewer.model.lines\n", encoding="utf-8")
    assert imported_viewer_modules("viewer.example", module) == {"viewer.store.search", "viewer.store",
                                                                 "viewer.model.lines"}


def test_the_cycle_check_reports_each_cycle_with_its_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": {"a"}}
    assert sorted(import_cycles(graph)) == [["a", "b", "c"], ["d", "e"]]
