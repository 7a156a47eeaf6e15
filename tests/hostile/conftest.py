"""Hostile-corpus setup: one app and database for the whole corpus (creating an app per test costs more than
the test), the uploader's client, a stranger's, and Chromium on a thread of its own."""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, server  # noqa: F401 - the browser tests' server
from viewer.web import create_app

BROWSER_CALL_TIMEOUT = 180.0


@pytest.fixture(scope="session")
def corpus_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("hostile") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "hostile", "TESTING": True,
                      "PRELOAD_SAMPLES": False})


@pytest.fixture(scope="session")
def windowed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """Windows of four entries, so that a corpus transcript takes several next-window requests."""
    database = tmp_path_factory.mktemp("windowed") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "hostile", "TESTING": True,
                      "PRELOAD_SAMPLES": False, "WINDOW_SIZE": 4})


@pytest.fixture(scope="session")
def uploader(corpus_app: Flask) -> FlaskClient:
    return corpus_app.test_client()


@pytest.fixture(scope="session")
def stranger(corpus_app: Flask) -> FlaskClient:
    return corpus_app.test_client()


def printable(text: str) -> str:
    """Text that can travel in a URL (lone surrogates replaced)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def upload_owned(client: FlaskClient, raw: bytes, **query: str) -> str:
    """Upload through the API and open the manage link, so `client` is the uploader; returns the id."""
    response = client.post("/api/transcripts", data=raw, query_string=query)
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    assert client.get(created["manage_url"]).status_code == 303
    return created["id"]


# ---- Chromium --------------------------------------------------------------------------------------------

@dataclass
class _Call:
    work: Callable[[Any], Any]
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


class BrowserThread:
    """Chromium driven by Playwright's sync API on a thread of its own.

    tests/browser keeps a sync Playwright running on the main thread for the whole session, and a second one
    cannot start on the same thread ("using Playwright Sync API inside the asyncio loop"), so importing its
    `browser` fixture breaks a whole-suite run. Here the corpus's tests hand their browser work to this thread.
    """

    def __init__(self) -> None:
        self.calls: queue.Queue[_Call | None] = queue.Queue()
        self.ready = _Call(lambda browser: None)
        self.thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
        self.thread.start()
        if not self.ready.done.wait(BROWSER_CALL_TIMEOUT):
            raise TimeoutError("Chromium did not start")
        if self.ready.error is not None:
            raise self.ready.error

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                self.ready.done.set()
                while (call := self.calls.get()) is not None:
                    try:
                        call.result = call.work(browser)
                    except BaseException as error:  # noqa: BLE001 - handed to the test's thread
                        call.error = error
                    call.done.set()
                browser.close()
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            self.ready.error = error
            self.ready.done.set()

    def run(self, work: Callable[[Any], Any]) -> Any:
        """Run `work(browser)` on the Chromium thread; its exception (a failed assert) is raised here."""
        call = _Call(work)
        self.calls.put(call)
        if not call.done.wait(BROWSER_CALL_TIMEOUT):
            raise TimeoutError("the browser work did not finish")
        if call.error is not None:
            raise call.error
        return call.result

    def close(self) -> None:
        self.calls.put(None)
        self.thread.join(timeout=60)


@pytest.fixture(scope="session")
def chromium() -> Iterator[BrowserThread]:
    if not CHROMIUM.exists():
        pytest.skip("the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)")
    browser = BrowserThread()
    yield browser
    browser.close()
