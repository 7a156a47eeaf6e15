"""The package as a new user gets it: the wheel built from this checkout, installed into a clean venv without
its optional native parts (Hyperscan, tiktoken, gunicorn: the `fast`, `tokens` and `production` extras), run
from another folder. Its pages, static files, htmx and samples must come from the wheel (setup.py bundles them
under viewer/bundled/; viewer/settings/folders.py finds them), never from the checkout; an upload's secrets are
found and masked by the scan's `re` engine; the context page says token counts are unavailable.

Offline: the wheel is built with --no-build-isolation (setuptools from the test extra), and its dependencies are
installed from wheels repacked from this venv's installed distributions (`_repack`), so pip never reaches an index.
Every step has a timeout; the server is stopped and the venv lives in a temporary folder."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path
from typing import Iterator

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import ROOT, missing
from tests.secrets.canaries import canaries
from viewer.tokens.counting import UNAVAILABLE

PROJECT = "openchatml-viewer"
HTMX = ROOT / "node_modules" / "htmx.org" / "dist"
SAMPLE = "harmony-gpt-oss-weather.txt"
STEP_TIMEOUT = 180
SERVER_START_TIMEOUT = 60
NATIVE_EXTRAS = {"fast": "hyperscan", "tokens": "tiktoken", "production": "gunicorn"}
"""The optional native parts, by extra: none is installed in the venv under test."""
TOKEN = next(canary.secret for canary in canaries(seed=3) if canary.secret.startswith("ghp_"))
SECRET_UPLOAD = (f"<|start|>user<|message|>Push with my token {TOKEN} please<|end|>"
                 "<|start|>assistant<|channel|>final<|message|>Done.<|return|>")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (HTMX / "htmx.min.js").is_file():
        missing("htmx is not installed: run `npm ci` (make setup does)")
    return _build_wheel(tmp_path_factory.mktemp("build"))


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _install(wheel, tmp_path_factory.mktemp("install"))


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder away from the checkout to run the installed program in."""
    return tmp_path_factory.mktemp("elsewhere")


