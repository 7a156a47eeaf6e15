"""Hostile-corpus setup: one app and database for the whole corpus (creating an app per test costs more than
the test), the uploader's client and a stranger's. The live `server` and `browser` are in tests/conftest.py."""
from __future__ import annotations

from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from viewer.web import create_app


@pytest.fixture(scope="session")
def corpus_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("hostile") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "hostile", "TESTING": True, "LIMITS": False,
                      "PRELOAD_SAMPLES": False})


@pytest.fixture(scope="session")
def windowed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """Windows of four entries, so that a corpus transcript takes several next-window requests."""
    database = tmp_path_factory.mktemp("windowed") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "hostile", "TESTING": True, "LIMITS": False,
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
