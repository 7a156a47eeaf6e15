"""The store every test here reads and writes: on SQLite, and on PostgreSQL where `database_url` runs on both."""
from __future__ import annotations

import pytest

from viewer.store import Store


@pytest.fixture
def store(database_url):
    store = Store(database_url)
    yield store
    store.engine.dispose()
