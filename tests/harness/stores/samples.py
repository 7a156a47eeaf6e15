"""The samples that are databases or archives of several files, made at `make setup` into sample_transcripts/
(never committed: a database or an archive hides its text from review; tests/harness/stores holds what makes them):

- each agent store, from its builder in this folder (goose.py, crush.py, opencode.py, cursor.py), whole and
  damaged (`--broken`: a value cut short as it was written, a row whose owner is missing);
- each folder under folders/, packed into a zip archive of its name (viewer/bundles/pack.py, so the same files
  always make the same bytes): a session with its sub-agents' files, as the agent stores them apart.

    .venv/bin/python -m tests.harness.stores.samples sample_transcripts
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.harness.stores import crush, cursor, goose, opencode
from viewer.bundles import pack

FOLDERS = Path(__file__).resolve().parent / "folders"
STORES = {"goose-1.51-sessions-subagent.db": (goose.build, False), "goose-broken-cut-short.db": (goose.build, True),
          "crush-sessions-agent-tool.db": (crush.build, False), "crush-broken-cut-short.db": (crush.build, True),
          "opencode-1.2-sessions-subagent.db": (opencode.build, False),
          "opencode-broken-db-cut-short.db": (opencode.build, True),
          "cursor-state-chat-subagent.vscdb": (cursor.build, False),
          "cursor-broken-state-cut-short.vscdb": (cursor.build, True)}


def made(folder: Path) -> list[Path]:
    """Write every sample into `folder` (a file whose bytes are already the same is left alone); the paths."""
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, (build, broken) in STORES.items():
            built = Path(scratch) / name
            build(built if build in (goose.build, crush.build) else str(built), broken)
            written.append(_kept(folder / name, built.read_bytes()))
    for source in sorted(path for path in FOLDERS.iterdir() if path.is_dir()):
        files = sorted(path for path in source.rglob("*") if path.is_file())
        written.append(_kept(folder / f"{source.name}.zip", pack.packed(pack.folder_files(source, files))))
    return written


def _kept(path: Path, data: bytes) -> Path:
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
    return path


if __name__ == "__main__":
    for path in made(Path(sys.argv[1] if len(sys.argv) > 1 else "sample_transcripts")):
        print(path)
