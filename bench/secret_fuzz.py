"""Long fuzz run of the secret masking: canaries planted in mutated and generated transcripts, every found
secret checked absent from what link holders read. The harness lives in tests/harness/secret_fuzz.py, which
the tests run in small; this is its command line (`--help` for options)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness.secret_fuzz import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
