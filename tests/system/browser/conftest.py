"""Browser test setup: where screenshots go. The `server` and `browser` fixtures are in tests/conftest.py,
shared with tests/system/hostile."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
