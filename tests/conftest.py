"""Shared test setup: golden-file switch, Hypothesis profiles, and the live server and Chromium that
tests/system/browser and tests/system/hostile share (one sync Playwright per process: a second one cannot start)."""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_transcripts"
GOLDEN = Path(__file__).resolve().parent / "golden"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

# CI runs the property tests harder than a developer's quick loop.
settings.register_profile("ci", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/golden from the current parser")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a loopback port with a temporary database, for the browser."""
    from werkzeug.serving import make_server

    from viewer.web import create_app

    database = tmp_path_factory.mktemp("browser") / "viewer.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests", "PRELOAD_SAMPLES": False})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright's sync API, for the whole session."""
    if not CHROMIUM.exists():
        pytest.skip("the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