@pytest.fixture(scope="module")
def installed_server(venv: Path, work: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The installed console script serving on a free port: its base URL. Its log must hold no traceback."""
    folder = tmp_path_factory.mktemp("server")
    port = _free_port()
    log = folder / "server.log"
    with log.open("wb") as output:
        server = subprocess.Popen([venv / "bin" / PROJECT, "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--db", str(folder / "viewer.sqlite3")],
                                  cwd=work, env=_clean_env(), stdout=output, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_until_up(server, base, log)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")


def test_the_wheel_bundles_htmx_templates_static_files_and_samples(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert not [name for name in names if "node_modules" in name.split("/")]
    bundled = "viewer/bundled/"
    assert zipfile.ZipFile(wheel).read(bundled + "vendor/htmx.org/dist/htmx.min.js") == (HTMX / "htmx.min.js").read_bytes()
    assert bundled + "vendor/htmx.org/dist/htmx.js" in names
    for folder in ("templates", "static", "sample_transcripts"):
        expected = {path.relative_to(ROOT).as_posix() for path in (ROOT / folder).rglob("*")
                    if path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts}
        assert {name.removeprefix(bundled) for name in names if name.startswith(bundled + folder + "/")} == expected


def test_the_native_parts_are_extras_of_the_wheel(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        [name] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        fields = Parser().parsestr(archive.read(name).decode())
    required = [Requirement(line) for line in fields.get_all("Requires-Dist")]
    for extra, package in NATIVE_EXTRAS.items():
        assert extra in fields.get_all("Provides-Extra")
        [requirement] = [requirement for requirement in required if requirement.name == package]
        assert requirement.marker is not None and requirement.marker.evaluate({"extra": extra})
        assert not requirement.marker.evaluate({"extra": ""})


def test_the_venv_has_none_of_the_native_parts_and_scans_with_re(venv: Path, work: Path) -> None:
    found = _run([venv / "bin" / "python", "-c", "import importlib.util, sys; "
                  "print([name for name in sys.argv[1:] if importlib.util.find_spec(name)])",
                  *NATIVE_EXTRAS.values()], work)
    assert found.strip() == "[]"
    engine = _run([venv / "bin" / "python", "-c", "from viewer.secrets.anchors import DEFAULT_ENGINE; "
                   "print(DEFAULT_ENGINE)"], work)
    assert engine.strip() == "re"


def test_the_installed_wheel_runs_from_another_folder(venv: Path, work: Path) -> None:
    where = _run([venv / "bin" / "python", "-c", "from viewer.settings import folders; print(folders.TEMPLATES)"], work)
    assert Path(where.strip()).is_relative_to(venv) and "bundled" in where
    parsed = json.loads(_run([venv / "bin" / PROJECT, "parse", ROOT / "sample_transcripts" / SAMPLE], work))
    assert parsed["schema"] == "openchatml-viewer/3" and parsed["messages"]


def test_the_installed_wheel_serves_every_page(installed_server: str) -> None:
    base = installed_server
    status, kind, home = _get(base + "/")
    assert status == 200 and "/t/sample-harmony-gpt-oss-weather" in home.decode()
    status, _, _ = _get(base + "/t/sample-harmony-gpt-oss-weather")
    assert status == 200
    status, kind, _ = _get(base + "/t/sample-no-such-transcript")
    assert status == 404 and kind.startswith("text/html")  # error.html, not a 500
    status, kind, css = _get(base + "/static/app.css")
    assert status == 200 and kind.startswith("text/css") and css == (ROOT / "static" / "app.css").read_bytes()
    status, kind, script = _get(base + "/vendor/htmx/htmx.min.js")
    assert status == 200 and kind.startswith("text/javascript") and script == (HTMX / "htmx.min.js").read_bytes()
    status, kind, _ = _get(base + "/pygments.css")
    assert status == 200 and kind.startswith("text/css")


def test_an_upload_to_the_installed_wheel_has_its_secret_masked(installed_server: str) -> None:
    status, _, body = _post(installed_server + "/api/transcripts?debug=allow", SECRET_UPLOAD.encode())
    assert status == 201, body
    answer = json.loads(body)
    assert answer["secrets"] == {"count": 1, "kinds": {"GitHub token": 1}}
    status, _, page = _get(answer["url"])
    assert status == 200 and "[secret: GitHub token]" in page.decode() and TOKEN not in page.decode()
    status, _, context = _get(f"{answer['url']}/context/1")
    assert status == 200 and UNAVAILABLE in context.decode() and TOKEN not in context.decode()


def _build_wheel(tmp_path: Path) -> Path:
    """`pip wheel` of the checkout, with setuptools' build folder in tmp_path (not the checkout's build/)."""
    config = tmp_path / "build.cfg"
    config.write_text(f"[build]\nbuild_base = {tmp_path / 'build'}\n")
    out = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-cache-dir",
          "--disable-pip-version-check", "--quiet", "--wheel-dir", out, ROOT], tmp_path,
         DIST_EXTRA_CONFIG=str(config))
    [wheel] = out.glob("openchatml_viewer-*.whl")
    return wheel


def _install(wheel: Path, tmp_path: Path) -> Path:
    """A clean venv (no system site-packages) with the wheel, its dependencies from a local folder only."""
    wheelhouse = tmp_path / "wheelhouse"
    wheelhouse.mkdir()
    for dist in _dependencies(PROJECT):
        _repack(dist, wheelhouse)
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", venv], tmp_path)
    _run([venv / "bin" / "python", "-m", "pip", "install", "--isolated", "--no-index", "--find-links", wheelhouse,
          "--no-cache-dir", "--disable-pip-version-check", "--quiet", wheel], tmp_path)
    return venv


def _dependencies(name: str) -> list[metadata.Distribution]:
    """The installed distributions `name` needs (not its extras), found through their requirements."""
    found: dict[str, metadata.Distribution] = {}
    todo = [(name, frozenset[str]())]
    seen = set()
    while todo:
        wanted, extras = todo.pop()
        if (canonicalize_name(wanted), extras) in seen:
            continue
        seen.add((canonicalize_name(wanted), extras))
        dist = metadata.distribution(wanted)
        if canonicalize_name(wanted) != canonicalize_name(name):
            found[canonicalize_name(wanted)] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or any(requirement.marker.evaluate({"extra": extra})
                                                 for extra in extras | {""}):
                todo.append((requirement.name, frozenset(requirement.extras)))
    return list(found.values())


def _repack(dist: metadata.Distribution, folder: Path) -> Path:
    """A wheel of an installed distribution, from the files its RECORD lists inside site-packages (scripts and
    headers outside it are left out: pip writes console scripts again from entry_points.txt)."""
    files = [file for file in dist.files or () if file.parts[0].endswith(".dist-info")]
    assert files, f"{dist.metadata['Name']} was not installed from a wheel (no RECORD): reinstall it with pip"
    info = files[0]
    info_dir = info.parts[0]
    tags = re.findall(r"^Tag: (\S+)$", dist.read_text("WHEEL") or "", re.MULTILINE)
    assert tags, f"{dist.metadata['Name']}: no wheel tags in its WHEEL file"
    tag = "-".join(".".join(sorted({t.split("-")[i] for t in tags})) for i in range(3))
    name, version = re.sub(r"[-_.]+", "_", dist.metadata["Name"]), dist.version
    target = folder / f"{name}-{version}-{tag}.whl"
    skip = {f"{info_dir}/{file}" for file in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")}
    record = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for file in dist.files:
            path = file.as_posix()
            if path.startswith("../") or path in skip or "__pycache__" in file.parts or path.endswith(".pyc"):
                continue
            data = Path(dist.locate_file(file)).read_bytes()
            archive.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        record.append(f"{info_dir}/RECORD,,")
        archive.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return target


def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would point a process at this checkout or configure the viewer."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("VIEWER_", "PYTHON", "PIP_", "VIRTUAL_ENV", "DIST_EXTRA_CONFIG"))}
    return {**env, **extra}


def _run(command: list, cwd: Path, **env: str) -> str:
    result = subprocess.run([str(part) for part in command], cwd=cwd, env=_clean_env(**env), capture_output=True,
                            text=True, timeout=STEP_TIMEOUT)
    assert result.returncode == 0, f"{command[:4]} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_up(server: subprocess.Popen, base: str, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server exited ({server.returncode}):\n{log.read_text()}"
        try:
            if _get(base + "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the server did not answer /healthz within {SERVER_START_TIMEOUT} s:\n{log.read_text()}")


def _get(url: str) -> tuple[int, str, bytes]:
    return _open(urllib.request.Request(url))


def _post(url: str, data: bytes) -> tuple[int, str, bytes]:
    return _open(urllib.request.Request(url, data=data, headers={"Content-Type": "text/plain"}))


def _open(request: urllib.request.Request) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()
