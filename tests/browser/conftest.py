"""Browser test setup: the app on a loopback port with a temporary database, and Debian's Chromium."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Iterator

import pytest
from werkzeug.serving import make_server

from tests.conftest import ROOT
from viewer.web import create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("browser") / "viewer.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests", "PRELOAD_SAMPLES": False})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
