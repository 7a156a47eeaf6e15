"""Crash benchmark: uploads while gunicorn is killed with SIGKILL; nothing confirmed may be lost. The harness lives in
tests/harness/crash.py, which the tests run in small; this is its command line (`--help` for options)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness.crash import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
