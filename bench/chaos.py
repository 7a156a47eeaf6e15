"""Fault harness: kill -9, SIGTERM, a full disk, PostgreSQL stopped and started, slow clients and a flood, each
against a real gunicorn; prints a table of requests, statuses, acknowledged uploads lost (must be 0) and time to
recover. The harness lives in tests/harness/chaos.py, which tests/system/test_chaos.py runs small; this is its
command line (`--help` for options)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness.chaos import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
