"""Web test setup: an app with a temporary database, clients for the uploader and for a stranger. Every test
that uses the app runs twice, on SQLite and on PostgreSQL (`database_url` in tests/conftest.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from viewer.web import create_app

FIXTURES = Path(__file__).resolve().parent / "fixtures"
WEATHER = FIXTURES / "harmony-weather.txt"
HIDDEN_CANARIES = ("SYSTEM-CANARY-7Q", "DEVELOPER-CANARY-3K", "ANALYSIS-CANARY-9X", "CALL-CANARY-5M",
                   "REPLY-CANARY-2P")


@pytest.fixture
def make_app(database_url: str) -> Iterator[Callable[..., Flask]]:
    """Apps on this test's database (SQLite or PostgreSQL); their connections are closed after the test."""
    stores, apps = [], []

    def make(**config: Any) -> Flask:
        # No per-client limits unless a test asks (tests/web/test_limits.py): one test client sends more searches
        # and uploads in a second than a person sends in an hour.
        settings = {"DATABASE": database_url, "SECRET_KEY": "test", "TESTING": True,
                    "PRELOAD_SAMPLES": False, "LIMITS": False, **config}
        app = create_app(settings)
        apps.append(app)
        stores.append(app.extensions["viewer.store"])  # kept here: a test may replace the app's
        return app
    yield make
    for app in apps:
        # Its threads end before its store does: an upload still processed, or a sweep, after the dispose would
        # open a connection that nobody closes, whose warning, once collected, fails whichever test runs then.
        processor = app.extensions["viewer.processor"]
        processor.close()  # first: an upload waiting to be tried again after a storage fault stops waiting
        processor.idle(30)
    for store in stores:
        store.engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """The uploader's browser."""
    return app.test_client()


@pytest.fixture
def stranger(app: Flask) -> FlaskClient:
    """Someone who only has the share link."""
    return app.test_client()


@pytest.fixture
def upload(client: FlaskClient) -> Callable[..., dict[str, str]]:
    """Upload through the API as the uploader's browser would through the form; returns id, url, manage_url.
    A big upload (answered 202 before it is processed: viewer/ingest/processor.py) is waited for."""
    def do(raw: bytes | None = None, **query: str) -> dict[str, str]:
        response = client.post("/api/transcripts", data=WEATHER.read_bytes() if raw is None else raw,
                               query_string=query)
        assert response.status_code in (201, 202), response.data
        assert client.application.extensions["viewer.processor"].idle(120)
        return response.get_json()
    return do


@pytest.fixture
def owned(client: FlaskClient, upload: Callable[..., dict[str, str]]) -> Callable[..., str]:
    """Upload and open the manage link, so the uploader's browser owns the transcript; returns its id."""
    def do(raw: bytes | None = None, **query: str) -> str:
        created = upload(raw, **query)
        assert client.get(created["manage_url"]).status_code == 303
        return created["id"]
    return do


def soup(response: Any) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def text_of(response: Any) -> str:
    """All text and attribute values of a page, to check what is absent from it."""
    page = soup(response)
    attributes = " ".join(str(value) for tag in page.find_all(True) for value in tag.attrs.values())
    return page.get_text(" ") + " " + attributes


def harmony(*messages: tuple[str, str, str]) -> bytes:
    """A Harmony transcript from (role, channel, content) triples; channel '' means none."""
    parts = []
    for role, channel, content in messages:
        header = role + (f"<|channel|>{channel}" if channel else "")
        parts.append(f"<|start|>{header}<|message|>{content}<|end|>")
    return "".join(parts).encode()
